"""The Python API: generated classes, scikit-learn conventions, signs, errors, metrics."""
import inspect
import os
import pickle

import numpy as np
import pytest

import outlierlens as ol

X, Y = ol.generate("blobs", n=200, seed=2, outliers=0.1)


def test_classes_generated_from_the_registry():
    ids = [d["id"] for d in ol._core.detectors()]
    assert list(ol.detectors()) == ids
    assert ol.detectors()["quadrics-base"] is ol.QuadricsBase
    assert ol.Kic.__name__ == "Kic" and ol.Kic.__module__ == "outlierlens"
    sig = inspect.signature(ol.Quadrics)
    assert sig.parameters["lambda_"].default == 1.0  # Python keyword -> PEP 8 trailing underscore
    assert sig.parameters["epochs"].default == 500
    assert sig.parameters["normalization"].default == "none"
    assert "quadrics paper" in ol.Quadrics.__doc__.lower()


def test_constructor_does_no_work_and_params_round_trip():
    est = ol.make("kic", kernel="rbf", C=10.0)
    assert not hasattr(est, "threshold_")
    assert est.get_params()["kernel"] == "rbf"
    est.set_params(degree=3)
    assert est.degree == 3
    assert ol.make("quadrics", **{"lambda": 2.0}).lambda_ == 2.0
    with pytest.raises(TypeError):
        ol.Knn(k=3, nope=1)
    with pytest.raises(ValueError, match="unknown detector"):
        ol.make("nope")


def test_not_fitted():
    with pytest.raises(ol.NotFittedError):
        ol.Knn(novelty=True).predict(X)
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        ol.Pca().score_samples(X)


def test_bad_parameter_is_a_value_error_at_fit():
    est = ol.Knn(k=0)  # constructed without complaint (scikit-learn: validation happens in fit)
    with pytest.raises(ValueError, match="k"):
        est.fit(X)


def test_signs_and_decisions():
    est = ol.Pca(k=1, normalization="zscore").fit(X)
    s = est.outlier_scores(X)
    np.testing.assert_array_equal(est.score_samples(X), -s)
    np.testing.assert_allclose(est.decision_function(X), est.threshold_ - s)
    assert est.offset_ == -est.threshold_
    np.testing.assert_array_equal(est.predict(X) == -1, est.decision_function(X) < 0)
    np.testing.assert_array_equal(est.fit_predict(X), est.predict(X))
    np.testing.assert_array_equal(est.fit_predict(X) == -1, est.labels_ == 1)
    assert abs((est.predict(X) == -1).mean() - 0.1) < 0.02
    np.testing.assert_allclose(est.decision_scores_, s, rtol=1e-12)
    assert est.training_scores_ is est.decision_scores_
    assert est.n_features_in_ == 2 and est.normalization_ == "zscore"


def test_novelty_semantics_like_local_outlier_factor():
    """Issue #36: a row's score never depends on what else is in the matrix. knn scores a training
    point without itself (decision_scores_, labels_, fit_predict: novelty=False); score_samples /
    predict treat X as new rows (novelty=True), where the point is its own neighbour."""
    ranking = ol.Knn(k=5).fit(X)
    assert not hasattr(ranking, "score_samples") and not hasattr(ranking, "predict")
    with pytest.raises(AttributeError, match="novelty=True"):
        ranking.decision_function(X)
    np.testing.assert_array_equal(ranking.fit_predict(X), np.where(ranking.labels_ == 1, -1, 1))
    assert abs(ranking.labels_.mean() - 0.1) < 0.02
    # The leave-one-out score by hand (an independent brute force): the 5th neighbour of each row
    # among the other rows.
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(D, np.inf)
    np.testing.assert_allclose(ranking.decision_scores_, np.sort(D, axis=1)[:, 4], rtol=1e-12)

    novelty = ol.Knn(k=5, novelty=True).fit(X)
    assert not hasattr(novelty, "fit_predict")
    with pytest.raises(AttributeError, match="novelty=False"):
        novelty.fit_predict(X)
    np.testing.assert_array_equal(novelty.decision_scores_, ranking.decision_scores_)
    s = novelty.score_samples(X)
    np.fill_diagonal(D, 0.0)  # as new rows: the point itself is its nearest neighbour
    np.testing.assert_allclose(-s, np.sort(D, axis=1)[:, 4], rtol=1e-12)
    # The WBC case of the issue: one more row appended must not change the others' scores.
    bigger = novelty.score_samples(np.vstack([X, X[:1]]))
    np.testing.assert_array_equal(bigger[:len(X)], s)
    np.testing.assert_array_equal(novelty.predict(np.vstack([X, X[:1]]))[:len(X)], novelty.predict(X))
    # and the row order does not matter
    perm = np.random.RandomState(0).permutation(len(X))
    np.testing.assert_array_equal(novelty.score_samples(X[perm]), s[perm])


def test_pickle_and_dataframe():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(X, columns=["a", "b"])
    est = ol.Pca(k=1).fit(df)
    assert list(est.feature_names_in_) == ["a", "b"]
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.score_samples(df), est.score_samples(df))


def test_metrics_match_sklearn():
    from sklearn.metrics import average_precision_score, roc_auc_score
    s = ol.Knn().fit(X).decision_scores_
    assert ol.metrics.auroc(Y, s) == pytest.approx(roc_auc_score(Y, s), abs=1e-12)
    assert ol.metrics.average_precision(Y, s) == pytest.approx(average_precision_score(Y, s), abs=1e-12)
    fpr, tpr, _ = ol.metrics.roc_curve(Y, s)
    assert fpr[0] == 0 and tpr[-1] == 1
    c = ol.metrics.confusion(Y, ol.Knn().fit(X).labels_)
    assert c["tp"] + c["fp"] + c["tn"] + c["fn"] == len(Y)
    assert c["tp"] + c["fn"] == Y.sum()  # y_true first: the positives are the labelled outliers
    # EER of a perfect similarity is 0
    assert ol.metrics.equal_error_rate(np.array([1, 1, 0, 0]), np.array([3.0, 2.0, 1.0, 0.0])) == 0.0
    # Labels coded 1/2 or -1/1: the larger value is the outlier class, as roc_auc_score's pos_label.
    assert ol.metrics.auroc(Y + 1, s) == pytest.approx(roc_auc_score(Y, s), abs=1e-12)


def test_metrics_refuse_the_old_argument_order_and_one_class():
    """Issue #36: auroc(scores, labels), the order before 0.2, returned NaN when called the
    scikit-learn way; now the reverse order is refused with a message, as is a single class."""
    s = ol.Knn().fit(X).decision_scores_
    for f in (ol.metrics.auroc, ol.metrics.average_precision, ol.metrics.roc_curve):
        with pytest.raises(ValueError, match="look swapped"):
            f(s, Y)
    with pytest.raises(ValueError, match="only one class"):
        ol.metrics.auroc(np.zeros(len(s)), s)
    with pytest.raises(ValueError, match="3 distinct values"):
        ol.metrics.auroc(np.arange(len(s)) % 3, s)


def test_verify_runs():
    Xc, yc, sigma = ol.generate("classes", n=120, seed=1, return_sigma=True, classes=4, dim=3)
    r = ol.verify(Xc[:60], yc[:60], Xc[60:], yc[60:], sigma[:60], sigma[60:], method="uajb", dim=2)
    assert 0.0 <= r["eer"] <= 0.5 and r["n_pairs"] == 60 * 59 // 2
    assert r["similarity"].shape == (r["n_pairs"],)


def test_works_without_sklearn():
    """scikit-learn is optional: the same API on a minimal base class."""
    import subprocess
    import sys
    code = ("import sys; sys.modules['sklearn'] = None\n"
            "import numpy as np, outlierlens as ol\n"
            "assert not ol.HAVE_SKLEARN\n"
            "X, y = ol.generate('blobs', n=100, seed=1, outliers=0.1)\n"
            "e = ol.Knn(k=3).fit(X)\n"
            "assert e.get_params()['k'] == 3 and set(np.unique(e.fit_predict(X))) == {-1, 1}\n"
            "try:\n    ol.Pca().predict(X)\nexcept ol.NotFittedError:\n    print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "ok", r.stderr


# --- guarded model files (issue #34 item 2): the CLI's writer and a bounded reader ---------------

def _fitted():
    X, _ = ol.generate("moons", n=60, seed=3)
    return ol.Knn(k=3).fit(X)


def test_save_model_refuses_special_and_read_only_targets(tmp_path):
    est = _fitted()
    # Before: /dev/full (and a symlink, a FIFO) was replaced by a regular file through os.replace.
    for target in ("/dev/full", "/dev/null"):
        with pytest.raises(ValueError, match="refusing to replace"):
            est.save_model(target)
        assert not os.path.isfile(target)  # still the device
    real = tmp_path / "real.json"
    real.write_text("keep")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with pytest.raises(ValueError, match="symbolic link"):
        est.save_model(link)
    assert link.is_symlink() and real.read_text() == "keep"
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="refusing to replace"):
        est.save_model(fifo)
    locked = tmp_path / "locked.json"
    locked.write_text("keep")
    locked.chmod(0o444)
    with pytest.raises(ValueError, match="read-only"):
        est.save_model(locked)
    assert locked.read_text() == "keep"
    # An ordinary path still works and loads back; no temporary file is left behind.
    ok = tmp_path / "model.json"
    est.save_model(ok)
    X, _ = ol.generate("moons", n=60, seed=3)
    # A loaded knn model is there to score new rows (novelty=True); the fitted one ranks its training rows.
    np.testing.assert_array_equal(ol.load_model(ok).score_samples(X), est.set_params(novelty=True).score_samples(X))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.json", "link.json", "locked.json", "model.json",
                                                          "real.json"]


def test_load_model_reads_regular_files_only_and_bounded(tmp_path):
    # Before: load_model('/dev/zero') grew to 22.5 GB; a FIFO blocked forever.
    for special in ("/dev/zero", "/dev/null"):
        with pytest.raises(ValueError, match="not a regular file"):
            ol.load_model(special)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        ol.load_model(fifo)  # returns at once (opened without blocking)
    with pytest.raises(ValueError, match="regular file"):
        ol.load_model(tmp_path)  # a directory
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate((256 << 20) + 1)  # sparse: no disk used
    with pytest.raises(ValueError, match="more than"):
        ol.load_model(big)


def test_fit_warnings_are_an_attribute():
    # Label-free checks (issue #33): 25 % of the rows repeat one row -> "duplicates".
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    X[1:50] = X[0]
    est = ol.Knn().fit(X)
    assert [c for c, _ in est.warnings_] == ["duplicates"]
    assert "repeat another row" in est.warnings_[0][1]
    assert ol.Knn().fit(rng.normal(size=(200, 3))).warnings_ == []


def test_consensus_and_agreement_against_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(150, 2)), rng.uniform(5, 8, size=(8, 2))])
    cons = ol.Consensus().fit(X)
    assert cons.figures_["members"] == 3
    y = np.r_[np.zeros(150), np.ones(8)]
    assert ol.metrics.auroc(y, cons.decision_scores_) > 0.99
    a = ol.agreement(X, detectors=("knn", "iforest", "mcd"), top=8)
    assert a["detectors"] == ["knn", "iforest", "mcd"]
    est = a["estimators"]
    for i, di in enumerate(a["detectors"]):
        for j, dj in enumerate(a["detectors"]):
            rho = scipy_stats.spearmanr(est[di].training_scores_, est[dj].training_scores_).correlation
            assert abs(a["spearman"][i, j] - rho) < 1e-12
    # flagged_by counts the detectors whose own decision (predict == -1) flags the row.
    # knn's labels_ are the training decisions (the point left out), as agreement uses.
    expected = sum(est[d].labels_ for d in a["detectors"])
    assert np.array_equal(a["flagged_by"], expected)
    top = [set(np.argsort(-est[d].training_scores_, kind="stable")[:8]) for d in a["detectors"]]
    assert abs(a["top_overlap"][0, 1] - len(top[0] & top[1]) / 8) < 1e-12
    with pytest.raises(ValueError):
        ol.agreement(X, detectors=("knn",))


def test_label_free_thresholds_by_hand():
    s = np.array([1.0, 2.0, 3.0, 4.0, 100.0])
    # median 3, |s - 3| = (2, 1, 0, 1, 97): MAD 1 -> 3 + 3 * 1.4826.
    assert ol.threshold(s, "mad") == pytest.approx(3 + 3 * 1.4826, abs=1e-12)
    # numpy quartiles 2 and 4: 4 + 1.5 * 2.
    assert ol.threshold(s, "iqr") == pytest.approx(7.0, abs=1e-12)
    assert ol.threshold(s, "iqr") == pytest.approx(np.quantile(s, 0.75) + 1.5 * (np.quantile(s, 0.75) - np.quantile(s, 0.25)))
    two = np.r_[np.zeros(10), np.full(5, 10.0)]
    t = ol.threshold(two, "otsu")
    assert 0 < t < 10 and (two > t).sum() == 5
    with pytest.raises(ValueError, match="mad, iqr, otsu"):
        ol.threshold(s, "guess")


def test_exceptions_escape_control_characters_from_files():
    # #51: a detector id with ESC sequences in a session reached the terminal raw through the
    # exception's message (the CLI and the GUI escaped it); every core message is escaped now.
    import json
    session = {"format": "outlierlens-session", "version": 1,
               "data": {"path": "moons.csv"},
               "detector": {"id": "\x1b[31mevil\x1b[0m", "params": {}}}
    with pytest.raises(ValueError) as err:
        ol.model_from_json(json.dumps(session))
    message = str(err.value)
    assert "\x1b" not in message
    assert "\\x1B[31mevil" in message


def test_flags_are_validated_and_unknown_keywords_name_the_class():
    # #53: novelty="yes" was taken as true, and an unknown keyword did not say whose it was.
    X = np.random.RandomState(0).randn(40, 2)
    with pytest.raises(ValueError, match=r"Knn: novelty must be True or False, got 'yes'"):
        ol.Knn(novelty="yes").fit(X)
    with pytest.raises(ValueError, match="record_history"):
        ol.Gods(record_history=1).fit(X)
    with pytest.raises(TypeError, match=r"^Knn: .*'bogus'.*its parameters are k, contamination"):
        ol.Knn(bogus=1)
    assert ol.Knn(novelty=np.bool_(True)).fit(X).novelty


def test_acdt_defaults_fit_a_small_sample():
    # #53: Acdt() needed 16 rows (k = 15) and 12 (L = 12) although its auto k adapts to n:
    # scikit-learn's checks fit 10 rows. The default L is limited to n without a warning.
    X = np.random.RandomState(3).randn(10, 2)
    est = ol.Acdt().fit(X)
    assert est.resolved_params_["k"] == 9 and est.resolved_params_["L"] == 10
    assert np.isfinite(est.decision_scores_).all()
    assert not [w for w in est.warnings_ if w[0] == "clamped"]
