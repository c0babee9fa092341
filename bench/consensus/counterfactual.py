#!/usr/bin/python3
"""Counterfactual: the same rules with scikit-learn's EllipticEnvelope scores in place of our mcd member
(what the consensus would score if mcd found EE's optimum everywhere). Also the per-set oracle bounds.
usage: /usr/bin/python3 counterfactual.py build/consensus-study/rare.pkl"""
import os, pickle, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import COMBINERS, UNIFIERS, auroc
from extra import combine as wcombine

RULES = ["rank|mean|knn+iforest+mcd", "robz|mean|knn+iforest+mcd", "robz|max|knn+iforest+mcd",
         "robz|w0.8|mcd+knn+iforest", "rank|mean|iforest+mcd", "robz|mean|iforest+mcd", "robz|w0.8|mcd+iforest",
         "robz|max|mcd+kods", "logrank|agree2|knn+iforest+mcd"]
d = pickle.load(open(sys.argv[1], "rb"))
for swap in [False, True]:
    print("mcd member = %s" % ("sklearn EllipticEnvelope" if swap else "OutlierLens mcd"))
    for r in RULES:
        un, co, mem = r.split("|")
        v = []
        for s in sorted(d):
            e = d[s]; y = np.asarray(e["y"]).astype(int)
            cols = [UNIFIERS[un](e["sklearn EllipticEnvelope"] if (m == "mcd" and swap) else e[m]) for m in mem.split("+")]
            U = np.column_stack(cols)
            sc = wcombine(U, co) if co.startswith("w") else COMBINERS[co](U, un)
            v.append(auroc(sc, y))
        print("  %-34s mean %.3f min %.3f" % (r, np.mean(v), np.min(v)))
pool = ["knn", "iforest", "mcd", "kods", "kic", "ocsvm", "lof", "pca", "quadrics-base"]
best = [max(auroc(d[s][m], d[s]["y"].astype(int)) for m in pool) for s in sorted(d)]
print("oracle (best pool member per set, chosen with labels): mean %.3f" % np.mean(best))
