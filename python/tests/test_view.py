"""view(): the hand-over to the GUI (CSV or session file, command line, autosave read back).
The GUI itself is replaced by a stub that behaves like it on these files (the real one needs a
display and the Qt/VTK build); the session text is checked by the core's strict session parser."""
import json
import os
import stat
import sys

import numpy as np
import pytest

import outlierlens as ol

STUB = r'''#!{python}
# Stand-in for the GUI: records its command line and, like the GUI after a training, autosaves a
# session with the model into $OLENS_STATE_DIR.
import csv, json, os, sys
import numpy as np
import outlierlens as ol
args = sys.argv[1:]
json.dump(args, open(os.environ["STUB_LOG"], "w"))
state = os.environ["OLENS_STATE_DIR"]
if "--session" in args:
    text = open(args[args.index("--session") + 1]).read()
    assert ol._core.session_model(text)  # parses with the core's strict reader and has a model
    open(os.path.join(state, "autosave.olens.json"), "w").write(text)
elif "--train" in args:
    path = args[args.index("--load") + 1]
    with open(path) as f:
        header = next(csv.reader(f))
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    assert header[:2] == ["width, cm", "height"] or header[0] == "x1"
    feats = [i for i, h in enumerate(header) if h != "label"]
    X = data[:, feats]
    params = dict(a.split("=", 1) for a in (args[i + 1] for i, a in enumerate(args) if a == "--param"))
    det = args[args.index("--detector") + 1]
    norm = args[args.index("--normalize") + 1] if "--normalize" in args else "none"
    model = ol._core.FittedModel.fit(det, params, norm, np.asfortranarray(X))
    session = ol._core.make_session(np.asfortranarray(X), np.zeros(0), [header[i] for i in feats], det,
                                    json.dumps(model.params), norm, model.to_json())
    open(os.path.join(state, "autosave.olens.json"), "w").write(session)
'''


@pytest.fixture
def stub(tmp_path, monkeypatch):
    exe = tmp_path / "fake-outlierlens"
    exe.write_text(STUB.replace("{python}", sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "argv.json"
    monkeypatch.setenv("STUB_LOG", str(log))
    return str(exe), log


def test_view_dataframe_detector_and_scores(stub):
    pd = pytest.importorskip("pandas")
    exe, log = stub
    X, y = ol.generate("moons", n=150, seed=2, outliers=0.05)
    df = pd.DataFrame(X, columns=["width, cm", "height"])
    df["truth"] = y
    scores, est = ol.view(df, labels="truth", detector="knn", k=7, normalization="zscore", executable=exe,
                          return_scores=True, return_model=True)
    argv = json.load(open(log))
    assert argv[0] == "--load" and argv[2:] == ["--detector", "knn", "--param", "k=7", "--normalize", "zscore",
                                                "--train"]
    # The GUI trained on exactly these rows, so the scores are its training scores, as the CLI's.
    ref = ol.Knn(k=7, normalization="zscore").fit(X)
    np.testing.assert_array_equal(scores, ref.decision_scores_)
    assert isinstance(est, ol.Knn) and est.k == 7


def test_view_fitted_estimator_via_session(stub):
    exe, log = stub
    X, y = ol.generate("seam", n=100, seed=1)
    est = ol.QuadricsBase(m=2).fit(X)
    scores = ol.view(X, labels=y, detector=est, executable=exe, return_scores=True)
    argv = json.load(open(log))
    assert argv[0] == "--session"
    np.testing.assert_array_equal(scores, est.decision_scores_)


def test_load_model_from_a_session(tmp_path):
    X, y = ol.generate("seam", n=100, seed=1)
    est = ol.Pca(k=1, normalization="minmax").fit(X)
    path = tmp_path / "s.olens.json"
    path.write_text(ol._core.make_session(np.asfortranarray(X), y, ["a", "b", "c"], est.detector_id,
                                          json.dumps(est.params_), "minmax", est.to_json()))
    again = ol.load_model(path)
    assert isinstance(again, ol.Pca) and again.normalization == "minmax"
    np.testing.assert_array_equal(again.outlier_scores(X), est.outlier_scores(X))
    empty = tmp_path / "e.olens.json"
    empty.write_text(ol._core.make_session(np.asfortranarray(X), y, ["a", "b", "c"], "", "{}", "none", ""))
    with pytest.raises(ValueError, match="no fitted model"):
        ol.load_model(empty)


def test_view_errors(stub):
    exe, _ = stub
    with pytest.raises(ValueError, match="no parameter"):
        ol.view(np.zeros((5, 2)), detector="knn", nope=3, executable=exe)
    with pytest.raises(ol.NotFittedError):
        ol.view(np.zeros((5, 2)), detector=ol.Knn(), executable=exe)


@pytest.mark.skipif(not os.environ.get("OLENS_GUI") or not os.environ.get("DISPLAY"),
                    reason="needs the GUI build (OLENS_GUI, set by CTest) and an X display (xvfb-run)")
def test_view_with_the_real_gui(tmp_path):
    """The real explorer: loads the CSV (column names kept), trains kNN, autosaves; the scores that
    come back are the CLI's for the same rows (same build, so bit-identical)."""
    pd = pytest.importorskip("pandas")
    X, y = ol.generate("moons", n=120, seed=3, outliers=0.05)
    df = pd.DataFrame(X, columns=["len", "wid"])
    shot = tmp_path / "view.png"
    scores, est = ol.view(df, labels=y, detector="knn", k=4, normalization="zscore", return_scores=True,
                          return_model=True, args=["--window-screenshot", str(shot), "--exit"])
    assert shot.exists()
    assert isinstance(est, ol.Knn) and est.k == 4 and est.normalization == "zscore"
    np.testing.assert_array_equal(scores, ol.Knn(k=4, normalization="zscore").fit(X).decision_scores_)


@pytest.mark.skipif(not os.environ.get("OLENS_GUI") or not os.environ.get("DISPLAY"),
                    reason="needs the GUI build (OLENS_GUI, set by CTest) and an X display (xvfb-run)")
def test_view_returns_the_scores_every_time():
    """Issue #36: view(..., return_scores=True, args=["--exit"]) returned None in 3 of 20 runs (the
    GUI exited before the save queued behind the training's first autosave). 20 runs, 3000 rows."""
    X, _ = ol.generate("moons", n=3000, seed=4, outliers=0.05)
    ref = ol.Knn(k=5).fit(X).decision_scores_
    for run in range(20):
        scores = ol.view(X, detector="knn", return_scores=True, args=["--exit"])
        assert scores is not None, f"run {run}: no scores came back"
        np.testing.assert_array_equal(scores, ref)


def test_view_removes_the_folders_of_killed_runs(stub, tmp_path, monkeypatch):
    """Issue #36: a killed view() left /tmp/outlierlens-view-* with a copy of the data; the next
    view() removes the folders whose owner process is gone, and only those."""
    import subprocess
    import tempfile
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    tempfile.tempdir = None  # re-read TMPDIR
    try:
        dead = subprocess.Popen(["true"])
        dead.wait()
        orphan = tmp_path / "outlierlens-view-orphan"
        orphan.mkdir()
        (orphan / "owner.pid").write_text(str(dead.pid))
        (orphan / "view.csv").write_text("x1,x2\n1,2\n")
        alive = tmp_path / "outlierlens-view-alive"
        alive.mkdir()
        (alive / "owner.pid").write_text(str(os.getpid()))
        exe, _ = stub
        X, _ = ol.generate("moons", n=40, seed=1)
        ol.view(X, detector="knn", executable=exe)
        assert not orphan.exists() and alive.exists()
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("outlierlens-view-")) == [
            "outlierlens-view-alive"]  # this run's own folder is gone too
    finally:
        tempfile.tempdir = None

