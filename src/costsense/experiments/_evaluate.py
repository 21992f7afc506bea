"""Stratified k-fold evaluation of named models (``costsense evaluate``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from costsense import metrics
from costsense.experiments._models import make_model
from costsense.experiments._setting import CostSetting

__all__ = [
    "ALL_METRICS",
    "FOLD_COLUMNS",
    "FOLD_METRICS",
    "evaluate",
    "fold_metrics",
    "positive_scores",
    "summarise",
]

#: Metrics reported per fold, in table order. "cost" is the total cost on the test
#: fold (paper 000 reports it this way); "mean_cost" is per test sample.
FOLD_METRICS = (
    "cost",
    "mean_cost",
    "recall",
    "precision",
    "g_mean",
    "f1",
    "auc",
)

#: Every metric :func:`fold_metrics` computes, in order ("accuracy" and Cohen's
#: "kappa" are paper 004's measures, with the AUC).
FOLD_COLUMNS = (
    *FOLD_METRICS[:4],
    "specificity",
    "savings",
    *FOLD_METRICS[4:],
    "accuracy",
    "kappa",
)

#: Every metric a study can report: :data:`FOLD_COLUMNS` with the total cost named
#: ``cost_total`` (a study's table also has a ``cost`` column: the cost setting,
#: such as ``"5"``).
ALL_METRICS = ("cost_total", *FOLD_COLUMNS[1:], "excess_cost")

#: Metrics where lower is better.
LOWER_IS_BETTER = ("cost", "cost_total", "mean_cost", "excess_cost")


def positive_scores(model: Any, X: ArrayLike, pos_index: int) -> NDArray[np.float64]:
    """Score of the positive class: ``predict_proba``, else ``decision_function``.

    Parameters
    ----------
    model : fitted classifier
        Binary classifier.
    X : array-like of shape (n_samples, n_features)
        Samples.
    pos_index : int
        Index of the positive class in ``model.classes_``.

    Returns
    -------
    ndarray of shape (n_samples,)
        Larger means more positive; suitable for the AUC.
    """
    if hasattr(model, "predict_proba"):
        return np.asarray(model.predict_proba(X))[:, pos_index]
    scores = np.asarray(model.decision_function(X), dtype=np.float64)
    return scores if pos_index == 1 else -scores


def fold_metrics(
    y_true: ArrayLike, y_pred: ArrayLike, scores: ArrayLike, cost: CostSetting
) -> dict[str, float]:
    """Compute all of :data:`FOLD_COLUMNS` for one test set of a binary problem.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    scores : array-like of shape (n_samples,)
        Scores of the positive class (for the AUC).
    cost : CostSetting
        The problem's costs (matrix and positive class).

    Returns
    -------
    dict of str to float
        ``cost`` is the total cost of the test set, ``mean_cost`` per sample.
    """
    y_true = np.asarray(y_true)
    classes = np.unique(np.concatenate([y_true, np.asarray(y_pred)]))
    matrix, pos_label = cost.matrix, cost.pos_label
    total = metrics.misclassification_cost(
        y_true, y_pred, cost=matrix, pos_label=pos_label, labels=classes
    )
    return {
        "cost": total,
        "mean_cost": total / y_true.shape[0],
        "recall": metrics.recall_score(y_true, y_pred, pos_label=pos_label),
        "precision": metrics.precision_score(y_true, y_pred, pos_label=pos_label),
        "specificity": metrics.specificity_score(y_true, y_pred, pos_label=pos_label),
        "savings": metrics.savings_score(
            y_true, y_pred, cost=matrix, pos_label=pos_label, labels=classes
        ),
        "g_mean": metrics.g_mean_score(y_true, y_pred, pos_label=pos_label),
        "f1": metrics.f1_score(y_true, y_pred, pos_label=pos_label),
        "auc": metrics.roc_auc_score(y_true, scores, pos_label=pos_label),
        "accuracy": float(np.mean(y_true == np.asarray(y_pred))),
        "kappa": metrics.cohen_kappa_score(y_true, y_pred),
    }


def evaluate(
    X: ArrayLike,
    y: ArrayLike,
    methods: Iterable[str],
    *,
    cost: Any,
    pos_label: Any = None,
    base: str = "logistic",
    n_splits: int = 5,
    seed: int = 0,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    progress: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """Stratified k-fold cross-validation of named models on one binary data set.

    Every model sees the same folds. Preprocessing is fitted on each training fold
    only (the models are pipelines).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Features.
    y : array-like of shape (n_samples,)
        Binary labels.
    methods : iterable of str
        Names from :data:`costsense.experiments._models.METHODS`.
    cost : cost specification or CostSetting
        Class-level cost (ratio, pair or matrix), or a cost already resolved
        against ``y`` (as the command line does, to print it first).
    pos_label : hashable, default=None
        Positive class; the minority class if None. Must be None or agree with a
        resolved ``cost``.
    base : str, default="logistic"
        Base learner name.
    n_splits : int, default=5
        Number of folds.
    seed : int, default=0
        Seed of the fold split and of the models.
    on_row : callable, default=None
        Called with each finished row (so a caller can save it at once).
    progress : callable, default=None
        Called with the total number of cells; returns an object with ``update(1)``
        (a progress bar).

    Returns
    -------
    list of dict
        One row per (model, fold) with :data:`FOLD_METRICS`.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    methods = list(methods)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"evaluate needs a binary target; y has {classes.size} classes "
            f"({classes.tolist()[:10]})."
        )
    setting = _resolved(cost, y, pos_label)
    models = {
        name: make_model(
            name, base=base, cost=setting.matrix, pos_label=setting.pos_label, seed=seed
        )
        for name in methods
    }
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    bar = progress(len(methods) * n_splits) if progress is not None else None
    rows: list[dict[str, Any]] = []
    for fold, (train, test) in enumerate(splitter.split(X, y)):
        for name, template in models.items():
            model = clone(template).fit(X[train], y[train])
            row = {"model": name, "fold": fold}
            row.update(
                fold_metrics(
                    y[test],
                    model.predict(X[test]),
                    positive_scores(model, X[test], setting.pos_index),
                    setting,
                )
            )
            rows.append(row)
            if on_row is not None:
                on_row(row)
            if bar is not None:
                bar.update(1)
    return rows


def _resolved(cost: Any, y: NDArray[Any], pos_label: Any) -> CostSetting:
    """Resolve ``cost`` against ``y``, or check that a resolved one fits it."""
    if not isinstance(cost, CostSetting):
        return CostSetting.resolve(cost, y, pos_label)
    if not np.array_equal(cost.classes, np.unique(y)):
        raise ValueError(
            f"cost was resolved for the classes {cost.classes.tolist()}, but y has "
            f"{np.unique(y).tolist()}."
        )
    if pos_label is not None and pos_label != cost.pos_label:
        raise ValueError(
            f"pos_label={pos_label!r} disagrees with the resolved cost's positive "
            f"class {cost.pos_label!r}; pass one of them."
        )
    return cost


def summarise(rows: list[dict[str, Any]], methods: Iterable[str]) -> list[list[str]]:
    """Table of ``mean (std)`` per model and metric, best value per column marked.

    Parameters
    ----------
    rows : list of dict
        Rows from :func:`evaluate`.
    methods : iterable of str
        Row order of the table.

    Returns
    -------
    list of list of str
        Header row then one row per model; the best mean of each column (lowest cost,
        highest otherwise) carries a ``*``. std is the sample standard deviation
        (ddof=1) over folds.
    """
    methods = [m for m in methods if any(r["model"] == m for r in rows)]
    header = ["model", *FOLD_METRICS, "folds"]
    means = {
        m: {k: np.mean([r[k] for r in rows if r["model"] == m]) for k in FOLD_METRICS}
        for m in methods
    }
    best = {}
    for k in FOLD_METRICS:
        values = [means[m][k] for m in methods]
        best[k] = min(values) if k in LOWER_IS_BETTER else max(values)
    table = [header]
    for m in methods:
        cells = [m]
        for k in FOLD_METRICS:
            folds = np.array([r[k] for r in rows if r["model"] == m], dtype=float)
            std = folds.std(ddof=1) if folds.size > 1 else 0.0
            digits = 1 if k == "cost" else 3
            mark = "*" if np.isclose(means[m][k], best[k]) else " "
            cells.append(f"{folds.mean():.{digits}f} ({std:.{digits}f}){mark}")
        cells.append(str(sum(r["model"] == m for r in rows)))
        table.append(cells)
    return table
