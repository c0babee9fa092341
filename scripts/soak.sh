#!/usr/bin/env bash
# Memory soak (issue #20, figures, not a unit test): the GUI trains quadrics live on the seam sample
# for a long time (tol = 0 so it never stops early, live surfaces redrawn after every snapshot) and
# the resident set size is sampled every second. Prints RSS after the short warm-up and at the end;
# fails (exit 1) when the end is more than 10 % above the warm-up figure.
#   scripts/soak.sh [SECONDS=60] [WARMUP=10]      (after scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${1:-60}
WARM=${2:-10}
BIN=${BUILD_DIR:-build}/app/gui/outlierlens
[ -x "$BIN" ] || { echo "soak: build first (scripts/build.sh): $BIN is missing" >&2; exit 2; }
state=$(mktemp -d)
log=$(mktemp)
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null || true; rm -rf "$state" "$log"; }
trap cleanup EXIT
run() {
  OLENS_STATE_DIR="$state" "$BIN" --load samples/seam3d.csv --detector quadrics \
    --param epochs=10000000 --param tol=0 --train >"$log" 2>&1 &
  pid=$!
  rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0; }
  sleep 2
  local warm=0 peak=0 last=0
  for t in $(seq 1 "$DUR"); do
    sleep 1
    kill -0 "$pid" 2>/dev/null || { echo "soak: the app exited early:" >&2; cat "$log" >&2; exit 1; }
    last=$(rss)
    [ "$t" -eq "$WARM" ] && warm=$last
    [ "$last" -gt "$peak" ] && peak=$last
    if [ $((t % 10)) -eq 0 ]; then echo "t = ${t} s: RSS $((last / 1024)) MiB"; fi
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  echo "RSS after ${WARM} s of training: $((warm / 1024)) MiB; after ${DUR} s: $((last / 1024)) MiB (peak $((peak / 1024)) MiB)"
  awk -v w="$warm" -v l="$last" 'BEGIN { r = l / w; printf "ratio end / warm-up: %.3f (limit 1.10)\n", r; exit (r > 1.10) }'
}
if [ -n "${DISPLAY:-}" ]; then run; else exec xvfb-run -a -s "-screen 0 1600x1000x24" bash "$0" "$@"; fi
