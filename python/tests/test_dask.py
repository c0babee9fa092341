"""Scaling past one process with Dask: a model fitted on a sample scores a partitioned data set
block by block; the result equals single-process scoring (the fitted detector's const methods are
thread-safe and release the GIL, so the threaded scheduler runs blocks in parallel)."""
import numpy as np
import pytest

import outlierlens as ol

da = pytest.importorskip("dask.array")


def test_map_blocks_equals_single_process():
    X, _ = ol.generate("seam", n=4000, seed=5, outliers=0.05)
    rng = np.random.default_rng(0)
    sample = X[rng.choice(len(X), 400, replace=False)]
    est = ol.Knn(k=10, normalization="zscore", novelty=True).fit(sample)

    dX = da.from_array(X, chunks=(500, X.shape[1]))
    scores = dX.map_blocks(lambda b: est.score_samples(b), dtype=np.float64, drop_axis=1)
    labels = dX.map_blocks(lambda b: est.predict(b), dtype=np.int64, drop_axis=1)
    got = scores.compute(scheduler="threads")
    np.testing.assert_array_equal(got, est.score_samples(X))
    np.testing.assert_array_equal(labels.compute(scheduler="threads"), est.predict(X))


def test_map_partitions_with_a_saved_model(tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, _ = ol.generate("moons", n=2000, seed=6, outliers=0.05)
    df = pd.DataFrame(X, columns=["x", "y"])
    path = ol.Kic(kernel="rbf", normalization="zscore").fit(df.sample(300, random_state=1).to_numpy()) \
        .save_model(tmp_path / "kic.json")
    est = ol.load_model(path)  # what a worker on another machine would do with the file
    ddf = dd.from_pandas(df, npartitions=4)
    got = ddf.map_partitions(lambda part: pd.Series(est.score_samples(part.to_numpy()), index=part.index),
                             meta=("score", "f8")).compute(scheduler="threads")
    # Kernel scores are BLAS products whose summation order depends on the number of rows in a
    # call, so partitions agree with one big call to rounding (measured: 1e-12 relative on this
    # ill-conditioned rbf model; kNN above is exact).
    np.testing.assert_allclose(got.to_numpy(), est.score_samples(X), rtol=1e-9, atol=0)
    parts = np.concatenate([est.score_samples(X[i:i + 500]) for i in range(0, len(X), 500)])
    np.testing.assert_array_equal(got.to_numpy(), parts)  # same blocks, same bits
