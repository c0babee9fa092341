#!/usr/bin/python3
"""MAIN SCRIPT (part 3): merge every grid (study.py main grid, extra.py, the gamma grid), rare and whole,
and print the numbers of the report: union LOSO, top table, carry-over, digits, half splits, a-priori rules.

usage: /usr/bin/python3 final.py   (reads build/consensus-study/{rare,whole,extra_rare,extra_whole,gamma_rare,gamma_whole}.npz)
"""
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import EE, load, loso, members  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "build", "consensus-study")


def merged(kind):
    cands, auc, seen = [], [], set()
    base = None
    for g in ["", "extra_", "gamma_"]:
        p = os.path.join(OUT, "%s%s.npz" % (g, kind))
        if not os.path.exists(p):
            print("(missing %s)" % p)
            continue
        z = load(p)
        base = base or z
        assert z["sets"] == base["sets"]
        for i, c in enumerate(z["cands"]):
            # select1 of two members: both agree with "the other" equally, the pick is rounding
            # (grids made before study.py skipped them still hold them)
            if c.split("|")[1] == "select1" and len(members(c)) < 3:
                continue
            if c not in seen:
                seen.add(c)
                cands.append(c)
                auc.append(z["auc"][i])
    return {"cands": cands, "auc": np.array(auc), "sets": base["sets"], "ref": base["ref"]}


def scalable(c):
    m = members(c)
    return ("knn" in m or "iforest" in m) and "kods" not in m and all(
        x in ("knn", "iforest", "mcd", "kic", "ocsvm", "lof", "pca", "quadrics-base") for x in m)


def main():
    R, W = merged("rare"), merged("whole")
    assert R["cands"] == W["cands"]
    cands, sets = R["cands"], R["sets"]
    A, B = R["auc"], W["auc"]
    S = len(sets)
    dj = sets.index("digits")
    ma, mb = A.mean(1), B.mean(1)
    mina, minb = A.min(1), B.min(1)
    mina_nd = np.delete(A, dj, 1).min(1)
    ee_a, ee_b = R["ref"][EE], W["ref"][EE]
    print("%d rules (unifier|combiner|members) in the union of the grids\n" % len(cands))
    print("references: rare / whole mean (min)")
    for r in [EE, "mcd", "consensus"]:
        print("  %-26s %.3f (%.3f) / %.3f (%.3f)" % (r, R["ref"][r].mean(), R["ref"][r].min(), W["ref"][r].mean(),
                                                     W["ref"][r].min()))
    print("\nrules >= EE mean: rare %d, whole %d, both %d; max rare mean %.3f, max whole mean %.3f" % (
        (ma >= ee_a.mean()).sum(), (mb >= ee_b.mean()).sum(), ((ma >= ee_a.mean()) & (mb >= ee_b.mean())).sum(),
        ma.max(), mb.max()))

    fams = {"union of all grids": lambda c: True,
            "scalable members only (knn or iforest; no kods/ext.)": scalable,
            "default members {knn, iforest, mcd}": lambda c: sorted(members(c)) == ["iforest", "knn", "mcd"]}
    print("\n## LOSO of the selection procedure\n")
    print("| family | rules | rare: held-out mean (min) | chosen on all 21 | its rare mean | whole: held-out mean "
          "(LOSO on whole) | whole: the rare-chosen rule of each fold, on the held-out set | whole mean of rare all-set choice |")
    print("|---|---|---|---|---|---|---|---|")
    folds_union = None
    for fam, ok in fams.items():
        idx = np.array([i for i, c in enumerate(cands) if ok(c)])
        h, ch, best = loso(A, idx)
        hw, chw, bestw = loso(B, idx)
        carry = np.array([B[ch[j], j] for j in range(S)])
        if folds_union is None:
            folds_union = Counter(ch)
            held_union = h
        print("| %s | %d | %.3f (%.3f) | %s | %.3f | %.3f (%.3f) | %.3f | %.3f |" % (
            fam, len(idx), h.mean(), h.min(), cands[best], ma[best], hw.mean(), hw.min(), carry.mean(), mb[best]))
    print("\nunion LOSO folds: " + "; ".join("%s ×%d" % (cands[c], k) for c, k in folds_union.most_common()))
    print("union LOSO per set: " + ", ".join("%s %.3f" % (s, v) for s, v in zip(sets, held_union)))

    print("\n## top 15 rules by rare mean (union)\n")
    print("| rule | rare mean | rare min | rare min w/o digits | whole mean | whole min | LOSO folds chosen |")
    print("|---|---|---|---|---|---|---|")
    for i in np.argsort(-ma, kind="mergesort")[:15]:
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %d |" % (cands[i], ma[i], mina[i], mina_nd[i], mb[i], minb[i],
                                                               folds_union.get(i, 0)))
    print("\n## top 10 rules by rare + whole mean\n")
    for i in np.argsort(-(ma + mb), kind="mergesort")[:10]:
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.3f |" % (cands[i], ma[i], mina[i], mina_nd[i], mb[i], minb[i]))

    print("\n## a-priori rules (no tuning), default members {knn, iforest, mcd}\n")
    for c in ["rank|mean", "gauss|mean", "minmax|mean", "robz|mean", "z|mean", "logrank|mean", "probit|mean",
              "rank|fisher", "gauss|fisher", "rank|median", "rank|max", "robz|max", "rank|aom", "rank|moa",
              "rank|agree", "logrank|agree", "rank|pseudoloo", "rank|greedy", "gamma|mean", "gammalog|mean",
              "gamma|fisher", "robz|w0.8", "rank|w0.8", "logrank|w0.8"]:
        key = c + ("|mcd+knn+iforest" if "|w" in c else "|knn+iforest+mcd")
        if key in cands:
            i = cands.index(key)
            print("  %-34s rare %.3f (min %.3f, w/o digits %.3f)  whole %.3f (min %.3f)" % (
                key, ma[i], mina[i], mina_nd[i], mb[i], minb[i]))

    print("\n## digits and the 0.55 floor\n")
    i = int(np.argmax(A[:, dj]))
    print("  best digits (rare) of any rule: %.3f (%s, mean %.3f); EE %.3f, mcd %.3f, consensus %.3f" % (
        A[i, dj], cands[i], ma[i], ee_a[dj], R["ref"]["mcd"][dj], R["ref"]["consensus"][dj]))
    for thr in [0.78, 0.79]:
        ok = ma >= thr
        i = int(np.argmax(np.where(ok, A[:, dj], -1)))
        print("  best digits among rules with rare mean >= %.2f: %.3f (%s, mean %.3f)" % (thr, A[i, dj], cands[i], ma[i]))
    i = int(np.argmax(mina_nd))
    print("  best min without digits: %.3f (%s, mean %.3f); EE's: %.3f" % (mina_nd[i], cands[i], ma[i],
                                                                        np.delete(ee_a, dj).min()))
    ok = mina_nd >= 0.55
    i = int(np.argmax(np.where(ok, ma, -1)))
    print("  best rare mean with every set but digits >= 0.55: %.3f (%s)" % (ma[i], cands[i]))

    print("\n## half splits over the union (1000 random 10/11 splits)\n")
    rng = np.random.default_rng(1)
    gb = int(np.argmax(ma))
    d_ee, rk_a, rk_b, win = [], [], [], []
    for _ in range(1000):
        p = rng.permutation(S)
        a, b = p[: S // 2], p[S // 2:]
        m1, m2 = A[:, a].mean(1), A[:, b].mean(1)
        c = int(np.argmax(m1))
        d_ee.append(m2[c] - ee_a[b].mean())
        win.append(m2[c] >= ee_a[b].mean())
        rk_a.append((m1 > m1[gb]).sum() + 1)
        rk_b.append((m2 > m2[gb]).sum() + 1)
    print("  chosen on half A, on half B minus EE: %+.3f (sd %.3f), >= EE in %.1f %% of splits" % (
        np.mean(d_ee), np.std(d_ee), 100 * np.mean(win)))
    print("  all-set best %s: rank on A median %d (IQR %d-%d), on B median %d (IQR %d-%d) of %d" % (
        cands[gb], np.median(rk_a), *np.percentile(rk_a, [25, 75]), np.median(rk_b), *np.percentile(rk_b, [25, 75]),
        len(cands)))


if __name__ == "__main__":
    main()
