#!/usr/bin/env bash
# Hostile-input run (issue #20): builds a corpus of bad files and parameters in a temporary
# directory and runs each case through outlierlens-cli (and, unless --no-gui, the GUI headless:
# outlierlens --load FILE --exit on an Xvfb server), each under a timeout and an address-space limit
# (ulimit -v). Prints one line per case and the totals:
#   tried, clean, crashes, hangs, memory blow-ups, data lost
# "clean" = the expected outcome: bad input -> exit 1 with a one-line message; good input -> exit 0.
# "data lost" = a protected file changed, or bad input accepted (fabricated data / wrong truth).
# Exit status 0 iff every case was clean.
#   scripts/hostile.sh [--quick] [--no-gui] [--build-dir DIR]
# --quick: a CLI-only subset that runs in a few seconds (ctest HostileQuick).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}
QUICK=0
GUI=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; GUI=0 ;;
    --no-gui) GUI=0 ;;
    --build-dir) BUILD=$2; shift ;;
    *) echo "usage: scripts/hostile.sh [--quick] [--no-gui] [--build-dir DIR]" >&2; exit 2 ;;
  esac
  shift
done
CLI=$BUILD/app/cli/outlierlens-cli
APP=$BUILD/app/gui/outlierlens
[ -x "$CLI" ] || { echo "hostile.sh: $CLI not built (scripts/build.sh)" >&2; exit 2; }
if [ "$GUI" = 1 ] && { [ ! -x "$APP" ] || ! command -v Xvfb >/dev/null; }; then
  echo "hostile.sh: GUI or Xvfb missing, CLI cases only" >&2
  GUI=0
fi
CLI=$(realpath "$CLI")
[ "$GUI" = 1 ] && APP=$(realpath "$APP")
T=$(mktemp -d "${TMPDIR:-/tmp}/olens-hostile.XXXXXX")
XVFB_PID=""
trap '[ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; rm -rf "$T"' EXIT
TIMEOUT=${HOSTILE_TIMEOUT:-30}
MEM_KB=${HOSTILE_MEM_KB:-3000000}      # 3 GB of address space for the CLI
GUI_MEM_KB=${HOSTILE_GUI_MEM_KB:-6000000}
if ldd "$CLI" 2>/dev/null | grep -qE 'lib(asan|tsan)'; then
  MEM_KB=unlimited GUI_MEM_KB=unlimited # sanitizers reserve terabytes of address space
fi
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
       XDG_STATE_HOME=$T/home/.local/state XDG_CACHE_HOME=$T/home/.cache
mkdir -p "$HOME" "$T/runtime" "$T/cwd"
chmod 700 "$T/runtime"
export XDG_RUNTIME_DIR=$T/runtime
if [ "$GUI" = 1 ]; then
  # One X server for every GUI case (xvfb-run per case fails now and then while cleaning up).
  for n in $(seq 91 140); do [ -e "/tmp/.X$n-lock" ] || break; done
  Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
  XVFB_PID=$!
  export DISPLAY=":$n"
  sleep 1
fi

tried=0 clean=0 crashes=0 hangs=0 blowups=0 lost=0 other=0

# run KIND EXPECT NAME PROTECT -- command...   KIND: cli|gui; EXPECT: fail|ok; PROTECT: file whose
# content must not change (or -). Classifies the outcome.
run() {
  local kind=$1 expect=$2 name=$3 protect=$4
  shift 5
  local before="" rc verdict mem=$MEM_KB
  [ "$kind" = gui ] && mem=$GUI_MEM_KB
  [ "$protect" != - ] && before=$(md5sum < "$protect" 2>/dev/null)
  tried=$((tried + 1))
  # In a scratch directory: nothing a case writes by accident lands in the checkout.
  ( cd "$T/cwd" && ulimit -v "$mem" && exec timeout -k 5 "$TIMEOUT" "$@" ) > "$T/out" 2> "$T/err" < /dev/null
  rc=$?
  local lines; lines=$(grep -c '' "$T/err")
  local longest; longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/err")
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then verdict=hang; hangs=$((hangs + 1))
  elif grep -qiE 'bad_alloc|out of memory|cannot allocate' "$T/err"; then verdict=memory; blowups=$((blowups + 1))
  elif [ $rc -gt 128 ]; then verdict="crash (signal $((rc - 128)))"; crashes=$((crashes + 1))
  elif [ "$protect" != - ] && [ "$(md5sum < "$protect" 2>/dev/null)" != "$before" ]; then verdict="data lost"; lost=$((lost + 1))
  elif [ "$expect" = fail ] && [ $rc -eq 0 ]; then verdict="accepted bad input"; lost=$((lost + 1))
  elif [ "$expect" = fail ] && [ $rc -eq 1 ] && { [ "$kind" = gui ] || { [ "$lines" -eq 1 ] && [ "$longest" -le 700 ]; }; }; then
    verdict=clean; clean=$((clean + 1))
  elif [ "$expect" = ok ] && [ $rc -eq 0 ]; then verdict=clean; clean=$((clean + 1))
  else verdict="unclear (exit $rc, $lines stderr lines)"; other=$((other + 1))
  fi
  local first; first=$(grep -m 1 -E '^outlierlens' "$T/err" || head -n 1 "$T/err")
  printf '%-5s %-44s %-10s %s\n' "$kind" "$name" "$verdict" "$(printf '%s' "$first" | head -c 150 | tr -cd '[:print:]')"
}

cli() { local e=$1 n=$2 p=$3; shift 3; run cli "$e" "$n" "$p" -- "$CLI" "$@"; }
gui() {
  [ "$GUI" = 1 ] || return 0
  local e=$1 n=$2 f=$3
  run gui "$e" "$n" - -- "$APP" --load "$f" --exit
}
score() { cli "$1" "$2" - score --input "$3" --detector knn --param k=3 --output "$T/s.csv"; gui "$1" "$2" "$3"; }

# ---- corpus ------------------------------------------------------------------------------------
H="format ascii 1.0"
P="property float x
property float y
property float z
end_header"
printf 'ply\n%s\nelement vertex 1000000000000\n%s\n1 2 3\n' "$H" "$P" > "$T/v1e12.ply"
printf 'ply\nformat binary_little_endian 1.0\nelement vertex 2147483658\n%s\nabcdefghijkl' "$P" > "$T/v2p31.ply"
printf 'ply\n%s\nelement vertex -5\n%s\n1 2 3\n' "$H" "$P" > "$T/vneg.ply"
printf 'ply\n%s\nelement vertex 2\nproperty float a\nproperty float b\nend_header\n1 2\n3 4\n' "$H" > "$T/noxyz.ply"
printf 'ply\n%s\nelement vertex 1\nproperty list uchar float x\nproperty float y\nproperty float z\nend_header\n2 1 1 2 3\n' "$H" > "$T/listx.ply"
printf 'ply\n%s\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n1 2 3\n4 5 6\n7 8 9\n' "$H" > "$T/noend.ply"
{ printf 'ply\nformat binary_little_endian 1.0\nelement vertex 1000\n%s\n' "$P"; head -c $((416 * 12)) /dev/urandom; } > "$T/short.ply"
{ printf 'ply\nformat binary_little_endian 1.0\nelement vertex 8\n%s\n' "$P"; head -c 96 /dev/urandom | tr '\0-\377' '\0-\77\0-\77\0-\77\0-\77'; } > "$T/good-bin.ply"
printf 'x,y\r1,2\r3,4\r5,6\r7,9\r2,2\r8,1\r' > "$T/cr.csv"
printf 'x\0,\0y\0\n\0001\0,\0002\0\n\0' > "$T/utf16.csv"
printf '\xff\xfex\0,\0y\0\n\0' > "$T/utf16bom.csv"
printf 'x,y\n1,2\n3,4\0\n' > "$T/nul.csv"
{ printf 'x,y\n1,2\n3,'; head -c 1000000 /dev/zero | tr '\0' 'a'; printf '\n'; } > "$T/bigcell.csv"
truncate -s 4G "$T/sparse4g.csv"
truncate -s 20M "$T/sparse20m.csv"
{ printf 'x,y\n1,2\n'; head -c 1000000 /dev/zero | tr '\0' '\n'; printf '3,4\n5,6\n7,9\n2,2\n8,1\n'; } > "$T/blank.csv"
head -c 1000000 /dev/zero | tr '\0' '\n' > "$T/onlyblank.csv"
"$CLI" generate moons --n 200 --seed 1 --param outliers=0.1 --output "$T/data.csv" >/dev/null 2>&1
"$CLI" generate moons --n 40 --seed 1 --output "$T/small.csv" >/dev/null 2>&1
awk -F, 'NR == 1 { print; next } { print $1 "," $2 "," ($3 == 1 ? "outlier" : "normal") }' "$T/data.csv" > "$T/textlab.csv"
{ head -n 1 "$T/textlab.csv"; grep ',outlier$' "$T/textlab.csv" | head -n 1; grep -v ',outlier$' "$T/textlab.csv" | tail -n +2; grep ',outlier$' "$T/textlab.csv" | tail -n +2; } > "$T/firstout.csv"
awk -F, 'NR == 1 { print; next } { print $1 "," $2 "," ($3 == 1 ? "b" : "a") }' "$T/data.csv" > "$T/ab.csv"
python3 - "$T/wide.csv" <<'PY' 2>/dev/null || awk 'BEGIN { srand(1); for (j = 1; j <= 120; j++) printf "f%d%s", j, (j < 120 ? "," : "\n"); for (i = 0; i < 40; i++) for (j = 1; j <= 120; j++) printf "%.4f%s", rand(), (j < 120 ? "," : "\n") }' > "$T/wide.csv"
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write(",".join(f"f{j}" for j in range(120)) + "\n")
    for _ in range(40):
        f.write(",".join(f"{random.random():.4f}" for _ in range(120)) + "\n")
PY
echo "precious" > "$T/victim.txt"
ln -s "$T/victim.txt" "$T/link.csv"
mkfifo "$T/fifo.csv"
cp "$T/data.csv" "$T/keep.csv"

# ---- cases -------------------------------------------------------------------------------------
score fail "ply: vertex count 10^12" "$T/v1e12.ply"
score fail "ply: vertex count 2^31+10 (binary)" "$T/v2p31.ply"
score fail "ply: vertex count -5" "$T/vneg.ply"
score fail "ply: no x/y/z" "$T/noxyz.ply"
score fail "ply: list property for x" "$T/listx.ply"
score fail "ply: no end_header" "$T/noend.ply"
score fail "ply: truncated binary body (416 of 1000)" "$T/short.ply"
cli fail "input: /dev/zero" - score --input /dev/zero --detector knn --output "$T/s.csv"
cli fail "input: NUL byte" - score --input "$T/nul.csv" --detector knn --output "$T/s.csv"
cli fail "input: UTF-16 without BOM" - score --input "$T/utf16.csv" --detector knn --output "$T/s.csv"
cli fail "output: symlink" "$T/victim.txt" generate moons --n 20 --output "$T/link.csv"
cli fail "output: FIFO" - generate moons --n 20 --output "$T/fifo.csv"
cli fail "output == input" "$T/keep.csv" score --input "$T/keep.csv" --detector knn --output "$T/keep.csv"
# The paper's setting (all 120 dimensions: D = 7381) hits the size guard; the default (dims=auto,
# ten rows per monomial) fits on the leading principal axes and finishes.
cli fail "params: quadrics-base p=120 dims=0" - score --input "$T/wide.csv" --detector quadrics-base --param dims=0 --output "$T/s.csv"
cli ok "params: quadrics-base p=120 defaults" - score --input "$T/wide.csv" --detector quadrics-base --output "$T/s.csv"
cli fail "evaluate: text labels a/b without mapping" - evaluate --input "$T/ab.csv" --detector knn --json
if [ "$QUICK" = 0 ]; then
  score ok "ply: binary, 8 vertices" "$T/good-bin.ply"
  score ok "ply: samples/torus.ply" "$PWD/samples/torus.ply"
  score fail "input: sparse 4 GB file" "$T/sparse4g.csv"
  score fail "input: sparse 20 MB file" "$T/sparse20m.csv"
  score fail "input: /dev/zero" /dev/zero
  score ok "input: 10^6 blank lines around 6 rows" "$T/blank.csv"
  score fail "input: 10^6 blank lines only" "$T/onlyblank.csv"
  score fail "input: UTF-16 with BOM" "$T/utf16bom.csv"
  score fail "input: 1 MB cell" "$T/bigcell.csv"
  score ok "input: CR-only line endings" "$T/cr.csv"
  score fail "input: directory" "$T"
  score fail "input: missing file" "$T/nope.csv"
  cli fail "output: /dev/full" - generate moons --n 20 --output /dev/full
  cli fail "output: directory" - generate moons --n 20 --output "$T"
  cli fail "output: missing directory" - generate moons --n 20 --output "$T/no/such/x.csv"
  cli fail "perturb: output == input" "$T/keep.csv" perturb --input "$T/keep.csv" --t 1 --seed 1 --output "$T/keep.csv"
  cp "$T/data.csv" "$T/scores.csv"
  cli fail "score+model: model dir missing" "$T/scores.csv" score --input "$T/data.csv" --detector knn --output "$T/scores.csv" --save-model "$T/no/such/m.json"
  cli ok "score: --output -" - score --input "$T/small.csv" --detector knn --output -
  cli fail "params: generate --n 10^12" - generate moons --n 1000000000000 --output "$T/g.csv"
  cli fail "params: knn k=10^9" - score --input "$T/small.csv" --detector knn --param k=1000000000 --output "$T/s.csv"
  cli fail "params: quadrics epochs=10^12" - score --input "$T/small.csv" --detector quadrics --param epochs=1000000000000 --output "$T/s.csv"
  cli fail "params: quadrics m=10^9" - score --input "$T/small.csv" --detector quadrics --param m=1000000000 --output "$T/s.csv"
  cli fail "params: kic degree=10^9" - score --input "$T/small.csv" --detector ic --param degree=1000000000 --output "$T/s.csv"
  cli fail "params: --max-input-mb 0" - score --input "$T/small.csv" --detector knn --max-input-mb 0 --output "$T/s.csv"
  # Wrong truth: the first row is an outlier; AUROC must stay high (first-appearance order swapped it).
  tried=$((tried + 1))
  auc=$("$CLI" evaluate --input "$T/firstout.csv" --detector knn --param k=5 --json 2>/dev/null | sed -n 's/.*"auroc":\([0-9.e-]*\).*/\1/p')
  if awk -v a="${auc:-0}" 'BEGIN { exit !(a > 0.7) }'; then clean=$((clean + 1)); v=clean; else lost=$((lost + 1)); v="wrong truth"; fi
  printf '%-5s %-44s %-10s %s\n' cli "labels: first row 'outlier' (AUROC $auc)" "$v" ""
  gui ok "gui: text labels ignored, still loads" "$T/ab.csv"
  # Wide tables (issue #34 item 3): 40 rows × 10 000 columns. p×p steps (projection, pca,
  # quadrics-base's axes, gods/bods' minor start, acdt's rank completion) ran for minutes or took
  # gigabytes; each now scores in seconds, or refuses with the reason (mcd: fewer rows than p + 2).
  awk 'BEGIN { srand(2); for (j = 1; j <= 10000; j++) printf "f%d%s", j, (j < 10000 ? "," : "\n");
               for (i = 0; i < 40; i++) for (j = 1; j <= 10000; j++) printf "%.4f%s", rand() + (i < 2 ? 3 : 0), (j < 10000 ? "," : "\n") }' > "$T/wide10k.csv"
  # bods puts 39 of the 40 rows on its fitted flat: scored, with the constant_scores warning naming
  # p >= n and the fix (issue #51).
  cli ok "wide 40x10000: bods (warned: nearly constant)" - score --input "$T/wide10k.csv" --detector bods --output "$T/s.csv"
  for d in pca quadrics-base gods acdt knn; do
    cli ok "wide 40x10000: $d" - score --input "$T/wide10k.csv" --detector "$d" --output "$T/s.csv"
  done
  cli fail "wide 40x10000: mcd (needs p + 2 rows)" - score --input "$T/wide10k.csv" --detector mcd --output "$T/s.csv"
  gui ok "gui: wide 40x10000 opens" "$T/wide10k.csv"
  # A knn model stored as a reference to its training rows (issue #34 item 7): the GUI's autosave of
  # file data. The file edited afterwards must give a refusal, never a model with other points.
  if [ "$GUI" = 1 ]; then
    "$CLI" generate moons --n 300 --seed 3 --output "$T/ref.csv" > /dev/null 2>&1
    run gui ok "gui: knn autosave refers to its rows" - -- env OLENS_STATE_DIR="$T/refstate" "$APP" --load "$T/ref.csv" --detector knn --train --exit
    # The autosave lives in the app's state folder, its data elsewhere: outside the session's
    # folder, so the CLI asks for --allow-data-outside (issue #51), and refuses without it.
    cli fail "model by reference: data outside, no flag" - score --input "$T/ref.csv" --model "$T/refstate/autosave.olens.json" --output "$T/s.csv"
    cli ok "model by reference: data unchanged" - score --input "$T/ref.csv" --model "$T/refstate/autosave.olens.json" --allow-data-outside --output "$T/s.csv"
    sed -i '2s/^./9/' "$T/ref.csv"
    cli fail "model by reference: data edited since" - score --input "$T/ref.csv" --model "$T/refstate/autosave.olens.json" --allow-data-outside --output "$T/s.csv"
  fi
fi

# ---- files from anyone, outputs that never destroy (issue #51) ----------------------------------
# check NAME CONDITION: a case judged by a shell condition on its outputs instead of its exit code.
check() {
  tried=$((tried + 1))
  if eval "$2"; then clean=$((clean + 1)); v=clean; else lost=$((lost + 1)); v=failed; fi
  printf '%-5s %-44s %-10s %s\n' "${3:-cli}" "$1" "$v" ""
}
"$CLI" score --input "$T/small.csv" --detector knn --param k=5 --normalize zscore --save-model "$T/m.json" --output "$T/s.csv" >/dev/null 2>&1
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
m = json.load(open(f"{t}/m.json"))
deep = json.loads(json.dumps(m)); deep["params"]["k"] = "@DEEP@"
open(f"{t}/deep.json", "w").write(json.dumps(deep).replace('"@DEEP@"', "[" * 100000 + "]" * 100000))
zero = json.loads(json.dumps(m)); zero["normalizer"]["scale"][0] = 0.0
json.dump(zero, open(f"{t}/scale0.json", "w"))
bigk = json.loads(json.dumps(m)); bigk["params"]["k"] = 5000
json.dump(bigk, open(f"{t}/bigk.json", "w"))
base = {"format": "outlierlens-session", "version": 4}
def session(name, **extra):
    s = dict(base); s.update(extra); json.dump(s, open(f"{t}/{name}", "w"))
session("esc.olens.json", data={"path": f"{t}/small.csv"}, detector={"id": "\x1b[31mevil\x1b[0m", "params": {}})
session("title.olens.json", data={"path": f"{t}/small.csv"}, lesson={"title": "T" * 1000000, "steps": [{"text": "a"}]})
session("panels.olens.json", data={"path": f"{t}/small.csv"},
        compare={"detectors": [{"id": "knn", "params": {}, "normalization": "zscore"}] * 16, "quantile": 0.95, "active": True})
import os
os.makedirs(f"{t}/handout", exist_ok=True)
session("handout/passwd.olens.json", data={"path": f"{t}/gone.csv", "relative_path": "../../../../../../etc/passwd"})
session("handout/fifo.olens.json", data={"path": f"{t}/fifo.csv"})
session("handout/outside.olens.json", data={"path": f"{t}/small.csv"})
PY
cli fail "model: parameter nested 100000 deep" - score --input "$T/small.csv" --model "$T/deep.json" --output -
cli fail "model: normaliser scale 0" - score --input "$T/small.csv" --model "$T/scale0.json" --output -
cli fail "model: knn k=5000 over 40 points" - score --input "$T/small.csv" --model "$T/bigk.json" --output -
cli fail "constant scores: iforest psi=2" - score --input "$T/data.csv" --detector iforest --param psi=2 --output -
if [ "$QUICK" = 0 ]; then
  cli fail "constant scores: kods sigma=1e12" - score --input "$T/data.csv" --detector kods --param sigma=1e12 --output -
  "$CLI" score --input "$T/data.csv" --detector ocsvm --param gamma=1e12 --output - 2> "$T/ocsvm.err" >/dev/null
  check "nearly constant scores: ocsvm gamma=1e12 warns" 'grep -q "constant_scores\|the ranking orders only the other" "$T/ocsvm.err" && grep -q gamma "$T/ocsvm.err"'
  awk 'BEGIN { print "x,y"; for (i = 0; i < 3600; i++) print i % 60 "," int(i / 60); for (i = 0; i < 20; i++) print (70 + 3.7 * i) "," (-15 - 2.3 * i) }' > "$T/grid.csv"
  cli ok "grid 60x60 + 20 outliers: knn scores it" - score --input "$T/grid.csv" --detector knn --output -
  "$CLI" score --input "$T/small.csv" --detector lof --param k=500 --output "$T/s.csv" 2> "$T/clamp.err" >/dev/null
  check "clamp: lof k=500 on 40 rows says so" 'grep -q "k = 500 is more than these data allow; 39 was used" "$T/clamp.err"'
  "$CLI" generate blobs --n 4000 --output "$T/blobs4k.csv" >/dev/null 2>&1
  cli fail "timeout: iforest trees=100000" - score --input "$T/blobs4k.csv" --detector iforest --param trees=100000 --timeout 2 --output -
  "$CLI" generate blobs --n 200000 --output "$T/blobs200k.csv" >/dev/null 2>&1
  cli fail "timeout: ocsvm on 200 000 rows" - score --input "$T/blobs200k.csv" --detector ocsvm --timeout 2 --output -
  # Formula cells: a text label "=cmd()" comes back with the apostrophe OWASP prescribes.
  awk -F, 'NR == 1 { print; next } { print $1 "," $2 "," ($3 == 1 ? "=cmd()" : "@ok") }' "$T/data.csv" > "$T/formula.csv"
  "$CLI" score --input "$T/formula.csv" --detector knn --outlier-label "=cmd()" --outliers "$T/out.csv" >/dev/null 2>&1
  check "csv: formula label neutralised" '[ -s "$T/out.csv" ] && ! grep -qE "(^|,)[=+@-][a-z(]" "$T/out.csv" && grep -q "'"'"'=cmd()" "$T/out.csv"'
  if [ "$GUI" = 1 ]; then
    run gui fail "gui: session data outside its folder" - -- "$APP" --session "$T/handout/outside.olens.json" --exit
    run gui fail "gui: session relative_path ../../etc/passwd" - -- "$APP" --session "$T/handout/passwd.olens.json" --exit
    run gui fail "gui: session data is a FIFO" - -- "$APP" --session "$T/handout/fifo.olens.json" --exit
    run gui fail "gui: session lesson title 1 MB" - -- "$APP" --session "$T/title.olens.json" --exit
    run gui fail "gui: session with 16 compare panels" - -- "$APP" --session "$T/panels.olens.json" --exit
    run gui fail "gui: detector id with ESC" - -- "$APP" --session "$T/esc.olens.json" --exit
    check "gui: ESC escaped on stderr" '! grep -q $'"'"'\x1b'"'"' "$T/err"' gui
    cp "$T/esc.olens.json" "$T/kept.olens.json"
    run gui fail "gui: --screenshot over --session" "$T/kept.olens.json" -- "$APP" --session "$T/kept.olens.json" --screenshot "$T/kept.olens.json" --exit
    run gui fail "gui: two outputs name one file" - -- "$APP" --load "$T/small.csv" --screenshot "$T/a.png" --save-session "$T/a.png" --exit
    run gui fail "gui: --replay-frames ''" - -- "$APP" --load "$T/small.csv" --detector quadrics --train --replay-frames "" --exit
    mkdir -p "$T/frames" && echo "notes" > "$T/frames/notes.txt"
    run gui fail "gui: --replay-frames into a folder of other files" "$T/frames/notes.txt" -- "$APP" --load "$T/small.csv" --detector quadrics --train --replay-frames "$T/frames" --exit
    run gui fail "gui: --top-k abc" - -- "$APP" --load "$T/small.csv" --top-k abc --exit
    run gui fail "gui: --save-session after a missing --load" "$T/keep.csv" -- "$APP" --load "$T/nope.csv" --save-session "$T/keep.csv" --exit
  fi
fi

echo
echo "tried $tried, clean $clean, crashes $crashes, hangs $hangs, memory blow-ups $blowups, data lost $lost, unclear $other"
[ "$clean" -eq "$tried" ]
