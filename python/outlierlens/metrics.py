"""Evaluation metrics of the core (``core/metrics/Metrics.h``), the ones the CLI's ``evaluate`` and
the GUI's Evaluation dock report.

Conventions: ``labels`` are 0/1 with 1 = outlier = the positive class; ``scores`` are
OutlierLens's (higher = more outlying). With a scikit-learn estimator pass
``-est.score_samples(X)`` (or ``est.outlier_scores(X)``). Ties are treated as scikit-learn does:
samples with equal scores enter the curves together, as one threshold.
"""
import numpy as np

from . import _core


def _scores(scores):
    return np.ascontiguousarray(scores, dtype=np.float64).ravel()


def _flags(labels):
    return (np.asarray(labels).ravel() != 0).astype(np.int32)


def auroc(scores, labels):
    """Area under the ROC curve (trapezoidal rule over one point per distinct score), equal to
    ``sklearn.metrics.roc_auc_score``; the AUROC of the KIC paper's Table 1 and the quadrics
    paper's experiments. NaN when only one class is present."""
    return _core.auroc(_scores(scores), _flags(labels))


def average_precision(scores, labels):
    """AUPRC as average precision, AP = Σ_n (R_n − R_{n−1}) P_n (no interpolation), equal to
    ``sklearn.metrics.average_precision_score``; the AUPRC of the KIC paper's Table 2.
    NaN when there is no positive."""
    return _core.average_precision(_scores(scores), _flags(labels))


auprc = average_precision


def roc_curve(scores, labels):
    """(fpr, tpr, thresholds): starts at (0, 0) with threshold +inf, one point per distinct score
    in decreasing order (``sklearn.metrics.roc_curve(drop_intermediate=False)``)."""
    x, y, t = _core.roc_curve(_scores(scores), _flags(labels))
    return np.asarray(x), np.asarray(y), np.asarray(t)


def precision_recall_curve(scores, labels):
    """(recall, precision, thresholds) in decreasing-threshold order: first (0, 1) at +inf, then one
    point per distinct score down to full recall (scikit-learn's arrays reversed)."""
    x, y, t = _core.precision_recall_curve(_scores(scores), _flags(labels))
    return np.asarray(x), np.asarray(y), np.asarray(t)


def confusion(predicted, labels):
    """Counts and rates for 0/1 decisions (1 = outlier; from ``predict`` use ``pred == -1``):
    tp, fp, tn, fn, precision TP/(TP+FP), recall TP/(TP+FN), f1 = 2PR/(P+R), tnr = TN/N and
    npv = TN/(TN+FN) (GODS paper sec. 7.4), f1_bar = 2·TNR·NPV/(TNR+NPV) (F1 with the classes
    swapped, GODS paper sec. 7.4). Undefined ratios are 0."""
    return _core.confusion(_flags(predicted), _flags(labels))


def equal_error_rate(similarity, genuine):
    """Verification EER (uncertainty-aware Joint Bayesian paper sec. 5.1): the rate where the
    false-accept rate equals the false-reject rate, linearly interpolated between ROC points.
    ``similarity`` higher = more likely the same class; ``genuine`` 1 = same-class pair."""
    return _core.equal_error_rate(_scores(similarity), _flags(genuine))


def fnr_at_fpr(similarity, genuine, target_fpr=1e-3):
    """Smallest false-negative rate over thresholds whose FPR <= target_fpr (the FNR at
    FPR = 0.1 % of the uncertainty-aware Joint Bayesian paper sec. 5.2)."""
    return _core.fnr_at_fpr(_scores(similarity), _flags(genuine), float(target_fpr))


def msre(X, X_hat):
    """Mean squared reconstruction error (ACDT slides): (1/N) Σ_i ‖x_i − x̂_i‖²."""
    return _core.msre(np.asarray(X, dtype=np.float64), np.asarray(X_hat, dtype=np.float64))
