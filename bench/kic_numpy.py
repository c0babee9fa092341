#!/usr/bin/python3
"""NumPy reference for bench/kic_bench.cpp: fit + score of the kernelized inverse Christoffel
function (KIC paper eq. 15-17) with the RBF kernel and the paper's defaults (sigma = sqrt(p)/2,
rho = ||V^T V||_F / (C sqrt(n)), C = 500) on a seeded n x p Gaussian matrix (default 4601 x 57,
Spambase-sized). Prints the median wall-clock seconds of the runs as JSON.

The formula, as an idiomatic NumPy user writes it (NumPy has no triangular solve):
  K = exp(-||x_i - x_j||^2 / 2 sigma^2),  G = K/n,  rho = ||G||_F / (C sqrt(n)),
  fit:   training scores  (gamma_j - k_j^T (K + n rho I)^{-1} k_j) / rho,   k_j = K e_j
  score: the same for the rows of X again (kernel block + solve), like kic_bench's score(X).
Same scores as OutlierLens's kic up to rounding (checked with --check on a small n).

usage: /usr/bin/python3 bench/kic_numpy.py [--runs 5] [--n 4601] [--p 57] [--check]
Uses Debian's python3-numpy (/usr/bin/python3); its BLAS/LAPACK is whatever libblas.so.3 /
liblapack.so.3 point to (reference BLAS unless OpenBLAS is installed) — printed in the JSON.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np


def rbf(A, B, sigma):
    sa = (A * A).sum(1)[:, None]
    sb = (B * B).sum(1)[None, :]
    d2 = np.maximum(sa + sb - 2.0 * (A @ B.T), 0.0)
    return np.exp(-d2 / (2.0 * sigma * sigma))


def fit(X, C=500.0):
    n, p = X.shape
    sigma = np.sqrt(p) / 2.0
    K = rbf(X, X, sigma)
    rho = np.linalg.norm(K / n, "fro") / (C * np.sqrt(n))  # sec. 4.1
    A = K + n * rho * np.eye(n)  # n (rho I + G)
    train = (1.0 - np.einsum("ij,ij->j", K, np.linalg.solve(A, K))) / rho  # eq. 15, gamma = 1
    return {"X": X, "A": A, "rho": rho, "sigma": sigma, "train": train}


def score(model, Q):
    Kq = rbf(model["X"], Q, model["sigma"])
    return (1.0 - np.einsum("ij,ij->j", Kq, np.linalg.solve(model["A"], Kq))) / model["rho"]


def blas_name():
    try:
        cfg = np.__config__.blas_opt_info  # NumPy < 1.26
        libs = cfg.get("libraries", [])
    except AttributeError:
        libs = []
    real = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    return "%s (%s)" % (",".join(libs) or "?", real)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--n", type=int, default=4601)
    ap.add_argument("--p", type=int, default=57)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", metavar="SCORES_CSV", help="compare the training scores with a "
                    "file of one score per line computed by OutlierLens on the same matrix")
    ap.add_argument("--matrix", metavar="CSV", help="use this matrix instead of the seeded one")
    a = ap.parse_args()
    if a.matrix:
        X = np.loadtxt(a.matrix, delimiter=",")
    else:
        X = np.random.RandomState(a.seed).standard_normal((a.n, a.p))
    total, fits, scores, cpu = [], [], [], []
    for _ in range(a.runs):
        c0 = time.process_time()
        t0 = time.perf_counter()
        m = fit(X)
        t1 = time.perf_counter()
        s = score(m, X)
        t2 = time.perf_counter()
        cpu.append(time.process_time() - c0)
        assert np.all(np.isfinite(s)) and np.all(np.isfinite(m["train"]))
        fits.append(t1 - t0)
        scores.append(t2 - t1)
        total.append(t2 - t0)
    out = {"benchmark": "kic fit+score (NumPy)", "kernel": "rbf", "n": X.shape[0], "p": X.shape[1],
           "runs": a.runs, "median_seconds": statistics.median(total),
           "fit_median_seconds": statistics.median(fits), "score_median_seconds": statistics.median(scores),
           "cpu_median_seconds": statistics.median(cpu),
           "seconds": total, "numpy": np.__version__, "blas": blas_name()}
    if a.check:
        ref = np.loadtxt(a.check)
        out["max_rel_diff_vs_outlierlens"] = float(np.max(np.abs(m["train"] - ref) / np.abs(ref)))
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
