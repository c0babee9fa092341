#!/usr/bin/env bash
# Configures (Ninja) and builds OutlierLens into ${BUILD_DIR:-build}.
# Extra CMake arguments can be passed through CMAKE_ARGS, e.g. CMAKE_ARGS="-DOLENS_SANITIZE=address".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" ${CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
