"""Cost metrics: the misclassification cost, the savings and the excess cost.

Read from the cost rows of :meth:`costsense.costs.Costs.resolve`. Change it to add a
metric in cost units.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import UndefinedMetricWarning

from costsense.costs import Costs, _class_indices, _label_index, _named
from costsense.metrics._validation import (
    FloatArray,
    _labels,
    _ratio,
    _refuse_balanced,
    _weights,
)


def _cost_rows(
    y_true: NDArray[Any],
    classes: NDArray[Any],
    cost: Any,
    sample_cost: ArrayLike | None,
    pos_label: Any,
) -> FloatArray:
    """Cost rows of the test samples, columns in ``classes`` order."""
    if sample_cost is None:
        _refuse_balanced(cost)
        if not isinstance(cost, str) and np.ndim(cost) == 2:
            if np.shape(cost)[0] != classes.size:
                raise ValueError(
                    f"cost is {np.shape(cost)[0]} x {np.shape(cost)[1]} but y_true "
                    f"and y_pred hold {classes.size} labels {classes.tolist()[:10]}; "
                    "pass labels= (all class labels, in the matrix's order)."
                )
    if classes.size == 1:
        # One label in truth and prediction: no error is possible, whatever the
        # costs; malformed ones are still refused rather than ignored.
        if pos_label is not None:
            _label_index(classes, pos_label)
        values = np.asarray(_named(0.0 if sample_cost is None else sample_cost))
        if sample_cost is not None and (
            values.ndim < 2
            or values.shape[0] != y_true.shape[0]
            or not np.all(np.isfinite(values.astype(float)))
        ):
            raise ValueError(
                f"sample_cost must hold one finite cost row (or named parts) per "
                f"sample of y_true ({y_true.shape[0]})."
            )
        return np.zeros((y_true.shape[0], 1))
    resolved = Costs.resolve(
        cost, y_true, classes=classes, pos_label=pos_label, sample_cost=sample_cost
    )
    assert resolved.rows is not None  # resolved against y_true
    return resolved.rows


def misclassification_cost(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    cost: Any = None,
    pos_label: Any = None,
    sample_cost: ArrayLike | None = None,
    normalize: bool = False,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Total (or mean) cost of the predictions.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    cost : float, pair of floats, "unit" or array-like of shape (K, K), default=None
        Class-level costs (:mod:`costsense.costs`; a matrix follows ``labels``).
        Required unless ``sample_cost`` is given (balanced costs are refused).
    pos_label : hashable, default=None
        Positive class of a binary cost; the minority class of ``y_true`` if None.
    sample_cost : dict, DataFrame, ExampleCosts or array-like, default=None
        Per-row costs in any layout of :mod:`costsense.costs`, which replace
        ``cost``: for two classes, the parts named, e.g. ``{"fn": amounts,
        "fp": 5.0}`` (right decisions may cost too: ``"tp"``, ``"tn"``); one
        unnamed cost per row is refused.
    normalize : bool, default=False
        Return the (weighted) mean cost per sample instead of the total.
    labels : array-like of shape (K,), default=None
        All class labels, in the cost matrix's order; the sorted labels of
        ``y_true`` and ``y_pred`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample's cost.

    Returns
    -------
    float
        ``sum_i w_i rows[i, pred_i]`` (binary: ``C1 FN + C2 FP``), over ``sum_i w_i``
        if ``normalize``.

    Examples
    --------
    >>> from costsense.metrics import misclassification_cost
    >>> y_true = [0, 0, 0, 1, 1]
    >>> y_pred = [0, 1, 0, 0, 1]
    >>> misclassification_cost(y_true, y_pred, cost=5)  # 1 FN x 5 + 1 FP x 1
    6.0
    """
    y_true, y_pred, classes = _labels(y_true, y_pred, labels)
    rows = _cost_rows(y_true, classes, cost, sample_cost, pos_label)
    weight = _weights(sample_weight, y_true.shape[0])
    if rows.shape[1] == 1:
        return 0.0
    spent = rows[np.arange(y_true.shape[0]), _class_indices(y_pred, classes)]
    total = float(np.dot(weight, spent))
    return _ratio(total, float(weight.sum()), "mean cost") if normalize else total


def savings_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    cost: Any = None,
    pos_label: Any = None,
    sample_cost: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Return the share of the cheaper trivial classifier's cost that is avoided.

    Parameters
    ----------
    y_true, y_pred, cost, pos_label, sample_cost, labels, sample_weight
        As in :func:`misclassification_cost`.

    Returns
    -------
    float
        ``(cost_base - cost) / cost_base``, ``cost_base`` the least cost of one
        class predicted for every sample (Correa Bahnsen et al. 2015): 1 is
        perfect, 0 no better than the best constant; ``nan`` (with an
        UndefinedMetricWarning) when a constant prediction costs nothing.

    Examples
    --------
    >>> from costsense.metrics import savings_score
    >>> # all-negative costs 2 x 5 = 10, all-positive 3; the prediction costs 6
    >>> savings_score([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], cost=5)
    -1.0
    """
    y_true, y_pred, classes = _labels(y_true, y_pred, labels)
    rows = _cost_rows(y_true, classes, cost, sample_cost, pos_label)
    weight = _weights(sample_weight, y_true.shape[0])
    spent = float(
        np.dot(weight, rows[np.arange(rows.shape[0]), _class_indices(y_pred, classes)])
    )
    base = float((weight @ rows).min())
    if base <= 0:
        warnings.warn(
            "savings_score is undefined: a constant prediction already costs "
            f"{base:g} (savings are a share of a positive cost).",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return float("nan")
    return (base - spent) / base


def excess_cost(cost: float, reference_cost: float, *, relative: bool = True) -> float:
    """Excess cost of a classifier over a reference, usually the Bayes risk.

    Parameters
    ----------
    cost : float
        The classifier's cost per sample, e.g.
        :meth:`costsense.datasets.GaussianProblem.expected_cost`.
    reference_cost : float
        The reference cost per sample, e.g. the Bayes risk (> 0 when ``relative``).
    relative : bool, default=True
        Return ``(cost - reference) / reference``; otherwise the difference.

    Returns
    -------
    float

    Examples
    --------
    >>> from costsense.metrics import excess_cost
    >>> excess_cost(0.75, 0.5)  # 50 % above the Bayes risk
    0.5
    """
    values = np.array([cost, reference_cost], dtype=np.float64)
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(
            f"cost={cost!r} and reference_cost={reference_cost!r} must be finite "
            "and non-negative."
        )
    difference = float(values[0] - values[1])
    if not relative:
        return difference
    if values[1] == 0:
        raise ValueError(
            "reference_cost is 0, so the relative excess is undefined; pass "
            "relative=False for the absolute difference."
        )
    return difference / float(values[1])
