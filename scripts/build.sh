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
  # Files compiled with a precompiled header (OLENS_PCH) are cacheable only with these.
  export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
fi
# The configuration is a function of these arguments: when they differ from the ones the build
# directory was configured with (recorded in .olens-configure), it is configured afresh (--fresh
# drops the old cache, so an option removed from CMAKE_ARGS is really gone); otherwise CMake's own
# regeneration on a changed CMakeLists.txt is enough and the configure step is skipped.
CONFIG_ARGS=(-G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DOLENS_NATIVE="${OLENS_NATIVE:-ON}" $LAUNCHER ${CMAKE_ARGS:-})
STAMP="$BUILD_DIR/.olens-configure"
if [ ! -f "$BUILD_DIR/build.ninja" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "${CONFIG_ARGS[*]}" ]; then
  FRESH=""
  if [ -f "$BUILD_DIR/CMakeCache.txt" ]; then
    echo "build.sh: configuration arguments changed; configuring $BUILD_DIR afresh"
    FRESH="--fresh"
  fi
  cmake $FRESH -S . -B "$BUILD_DIR" "${CONFIG_ARGS[@]}"
  printf '%s' "${CONFIG_ARGS[*]}" > "$STAMP"
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
