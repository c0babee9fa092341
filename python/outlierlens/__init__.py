"""OutlierLens from Python: the detectors of the desktop app and ``outlierlens-cli`` as
scikit-learn estimators, on the same C++ core (``outlierlens._core``, pybind11).

    >>> import numpy as np, outlierlens as ol
    >>> X, y = ol.generate("moons", n=300, seed=1, outliers=0.05)
    >>> est = ol.Knn(k=5, normalization="zscore").fit(X)
    >>> ol.metrics.auroc(y, est.decision_scores_)    # (y_true, y_score); higher = more outlying

* One class per registered detector, generated from the registry at import time
  (``ol.detectors()`` maps ids to classes; ``ol.make("quadrics-base", m=2)``).
* ``score_samples`` follows scikit-learn (higher = more normal) = minus OutlierLens's score
  (``est.outlier_scores(X)``, the CLI's ``score`` column, higher = more outlying).
* ``ol.load_model(path)`` reads ``outlierlens-cli score --save-model`` files; ``est.save_model``
  writes the same format.
* ``ol.generate``, ``ol.metrics``, ``ol.verify`` and ``ol.view`` (opens the desktop explorer).
"""
from . import _core
from . import metrics
from ._estimators import (HAVE_SKLEARN, ConvergenceWarning, NotFittedError, OutlierLensEstimator,
                          OutlierLensWarning, class_name, estimator_from_model, make_estimator_class,
                          python_name)

import os

import numpy as _np

__version__ = _core.__version__  # the CMake project version (pip metadata has the same)

__all__ = ["detectors", "make", "load_model", "generate", "generators", "verify", "metrics", "view",
           "NotFittedError", "OutlierLensEstimator", "OutlierLensWarning", "ConvergenceWarning", "__version__"]

_CLASSES = {}
for _info in _core.detectors():
    _cls = make_estimator_class(_info, __name__)
    _CLASSES[_info["id"]] = _cls
    globals()[_cls.__name__] = _cls  # importable as outlierlens.Kic (pickle finds it here)
    __all__.append(_cls.__name__)
del _info, _cls


def detectors():
    """``{detector id: estimator class}`` for every registered detector, in the registry's order."""
    return dict(_CLASSES)


def _class(detector_id):
    try:
        return _CLASSES[detector_id]
    except KeyError:
        raise ValueError(f"unknown detector {detector_id!r} (available: {', '.join(_CLASSES)})") from None


def make(detector_id, **params):
    """An unfitted estimator by registry id: ``make("kic", kernel="rbf")``. Registry parameter
    names are accepted as they are (``**{"lambda": 2}``) or in their Python form (``lambda_``)."""
    cls = _class(detector_id)
    kwargs = {cls._python_names.get(k, k): v for k, v in params.items()}
    return cls(**kwargs)


def load_model(path, allow_data_outside=False):
    """A fitted estimator from a model JSON file written by ``outlierlens-cli score --save-model``,
    the GUI's File → Export model, or :meth:`OutlierLensEstimator.save_model` — or from a GUI
    session file (``*.olens.json``, its fitted model). Parsed by the core's own readers
    (Registry::load, Normalizer::fromJson, parseSession); it scores rows exactly as the process
    that saved it. A session whose knn/lof model takes its rows from a data file outside the
    session's folder is refused unless ``allow_data_outside=True`` (a session handed over may name
    any file)."""
    # The core's bounded reader: a regular file of at most 256 MiB (a FIFO or /dev/zero is refused
    # at once instead of blocking or growing without end).
    path = os.fspath(path)
    return _model_from_text(_core.read_text_file(path), path, allow_data_outside)


def model_from_json(text, allow_data_outside=False):
    """Like :func:`load_model`, from the JSON text. A session given as text has no folder: a model
    that takes its rows from a data file needs ``allow_data_outside=True``."""
    return _model_from_text(text, "", allow_data_outside)


def _model_from_text(text, session_path, allow_data_outside):
    if not isinstance(allow_data_outside, bool):
        raise TypeError("allow_data_outside: expected True or False, got %r" % (allow_data_outside,))
    if '"outlierlens-session"' in text:
        model_text = _core.session_model(text, session_path, allow_data_outside)  # core/session's strict reader
        if not model_text:
            raise ValueError("the session holds no fitted model (train a detector in the GUI first)")
        text = model_text
    import json
    try:
        names = json.loads(text).get("feature_names")
    except (ValueError, AttributeError):
        names = None  # the core's reader below names what is wrong with the text
    model = _core.FittedModel.from_json(text)
    return estimator_from_model(_class(model.detector_id), model, names)


def _params_text(params):
    return {k: ("true" if v is True else "false" if v is False else repr(v) if isinstance(v, float) else str(v))
            for k, v in params.items()}


def generators():
    """The toy-data generators: ``{id: {"summary": ..., "params": [...]}}``."""
    return {g["id"]: {"summary": g["summary"], "params": g["params"]} for g in _core.generators()}


def generate(name, n=300, seed=0, return_sigma=False, **params):
    """Seeded toy data, the same rows as ``outlierlens-cli generate NAME --n N --seed S``.

    Returns ``(X, y)``: y = 1 for the ``outliers`` fraction of uniform background points (in the
    inliers' bounding box enlarged by 10 % per side) and 0 for inliers; for ``classes`` y is the
    class id. Generators: blobs, moons, ring, seam (the tennis-ball seam of the quadrics paper
    eq. 18–19, fig. 2), sphere (the quadric xᵀx − r² of the quadrics paper eq. 3), torus,
    swissroll, scurve (ACDT slides), classes (Gaussian classes with the per-feature σ of the
    uncertainty-aware Joint Bayesian paper sec. 5.1). ``return_sigma=True`` adds the n×p σ
    matrix (empty when the generator has none). See :func:`generators` for the parameters.
    """
    X, y, _names, sigma = _core.generate(name, int(n), int(seed), _params_text(params))
    X, y = _np.asarray(X), _np.asarray(y)
    return (X, y, _np.asarray(sigma)) if return_sigma else (X, y)


def verify(train_X, train_labels, test_X, test_labels, train_sigma=None, test_sigma=None, method="uajb", dim=0,
           pairs=200000, seed=0, max_iter=200, tol=1e-5):
    """Pair verification with the Joint Bayesian model (``outlierlens-cli verify``).

    ``method="uajb"``: the uncertainty-aware Joint Bayesian model (uncertainty-aware JB paper
    sec. 4; UA-PPCA reduction sec. 3.2, probabilistic projection eq. 2–4, EM of sec. 4.3.3) using
    the per-feature standard deviations ``*_sigma`` (n×p); ``"jb"``: plain Joint Bayesian (σ
    ignored). Trained on the labelled train set, it scores all test pairs (or ``pairs`` seeded
    random ones) by the log-likelihood ratio of eq. 13 and returns a dict with ``eer`` (sec. 5.1),
    ``fnr_at_fpr_0.001`` (sec. 5.2), ``auc``, ``dim``, ``similarity``, ``genuine`` and ``pairs``.
    ``dim=0`` chooses min(100, D, rank) as in sec. 5.1.
    """
    def arr(a):
        return _np.asfortranarray(a, dtype=_np.float64)

    def sig(s, X):
        return _np.zeros((0, 0)) if s is None else arr(s)

    trX, teX = arr(train_X), arr(test_X)
    return _core.verify(trX, _np.asarray(train_labels, dtype=_np.float64).ravel(), sig(train_sigma, trX),
                        teX, _np.asarray(test_labels, dtype=_np.float64).ravel(), sig(test_sigma, teX),
                        method, int(dim), int(pairs), int(seed), int(max_iter), float(tol))


def agreement(X, detectors=("knn", "iforest", "mcd"), normalization="zscore", top=None):
    """How much several detectors agree on X without labels (``outlierlens-cli agree``): each is
    fitted with its default parameters; returns a dict with ``detectors`` (ids), ``spearman`` and
    ``top_overlap`` (m × m arrays: rank correlation of the training scores, share of the top
    ``top`` rows in common, default 10 % of the rows), ``flagged_by`` (per row, how many detectors'
    own decisions flag it), ``warnings`` ({id: [(code, message), ...]}) and ``estimators``."""
    X = _np.asarray(X, dtype=float)
    ids = list(dict.fromkeys(detectors))
    if len(ids) < 2:
        raise ValueError("agreement needs at least two detector ids, e.g. ('knn', 'iforest', 'mcd')")
    k = int(_np.ceil(0.1 * X.shape[0])) if top is None else int(top)
    if not 1 <= k <= X.shape[0]:
        raise ValueError(f"top = {k} is outside [1, n_samples = {X.shape[0]}]")
    fitted = [make(d, normalization=normalization).fit(X) for d in ids]
    scores = [e.training_scores_ for e in fitted]
    flags = [(s > e.threshold_).astype(_np.int32) for s, e in zip(scores, fitted)]
    rho, overlap, flagged_by = _core.agreement(scores, flags, k)
    return {"detectors": ids, "spearman": _np.asarray(rho), "top_overlap": _np.asarray(overlap),
            "flagged_by": _np.asarray(flagged_by), "top": k,
            "warnings": {d: e.warnings_ for d, e in zip(ids, fitted)}, "estimators": dict(zip(ids, fitted))}


def threshold(scores, rule="mad"):
    """A decision threshold from the scores alone, without guessing the contamination
    (``outlierlens-cli --threshold-rule``): ``"mad"`` = median + 3 x 1.4826 x MAD (Hampel),
    ``"iqr"`` = Q3 + 1.5 x IQR (Tukey's fence), ``"otsu"`` = Otsu's histogram cut. Use it on the
    training scores: ``est.outlier_scores(X) > ol.threshold(est.training_scores_, "iqr")``."""
    if rule == "detector":
        raise ValueError("rule 'detector' is the estimator's own threshold_; choose mad, iqr or otsu")
    return float(_core.label_free_threshold(_np.asarray(scores, dtype=float), str(rule)))


__all__ += ["agreement", "threshold"]

from ._view import view  # noqa: E402  (after the classes: view() may fit one)
