#!/usr/bin/python3
"""Half splits: rank of the recommended rule on each half (union grid and family F2), and its test-half gap to EE."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import EE, members
from final import merged
REC = "robz|max|knn+iforest+mcd"
R, W = merged("rare"), merged("whole")
C, A, S = R["cands"], R["auc"], len(R["sets"])
ee, cons, mcd = R["ref"][EE], R["ref"]["consensus"], R["ref"]["mcd"]
r = C.index(REC)
f2 = np.array([i for i, c in enumerate(C) if sorted(members(c)) == ["iforest", "knn", "mcd"] and c.split("|")[1] in ("mean", "max")])
rng = np.random.default_rng(3)
rk_u, rk_f, gap, gapc, gapm = [], [], [], [], []
for _ in range(1000):
    p = rng.permutation(S); a, b = p[:S // 2], p[S // 2:]
    for half in (a, b):
        m = A[:, half].mean(1)
        rk_u.append((m > m[r]).sum() + 1); rk_f.append((m[f2] > m[r]).sum() + 1)
    gap.append(A[r, b].mean() - ee[b].mean()); gapc.append(A[r, b].mean() - cons[b].mean()); gapm.append(A[r, b].mean() - mcd[b].mean())
print("%s on random halves: rank in union median %d (IQR %d-%d of %d); in F2 median %d (IQR %d-%d of %d)" % (
    REC, np.median(rk_u), *np.percentile(rk_u, [25, 75]), len(C), np.median(rk_f), *np.percentile(rk_f, [25, 75]), len(f2)))
print("  half mean minus EE %+.3f (>= EE in %.1f %%), minus consensus %+.3f (> in %.0f %%), minus mcd %+.3f" % (
    np.mean(gap), 100 * np.mean(np.array(gap) >= 0), np.mean(gapc), 100 * np.mean(np.array(gapc) > 0), np.mean(gapm)))
# paired per-set comparison (sign test style)
for ref, v in [("EE", ee), ("consensus", cons), ("mcd", mcd)]:
    dlt = A[r] - v
    print("  vs %-9s per set: better %d, equal %d, worse %d; mean diff %+.3f, sd of mean %.3f" % (
        ref, (dlt > 1e-9).sum(), (abs(dlt) <= 1e-9).sum(), (dlt < -1e-9).sum(), dlt.mean(), dlt.std(ddof=1) / np.sqrt(S)))
