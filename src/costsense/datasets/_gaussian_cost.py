"""Cubature of a black-box classifier's error rates on a known Gaussian.

For :meth:`~costsense.datasets.GaussianProblem.expected_cost`: an equal-probability
polar grid for two features, scrambled Sobol points otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.stats import norm, qmc

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__: list[str] = []


def grid_rate(
    predict: Callable[[FloatArray], IntArray],
    mean: FloatArray,
    chol: FloatArray,
    wrong: int,
    n: int,
) -> float:
    """Fraction of a 2-D Gaussian's mass that ``predict`` labels ``wrong``.

    A midpoint grid of ``n x n`` equal-probability cells in the whitened polar
    coordinates of ``N(mean, chol chol')``.
    """
    v = (np.arange(n) + 0.5) / n
    radius = np.sqrt(-2.0 * np.log1p(-v))
    theta = 2 * np.pi * (np.arange(n) + 0.5) / n
    directions = np.c_[np.cos(theta), np.sin(theta)]
    Z = (radius[:, None, None] * directions[None, :, :]).reshape(-1, 2)
    X = mean + Z @ chol.T
    return wrong_fraction(predict, X, wrong)


def sobol_rate(
    predict: Callable[[FloatArray], IntArray],
    mean: FloatArray,
    chol: FloatArray,
    wrong: int,
    n: int,
    seed: int,
) -> float:
    """Fraction of a Gaussian's mass that ``predict`` labels ``wrong``.

    ``n`` (rounded up to a power of 2) scrambled Sobol points of seed ``seed``,
    mapped through the normal quantile to ``N(mean, chol chol')``.
    """
    m = max(int(np.ceil(np.log2(n))), 1)
    points = qmc.Sobol(mean.shape[0], scramble=True, seed=seed).random_base2(m)
    Z = norm.ppf(np.clip(points, 1e-16, 1 - 1e-16))
    X = mean + Z @ chol.T
    return wrong_fraction(predict, X, wrong)


def as_predict(classifier: Any) -> Callable[[FloatArray], IntArray]:
    """``classifier.predict``, or ``classifier`` itself if it is a function."""
    if hasattr(classifier, "predict") and callable(classifier.predict):
        return classifier.predict
    if callable(classifier):
        return classifier
    raise TypeError(
        "classifier must be a fitted estimator with a predict method or a callable "
        f"X -> labels in {{-1, +1}}, got {type(classifier).__name__}."
    )


def wrong_fraction(
    predict: Callable[[FloatArray], IntArray], X: FloatArray, wrong: int
) -> float:
    """Fraction of the points ``X`` that ``predict`` labels ``wrong``, in chunks."""
    chunk = 2**20
    n_wrong = 0
    for start in range(0, X.shape[0], chunk):
        part = X[start : start + chunk]
        pred = np.asarray(predict(part))
        if pred.shape != (part.shape[0],):
            raise ValueError(
                f"The classifier returned shape {pred.shape} for {part.shape[0]} "
                "points; expected one label per point."
            )
        labels = set(np.unique(pred).tolist())
        if not labels <= {-1, 1}:
            raise ValueError(
                f"The classifier predicted labels {sorted(labels, key=str)}; "
                "expected_cost needs labels in {-1, +1} (+1 the positive class)."
            )
        n_wrong += int(np.count_nonzero(pred == wrong))
    return n_wrong / X.shape[0]
