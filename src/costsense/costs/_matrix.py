"""Class-level costs (a ratio, a pair, balanced, a matrix) to one ``(K, K)`` matrix.

Validated, naming the problem; :func:`zero_diagonal` gives each decision's regret.
Change it when a form of ``cost`` is added.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._labelled import _is_labelled, _labelled_matrix
from ._labels import _label_index, resolve_pos_label

__all__ = ["as_binary_costs", "as_cost_matrix", "zero_diagonal"]

FloatArray = NDArray[np.float64]

#: The costs a string names: ``cost="balanced"`` is ``cost=None`` (each class's
#: error cost inversely proportional to its frequency); ``cost="unit"`` makes every
#: error cost 1, the 0-1 matrix ``1 - I`` of the cost-blind problem.
_COST_NAMES = ("balanced", "unit")


def as_binary_costs(cost: Any) -> tuple[float, float]:
    """Return ``(C1, C2)`` from a ratio ``C1/C2`` or a pair ``(C1, C2)``.

    Parameters
    ----------
    cost : float or sequence of two floats
        A positive number ``r`` means ``(r, 1)``.

    Returns
    -------
    (C1, C2) : tuple of float
        False-negative and false-positive costs, both finite and > 0 (else a
        ValueError).
    """
    if isinstance(cost, Real | np.number) and not isinstance(cost, bool):
        values = (float(cost), 1.0)
    else:
        arr = np.asarray(cost, dtype=object)
        if arr.shape != (2,):
            raise ValueError(
                f"cost={cost!r} is not a binary cost: give a ratio C1/C2 (a number) "
                "or a pair (C1, C2)."
            )
        try:
            values = (float(arr[0]), float(arr[1]))
        except (TypeError, ValueError):
            raise TypeError(
                f"cost={cost!r} must contain numbers, got {[type(a) for a in arr]}."
            ) from None
    for name, value in zip(("C1 (false-negative cost)", "C2"), values, strict=True):
        if not np.isfinite(value) or value <= 0:
            raise ValueError(
                f"cost: {name} must be a finite number > 0, got {value!r}. Costs of "
                "errors are positive; a zero cost would make errors free."
            )
    return values


class FreeErrors(ValueError):
    """Costs under which errors on one class cost no more than being right.

    ``index`` is the class's position in the sorted labels; ``rows`` are the rows
    of that class whose errors are free (per-row costs), None for a matrix.
    """

    def __init__(self, message: str, index: int = -1, rows: Any = None) -> None:
        super().__init__(message)
        self.index, self.rows = index, rows


def _check_matrix(cost_matrix: ArrayLike, n_classes: int) -> FloatArray:
    """Validate a ``(K, K)`` cost matrix; return a float copy, diagonal kept.

    Any finite entries, as long as each row's *regret* ``cost[i, j] - cost[i, i]``
    (what predicting ``j`` costs more for a class-``i`` row) is never negative and
    not all zero (for ``K = 2``, both regrets positive); every error names
    ``cost`` and the fix.
    """
    try:
        matrix = np.array(cost_matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"cost must be a numeric matrix, got {cost_matrix!r}."
        ) from None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        raise ValueError(
            f"cost must be a square (K, K) cost matrix with K >= 2, got shape "
            f"{matrix.shape}."
        )
    if matrix.shape[0] != n_classes:
        raise ValueError(
            f"cost is {matrix.shape[0]} x {matrix.shape[0]} but there are "
            f"{n_classes} classes: give one row and one column per class, in sorted "
            "label order."
        )
    if not np.all(np.isfinite(matrix)):
        raise ValueError("cost contains NaN or infinite entries; costs must be finite.")
    regret = zero_diagonal(matrix)
    if np.any(regret < 0):
        i, j = (int(v) for v in np.argwhere(regret < 0)[0])
        raise FreeErrors(
            f"cost[{i}, {j}] = {matrix[i, j]:g} is less than cost[{i}, {i}] = "
            f"{matrix[i, i]:g}: a wrong prediction would cost less than the right one "
            f"for every sample of class {i} (a negative regret). Class-level costs "
            "must make every error cost at least what being right costs, in each row; "
            "costs that favour an error on some samples only are per-row costs "
            "(fit(..., sample_cost=...)).",
            i,
        )
    if np.any(regret.sum(axis=1) <= 0):
        bad = np.flatnonzero(regret.sum(axis=1) <= 0).tolist()
        raise FreeErrors(
            f"cost: in rows {bad} every error costs what the correct prediction "
            "costs (no positive cost once each row's diagonal is subtracted), so "
            "errors on those classes would be free. Give every class at least one "
            "error that costs more than being right.",
            bad[0],
        )
    if matrix.shape[0] == 2 and (regret[0, 1] <= 0 or regret[1, 0] <= 0):
        raise FreeErrors(
            f"cost: both error costs of a binary problem must exceed the cost of "
            f"the correct prediction in their row (cost > 0 once each row's diagonal "
            f"is subtracted), got {matrix.tolist()}.",
            int(regret[0, 1] > 0),
        )
    return matrix


def zero_diagonal(cost_matrix: ArrayLike) -> FloatArray:
    """Subtract each truth row's diagonal entry: the regret of each decision.

    Parameters
    ----------
    cost_matrix : array-like of shape (K, K) or (n_samples, K, K)
        ``cost[i, j]``: cost of predicting ``j`` when the truth is ``i`` (one matrix,
        or one per sample).

    Returns
    -------
    ndarray of the same shape
        ``cost[..., i, j] - cost[..., i, i]``: zero diagonal.

    Notes
    -----
    Adding a constant to a truth row changes no Bayes decision (Elkan 2001,
    section 2), so learners that need a zero diagonal use this regret matrix.
    """
    matrix = np.asarray(cost_matrix, dtype=np.float64)
    diagonal = np.diagonal(matrix, axis1=-2, axis2=-1)
    return np.asarray(matrix - diagonal[..., :, None], dtype=np.float64)


def _balanced_matrix(
    y: ArrayLike,
    classes: NDArray[Any],
    sample_weight: ArrayLike | None = None,
    given: Any = None,
) -> FloatArray:
    y = np.asarray(y)
    weight = np.ones(y.shape[0]) if sample_weight is None else np.asarray(sample_weight)
    counts = np.array([weight[y == c].sum() for c in classes], dtype=np.float64)
    if np.any(counts == 0):
        raise ValueError(
            f"cost={given!r} (balanced costs) needs every class present in y; classes "
            f"{classes[counts == 0].tolist()} have no samples."
        )
    weights = counts.sum() / (classes.size * counts)
    matrix = np.repeat(weights[:, None], classes.size, axis=1)
    np.fill_diagonal(matrix, 0.0)
    return matrix


def as_cost_matrix(
    cost: Any,
    classes: ArrayLike,
    pos_label: Any = None,
    *,
    y: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> FloatArray:
    """Convert any class-level cost specification to a ``(K, K)`` matrix.

    Parameters
    ----------
    cost : None, "balanced", "unit", float, pair of floats, array-like of shape \
(K, K), DataFrame or dict
        See :mod:`costsense.costs` (balanced costs need ``y``). An array is
        positional; a DataFrame (index: true labels, columns: predicted) or a
        dict ``{true: {predicted: cost}}`` (a missing diagonal entry is 0) is
        aligned to ``classes`` by label.
    classes : array-like of shape (K,)
        The labels in the order of the matrix's rows and columns (sorted).
    pos_label : hashable, default=None
        Positive class for a ratio or a pair; the minority class of ``y`` if None.
    y : array-like of shape (n_samples,), default=None
        Labels, for balanced costs and the minority class.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of ``y`` in those class frequencies.

    Returns
    -------
    ndarray of shape (K, K)
        ``matrix[i, j]`` = cost of predicting ``classes[j]`` when the truth is
        ``classes[i]``; for a binary cost ``matrix[pos, neg] = C1``,
        ``matrix[neg, pos] = C2``. Invalid costs are refused naming the problem
        (for a labelled matrix, the missing and unknown labels).
    """
    classes = np.asarray(classes)
    n_classes = classes.shape[0]
    if isinstance(cost, str):
        _check_cost_name(cost)
        if cost == "unit":  # every error costs 1: the cost-blind problem
            return _check_matrix(1.0 - np.eye(n_classes), n_classes)
    if cost is None or isinstance(cost, str):  # None or "balanced"
        if y is None:
            raise ValueError(
                f"cost={cost!r} means balanced costs, which need the labels y."
            )
        return _balanced_matrix(y, classes, sample_weight, given=cost)
    if _is_labelled(cost):
        return _check_matrix(_labelled_matrix(cost, classes), n_classes)
    is_matrix = not isinstance(cost, Real | np.number) and np.ndim(cost) == 2
    if is_matrix:
        return _check_matrix(cost, n_classes)
    c1, c2 = as_binary_costs(cost)
    if n_classes != 2:
        raise ValueError(
            f"cost={cost!r} describes a binary problem but there are {n_classes} "
            "classes; give a (K, K) cost matrix."
        )
    if pos_label is None:
        if y is None:
            raise ValueError(
                "pos_label is None and no y was given to find the minority class; "
                "pass pos_label (the costly class) or y."
            )
        pos_label = resolve_pos_label(y, sample_weight=sample_weight)
    pos = _label_index(classes, pos_label)
    matrix = np.zeros((2, 2))
    matrix[pos, 1 - pos] = c1
    matrix[1 - pos, pos] = c2
    return matrix


def _pair(
    cost_matrix: ArrayLike, classes: ArrayLike, pos_label: Any
) -> tuple[float, float]:
    """``(C1, C2)`` of a binary matrix, each row's diagonal subtracted."""
    matrix = zero_diagonal(_check_matrix(cost_matrix, 2))
    pos = _label_index(classes, pos_label)
    return float(matrix[pos, 1 - pos]), float(matrix[1 - pos, pos])


def _check_cost_name(cost: str) -> None:
    """Refuse a string that names no cost, naming the strings that do."""
    if cost not in _COST_NAMES:
        raise ValueError(
            f"cost={cost!r} is not a cost this string can name: the accepted "
            "strings are 'balanced' (each class's error cost inversely "
            "proportional to its frequency, as cost=None) and 'unit' (every error "
            "costs 1). Otherwise give a number C1/C2, a pair (C1, C2) or a (K, K) "
            "matrix."
        )


def _cost_kind(cost: Any) -> str:
    """How a class-level cost was given: "balanced", "unit", "ratio", "pair", "matrix".

    ``None`` and ``"balanced"`` are both "balanced".
    """
    if cost is None or (isinstance(cost, str) and cost == "balanced"):
        return "balanced"
    if isinstance(cost, str):
        return "unit"
    if _is_labelled(cost) or (
        not isinstance(cost, Real | np.number | str) and np.ndim(cost) == 2
    ):
        return "matrix"
    if np.ndim(cost) == 0:
        return "ratio"
    return "pair"
