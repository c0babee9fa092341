#!/usr/bin/env bash
# GUI responsiveness figures (not assertions): time from Cancel to the worker stopping, and the
# worst gap between 10 ms GUI-thread timer ticks while a 300 000-point knn trains. Runs the
# TestTraining measurements (and the close-during-training one of TestSessionsAndEditing) N times (default 5) under xvfb and prints each figure's median.
#   scripts/responsiveness.sh [N]      (after scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5}
BIN=${BUILD_DIR:-build}/tests/TestTraining
cancel=(); gap=(); closing=()
BIN2=${BUILD_DIR:-build}/tests/TestSessionsAndEditing
for i in $(seq "$N"); do
  out=$(QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" "$BIN" \
        cancelIsQuickAndKeepsThePreviousResult eventLoopKeepsRespondingWhileTraining 2>&1 || true)
  cancel+=("$(sed -n 's/.*RESPONSIVENESS cancel honoured after \([0-9]*\) ms.*/\1/p' <<<"$out")")
  gap+=("$(sed -n 's/.*worst GUI gap \([0-9]*\) ms.*/\1/p' <<<"$out")")
  out=$(QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" "$BIN2" closingDuringTrainingExitsPromptly 2>&1 || true)
  closing+=("$(sed -n 's/.*RESPONSIVENESS closing during training took \([0-9]*\) ms.*/\1/p' <<<"$out")")
done
median() { printf '%s\n' "$@" | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "n/a")}'; }
echo "runs: $N ($(nproc) cores)"
echo "cancel -> stopped, median: $(median "${cancel[@]}") ms   (all: ${cancel[*]})"
echo "closing the window during a training, median: $(median "${closing[@]}") ms   (all: ${closing[*]})"
echo "worst GUI-thread gap while training, median: $(median "${gap[@]}") ms   (all: ${gap[*]})"
