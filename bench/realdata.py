#!/usr/bin/python3
"""Every registered detector with its default parameters on real labelled data (issue #17's protocol):
z-scored features, unsupervised fit on all rows, training scores, AUROC against the labels; plus the
share of points each detector's own decision flags. Baselines from scikit-learn run on the same
z-scored matrices. Writes docs/realdata.json and the "Real data" section of docs/benchmarks.md.

Data: scripts/real-data.sh (UCI Ionosphere, Pima, WBC, Spambase, Shuttle from Debian's R packages and
scikit-learn). A detector that refuses or fails counts as AUROC 0.5 in the mean and is named.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = ["ionosphere", "pima", "wbc", "spambase", "shuttle"]


def load(path):
    d = np.genfromtxt(path, delimiter=",", skip_header=1)
    return d[:, :-1], d[:, -1].astype(int)


def zscore(X):
    s = X.std(0)
    s[s == 0] = 1.0
    return (X - X.mean(0)) / s


def detectors(cli):
    j = json.loads(subprocess.run([cli, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    return [d["id"] for d in j["detectors"]]


def run_cli(cli, path, det, timeout):
    cmd = [cli, "evaluate", "--json", "--input", path, "--detector", det, "--normalize", "zscore"]
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": "timeout after %d s" % timeout}
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]}
    j = json.loads(p.stdout)
    out = {"auroc": j["auroc"], "auprc": j["auprc"], "seconds": time.perf_counter() - t}
    if "flagged" in j:
        out["flagged_fraction"] = j["flagged"] / j["n"]
    return out


def baselines():
    from sklearn.covariance import EllipticEnvelope
    from sklearn.ensemble import IsolationForest
    from sklearn.neighbors import LocalOutlierFactor, NearestNeighbors
    from sklearn.svm import OneClassSVM

    def knn(X):
        d, _ = NearestNeighbors(n_neighbors=6).fit(X).kneighbors(X)
        return d[:, 5]
    return [
        ("sklearn IsolationForest", lambda X: -IsolationForest(random_state=0).fit(X).score_samples(X)),
        ("sklearn EllipticEnvelope", lambda X: -EllipticEnvelope(random_state=0).fit(X).score_samples(X)),
        ("sklearn LOF (20)", lambda X: -LocalOutlierFactor().fit(X).negative_outlier_factor_),
        ("sklearn OneClassSVM", lambda X: -OneClassSVM(gamma="scale").fit(X).score_samples(X)),
        ("sklearn kNN (k=5)", knn),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/outlierlens-cli"))
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--only", default="", help="comma-separated detector ids")
    ap.add_argument("--no-baselines", action="store_true")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--update", action="store_true",
                    help="keep the other rows of the existing --json and replace only what this run measured")
    ap.add_argument("--json", default=os.path.join(ROOT, "docs/realdata.json"))
    ap.add_argument("--markdown", default=os.path.join(ROOT, "docs/benchmarks.md"))
    a = ap.parse_args()
    from sklearn.metrics import roc_auc_score
    sets = a.sets.split(",")
    dets = a.only.split(",") if a.only else detectors(a.cli)
    rows = {}
    if a.update and os.path.exists(a.json):
        rows = json.load(open(a.json))["rows"]
    for s in sets:
        path = os.path.join(a.data, s + ".csv")
        X, y = load(path)
        for d in dets:
            r = run_cli(a.cli, path, d, a.timeout)
            rows.setdefault(d, {})[s] = r
            print("realdata: %-14s %-10s %s" % (d, s, r), file=sys.stderr, flush=True)
        if not a.no_baselines:
            Xz = zscore(X)
            for name, fn in baselines():
                t = time.perf_counter()
                try:
                    sc = fn(Xz)
                    r = {"auroc": float(roc_auc_score(y, sc)), "seconds": time.perf_counter() - t}
                except Exception as e:  # noqa: BLE001 — reported, not hidden
                    r = {"error": str(e)[:120]}
                rows.setdefault(name, {})[s] = r
                print("realdata: %-14s %-10s %s" % (name, s, r), file=sys.stderr, flush=True)
    with open(a.json, "w") as f:
        json.dump({"sets": sets, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows}, f, indent=1)
    head = "| detector | " + " | ".join(sets) + " | mean AUROC | flagged (min–max) |"
    lines = ["## Real data, default parameters (bench/realdata.py)", "",
             "Unsupervised fit on all rows of each z-scored set (scripts/real-data.sh), AUROC of the training "
             "scores against the labels; a refusal or failure counts as 0.5 in the mean and is marked ✗. "
             "\"flagged\" is the share of points the detector's own decision marks as outliers.", "",
             head, "|" + "---|" * (len(sets) + 3)]
    for d, per in rows.items():
        cells, aucs, flags = [], [], []
        for s in sets:
            r = per.get(s, {})
            if "auroc" in r:
                cells.append("%.3f" % r["auroc"])
                aucs.append(r["auroc"])
                if "flagged_fraction" in r:
                    flags.append(r["flagged_fraction"])
            else:
                cells.append("✗ " + r.get("error", "?")[:60].replace("|", "/"))
                aucs.append(0.5)
        fl = "%.0f–%.0f %%" % (100 * min(flags), 100 * max(flags)) if flags else "—"
        lines.append("| %s | %s | %.3f | %s |" % (d, " | ".join(cells), sum(aucs) / len(aucs), fl))
    section = "\n".join(lines) + "\n"
    md = open(a.markdown).read() if os.path.exists(a.markdown) else "# Benchmarks\n"
    md = re.sub(r"<!-- realdata -->.*<!-- /realdata -->\n?", "", md, flags=re.S)
    md = md.rstrip("\n") + "\n\n<!-- realdata -->\n" + section + "<!-- /realdata -->\n"
    with open(a.markdown, "w") as f:
        f.write(md)
    print(section)


if __name__ == "__main__":
    sys.exit(main())
