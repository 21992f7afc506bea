"""One fold: fit a model on the training rows, decide the test rows, score them.

Every cell, of a study or of ``costsense evaluate``, goes through
:func:`fit_and_score`: the model is fitted with its rows' costs, each test row
is decided (by its own costs where the model can,
:func:`~costsense.experiments._catalog.decide`), and the fold is scored
(:mod:`costsense.experiments._scores`). :func:`check_folds` is the one check
that every class can be split into the folds. Change it when a fold must be
fitted, decided or scored differently.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense._base import learns_row_costs
from costsense.costs import Costs
from costsense.experiments._catalog import decide
from costsense.experiments._scores import (
    fold_metrics,
    multiclass_metrics,
    positive_scores,
)

__all__ = ["Fold", "check_folds", "fit_and_score"]


@dataclass(frozen=True)
class Fold:
    """What one fold gave.

    The fitted model, the test rows' decided classes, their scores
    (:mod:`~costsense.experiments._scores`), the seconds fitting and deciding.
    """

    model: Any
    prediction: NDArray[Any]
    metrics: dict[str, float]
    fit_time: float
    predict_time: float


def fit_and_score(
    model: Any,
    X: Any,
    y: NDArray[Any],
    train: NDArray[np.intp],
    test: NDArray[np.intp],
    cost: Costs,
) -> Fold:
    """Fit ``model`` on the training rows, then decide and score the test rows.

    Parameters
    ----------
    model : estimator
        An unfitted pipeline whose last step is named ``model`` (or a grid
        search over one), fitted in place.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        All rows.
    y : ndarray of shape (n_samples,)
        All labels.
    train, test : ndarray of int
        The fold's training and test rows.
    cost : Costs
        The costs: binary (with its positive class, which the AUC ranks by) or
        K x K. Per-row costs fit the model (``model__sample_cost``), decide
        each test row and give the fold's cost metrics.

    Returns
    -------
    Fold
    """
    X_train, X_test = _rows(X, train), _rows(X, test)
    test_costs = cost.take(test) if cost.example_dependent else None
    started = time.perf_counter()
    if cost.example_dependent and learns_row_costs(model[-1]):
        model.fit(X_train, y[train], model__sample_cost=cost.take(train))
    else:
        model.fit(X_train, y[train])
    fit_time = time.perf_counter() - started
    started = time.perf_counter()
    prediction = np.asarray(decide(model, X_test, test_costs))
    predict_time = time.perf_counter() - started
    if cost.pos_index is None:
        found = multiclass_metrics(y[test], prediction, cost.matrix, model.classes_)
    else:
        scores = positive_scores(model, X_test, cost.pos_index)
        found = fold_metrics(y[test], prediction, scores, cost, test_costs)
    return Fold(model, prediction, found, fit_time, predict_time)


def _rows(X: Any, index: NDArray[np.intp]) -> Any:
    """Return some rows of an array or a DataFrame (by position)."""
    return X.iloc[index] if hasattr(X, "iloc") else np.asarray(X)[index]


def check_folds(y: ArrayLike, folds: int, *, option: str = "n_splits=") -> None:
    """Refuse a class too small for stratified ``folds``-fold splits.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The labels.
    folds : int
        Number of folds: every class needs at least one row per test fold.
    option : str, default="n_splits="
        How the caller's user sets the number of folds (``"--folds "`` on the
        command line), written before the largest number that works.

    Raises
    ------
    ValueError
        Naming each class that is too small, its size, and what to do.
    """
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    small = [(c, int(n)) for c, n in zip(classes, counts, strict=True) if n < folds]
    if not small:
        return
    named = ", ".join(f"{c!s} has {n} row{'s' if n != 1 else ''}" for c, n in small)
    most = min(n for _, n in small)
    fix = (
        f"Use {option}{max(2, most)} or fewer (at least 2), or more data of that class."
        if most >= 2
        else "Give that class at least 2 rows, or drop it."
    )
    raise ValueError(
        f"too few rows for {folds}-fold cross-validation: class {named}; every "
        f"class needs at least {folds} (one per test fold). {fix}"
    )
