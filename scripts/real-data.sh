#!/usr/bin/env bash
# Exports real labelled data sets that Debian ships (R packages kernlab and mlbench) to CSV files in
# ${DATA_DIR:-data/} (not committed), label column `label` (1 = outlier class), features numeric:
#   spambase.csv    4601 × 57   kernlab::spam, outlier = spam (1813)             (KIC paper Table 1)
#   shuttle.csv    58000 × 9    mlbench::Shuttle, outlier = every class but Rad.Flow (12414)
#   ionosphere.csv   351 × 32   mlbench::Ionosphere (V1 binary factor, V2 constant dropped), outlier = bad
#   pima.csv         768 × 8    mlbench::PimaIndiansDiabetes, outlier = pos
#   sonar.csv        208 × 60   mlbench::Sonar, outlier = R (rocks; mines are the one class, GODS sec. 7.7)
#   wbc.csv          569 × 30   sklearn's breast_cancer copy (scripts/make-wbc.sh), outlier = malignant
# Used by bench/peers.py (scripts/bench.sh --peers) and the real-data table in the README.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh r-base-core r-cran-kernlab r-cran-mlbench python3-sklearn >/dev/null
DATA_DIR=${DATA_DIR:-data}
mkdir -p "$DATA_DIR"
Rscript --vanilla - "$DATA_DIR" <<'R'
out <- commandArgs(trailingOnly = TRUE)[1]
save <- function(X, y, name) {
  X <- as.data.frame(lapply(X, function(c) as.numeric(as.character(c))))
  X$label <- as.integer(y)
  write.csv(X, file.path(out, name), row.names = FALSE, quote = FALSE)
}
load("/usr/lib/R/site-library/kernlab/data/spam.rda")
save(spam[, 1:57], spam$type == "spam", "spambase.csv")
load("/usr/lib/R/site-library/mlbench/data/Shuttle.rda")
save(Shuttle[, 1:9], Shuttle$Class != "Rad.Flow", "shuttle.csv")
load("/usr/lib/R/site-library/mlbench/data/Ionosphere.rda")
save(Ionosphere[, c(1, 3:34)], Ionosphere$Class == "bad", "ionosphere.csv")
load("/usr/lib/R/site-library/mlbench/data/PimaIndiansDiabetes.rda")
save(PimaIndiansDiabetes[, 1:8], PimaIndiansDiabetes$diabetes == "pos", "pima.csv")
load("/usr/lib/R/site-library/mlbench/data/Sonar.rda")
save(Sonar[, 1:60], Sonar$Class == "R", "sonar.csv")
R
bash scripts/make-wbc.sh --output "$DATA_DIR/wbc.csv" >/dev/null
for f in spambase shuttle ionosphere pima sonar wbc; do
  echo "real-data: $DATA_DIR/$f.csv $(($(wc -l < "$DATA_DIR/$f.csv") - 1)) rows"
done
