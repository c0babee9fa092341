#!/usr/bin/env bash
# One command for a new user: install what is missing, build, and open the GUI on a bundled sample.
# Any extra arguments are passed to the app (e.g. scripts/run.sh --load mydata.csv).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
if [ $# -eq 0 ]; then set -- --load samples/seam3d.csv; fi
if [ -z "${DISPLAY:-}" ]; then
  echo "run: no DISPLAY; starting the app under xvfb-run (pass --screenshot OUT.png --exit to capture it)"
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD_DIR/app/gui/outlierlens" "$@"
fi
exec "$BUILD_DIR/app/gui/outlierlens" "$@"
