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
import copy
import inspect
import json
import keyword
import math
import os
import time
import warnings

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
    """Registry parameter name -> keyword argument: ``seed`` is scikit-learn's ``random_state``;
    Python keywords get PEP 8's trailing underscore (``lambda`` -> ``lambda_``); everything else
    is kept."""
    if core_name == "seed":
        return "random_state"
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


try:
    from sklearn.exceptions import ConvergenceWarning
except ImportError:  # pragma: no cover - without python3-sklearn
    class ConvergenceWarning(UserWarning):
        """An iterative fit stopped at its iteration limit (scikit-learn's class when present)."""


class OutlierLensWarning(UserWarning):
    """A label-free diagnostic of a fit (``warnings_``): e.g. the ranking may be inverted, many
    duplicate rows, a near-singular fit. The code is in the message's first word in brackets."""


# Rows are scored in chunks: between calls into the core Python sees Ctrl+C (KeyboardInterrupt), so
# scoring millions of rows with a slow method can be interrupted; scores are row-wise, so the
# chunking does not change them. The chunk follows the method's speed on this machine: the first
# _SCORE_CHUNK_FIRST rows are timed and later chunks sized for about _SCORE_CHUNK_SECONDS each (a
# fixed 16384 rows of a 3000-landmark kic took 14 s on a loaded 2-core machine: Ctrl+C waited).
_SCORE_CHUNK_FIRST = 1024
_SCORE_CHUNK_MAX = 65536
_SCORE_CHUNK_SECONDS = 0.25


def _threads(n_jobs):
    """scikit-learn's n_jobs as the core's thread cap: None or -1 = every core (0), k >= 1 = k,
    -2 = all but one, ..."""
    if n_jobs is None:
        return 0
    n_jobs = int(n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs == 0 has no meaning; use None or -1 for every core, or a positive count")
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return n_jobs


def _seed(random_state):
    """scikit-learn's random_state as the core's seed (an int in [0, 2^31 - 1]): an int is used as
    it is; None draws one from NumPy's global generator (a different fit each time, as in
    scikit-learn); a RandomState or Generator draws one from itself."""
    if random_state is None:
        return int(np.random.randint(0, 2**31 - 1))
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, (bool, np.bool_)):
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**31 - 1))
    raise ValueError(f"random_state must be None, an int, a numpy RandomState or Generator; got {random_state!r}")


class _ScoringMethod:
    """A method that scores X as new rows. On a leave-one-out detector (knn, lof, ksp, acdt,
    consensus) fitted with ``novelty=False`` it is absent, as in scikit-learn's
    LocalOutlierFactor: ``hasattr`` is False and calling it says what to use instead."""

    def __init__(self, fn):
        self.fn = fn
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.fn
        if owner is not None and owner._leave_one_out and not getattr(obj, "novelty", True):
            raise AttributeError(
                f"{self.fn.__name__} is not available when novelty=False: {type(obj).__name__} then ranks "
                "its training rows (decision_scores_, labels_, fit_predict), each without itself. To score "
                f"new rows fit {type(obj).__name__}(novelty=True)")
        return self.fn.__get__(obj, owner)


class _TrainingMethod(_ScoringMethod):
    """fit_predict: absent on a leave-one-out detector with ``novelty=True`` (scikit-learn's
    LocalOutlierFactor), where predict(X) on the training matrix would give other decisions."""

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.fn
        if owner is not None and owner._leave_one_out and getattr(obj, "novelty", False):
            raise AttributeError(
                f"fit_predict is not available when novelty=True: use {type(obj).__name__}(novelty=False)"
                ".fit_predict(X), or labels_ after fit, to predict on the training set")
        return self.fn.__get__(obj, owner)


class OutlierLensEstimator(_OutlierMixin, _BaseEstimator):
    """Base class of the generated estimators (see the module docstring for the signs).

    Fitting runs the core's fit pipeline, the one ``outlierlens-cli score`` and the GUI use:
    the input normaliser (``normalization``: none | zscore | l2 | minmax, fitted on X; default
    ``"none"`` as in the CLI — the detector's paper's choice is in ``paper_normalization``),
    then the detector, then its training scores and threshold.

    Training set and new data (scikit-learn's novelty semantics): ``decision_scores_`` and
    ``labels_`` (PyOD's names) hold the ranking of the training rows as the method defines it —
    the numbers the CLI and the GUI show; ``score_samples``, ``decision_function``, ``predict``,
    ``predict_proba`` and ``predict_confidence`` always treat X as new rows, so they are a
    function of each row alone. Where the two differ (knn, lof, ksp, acdt and consensus score a
    training point without itself) the class has ``novelty`` as LocalOutlierFactor does:
    ``novelty=False`` (default) offers ``fit_predict``, ``novelty=True`` the scoring methods.

    Fitted attributes: ``n_features_in_``, ``feature_names_in_`` (DataFrames), ``decision_scores_``
    (OutlierLens sign: higher = more outlying; ``training_scores_`` is the same array),
    ``labels_`` (0 inlier, 1 outlier), ``threshold_`` (OutlierLens sign), ``offset_``
    (= -threshold_), ``figures_`` (method figures, e.g. msre), ``n_iter_`` (iterative methods),
    ``traces_`` (convergence traces), ``params_`` (all parameters as the core validated them),
    ``resolved_params_``, ``normalization_``, ``fit_seconds_``, ``warnings_``.
    """

    detector_id = None  # set on each generated class
    paper_normalization = "none"
    _leave_one_out = False
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
        out = {}
        for s in self._specs:
            value = getattr(self, python_name(s["name"]))
            if s["name"] == "seed":
                value = _seed(value)
            out[s["name"]] = _core_text(s, value)
        return out

    def _n_threads(self):
        return _threads(getattr(self, "n_jobs", None))

    # ---- estimator API ----
    def fit(self, X, y=None):
        """Fit on the rows of X (n_samples, n_features). ``y`` is ignored (unsupervised).
        Raises ValueError for bad parameters or data the method cannot use; the fit's label-free
        diagnostics (``warnings_``) are issued as warnings (ConvergenceWarning when an iterative
        method stopped at max_iter, OutlierLensWarning otherwise)."""
        X = self._validate(X, reset=True)
        # Flags are validated at fit as scikit-learn does: novelty="yes" was taken as true.
        for flag in ("novelty", "record_history"):
            value = getattr(self, flag, False)
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{type(self).__name__}: {flag} must be True or False, got {value!r}")
        try:
            record = bool(getattr(self, "record_history", False))
            model = _core.FittedModel.fit(self.detector_id, self._core_params(), str(self.normalization), X,
                                          self._n_threads(), record)
        except ValueError as e:
            # Shape in the message: the reason is often "too few rows" or "p = 1".
            raise ValueError(f"{e} [n_samples = {X.shape[0]}, n_features = {X.shape[1]}]") from e
        self._set_model(model)
        # The training matrix, for at_step (only kept when the path is recorded).
        self._fit_X = X if model.history is not None else None
        for code, message in self.warnings_:
            category = ConvergenceWarning if code == "not_converged" else OutlierLensWarning
            warnings.warn(f"{type(self).__name__}: [{code}] {message}", category, stacklevel=2)
        return self

    def _set_model(self, model):
        self._model = model
        self.threshold_ = float(model.threshold)
        self.offset_ = -self.threshold_
        # PyOD's names: the training rows' scores (higher = more outlying) and 0/1 decisions.
        self.decision_scores_ = np.asarray(model.training_scores)
        self.training_scores_ = self.decision_scores_
        self.labels_ = np.asarray(model.training_decisions(), dtype=np.int64)
        self.figures_ = dict(model.figures)
        self.traces_ = {k: np.asarray(v) for k, v in model.traces.items()}
        # record_history=True: the recorded training path, as the app's timeline replays it.
        history = model.history
        if history is not None:
            self.history_ = {"unit": history["unit"],
                             "step": np.array([s for s, _ in history["steps"]], dtype=np.int64),
                             "loss": np.array([l for _, l in history["steps"]], dtype=float),
                             "bytes": int(history["bytes"])}
        elif hasattr(self, "history_"):
            del self.history_  # a refit without recording
        self.params_ = dict(model.params)
        # What each parameter left at "auto" became on the training data (e.g. {"K": 16}).
        self.resolved_params_ = dict(model.resolved_params)
        self.normalization_ = model.normalization
        self.fit_seconds_ = float(model.fit_seconds)
        # Label-free checks of the fit (no labels needed): [(code, message)], e.g. ("inverted", ...)
        # when the rows most isolated from their 40th neighbour do not rank above the median. A
        # loaded model has none.
        self.warnings_ = [tuple(w) for w in model.warnings]
        # Iterative methods (gods/bods/kods: Riemannian CG iterations; quadrics: epochs) report
        # their count as a figure; scikit-learn calls it n_iter_.
        for key in ("iterations", "epochs_run"):
            if key in self.figures_:
                self.n_iter_ = int(self.figures_[key])
                break
        if not hasattr(self, "n_features_in_"):
            self.n_features_in_ = int(model.n_features_in)

    def at_step(self, index):
        """The fitted estimator as it was at recorded training step ``index`` (0 = the start,
        -1 = the end; ``history_["step"][index]`` says which epoch or iteration): a copy whose
        scores, threshold and ``decision_scores_`` are those of the model stopped there. Needs a
        fit with ``record_history=True``."""
        self._check_fitted()
        if getattr(self, "_fit_X", None) is None or not hasattr(self, "history_"):
            raise ValueError(f"{type(self).__name__}.at_step needs a fit with record_history=True")
        n = len(self.history_["step"])
        if not -n <= index < n:
            raise IndexError(f"recorded step {index} does not exist ({n} recorded)")
        index = index % n
        est = copy.copy(self)
        est._set_model(self._model.at_step(index, self._fit_X))
        est.history_ = self.history_
        est.step_ = int(self.history_["step"][index])
        return est

    def _chunked(self, method, X):
        threads = self._n_threads()
        n = X.shape[0]
        if n <= _SCORE_CHUNK_FIRST:
            return np.asarray(method(X, threads))
        parts, i, chunk = [], 0, _SCORE_CHUNK_FIRST
        while i < n:
            t0 = time.monotonic()
            parts.append(np.asarray(method(X[i:i + chunk], threads)))
            seconds = time.monotonic() - t0
            i += chunk
            # rows per second so far, times the target, in whole multiples of 64 rows (a chunk of
            # 777 rows changed a kic score's last bits: the vectorised tail falls elsewhere; with
            # multiples of 64 every chunking gives the single call's numbers, tested)
            rate = chunk / max(seconds, 1e-6)
            chunk = 64 * int(min(_SCORE_CHUNK_MAX, max(64, rate * _SCORE_CHUNK_SECONDS)) // 64)
        return np.concatenate(parts)

    @_ScoringMethod
    def outlier_scores(self, X):
        """OutlierLens's score of X as new rows (higher = more outlying), as the CLI's ``score``
        column for ``--fit-on`` rows; equals ``-score_samples(X)``. The training rows' own scores
        are ``decision_scores_``."""
        self._check_fitted()
        return self._chunked(self._model.score_new, self._validate(X, reset=False))

    @_ScoringMethod
    def score_samples(self, X):
        """scikit-learn sign: higher = more normal; equals ``-outlier_scores(X)``. X is scored as
        new rows (a training point counts as its own neighbour)."""
        return -self.outlier_scores(X)

    @_ScoringMethod
    def decision_function(self, X):
        """``score_samples(X) - offset_``: negative = outlier by the detector's own threshold."""
        return self.score_samples(X) - self.offset_

    @_ScoringMethod
    def predict(self, X):
        """+1 inlier, -1 outlier for X as new rows: the detector's own decision rule."""
        self._check_fitted()
        outlier = self._chunked(self._model.predict_new, self._validate(X, reset=False))
        return np.where(outlier == 1, -1, 1)

    @_TrainingMethod
    def fit_predict(self, X, y=None):
        """Fit on X and return the training rows' decisions (+1 inlier, -1 outlier), i.e.
        ``labels_`` in scikit-learn's sign."""
        return np.where(self.fit(X).labels_ == 1, -1, 1)

    @_ScoringMethod
    def predict_proba(self, X, method="linear", return_confidence=False):
        """Outlier probability of each new row, PyOD's two conversions of the score s:
        ``"linear"``: (s - min) / (max - min) over the training scores, clipped to [0, 1];
        ``"unify"``: erf((s - mu) / (sigma * sqrt(2))) clipped to [0, 1], with mu and sigma the mean
        and standard deviation of the training scores (Kriegel et al., "Interpreting and unifying
        outlier scores", SDM 2011). Returns (n, 2): column 0 inlier, column 1 outlier; with
        ``return_confidence`` also :meth:`predict_confidence`."""
        s = self.outlier_scores(X)
        train = self.decision_scores_
        if method == "linear":
            lo, hi = float(train.min()), float(train.max())
            p = (s - lo) / (hi - lo) if hi > lo else np.where(s > hi, 1.0, 0.0)
        elif method == "unify":
            mu, sigma = float(train.mean()), float(train.std())
            z = (s - mu) / (sigma * np.sqrt(2.0)) if sigma > 0 else np.where(s > mu, np.inf, -np.inf)
            p = _erf(z)
        else:
            raise ValueError(f"method must be 'linear' or 'unify', got {method!r}")
        p = np.clip(p, 0.0, 1.0)
        proba = np.column_stack([1.0 - p, p])
        return (proba, self.predict_confidence(X)) if return_confidence else proba

    @_ScoringMethod
    def predict_confidence(self, X):
        """Confidence in each new row's decision (PyOD's ExCeeD, Perini et al., ECML PKDD 2020):
        with m the number of training scores <= the row's score and n training rows, the outlier
        probability is p = (1 + m) / (2 + n) and the confidence of an outlier decision is
        1 - BinomCDF(n - floor(n * contamination); n, p) (1 minus that for an inlier decision).
        ``contamination`` is the parameter when the detector has one, else the share of training
        rows flagged. Needs SciPy (installed with scikit-learn)."""
        try:
            from scipy.stats import binom
        except ImportError as e:  # pragma: no cover - SciPy comes with scikit-learn
            raise ImportError("predict_confidence needs SciPy (Debian: python3-scipy)") from e
        s = self.outlier_scores(X)
        train = np.sort(self.decision_scores_)
        n = train.size
        below = np.searchsorted(train, s, side="right")
        posterior = (1.0 + below) / (2.0 + n)
        contamination = getattr(self, "contamination", None)
        if not isinstance(contamination, (float, int, np.floating, np.integer)):
            contamination = float(self.labels_.mean())
        confidence = 1.0 - binom.cdf(n - int(n * float(contamination)), n, posterior)
        outlier = s > self.threshold_
        return np.where(outlier, confidence, 1.0 - confidence)

    def explain(self, X):
        """One short reason per row (e.g. "nearest flat 2"); empty when the method has none."""
        self._check_fitted()
        return self._model.explain(self._validate(X, reset=False))

    # ---- model interchange ----
    def to_json(self):
        """The model JSON of ``outlierlens-cli score --save-model`` (Detector::toJson + "normalizer"),
        with ``feature_names`` when the estimator was fitted on a DataFrame."""
        self._check_fitted()
        text = self._model.to_json()
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            return text
        model = json.loads(text)
        model["feature_names"] = [str(n) for n in names]
        return json.dumps(model, indent=1) + "\n"

    def save_model(self, path):
        """Writes :meth:`to_json` to ``path`` through the core's guarded writer, as the CLI does: a
        temporary file beside it, then a rename; a symlink, device, FIFO, directory or read-only file
        at ``path`` is refused (``DataError``, a ``ValueError``) and left as it is. The file loads
        with :func:`outlierlens.load_model` (feature names included) and, inside a session, in the GUI."""
        _core.write_text_atomically(os.fspath(path), self.to_json())
        return path

    # Pickling (check_estimator, Dask's distributed scheduler): the core model travels as its JSON.
    def __getstate__(self):
        state = dict(self.__dict__)
        if "_model" in state:
            state["_model"] = state["_model"].to_json(True)  # a recorded path survives pickling
        return state

    def __setstate__(self, state):
        if isinstance(state.get("_model"), str):
            state["_model"] = _core.FittedModel.from_json(state["_model"])
        self.__dict__.update(state)


def _erf(z):
    """Elementwise erf without SciPy (math.erf; +-inf give +-1)."""
    z = np.asarray(z, dtype=np.float64)
    return np.vectorize(math.erf, otypes=[np.float64])(z) if z.size else z


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
    lines.append("n_jobs : int or None, default None")
    lines.append("    Threads for fitting and scoring: None or -1 = every core, k = at most k.")
    if info.get("leave_one_out"):
        lines.append("novelty : bool, default False")
        lines.append("    False: rank the training rows (fit_predict, decision_scores_, labels_), each scored "
                     "without itself. True: score_samples / decision_function / predict / predict_proba score "
                     "new rows (LocalOutlierFactor's switch).")
    if info.get("history_unit"):
        lines.append("record_history : bool, default False")
        lines.append(f"    Record the training path (the model every {info['history_unit']}, bounded to 200 "
                     f"states): ``history_`` and ``at_step(i)``, as the app's timeline replays it.")
    return "\n".join(lines)


def make_estimator_class(info, module_name="outlierlens"):
    """Builds the estimator class of one registry entry (``_core.detectors()`` item)."""
    specs = tuple(info["params"])
    py_params = [(s, python_name(s["name"])) for s in specs]
    kw = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    parameters += [inspect.Parameter(name, kw, default=_typed(s, s["default"])) for s, name in py_params]
    parameters.append(inspect.Parameter("normalization", kw, default="none"))
    parameters.append(inspect.Parameter("n_jobs", kw, default=None))
    if info.get("leave_one_out"):
        parameters.append(inspect.Parameter("novelty", kw, default=False))
    if info.get("history_unit"):
        parameters.append(inspect.Parameter("record_history", kw, default=False))
    signature = inspect.Signature(parameters)

    def __init__(self, **kwargs):
        # No work here (scikit-learn and the core's Detector agree): store the arguments as given.
        try:
            bound = signature.bind(self, **kwargs)
        except TypeError as e:  # "got an unexpected keyword argument": say whose, and what it takes
            known = ", ".join(p.name for p in parameters[1:])
            raise TypeError(f"{type(self).__name__}: {e}; its parameters are {known}") from None
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
        "_leave_one_out": bool(info.get("leave_one_out")),
        "_specs": specs,
        "_python_names": {s["name"]: n for s, n in py_params},
    })
    return cls


def estimator_from_model(cls, model, feature_names=None):
    """A fitted estimator of class ``cls`` around a core FittedModel (its parameters as get_params);
    a loaded leave-one-out detector has ``novelty=True`` (it is loaded to score new rows)."""
    kwargs = {python_name(k): _typed(s, _core_text(s, model.params[k]))
              for s in cls._specs for k in [s["name"]] if k in model.params}
    if cls._leave_one_out:
        kwargs["novelty"] = True  # a loaded model is there to score new rows
    est = cls(**kwargs, normalization=model.normalization)
    est.n_features_in_ = int(model.n_features_in)
    if feature_names is not None:
        est.feature_names_in_ = np.asarray(feature_names, dtype=object)
    est._set_model(model)
    return est
