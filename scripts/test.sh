#!/usr/bin/env bash
# One command for the whole test suite: install what is missing, build, run every CTest test.
# GUI tests need a real X server with OpenGL, so the whole run happens under xvfb-run (Mesa llvmpipe).
#
#   scripts/test.sh            RelWithDebInfo build in build/, every test
#   scripts/test.sh --asan     AddressSanitizer + UBSan build in build-asan/, every test
#   scripts/test.sh --tsan     ThreadSanitizer build in build-tsan/, every test
# Further arguments go to ctest (e.g. -R TestKic).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=default
if [ "${1:-}" = "--asan" ] || [ "${1:-}" = "--tsan" ]; then MODE=${1#--}; shift; fi
bash scripts/deps.sh
case "$MODE" in
  asan)
    export BUILD_DIR=${BUILD_DIR:-build-asan} BUILD_TYPE=Debug CMAKE_ARGS="-DOLENS_SANITIZE=address -DOLENS_BUILD_BENCH=OFF"
    # VTK/Qt/Mesa keep global allocations alive at exit: leaks are not what this run looks for.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} ;;
  tsan)
    export BUILD_DIR=${BUILD_DIR:-build-tsan} BUILD_TYPE=RelWithDebInfo CMAKE_ARGS="-DOLENS_SANITIZE=thread -DOLENS_BUILD_BENCH=OFF"
    # Qt is not built with TSan: its mutexes (futexes) and atomic refcounts are invisible, which
    # makes Qt's own hand-offs (queued calls, QFuture results, the QtTest watchdog) look racy.
    # ignore_noninstrumented_modules drops those reports; races in our code are still reported.
    # tests/tsan.supp names the one hand-off compiled into our binaries from Qt's templates.
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$PWD/tests/tsan.supp}
    ;;
esac
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
cd "$BUILD_DIR"
xvfb-run -a -s "-screen 0 1600x1000x24" ctest --output-on-failure -j "${JOBS:-2}" "$@"
