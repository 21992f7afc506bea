"""The numbers of one test fold: metric names in table order, and their values.

Every cell is scored here; add a metric to its tuples and to the function filling them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense import metrics
from costsense.costs import Costs
from costsense.decision import realised_costs

__all__ = [
    "ACTION_METRICS",
    "ALL_METRICS",
    "FOLD_COLUMNS",
    "FOLD_METRICS",
    "MULTICLASS_METRICS",
    "TIME_COLUMNS",
]

#: Metrics reported per fold, in table order: "cost_total" of the test fold (as paper
#: 000), "mean_cost" per row, "savings" the share of the best constant prediction's
#: cost avoided (Correa Bahnsen et al. 2015), by the true costs (per row if given).
FOLD_METRICS = (
    "cost_total",
    "mean_cost",
    "savings",
    "recall",
    "precision",
    "g_mean",
    "f1",
    "auc",
)

#: Every metric :func:`fold_metrics` computes, in order (accuracy, kappa: paper 004's).
FOLD_COLUMNS = (
    "cost_total",
    "mean_cost",
    "recall",
    "precision",
    "specificity",
    "savings",
    "g_mean",
    "f1",
    "auc",
    "accuracy",
    "kappa",
)

#: Metrics reported per fold for more than two classes, in table order.
MULTICLASS_METRICS = (
    "cost_total",
    "mean_cost",
    "accuracy",
    "balanced_accuracy",
    "kappa",
)

#: Metrics of decided actions (a true class x action table), in table order.
ACTION_METRICS = ("cost_total", "mean_cost", "savings")

#: Money a model saves per test fold over the decisions a team takes today.
GAIN = "gain_over_current"

#: Seconds per cell: fitting, and deciding the test rows.
TIME_COLUMNS = ("fit_time", "predict_time")

#: Every metric a study can report (``excess_cost`` where the Bayes risk is known).
ALL_METRICS = (*FOLD_COLUMNS, "excess_cost")

#: Metrics where lower is better.
LOWER_IS_BETTER = ("cost_total", "mean_cost", "excess_cost")


def positive_scores(model: Any, X: ArrayLike, pos_index: int) -> NDArray[np.float64]:
    """Score of class ``model.classes_[pos_index]`` (probability, else decision)."""
    if hasattr(model, "predict_proba"):
        return np.asarray(model.predict_proba(X))[:, pos_index]
    scores = np.asarray(model.decision_function(X), dtype=np.float64)
    return scores if pos_index == 1 else -scores


def fold_metrics(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    scores: ArrayLike,
    cost: Costs,
    row_costs: Costs | None = None,
) -> dict[str, float]:
    """Compute :data:`FOLD_COLUMNS` for one binary test set.

    ``scores`` rank the positive class; ``row_costs``, when given, replace the
    matrix of ``cost`` in the cost metrics.
    """
    y_true = np.asarray(y_true)
    pos = cost.pos_label
    costs: dict[str, Any] = {"cost": cost.matrix, "pos_label": pos}
    costs["labels"] = np.unique(np.concatenate([y_true, np.asarray(y_pred)]))
    if row_costs is not None:
        costs = {"sample_cost": row_costs, "pos_label": pos}
        costs["labels"] = row_costs.classes
    total = metrics.misclassification_cost(y_true, y_pred, **costs)
    return {
        "cost_total": total,
        "mean_cost": total / y_true.shape[0],
        "recall": metrics.binary_recall_score(y_true, y_pred, pos_label=pos),
        "precision": metrics.binary_precision_score(y_true, y_pred, pos_label=pos),
        "specificity": metrics.binary_specificity_score(y_true, y_pred, pos_label=pos),
        "savings": metrics.savings_score(y_true, y_pred, **costs),
        "g_mean": metrics.g_mean_score(y_true, y_pred, pos_label=pos),
        "f1": metrics.binary_f1_score(y_true, y_pred, pos_label=pos),
        "auc": metrics.binary_roc_auc_score(y_true, scores, pos_label=pos),
        "accuracy": float(np.mean(y_true == np.asarray(y_pred))),
        "kappa": metrics.cohen_kappa_score(y_true, y_pred),
    }


def action_metrics(
    y_true: ArrayLike, action: ArrayLike, costs: Any, classes: ArrayLike
) -> dict[str, float]:
    """Compute :data:`ACTION_METRICS` of actions taken on one test set.

    Each row costs its action's entry at its true class
    (:func:`~costsense.decision.realised_costs`); ``savings`` is the share of
    the cost of the best single action on these rows that is avoided, as
    Correa Bahnsen et al. (2015) measure it against the best constant label.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    action : array-like of shape (n_samples,)
        Each row's action, a name of ``costs``.
    costs : ActionCosts, Costs or array-like
        The test rows' table (per row: these rows only).
    classes : array-like
        The table's classes, in order.
    """
    realised = realised_costs(y_true, costs, classes)
    names = list(_names(costs, realised.shape[1]))
    index = [names.index(a) for a in np.asarray(action).tolist()]
    total = float(realised[np.arange(len(index)), index].sum())
    best = float(realised.sum(axis=0).min())
    return {
        "cost_total": total,
        "mean_cost": total / max(len(index), 1),
        "savings": 1.0 - total / best if best > 0 else float("nan"),
    }


def _names(costs: Any, count: int) -> tuple[Any, ...]:
    """Return the action names of ``costs`` (a Costs: its labels; else 0..A-1)."""
    if isinstance(costs, Costs):
        return tuple(costs.classes.tolist())
    return tuple(getattr(costs, "actions", None) or range(count))


def multiclass_metrics(
    y_true: ArrayLike, y_pred: ArrayLike, matrix: ArrayLike, classes: ArrayLike
) -> dict[str, float]:
    """Compute :data:`MULTICLASS_METRICS` (``matrix`` in the order of ``classes``)."""
    y_true = np.asarray(y_true)
    total = metrics.misclassification_cost(
        y_true, y_pred, cost=matrix, labels=np.asarray(classes)
    )
    return {
        "cost_total": total,
        "mean_cost": total / y_true.shape[0],
        "accuracy": float(np.mean(y_true == np.asarray(y_pred))),
        "balanced_accuracy": metrics.balanced_accuracy_score(y_true, y_pred),
        "kappa": metrics.cohen_kappa_score(y_true, y_pred),
    }
