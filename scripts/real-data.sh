#!/usr/bin/env bash
# Exports the real-data corpus: labelled data sets that Debian's packages ship (R packages kernlab,
# mlbench, robustbase, palmerpenguins, modeldata; scikit-learn's bundled data), as CSV files in
# ${DATA_DIR:-data/} (not committed). Label column `label` (1 = outlier), features numeric.
# Outliers are defined reproducibly, without sampling: a named class (a minority class where the data
# have one, as in the ODDS collection) or the rows the data set's documentation names as outliers.
#
#   set          rows × p    outlier                                   source
#   spambase     4601 × 57   spam (1813)                               kernlab::spam
#   shuttle     58000 × 9    every class but Rad.Flow (12414)          mlbench::Shuttle
#   ionosphere    351 × 33   bad (V1 binary, V2 constant dropped)      mlbench::Ionosphere
#   pima          768 × 8    pos                                       mlbench::PimaIndiansDiabetes
#   sonar         208 × 60   R (rocks; mines are the one class)        mlbench::Sonar
#   wbc           569 × 30   malignant                                 scikit-learn breast_cancer
#   glass         214 × 9    type 6, tableware (9)                     mlbench::Glass
#   vehicle       846 × 18   van (199)                                 mlbench::Vehicle
#   satellite    6435 × 36   the three smallest classes (2036)         mlbench::Satellite
#   vowel         990 × 9    the first vowel class, hid (90)                mlbench::Vowel
#   breastw       683 × 9    malignant (239; complete rows, integer)   mlbench::BreastCancer
#   letter      20000 × 16   the letter A (789; integer features)      mlbench::LetterRecognition
#   wine          178 × 13   cultivar 3 (48)                           scikit-learn wine
#   digits       1797 × 64   the digit 0 (178; many constant pixels)   scikit-learn digits
#   hbk            75 × 4    rows 1-14 (the documented outliers)       robustbase::hbk
#   starsCYG       47 × 2    the four giants (rows 11, 20, 30, 34)     robustbase::starsCYG
#   penguins      342 × 4    Chinstrap (68)                            palmerpenguins::penguins
#   musk          476 × 166  musk (207)                                kernlab::musk
#   cells        2019 × 56   well-segmented cells, WS (719)            modeldata::cells
#   hpc          4331 × 5    the long-running class L (259)            modeldata::hpc_data
#   ticdata      9822 × 85   caravan policy holders (586; ordinal codes) kernlab::ticdata
#
# Used by bench/corpus.py (scripts/bench.sh --corpus), bench/peers.py and bench/realdata.py.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh r-base-core r-cran-kernlab r-cran-mlbench r-cran-robustbase r-cran-palmerpenguins \
  r-cran-modeldata python3-sklearn >/dev/null
DATA_DIR=${DATA_DIR:-data}
mkdir -p "$DATA_DIR"
Rscript --vanilla - "$DATA_DIR" <<'R'
out <- commandArgs(trailingOnly = TRUE)[1]
# Factors with numeric levels keep their values; other factors (ticdata's ordinal codes) their level index.
numeric <- function(X) as.data.frame(lapply(X, function(c) {
  v <- suppressWarnings(as.numeric(as.character(c)))
  if (is.factor(c) && any(is.na(v) & !is.na(c))) as.numeric(c) else v
}))
save <- function(X, y, name) {
  X <- numeric(X)
  X$label <- as.integer(y)
  X <- X[complete.cases(X), ]
  write.csv(X, file.path(out, paste0(name, ".csv")), row.names = FALSE, quote = FALSE)
}
rda <- function(pkg, name) {
  e <- new.env()
  f <- file.path("/usr/lib/R/site-library", pkg, "data", paste0(name, ".rda"))
  if (file.exists(f)) load(f, envir = e) else data(list = name, package = pkg, envir = e)
  get(name, envir = e)
}
spam <- rda("kernlab", "spam"); save(spam[, 1:57], spam$type == "spam", "spambase")
d <- rda("mlbench", "Shuttle"); save(d[, 1:9], d$Class != "Rad.Flow", "shuttle")
d <- rda("mlbench", "Ionosphere"); save(d[, c(1, 3:34)], d$Class == "bad", "ionosphere")
d <- rda("mlbench", "PimaIndiansDiabetes"); save(d[, 1:8], d$diabetes == "pos", "pima")
d <- rda("mlbench", "Sonar"); save(d[, 1:60], d$Class == "R", "sonar")
d <- rda("mlbench", "Glass"); save(d[, 1:9], d$Type == "6", "glass")
d <- rda("mlbench", "Vehicle"); save(d[, 1:18], d$Class == "van", "vehicle")
d <- rda("mlbench", "Satellite"); save(d[, 1:36], d$classes %in% c("cotton crop", "damp grey soil", "vegetation stubble"), "satellite")
d <- rda("mlbench", "Vowel"); save(d[, 2:10], d$Class == levels(d$Class)[1], "vowel")
d <- rda("mlbench", "BreastCancer"); save(d[, 2:10], d$Class == "malignant", "breastw")
d <- rda("mlbench", "LetterRecognition"); save(d[, 2:17], d$lettr == "A", "letter")
d <- rda("robustbase", "hbk"); save(d, seq_len(nrow(d)) <= 14, "hbk")
d <- rda("robustbase", "starsCYG"); save(d, seq_len(nrow(d)) %in% c(11, 20, 30, 34), "starsCYG")
d <- rda("palmerpenguins", "penguins"); d <- d[complete.cases(d[, 3:6]), ]
save(d[, 3:6], d$species == "Chinstrap", "penguins")
d <- rda("kernlab", "musk"); save(d[, 1:166], d$Class == "1" | d$Class == "musk", "musk")
d <- rda("modeldata", "cells"); keep <- !(names(d) %in% c("case", "class"))
save(d[, keep], d$class == "WS", "cells")
d <- rda("modeldata", "hpc_data"); keep <- sapply(d, is.numeric)
save(d[, keep], d$class == "L", "hpc")
d <- rda("kernlab", "ticdata"); save(d[, 1:85], d$CARAVAN == levels(d$CARAVAN)[2], "ticdata")
R
bash scripts/make-wbc.sh --output "$DATA_DIR/wbc.csv" >/dev/null
/usr/bin/python3 - "$DATA_DIR" <<'PY'
import os, sys
import numpy as np
from sklearn.datasets import load_digits, load_wine
out = sys.argv[1]
for name, bunch, outlier in (("wine", load_wine(), 2), ("digits", load_digits(), 0)):
    X, y = bunch.data, (bunch.target == outlier).astype(int)
    header = ",".join("f%d" % (j + 1) for j in range(X.shape[1])) + ",label"
    rows = [",".join(repr(float(v)) for v in x) + ",%d" % t for x, t in zip(X, y)]
    with open(os.path.join(out, name + ".csv"), "w") as f:
        f.write(header + "\n" + "\n".join(rows) + "\n")
PY
for f in spambase shuttle ionosphere pima sonar wbc glass vehicle satellite vowel breastw letter wine digits \
         hbk starsCYG penguins musk cells hpc ticdata; do
  echo "real-data: $DATA_DIR/$f.csv $(($(wc -l < "$DATA_DIR/$f.csv") - 1)) rows," \
       "$(awk -F, 'NR > 1 { s += $NF } END { print s }' "$DATA_DIR/$f.csv") outliers"
done
