"""Split criteria: additive per-sample statistics plus one impurity function.

A criterion is two things (the division of labour of scikit-learn's tree criteria):

- the **statistics** ``s_n`` of each sample, a row of numbers whose weighted sum
  ``S = sum_n w_n s_n`` over a node is all the impurity needs. Sums are additive,
  so the left and right sums of every threshold come from one cumulative sum, and a
  child's histogram is its parent's minus its sibling's;
- the **impurity** ``I(W, S)`` of a node of total weight ``W`` and summed
  statistics ``S`` (:func:`node_impurity`, compiled).

The criteria of paper 004 (Shi & Wang, section 3), on label vectors ``y^n`` of
``C`` task scores (one-hot for ordinary classification):

``gini``, ``entropy``, ``misclassification``
    ``s_n`` = the one-hot vector of ``argmax_c y^n_c`` (the paper's CBRF labels);
    ``p = S / W`` and eq. (2) ``1 - sum p_c^2``, eq. (5) ``-sum p_c log2 p_c``,
    eq. (6) ``1 - max p``.
``cs_gini``
    ``s_n = y^n``; eq. (8) ``p_c = S_c / sum_k S_k`` (D'Ambrosio & Tutore), then
    eq. (2). With one-hot labels this is ``gini`` exactly. A node of identical
    non-one-hot label vectors has a positive impurity.
``pairwise``
    ``s_n`` = ``((d^n_{i->j})^2, d^n_{i->j})`` for every ordered pair ``i != j``,
    with eq. (11) ``d^n_{i->j} = max(y^n_i - y^n_j, 0)``; eq. (10)
    ``f_{i->j} = sum_n (d^n_{i->j})^2 / sum_n (d^n_{i->j} + d^n_{j->i})`` and
    eq. (9) ``I_pdc = 1/(C^2 - C) sum_{i != j} (f_{i->j} - f_{i->j}^2)`` (Mac Aodha
    & Brostow 2013). *Erratum*: paper 004's eq. (10) prints ``d_{i->i}`` in the
    denominator, which is identically zero (and would give every one-hot node
    ``f = 1`` and impurity 0); Mac Aodha & Brostow's ``d_{j->i}`` is used. A pair
    with no difference in the node (``0 / 0``) contributes ``f = 0``.
``squared_error`` (regression)
    ``s_n = (y_n, y_n^2)``; the impurity is the weighted variance
    ``S_2 / W - (S_1 / W)^2``; ``W`` times it is eq. (7)'s sum of squares.

Names map to integer codes (:data:`CRITERIA`) that the compiled builder branches on;
an unknown name raises, it never falls back to another criterion.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

__all__ = [
    "CLASSIFICATION_CRITERIA",
    "CRITERIA",
    "REGRESSION_CRITERIA",
    "criterion_code",
    "impurity",
    "node_impurity",
    "sample_statistics",
]

GINI, ENTROPY, MISCLASSIFICATION, CS_GINI, PAIRWISE, SQUARED_ERROR = range(6)

#: criterion name -> code used by the compiled builder
CRITERIA: dict[str, int] = {
    "gini": GINI,
    "entropy": ENTROPY,
    "misclassification": MISCLASSIFICATION,
    "cs_gini": CS_GINI,
    "pairwise": PAIRWISE,
    "squared_error": SQUARED_ERROR,
}
CLASSIFICATION_CRITERIA = frozenset(
    {"gini", "entropy", "misclassification", "cs_gini", "pairwise"}
)
REGRESSION_CRITERIA = frozenset({"squared_error"})


def criterion_code(name: str) -> int:
    """Return the builder's code of criterion ``name``.

    Raises
    ------
    ValueError
        For an unknown name (no silent fallback).
    """
    if name not in CRITERIA:
        raise ValueError(
            f"criterion={name!r} is not known; choose one of {sorted(CRITERIA)}."
        )
    return CRITERIA[name]


def sample_statistics(name: str, labels: FloatArray) -> FloatArray:
    """Per-sample additive statistics ``s_n`` of criterion ``name``.

    Parameters
    ----------
    name : str
        Criterion name.
    labels : ndarray of shape (n_samples, C)
        Task-score label vectors (classification) or ``(n_samples, 1)`` targets
        (``squared_error``).

    Returns
    -------
    ndarray of shape (n_samples, m)
        ``C`` columns (one-hot argmax for gini, entropy, misclassification; the
        scores for cs_gini), ``2 C (C - 1)`` for pairwise (``d^2`` then ``d`` for
        each ordered pair ``(i, j)``, ``i != j``, in row-major order), 2 for
        squared_error (``y``, ``y^2``).
    """
    code = criterion_code(name)
    labels = np.asarray(labels, dtype=np.float64)
    n, c = labels.shape
    if code in (GINI, ENTROPY, MISCLASSIFICATION):
        onehot = np.zeros((n, c))
        onehot[np.arange(n), np.argmax(labels, axis=1)] = 1.0
        return onehot
    if code == CS_GINI:
        return np.ascontiguousarray(labels)
    if code == PAIRWISE:
        stats = np.empty((n, 2 * c * (c - 1)))
        k = 0
        for i in range(c):
            for j in range(c):
                if i == j:
                    continue
                d = np.maximum(labels[:, i] - labels[:, j], 0.0)
                stats[:, 2 * k] = d * d
                stats[:, 2 * k + 1] = d
                k += 1
        return stats
    y = labels[:, 0]
    return np.ascontiguousarray(np.column_stack([y, y * y]))


@njit(cache=True, nogil=True)
def node_impurity(code: int, weight: float, stats: FloatArray, n_labels: int) -> float:
    """Impurity of a node from its total weight and summed statistics (compiled)."""
    if weight <= 0.0:
        return 0.0
    if code == GINI or code == CS_GINI:
        total = 0.0
        for c in range(n_labels):
            total += stats[c]
        if total <= 0.0:
            return 0.0
        value = 1.0
        for c in range(n_labels):
            p = stats[c] / total
            value -= p * p
        return max(value, 0.0)
    if code == ENTROPY:
        value = 0.0
        for c in range(n_labels):
            p = stats[c] / weight
            if p > 0.0:
                value -= p * np.log2(p)
        return max(value, 0.0)
    if code == MISCLASSIFICATION:
        top = 0.0
        for c in range(n_labels):
            top = max(top, stats[c] / weight)
        return max(1.0 - top, 0.0)
    if code == PAIRWISE:
        value = 0.0
        for i in range(n_labels):
            for j in range(n_labels):
                if i == j:
                    continue
                k_ij = i * (n_labels - 1) + (j if j < i else j - 1)
                k_ji = j * (n_labels - 1) + (i if i < j else i - 1)
                denominator = stats[2 * k_ij + 1] + stats[2 * k_ji + 1]
                if denominator > 0.0:
                    f = stats[2 * k_ij] / denominator
                    value += f - f * f
        return max(value / (n_labels * n_labels - n_labels), 0.0)
    # squared error: the weighted variance
    mean = stats[0] / weight
    return max(stats[1] / weight - mean * mean, 0.0)


def impurity(
    name: str, labels: FloatArray, sample_weight: FloatArray | None = None
) -> float:
    """Impurity of the samples ``labels`` under criterion ``name``.

    Parameters
    ----------
    name : str
        Criterion name (:data:`CRITERIA`).
    labels : array-like of shape (n_samples, C)
        Label vectors (task scores; one-hot for ordinary labels), or targets of
        shape ``(n_samples,)`` or ``(n_samples, 1)`` for ``squared_error``.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights (all 1 if None).

    Returns
    -------
    float

    Examples
    --------
    Paper 004's Table 1, data set ``N_1`` (three samples of class 1, one of class 2):

    >>> from costsense.tree import impurity
    >>> N1 = [[1, 0], [1, 0], [1, 0], [0, 1]]
    >>> round(impurity("gini", N1), 4), round(impurity("pairwise", N1), 4)
    (0.375, 0.1875)
    """
    labels = np.asarray(labels, dtype=np.float64)
    if labels.ndim == 1:
        labels = labels[:, None]
    weight = (
        np.ones(labels.shape[0])
        if sample_weight is None
        else np.asarray(sample_weight, dtype=np.float64)
    )
    stats = sample_statistics(name, labels)
    summed = np.ascontiguousarray(weight @ stats)
    return float(
        node_impurity(
            criterion_code(name), float(weight.sum()), summed, labels.shape[1]
        )
    )
