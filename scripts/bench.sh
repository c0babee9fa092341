#!/usr/bin/env bash
# Benchmark suite: builds olens_bench_suite (Release, GUI and tests off) in ${BUILD_DIR:-build-bench}
# and writes docs/benchmarks.json and docs/benchmarks.md. Takes several minutes; run it on an
# otherwise idle machine for meaningful numbers. Extra arguments go to the suite
# (e.g. --runs 5, --only grid,detectors, --budget 30).
#
#   scripts/bench.sh --peers [--runs N] [--only TASK] [--gui PATH]   instead: OutlierLens against
#   NumPy/SciPy (OpenBLAS), scikit-learn and ELKI (Debian's elki, Java) on real data
#   (scripts/real-data.sh), alternately, medians (bench/peers.py), plus the GUI rows (the GUI of a GUI
#   build, default build/app/gui/outlierlens, against its CLI; skipped when there is none); writes
#   docs/peers.json and the "Peers" section of docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--peers" ]; then
  shift
  # The load before the installs, the data export and the build below (bench/peers.py prints it).
  export OLENS_LOAD_AT_START="$(cut -d' ' -f1-3 /proc/loadavg)"
  bash scripts/deps.sh python3-numpy python3-scipy python3-sklearn libopenblas0-pthread elki
  bash scripts/real-data.sh
  BUILD_DIR=${BUILD_DIR:-build-bench}
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOLENS_BUILD_GUI=OFF -DOLENS_BUILD_TESTS=OFF \
      -DOLENS_BUILD_PYTHON=OFF -DOLENS_NATIVE=${OLENS_NATIVE:-ON} -DCMAKE_CXX_COMPILER_LAUNCHER=$(command -v ccache || true)
  fi
  cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target outlierlens-cli
  # The KODS paper's fig. 1d ring at the speed issue's sizes, 5 % uniform outliers (seeded).
  for n in 1000 3000; do
    [ -f data/ring$n.csv ] || "$BUILD_DIR/app/cli/outlierlens-cli" generate ring --n $n --seed 1 \
      --param outliers=0.05 --output data/ring$n.csv
  done
  exec /usr/bin/python3 bench/peers.py --cli "$BUILD_DIR/app/cli/outlierlens-cli" "$@"
fi
bash scripts/deps.sh
BUILD_DIR=${BUILD_DIR:-build-bench}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DOLENS_BUILD_GUI=OFF -DOLENS_BUILD_TESTS=OFF -DOLENS_BUILD_BENCH=ON -DOLENS_NATIVE=${OLENS_NATIVE:-ON} \
    -DCMAKE_CXX_COMPILER_LAUNCHER=$(command -v ccache || true)
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target olens_bench_suite
mkdir -p docs
# The suite's tables replace only the marked suite section of docs/benchmarks.md: the dated
# history and the sections other scripts write (realdata, peers) stay.
SUITE_MD=$(mktemp)
trap 'rm -f "$SUITE_MD"' EXIT
"$BUILD_DIR/bench/olens_bench_suite" --json docs/benchmarks.json --markdown "$SUITE_MD" "$@"
python3 - "$SUITE_MD" docs/benchmarks.md <<'PY'
import os, re, sys
suite = open(sys.argv[1]).read().strip("\n")
path = sys.argv[2]
md = open(path).read() if os.path.exists(path) else "# OutlierLens benchmarks\n"
block = "<!-- suite -->\n" + suite + "\n<!-- /suite -->"
if "<!-- suite -->" in md:
    md = re.sub(r"<!-- suite -->.*?<!-- /suite -->", lambda m: block, md, flags=re.S)
else:
    md = md.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(md)
PY
echo "bench: wrote docs/benchmarks.json and the suite section of docs/benchmarks.md"
