"""Data shared by the tests of the shared base."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_classification


def data(n: int = 160, seed: int = 0):
    X, y = make_classification(
        n_samples=n,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        weights=[0.7],
        flip_y=0.1,
        random_state=seed,
    )
    return X, y


def four_part_rows(n: int, seed: int) -> np.ndarray:
    """Random money-like ``[FP, FN, TP, TN]`` rows, with costs of being right."""
    rng = np.random.default_rng(seed)
    fp = rng.lognormal(0.0, 1.0, n)
    fn = rng.lognormal(1.0, 1.0, n)
    tp = rng.uniform(0.0, 0.5, n) * fn
    tn = rng.uniform(0.0, 0.2, n) * fp
    return np.column_stack([fp, fn, tp, tn])
