#!/usr/bin/env bash
# One command for the whole test suite: install what is missing, build, run every CTest test.
# GUI tests need a real X server with OpenGL, so the whole run happens under xvfb-run (Mesa llvmpipe).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
cd "$BUILD_DIR"
xvfb-run -a -s "-screen 0 1600x1000x24" ctest --output-on-failure -j "${JOBS:-2}" "$@"
