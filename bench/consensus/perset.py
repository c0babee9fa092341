#!/usr/bin/python3
"""Per-set AUROCs of given rules vs EllipticEnvelope, mcd and the current consensus row.

usage: /usr/bin/python3 perset.py build/consensus-study/rare.pkl "rank|mean|knn+iforest+mcd" ["unifier|combiner|members" ...]
"""
import os
import pickle
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import COMBINERS, UNIFIERS, auroc  # noqa: E402

REFS = ["sklearn EllipticEnvelope", "mcd", "consensus"]


def rule_scores(e, rule):
    un, co, mem = rule.split("|")
    have = [m for m in mem.split("+") if m in e]
    U = np.column_stack([UNIFIERS[un](e[m]) for m in have])
    return COMBINERS[co](U, un)


def main():
    d = pickle.load(open(sys.argv[1], "rb"))
    rules = sys.argv[2:]
    cols = REFS + rules
    print("| set | " + " | ".join(c.replace("sklearn ", "") for c in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    tab = {c: [] for c in cols}
    for s in sorted(d):
        e = d[s]
        y = np.asarray(e["y"]).astype(int)
        vals = [auroc(e[c], y) if c in e else 0.5 for c in REFS] + [auroc(rule_scores(e, r), y) for r in rules]
        for c, v in zip(cols, vals):
            tab[c].append(v)
        print("| %s | " % s + " | ".join("%.3f" % v for v in vals) + " |")
    print("| **mean** | " + " | ".join("**%.3f**" % np.mean(tab[c]) for c in cols) + " |")
    print("| min | " + " | ".join("%.3f" % np.min(tab[c]) for c in cols) + " |")


if __name__ == "__main__":
    main()
