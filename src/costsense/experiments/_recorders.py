"""What a study records about a cell beyond its metrics: small recorders.

A recorder is a function ``record(fit, row)`` that reads a fitted cell
(:class:`Fitted`) and adds to its row. A study's cells run
:data:`STUDY_RECORDERS`; ``costsense evaluate`` runs none. Add a recorder here
when a paper needs a number of its own, and name it in :data:`STUDY_RECORDERS`.
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

__all__ = ["STUDY_RECORDERS", "Fitted", "excess", "round_series", "staged_costs"]


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

    def staged(self, split: str) -> list[NDArray[Any]]:
        """Predictions on ``"train"`` or ``"test"`` after each stage ([] if none)."""
        if split not in self._staged:
            self._staged[split] = []
            if hasattr(self.final, "staged_predict"):
                fitted = getattr(self.model, "best_estimator_", self.model)
                X = self.X[self.train if split == "train" else self.test]
                if isinstance(fitted, Pipeline):
                    X = fitted[:-1].transform(X)
                self._staged[split] = list(self.final.staged_predict(X))
        return self._staged[split]


def staged_costs(fit: Fitted, row: dict[str, Any]) -> None:
    """Curves: the mean cost per sample after each stage, on train and test.

    By the rows' own costs where the cell has them.
    """
    curves = []
    for split, part in (("train", fit.train), ("test", fit.test)):
        y = fit.y[part]
        classes = np.unique(y)
        given: Any = fit.cost.take(part) if fit.cost.example_dependent else None
        for stage, pred in enumerate(fit.staged(split)):
            value = misclassification_cost(
                y, pred, cost=None if given is not None else fit.cost.matrix,
                sample_cost=given, pos_label=fit.cost.pos_label, labels=classes,
                normalize=True,
            )  # fmt: skip
            curves.append((stage + 1, split, value))
    row["curves"] = curves


#: Paper 001's per-round series (Theorems 1-2), in the order they are saved.
_SERIES = ("train_error", "normaliser_product", "edge_bound")


def round_series(fit: Fitted, row: dict[str, Any]) -> None:
    """Series: paper 001's bounds after each round of a booster exposing them.

    For a final estimator with ``estimator_normalisers_`` (``Z_m``) and
    ``estimator_edges_`` (``gamma_m``), after each kept round ``m``:
    ``train_error`` (the share of training rows its staged prediction gets
    wrong), ``normaliser_product`` (``prod_{k <= m} Z_k``) and ``edge_bound``
    (``exp(-2 sum_{k <= m} gamma_k^2)``); for AdaBoost from uniform weights at
    learning rate 1, ``train_error <= normaliser_product <= edge_bound``.
    """
    normalisers = getattr(fit.final, "estimator_normalisers_", None)
    edges = getattr(fit.final, "estimator_edges_", None)
    if normalisers is None or edges is None or len(normalisers) == 0:
        row["series"] = []
        return
    y = fit.y[fit.train]
    values = {
        "train_error": [float(np.mean(pred != y)) for pred in fit.staged("train")],
        "normaliser_product": np.cumprod(normalisers).tolist(),
        "edge_bound": np.exp(-2.0 * np.cumsum(np.square(edges))).tolist(),
    }
    if any(len(v) != len(normalisers) for v in values.values()):
        raise ValueError(
            f"{type(fit.final).__name__} gives {len(normalisers)} normalisers but "
            f"{len(values['train_error'])} staged predictions."
        )
    row["series"] = [
        (stage + 1, name, float(value))
        for name in _SERIES
        for stage, value in enumerate(values[name])
    ]


def excess(fit: Fitted, row: dict[str, Any]) -> None:
    """``excess_cost`` on a dataset of known densities (paper 000's problem).

    The model's exact expected cost, integrated over the densities on 256 x 256
    equal-probability points per class, less the Bayes risk.
    """
    problem = fit.data.problem
    if problem is None:
        return
    expected = problem.expected_cost(fit.model, cost=fit.cost.pair, resolution=256)
    risk = _bayes_risk(fit.data.name, tuple(fit.cost.pair))
    row["metrics"]["excess_cost"] = float(excess_cost(expected, risk))


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
