#!/usr/bin/python3
"""OutlierLens against its peers on real data, run alternately in one session (scripts/bench.sh --peers).

For each task the OutlierLens command and the peer run in turn (A B A B ...), --runs times each; the
medians of the programs' own timers are compared (OutlierLens: the `fit_seconds + score_seconds` that
`outlierlens-cli evaluate --json` prints, i.e. fit + scores of the training rows with the data already
loaded; peers: time.perf_counter() around the same work in the same Python process, data loaded
before the clock starts). Writes docs/peers.json and the "Peers" section of docs/benchmarks.md.

Data: scripts/real-data.sh (Spambase, Shuttle, WBC … from Debian's R packages and scikit-learn).
Peers: NumPy/SciPy on Debian's OpenBLAS (libopenblas0-pthread, threads on), scikit-learn.
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import kic_numpy  # noqa: E402  (the NumPy formula of the KIC benchmark)


def load(path):
    d = np.genfromtxt(path, delimiter=",", skip_header=1)
    return d[:, :-1], d[:, -1].astype(int)


def zscore(X):
    s = X.std(0)
    s[s == 0] = 1.0
    return (X - X.mean(0)) / s


def auroc(score, y):
    from sklearn.metrics import roc_auc_score
    return float(roc_auc_score(y, score))


def auprc(score, y):
    from sklearn.metrics import average_precision_score
    return float(average_precision_score(y, score))


def run_cli(cli, path, detector, params, normalize):
    cmd = [cli, "evaluate", "--json", "--input", path, "--detector", detector, "--normalize", normalize]
    for k, v in params.items():
        cmd += ["--param", "%s=%s" % (k, v)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "exit %d" % p.returncode}
    j = json.loads(p.stdout)
    return {"seconds": j["fit_seconds"] + j.get("score_seconds", 0.0), "auroc": j["auroc"], "auprc": j["auprc"]}


# Peers: each returns (seconds, outlier scores) on X (already normalised as the task says).
def peer_kic_numpy(X):
    t = time.perf_counter()
    m = kic_numpy.fit(X)  # fit + training scores (eq. 15) with np.linalg.solve
    return time.perf_counter() - t, m["train"]


def peer_kic_scipy(X):
    # The same formula with SciPy's Cholesky (what a careful SciPy user writes).
    import scipy.linalg as sl
    t = time.perf_counter()
    n, p = X.shape
    sigma = np.sqrt(p) / 2.0
    K = kic_numpy.rbf(X, X, sigma)
    rho = np.linalg.norm(K / n, "fro") / (500.0 * np.sqrt(n))
    c = sl.cho_factor(K + n * rho * np.eye(n), lower=True, check_finite=False)
    train = (1.0 - np.einsum("ij,ij->j", K, sl.cho_solve(c, K, check_finite=False))) / rho
    return time.perf_counter() - t, train


def peer_knn(X, k=5):
    from sklearn.neighbors import NearestNeighbors
    t = time.perf_counter()
    d, _ = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)
    return time.perf_counter() - t, d[:, k]


def peer_ocsvm(X):
    from sklearn.svm import OneClassSVM
    t = time.perf_counter()
    m = OneClassSVM(gamma="scale", nu=0.1).fit(X)
    s = -m.score_samples(X)
    return time.perf_counter() - t, s


def peer_iforest(X):
    from sklearn.ensemble import IsolationForest
    t = time.perf_counter()
    m = IsolationForest(random_state=0).fit(X)
    s = -m.score_samples(X)
    return time.perf_counter() - t, s


TASKS = [
    # name, data file, OutlierLens detector, params, normalisation, peers
    ("KIC-RBF fit + training scores, Spambase", "spambase", "kic", {"kernel": "rbf"}, "zscore",
     [("NumPy (np.linalg.solve)", peer_kic_numpy), ("SciPy (cho_factor)", peer_kic_scipy)]),
    ("knn k=5, Shuttle", "shuttle", "knn", {"k": 5}, "none",
     [("scikit-learn NearestNeighbors", peer_knn)]),
    ("KODS fit, WBC", "wbc", "kods", {}, "l2", [("scikit-learn OneClassSVM", peer_ocsvm)]),
    ("KODS fit, ring 1000 (fig. 1d, 5 % outliers)", "ring1000", "kods", {}, "none",
     [("scikit-learn OneClassSVM", peer_ocsvm)]),
    ("KODS fit, ring 3000 (fig. 1d, 5 % outliers)", "ring3000", "kods", {}, "none",
     [("scikit-learn OneClassSVM", peer_ocsvm)]),
    ("KODS on Spambase (fit_rows auto: 2000 of 4601 rows)", "spambase", "kods", {}, "zscore",
     [("scikit-learn OneClassSVM", peer_ocsvm)]),
    ("KIC on Shuttle (58 000 rows)", "shuttle", "kic", {"kernel": "rbf"}, "zscore",
     [("scikit-learn IsolationForest", peer_iforest)]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build-bench/app/cli/outlierlens-cli"))
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="", help="substring of task names to run")
    ap.add_argument("--json", default=os.path.join(ROOT, "docs/peers.json"))
    ap.add_argument("--markdown", default=os.path.join(ROOT, "docs/benchmarks.md"))
    a = ap.parse_args()
    results = []
    for name, data, det, params, norm, peers in TASKS:
        if a.only and a.only not in name:
            continue
        path = os.path.join(a.data, data + ".csv")
        X, y = load(path)
        Xp = zscore(X) if norm == "zscore" else (X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-300)
                                                 if norm == "l2" else X)
        ol, pr = [], {pn: [] for pn, _ in peers}
        quality = {}
        for r in range(a.runs):
            ol.append(run_cli(a.cli, path, det, params, norm))
            for pn, fn in peers:
                s, sc = fn(Xp)
                pr[pn].append(s)
                quality[pn] = {"auroc": auroc(sc, y), "auprc": auprc(sc, y)}
            print("peers: %s run %d: OutlierLens %s, %s" % (name, r + 1, ol[-1],
                  ", ".join("%s %.3f s" % (pn, pr[pn][-1]) for pn in pr)), file=sys.stderr)
        row = {"task": name, "data": "%s (%d×%d)" % (data, X.shape[0], X.shape[1]), "detector": det,
               "params": params, "normalize": norm}
        if "error" in ol[0]:
            row["outlierlens"] = {"error": ol[0]["error"]}
        else:
            row["outlierlens"] = {"median_seconds": statistics.median(o["seconds"] for o in ol),
                                  "seconds": [o["seconds"] for o in ol], "auroc": ol[0]["auroc"],
                                  "auprc": ol[0]["auprc"]}
        row["peers"] = []
        for pn, _ in peers:
            med = statistics.median(pr[pn])
            p = {"name": pn, "median_seconds": med, "seconds": pr[pn], **quality[pn]}
            if "median_seconds" in row["outlierlens"]:
                p["ratio_peer_over_outlierlens"] = med / row["outlierlens"]["median_seconds"]
            row["peers"].append(p)
        results.append(row)
    machine = {"cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
               "cores": os.cpu_count(), "kernel": platform.release(), "numpy": np.__version__,
               "blas": os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3"),
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "load_average_at_start": os.getloadavg()}
    with open(a.json, "w") as f:
        json.dump({"machine": machine, "runs": a.runs, "results": results}, f, indent=1)
    lines = ["## Peers (scripts/bench.sh --peers)", "",
             "Medians of %d alternating runs on %s, %d cores, %s; NumPy %s on %s. Times are the programs' own "
             "timers (fit + scores of the training rows, data already loaded). Ratio = peer / OutlierLens "
             "(> 1: OutlierLens is faster)." % (a.runs, machine["cpu"], machine["cores"], machine["date"],
                                                machine["numpy"], machine["blas"]), "",
             "| task | OutlierLens | peer | peer time | ratio | quality (OutlierLens / peer) |", "|---|---|---|---|---|---|"]
    for r in results:
        o = r["outlierlens"]
        ot = "%.3f s" % o["median_seconds"] if "median_seconds" in o else "error: " + o["error"][:90]
        for p in r["peers"]:
            ratio = "%.2f×" % p["ratio_peer_over_outlierlens"] if "ratio_peer_over_outlierlens" in p else "—"
            q = ("AUROC %.3f / %.3f, AUPRC %.3f / %.3f" % (o["auroc"], p["auroc"], o["auprc"], p["auprc"])
                 if "auroc" in o else "— / AUROC %.3f" % p["auroc"])
            lines.append("| %s, %s | %s | %s | %.3f s | %s | %s |" % (r["task"], r["data"], ot, p["name"],
                                                                      p["median_seconds"], ratio, q))
    section = "\n".join(lines) + "\n"
    md = open(a.markdown).read() if os.path.exists(a.markdown) else "# Benchmarks\n"
    md = re.sub(r"<!-- peers -->.*<!-- /peers -->\n?", "", md, flags=re.S)
    md = md.rstrip("\n") + "\n\n<!-- peers -->\n" + section + "<!-- /peers -->\n"
    with open(a.markdown, "w") as f:
        f.write(md)
    print(section)


if __name__ == "__main__":
    sys.exit(main())
