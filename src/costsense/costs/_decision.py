"""The cost-sensitive Bayes decision and the binary threshold (Elkan 2001).

Change it when a decision rule changes.

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._matrix import as_binary_costs

__all__ = ["bayes_decision", "bayes_threshold"]


def bayes_threshold(cost: Any) -> float:
    """Probability threshold of the binary cost-sensitive Bayes rule.

    Predict positive iff ``P(+|x) > C2 / (C1 + C2)`` (Elkan 2001, Theorem 1).

    Parameters
    ----------
    cost : float or pair of floats
        ``C1 / C2`` or ``(C1, C2)``.

    Returns
    -------
    float
        ``C2 / (C1 + C2)``.
    """
    c1, c2 = as_binary_costs(cost)
    return c2 / (c1 + c2)


def bayes_decision(proba: ArrayLike, cost_matrix: ArrayLike) -> NDArray[np.intp]:
    """Cost-sensitive Bayes decision: the class of least expected cost.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities, columns in the order of the cost matrix.
    cost_matrix : array-like of shape (K, K) or (n_samples, K, K)
        One matrix for all samples, or one per sample; any finite entries.

    Returns
    -------
    ndarray of shape (n_samples,)
        Column index minimising ``sum_i proba[:, i] * cost[i, j]``; ties go to the
        lowest index. For two classes this is the rule ``P(+|x) > C2 / (C1 + C2)``.
    """
    proba = np.asarray(proba, dtype=np.float64)
    matrix = np.asarray(cost_matrix, dtype=np.float64)
    if proba.ndim != 2:
        raise ValueError(f"proba must be 2-D (n_samples, K), got shape {proba.shape}.")
    if matrix.ndim == 2:
        if matrix.shape != (proba.shape[1], proba.shape[1]):
            raise ValueError(
                f"cost_matrix has shape {matrix.shape} but proba has {proba.shape[1]} "
                "columns."
            )
        expected = proba @ matrix
    elif matrix.ndim == 3 and matrix.shape[0] == proba.shape[0]:
        expected = np.einsum("ni,nij->nj", proba, matrix)
    else:
        raise ValueError(
            f"cost_matrix must be (K, K) or (n_samples, K, K), got {matrix.shape}."
        )
    return np.argmin(expected, axis=1)
