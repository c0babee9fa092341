#!/usr/bin/env bash
# libFuzzer runs: builds the fuzz targets with clang + ASan + UBSan in ${BUILD_DIR:-build-fuzz}
# (GUI, tests and benchmarks off) and runs each target for FUZZ_SECONDS (default 60) seconds.
#
#   scripts/fuzz.sh                     every target (fuzz_loader, fuzz_model, fuzz_session, fuzz_ply)
#   FUZZ_SECONDS=600 scripts/fuzz.sh fuzz_loader
#   FUZZ_KEEP_GOING=1 scripts/fuzz.sh   do not stop at the first crash (libFuzzer -fork=1 mode)
#
# Seeds: fuzz/corpus/<target>/ and fuzz/regressions/<target>/ (both in the repo, read-only here).
# Inputs that reach new coverage go to $BUILD_DIR/corpus/<target>/ (not committed); crashes,
# timeouts, leaks and out-of-memory inputs are written to fuzz/crashes/<target>/. Fixed crashes
# move to fuzz/regressions/<target>/, which tests/fuzz/TestFuzzRegressions.cpp replays in every test run.
# Exit status: non-zero if any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh clang libclang-rt-14-dev llvm
BUILD_DIR=${BUILD_DIR:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # -O1 -g without -DNDEBUG: Eigen's size assertions stay on and abort on a mismatch.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DOLENS_BUILD_GUI=OFF -DOLENS_BUILD_TESTS=OFF -DOLENS_BUILD_BENCH=OFF -DOLENS_BUILD_FUZZ=ON
fi
ALL=(fuzz_loader fuzz_model fuzz_session fuzz_ply)
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=("${ALL[@]}"); fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target "${TARGETS[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for t in "${TARGETS[@]}"; do
  work="$BUILD_DIR/corpus/$t"
  crashes="fuzz/crashes/$t"
  mkdir -p "$work" "$crashes"
  dirs=("$work" "fuzz/corpus/$t")
  if [ -d "fuzz/regressions/$t" ]; then dirs+=("fuzz/regressions/$t"); fi
  extra=()
  if [ -f "fuzz/$t.dict" ]; then extra+=("-dict=fuzz/$t.dict"); fi
  if [ -n "${FUZZ_KEEP_GOING:-}" ]; then extra+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
  echo "=== $t: ${FUZZ_SECONDS}s"
  if ! "$BUILD_DIR/fuzz/$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" "${extra[@]}" "${dirs[@]}"; then
    failed+=("$t")
  fi
  if [ -n "$(ls -A "$crashes" 2>/dev/null)" ]; then failed+=("$t"); fi
  rmdir "$crashes" 2>/dev/null || true
done
rmdir fuzz/crashes 2>/dev/null || true
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in $(printf '%s\n' "${failed[@]}" | sort -u | tr '\n' ' ')(inputs in fuzz/crashes/)" >&2
  exit 1
fi
echo "fuzz: ${TARGETS[*]} clean for ${FUZZ_SECONDS}s each"
