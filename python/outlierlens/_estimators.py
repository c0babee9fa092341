"""scikit-learn estimators generated from the OutlierLens registry.

One class per registered detector is built at import time from ``_core.detectors()`` (the same
schema that drives the GUI forms and the CLI's ``--param``); no class is written by hand per
method, so a detector added to ``core/registry/Registry.cpp`` appears here without Python edits.

Sign conventions (the one thing to remember):

* OutlierLens's own score (CLI ``score`` column, ``training_scores_``, ``threshold_``):
  higher = more outlying.
* scikit-learn's ``score_samples``: higher = more normal, so ``score_samples(X) = -score(X)``.
* ``decision_function(X) = score_samples(X) - offset_`` with ``offset_ = -threshold_``: negative
  exactly when the detector's own rule (score > threshold) calls the row an outlier.
* ``predict``: +1 inlier, -1 outlier.
"""
import inspect
import keyword
import os

import numpy as np

from . import _core

try:  # scikit-learn is optional: without it the same API works on a minimal base class.
    from sklearn.base import BaseEstimator as _BaseEstimator
    from sklearn.base import OutlierMixin as _OutlierMixin
    from sklearn.exceptions import NotFittedError as _SkNotFittedError

    HAVE_SKLEARN = True
    try:  # scikit-learn >= 1.6 moved the validation helper out of BaseEstimator
        from sklearn.utils.validation import validate_data as _sk_validate_data
    except ImportError:  # Debian 12: scikit-learn 1.2
        def _sk_validate_data(est, X, **kw):
            return est._validate_data(X, **kw)
except ImportError:  # pragma: no cover - exercised only without python3-sklearn
    HAVE_SKLEARN = False

    class _SkNotFittedError(ValueError, AttributeError):
        pass

    class _BaseEstimator:
        @classmethod
        def _get_param_names(cls):
            sig = inspect.signature(cls.__init__)
            return sorted(p.name for p in sig.parameters.values() if p.name != "self")

        def get_params(self, deep=True):
            return {k: getattr(self, k) for k in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for k, v in params.items():
                if k not in valid:
                    raise ValueError(f"Invalid parameter {k!r} for estimator {type(self).__name__}")
                setattr(self, k, v)
            return self

        def __repr__(self):
            args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({args})"

    class _OutlierMixin:
        _estimator_type = "outlier_detector"

        def fit_predict(self, X, y=None):
            return self.fit(X).predict(X)


class NotFittedError(_SkNotFittedError):
    """Raised when a method needing a fitted model is called before ``fit`` (a subclass of
    ``sklearn.exceptions.NotFittedError``, hence of ValueError and AttributeError)."""


def class_name(detector_id):
    """``kic`` -> ``Kic``, ``quadrics-base`` -> ``QuadricsBase``."""
    return "".join(part[:1].upper() + part[1:] for part in detector_id.replace("_", "-").split("-"))


def python_name(core_name):
    """Registry parameter name -> keyword argument: Python keywords get PEP 8's trailing
    underscore (``lambda`` -> ``lambda_``); everything else is kept."""
    return core_name + "_" if keyword.iskeyword(core_name) else core_name


def _typed(spec, text):
    """A registry default (text) as the Python value of its type."""
    t = spec["type"]
    if spec.get("auto") and str(text).strip().lower() == "auto":
        return "auto"  # resolved from the data at fit time (see resolved_params_)
    if t == "int":
        return int(text)
    if t == "real":
        return float(text)
    if t == "bool":
        return text.strip().lower() in ("1", "true", "yes", "on")
    return text


def _core_text(spec, value):
    """A Python value as the text ParamSet::set parses (validation and range checks stay in C++).
    Floats use repr(), the shortest text that reads back to the same double."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return str(value)


class OutlierLensEstimator(_OutlierMixin, _BaseEstimator):
    """Base class of the generated estimators (see the module docstring for the signs).

    Fitting runs the core's fit pipeline, the one ``outlierlens-cli score`` and the GUI use:
    the input normaliser (``normalization``: none | zscore | l2 | minmax, fitted on X; default
    ``"none"`` as in the CLI — the detector's paper's choice is in ``paper_normalization``),
    then the detector, then its training scores and threshold.

    ``score_samples``/``decision_function``/``predict`` on *exactly* the training matrix return
    the training scores as the method defines them (e.g. kNN excludes each point from its own
    neighbours), which is what the CLI and the GUI report; any other matrix is scored as new rows.

    Fitted attributes: ``n_features_in_``, ``feature_names_in_`` (DataFrames), ``threshold_``
    (OutlierLens sign), ``offset_`` (= -threshold_), ``training_scores_`` (OutlierLens sign),
    ``figures_`` (method figures, e.g. msre), ``n_iter_`` (iterative methods), ``traces_`` (convergence traces), ``params_`` (all
    parameters as the core validated them), ``normalization_``, ``fit_seconds_``.
    """

    detector_id = None  # set on each generated class
    paper_normalization = "none"
    _specs = ()  # registry ParamSpecs (dicts) of the detector

    # ---- scikit-learn plumbing ----
    def _more_tags(self):
        return {"allow_nan": False, "requires_y": False, "X_types": ["2darray"]}

    def __sklearn_is_fitted__(self):
        return hasattr(self, "_model")

    def _check_fitted(self):
        if not hasattr(self, "_model"):
            raise NotFittedError(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with appropriate "
                "arguments before using this estimator."
            )

    def _validate(self, X, reset):
        # scikit-learn's own validation when present (dtype, 2-D, finite, sparse rejected,
        # n_features_in_ / feature_names_in_ bookkeeping with its standard messages).
        if HAVE_SKLEARN:
            X = _sk_validate_data(self, X, reset=reset, dtype=np.float64, ensure_min_samples=1)
        else:
            X = np.asarray(X, dtype=np.float64)
            if X.ndim != 2:
                raise ValueError(f"Expected 2D array, got {X.ndim}D array instead")
            if not np.all(np.isfinite(X)):
                raise ValueError("Input X contains NaN or infinity.")
            if reset:
                self.n_features_in_ = X.shape[1]
            elif X.shape[1] != self.n_features_in_:
                raise ValueError(
                    f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                    f"{self.n_features_in_} features as input."
                )
        return np.asfortranarray(X)  # Eigen's layout: the core's MatrixXd copy is then a memcpy

    def _core_params(self):
        return {s["name"]: _core_text(s, getattr(self, python_name(s["name"]))) for s in self._specs}

    # ---- estimator API ----
    def fit(self, X, y=None):
        """Fit on the rows of X (n_samples, n_features). ``y`` is ignored (unsupervised).
        Raises ValueError for bad parameters or data the method cannot use."""
        X = self._validate(X, reset=True)
        try:
            model = _core.FittedModel.fit(self.detector_id, self._core_params(), str(self.normalization), X)
        except ValueError as e:
            # Shape in the message: the reason is often "too few rows" or "p = 1".
            raise ValueError(f"{e} [n_samples = {X.shape[0]}, n_features = {X.shape[1]}]") from e
        self._set_model(model)
        return self

    def _set_model(self, model):
        self._model = model
        self.threshold_ = float(model.threshold)
        self.offset_ = -self.threshold_
        self.training_scores_ = np.asarray(model.training_scores)
        self.figures_ = dict(model.figures)
        self.traces_ = {k: np.asarray(v) for k, v in model.traces.items()}
        self.params_ = dict(model.params)
        # What each parameter left at "auto" became on the training data (e.g. {"K": 16}).
        self.resolved_params_ = dict(model.resolved_params)
        self.normalization_ = model.normalization
        self.fit_seconds_ = float(model.fit_seconds)
        # Label-free checks of the fit (no labels needed): [(code, message)], e.g. ("inverted", ...)
        # when the ranking disagrees with the distance to the 10th neighbour. A loaded model has none.
        self.warnings_ = [tuple(w) for w in model.warnings]
        # Iterative methods (gods/bods/kods: Riemannian CG iterations; quadrics: epochs) report
        # their count as a figure; scikit-learn calls it n_iter_.
        for key in ("iterations", "epochs_run"):
            if key in self.figures_:
                self.n_iter_ = int(self.figures_[key])
                break
        if not hasattr(self, "n_features_in_"):
            self.n_features_in_ = int(model.n_features_in)

    def outlier_scores(self, X, new_rows=False):
        """OutlierLens's score (higher = more outlying), as in the CLI's ``score`` column.
        ``new_rows=True`` scores X as new data even when it is the training matrix (kNN then counts
        each training point as its own neighbour), i.e. the inductive reading of scikit-learn's
        ``novelty=True``."""
        self._check_fitted()
        X = self._validate(X, reset=False)
        return self._model.score_new(X) if new_rows else self._model.score_rows(X)[0]

    def score_samples(self, X):
        """scikit-learn sign: higher = more normal; equals ``-outlier_scores(X)``."""
        return -self.outlier_scores(X)

    def decision_function(self, X):
        """``score_samples(X) - offset_``: negative = outlier by the detector's own threshold."""
        return self.score_samples(X) - self.offset_

    def predict(self, X):
        """+1 inlier, -1 outlier: the detector's own decision rule (score > threshold_)."""
        self._check_fitted()
        _, outlier = self._model.score_rows(self._validate(X, reset=False))
        return np.where(np.asarray(outlier) == 1, -1, 1)

    def explain(self, X):
        """One short reason per row (e.g. "nearest flat 2"); empty when the method has none."""
        self._check_fitted()
        return self._model.explain(self._validate(X, reset=False))

    # ---- model interchange ----
    def to_json(self):
        """The model JSON of ``outlierlens-cli score --save-model`` (Detector::toJson + "normalizer")."""
        self._check_fitted()
        return self._model.to_json()

    def save_model(self, path):
        """Writes :meth:`to_json` to ``path`` through the core's guarded writer, as the CLI does: a
        temporary file beside it, then a rename; a symlink, device, FIFO, directory or read-only file
        at ``path`` is refused (``DataError``, a ``ValueError``) and left as it is. The file loads
        with :func:`outlierlens.load_model` and, inside a session, in the GUI."""
        _core.write_text_atomically(os.fspath(path), self.to_json())
        return path

    # Pickling (check_estimator, Dask's distributed scheduler): the core model travels as its JSON.
    def __getstate__(self):
        state = dict(self.__dict__)
        if "_model" in state:
            state["_model"] = state["_model"].to_json()
        return state

    def __setstate__(self, state):
        if isinstance(state.get("_model"), str):
            state["_model"] = _core.FittedModel.from_json(state["_model"])
        self.__dict__.update(state)


def _docstring(info, py_params):
    lines = [f"{info['title']} (OutlierLens detector ``{info['id']}``).", "", info["summary"], "",
             f"Reference: {info['reference']}.", "",
             "scikit-learn conventions; score_samples is higher = more normal (minus OutlierLens's "
             "score), decision_function < 0 and predict == -1 mark outliers (see OutlierLensEstimator).",
             "", "Parameters", "----------"]
    for spec, name in py_params:
        rng = ""
        if spec["type"] in ("int", "real") and (spec["min"] is not None or spec["max"] is not None):
            rng = f", range [{spec['min']}, {spec['max']}]"
        if spec["type"] == "choice":
            rng = ", one of " + " | ".join(spec["choices"])
        lines.append(f"{name} : {spec['type']}, default {spec['default']}{rng}")
        lines.append(f"    {spec['help']} ({spec['reference']})")
    lines.append("normalization : str, default 'none'")
    lines.append(f"    Input normalisation fitted on X: none | zscore | l2 | minmax (the paper's: "
                 f"'{info['normalization']}').")
    return "\n".join(lines)


def make_estimator_class(info, module_name="outlierlens"):
    """Builds the estimator class of one registry entry (``_core.detectors()`` item)."""
    specs = tuple(info["params"])
    py_params = [(s, python_name(s["name"])) for s in specs]
    kw = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    parameters += [inspect.Parameter(name, kw, default=_typed(s, s["default"])) for s, name in py_params]
    parameters.append(inspect.Parameter("normalization", kw, default="none"))
    signature = inspect.Signature(parameters)

    def __init__(self, **kwargs):
        # No work here (scikit-learn and the core's Detector agree): store the arguments as given.
        bound = signature.bind(self, **kwargs)
        bound.apply_defaults()
        for name, value in bound.arguments.items():
            if name != "self":
                setattr(self, name, value)

    # scikit-learn reads the parameter names from the signature of __init__ (get_params, clone, repr).
    __init__.__signature__ = signature
    name = class_name(info["id"])
    __init__.__qualname__ = f"{name}.__init__"
    cls = type(name, (OutlierLensEstimator,), {
        "__init__": __init__,
        "__doc__": _docstring(info, py_params),
        "__module__": module_name,
        "detector_id": info["id"],
        "paper_normalization": info["normalization"],
        "_specs": specs,
        "_python_names": {s["name"]: n for s, n in py_params},
    })
    return cls


def estimator_from_model(cls, model):
    """A fitted estimator of class ``cls`` around a core FittedModel (its parameters as get_params)."""
    kwargs = {python_name(k): _typed(s, _core_text(s, model.params[k]))
              for s in cls._specs for k in [s["name"]] if k in model.params}
    est = cls(**kwargs, normalization=model.normalization)
    est.n_features_in_ = int(model.n_features_in)
    est._set_model(model)
    return est
