"""Issue #36: what scikit-learn and PyOD users look for — decision_scores_ / labels_,
predict_proba / predict_confidence (PyOD's formulas, written out here independently), random_state,
n_jobs, ConvergenceWarning and the label-free warnings as Python warnings, feature names kept by
save_model, __version__, chunked (interruptible) scoring."""
import json
import math
import warnings

import numpy as np
import pytest

import outlierlens as ol

X, Y = ol.generate("blobs", n=300, seed=5, outliers=0.1)
NEW, _ = ol.generate("blobs", n=80, seed=6, outliers=0.2)


def test_version_is_the_project_version():
    import re
    from pathlib import Path
    import os
    root = Path(os.environ.get("OLENS_SOURCE_DIR", Path(__file__).resolve().parents[2]))
    declared = re.search(r"project\(OutlierLens VERSION ([0-9.]+)", (root / "CMakeLists.txt").read_text()).group(1)
    assert ol.__version__ == declared


def test_predict_proba_linear_and_unify_as_pyod_defines_them():
    est = ol.Pca(k=1, normalization="zscore").fit(X)
    train, test = est.decision_scores_, est.outlier_scores(NEW)
    # PyOD BaseDetector.predict_proba, method="linear": min-max scaling fitted on the training scores.
    p_lin = np.clip((test - train.min()) / (train.max() - train.min()), 0, 1)
    got = est.predict_proba(NEW)
    assert got.shape == (len(NEW), 2)
    np.testing.assert_allclose(got[:, 1], p_lin, rtol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)
    # method="unify": erf((s - mean) / (std * sqrt 2)) clipped, with numpy's std (ddof 0) as PyOD's.
    p_uni = np.clip([math.erf(v) for v in (test - train.mean()) / (train.std() * math.sqrt(2))], 0, 1)
    np.testing.assert_allclose(est.predict_proba(NEW, method="unify")[:, 1], p_uni, rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="linear"):
        est.predict_proba(NEW, method="softmax")


def test_predict_confidence_is_pyods_exceed():
    binom = pytest.importorskip("scipy.stats").binom
    est = ol.Iforest(contamination=0.1).fit(X)
    train, test = est.decision_scores_, est.outlier_scores(NEW)
    n = len(train)
    # PyOD BaseDetector.predict_confidence (ExCeeD), written out row by row.
    expected = []
    for s in test:
        m = np.count_nonzero(train <= s)
        p = (1 + m) / (2 + n)
        c = 1 - binom.cdf(n - int(n * 0.1), n, p)
        expected.append(c if s > est.threshold_ else 1 - c)
    np.testing.assert_allclose(est.predict_confidence(NEW), expected, rtol=1e-12)
    proba, conf = est.predict_proba(NEW, return_confidence=True)
    np.testing.assert_array_equal(conf, est.predict_confidence(NEW))
    assert np.all((conf >= 0) & (conf <= 1))


def test_random_state_accepts_none_int_and_random_state():
    assert "random_state" in ol.Iforest().get_params() and "seed" not in ol.Iforest().get_params()
    a = ol.Iforest(random_state=3).fit(X).decision_scores_
    np.testing.assert_array_equal(a, ol.Iforest(random_state=3).fit(X).decision_scores_)
    np.testing.assert_array_equal(a, ol.make("iforest", seed=3).fit(X).decision_scores_)  # the registry's name
    assert not np.array_equal(a, ol.Iforest(random_state=4).fit(X).decision_scores_)
    r1 = ol.Iforest(random_state=np.random.RandomState(7)).fit(X).decision_scores_
    r2 = ol.Iforest(random_state=np.random.RandomState(7)).fit(X).decision_scores_
    np.testing.assert_array_equal(r1, r2)
    ol.Iforest(random_state=None).fit(X)  # a fresh seed; must simply work
    with pytest.raises(ValueError, match="random_state"):
        ol.Iforest(random_state="seven").fit(X)


def test_n_jobs_does_not_change_the_result():
    big, _ = ol.generate("blobs", n=3000, seed=2)
    one = ol.Iforest(n_jobs=1).fit(big)
    every = ol.Iforest(n_jobs=-1).fit(big)
    np.testing.assert_array_equal(one.decision_scores_, every.decision_scores_)
    np.testing.assert_array_equal(one.outlier_scores(NEW), ol.Iforest(n_jobs=None).fit(big).outlier_scores(NEW))
    with pytest.raises(ValueError, match="n_jobs"):
        ol.Iforest(n_jobs=0).fit(big)
    # #53: kic's rbf training scores changed with n_jobs (6e-13): its BLAS factorisation ran on the
    # job's share of threads, and OpenBLAS rounds differently on one thread than on two. The BLAS
    # now uses the machine's cores whatever n_jobs says (as scikit-learn leaves BLAS to threadpoolctl).
    rows = np.random.default_rng(0).normal(size=(3000, 5))
    for kw in ({"kernel": "rbf"}, {"kernel": "rbf", "landmarks": 500}, {}):
        a = ol.Kic(n_jobs=1, **kw).fit(rows)
        b = ol.Kic(n_jobs=2, **kw).fit(rows)
        np.testing.assert_array_equal(a.decision_scores_, b.decision_scores_)
        np.testing.assert_array_equal(a.score_samples(rows[:100] + 0.1), b.score_samples(rows[:100] + 0.1))


def test_convergence_and_diagnostic_warnings_are_python_warnings():
    # gods stopped after one Riemannian CG iteration cannot have met its gradient tolerance.
    with pytest.warns(ol.ConvergenceWarning, match="iteration limit"):
        est = ol.Gods(max_iter=1).fit(X)
    assert ("not_converged" in [c for c, _ in est.warnings_]) and est.figures_["converged"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", ol.ConvergenceWarning)  # the default max_iter converges here
        assert ol.Gods(max_iter=3000).fit(X).figures_["converged"] == 1
    rng = np.random.default_rng(0)
    dup = rng.normal(size=(200, 3))
    dup[1:50] = dup[0]
    with pytest.warns(ol.OutlierLensWarning, match=r"\[duplicates\]"):
        ol.Knn().fit(dup)


def test_save_model_keeps_feature_names(tmp_path):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(X, columns=["width", "height"])
    est = ol.Pca(k=1).fit(df)
    path = est.save_model(tmp_path / "m.json")
    assert json.loads(path.read_text())["feature_names"] == ["width", "height"]
    again = ol.load_model(path)
    assert list(again.feature_names_in_) == ["width", "height"]
    np.testing.assert_array_equal(again.score_samples(df), est.score_samples(df))
    with pytest.raises(ValueError, match="feature names"):
        again.score_samples(df.rename(columns={"width": "w"}))


def test_chunked_scoring_equals_one_call(monkeypatch):
    """Scoring runs in chunks so that Ctrl+C is seen between them, sized by the method's speed
    (about a quarter of a second each, in multiples of 64 rows); scores are row-wise, so any
    chunking gives the same numbers as the core's single call, to the bit."""
    from outlierlens import _estimators
    many, _ = ol.generate("blobs", n=40000, seed=9)
    for est, rows in ((ol.Knn(k=5, novelty=True).fit(many[:2000]), many),
                      (ol.Kic(kernel="rbf").fit(many[:2000]), many[:5000])):  # kic: products, vectorised tails
        single = np.asarray(est._model.score_new(np.asfortranarray(rows), 0))
        for seconds in (_estimators._SCORE_CHUNK_SECONDS, 1e-4):  # the default, and chunks of 64-ish rows
            monkeypatch.setattr(_estimators, "_SCORE_CHUNK_SECONDS", seconds)
            np.testing.assert_array_equal(est.outlier_scores(rows), single)


def test_an_automatic_approximation_is_said_aloud():
    """Issue #36: default Kic() switched to Nyström above 6000 rows silently (only
    resolved_params_ showed it); now a warning names it, and an explicit choice stays quiet."""
    big, _ = ol.generate("blobs", n=6100, seed=1)
    with pytest.warns(ol.OutlierLensWarning, match=r"\[approximate\].*Nyström"):
        est = ol.Kic(kernel="rbf", normalization="zscore").fit(big)
    assert est.resolved_params_["landmarks"] > 0 and "approximate" in [c for c, _ in est.warnings_]
    chosen = ol.Kic(kernel="rbf", normalization="zscore", landmarks=500).fit(big)
    assert "approximate" not in [c for c, _ in chosen.warnings_]


def test_non_finite_scores_are_an_error_naming_the_cause():
    """Issue #36: scores of new rows that overflow were handed out as NaN/inf; now a ValueError
    names the count, the first row and the fix, as the CLI does."""
    est = ol.Mcd().fit(X)
    far = X[:5] * 1e300
    with pytest.raises(ValueError, match=r"non-finite score\(s\).*first at row 1.*zscore"):
        est.score_samples(far)


def test_contamination_auto_is_the_methods_own_cut_off():
    """Issue #36: contamination="auto" where the method has a natural threshold. LOF's is
    scikit-learn's own default (offset -1.5), so with one MinPts the decisions must equal
    LocalOutlierFactor's fit_predict (an independent implementation) row for row."""
    from sklearn.neighbors import LocalOutlierFactor
    Xs, _ = ol.generate("blobs", n=400, seed=2, outliers=0.1)
    ours = ol.Lof(k=20, k_min=0, contamination="auto").fit_predict(Xs)
    np.testing.assert_array_equal(ours, LocalOutlierFactor(n_neighbors=20).fit_predict(Xs))
    est = ol.Iforest(contamination="auto").fit(Xs)
    assert est.threshold_ == 0.5  # Liu et al.: s = 0.5 is a point of average path length
    np.testing.assert_array_equal(est.labels_, (est.decision_scores_ > 0.5).astype(int))
    assert est.resolved_params_["contamination"] == pytest.approx(est.labels_.mean(), abs=1e-15)
    assert est.get_params()["contamination"] == "auto"
    from scipy.stats import chi2
    assert ol.Mcd(contamination="auto").fit(Xs).threshold_ == pytest.approx(chi2.ppf(0.975, 2), rel=1e-9)
    assert ol.Ocsvm(contamination="auto").fit(Xs).threshold_ == 0.0
    with pytest.raises(ValueError, match="contamination"):  # no natural cut-off: knn's distance has no scale
        ol.Knn(contamination="auto").fit(Xs)
