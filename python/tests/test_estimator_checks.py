"""scikit-learn's own estimator checks on every generated estimator.

check_estimator's data sets are tiny (10–300 rows, often 2 features). Every estimator is checked
with no parameters at all (issue #53): acdt's defaults adapt to 10 rows (auto k ≤ n − 1, the
default L = 12 limited to n), ic's auto degree and gods' auto K pass as they are.
Since issue #17 gods/acdt defaults fit 2-D data and kods decides by `contamination`.

No check is expected to fail (issue #36 removed the list of subset / order exceptions).
"""
import warnings

import pytest

import outlierlens as ol

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402


def failing_checks(estimator):
    failures = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for est, check in check_estimator(estimator, generate_only=True):
            name = getattr(check, "func", check).__name__
            try:
                check(est)
            except Exception as e:  # noqa: BLE001 - we record every failing check
                failures[name] = f"{type(e).__name__}: {e}"
    return failures


# Leave-one-out detectors (knn, lof, ksp, acdt, consensus: a training point is scored without
# itself) are checked in both of LocalOutlierFactor's modes: novelty=False offers fit_predict,
# novelty=True the methods that score new rows.
CASES = [(d, {}) for d in ol.detectors()] + [
    (d, {"novelty": True}) for d, cls in ol.detectors().items() if cls._leave_one_out]


@pytest.mark.parametrize("detector_id,extra", CASES, ids=[d + ("-novelty" if e else "") for d, e in CASES])
def test_check_estimator(detector_id, extra):
    """Every check passes, with no exception list (issue #36): subset and sample-order invariance
    hold because score_samples / predict always treat X as new rows."""
    failures = failing_checks(ol.make(detector_id, **extra))
    assert failures == {}, failures


def test_auto_defaults_fit_2d_and_paper_settings_say_why_not():
    """Issue #17: the defaults adapt (resolved_params_ says to what); the paper's fixed settings
    still stop on 2-D data with a ValueError naming the cause."""
    import numpy as np
    X = np.random.RandomState(0).randn(30, 2)
    assert ol.make("gods").fit(X).resolved_params_["K"] == 2
    assert ol.make("acdt", k=5, L=3).fit(X).resolved_params_["d"] == 1
    for detector_id, params, needle in [("acdt", dict(d=2, k=5, L=3), "d=2"), ("gods", dict(K=3), "K=3")]:
        with pytest.raises(ValueError, match=needle):
            ol.make(detector_id, **params).fit(X)
