"""Evaluation metrics of the core (``core/metrics/Metrics.h``), the ones the CLI's ``evaluate`` and
the GUI's Evaluation dock report.

Arguments come in scikit-learn's order, ``(y_true, y_score)``: ``y_true`` holds two classes
(0/1, False/True, or any two values: the larger — 1, True — is the outlier, the positive class);
``y_score`` is OutlierLens's score (higher = more outlying), e.g. ``est.decision_scores_`` or
``-est.score_samples(X)``. The reverse order (the module's before 0.2) is refused with a message
when it can be recognised (the first argument has more than two distinct values, the second two).
Ties are treated as scikit-learn does: samples with equal scores enter the curves together.
"""
import numpy as np

from . import _core


def _scores(scores):
    return np.ascontiguousarray(scores, dtype=np.float64).ravel()


def _classes(y_true, name, allow_one_class=False):
    """0/1 flags from two classes (the larger value is the positive one); more than two is an error,
    and so is a single class where the metric needs both (scikit-learn's rule)."""
    y = np.asarray(y_true).ravel()
    values = np.unique(y)
    if values.size > 2:
        raise ValueError(f"{name}: y_true has {values.size} distinct values; it must hold two classes "
                         "(0 = inlier, 1 = outlier)")
    if values.size < 2 and not allow_one_class:
        raise ValueError(f"{name}: only one class ({values[0] if values.size else 'none'}) is present in y_true; "
                         "the metric needs inliers and outliers")
    if values.size == 1:
        return (y != 0).astype(np.int32)
    return (y == values[-1]).astype(np.int32)


def _ordered(y_true, y_score, name):
    a, b = np.asarray(y_true).ravel(), np.asarray(y_score).ravel()
    if a.shape != b.shape:
        raise ValueError(f"{name}: y_true has {a.size} values, y_score {b.size}")
    if np.unique(a).size > 2 and np.unique(b).size <= 2:
        raise ValueError(f"{name}(y_true, y_score): the first argument has {np.unique(a).size} distinct values and "
                         "the second two; the arguments look swapped (scores first was the order before "
                         f"outlierlens 0.2). Call {name}(labels, scores), as sklearn.metrics does")
    return a, b


def auroc(y_true, y_score):
    """Area under the ROC curve (trapezoidal rule over one point per distinct score), equal to
    ``sklearn.metrics.roc_auc_score(y_true, y_score)``; the AUROC of the KIC paper's Table 1 and
    the quadrics paper's experiments. ValueError when only one class is present (as scikit-learn)."""
    y, s = _ordered(y_true, y_score, "auroc")
    return _core.auroc(_scores(s), _classes(y, "auroc"))


def average_precision(y_true, y_score):
    """AUPRC as average precision, AP = Σ_n (R_n − R_{n−1}) P_n (no interpolation), equal to
    ``sklearn.metrics.average_precision_score(y_true, y_score)``; the AUPRC of the KIC paper's
    Table 2. ValueError without both classes."""
    y, s = _ordered(y_true, y_score, "average_precision")
    return _core.average_precision(_scores(s), _classes(y, "average_precision"))


auprc = average_precision


def roc_curve(y_true, y_score):
    """(fpr, tpr, thresholds): starts at (0, 0) with threshold +inf, one point per distinct score
    in decreasing order (``sklearn.metrics.roc_curve(y_true, y_score, drop_intermediate=False)``)."""
    y, s = _ordered(y_true, y_score, "roc_curve")
    x, t_, t = _core.roc_curve(_scores(s), _classes(y, "roc_curve"))
    return np.asarray(x), np.asarray(t_), np.asarray(t)


def precision_recall_curve(y_true, y_score):
    """(recall, precision, thresholds) in decreasing-threshold order: first (0, 1) at +inf, then one
    point per distinct score down to full recall (scikit-learn's arrays reversed)."""
    y, s = _ordered(y_true, y_score, "precision_recall_curve")
    x, p, t = _core.precision_recall_curve(_scores(s), _classes(y, "precision_recall_curve"))
    return np.asarray(x), np.asarray(p), np.asarray(t)


def confusion(y_true, y_pred):
    """Counts and rates for 0/1 decisions (1 = outlier; from ``predict`` use ``pred == -1``), in
    ``sklearn.metrics.confusion_matrix``'s argument order: tp, fp, tn, fn, precision TP/(TP+FP),
    recall TP/(TP+FN), f1 = 2PR/(P+R), tnr = TN/N and npv = TN/(TN+FN) (GODS paper sec. 7.4),
    f1_bar = 2·TNR·NPV/(TNR+NPV) (F1 with the classes swapped, GODS paper sec. 7.4). Undefined
    ratios are 0."""
    y = _classes(y_true, "confusion", allow_one_class=True)
    pred = np.asarray(y_pred).ravel()
    if pred.shape != y.shape:
        raise ValueError(f"confusion: y_true has {y.size} values, y_pred {pred.size}")
    return _core.confusion((pred != 0).astype(np.int32), y)


def equal_error_rate(genuine, similarity):
    """Verification EER (uncertainty-aware Joint Bayesian paper sec. 5.1): the rate where the
    false-accept rate equals the false-reject rate, linearly interpolated between ROC points.
    ``genuine`` 1 = same-class pair (y_true); ``similarity`` higher = more likely the same class."""
    y, s = _ordered(genuine, similarity, "equal_error_rate")
    return _core.equal_error_rate(_scores(s), _classes(y, "equal_error_rate"))


def fnr_at_fpr(genuine, similarity, target_fpr=1e-3):
    """Smallest false-negative rate over thresholds whose FPR <= target_fpr (the FNR at
    FPR = 0.1 % of the uncertainty-aware Joint Bayesian paper sec. 5.2); ``(y_true, y_score)``."""
    y, s = _ordered(genuine, similarity, "fnr_at_fpr")
    return _core.fnr_at_fpr(_scores(s), _classes(y, "fnr_at_fpr"), float(target_fpr))


def msre(X, X_hat):
    """Mean squared reconstruction error (ACDT slides): (1/N) Σ_i ‖x_i − x̂_i‖²."""
    return _core.msre(np.asarray(X, dtype=np.float64), np.asarray(X_hat, dtype=np.float64))
