"""Cost weights of the rescaling reductions, and taking them out of a posterior.

Each training row gets a class and a weight (Zadrozny, Langford & Abe 2003; for
several classes the consistent class weights of Zhou & Liu 2010); a learner trained
with class weights estimates a reweighted posterior, which :func:`_unweighted`
turns back into ``P(y|x)`` (Elkan 2001, Theorem 2).

References
----------
.. [1] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
.. [2] Z.-H. Zhou, X.-Y. Liu, "On multi-class cost-sensitive learning",
   Computational Intelligence 26(3), 2010.
.. [3] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import Costs, zero_diagonal
from costsense.utils._stack import caller_level

__all__ = ["consistent_class_weights"]

FloatArray = NDArray[np.float64]


def consistent_class_weights(cost_matrix: ArrayLike) -> FloatArray | None:
    """Class weights that make rescaling exact for a cost matrix, if any exist.

    Rescaling the classes by weights ``w`` gives the cost-sensitive Bayes decision
    for every distribution iff ``w_i / w_j = cost[i, j] / cost[j, i]`` for all pairs
    (Zhou & Liu 2010, Theorem 1; ``cost[i, j]`` is the cost of predicting ``j`` for
    a sample of class ``i``). Two classes always admit such weights,
    ``w = (C1, C2)`` up to scale; more classes only when the pairwise ratios are
    consistent (the homogeneous system has a non-trivial, positive solution).

    Parameters
    ----------
    cost_matrix : array-like of shape (K, K)
        A valid cost matrix; each row's diagonal entry is subtracted first
        (:func:`costsense.costs.zero_diagonal`, which changes no decision).

    Returns
    -------
    ndarray of shape (K,) or None
        Positive weights, or None if the matrix is not consistent. They are scaled
        to sum to the sum of the classes' mean error costs, so a binary matrix gives
        ``(C2, C1)`` in class order and a matrix with constant rows gives each
        row's cost (``cost=None``, balanced costs, gives scikit-learn's
        ``class_weight="balanced"``).

    Examples
    --------
    >>> from costsense.rescale import consistent_class_weights
    >>> consistent_class_weights([[0, 1], [5, 0]]).round(12).tolist()  # C2=1, C1=5
    [1.0, 5.0]
    >>> print(consistent_class_weights([[0, 1, 1], [5, 0, 1], [1, 1, 0]]))
    None
    """
    matrix = zero_diagonal(cost_matrix)  # a row's constant changes no decision
    k = matrix.shape[0]
    if np.any(matrix[~np.eye(k, dtype=bool)] <= 0):
        return None
    equations = []
    for i in range(k):
        for j in range(i + 1, k):
            row = np.zeros(k)
            row[i], row[j] = matrix[j, i], -matrix[i, j]
            equations.append(row)
    _, singular, vt = np.linalg.svd(np.asarray(equations))
    singular = np.concatenate([singular, np.zeros(k - singular.size)])
    if singular[-1] > 1e-10 * singular[0]:
        return None
    weights = vt[-1] * np.sign(vt[-1].sum())
    if np.any(weights <= 0):
        return None
    row_means = matrix.sum(axis=1) / (k - 1)
    return weights * (row_means.sum() / weights.sum())


def _cost_weights(
    resolved: Costs, estimator_name: str
) -> tuple[NDArray[np.intp], FloatArray]:
    """Class index and weight ``c_i`` of each sample for the rescaling reductions.

    Binary (class-level or example-dependent): each sample's cheapest class and
    what the other costs more (:func:`costsense.costs.cost_reduction`, exact by
    Zadrozny et al. 2003; a row whose error is cheaper than being right is
    relabelled to that class). More classes, class-level: the true classes, with
    Zhou & Liu's consistent weights of the zero-diagonal matrix when they exist,
    else each class's mean error cost with a warning. More classes,
    example-dependent: the reduction, each sample's mean extra cost of the other
    classes.
    """
    k = resolved.classes.size
    if k == 2 or resolved.example_dependent:
        index, weight = resolved.reduction()
        left = np.unique(index)
        if left.size < 2:
            label = resolved.classes[left[0]]
            label = label.item() if isinstance(label, np.generic) else label
            raise ValueError(
                f"{estimator_name}: the per-row costs make class {label!r} the "
                "cheaper prediction for every training row (its errors cost less "
                "than being right on the other rows), so there is nothing to learn: "
                "predict that class, or check the signs of sample_cost."
            )
        return index, weight
    matrix = zero_diagonal(resolved.matrix)
    weights = consistent_class_weights(matrix)
    if weights is None:
        warnings.warn(
            f"{estimator_name}: the {k} x {k} cost matrix is not consistent (Zhou & "
            "Liu 2010), so no class weights make rescaling exact; weighting each "
            "class by its mean error cost instead. ThresholdMoving and MetaCost "
            "handle any cost matrix.",
            UserWarning,
            stacklevel=caller_level(),
        )
        weights = matrix.sum(axis=1) / (k - 1)
    y_index = resolved.y_index
    assert y_index is not None  # resolved against y
    return y_index, weights[y_index]


def _class_weights(
    index: NDArray[np.intp],
    weight: FloatArray,
    sample_weight: FloatArray | None,
    n_classes: int,
) -> FloatArray:
    """Mean training weight of each class, the rows counted by ``sample_weight``.

    ``w_k = sum_{index_i = k} weight_i / sum_{index_i = k} s_i`` (0 for a class no
    row was learnt as): how much the cost weighting scaled class ``k``.
    """
    mass = np.ones(index.size) if sample_weight is None else sample_weight
    total = np.bincount(index, weights=weight, minlength=n_classes)
    count = np.bincount(index, weights=mass, minlength=n_classes)
    return np.divide(total, count, out=np.zeros(n_classes), where=count > 0)


def _unweighted(proba: FloatArray, class_weights: FloatArray) -> FloatArray:
    """Take class weights out of a posterior: ``P(k|x) = P_w(k|x) / w_k``, normalised.

    A learner trained with class weights ``w_k`` estimates ``P_w(k|x)``
    proportional to ``w_k P(k|x)`` (Elkan 2001, Theorem 2, which moves a
    threshold by reweighting; read backwards it removes the reweighting). A
    class of weight 0 (never learnt) gets probability 0; a row whose whole mass
    is on such classes keeps ``proba``.
    """
    positive = np.broadcast_to(class_weights > 0, proba.shape)
    ratio = np.divide(proba, class_weights, out=np.zeros_like(proba), where=positive)
    total = ratio.sum(axis=1, keepdims=True)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, ratio / safe, proba)
