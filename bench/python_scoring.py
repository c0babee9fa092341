#!/usr/bin/python3
"""The Python module against scikit-learn on new rows (issue #36 item 6): fit on a real set and
score rows as new data (novelty), both in this one process, alternately (A B A B ...), medians of
time.perf_counter(). OutlierLens's fit includes its label-free diagnostics (warnings_). A last table
times the fit alone, whose training scores leave each row out (NearestNeighbors.kneighbors() without
X; LocalOutlierFactor.fit), on the two wide sets and 9-column Shuttle.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_scoring.py [--data data] [--runs 7]
"""
import argparse
import os
import statistics
import time

import numpy as np

import outlierlens as ol

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    X = data[:, [i for i, h in enumerate(header) if h != "label"]]
    return (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    from sklearn.neighbors import LocalOutlierFactor, NearestNeighbors
    tasks = [
        ("knn k=5", lambda X: ol.Knn(k=5, novelty=True).fit(X).score_samples(X),
         lambda X: NearestNeighbors(n_neighbors=5).fit(X).kneighbors(X)[0][:, -1]),
        ("lof k=20", lambda X: ol.Lof(k=20, k_min=0, novelty=True).fit(X).score_samples(X),
         lambda X: LocalOutlierFactor(n_neighbors=20, novelty=True).fit(X).score_samples(X)),
    ]
    # Scoring alone: both fitted once before the clock (knn's fit also computes the training rows'
    # leave-one-out scores and the threshold, which NearestNeighbors.fit does not).
    knn_ours = {}
    knn_peer = {}
    for name in ("satellite", "spambase"):
        X = load(os.path.join(a.data, name + ".csv"))
        knn_ours[name] = (ol.Knn(k=5, novelty=True).fit(X), X)
        knn_peer[name] = NearestNeighbors(n_neighbors=5).fit(X)
    tasks_score = [(n, lambda n=n: knn_ours[n][0].score_samples(knn_ours[n][1]),
                    lambda n=n: knn_peer[n].kneighbors(knn_ours[n][1])) for n in knn_ours]
    print("| set | task | OutlierLens (Python) | scikit-learn | ratio sklearn / OutlierLens |")
    print("|---|---|---|---|---|")
    for name, ours, peer in tasks_score:
        ours(), peer()
        t_ours, t_peer = [], []
        for _ in range(a.runs):
            t = time.perf_counter(); ours(); t_ours.append(time.perf_counter() - t)
            t = time.perf_counter(); peer(); t_peer.append(time.perf_counter() - t)
        mo, mp = statistics.median(t_ours), statistics.median(t_peer)
        X = knn_ours[name][1]
        print(f"| {name} ({X.shape[0]}×{X.shape[1]}) | knn k=5, score all rows as new (fitted before) | {mo:.3f} s | {mp:.3f} s | {mp / mo:.2f}× |")
    for name in ("satellite", "spambase"):
        X = load(os.path.join(a.data, name + ".csv"))
        for task, ours, peer in tasks:
            t_ours, t_peer = [], []
            ours(X), peer(X)  # warm-up
            for _ in range(a.runs):
                t = time.perf_counter(); ours(X); t_ours.append(time.perf_counter() - t)
                t = time.perf_counter(); peer(X); t_peer.append(time.perf_counter() - t)
            mo, mp = statistics.median(t_ours), statistics.median(t_peer)
            print(f"| {name} ({X.shape[0]}×{X.shape[1]}) | {task}, fit + score all rows as new | {mo:.3f} s | {mp:.3f} s | {mp / mo:.2f}× |")
    fits = [
        ("knn k=5", lambda X: ol.Knn(k=5).fit(X).decision_scores_,
         lambda X: NearestNeighbors(n_neighbors=5).fit(X).kneighbors()[0][:, -1]),
        ("lof k=20", lambda X: ol.Lof(k=20, k_min=0).fit(X).decision_scores_,
         lambda X: LocalOutlierFactor(n_neighbors=20).fit(X).negative_outlier_factor_),
    ]
    print()
    print("| set | task | OutlierLens (Python) | scikit-learn | ratio sklearn / OutlierLens |")
    print("|---|---|---|---|---|")
    for name in ("satellite", "spambase", "shuttle"):
        X = load(os.path.join(a.data, name + ".csv"))
        for task, ours, peer in fits:
            t_ours, t_peer = [], []
            ours(X), peer(X)  # warm-up
            # scikit-learn takes 15-25 s a fit on Shuttle (58 000 rows, many repeated): 3 runs there.
            for _ in range(a.runs if name != "shuttle" else min(a.runs, 3)):
                t = time.perf_counter(); ours(X); t_ours.append(time.perf_counter() - t)
                t = time.perf_counter(); peer(X); t_peer.append(time.perf_counter() - t)
            mo, mp = statistics.median(t_ours), statistics.median(t_peer)
            print(f"| {name} ({X.shape[0]}×{X.shape[1]}) | {task}, fit (leave-one-out training scores) | {mo:.3f} s | {mp:.3f} s | {mp / mo:.2f}× |")


if __name__ == "__main__":
    main()
