#!/usr/bin/python3
"""A label-free "the ranking may be inverted" warning, designed and calibrated on data.

After a detector is fitted, its training scores are compared (Spearman's rho, mid-ranks) with a few
label-free reference scores computed on the same (normalised) matrix. Today's rule: rho with the
distance to the 10th nearest neighbour < 0.3 -> warn. Candidates here: agreement with SEVERAL
references, warn only when the detector disagrees with ALL of them (max_r rho_r < tau).

Runs: every detector (defaults, --normalize zscore) on the 21 real sets of the corpus (bench/corpus.py's
protocol: cap rows, outliers made rare at 10 %) and every detector with --normalize none AND zscore on
toy sets (generated + samples/*.csv). A run slower than --timeout seconds is skipped (and named).

Calibration: the sets are split into two halves (real and toy sets split separately, seeded); the rule
(reference family and tau) is chosen on one half and measured on the other, both ways round, and
leave-one-set-out. Targets: >= 80 % of runs with AUROC < 0.4 warned, <= 2 % of runs with AUROC > 0.7
warned, no toy run with AUROC > 0.9 warned.

Also: a scale table (largest / smallest column sd on raw features; knn, lof, ksp with --normalize none
vs zscore), to support the warning "feature scales differ by > 100x: normalise (zscore)".

Standard library + numpy + scipy only. Scores are cached under --out/cache; prints Markdown.
    /usr/bin/python3 bench/inversion_study.py --cli build/app/cli/outlierlens-cli --cap 2000 --out /tmp/inv
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

import numpy as np
from scipy.spatial import cKDTree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("OLENS_ROOT", os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import corpus  # noqa: E402
from corpus import SETS, auroc, load, zscore  # noqa: E402

NEIGHBOUR_DETECTORS = ["knn", "lof", "ksp"]
# The rule the app ships (core/pipeline/FitDiagnostics.h kInvertedAgreement, 40th neighbour).
SHIPPED_TAU = 0.54

# Toy sets: name -> (generator, n, params) or a file under samples/.
TOYS = {
    "seam100_noise0.01": ("seam", 100, ["noise=0.01"]),
    "seam600": ("seam", 600, []),
    "seam600_out0.05": ("seam", 600, ["outliers=0.05"]),
    "blobs_c1": ("blobs", 500, ["centers=1", "outliers=0.05"]),
    "blobs_c3": ("blobs", 500, ["centers=3", "outliers=0.05"]),
    "moons": ("moons", 500, ["outliers=0.05"]),
    "ring": ("ring", 500, ["outliers=0.05"]),
    "swissroll": ("swissroll", 2000, ["outliers=0.05"]),
    "scurve": ("scurve", 2000, ["outliers=0.05"]),
    "sphere": ("sphere", 1000, ["outliers=0.05"]),
    "torus": ("torus", 1000, ["outliers=0.05"]),
    "s:moons2d": "moons2d.csv",
    "s:blobs5d": "blobs5d.csv",
    "s:seam100": "seam100.csv",
    "s:seam3d": "seam3d.csv",
    "s:wbc": "wbc.csv",
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()[:12]


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    d = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    li = header.index("label")
    feats = [j for j in range(len(header)) if j != li and not header[j].startswith("sigma_")]
    return d[:, feats], d[:, li].astype(int)


def prepare(args):
    """Writes every set's CSV under out/data; returns {set: (kind, path)}."""
    ddir = os.path.join(args.out, "data")
    os.makedirs(ddir, exist_ok=True)
    sets = {}
    for s in SETS:
        path = os.path.join(ddir, "real_%s.csv" % s)
        if not os.path.exists(path):
            names, X, y = load(os.path.join(args.data, s + ".csv"), args.cap, 0.1)
            np.savetxt(path, np.column_stack([X, y]), delimiter=",", header=",".join(names + ["label"]),
                       comments="", fmt="%.17g")
        sets[s] = ("real", path)
    for t, spec in TOYS.items():
        if isinstance(spec, str):
            sets[t] = ("toy", os.path.join(ROOT, "samples", spec))
            continue
        gen, n, params = spec
        path = os.path.join(ddir, "toy_%s.csv" % t)
        if not os.path.exists(path):
            cmd = [args.cli, "generate", gen, "--n", str(n), "--seed", "1", "--output", path]
            for p in params:
                cmd += ["--param", p]
            subprocess.run(cmd, check=True, capture_output=True)
        sets[t] = ("toy", path)
    return sets


class Runner:
    def __init__(self, cli, cache_dir, timeout):
        self.cli, self.cache_dir, self.timeout = cli, cache_dir, timeout
        os.makedirs(cache_dir, exist_ok=True)
        self.cli_hash = sha(cli)

    def scores(self, csv, det, norm):
        key = hashlib.sha1(json.dumps([self.cli_hash, sha(csv), det, norm]).encode()).hexdigest()[:16]
        path = os.path.join(self.cache_dir, key + ".json")
        if os.path.exists(path):
            with open(path) as f:
                out = json.load(f)
            if not (out.get("error", "").startswith("timeout") and out.get("timeout", 0) < self.timeout):
                return out
        cmd = [self.cli, "score", "--input", csv, "--detector", det, "--normalize", norm, "--output", "-"]
        out = corpus.run_score(cmd, self.timeout)
        if "header" in out and "label" not in out.pop("header"):
            raise RuntimeError("no label column in the output of %s" % " ".join(cmd))
        with open(path, "w") as f:
            json.dump(out, f)
        return out


def run_all(args, sets, dets):
    """Returns a list of run dicts: set, kind, det, norm, scores (array) or error."""
    runner = Runner(args.cli, os.path.join(args.out, "cache"), args.timeout)
    runs = []
    jobs = []
    for s, (kind, path) in sets.items():
        if kind == "real":
            jobs += [(s, kind, path, d, "zscore") for d in dets]
            jobs += [(s, kind, path, d, "none") for d in NEIGHBOUR_DETECTORS]
        else:
            jobs += [(s, kind, path, d, norm) for norm in ("none", "zscore") for d in dets]
    t0 = time.time()
    for i, (s, kind, path, d, norm) in enumerate(jobs):
        r = runner.scores(path, d, norm)
        if r["seconds"] > 5 and "cached" not in r:
            log("[%d/%d %.0fs] %s %s %s: %.1f s %s" % (i + 1, len(jobs), time.time() - t0, s, d, norm, r["seconds"],
                                                    r.get("error", "")))
        runs.append({"set": s, "kind": kind, "path": path, "det": d, "norm": norm,
                     "scores": None if "error" in r else np.asarray(r["scores"], float),
                     "error": r.get("error"), "seconds": r["seconds"],
                     "cli_inverted": any("the ranking may be inverted" in w for w in r.get("warnings", []))})
    return runs


# ---------------------------------------------------------------------------------------------------
# Label-free references (computed on the matrix the detector saw, on the evenly spaced sample rows).

def sample_rows(n, p):
    """Today's sample: m = min(n, clamp(sqrt(2e8 / p), 100, 2000)) evenly spaced rows i * n / m."""
    m = min(n, int(np.clip(np.sqrt(2e8 / max(1, p)), 100, 2000)))
    return (np.arange(m) * n) // m


def neighbours(Z, rows, k):
    """The k nearest neighbours among all rows of each sample row, the row itself (by index) left out:
    (distances, indices), each m x k, nearest first."""
    n = len(Z)
    k = min(k, n - 1)
    tree = cKDTree(Z)
    d, i = tree.query(Z[rows], k=k + 1)
    d, i = np.atleast_2d(d), np.atleast_2d(i)
    D = np.empty((len(rows), k))
    I = np.empty((len(rows), k), int)
    for r, self_ in enumerate(rows):
        keep = np.flatnonzero(i[r] != self_)[:k]
        D[r], I[r] = d[r, keep], i[r, keep]
    return D, I


def robust_mahalanobis(Zs, h_frac=0.75, steps=3, ridge=1e-3):
    """MCD-like: start from the coordinate-wise median; H = the h = ceil(h_frac * m) rows nearest it
    (Euclidean); then `steps` C-steps (mean and covariance of H, H = the h rows of smallest Mahalanobis
    distance); the score is the Mahalanobis distance with the last H's mean and covariance, the
    covariance regularised as S + ridge * trace(S) / p * I."""
    m, p = Zs.shape
    h = int(np.ceil(h_frac * m))
    d = np.linalg.norm(Zs - np.median(Zs, 0), axis=1)
    H = np.argsort(d, kind="stable")[:h]
    for it in range(steps + 1):
        mu = Zs[H].mean(0)
        C = np.atleast_2d(np.cov(Zs[H], rowvar=False, bias=True))
        C = C + ridge * max(np.trace(C) / p, 1e-12) * np.eye(p)
        Li = np.linalg.cholesky(C)
        Y = np.linalg.solve(Li, (Zs - mu).T)
        d = np.sqrt((Y * Y).sum(0))
        H = np.argsort(d, kind="stable")[:h]
    return d


def local_pca(Z, rows, I, k, dim):
    """For each sample row: the k nearest neighbours (itself left out), their mean c and the top-d
    eigenvectors U of their covariance; the score is |(I - U U^T)(x - c)|. dim: an int (fixed d,
    capped at p - 1) or "gap" (per row: d = argmax_{j < r} lambda_j / lambda_{j+1}, r = min(k - 1, p),
    eigenvalues floored at 1e-12 * lambda_1)."""
    p = Z.shape[1]
    out = np.empty(len(rows))
    for r, i in enumerate(rows):
        N = Z[I[r, :k]]
        c = N.mean(0)
        _, sv, Vt = np.linalg.svd(N - c, full_matrices=False)
        lam = sv ** 2
        rk = min(k - 1, p)
        if dim == "gap":
            lam2 = np.maximum(lam[:rk], 1e-12 * max(lam[0], 1e-300))
            d = int(np.argmax(lam2[:-1] / lam2[1:])) + 1 if rk >= 2 else 1
        else:
            d = int(dim)
        d = max(0, min(d, p - 1, len(lam)))
        v = Z[i] - c
        U = Vt[:d]
        res = v - U.T @ (U @ v)
        out[r] = np.sqrt(res @ res)
    return out


def global_dim(Z, rows, I, k, share=0.9):
    """Intrinsic dimension: the median over the sample rows of the number of local eigenvalues (k
    neighbours) needed for `share` of the local variance, capped at p - 1 and at least 1."""
    p = Z.shape[1]
    ds = []
    for r in range(len(rows)):
        N = Z[I[r, :k]]
        sv = np.linalg.svd(N - N.mean(0), compute_uv=False)
        lam = sv ** 2
        c = np.cumsum(lam) / max(lam.sum(), 1e-300)
        ds.append(int(np.searchsorted(c, share)) + 1)
    return int(max(1, min(p - 1, np.median(ds)))) if p > 1 else 1


def references(Z):
    """Every candidate reference on the sample rows: {name: values}, plus the sample rows."""
    n, p = Z.shape
    rows = sample_rows(n, p)
    D, I = neighbours(Z, rows, 40)
    ref = {}
    for k in (1, 2, 5, 10, 20, 40):
        ref["knn%d" % k] = D[:, min(k, D.shape[1]) - 1]
    ref["knnmean10"] = D[:, :min(10, D.shape[1])].mean(1)
    ref["mahal"] = robust_mahalanobis(Z[rows])
    ref["center"] = np.linalg.norm(Z[rows] - np.median(Z, 0), axis=1)
    # LOF-like: k-distance of the row over the mean k-distance of its neighbours (k = 10).
    kk = min(10, D.shape[1])
    kdist_all = neighbours(Z, np.arange(n), kk)[0][:, kk - 1] if n <= 20000 else None
    ref["lofratio10"] = D[:, kk - 1] / np.maximum(kdist_all[I[:, :kk]].mean(1), 1e-300)
    kl = min(20, D.shape[1])
    ref["lpca_gap"] = local_pca(Z, rows, I, kl, "gap")
    ref["lpca_d1"] = local_pca(Z, rows, I, kl, 1)
    ref["lpca_d2"] = local_pca(Z, rows, I, kl, 2)
    gd = global_dim(Z, rows, I, kl)
    ref["lpca_gd"] = local_pca(Z, rows, I, kl, gd)
    ref["lpca_gd_k40"] = local_pca(Z, rows, I, min(40, D.shape[1]), global_dim(Z, rows, I, min(40, D.shape[1])))
    return rows, ref, gd


def midranks(v):
    from scipy.stats import rankdata
    return rankdata(v, method="average")


def spearman(a, b):
    """Spearman's rho: Pearson correlation of mid-ranks (ties share their mean rank); NaN -> lowest;
    0 when either side is constant."""
    a = np.nan_to_num(np.asarray(a, float), nan=-np.inf)
    b = np.nan_to_num(np.asarray(b, float), nan=-np.inf)
    ra, rb = midranks(a), midranks(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    den = np.sqrt((ra @ ra) * (rb @ rb))
    return float(ra @ rb / den) if den > 0 else 0.0


# ---------------------------------------------------------------------------------------------------
# Per-run agreement with every reference.

def matrix(path, norm):
    X, y = read_csv(path)
    return (zscore(X) if norm == "zscore" else X), y


def table(runs):
    """One record per scored run of the inversion study (real sets: zscore; toys: none and zscore)."""
    refcache = {}
    recs = []
    for r in runs:
        if r["scores"] is None or (r["kind"] == "real" and r["norm"] != "zscore"):
            continue
        key = (r["path"], r["norm"])
        if key not in refcache:
            Z, y = matrix(r["path"], r["norm"])
            rows, ref, gd = references(Z)
            refcache[key] = (y, rows, ref, gd)
        y, rows, ref, gd = refcache[key]
        s = r["scores"]
        if len(s) != len(y):
            raise RuntimeError("%s %s: %d scores, %d rows" % (r["set"], r["det"], len(s), len(y)))
        rec = {k: r[k] for k in ("set", "kind", "det", "norm", "cli_inverted")}
        rec["auroc"] = auroc(s, y)
        rec["rho"] = {name: spearman(s[rows], v) for name, v in ref.items()}
        rec["gd"] = gd
        rec["s"] = s[rows]
        rec["key"] = key
        recs.append(rec)
    ref_auroc = {key: {name: auroc(v, y[rows]) for name, v in ref.items()} for key, (y, rows, ref, gd) in refcache.items()}
    return recs, ref_auroc, {k: v[2] for k, v in refcache.items()}


# ---------------------------------------------------------------------------------------------------
# Agreement statistics between the detector's sample scores s and a reference v (higher = agrees).

def percentiles(s):
    """Mid-rank percentile of each score among the sample rows, (rank - 0.5) / m; NaN ranks lowest."""
    s = np.nan_to_num(np.asarray(s, float), nan=-np.inf)
    return (midranks(s) - 0.5) / len(s)


def tail_agreement(s, v, c=3.0, cap=0.1):
    """The reference's clear outliers: the rows with v > median(v) + c * 1.4826 * MAD(v), at least the
    top one row and at most ceil(cap * m) rows (the largest v; ties by row order). The statistic is
    the mean percentile of the detector's scores over them: 1 = it ranks them all on top, 0.5 = as
    chance, < 0.5 = below its median (inverted)."""
    v = np.asarray(v, float)
    m = len(v)
    md = np.median(v)
    mad = 1.4826 * np.median(np.abs(v - md))
    t = int((v > md + c * mad).sum())
    t = min(max(t, 1), max(1, int(np.ceil(cap * m))))
    top = np.argsort(-v, kind="stable")[:t]
    return float(percentiles(s)[top].mean())


STATS = {"spearman": lambda s, v: spearman(s, v),
         "tail3": lambda s, v: tail_agreement(s, v, 3.0),
         "tail4": lambda s, v: tail_agreement(s, v, 4.0)}
POOL = ["knn1", "knn5", "knn10", "knn20", "knn40", "mahal", "lpca_d2", "lpca_gd"]


def add_stats(recs, refs):
    for r in recs:
        ref = refs[r["key"]]
        r["st"] = {(st, name): f(r["s"], ref[name]) for st, f in STATS.items() for name in POOL}


# ---------------------------------------------------------------------------------------------------
# Rules: warn when max over the family's references of the statistic < tau.

INV, GOOD, TOY_GOOD = 0.4, 0.7, 0.9
TAUS = np.round(np.arange(-0.3, 1.0, 0.005), 3)


def families(max_size=1):
    """Candidate rules (statistic, references). The selection uses single references (max_size=1):
    on 12 random half splits and leave-one-set-out, choosing among families of 2-3 references
    (or the brief's six) overfitted the threshold and warned good runs on the held-out half."""
    import itertools
    out = []
    for st in STATS:
        for size in range(1, max_size + 1):
            out += [(st, fam) for fam in itertools.combinations(POOL, size)]
    return out


def stat(recs, rule):
    st, fam = rule[0], rule[1]
    return np.array([max(r["st"][(st, f)] for f in fam) for r in recs])


def masks(recs):
    a = np.array([r["auroc"] for r in recs])
    toy = np.array([r["kind"] == "toy" for r in recs])
    own = np.array([r["own"] for r in recs], bool)
    return a < INV, own, a > GOOD, toy & (a > TOY_GOOD)


def choose_tau(recs, rule):
    """Among the thresholds that warn no run with AUROC > 0.7 and no toy run > 0.9 (stricter than the
    2 % target, to leave room on held-out data), those warning the most runs with AUROC < 0.4; tau is
    the middle of that range. Returns (tau, recall, width of the range) or (None, -1, 0)."""
    M = stat(recs, rule)
    inv, own, good, tg = masks(recs)
    W = M[None, :] < TAUS[:, None]
    recall = (W & inv).sum(1) / max(1, inv.sum())
    ok = ((W & good).sum(1) == 0) & ((W & tg).sum(1) == 0)
    if not ok.any():
        return None, -1.0, 0.0
    best = recall[ok].max()
    cand = TAUS[ok & (recall == best)]
    return float(np.round((cand.min() + cand.max()) / 2, 3)), float(best), float(cand.max() - cand.min())


def choose(recs, fams):
    """The rule of highest recall; ties: the widest margin, then the first listed."""
    best = None
    for rank, rule in enumerate(fams):
        tau, rec, width = choose_tau(recs, rule)
        if tau is None:
            continue
        key = (rec, width, -rank)
        if best is None or key > best[0]:
            best = (key, rule, tau)
    return best[1], best[2]


def rates(recs, warned):
    inv, own, good, tg = masks(recs)
    w = np.asarray(warned, bool)
    return {"inv": int(inv.sum()), "inv_w": int((w & inv).sum()), "own": int(own.sum()),
            "own_w": int((w & own).sum()), "good": int(good.sum()), "good_w": int((w & good).sum()),
            "toy9": int(tg.sum()), "toy9_w": int((w & tg).sum())}


def pct(a, b):
    return "%d/%d (%.0f %%)" % (a, b, 100.0 * a / max(1, b))


def rate_cells(rt):
    ok = lambda c: "pass" if c else "**FAIL**"
    return "%s %s | %s | %s %s | %d/%d %s" % (
        pct(rt["inv_w"], rt["inv"]), ok(rt["inv_w"] >= 0.8 * rt["inv"]), pct(rt["own_w"], rt["own"]),
        pct(rt["good_w"], rt["good"]), ok(rt["good_w"] <= 0.02 * rt["good"]), rt["toy9_w"], rt["toy9"],
        ok(rt["toy9_w"] == 0))


def rule_name(rule, tau):
    return "%s, max over {%s} < %.3g" % (rule[0], ", ".join(rule[1]), tau)


def today_warned(recs):
    return np.array([r["st"][("spearman", "knn10")] < 0.3 for r in recs])


# ---------------------------------------------------------------------------------------------------

def split_halves(sets, seed=0):
    rng = np.random.default_rng(seed)
    A = set()
    for kind in ("real", "toy"):
        names = sorted(s for s, (k, _) in sets.items() if k == kind)
        perm = rng.permutation(len(names))
        A |= {names[i] for i in perm[: (len(names) + 1) // 2]}
    return A


def mark_own(recs):
    """A run inverted on its own: AUROC < 0.4 where the median detector on the same matrix is >= 0.6
    (elsewhere the labelled class is not outlying and no label-free check can see it)."""
    by = {}
    for r in recs:
        by.setdefault((r["set"], r["norm"]), []).append(r["auroc"])
    for r in recs:
        r["own"] = bool(r["auroc"] < INV and np.median(by[(r["set"], r["norm"])]) >= 0.6)


def report_inversion(recs, sets):
    mark_own(recs)
    fams = families()
    print("## Label-free \"ranking may be inverted\" warning\n")
    inv, own, good, tg = masks(recs)
    print("%d scored runs (real sets: zscore; toys: none and zscore); %d with AUROC < 0.4 (%d inverted on their own: "
          "set median >= 0.6), %d with AUROC > 0.7, %d toy runs > 0.9.\n" % (len(recs), inv.sum(), own.sum(),
                                                                           good.sum(), tg.sum()))
    head = ("| rule | chosen on | measured on | AUROC < 0.4 warned (>= 80 %) | own-inverted warned | "
            "AUROC > 0.7 warned (<= 2 %) | toy > 0.9 warned (0) |")
    print(head)
    print("|---|---|---|---|---|---|---|")
    A = split_halves(sets)
    halves = {"A": [r for r in recs if r["set"] in A], "B": [r for r in recs if r["set"] not in A]}
    chosen = {}
    for tr, te in (("A", "B"), ("B", "A")):
        rule, tau = choose(halves[tr], fams)
        chosen[tr] = (rule, tau)
        for on in (tr, te):
            print("| %s | half %s | half %s%s | %s |" % (rule_name(rule, tau), tr, on, " (held out)" if on == te else "",
                                                      rate_cells(rates(halves[on], stat(halves[on], rule) < tau))))
            print("| today: spearman knn10 < 0.3 | — | half %s | %s |" % (on, rate_cells(rates(halves[on], today_warned(halves[on])))))
    # Leave-one-set-out: the rule chosen on all other sets, applied to the held-out set's runs.
    warned = np.zeros(len(recs), bool)
    loso_rules = {}
    for s in sets:
        idx = [i for i, r in enumerate(recs) if r["set"] == s]
        if not idx:
            continue
        rule, tau = choose([r for r in recs if r["set"] != s], fams)
        loso_rules.setdefault(rule_name(rule, tau), []).append(s)
        M = stat([recs[i] for i in idx], rule)
        warned[idx] = M < tau
    print("| leave-one-set-out (each set by the rule chosen on the others) | all but one | each held out | %s |" %
          rate_cells(rates(recs, warned)))
    tot = {}
    npass = np.zeros(3, int)
    for seed in range(12):
        As = split_halves(sets, seed)
        H = {"A": [r for r in recs if r["set"] in As], "B": [r for r in recs if r["set"] not in As]}
        for tr, te in (("A", "B"), ("B", "A")):
            rl, t = choose(H[tr], fams)
            rt = rates(H[te], stat(H[te], rl) < t)
            for k, v in rt.items():
                tot[k] = tot.get(k, 0) + v
            npass += [rt["inv_w"] >= 0.8 * rt["inv"], rt["good_w"] <= 0.02 * rt["good"], rt["toy9_w"] == 0]
    print("| 12 random half splits x 2 directions, held-out halves pooled (targets met in %d / %d / %d of 24) | halves | "
          "other halves | %s |" % (npass[0], npass[1], npass[2], rate_cells(tot)))
    rule, tau = choose(recs, fams)
    Wall = stat(recs, rule) < tau
    print("| %s | all | all (in-sample) | %s |" % (rule_name(rule, tau), rate_cells(rates(recs, Wall))))
    print("| today: spearman knn10 < 0.3 | — | all | %s |" % rate_cells(rates(recs, today_warned(recs))))
    cli = np.array([r["cli_inverted"] for r in recs])
    print("| the CLI's own \"may be inverted\" warning (the binary measured) | — | all | %s |" % rate_cells(rates(recs, cli)))
    shipped = stat(recs, ("tail3", ("knn40",))) < SHIPPED_TAU
    differ = [r for r, c, w in zip(recs, cli, shipped) if c != w]
    print("\nThe CLI's warning and this script's tail3/knn40 < %.2f (an independent implementation) differ on %d "
          "of %d runs%s.\n" % (SHIPPED_TAU, len(differ), len(recs), (": " + ", ".join(
              "%s %s %s (cli %s)" % (r["set"], r["det"], r["norm"], r["cli_inverted"]) for r in differ[:12])) if differ else ""))
    print("\nHalf A: %s.\n" % ", ".join(sorted(A)))
    print("Rules chosen leave-one-set-out: " + "; ".join("%s (%d sets)" % (k, len(v)) for k, v in loso_rules.items()) + "\n")
    # Fixed, principled candidates on all runs for comparison.
    print("| fixed rule | AUROC < 0.4 warned | own-inverted | AUROC > 0.7 warned | toy > 0.9 warned |")
    print("|---|---|---|---|---|")
    fixed = [(("tail3", ("knn40",)), 0.5), (("tail3", ("knn20",)), 0.5), (("tail3", ("knn10",)), 0.5),
             (("tail4", ("knn20",)), 0.5), (("tail3", ("knn1", "knn5", "knn10", "knn20", "mahal", "lpca_gd")), 0.5),
             (("spearman", ("knn1", "knn5", "knn10", "knn20", "mahal", "lpca_gd")), 0.3),
             (("spearman", ("knn1", "knn5", "knn10", "knn20", "mahal", "lpca_gd")),
              choose_tau(recs, ("spearman", ("knn1", "knn5", "knn10", "knn20", "mahal", "lpca_gd")))[0] or 0.0),
             (("tail3", ("knn40",)), choose_tau(recs, ("tail3", ("knn40",)))[0])]
    for rl, t in fixed:
        print("| %s | %s |" % (rule_name(rl, t), rate_cells(rates(recs, stat(recs, rl) < t))))
    # Details of the rule chosen on all sets.
    M = stat(recs, rule)
    print("\n### The rule chosen on all sets: %s\n" % rule_name(rule, tau))
    print("Toy runs with AUROC > 0.9 warned: %s.\n" % (", ".join("%s %s %s %.3f (stat %.3f)" % (
        r["set"], r["det"], r["norm"], r["auroc"], m) for r, m, w in zip(recs, M, Wall) if w and r["kind"] == "toy"
        and r["auroc"] > TOY_GOOD) or "none"))
    close = [i for i in np.argsort(M, kind="stable") if recs[i]["auroc"] > GOOD][:8]
    print("Good runs (AUROC > 0.7) closest to the threshold: " + ", ".join(
        "%s %s %s %.2f (%.3f)" % (recs[i]["set"], recs[i]["det"], recs[i]["norm"], recs[i]["auroc"], M[i])
        for i in close) + ".\n")
    print("| missed (AUROC < 0.4, not warned) | norm | AUROC | statistic | own | today's rho |")
    print("|---|---|---|---|---|---|")
    for i in sorted(np.flatnonzero((M >= tau) & inv), key=lambda i: recs[i]["auroc"]):
        r = recs[i]
        print("| %s %s | %s | %.2f | %.3f | %s | %.2f |" % (r["set"], r["det"], r["norm"], r["auroc"], M[i],
                                                          "yes" if r["own"] else "no", r["st"][("spearman", "knn10")]))
    seam = [r for r, m in zip(recs, M) if r["det"] == "quadrics" and r["set"].startswith(("seam", "s:seam"))]
    print("\nFlagship: " + ", ".join("quadrics on %s (%s) AUROC %.3f, stat %.3f %s, today's rho %.2f %s" % (
        r["set"], r["norm"], r["auroc"], stat([r], rule)[0], "WARNED" if stat([r], rule)[0] < tau else "not warned",
        r["st"][("spearman", "knn10")], "(today warns)" if r["st"][("spearman", "knn10")] < 0.3 else "")
        for r in seam) + ".\n")
    return recs, rule, tau


def report_scale(runs, sets):
    print("\n## Feature scales (raw columns) and normalisation for the neighbour detectors\n")
    print("| set | max sd / min sd | " + " | ".join("%s none | %s zscore" % (d, d) for d in NEIGHBOUR_DETECTORS) + " |")
    print("|---|---|" + "---|---|" * len(NEIGHBOUR_DETECTORS))
    au = {}
    for r in runs:
        if r["kind"] == "real" and r["det"] in NEIGHBOUR_DETECTORS:
            X, y = read_csv(r["path"])
            au[(r["set"], r["det"], r["norm"])] = auroc(r["scores"], y) if r["scores"] is not None else float("nan")
    groups = {"> 100": [], "<= 100": []}
    for s, (kind, path) in sets.items():
        if kind != "real":
            continue
        X, _ = read_csv(path)
        sd = X.std(0, ddof=1)
        sd = sd[sd > 0]
        ratio = sd.max() / sd.min()
        g = "> 100" if ratio > 100 else "<= 100"
        groups[g].append(s)
        print("| %s | %.3g | %s |" % (s, ratio, " | ".join("%.3f | %.3f" % (au.get((s, d, "none"), np.nan),
                                                            au.get((s, d, "zscore"), np.nan)) for d in NEIGHBOUR_DETECTORS)))
    print("\n| ratio | sets | " + " | ".join("%s: mean none → zscore (zscore better on)" % d for d in NEIGHBOUR_DETECTORS) + " |")
    print("|---|---|" + "---|" * len(NEIGHBOUR_DETECTORS))
    for g, ss in groups.items():
        cells = []
        for d in NEIGHBOUR_DETECTORS:
            nn = np.array([au[(s, d, "none")] for s in ss])
            zz = np.array([au[(s, d, "zscore")] for s in ss])
            cells.append("%.3f → %.3f (%d/%d; mean gain %+.3f)" % (nn.mean(), zz.mean(), (zz > nn + 0.01).sum(), len(ss),
                                                                  (zz - nn).mean()))
        print("| %s | %d | %s |" % (g, len(ss), " | ".join(cells)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/outlierlens-cli"))
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    ap.add_argument("--cap", type=int, default=2000)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--out", default="/tmp/inv")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sets = prepare(args)
    j = json.loads(subprocess.run([args.cli, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    dets = [d["id"] for d in j["detectors"]]
    runs = run_all(args, sets, dets)
    skipped = ["%s %s %s (%s)" % (r["set"], r["det"], r["norm"], r["error"][:60]) for r in runs if r["error"]]
    print("# Inversion study (cap %d rows, timeout %d s, %d detectors, %d sets)\n" % (args.cap, args.timeout, len(dets),
                                                                                 len(sets)))
    print("Skipped runs (error or timeout): %s.\n" % ("; ".join(skipped) or "none"))
    recs, refa, refs = table(runs)
    add_stats(recs, refs)
    recs, rule, tau = report_inversion(recs, sets)
    with open(os.path.join(args.out, "runs.csv"), "w") as f:
        cols = [k for k in sorted(recs[0]["st"])]
        f.write("set,kind,det,norm,auroc,own,cli_inverted,%s\n" % ",".join("%s:%s" % c for c in cols))
        for r in recs:
            f.write("%s,%s,%s,%s,%.4f,%d,%d,%s\n" % (r["set"], r["kind"], r["det"], r["norm"], r["auroc"], r["own"],
                                                    r["cli_inverted"], ",".join("%.4f" % r["st"][c] for c in cols)))
    report_scale(runs, sets)


if __name__ == "__main__":
    main()
