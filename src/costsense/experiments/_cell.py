"""A study's cell: build its model, fit and score it, record what the study reports.

The fit, the decision and the fold's metrics are
:func:`~costsense.experiments._fold.fit_and_score`, the code ``costsense
evaluate`` runs for each of its folds; a study's cell adds an
optional grid search around the model (:func:`build_model`), the mean cost after
each stage of a staged model (curves), a booster's per-round training series
(paper 001's Theorems 1-2), the exact excess cost on paper 000's Gaussian problem,
and what the fit did (:func:`~costsense.experiments._diagnostics.fit_diagnostics`).
Preprocessing (scaling) is the first step of the model's pipeline, so it is fitted
on the training part only; an inner grid search refits it per inner fold.

Change it when a study records something new about each cell.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline

from costsense.costs import Costs
from costsense.datasets import make_gaussian_problem
from costsense.experiments._diagnostics import fit_diagnostics
from costsense.experiments._files import ROW_COSTS, file_row_costs
from costsense.experiments._fold import fit_and_score
from costsense.experiments._labels import costs_label
from costsense.experiments._models import make_model
from costsense.experiments._plan import Cell, derive_seed, load_dataset, splits
from costsense.experiments._study import Algorithm, Study
from costsense.experiments._warnings import collect_warnings, count_warnings
from costsense.metrics import excess_cost, make_cost_scorer, misclassification_cost

__all__ = ["build_model", "run_cell"]


def build_model(
    study: Study,
    algorithm: Algorithm,
    cost: Costs,
    seed: int,
    categorical: Iterable[int] = (),
) -> Any:
    """Build a cell's unfitted model: scaling, the method, an optional grid search.

    Parameters
    ----------
    study : Study
        Gives the scaling and the inner folds.
    algorithm : Algorithm
        Method, base learner, parameters and grid.
    cost : Costs
        The cell's costs (for the model and the grid search's scorer).
    seed : int
        The cell's seed.
    categorical : sequence of int, default=()
        The dataset's columns of category codes, declared to the model
        (:func:`~costsense.experiments.make_model`'s ``categorical_features``).

    Returns
    -------
    estimator
    """
    model = make_model(
        algorithm.method,
        base=algorithm.base,
        cost=cost.matrix,
        pos_label=cost.pos_label,
        seed=seed,
        scaler=study.protocol.scale,
        categorical_features=categorical,
    )
    if algorithm.params:
        model.set_params(**{f"model__{k}": v for k, v in algorithm.params.items()})
    if not algorithm.grid:
        return model
    return GridSearchCV(
        model,
        {f"model__{k}": list(v) for k, v in algorithm.grid.items()},
        scoring=make_cost_scorer(cost.matrix, pos_label=cost.pos_label, normalize=True),
        cv=StratifiedKFold(
            study.protocol.inner_splits, shuffle=True, random_state=seed
        ),
        error_score="raise",
    )


def _final(model: Any) -> tuple[Any, Callable[[NDArray[np.float64]], Any]]:
    """Return a fitted model's final estimator and the transform of its input."""
    fitted = model.best_estimator_ if hasattr(model, "best_estimator_") else model
    if isinstance(fitted, Pipeline):
        return fitted[-1], fitted[:-1].transform
    return fitted, lambda X: X


def _staged_predictions(model: Any, X: NDArray[np.float64]) -> list[NDArray[Any]]:
    """Predictions after each stage of a staged final estimator ([] if not staged)."""
    final, transform = _final(model)
    if not hasattr(final, "staged_predict"):
        return []
    return list(final.staged_predict(transform(X)))


def _rows_of(cost: Costs, rows: NDArray[np.intp]) -> Costs:
    """Return some rows' costs: per-row costs taken, class costs as they are."""
    return cost.take(rows) if cost.example_dependent else cost


def _staged_costs(
    predictions: list[NDArray[Any]], y: NDArray[Any], cost: Costs
) -> list[float]:
    """Mean cost per sample after each stage, from the staged predictions."""
    classes = np.unique(y)
    if cost.example_dependent:  # the rows' own costs (``cost`` holds these rows)
        own: Any = cost  # the metric reads a Costs (typed as arrays)
        return [
            misclassification_cost(y, pred, sample_cost=own, labels=classes,
                                   pos_label=cost.pos_label, normalize=True)
            for pred in predictions
        ]  # fmt: skip
    return [
        misclassification_cost(
            y,
            pred,
            cost=cost.matrix,
            pos_label=cost.pos_label,
            labels=classes,
            normalize=True,
        )
        for pred in predictions
    ]


#: The per-round series of a boosted model that paper 001's Theorems 1-2 compare.
_ROUND_SERIES = ("train_error", "normaliser_product", "edge_bound")


def _round_series(
    model: Any, predictions: list[NDArray[Any]], y: NDArray[Any]
) -> list[tuple[int, str, float]]:
    """Paper 001's series after each round of a booster exposing them ([] if not).

    For a final estimator with ``estimator_normalisers_`` (``Z_m``) and
    ``estimator_edges_`` (``gamma_m``), after each kept round ``m``:
    ``train_error``, the share of training rows its staged prediction gets wrong;
    ``normaliser_product``, ``prod_{k <= m} Z_k``; ``edge_bound``,
    ``exp(-2 sum_{k <= m} gamma_k^2)``. For AdaBoost from uniform weights at
    learning rate 1 they are the three sides of Theorems 1-2:
    ``train_error <= normaliser_product <= edge_bound``.

    Parameters
    ----------
    model : estimator
        The fitted model (a pipeline, possibly in a grid search).
    predictions : list of ndarray of shape (n_train,)
        Its staged predictions on its training part.
    y : ndarray of shape (n_train,)
        The training labels.

    Returns
    -------
    list of (int, str, float)
        ``(round, series name, value)``, rounds from 1.
    """
    final, _ = _final(model)
    normalisers = getattr(final, "estimator_normalisers_", None)
    edges = getattr(final, "estimator_edges_", None)
    if normalisers is None or edges is None or len(normalisers) == 0:
        return []
    values = {
        "train_error": [float(np.mean(pred != y)) for pred in predictions],
        "normaliser_product": np.cumprod(normalisers).tolist(),
        "edge_bound": np.exp(-2.0 * np.cumsum(np.square(edges))).tolist(),
    }
    n_rounds = len(normalisers)
    if any(len(v) != n_rounds for v in values.values()):
        raise ValueError(
            f"{type(final).__name__} gives {n_rounds} normalisers but "
            f"{len(values['train_error'])} staged predictions."
        )
    return [
        (stage + 1, name, float(value))
        for name in _ROUND_SERIES
        for stage, value in enumerate(values[name])
    ]


def run_cell(study: Study, cell: Cell) -> dict[str, Any]:
    """Fit and evaluate one cell; return its row for the results store.

    The warnings raised meanwhile are recorded, not printed (a worker process
    prints nothing).

    Parameters
    ----------
    study : Study
        The study the cell belongs to.
    cell : Cell
        The cell.

    Returns
    -------
    dict
        Identifiers, seed, parameters, sizes, timings, ``metrics``, ``curves``,
        ``series`` (a booster's per-round training series,
        :func:`_round_series`), ``diagnostics`` (what the fit did,
        :func:`fit_diagnostics`) and ``warnings``, a list of ``(category,
        message, count, texts)`` (messages with their numbers written ``N``;
        up to two texts as raised).
    """
    with collect_warnings() as records:
        row = _run_cell(study, cell)
    counts, texts = count_warnings(records)
    row["warnings"] = [(c, m, n, texts[(c, m)]) for (c, m), n in sorted(counts.items())]
    return row


def _run_cell(study: Study, cell: Cell) -> dict[str, Any]:
    """Fit and evaluate one cell (:func:`run_cell`, warnings not yet collected)."""
    X, y, pos_label, categorical = load_dataset(
        cell.dataset,
        study.seed,
        study.gaussian_samples,
        study.recipe_for(cell.dataset),
        study.protocol.categorical,
    )
    train, test = splits(study, cell.dataset, y, cell.repeat)[cell.fold]
    if cell.cost == ROW_COSTS:  # a file dataset's rows carry their own costs
        rows = file_row_costs(cell.dataset, study.recipe_for(cell.dataset))
        cost = Costs.resolve(None, y, pos_label=pos_label, sample_cost=rows)
    else:
        cost = Costs.resolve(cell.cost, y, pos_label=pos_label)
    seed = derive_seed(study.seed, "model", cell.key)
    model = build_model(study, cell.algorithm, cost, seed, categorical)
    done = fit_and_score(
        model,
        X,
        y,
        train,
        test,
        cost,
        row_costs=cost if cost.example_dependent else None,
    )
    values = dict(done.metrics)
    staged = {
        split: _staged_predictions(model, X[part])
        for split, part in (("train", train), ("test", test))
    }
    curves = [
        (stage + 1, split, value)
        for split, part in (("train", train), ("test", test))
        for stage, value in enumerate(
            _staged_costs(staged[split], y[part], _rows_of(cost, part))
        )
    ]
    if cell.dataset == "gaussian":
        values["excess_cost"] = _gaussian_excess_cost(model, cost)
    chosen = model.best_params_ if hasattr(model, "best_params_") else {}
    return {
        "key": cell.key,
        "dataset": cell.dataset,
        "cost": costs_label(cost),
        "algorithm": cell.algorithm.name,
        "repeat": cell.repeat,
        "fold": cell.fold,
        "seed": seed,
        "params": {
            "method": cell.algorithm.method,
            "base": cell.algorithm.base,
            "params": cell.algorithm.params,
            "chosen": chosen,
        },
        "n_train": int(train.size),
        "n_test": int(test.size),
        "fit_time": done.fit_s,
        "predict_time": done.predict_s,
        "metrics": {
            ("cost_total" if k == "cost" else k): float(v) for k, v in values.items()
        },
        "curves": curves,
        "series": _round_series(model, staged["train"], y[train]),
        "diagnostics": fit_diagnostics(model, done.prediction),
    }


def _gaussian_excess_cost(model: Any, cost: Costs) -> float:
    """Exact expected cost of a model on paper 000's problem, relative to Bayes.

    The expected cost is integrated over the known densities (not the test fold),
    on 256 x 256 equal-probability points per class.
    """
    problem = make_gaussian_problem()
    expected = problem.expected_cost(model, cost=cost.pair, resolution=256)
    return excess_cost(expected, _gaussian_bayes_risk(tuple(cost.pair)))


@functools.lru_cache(maxsize=64)
def _gaussian_bayes_risk(pair: tuple[float, ...]) -> float:
    """Bayes risk of paper 000's problem at costs ``pair`` (an integral: cached)."""
    risk = make_gaussian_problem().bayes_risk(pair)
    assert isinstance(risk, float)  # a (risk, error) pair only with return_error
    return risk
