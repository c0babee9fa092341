#!/usr/bin/env bash
# Configures (Ninja) and builds OutlierLens into ${BUILD_DIR:-build}.
# Extra CMake arguments can be passed through CMAKE_ARGS, e.g. CMAKE_ARGS="-DOLENS_SANITIZE=address".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
# ccache, when installed, makes rebuilds after a branch switch or in a second clone cheap.
LAUNCHER=""
if command -v ccache >/dev/null 2>&1; then
  LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  # Paths relative to the checkout, so a fresh clone elsewhere hits the same cache entries.
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DOLENS_NATIVE=${OLENS_NATIVE:-ON} $LAUNCHER ${CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
