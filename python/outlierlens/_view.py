"""outlierlens.view: open the desktop explorer on a NumPy array or a pandas DataFrame and wait.

The hand-over uses the GUI's own command line and files, nothing new on the GUI side:
* data + detector id: a temporary CSV (17 significant digits, so the GUI reads the same doubles)
  opened with ``outlierlens --load F --detector ID --param k=v … --train``;
* a fitted estimator: a session file (``core/session``, rows embedded, model included) opened with
  ``outlierlens --session F`` — the GUI shows the model's exact scores without retraining;
* back: the GUI autosaves a session after every training into its state directory, which view()
  points to a temporary directory (``OLENS_STATE_DIR``); when the window closes, the model of that
  session scores X (``return_scores``) or is returned as an estimator (``return_model``).
"""
import csv
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _core
from ._estimators import _core_text


def _gui_executable(executable):
    if executable:
        return executable
    env = os.environ.get("OLENS_GUI")
    if env:
        return env
    # Build tree: <build>/python/outlierlens/_view.py -> <build>/app/gui/outlierlens
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cand = os.path.join(build, "app", "gui", "outlierlens")
    if os.path.exists(cand):
        return cand
    found = shutil.which("outlierlens")
    if not found:
        raise FileNotFoundError("the OutlierLens GUI executable was not found: build it (OLENS_BUILD_GUI=ON), "
                                "put 'outlierlens' on PATH, set OLENS_GUI or pass executable=")
    return found


def _table(X, labels):
    """(float64 matrix, feature names, labels or None) from an array or a DataFrame; labels may
    name a DataFrame column."""
    names = None
    if hasattr(X, "columns") and hasattr(X, "to_numpy"):  # pandas DataFrame
        if isinstance(labels, str):
            labels, X = X[labels].to_numpy(), X.drop(columns=[labels])
        names = [str(c) for c in X.columns]
        X = X.to_numpy(dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"view: X must be 2-D (n_samples, n_features), got shape {X.shape}")
    if names is None:
        names = [f"x{j + 1}" for j in range(X.shape[1])]
    if labels is not None:
        labels = np.asarray(labels, dtype=np.float64).ravel()
        if labels.shape[0] != X.shape[0]:
            raise ValueError(f"view: {labels.shape[0]} labels for {X.shape[0]} rows")
        if "label" in names:
            raise ValueError("view: a feature is named 'label', which the GUI reads as the label column")
    return X, names, labels


def _write_csv(path, X, names, labels):
    with open(path, "w", newline="") as f:
        csv.writer(f).writerow(names + (["label"] if labels is not None else []))
        data = X if labels is None else np.column_stack([X, labels])
        np.savetxt(f, data, delimiter=",", fmt="%.17g")


def view(X, labels=None, detector=None, return_scores=False, return_model=False, executable=None, args=(),
         **params):
    """Opens the OutlierLens explorer on X and returns when its window closes.

    Parameters
    ----------
    X : array (n_samples, n_features) or pandas DataFrame (its column names become the axis and
        ranking names).
    labels : optional array of n 0/1 outlier flags (or class ids), or the name of a DataFrame
        column; the GUI then shows ROC/PR curves and AUROC/AUPRC.
    detector : None (just look at the data), a registry id such as ``"kic"`` (selected and trained
        at start with ``**params``; ``normalization="zscore"`` sets the input normalisation), or a
        *fitted* OutlierLens estimator (its model is shown as is, without retraining; X must have its
        features).
    return_scores : return OutlierLens scores of X (higher = more outlying, the GUI's ranking sign;
        ``-scores`` is scikit-learn's score_samples) from the last detector trained in the window
        (or the one passed in). None when nothing was trained.
    return_model : return that detector as a fitted estimator (with both: ``(scores, estimator)``).
    executable : the GUI program (default: $OLENS_GUI, the build tree's app/gui/outlierlens, or
        ``outlierlens`` on PATH). ``args`` are extra GUI options, e.g. ``["--top-k", "10"]`` or
        ``["--screenshot", "v.png", "--exit"]`` for a headless image.

    Without a display the GUI cannot open a window; under xvfb-run (or with ``args`` ending in
    ``--exit``) it runs headless.
    """
    from . import OutlierLensEstimator, estimator_from_model, _class

    X, names, labels = _table(X, labels)
    exe = _gui_executable(executable)
    _remove_orphaned_workdirs()
    workdir = tempfile.mkdtemp(prefix="outlierlens-view-")
    with open(os.path.join(workdir, "owner.pid"), "w") as f:
        f.write(str(os.getpid()))
    state = os.path.join(workdir, "state")
    os.makedirs(state)
    try:
        cmd = [exe]
        if isinstance(detector, OutlierLensEstimator):
            detector._check_fitted()
            session = _core.make_session(np.asfortranarray(X), labels if labels is not None else np.zeros(0), names,
                                         detector.detector_id, json.dumps(detector._model.params),
                                         detector._model.normalization, detector.to_json())
            path = os.path.join(workdir, "view.olens.json")
            with open(path, "w") as f:
                f.write(session)
            cmd += ["--session", path]
            if params:
                raise ValueError("view: parameters go to the estimator when a fitted estimator is passed")
        else:
            path = os.path.join(workdir, "view.csv")
            _write_csv(path, X, names, labels)
            cmd += ["--load", path]
            if detector is not None:
                cls = _class(str(detector))
                normalization = params.pop("normalization", None)
                cmd += ["--detector", cls.detector_id]
                for k, v in params.items():
                    spec = next((s for s in cls._specs if cls._python_names[s["name"]] == k or s["name"] == k), None)
                    if spec is None:
                        raise ValueError(f"view: {cls.detector_id} has no parameter {k!r}")
                    cmd += ["--param", f"{spec['name']}={_core_text(spec, v)}"]
                if normalization is not None:
                    cmd += ["--normalize", str(normalization)]
                cmd += ["--train"]
            elif params:
                raise ValueError("view: parameters need a detector")
        cmd += list(args)
        env = dict(os.environ, OLENS_STATE_DIR=state)
        r = subprocess.run(cmd, env=env, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{os.path.basename(exe)} exited with {r.returncode}: {r.stderr.strip()[-2000:]}")
        if not (return_scores or return_model):
            return None
        autosave = os.path.join(state, "autosave.olens.json")
        model_text = ""
        if os.path.exists(autosave):
            with open(autosave) as f:
                # The app's own autosave of the data this function wrote: no file from elsewhere.
                model_text = _core.session_model(f.read(), autosave, True)
        if not model_text:
            est = detector if isinstance(detector, OutlierLensEstimator) else None
        else:
            model = _core.FittedModel.from_json(model_text)
            est = estimator_from_model(_class(model.detector_id), model)
        scores = None if est is None else _scores_of(est, X)
        if return_scores and return_model:
            return scores, est
        return scores if return_scores else est
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _scores_of(est, X):
    """The scores the window showed for X: the model's training scores when it was trained on these
    rows (the GUI's ranking; knn leaves each point out), else X scored as new rows."""
    if len(est.decision_scores_) == len(X):
        return est.decision_scores_
    return est._chunked(est._model.score_new, est._validate(X, reset=False))


def _remove_orphaned_workdirs():
    """A view() whose Python process was killed (SIGKILL, a notebook kernel restart) cannot run its
    cleanup, and its folder holds a copy of the data: the next view() removes such folders, those
    whose owner.pid names a process that no longer exists (issue #36)."""
    root = tempfile.gettempdir()
    try:
        names = [n for n in os.listdir(root) if n.startswith("outlierlens-view-")]
    except OSError:
        return
    for name in names:
        folder = os.path.join(root, name)
        try:
            with open(os.path.join(folder, "owner.pid")) as f:
                pid = int(f.read().strip())
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)  # its owner is gone
        except (OSError, ValueError):
            continue  # not ours to judge: another user's, or no pid file (an older version's)

