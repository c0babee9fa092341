#!/usr/bin/env bash
# Regenerates the README tour images with the GUI's headless flags (needs a build; uses xvfb-run).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
APP="$BUILD_DIR/app/gui/outlierlens"
OUT=docs/images
mkdir -p "$OUT"
# A 1280×720 screen: the window opens at a laptop's size (the README's tour shows what a laptop shows).
run() { xvfb-run -a -s "-screen 0 1280x720x24" "$APP" "$@" --exit; }
# The detector list once: `list | grep -q` under pipefail failed whenever grep closed the pipe early.
DETECTORS=$("$BUILD_DIR/app/cli/outlierlens-cli" list)
run --load samples/moons2d.csv --detector knn --train --top-k 5 --window-screenshot "$OUT/tour-knn-moons.png"
run --load samples/seam3d.csv --detector knn --train --screenshot "$OUT/tour-knn-seam.png"
run --load samples/blobs5d.csv --detector pca --param k=2 --train --screenshot "$OUT/tour-pca-5d.png"
if grep -q "^  quadrics " <<<"$DETECTORS"; then
  run --load samples/seam100.csv --detector quadrics --train --screenshot "$OUT/tour-quadrics-seam.png"
fi
if grep -q "^  acdt " <<<"$DETECTORS"; then
  "$BUILD_DIR/app/cli/outlierlens-cli" generate swissroll --n 2000 --seed 1 --output /tmp/olens-swissroll.csv
  run --load /tmp/olens-swissroll.csv --detector acdt --train --screenshot "$OUT/tour-acdt-swissroll.png"
fi
if grep -q "^  kic " <<<"$DETECTORS"; then
  run --load samples/moons2d.csv --detector kic --train --screenshot "$OUT/tour-kic-moons.png"
fi
# Uncertainty layer: 1-sigma ellipses of labelled classes with sigma_ columns (issue 7).
"$BUILD_DIR/app/cli/outlierlens-cli" generate classes --n 150 --seed 7 --param t=0.8 --output /tmp/olens-classes.csv
run --load /tmp/olens-classes.csv --screenshot "$OUT/tour-uncertainty.png"
# Compare mode: six detectors side by side on the same labelled data (2D: gods K=1, acdt d=1).
run --load samples/moons2d.csv --compare knn,pca,quadrics,kic:kernel=rbf,gods:K=1,acdt:d=1 --screenshot "$OUT/compare.png"
# A million points (issue #19 item 6): a torus with 1 % uniform outliers, knn with its defaults;
# automatic sprite size, flagged points drawn in front of the cloud.
[ -f /tmp/olens-torus1m.csv ] || "$BUILD_DIR/app/cli/outlierlens-cli" generate torus --n 1000000 --seed 1 \
  --param outliers=0.01 --output /tmp/olens-torus1m.csv
run --load /tmp/olens-torus1m.csv --detector knn --train --screenshot "$OUT/torus-1m-knn.png"
# The Presets menu's set-ups (papers' toy figures), one image each.
for k in 1 2 3 4 5 6 7 8; do
  run --preset "$k" --screenshot "$OUT/preset-$k.png" || echo "preset $k: no screenshot"
done
# Replays (issue #37): one animation per paper whose method iterates — the quadrics, GODS and ACDT
# presets' recorded training (--replay-frames), every frame of the dense start then every 4th, as a
# looping GIF 420 px wide.
for spec in "1:replay-quadrics" "5:replay-gods" "7:replay-acdt"; do
  k=${spec%%:*}; name=${spec#*:}
  rm -rf "/tmp/olens-$name" && run --preset "$k" --replay-frames "/tmp/olens-$name" >/dev/null
  frames=$(ls "/tmp/olens-$name"/frame_*.png | awk 'NR <= 21 || NR % 4 == 0'; ls "/tmp/olens-$name"/frame_*.png | tail -1)
  # shellcheck disable=SC2086
  convert -delay 12 -loop 0 $frames -delay 150 "$(ls "/tmp/olens-$name"/frame_*.png | tail -1)" \
    -resize 420x -layers Optimize "$OUT/$name.gif"
done
# The import dialog (File → Import, Ctrl+I) on a PLY the CLI wrote (x, y, z, label, score, outlier),
# score and outlier set to "ignore": driven like a person with xdotool on a private Xvfb screen of
# 1600×1000 (coordinates for a 1280×720 window), the dialog cropped out of the screen grab.
if command -v xdotool >/dev/null && command -v Xvfb >/dev/null; then
  "$BUILD_DIR/app/cli/outlierlens-cli" score --input samples/seam3d.csv --detector knn \
    --inliers /tmp/olens-seam-clean.ply --outliers /tmp/olens-seam-flagged.ply
  for d in $(seq 140 180); do [ -e "/tmp/.X11-unix/X$d" ] || [ -e "/tmp/.X$d-lock" ] || break; done
  Xvfb ":$d" -screen 0 1600x1000x24 >/dev/null 2>&1 & xvfb=$!
  sleep 1
  DISPLAY=":$d" "$APP" --load samples/moons2d.csv >/dev/null 2>&1 & app=$!
  wid=""
  for _ in $(seq 1 60); do
    wid=$(DISPLAY=":$d" xdotool search --onlyvisible --name OutlierLens 2>/dev/null | head -n 1 || true)
    [ -n "$wid" ] && break
    sleep 0.5
  done
  if [ -n "$wid" ]; then
    x() { DISPLAY=":$d" xdotool "$@"; }
    x windowsize "$wid" 1280 720; sleep 4
    x key --window "$wid" ctrl+i; sleep 2
    x type --window "$wid" /tmp/olens-seam-clean.ply; sleep 1
    x key --window "$wid" Return; sleep 2
    for at in "690 158" "675 199" "770 158" "770 199"; do # score: ignore, outlier: ignore
      # shellcheck disable=SC2086
      x mousemove --window "$wid" $at click 1; sleep 1
    done
    DISPLAY=":$d" import -window root /tmp/olens-import-screen.png
    convert /tmp/olens-import-screen.png -crop 757x474+252+82 +repage -strip "$OUT/import-dialog.png"
  else
    echo "screenshots: the app's window did not appear; import-dialog.png not regenerated"
  fi
  kill "$app" "$xvfb" 2>/dev/null || true
else
  echo "screenshots: xdotool and Xvfb are needed for import-dialog.png (apt-get install xdotool xvfb)"
fi
ls -la "$OUT"
