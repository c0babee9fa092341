#!/usr/bin/env bash
# Builds samples/wbc.csv, the Wisconsin diagnostic breast cancer data of the KIC paper's Table 1
# ("WBC": n = 569, p = 30, 212 outliers), from the copy Debian's python3-sklearn ships
# (sklearn/datasets/data/breast_cancer.csv; no sklearn import needed).
#
# Protocol (KIC paper sec. 4.2): WBC is "prepared as in Sugiyama and Borgwardt (2013) and Lucic
# et al. (2016), deeming the samples in the smallest class as outliers and the rest as inliers",
# and Table 1 lists all 569 samples with 212 outliers. So by default every sample is kept and
# label = 1 for malignant (212, the smaller class), 0 for benign (357). No normalisation here:
# use `outlierlens-cli ... --normalize zscore` (the paper's zero mean / unit variance).
#
# --malignant-fraction F subsamples the malignant rows to round(F · #benign) with a fixed seed
# (ODDS-style rare-outlier variant; NOT the paper's protocol), e.g. F = 0.1 → 36 outliers.
#
# usage: scripts/make-wbc.sh [--output samples/wbc.csv] [--malignant-fraction F] [--seed S]
#                            [--source path/to/breast_cancer.csv]
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT=samples/wbc.csv
FRACTION=""
SEED=1
SOURCE=/usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv
while [ $# -gt 0 ]; do
  case "$1" in
    --output) OUTPUT=$2; shift 2 ;;
    --malignant-fraction) FRACTION=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --source) SOURCE=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "make-wbc.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [ ! -f "$SOURCE" ]; then
  echo "make-wbc.sh: $SOURCE not found; install Debian's python3-sklearn (apt-get install -y python3-sklearn)" >&2
  exit 1
fi

python3 - "$SOURCE" "$OUTPUT" "$FRACTION" "$SEED" <<'EOF'
import csv
import random
import sys

source, output, fraction, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# The 30 features in sklearn's load_breast_cancer order (mean, standard error, worst of ten
# nuclear measurements).
base = ["radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity",
        "concave_points", "symmetry", "fractal_dimension"]
names = ["mean_" + b for b in base] + [b + "_error" for b in base] + ["worst_" + b for b in base]

with open(source, newline="") as f:
    reader = csv.reader(f)
    head = next(reader)  # "569,30,malignant,benign": rows, features, class names (0, 1)
    n, p = int(head[0]), int(head[1])
    if p != len(names) or head[2:4] != ["malignant", "benign"]:
        sys.exit("make-wbc.sh: unexpected header %r in %s" % (head, source))
    rows = [r for r in reader if r]
if len(rows) != n or any(len(r) != p + 1 for r in rows):
    sys.exit("make-wbc.sh: %s does not hold %d rows of %d values" % (source, n, p + 1))

# sklearn's target: 0 = malignant, 1 = benign. Ours: label 1 = outlier = malignant.
malignant = [i for i, r in enumerate(rows) if r[p] == "0"]
benign = [i for i, r in enumerate(rows) if r[p] == "1"]
if len(malignant) + len(benign) != n:
    sys.exit("make-wbc.sh: target values other than 0/1 in %s" % source)
keep = set(malignant)
if fraction:
    count = round(float(fraction) * len(benign))
    keep = set(random.Random(seed).sample(malignant, count))
# Rows in the source's order.
data = [(rows[i][:p], 1 if rows[i][p] == "0" else 0) for i in range(n) if rows[i][p] == "1" or i in keep]
with open(output, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(names + ["label"])
    for r, label in data:
        w.writerow(r + [label])
print("make-wbc.sh: wrote %s: %d rows, %d features, %d outliers (label 1 = malignant)"
      % (output, len(data), p, sum(l for _, l in data)))
EOF
