#!/usr/bin/python3
"""LOSO / half splits on small, pre-declared families (fewer comparisons than the whole grid)."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import EE, loso, members
from final import merged

R, W = merged("rare"), merged("whole")
C, A, B, S = R["cands"], R["auc"], W["auc"], len(R["sets"])
dm = lambda c: sorted(members(c)) == ["iforest", "knn", "mcd"]
part = lambda c, k: c.split("|")[k]
fams = {
    "F1 default members, mean, any unifier": lambda c: dm(c) and part(c, 1) == "mean",
    "F2 default members, mean or max, any unifier": lambda c: dm(c) and part(c, 1) in ("mean", "max"),
    "F3 default members, robz, any combiner (incl. w)": lambda c: dm(c) and part(c, 0) == "robz",
    "F4 default members, mcd weight w0.5-0.9, any unifier": lambda c: dm(c) and part(c, 1)[0] == "w",
    "F5 default members, every rule": dm,
    "F6 subsets of {knn,iforest,mcd}, every rule": lambda c: set(members(c)) <= {"knn", "iforest", "mcd"},
    "F7 subsets of {knn,iforest,mcd}, robz, mean/max": lambda c: set(members(c)) <= {"knn", "iforest", "mcd"}
        and part(c, 0) == "robz" and part(c, 1) in ("mean", "max"),
}
print("| family | rules | rare LOSO held-out mean (min) | whole LOSO held-out mean | rare-chosen -> whole held-out | chosen on all (rare) | half splits: B minus EE (>= EE) , minus consensus |")
print("|---|---|---|---|---|---|---|")
rng = np.random.default_rng(2)
ee, cons = R["ref"][EE], R["ref"]["consensus"]
splits = [rng.permutation(S) for _ in range(1000)]
for f, ok in fams.items():
    idx = np.array([i for i, c in enumerate(C) if ok(c)])
    h, ch, b = loso(A, idx)
    hw, _, _ = loso(B, idx)
    carry = np.mean([B[ch[j], j] for j in range(S)])
    d1, d2, win = [], [], []
    for p in splits:
        a, bb = p[:S // 2], p[S // 2:]
        c = idx[int(np.argmax(A[idx][:, a].mean(1)))]
        d1.append(A[c, bb].mean() - ee[bb].mean()); d2.append(A[c, bb].mean() - cons[bb].mean())
        win.append(d1[-1] >= 0)
    print("| %s | %d | %.3f (%.3f) | %.3f | %.3f | %s (%.3f) | %+.3f (%.0f %%), %+.3f |" % (
        f, len(idx), h.mean(), h.min(), hw.mean(), carry, C[b], A[b].mean(), np.mean(d1), 100 * np.mean(win), np.mean(d2)))
