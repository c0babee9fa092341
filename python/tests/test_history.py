"""record_history=True: the training path the app's timeline replays, from Python. The model at a
recorded step scores like an independent fit stopped there (quadrics: epochs = k; gods: max_iter
= k), the last step is the fitted model, and detectors without steps have no such parameter."""
import numpy as np
import pytest

import outlierlens as ol


def _seam(n=200, seed=3):
    t = np.random.default_rng(seed).uniform(0, 2 * np.pi, n)
    return np.c_[np.cos(t), np.sin(t), 0.3 * np.sin(2 * t)]


def test_quadrics_step_equals_a_fit_stopped_there():
    X = _seam()
    est = ol.Quadrics(epochs=25, tol=0.0, record_history=True).fit(X)
    h = est.history_
    assert h["unit"] == "epoch"
    assert list(h["step"]) == list(range(26))
    assert np.all(np.isfinite(h["loss"])) and h["bytes"] > 0
    for k in (1, 4):
        stopped = ol.Quadrics(epochs=k, tol=0.0).fit(X)
        at = est.at_step(k)
        assert at.step_ == k
        np.testing.assert_allclose(at.decision_scores_, stopped.decision_scores_, rtol=0, atol=1e-12)
        np.testing.assert_allclose(at.outlier_scores(X), stopped.outlier_scores(X), rtol=0, atol=1e-12)
        # The threshold is a quantile of those scores: held to the same 1e-12. (Exact equality failed
        # on an AVX-512 machine at 25879c1 already: 0.5455065053725048 vs ...049; Eigen's vectorised
        # sums start where the data's alignment allows, so the last bit follows the addresses.)
        assert abs(at.threshold_ - stopped.threshold_) <= 1e-12
    np.testing.assert_allclose(est.at_step(-1).decision_scores_, est.decision_scores_, rtol=0, atol=1e-12)
    assert not np.allclose(est.at_step(0).decision_scores_, est.decision_scores_)
    # The parent is untouched by at_step.
    assert not hasattr(est, "step_")


def test_gods_step_and_refusals():
    X = _seam(150, 5)
    est = ol.Gods(max_iter=20, record_history=True).fit(X)
    assert est.history_["unit"] == "iteration"
    stopped = ol.Gods(max_iter=3).fit(X)
    np.testing.assert_allclose(est.at_step(3).decision_scores_, stopped.decision_scores_, rtol=0, atol=1e-10)
    with pytest.raises(IndexError):
        est.at_step(10_000)
    plain = ol.Gods(max_iter=5).fit(X)
    assert not hasattr(plain, "history_")
    with pytest.raises(ValueError, match="record_history=True"):
        plain.at_step(0)
    # A refit without recording drops the old path.
    est.set_params(record_history=False).fit(X)
    assert not hasattr(est, "history_")


def test_the_path_survives_pickling():
    import pickle
    X = _seam(120, 8)
    est = ol.Quadrics(epochs=6, tol=0.0, record_history=True).fit(X)
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.history_["step"], est.history_["step"])
    np.testing.assert_allclose(back.at_step(2).decision_scores_, est.at_step(2).decision_scores_, rtol=0, atol=0)


def test_only_iterative_detectors_have_the_parameter():
    assert "record_history" in ol.Quadrics().get_params()
    assert "record_history" in ol.Bods().get_params()
    assert "record_history" not in ol.Knn().get_params()
    assert "record_history" not in ol.Iforest().get_params()
