#!/usr/bin/python3
"""OutlierLens against its peers on real data, run alternately in one session (scripts/bench.sh --peers).

For each task the OutlierLens command and the peer run in turn (A B A B ...), --runs times each; the
medians of the programs' own timers are compared (OutlierLens: the `fit_seconds + score_seconds` that
`outlierlens-cli evaluate --json` prints, i.e. fit + scores of the training rows with the data already
loaded; Python peers: time.perf_counter() around the same work in the same Python process, data loaded
before the clock starts; ELKI: its own -time figures, index build + algorithm, parsing excluded).
A task without a peer states the issue's target instead ("target ≤ 5 s: met / not met").

GUI rows (--gui, a GUI build): the GUI (under a private Xvfb 1600x1000x24, started once, not timed)
from process start to the screenshot written / the first frame, by the app's own --timings, against
the wall clock of `outlierlens-cli evaluate` of the same build, alternately; ratio = GUI / CLI. Skipped, with a message, when the GUI binary or Xvfb is missing.

Writes docs/peers.json and the "Peers" section of docs/benchmarks.md.

Data: scripts/real-data.sh (Spambase, Shuttle, WBC … from Debian's R packages and scikit-learn); the
1M-point torus of the GUI rows is generated into --data on first use.
Peers: NumPy/SciPy on Debian's OpenBLAS (libopenblas0-pthread, threads on), scikit-learn, ELKI 0.7.1
(Debian package elki, run on Java 17).
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import kic_numpy  # noqa: E402  (the NumPy formula of the KIC benchmark)


class Unavailable(Exception):
    """A peer that cannot run on this machine (a program is missing); its row says why."""


_loaded = {}


def load(path):
    if path not in _loaded:  # Shuttle serves several tasks
        d = np.genfromtxt(path, delimiter=",", skip_header=1)
        _loaded[path] = (d[:, :-1], d[:, -1].astype(int))
    return _loaded[path]


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


def last_line(text, fallback):
    lines = text.strip().splitlines()
    return lines[-1] if lines else fallback


def run_cli(cli, path, detector, params, normalize):
    cmd = [cli, "evaluate", "--json", "--input", path, "--detector", detector, "--normalize", normalize]
    for k, v in params.items():
        cmd += ["--param", "%s=%s" % (k, v)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": last_line(p.stderr, "exit %d" % p.returncode)}
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


def peer_lof(X, k=20):
    # scikit-learn's LocalOutlierFactor with its defaults (n_neighbors=20, algorithm='auto': brute
    # force above 15 features); OutlierLens's lof with k_min=0 is the same single LOF_20.
    from sklearn.neighbors import LocalOutlierFactor
    t = time.perf_counter()
    lof = LocalOutlierFactor(n_neighbors=k).fit(X)
    return time.perf_counter() - t, -lof.negative_outlier_factor_


ELKI_JAR = "/usr/share/java/elki.jar"  # Debian package elki (0.7.1)


def peer_elki_knn(X, k=5):
    # ELKI's KNNOutlier scores a point by the distance to its k-th neighbour *excluding the point
    # itself* (0.7.1's -knno.k help: "the query point is the 0-nearest-neighbor"; it asks the index for
    # k + 1 neighbours), the k of OutlierLens's knn and of peer_knn's d[:, k]: k = 5 on both sides
    # (checked: ELKI's scores equal scikit-learn's d[:, 5] on Shuttle to 4e-13; the AUROC differs in the
    # 4th digit only because Shuttle's integer features give many tied k-distances that this rounding
    # unties — both round to 1e-9 give the same AUROC).
    # Run on ELKI's own jar: Debian's elki-cli launcher also puts the addon
    # elki-batik-visualization-0.7.1.jar (visualisation only) on the class path, and Java 17 rejects that
    # jar's INDEX.LIST (jdk.internal.util.jar.InvalidJarIndexError); elki.jar's manifest brings its one
    # runtime dependency, trove4j.
    # Index: the simplified cover tree, the fastest on Shuttle of ELKI's in-memory k-d tree, R*-tree
    # (STR bulk load) and cover tree (index build + query 15.4 s, 12.0 s and 7.4 s, one run each on a
    # loaded machine; no index = 58 000² distances). Time = ELKI's -time figures for the index
    # construction + KNNOutlier.runtime: parsing excluded, the index build included, as the kd-tree is
    # in scikit-learn's fit and in OutlierLens's fit_seconds. ELKI 0.7.1 runs this on one thread.
    java = shutil.which("java")
    if not java or not os.path.exists(ELKI_JAR):
        raise Unavailable("ELKI not installed (Debian packages elki, default-jre: %s, java)" % ELKI_JAR)
    tmp = tempfile.mkdtemp(prefix="peers-elki-")
    try:
        src, out = os.path.join(tmp, "x.csv"), os.path.join(tmp, "out")
        np.savetxt(src, X, delimiter=",", fmt="%.17g")  # the task's X, no header, no label column
        p = subprocess.run([java, "-cp", ELKI_JAR, "de.lmu.ifi.dbs.elki.application.KDDCLIApplication",
                            "-dbc.in", src, "-db.index", "tree.metrical.covertree.SimplifiedCoverTree$Factory",
                            "-covertree.distancefunction", "minkowski.EuclideanDistanceFunction",
                            "-algorithm", "outlier.distance.KNNOutlier", "-knno.k", str(k), "-time",
                            "-evaluator", "NoAutomaticEvaluation", "-resulthandler", "ResultWriter", "-out", out],
                           capture_output=True, text=True)
        log = p.stdout + "\n" + p.stderr
        if p.returncode != 0:
            why = [l for l in log.splitlines() if l.strip() and not l.startswith("->")]
            raise RuntimeError("ELKI exit %d: %s" % (p.returncode, " ".join(why[:2])))
        build = sum(int(ms) for ms in re.findall(r"^\S+\.construction: (\d+) ms$", log, re.M))
        run = re.search(r"^\S+\.KNNOutlier\.runtime: (\d+) ms$", log, re.M)
        if not run:
            raise RuntimeError("ELKI printed no KNNOutlier.runtime: %s" % last_line(log, ""))
        # ResultWriter: one line per point, "ID=i <coordinates> knn-outlier=score"; ELKI numbers the
        # rows of the file 1, 2, … in order.
        s = np.full(len(X), np.nan)
        with open(os.path.join(out, "knn-outlier_order.txt")) as f:
            for line in f:
                m = re.match(r"ID=(\d+) .*knn-outlier=(\S+)$", line.strip())
                if m:
                    s[int(m.group(1)) - 1] = float(m.group(2))
        if np.isnan(s).any():
            raise RuntimeError("ELKI's output lacks %d rows" % int(np.isnan(s).sum()))
        return (build + int(run.group(1))) / 1000.0, s
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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


def peer_elliptic(X):
    from sklearn.covariance import EllipticEnvelope
    import warnings
    with warnings.catch_warnings():
        # On Shuttle's discrete, heavily tied features FastMCD warns "Determinant has increased" about
        # a hundred times per fit; the fit completes and its scores are what a user gets.
        warnings.simplefilter("ignore", RuntimeWarning)
        t = time.perf_counter()
        m = EllipticEnvelope(random_state=0).fit(X)  # robust covariance (FastMCD), default support fraction
        s = -m.score_samples(X)  # squared Mahalanobis distance to the robust fit
        return time.perf_counter() - t, s


def task(name, data, detector, params, normalize, peers=(), target=None, kind="cli"):
    # kind: "cli" (OutlierLens CLI against Python/ELKI peers), "gui-train" (GUI against the CLI, wall
    # clock), "gui-open" (GUI alone); target: ("seconds", s) for OutlierLens's time or ("ratio", r)
    # for GUI / CLI, as the speed issue states it.
    return {"name": name, "data": data, "detector": detector, "params": params, "normalize": normalize,
            "peers": list(peers), "target": target, "kind": kind}


SHUTTLE_PEERS = [("scikit-learn IsolationForest", peer_iforest), ("scikit-learn EllipticEnvelope", peer_elliptic)]

TASKS = [
    task("KIC-RBF fit + training scores, Spambase", "spambase", "kic", {"kernel": "rbf"}, "zscore",
         [("NumPy (np.linalg.solve)", peer_kic_numpy), ("SciPy (cho_factor)", peer_kic_scipy)]),
    task("knn k=5, Shuttle", "shuttle", "knn", {"k": 5}, "none",
         [("scikit-learn NearestNeighbors", peer_knn),
          ("ELKI 0.7.1 KNNOutlier k=5 (cover tree; index build + run)", peer_elki_knn)]),
    # High dimension (issue #33 item 7): brute force through BLAS from 16 features on.
    task("knn k=5, Satellite (36 features)", "satellite", "knn", {"k": 5}, "zscore",
         [("scikit-learn NearestNeighbors", peer_knn)]),
    task("knn k=5, Spambase (57 features)", "spambase", "knn", {"k": 5}, "zscore",
         [("scikit-learn NearestNeighbors", peer_knn)]),
    task("lof k=20 (single LOF), Satellite (36 features)", "satellite", "lof", {"k": 20, "k_min": 0}, "zscore",
         [("scikit-learn LocalOutlierFactor", peer_lof)]),
    task("lof k=20 (single LOF), Spambase (57 features)", "spambase", "lof", {"k": 20, "k_min": 0}, "zscore",
         [("scikit-learn LocalOutlierFactor", peer_lof)]),
    task("KODS fit, WBC", "wbc", "kods", {}, "l2", [("scikit-learn OneClassSVM", peer_ocsvm)]),
    task("KODS fit, ring 1000 (fig. 1d, 5 % outliers)", "ring1000", "kods", {}, "none",
         [("scikit-learn OneClassSVM", peer_ocsvm)]),
    task("KODS fit, ring 3000 (fig. 1d, 5 % outliers)", "ring3000", "kods", {}, "none",
         [("scikit-learn OneClassSVM", peer_ocsvm)]),
    task("KODS on Spambase (fit_rows auto: 2000 of 4601 rows)", "spambase", "kods", {}, "zscore",
         [("scikit-learn OneClassSVM", peer_ocsvm)]),
    task("KIC on Shuttle (58 000 rows)", "shuttle", "kic", {"kernel": "rbf"}, "zscore", SHUTTLE_PEERS),
    task("IC (explicit moment matrix) on Shuttle (58 000 rows)", "shuttle", "ic", {}, "zscore", SHUTTLE_PEERS),
    task("KODS on Shuttle (58 000 rows)", "shuttle", "kods", {}, "zscore", SHUTTLE_PEERS),
    task("Q-FULL quadrics (defaults), Spambase", "spambase", "quadrics", {}, "zscore", target=("seconds", 5.0)),
    # GUI: process start to the screenshot written (the app's --timings); CLI: the whole process.
    task("GUI: 1M-point 3-D cloud, load + knn train + render + screenshot", "torus1m", "knn", {}, "none",
         target=("ratio", 1.5), kind="gui-train"),
    # The app's own timeline (--timings): seconds from process start to the first paint of the view
    # after the CSV was loaded (the whole process's wall clock is kept beside it in the JSON).
    task("GUI: first frame of a 1M-row CSV (process start to the first drawn frame, the app's --timings)",
         "torus1m", "", {}, "none", target=("seconds", 3.0), kind="gui-open"),
]


class Xvfb:
    """A private virtual X display (what xvfb-run gives), started once so its start-up is not timed."""

    def __enter__(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        num = b""
        while not num.endswith(b"\n"):
            chunk = os.read(r, 16)
            if not chunk:
                break
            num += chunk
        os.close(r)
        if not num.strip():
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + num.decode().strip()
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()


def wall(cmd, env=None):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    return time.perf_counter() - t, p


def gui_rows(tasks, a):
    """The GUI tasks: GUI process wall clock (against the CLI's for gui-train), alternately."""
    if not tasks:
        return [], None
    if not os.access(a.gui, os.X_OK):
        return [], ("no GUI binary at %s (a GUI build: JOBS=1 scripts/build.sh, or pass --gui PATH)" % a.gui)
    if not shutil.which("Xvfb"):
        return [], "Xvfb is not installed (Debian package xvfb)"
    cli = a.gui_cli or os.path.join(os.path.dirname(os.path.dirname(a.gui)), "cli", "outlierlens-cli")
    if not os.access(cli, os.X_OK):
        cli = a.cli
    rows = []
    with Xvfb() as x:
        env = dict(os.environ, DISPLAY=x.display)
        env.pop("WAYLAND_DISPLAY", None)
        for t in tasks:
            path = os.path.join(a.data, t["data"] + ".csv")
            if not os.path.exists(path) and t["data"] == "torus1m":
                subprocess.run([a.cli, "generate", "torus", "--n", "1000000", "--seed", "1", "--param",
                                "outliers=0.01", "--output", path], check=True, stdout=subprocess.DEVNULL)
            with open(path) as f:
                n = sum(1 for _ in f) - 1
                f.seek(0)
                p = len(f.readline().split(",")) - 1
            shot = os.path.join(tempfile.gettempdir(), "peers-gui-%d.png" % os.getpid())
            gui = [a.gui, "--load", path, "--normalize", t["normalize"]]
            if t["kind"] == "gui-train":
                gui += ["--detector", t["detector"], "--train"]
                for k, v in t["params"].items():
                    gui += ["--param", "%s=%s" % (k, v)]
            gui += ["--screenshot", shot, "--exit", "--timings"]
            clicmd = [cli, "evaluate", "--json", "--input", path, "--detector", t["detector"], "--normalize", t["normalize"]]
            for k, v in t["params"].items():
                clicmd += ["--param", "%s=%s" % (k, v)]
            gs, cs, trained, err = [], [], [], None
            walls, timelines, stalls, frames = [], [], [], []
            for r in range(a.runs):
                s, pr = wall(gui, env)
                if pr.returncode != 0 or not os.path.exists(shot):
                    err = "GUI exit %d: %s" % (pr.returncode, last_line(pr.stderr, "no screenshot"))
                    break
                os.remove(shot)
                marks = list(re.finditer(r"\[timings\] ([0-9.]+) s ([^(\n]+?)"
                                         r"(?: \(longest GUI-thread stall before it: ([0-9]+) ms"
                                         r"(?:; 3-D view frames drawn: ([0-9]+))?\))?$", pr.stderr, re.M))
                timeline = {m.group(2): float(m.group(1)) for m in marks}
                stalls.append({m.group(2): int(m.group(3)) for m in marks if m.group(3) is not None})
                frames.append({m.group(2): int(m.group(4)) for m in marks if m.group(4) is not None})
                timelines.append(timeline)
                walls.append(s)
                # What the user waits for, from process start (the app's own clock): the first frame,
                # or the screenshot of the trained view (the process's exit, which may still finish
                # writing the autosave in the background, is not part of the task).
                mark = "first frame" if t["kind"] == "gui-open" else "screenshot written"
                if mark not in timeline:
                    err = "GUI printed no '%s' time (--timings)" % mark
                    break
                s = timeline[mark]
                gs.append(s)
                m = re.search(r"trained in ([0-9.]+) s", pr.stdout)
                if m:
                    trained.append(float(m.group(1)))
                msg = "GUI %.3f s" % s
                if t["kind"] == "gui-train":
                    s, pc = wall(clicmd)
                    if pc.returncode != 0:
                        err = "CLI exit %d: %s" % (pc.returncode, last_line(pc.stderr, ""))
                        break
                    cs.append(s)
                    msg += ", CLI evaluate %.3f s" % s
                print("peers: %s run %d: %s" % (t["name"], r + 1, msg), file=sys.stderr)
            row = {"task": t["name"], "data": "%s (%d×%d)" % (t["data"], n, p), "detector": t["detector"],
                   "params": t["params"], "normalize": t["normalize"], "kind": t["kind"], "gui": a.gui,
                   "display": "Xvfb 1600x1000x24", "peers": []}
            if err:
                row["outlierlens"] = {"error": err}
            else:
                row["outlierlens"] = {"median_seconds": statistics.median(gs), "seconds": gs,
                                      "clock": "process start to %s (--timings)" % mark,
                                      "process_wall_seconds": walls, "timelines": timelines,
                                      "longest_gui_stall_ms_before_mark": stalls,
                                      "view_frames_drawn_at_mark": frames}
                if trained:
                    row["outlierlens"]["gui_training_seconds"] = trained
                if cs:
                    med = statistics.median(cs)
                    row["peers"].append({"name": "OutlierLens CLI evaluate (same build, wall clock)", "cli": cli,
                                         "median_seconds": med, "seconds": cs})
                    row["ratio_gui_over_cli"] = row["outlierlens"]["median_seconds"] / med
            add_target(row, t)
            rows.append(row)
    return rows, None


def add_target(row, t):
    if not t["target"]:
        return
    what, limit = t["target"]
    row["target"] = {what: limit}
    value = row.get("ratio_gui_over_cli") if what == "ratio" else row["outlierlens"].get("median_seconds")
    if value is not None:
        row["target"]["met"] = value <= limit


def cli_row(t, a):
    path = os.path.join(a.data, t["data"] + ".csv")
    X, y = load(path)
    norm = t["normalize"]
    Xp = zscore(X) if norm == "zscore" else (X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-300)
                                             if norm == "l2" else X)
    peers = t["peers"]
    ol, pr, perr = [], {pn: [] for pn, _ in peers}, {}
    quality = {}
    for r in range(a.runs):
        ol.append(run_cli(a.cli, path, t["detector"], t["params"], norm))
        for pn, fn in peers:
            if pn in perr:
                continue
            try:
                s, sc = fn(Xp)
            except (Unavailable, RuntimeError, OSError) as e:
                perr[pn] = str(e)
                print("peers: %s: %s unavailable: %s" % (t["name"], pn, e), file=sys.stderr)
                continue
            pr[pn].append(s)
            quality[pn] = {"auroc": auroc(sc, y), "auprc": auprc(sc, y)}
        print("peers: %s run %d: OutlierLens %s%s" % (t["name"], r + 1, ol[-1],
              "".join(", %s %.3f s" % (pn, pr[pn][-1]) for pn in pr if pn not in perr)), file=sys.stderr)
    row = {"task": t["name"], "data": "%s (%d×%d)" % (t["data"], X.shape[0], X.shape[1]), "detector": t["detector"],
           "params": t["params"], "normalize": norm, "kind": "cli"}
    if "error" in ol[0]:
        row["outlierlens"] = {"error": ol[0]["error"]}
    else:
        row["outlierlens"] = {"median_seconds": statistics.median(o["seconds"] for o in ol),
                              "seconds": [o["seconds"] for o in ol], "auroc": ol[0]["auroc"],
                              "auprc": ol[0]["auprc"]}
    row["peers"] = []
    for pn, _ in peers:
        if pn in perr:
            row["peers"].append({"name": pn, "error": perr[pn]})
            continue
        med = statistics.median(pr[pn])
        p = {"name": pn, "median_seconds": med, "seconds": pr[pn], **quality[pn]}
        if "median_seconds" in row["outlierlens"]:
            p["ratio_peer_over_outlierlens"] = med / row["outlierlens"]["median_seconds"]
        row["peers"].append(p)
    add_target(row, t)
    return row


def target_text(r):
    t = r["target"]
    what = "%.1f×" % t["ratio"] if "ratio" in t else "%g s" % t["seconds"]
    verdict = "met" if t.get("met") else ("not met" if "met" in t else "—")
    return "target ≤ %s: %s" % (what, verdict)


def markdown_rows(r):
    o = r["outlierlens"]
    ot = "%.3f s" % o["median_seconds"] if "median_seconds" in o else "error: " + o["error"][:90]
    if o.get("gui_training_seconds"):
        ot += " (GUI's training %.2f s)" % statistics.median(o["gui_training_seconds"])
    head = "| %s, %s | %s |" % (r["task"], r["data"], ot)
    if not r["peers"]:
        q = "AUROC %.3f, AUPRC %.3f / —" % (o["auroc"], o["auprc"]) if "auroc" in o else "—"
        return [head + " %s | — | — | %s |" % (target_text(r) if "target" in r else "—", q)]
    lines = []
    for p in r["peers"]:
        if "error" in p:
            lines.append(head + " %s | error: %s | — | — |" % (p["name"], p["error"][:120]))
            continue
        if r.get("kind", "cli") != "cli":
            ratio = "GUI / CLI %.2f×" % r["ratio_gui_over_cli"] if "ratio_gui_over_cli" in r else "—"
            if "target" in r:
                ratio += " (%s)" % target_text(r)
            during = [st["training computed"] for st in o.get("longest_gui_stall_ms_before_mark", [])
                      if "training computed" in st]
            note = ("longest GUI-thread stall while training: %d ms (target ≤ 100 ms)" % max(during)
                    if during else "—")
            lines.append(head + " %s | %.3f s | %s | %s |" % (p["name"], p["median_seconds"], ratio, note))
            continue
        ratio = "%.2f×" % p["ratio_peer_over_outlierlens"] if "ratio_peer_over_outlierlens" in p else "—"
        q = ("AUROC %.3f / %.3f, AUPRC %.3f / %.3f" % (o["auroc"], p["auroc"], o["auprc"], p["auprc"])
             if "auroc" in o else "— / AUROC %.3f" % p["auroc"])
        lines.append(head + " %s | %.3f s | %s | %s |" % (p["name"], p["median_seconds"], ratio, q))
    return lines


def main():
    # 1/5/15-minute load average before this script (or scripts/bench.sh, which passes its own) adds any.
    env_load = os.environ.get("OLENS_LOAD_AT_START", "").split()
    load_at_start = tuple(float(v) for v in env_load) if len(env_load) == 3 else os.getloadavg()
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build-bench/app/cli/outlierlens-cli"))
    ap.add_argument("--gui", default=os.path.join(ROOT, "build/app/gui/outlierlens"),
                    help="GUI binary for the GUI rows (a GUI build); the rows are skipped when it is missing")
    ap.add_argument("--gui-cli", default="", help="CLI for the GUI rows' comparison (default: the one "
                    "of the GUI's build, so both sides have the same compiler flags; else --cli)")
    ap.add_argument("--data", default=os.path.join(ROOT, "data"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="", help="substring of task names to run")
    ap.add_argument("--json", default=os.path.join(ROOT, "docs/peers.json"))
    ap.add_argument("--markdown", default=os.path.join(ROOT, "docs/benchmarks.md"))
    a = ap.parse_args()
    tasks = [t for t in TASKS if not a.only or a.only in t["name"]]
    results = [cli_row(t, a) for t in tasks if t["kind"] == "cli"]
    rows, skipped = gui_rows([t for t in tasks if t["kind"] != "cli"], a)
    results += rows
    if skipped:
        print("peers: skipping the GUI rows: " + skipped, file=sys.stderr)
    machine = {"cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
               "cores": os.cpu_count(), "kernel": platform.release(), "numpy": np.__version__,
               "blas": os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3"),
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "load_average_at_start": load_at_start}
    with open(a.json, "w") as f:
        json.dump({"machine": machine, "runs": a.runs, "results": results,
                   **({"gui_skipped": skipped} if skipped else {})}, f, indent=1)
    lines = ["## Peers (scripts/bench.sh --peers)", "",
             "Medians of %d alternating runs on %s, %d cores, %s, load average at the start %.2f / %.2f / %.2f "
             "(1 / 5 / 15 min); NumPy %s on %s. Times are the programs' own timers (fit + scores of the training "
             "rows, data already loaded). Ratio = peer / OutlierLens (> 1: OutlierLens is faster). GUI rows: "
             "process start to the screenshot / first frame by the app's --timings (under Xvfb 1600×1000, Mesa "
             "llvmpipe) against the CLI's whole-process wall clock, ratio = GUI / CLI."
             % (a.runs, machine["cpu"], machine["cores"], machine["date"], *load_at_start, machine["numpy"],
                machine["blas"]), ""]
    if load_at_start[0] > 0.5:
        lines += ["**Warning: the load average was %.2f (> 0.5) when this run started — the machine was not "
                  "idle, so these times are pessimistic and not comparable with an idle run.**" % load_at_start[0], ""]
    if skipped:
        lines += ["GUI rows skipped: %s." % skipped, ""]
    lines += ["| task | OutlierLens | peer | peer time | ratio | quality (OutlierLens / peer) |", "|---|---|---|---|---|---|"]
    for r in results:
        lines += markdown_rows(r)
    section = "\n".join(lines) + "\n"
    md = open(a.markdown).read() if os.path.exists(a.markdown) else "# Benchmarks\n"
    md = re.sub(r"<!-- peers -->.*<!-- /peers -->\n?", "", md, flags=re.S)
    md = md.rstrip("\n") + "\n\n<!-- peers -->\n" + section + "<!-- /peers -->\n"
    with open(a.markdown, "w") as f:
        f.write(md)
    print(section)


if __name__ == "__main__":
    sys.exit(main())
