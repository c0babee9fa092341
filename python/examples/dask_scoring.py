"""Score a partitioned data set with Dask using a model fitted on a sample (issue #21, item 5).

    PYTHONPATH=build/python /usr/bin/python3 python/examples/dask_scoring.py

The model travels to the workers as its JSON (pickling an estimator does that; with
dask.distributed the same code runs on a cluster). Each block is scored independently, which is
valid because scoring new rows does not depend on the other rows.
"""
import numpy as np
import dask.array as da

import outlierlens as ol

X, y = ol.generate("seam", n=200_000, seed=1, outliers=0.01)
rng = np.random.default_rng(0)
sample = X[rng.choice(len(X), 5_000, replace=False)]
est = ol.Knn(k=10, normalization="zscore", novelty=True).fit(sample)

dX = da.from_array(X, chunks=(25_000, X.shape[1]))                 # 8 partitions
scores = dX.map_blocks(est.score_samples, drop_axis=1, dtype=np.float64)
s = scores.compute(scheduler="threads")                            # the GIL is released while scoring

assert np.array_equal(s, est.score_samples(X))                     # = single-process scores
print(f"AUROC on {len(X)} rows scored in {dX.numblocks[0]} blocks: {ol.metrics.auroc(y, -s):.4f}")
