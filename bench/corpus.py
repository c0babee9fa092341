#!/usr/bin/python3
"""Every detector on the real-data corpus (scripts/real-data.sh, 21 labelled sets), the way a
statistician would choose defaults: leave-one-set-out.

Protocol: z-scored features, unsupervised fit on all rows, training scores, AUROC against the labels.
Sets with more than --cap rows are reduced to --cap rows by a stratified sample with a fixed seed (the
same rows for every detector). Outliers are rare (--rare 0.1, Campos et al., "On the evaluation of
unsupervised outlier detection", DAMI 2016): where the outlier class is more than 10 % of the rows, a
seeded sample of it is kept so that it is 10 %; --rare 0 keeps the whole class (a classification
set, where the "outlier" class may be as dense as the rest: digits, musk, sonar, vehicle). A detector that refuses or times out counts as AUROC 0.5 and is named.
Scores are cached (build/corpus-cache/) so that a second run only computes what is new.

Reports (Markdown, to stdout, or spliced into docs/benchmarks.md with --write):
  * per detector: min / median / mean / max AUROC over the sets and the sets ranked inverted (< 0.5);
  * for each `auto` rule under test (CANDIDATES): the candidate chosen on all sets but one and its
    AUROC on the held-out set, for every set (leave-one-set-out): the honest estimate of the default;
  * scikit-learn peers on the same matrices (IsolationForest, EllipticEnvelope, LOF, OCSVM, kNN).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")  # scikit-learn's MinCovDet warns on every integer-valued set

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = ["spambase", "shuttle", "ionosphere", "pima", "sonar", "wbc", "glass", "vehicle", "satellite", "vowel",
        "breastw", "letter", "wine", "digits", "hbk", "starsCYG", "penguins", "musk", "cells", "hpc", "ticdata"]

# Parameter settings compared for the defaults under test: detector → {label: [k=v, ...]}; the first
# label is the shipped default.
CANDIDATES = {
    "gods": {"K=auto": [], "K=1": ["K=1"], "K=2": ["K=2"], "K=5": ["K=5"], "init=svd": ["init=svd"]},
}


def load(path, cap, rare=0.0, seed=0):
    with open(path) as f:
        header = f.readline().strip().split(",")
    d = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    X, y = d[:, :-1], d[:, -1].astype(int)
    if cap and len(y) > cap:
        rng = np.random.default_rng(seed)
        keep = []
        for v in (0, 1):
            idx = np.flatnonzero(y == v)
            m = int(round(cap * len(idx) / len(y)))
            keep.append(rng.choice(idx, size=m, replace=False))
        keep = np.sort(np.concatenate(keep))
        X, y = X[keep], y[keep]
    if rare and y.mean() > rare:
        # Rare outliers (Campos et al. 2016's protocol): a seeded sample of the outlier class, sized
        # so that it is `rare` of the rows; every inlier is kept.
        rng = np.random.default_rng(seed)
        out = np.flatnonzero(y == 1)
        m = max(1, int(round(rare / (1 - rare) * (len(y) - len(out)))))
        keep = np.sort(np.concatenate([np.flatnonzero(y == 0), rng.choice(out, size=m, replace=False)]))
        X, y = X[keep], y[keep]
    return header[:-1], X, y


def auroc(scores, y):
    """Mann-Whitney AUROC with mid-ranks (ties count one half); NaN scores rank lowest."""
    s = np.nan_to_num(np.asarray(scores, float), nan=-np.inf)
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    sorted_s = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i:j + 1]] = 0.5 * (i + j) + 1
        i = j + 1
    n1 = int(y.sum())
    n0 = len(y) - n1
    return (ranks[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def detectors(cli):
    j = json.loads(subprocess.run([cli, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    return [d["id"] for d in j["detectors"]]


def run_score(cmd, timeout):
    """Runs an `outlierlens-cli score ... --output -` command: {"scores", "warnings", "header"} or
    {"error"} (a timeout also sets "timeout"), with "seconds"."""
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            out = {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]}
        else:
            lines = p.stdout.strip().splitlines()
            head = lines[0].split(",")
            col = head.index("score")
            out = {"scores": [float(l.split(",")[col]) for l in lines[1:]],
                   "warnings": [l for l in p.stderr.splitlines() if "warning" in l.lower()], "header": head}
    except subprocess.TimeoutExpired:
        out = {"error": "timeout after %d s" % timeout, "timeout": timeout}
    out["seconds"] = time.perf_counter() - t
    return out


class Runner:
    def __init__(self, cli, cache_dir, timeout):
        self.cli, self.cache_dir, self.timeout = cli, cache_dir, timeout
        os.makedirs(cache_dir, exist_ok=True)
        with open(cli, "rb") as f:
            self.cli_hash = hashlib.sha1(f.read()).hexdigest()[:12]

    def scores(self, name, csv, det, params):
        """Training scores of `det` with `params` on the (capped) set written to `csv`; None on failure."""
        with open(csv, "rb") as f:
            data_hash = hashlib.sha1(f.read()).hexdigest()[:12]
        key = hashlib.sha1(json.dumps([self.cli_hash, name, data_hash, det, params]).encode()).hexdigest()[:16]
        path = os.path.join(self.cache_dir, key + ".json")
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)
        cmd = [self.cli, "score", "--input", csv, "--detector", det, "--normalize", "zscore", "--output", "-"]
        for p in params:
            cmd += ["--param", p]
        out = run_score(cmd, self.timeout)
        with open(path, "w") as f:
            json.dump(out, f)
        return out


def peers():
    from sklearn.covariance import EllipticEnvelope
    from sklearn.ensemble import IsolationForest
    from sklearn.neighbors import LocalOutlierFactor, NearestNeighbors
    from sklearn.svm import OneClassSVM

    def knn(X):
        d, _ = NearestNeighbors(n_neighbors=6).fit(X).kneighbors(X)
        return d[:, 5]
    return {
        "sklearn IsolationForest": lambda X: -IsolationForest(random_state=0).fit(X).score_samples(X),
        "sklearn EllipticEnvelope": lambda X: -EllipticEnvelope(random_state=0).fit(X).score_samples(X),
        "sklearn LOF (20)": lambda X: -LocalOutlierFactor().fit(X).negative_outlier_factor_,
        "sklearn OneClassSVM": lambda X: -OneClassSVM(gamma="scale").fit(X).score_samples(X),
        "sklearn kNN (k=5)": knn,
    }


def zscore(X):
    s = X.std(0)
    s[s == 0] = 1.0
    return (X - X.mean(0)) / s


def loso(table):
    """table: {candidate: {set: auroc}} → ({set: (chosen candidate, held-out auroc)}, chosen on all)."""
    cands = list(table)
    sets = sorted(set.intersection(*(set(table[c]) for c in cands)))
    mean = lambda c, ex: np.mean([table[c][s] for s in sets if s != ex])
    out = {}
    for s in sets:
        best = max(cands, key=lambda c: (mean(c, s), -cands.index(c)))
        out[s] = (best, table[best][s])
    return out, max(cands, key=lambda c: (mean(c, None), -cands.index(c)))


def summary_row(name, values, failures):
    v = np.array(list(values.values()))
    inv = sorted(s for s, a in values.items() if a < 0.5)
    return "| %s | %.2f | %.2f | %.2f | %.2f | %s |%s" % (
        name, v.min(), np.median(v), v.mean(), v.max(), ", ".join("%s %.2f" % (s, values[s]) for s in inv) or "—",
        (" failed: " + ", ".join(failures)) if failures else "")


def warning_report(results, warned):
    """How the label-free "inverted" warning did: every OutlierLens run, split by its AUROC. A run is
    inverted on its own when it is below 0.5 while most detectors rank the set well (median ≥ 0.6);
    on sets where nearly every detector is below 0.5 the labelled class is not outlying at all and
    no label-free check can see it."""
    runs = [(row, s, a) for row, per in results.items() if not row.startswith("sklearn") for s, a in per.items()
            if (row, s) in warned]
    med = {s: np.median([a for row, s2, a in runs if s2 == s and " " not in row]) for _, s, _ in runs}
    good = [r for r in runs if r[2] >= 0.7]
    inv = [r for r in runs if r[2] < 0.5]
    own = [r for r in inv if med[r[1]] >= 0.6]
    w = lambda rs: sum(warned[(row, s)] for row, s, _ in rs)
    lines = ["\n### Label-free \"inverted\" warning\n",
             "| runs | count | warned |", "|---|---|---|",
             "| good (AUROC ≥ 0.7) | %d | %d (%.0f %%) |" % (len(good), w(good), 100.0 * w(good) / max(1, len(good))),
             "| inverted (AUROC < 0.5) | %d | %d |" % (len(inv), w(inv)),
             "| inverted on its own (set median ≥ 0.6) | %d | %d |" % (len(own), w(own))]
    missed = sorted((s, row, a) for row, s, a in own if not warned[(row, s)])
    if missed:
        lines.append("\nInverted on its own, not warned: " + ", ".join("%s on %s %.2f" % (row, s, a) for s, row, a in missed))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/outlierlens-cli"))
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--only", default="", help="comma-separated detector ids")
    ap.add_argument("--cap", type=int, default=5000)
    ap.add_argument("--rare", type=float, default=0.1,
                    help="outlier share above which the outlier class is subsampled to it (0 = keep the whole class)")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--json", default="", help="also write every AUROC to this file")
    ap.add_argument("--scores", default="", help="also write labels and every run's scores (pickle) for analyses")
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    missing = [s for s in sets if not os.path.exists(os.path.join(args.data, s + ".csv"))]
    if missing:
        sys.exit("corpus: missing %s in %s — run scripts/real-data.sh first" % (", ".join(missing), args.data))
    ids = [d for d in args.only.split(",") if d] or detectors(args.cli)
    runner = Runner(args.cli, os.path.join(ROOT, "build/corpus-cache"), args.timeout)
    tmp = tempfile.mkdtemp(prefix="olens-corpus-")
    results = {}   # row name → {set: auroc}
    failures = {}  # row name → [set: error]
    dump = {}      # set → {"y": labels, "X": z-scored rows, row name → scores}
    inverted_warned = {}  # (row, set) → whether the fit warned "the ranking may be inverted"
    for s in sets:
        names, X, y = load(os.path.join(args.data, s + ".csv"), args.cap, args.rare)
        csv = os.path.join(tmp, s + ".csv")
        np.savetxt(csv, np.column_stack([X, y]), delimiter=",", header=",".join(names + ["label"]), comments="",
                   fmt="%.17g")
        print("corpus: %s %d × %d, %d outliers" % (s, X.shape[0], X.shape[1], y.sum()), file=sys.stderr)
        jobs = [(d, d, []) for d in ids]
        for d, cands in CANDIDATES.items():
            if d in ids:
                jobs += [("%s %s" % (d, label), d, params) for label, params in cands.items() if params]
        for row, d, params in jobs:
            r = runner.scores(s, csv, d, params)
            if "error" in r:
                failures.setdefault(row, []).append("%s (%s)" % (s, r["error"][:80]))
                results.setdefault(row, {})[s] = 0.5
            else:
                results.setdefault(row, {})[s] = auroc(r["scores"], y)
                dump.setdefault(s, {"y": y, "X": zscore(X)})[row] = np.asarray(r["scores"])
                inverted_warned[(row, s)] = any("may be inverted" in w for w in r.get("warnings", []))
        if not args.no_peers:
            Z = zscore(X)
            for row, f in peers().items():
                sc = f(Z)
                results.setdefault(row, {})[s] = auroc(sc, y)
                dump.setdefault(s, {"y": y, "X": Z})[row] = sc
    print("## Corpus: %d real sets (AUROC, z-scored, fit on all rows, cap %d rows, %s)\n" % (
        len(sets), args.cap, "outliers subsampled to %g %% where more" % (100 * args.rare) if args.rare
        else "every member of the outlier class"))
    print("| detector | min | median | mean | max | inverted (< 0.5) |")
    print("|---|---|---|---|---|---|")
    for row in sorted(results, key=lambda r: -np.mean(list(results[r].values()))):
        print(summary_row(row, results[row], failures.get(row)))
    print(warning_report(results, inverted_warned))
    for d, cands in CANDIDATES.items():
        if d not in ids:
            continue
        table = {label: results[d if not params else "%s %s" % (d, label)] for label, params in cands.items()}
        per_set, chosen = loso(table)
        held = [a for _, a in per_set.values()]
        print("\n### %s: leave-one-set-out choice among %s\n" % (d, ", ".join(cands)))
        print("Chosen on all %d sets: **%s**. Held-out AUROC of the rule chosen without the set: mean %.3f, "
              "min %.3f (shipped default %s: mean %.3f, min %.3f).\n" % (
                  len(per_set), chosen, np.mean(held), np.min(held), list(cands)[0],
                  np.mean(list(table[list(cands)[0]].values())), np.min(list(table[list(cands)[0]].values()))))
        print("| held-out set | chosen on the others | AUROC |")
        print("|---|---|---|")
        for s, (c, a) in per_set.items():
            print("| %s | %s | %.3f |" % (s, c, a))
    if args.scores:
        import pickle
        with open(args.scores, "wb") as f:
            pickle.dump(dump, f)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "failures": failures, "cap": args.cap}, f, indent=1)


if __name__ == "__main__":
    main()
