#!/usr/bin/python3
"""gods without labels: of its five stored variants (K = auto, 1, 2, 5, init=svd) keep, per set, the
one whose training scores agree best (Spearman) with each row's distance to its 10th nearest
neighbour — the statistic of the fit's "ranking may be inverted" warning — and report its AUROC;
beside it the shipped K=auto and the best variant chosen with the labels (an upper bound).

usage: python3 bench/consensus/gods_select.py build/consensus-study/rare.pkl [build/consensus-study/whole.pkl]
(pickles from bench/corpus.py --scores)"""
import os
import pickle
import sys

import numpy as np
from scipy.stats import spearmanr
from sklearn.neighbors import NearestNeighbors

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import auroc  # noqa: E402

VARIANTS = ["gods", "gods K=1", "gods K=2", "gods K=5", "gods init=svd"]


def tenth_neighbour(X):
    d, _ = NearestNeighbors(n_neighbors=11).fit(X).kneighbors(X)
    return d[:, 10]  # column 0 is the row itself


def main():
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            data = pickle.load(f)
        chosen, shipped, oracle = [], [], []
        print("## %s\n\n| set | chosen | its AUROC | K=auto | rho of K=auto |\n|---|---|---|---|---|" % path)
        for name, d in sorted(data.items()):
            ref = tenth_neighbour(d["X"])
            rows = []
            for v in VARIANTS:
                if v in d:
                    s = np.nan_to_num(np.asarray(d[v], float), nan=-1e300)
                    rows.append((spearmanr(s, ref).correlation, auroc(s, d["y"]), v))
            best = max(rows)
            auto = next(r for r in rows if r[2] == "gods")
            chosen.append(best[1])
            shipped.append(auto[1])
            oracle.append(max(r[1] for r in rows))
            print("| %s | %s | %.3f | %.3f | %.2f |" % (name, best[2], best[1], auto[1], auto[0]))
        print("\nchosen without labels: mean %.3f min %.3f; K=auto: mean %.3f min %.3f; "
              "best with labels: mean %.3f min %.3f\n" % (np.mean(chosen), np.min(chosen), np.mean(shipped),
                                                          np.min(shipped), np.mean(oracle), np.min(oracle)))


if __name__ == "__main__":
    main()
