#!/usr/bin/python3
"""MAIN SCRIPT (part 2): leave-one-set-out, half splits, tables. Reads the .npz files study.py wrote.

usage: /usr/bin/python3 analyze.py build/consensus-study/rare.npz [out/whole.npz]
"""
import sys

import numpy as np

REFS = ["sklearn EllipticEnvelope", "mcd", "consensus", "sklearn IsolationForest", "kods", "iforest", "knn"]
EE = "sklearn EllipticEnvelope"


def load(path):
    z = np.load(path, allow_pickle=False)
    return {"cands": list(z["cands"]), "sets": list(z["sets"]), "auc": z["auc"],
            "ref": {r: z["ref"][i] for i, r in enumerate(z["ref_rows"])}}


def members(c):
    return c.split("|")[2].split("+")


FAMILIES = {
    "all rules": lambda c: True,
    "scalable (knn or iforest, no kods)": lambda c: ("knn" in members(c) or "iforest" in members(c))
    and "kods" not in members(c),
    "default members {knn, iforest, mcd}": lambda c: sorted(members(c)) == ["iforest", "knn", "mcd"],
    "rank|mean, any subset (today's rule)": lambda c: c.startswith("rank|mean|"),
    "size <= 3": lambda c: len(members(c)) <= 3,
}


def loso(auc, idx):
    """auc: cands x sets. Best (first on ties) on all sets but j, evaluated on j. idx: candidate indices."""
    A = auc[idx]
    tot = A.sum(1)
    held, chosen = [], []
    for j in range(A.shape[1]):
        b = int(np.argmax(tot - A[:, j]))
        held.append(A[b, j])
        chosen.append(idx[b])
    return np.array(held), chosen, idx[int(np.argmax(tot))]


def fmt(v):
    return "%.3f" % v


def main():
    R = load(sys.argv[1])
    W = load(sys.argv[2]) if len(sys.argv) > 2 else None
    cands, sets, auc = R["cands"], R["sets"], R["auc"]
    if W:
        assert W["cands"] == cands and W["sets"] == sets
    n, S = auc.shape
    mean = auc.mean(1)
    mn = auc.min(1)
    mn_nodig = np.delete(auc, sets.index("digits"), 1).min(1) if "digits" in sets else mn
    wmean = W["auc"].mean(1) if W else np.full(n, np.nan)
    wmin = W["auc"].min(1) if W else np.full(n, np.nan)
    print("# %d candidates, %d sets\n" % (n, S))
    print("## reference rows (rare mean / min%s)\n" % (" ; whole mean / min" if W else ""))
    for r in REFS:
        if r in R["ref"]:
            v = R["ref"][r]
            line = "  %-28s %s / %s" % (r, fmt(v.mean()), fmt(v.min()))
            if W and r in W["ref"]:
                line += "  ;  %s / %s" % (fmt(W["ref"][r].mean()), fmt(W["ref"][r].min()))
            print(line)
    ee = R["ref"][EE]
    # sanity: our rank|mean|knn+iforest+mcd must reproduce the corpus' consensus row
    k = cands.index("rank|mean|knn+iforest+mcd")
    print("\n  check: rank|mean|knn+iforest+mcd %s vs consensus row %s (max |diff| %.2g)" % (
        fmt(mean[k]), fmt(R["ref"]["consensus"].mean()), np.abs(auc[k] - R["ref"]["consensus"]).max()))
    if "gauss|mean|knn+iforest+mcd" in cands:
        print("  gauss|mean|knn+iforest+mcd %s" % fmt(mean[cands.index("gauss|mean|knn+iforest+mcd")]))

    # LOSO per family
    chosen_all_fam = {}
    print("\n## leave-one-set-out (selection on 20 sets, held-out set)\n")
    print("| family | #cands | held-out mean | held-out min | chosen on all sets | its mean | its min |%s" % (
        " whole: LOSO held-out mean | whole: rare-chosen-on-20 held-out mean |" if W else ""))
    print("|---|---|---|---|---|---|---|%s" % ("---|---|" if W else ""))
    for fam, ok in FAMILIES.items():
        idx = np.array([i for i, c in enumerate(cands) if ok(c)])
        if len(idx) < 2:
            continue
        held, chosen, best = loso(auc, idx)
        chosen_all_fam[fam] = best
        extra = ""
        if W:
            wheld, _, _ = loso(W["auc"], idx)
            carry = np.array([W["auc"][chosen[j], j] for j in range(S)])
            extra = " %s | %s |" % (fmt(wheld.mean()), fmt(carry.mean()))
        print("| %s | %d | %s | %s | %s | %s | %s |%s" % (fam, len(idx), fmt(held.mean()), fmt(held.min()),
                                                         cands[best], fmt(mean[best]), fmt(mn[best]), extra))
    idx = np.arange(n)
    held, chosen, best = loso(auc, idx)
    print("\nLOSO (all rules) per fold: " + ", ".join("%s→%s %.3f" % (s, cands[c], h) for s, c, h in zip(sets, chosen, held)))
    from collections import Counter
    print("\nchosen in folds: " + "; ".join("%s ×%d" % (c, k) for c, k in Counter(cands[c] for c in chosen).most_common()))

    # top table
    print("\n## top candidates by rare mean\n")
    order = np.argsort(-mean, kind="mergesort")
    folds = Counter(chosen)
    print("| rule (unifier|combiner|members) | rare mean | rare min | rare min w/o digits | whole mean | whole min | LOSO folds chosen |")
    print("|---|---|---|---|---|---|---|")
    for i in order[:25]:
        print("| %s | %s | %s | %s | %s | %s | %d |" % (cands[i], fmt(mean[i]), fmt(mn[i]), fmt(mn_nodig[i]),
                                                  fmt(wmean[i]), fmt(wmin[i]), folds.get(i, 0)))
    print("\n  candidates with rare mean >= EE (%s): %d of %d" % (fmt(ee.mean()), int((mean >= ee.mean() - 1e-12).sum()), n))
    if W:
        both = (mean >= ee.mean() - 1e-12) & (wmean >= W["ref"][EE].mean() - 1e-12)
        print("  ... and whole mean >= EE's (%s) too: %d" % (fmt(W["ref"][EE].mean()), int(both.sum())))
        comb = mean + wmean
        print("\n## top by rare + whole mean\n")
        for i in np.argsort(-comb, kind="mergesort")[:10]:
            print("  %-55s rare %s (min %s)  whole %s (min %s)" % (cands[i], fmt(mean[i]), fmt(mn[i]), fmt(wmean[i]), fmt(wmin[i])))

    # best per (unifier, combiner) and per combiner
    print("\n## best subset per unifier x combiner (rare mean; whole mean of the same rule)\n")
    ucs = sorted({tuple(c.split("|")[:2]) for c in cands})
    rows = []
    for u, c in ucs:
        ii = [i for i, x in enumerate(cands) if x.startswith(u + "|" + c + "|")]
        b = max(ii, key=lambda i: mean[i])
        key = "%s|%s|knn+iforest+mcd" % (u, c)
        d = cands.index(key) if key in cands else None
        rows.append((mean[b], u, c, cands[b].split("|")[2], wmean[b], mean[d] if d is not None else np.nan,
                     wmean[d] if d is not None else np.nan))
    print("| unifier | combiner | best subset | rare | whole | {knn,iforest,mcd} rare | whole |")
    print("|---|---|---|---|---|---|---|")
    for m, u, c, sub, wm, dm, dwm in sorted(rows, reverse=True):
        print("| %s | %s | %s | %s | %s | %s | %s |" % (u, c, sub, fmt(m), fmt(wm), fmt(dm), fmt(dwm)))

    # digits and the min
    if "digits" in sets:
        j = sets.index("digits")
        b = int(np.argmax(auc[:, j]))
        print("\n## digits\n  best digits AUROC of any candidate: %s (%s, rare mean %s); EE %s" % (
            fmt(auc[b, j]), cands[b], fmt(mean[b]), fmt(ee[j])))
        b = int(np.argmax(mn))
        print("  best min over sets: %s (%s, mean %s)" % (fmt(mn[b]), cands[b], fmt(mean[b])))
        b = int(np.argmax(mn_nodig))
        print("  best min without digits: %s (%s, mean %s)" % (fmt(mn_nodig[b]), cands[b], fmt(mean[b])))
        ok = mn_nodig >= 0.55
        if ok.any():
            b = int(np.argmax(np.where(ok, mean, -1)))
            print("  best mean with every set but digits >= 0.55: %s (%s, min w/o digits %s)" % (
                fmt(mean[b]), cands[b], fmt(mn_nodig[b])))

    # half splits
    rng = np.random.default_rng(0)
    print("\n## half splits (tune on 10 or 11 sets, test on the rest; 1000 random splits)\n")
    for fam, ok in FAMILIES.items():
        idx = np.array([i for i, c in enumerate(cands) if ok(c)])
        if len(idx) < 2:
            continue
        A = auc[idx]
        diffs, diffs_mcd, diffs_cons, win, rk_tune, rk_test, regret = [], [], [], [], [], [], []
        gb = int(np.argmax(A.mean(1)))
        for _ in range(1000):
            perm = rng.permutation(S)
            a, b = perm[: S // 2], perm[S // 2:]
            ma, mb = A[:, a].mean(1), A[:, b].mean(1)
            c = int(np.argmax(ma))
            diffs.append(mb[c] - ee[b].mean())
            diffs_mcd.append(mb[c] - R["ref"]["mcd"][b].mean())
            diffs_cons.append(mb[c] - R["ref"]["consensus"][b].mean())
            win.append(mb[c] >= ee[b].mean())
            rk_tune.append(int((ma > ma[gb]).sum()) + 1)
            rk_test.append(int((mb > mb[gb]).sum()) + 1)
            regret.append(mb.max() - mb[c])
        print("  %-40s chosen-on-A minus EE on B: mean %+.3f (sd %.3f), >= EE in %.0f %%; minus mcd %+.3f; "
              "minus consensus %+.3f;\n  %40s all-set best (%s) ranks median %d on A, %d on B (of %d)" % (
                  fam, np.mean(diffs), np.std(diffs), 100 * np.mean(win), np.mean(diffs_mcd), np.mean(diffs_cons), "",
                  cands[idx[gb]], np.median(rk_tune), np.median(rk_test), len(idx)))


if __name__ == "__main__":
    main()
