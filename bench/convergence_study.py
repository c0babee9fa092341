#!/usr/bin/python3
"""When do gods, bods and kods stop? A study of stopping rules for their Riemannian conjugate gradient.

Every set of the inversion study (its prepared CSVs: 21 real sets z-scored, toys raw) is fitted by
gods, bods and kods with defaults except max_iter = --long (1000 by default); the saved model keeps the
objective and Riemannian-gradient-norm histories. For each candidate rule -- stop when the objective
fell by less than ftol times the whole decrease so far (f_0 - f_k) over the last W iterations; a
drop relative to |f| never stops kods, whose objective tends to 0 -- the script reports at which
iteration it stops, how far that objective is above the long run's (relative gap), and how many
runs would still end at max_iter = 200 (the "not converged" share). For the chosen rule every run is
fitted again with max_iter = the rule's stopping iteration (the optimiser is deterministic, so that is
the iterate the rule stops at) and its AUROC compared with the long run's.

    /usr/bin/python3 bench/convergence_study.py --cli build/app/cli/outlierlens-cli --sets /tmp/inv/data --out /tmp/conv
Standard library + numpy. Prints Markdown.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import auroc  # noqa: E402

DETS = ["gods", "bods", "kods"]


def fit(cli, csv, det, norm, max_iter, out, timeout=300):
    model = os.path.join(out, "%s_%s_%s_%d.json" % (os.path.basename(csv)[:-4], det, norm, max_iter))
    scores = model[:-5] + ".csv"
    if not os.path.exists(model):
        cmd = [cli, "score", "--input", csv, "--detector", det, "--normalize", norm, "--param",
               "max_iter=%d" % max_iter, "--save-model", model, "--output", scores]
        try:
            subprocess.run(cmd, check=True, capture_output=True, timeout=timeout)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            print("skipped %s %s: %s" % (csv, det, getattr(e, "stderr", b"timeout")[-200:]), file=sys.stderr)
            return None
    with open(model) as f:
        m = json.load(f)
    state = m.get("state", m)
    d = np.genfromtxt(scores, delimiter=",", names=True)
    return {"loss": np.asarray(state["loss_history"], float), "grad": np.asarray(state["gradient_norm_history"], float),
            "stop": state["stop_reason"], "iterations": int(state["iterations"]),
            "auroc": auroc(d["score"], d["label"].astype(int)) if "label" in d.dtype.names else float("nan")}


def stop_at(loss, ftol, window):
    """First iteration k >= window with (f[k-window] - f[k]) <= ftol * (f[0] - f[k]); None if never."""
    for k in range(window, len(loss)):
        if loss[k - window] - loss[k] <= ftol * (loss[0] - loss[k]):
            return k
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(os.path.dirname(HERE), "build/app/cli/outlierlens-cli"))
    ap.add_argument("--sets", default="/tmp/inv/data")
    ap.add_argument("--out", default="/tmp/conv")
    ap.add_argument("--long", type=int, default=1000)
    ap.add_argument("--ftol", type=float, default=1e-3)
    ap.add_argument("--window", type=int, default=10)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    runs = []
    for csv in sorted(glob.glob(os.path.join(args.sets, "*.csv"))):
        norm = "zscore" if os.path.basename(csv).startswith("real_") else "none"
        for det in DETS:
            r = fit(args.cli, csv, det, norm, args.long, args.out)
            if r:
                r.update(set=os.path.basename(csv)[:-4], det=det, norm=norm, csv=csv)
                runs.append(r)
    print("%d runs (max_iter %d). Stopped by the gradient-norm tolerance before %d iterations: %d; at 200 or later: %d.\n"
          % (len(runs), args.long, args.long, sum(r["stop"] != "max iterations" for r in runs),
             sum(len(r["loss"]) > 201 for r in runs)))
    print("| rule: drop over W iterations <= ftol x drop so far | det | runs | stops by 200 | median stop | 90th pct stop | "
          "median gap to the long run's objective | max gap |")
    print("|---|---|---|---|---|---|---|---|")
    for ftol in (1e-2, 3e-3, 1e-3, 3e-4, 1e-4):
        for window in (10, 20):
            for det in DETS:
                rs = [r for r in runs if r["det"] == det]
                ks = [stop_at(r["loss"], ftol, window) for r in rs]
                stops = np.array([k if k is not None else len(r["loss"]) - 1 for k, r in zip(ks, rs)])
                gaps = np.array([(r["loss"][k] - r["loss"][-1]) / max(abs(r["loss"][-1]), 1e-12) for k, r in zip(stops, rs)])
                print("| %.0e, W=%d | %s | %d | %d (%.0f %%) | %d | %d | %.2g | %.2g |" % (
                    ftol, window, det, len(rs), (stops <= 200).sum(), 100.0 * (stops <= 200).mean(), np.median(stops),
                    np.percentile(stops, 90), np.median(gaps), gaps.max()))
    # The chosen rule: AUROC at its stop vs the long run.
    print("\nChosen: ftol %.0e over W = %d. AUROC at the rule's stop (a fit with max_iter = that iteration) vs the long run:\n"
          % (args.ftol, args.window))
    print("| set | det | stop | AUROC at stop | AUROC at 200 | AUROC long | objective gap |")
    print("|---|---|---|---|---|---|---|")
    diffs, diffs200 = {}, {}
    for r in runs:
        k = stop_at(r["loss"], args.ftol, args.window)
        k = k if k is not None else len(r["loss"]) - 1
        if k >= len(r["loss"]) - 1:
            a = r["auroc"]
        else:
            s = fit(args.cli, r["csv"], r["det"], r["norm"], max(1, k), args.out)
            a = s["auroc"] if s else float("nan")
        s200 = fit(args.cli, r["csv"], r["det"], r["norm"], 200, args.out) if len(r["loss"]) > 201 else r
        a200 = s200["auroc"] if s200 else float("nan")
        diffs.setdefault(r["det"], []).append(a - r["auroc"])
        diffs200.setdefault(r["det"], []).append(a200 - r["auroc"])
        print("| %s | %s | %d | %.3f | %.3f | %.3f | %.2g |" % (r["set"], r["det"], k, a, a200, r["auroc"],
                                                              (r["loss"][k] - r["loss"][-1]) / max(abs(r["loss"][-1]), 1e-12)))
    print("\n| det | AUROC(stop) − AUROC(long): median, mean, min, max | AUROC(200) − AUROC(long): median, mean, min, max |")
    print("|---|---|---|")
    for det in DETS:
        cells = []
        for src in (diffs, diffs200):
            d = np.array(src.get(det, []))
            d = d[np.isfinite(d)]
            cells.append("%.4f, %.4f, %.4f, %.4f (%d runs)" % (np.median(d), d.mean(), d.min(), d.max(), len(d)) if len(d) else "—")
        print("| %s | %s | %s |" % (det, cells[0], cells[1]))


if __name__ == "__main__":
    main()
