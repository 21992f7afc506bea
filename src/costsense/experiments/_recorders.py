"""Recorders: what a study records about a cell beyond its metrics.

A recorder ``record(fit, row)`` reads a fitted cell (:class:`Fitted`) and adds to
its row; a study runs :data:`STUDY_RECORDERS`, ``costsense evaluate``
:func:`out_of_fold` (its decision report decides again over those probabilities).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.pipeline import Pipeline

from costsense.costs import Costs
from costsense.experiments._datasets import DatasetSpec
from costsense.experiments._problems import PROBLEMS
from costsense.metrics import excess_cost, misclassification_cost

__all__ = [
    "STUDY_RECORDERS",
    "Fitted",
    "excess",
    "out_of_fold",
    "round_series",
    "staged_costs",
]


@dataclass(eq=False)
class Fitted:
    """A cell's fitted model with its data, as a recorder reads it."""

    model: Any
    X: Any
    y: NDArray[Any]
    train: NDArray[np.intp]
    test: NDArray[np.intp]
    cost: Costs
    data: DatasetSpec
    _staged: dict[str, list[NDArray[Any]]] = field(default_factory=dict)

    @property
    def final(self) -> Any:
        """The fitted final estimator (inside a grid search and a pipeline)."""
        fitted = getattr(self.model, "best_estimator_", self.model)
        return fitted[-1] if isinstance(fitted, Pipeline) else fitted

    def X_part(self, split: str) -> Any:
        """Return the rows of ``"train"`` or ``"test"`` (by position)."""
        rows = self.train if split == "train" else self.test
        return self.X.iloc[rows] if hasattr(self.X, "iloc") else self.X[rows]

    def staged(self, split: str) -> list[NDArray[Any]]:
        """Predictions on ``"train"`` or ``"test"`` after each stage ([] if none)."""
        if split not in self._staged:
            self._staged[split] = []
            if hasattr(self.final, "staged_predict"):
                fitted = getattr(self.model, "best_estimator_", self.model)
                X = self.X_part(split)
                if isinstance(fitted, Pipeline):
                    X = fitted[:-1].transform(X)
                self._staged[split] = list(self.final.staged_predict(X))
        return self._staged[split]


def staged_costs(fit: Fitted, row: dict[str, Any]) -> None:
    """Curves: the mean cost per row (their own costs if any) after each stage."""
    for split, part in (("train", fit.train), ("test", fit.test)):
        y = fit.y[part]
        classes = np.unique(y)
        given: Any = fit.cost.take(part) if fit.cost.example_dependent else None
        for stage, pred in enumerate(fit.staged(split)):
            value = misclassification_cost(
                y,
                pred,
                cost=None if given is not None else fit.cost.matrix,
                sample_cost=given,
                pos_label=fit.cost.pos_label,
                labels=classes,
                normalize=True,
            )
            row["curves"].append((stage + 1, split, value))


def round_series(fit: Fitted, row: dict[str, Any]) -> None:
    """Series per round: paper 001's error <= prod Z_k <= exp(-2 sum gamma_k^2)."""
    normalisers = getattr(fit.final, "estimator_normalisers_", None)
    edges = getattr(fit.final, "estimator_edges_", None)
    if normalisers is None or edges is None or len(normalisers) == 0:
        return
    y = fit.y[fit.train]
    values = {
        "train_error": [float(np.mean(pred != y)) for pred in fit.staged("train")],
        "normaliser_product": np.cumprod(normalisers).tolist(),
        "edge_bound": np.exp(-2.0 * np.cumsum(np.square(edges))).tolist(),
    }
    row["series"] = [
        (stage + 1, name, float(value))
        for name, series in values.items()
        for stage, value in enumerate(series)
    ]


def excess(fit: Fitted, row: dict[str, Any]) -> None:
    """``excess_cost``: expected cost less the Bayes risk, on known densities."""
    problem = fit.data.problem
    if problem is None:
        return
    expected = problem.expected_cost(fit.model, cost=fit.cost.pair, resolution=256)
    risk = _bayes_risk(fit.data.name, tuple(fit.cost.pair))
    row["metrics"]["excess_cost"] = float(excess_cost(expected, risk))


def out_of_fold(fit: Fitted, row: dict[str, Any]) -> None:
    """``test_index`` and ``proba``: the test rows and their class probabilities.

    ``proba`` columns follow the cost's classes; None for a model without
    probabilities. Pooled over folds, these are out-of-fold probabilities.
    """
    row["test_index"] = fit.test
    row["proba"] = None
    if hasattr(fit.model, "predict_proba"):
        proba = np.asarray(fit.model.predict_proba(fit.X_part("test")), float)
        order = np.searchsorted(fit.model.classes_, fit.cost.classes)
        row["proba"] = proba[:, order] if proba.shape[1] == order.size else None


@functools.lru_cache(maxsize=64)
def _bayes_risk(name: str, pair: tuple[float, ...]) -> float:
    """Bayes risk of problem ``name`` at costs ``pair`` (an integral: cached)."""
    risk = PROBLEMS[name]().bayes_risk(pair)
    assert isinstance(risk, float)  # a (risk, error) pair only with return_error
    return risk


#: What every cell of a study records.
STUDY_RECORDERS: tuple[Callable[[Fitted, dict[str, Any]], None], ...] = (
    staged_costs,
    round_series,
    excess,
)
