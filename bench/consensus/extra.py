#!/usr/bin/python3
"""Extra families (same .npz format as study.py, so analyze.py reads it):
  * mcd-weighted mean: u = w u_mcd + (1 - w) mean(other members' u), w in {0.5 (plain mean), 0.6, 0.7, 0.8, 0.9},
    mcd plus one or two of the pool (a fixed, label-tuned weight: LOSO keeps it honest);
  * extended pool: mcd plus one more OutlierLens detector outside the brief's pool (ic, inf, ksp, acdt, gods,
    quadrics), plus the two-member rules of the pool, with rank / robz / probit / logrank / gauss and mean / max.

usage: /usr/bin/python3 extra.py build/consensus-study/rare.pkl build/consensus-study/extra_rare.npz
"""
import itertools
import os
import pickle
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import UNIFIERS, auroc  # noqa: E402
from study import MAIN_UNIFIERS  # noqa: E402

POOL = ["knn", "iforest", "mcd", "kods", "kic", "ocsvm", "lof", "pca", "quadrics-base"]
EXT = ["ic", "inf", "ksp", "acdt", "gods", "quadrics"]
WEIGHTS = [0.5, 0.6, 0.7, 0.8, 0.9]


def cands():
    out = []
    others = [m for m in POOL if m != "mcd"]
    subs = [("mcd",) + c for r in (1, 2) for c in itertools.combinations(others, r)]
    for un in MAIN_UNIFIERS:  # the grids' unifiers (gamma / gammalog have a grid of their own)
        for w in WEIGHTS:
            for sub in subs:
                out.append((un, "w%.1f" % w, sub))
    # the consensus-row reference, for analyze.py's check
    out.append(("rank", "mean", ("knn", "iforest", "mcd")))
    for un in ["rank", "robz", "probit", "logrank", "gauss", "z"]:
        for co in ["mean", "max"]:
            for x in EXT:
                out.append((un, co, ("mcd", x)))
                out.append((un, co, ("iforest", "mcd", x)))
    return out


def combine(U, co):
    if co == "mean":
        return U.mean(1)
    if co == "max":
        return U.max(1)
    w = float(co[1:])
    if U.shape[1] == 1:
        return U[:, 0]
    return w * U[:, 0] + (1 - w) * U[:, 1:].mean(1)  # column 0 is mcd


def main():
    d = pickle.load(open(sys.argv[1], "rb"))
    sets = sorted(d)
    C = cands()
    auc = np.empty((len(C), len(sets)))
    for j, s in enumerate(sets):
        e = d[s]
        y = np.asarray(e["y"]).astype(int)
        cache = {}
        for i, (un, co, sub) in enumerate(C):
            have = [m for m in sub if m in e]
            if len(have) < 2:
                auc[i, j] = 0.5
                continue
            for m in have:
                if (un, m) not in cache:
                    cache[(un, m)] = UNIFIERS[un](e[m])
            auc[i, j] = auroc(combine(np.column_stack([cache[(un, m)] for m in have]), co), y)
        print("  " + s, file=sys.stderr, flush=True)
    rows = sorted({r for s in sets for r in d[s] if r not in ("X", "y")})
    ref = np.array([[auroc(d[s][r], np.asarray(d[s]["y"]).astype(int)) if r in d[s] else 0.5 for s in sets] for r in rows])
    np.savez_compressed(sys.argv[2], cands=np.array(["%s|%s|%s" % (u, c, "+".join(sub)) for u, c, sub in C]),
                        sets=np.array(sets), auc=auc, ref_rows=np.array(rows), ref=ref)


if __name__ == "__main__":
    main()
