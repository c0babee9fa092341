#!/usr/bin/python3
"""MAIN SCRIPT (part 1): evaluate every (unifier, combiner, member subset) consensus rule on a corpus pickle.

usage: /usr/bin/python3 study.py build/consensus-study/rare.pkl build/consensus-study/rare.npz [--jobs 2]

Writes an .npz with: cands (list of "unifier|combiner|m1+m2+..."), sets, auc (cands x sets), and the
reference rows (every row of the pickle, AUROC per set; a row missing from a set counts 0.5 as in corpus.py).
A member missing from a set (failed there) is left out of the consensus, as ConsensusDetector does; with
fewer than two members left the consensus fails and counts 0.5.
"""
import argparse
import itertools
import os
import pickle
import sys
import time
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import BOUNDED, COMBINERS, ORDER_ONLY, UNIFIERS, auroc  # noqa: E402

# the grid of build/consensus-study/rare.npz and build/consensus-study/whole.npz (gamma / gammalog were added later: --unifiers)
MAIN_UNIFIERS = ["rank", "gauss", "minmax", "robz", "z", "logrank", "probit"]
POOL = ["knn", "iforest", "mcd", "kods", "kic", "ocsvm", "lof", "pca", "quadrics-base"]


def candidates(pool, max_size, unifiers=None, combiners=None):
    out = []
    subsets = [c for r in range(2, max_size + 1) for c in itertools.combinations(pool, r)]
    for un in unifiers or MAIN_UNIFIERS:
        for co in combiners or COMBINERS:
            if co == "fisher" and un not in BOUNDED:
                continue
            if co in ORDER_ONLY and un in ("logrank", "probit"):
                continue  # same ordering as rank
            for sub in subsets:
                if co == "select1" and len(sub) < 3:
                    continue  # two members agree with each other equally: the pick would be rounding
                out.append((un, co, sub))
    return out


def eval_set(args):
    name, d, cands = args
    y = np.asarray(d["y"]).astype(int)
    t = time.time()
    U = {un: {m: UNIFIERS[un](d[m]) for m in POOL if m in d} for un in {c[0] for c in cands}}
    res = np.empty(len(cands))
    for i, (un, co, sub) in enumerate(cands):
        have = [m for m in sub if m in d]
        if len(have) < 2:
            res[i] = 0.5
            continue
        M = np.column_stack([U[un][m] for m in have])
        res[i] = auroc(COMBINERS[co](M, un), y)
    print("  %s: %d rows, %.0f s" % (name, len(y), time.time() - t), file=sys.stderr, flush=True)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pickle")
    ap.add_argument("out")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--max-size", type=int, default=len(POOL))
    ap.add_argument("--unifiers", default="")
    ap.add_argument("--combiners", default="")
    args = ap.parse_args()
    with open(args.pickle, "rb") as f:
        data = pickle.load(f)
    sets = sorted(data)
    cands = candidates(POOL, args.max_size, [u for u in args.unifiers.split(",") if u],
                       [c for c in args.combiners.split(",") if c])
    print("%d sets, %d candidates" % (len(sets), len(cands)), file=sys.stderr)
    for s in sets:
        miss = [m for m in POOL if m not in data[s]]
        if miss:
            print("  %s: pool members missing (failed): %s" % (s, ", ".join(miss)), file=sys.stderr)
    # biggest sets first so that the two workers finish together
    order = sorted(sets, key=lambda s: -len(data[s]["y"]))
    jobs = [(s, data[s], cands) for s in order]
    if args.jobs > 1:
        with Pool(args.jobs) as p:
            cols = p.map(eval_set, jobs, chunksize=1)
    else:
        cols = [eval_set(j) for j in jobs]
    auc = np.column_stack([cols[order.index(s)] for s in sets])
    rows = sorted({r for s in sets for r in data[s] if r not in ("X", "y")})
    ref = np.array([[auroc(data[s][r], np.asarray(data[s]["y"]).astype(int)) if r in data[s] else 0.5 for s in sets]
                    for r in rows])
    np.savez_compressed(args.out, cands=np.array(["%s|%s|%s" % (u, c, "+".join(sub)) for u, c, sub in cands]),
                        sets=np.array(sets), auc=auc, ref_rows=np.array(rows), ref=ref)
    print("wrote %s" % args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
