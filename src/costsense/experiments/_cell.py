"""A study's cell: build its model, fit it on one fold, score it, record what is asked.

Every cell of ``costsense reproduce`` and ``costsense evaluate`` is one
:func:`run_cell`; preprocessing is the pipeline's first step, fitted on the
training part only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from costsense._base import learns_row_costs
from costsense.costs import Costs
from costsense.decision import ActionCosts
from costsense.decision import decide as decide_actions
from costsense.experiments._catalog import decide
from costsense.experiments._datasets import DatasetSpec
from costsense.experiments._diagnostics import fit_diagnostics
from costsense.experiments._labels import cost_label
from costsense.experiments._models import make_model
from costsense.experiments._plan import Cell, derive_seed, splits
from costsense.experiments._recorders import STUDY_RECORDERS, Fitted
from costsense.experiments._scores import (
    action_metrics,
    fold_metrics,
    multiclass_metrics,
    positive_scores,
)
from costsense.experiments._study import Algorithm, Study
from costsense.experiments._warnings import collect_warnings, count_warnings
from costsense.metrics import make_cost_scorer

__all__ = ["build_model", "fit_and_score", "run_cell"]


def build_model(
    study: Study,
    algorithm: Algorithm,
    cost: Costs,
    seed: int,
    categorical: Iterable[int] = (),
    prepare: Any = None,
) -> Any:
    """Build a cell's unfitted model on the mean matrix of ``cost``, grid-searched."""
    matrix = cost.mean_matrix
    model = make_model(
        algorithm.method,
        base=algorithm.base,
        cost=matrix,
        pos_label=cost.pos_label,
        seed=seed,
        scaler=study.protocol.scale,
        prepare=prepare,
        categorical_features=categorical,
    )
    if algorithm.params:
        model.set_params(**{f"model__{k}": v for k, v in algorithm.params.items()})
    if not algorithm.grid:
        return model
    return GridSearchCV(
        model,
        {f"model__{k}": list(v) for k, v in algorithm.grid.items()},
        scoring=make_cost_scorer(matrix, pos_label=cost.pos_label, normalize=True),
        cv=StratifiedKFold(
            study.protocol.inner_splits, shuffle=True, random_state=seed
        ),
        error_score="raise",
    )


def fit_and_score(
    model: Any,
    X: Any,
    y: NDArray[Any],
    train: NDArray[np.intp],
    test: NDArray[np.intp],
    cost: Costs,
    actions: ActionCosts | None = None,
) -> tuple[NDArray[Any], dict[str, Any]]:
    """Fit on ``train`` (per-row costs where learnt), decide and score ``test``.

    With ``actions`` (a true class x action table; ``cost`` its label costs),
    the test rows get the action of least expected cost from the model's
    probabilities (:func:`costsense.decision.decide`) and the cost metrics are
    those actions' realised costs (:func:`action_metrics`).
    """
    X_train, X_test = (
        X.iloc[rows] if hasattr(X, "iloc") else np.asarray(X)[rows]
        for rows in (train, test)
    )
    test_costs = cost.take(test) if cost.example_dependent else None
    started = time.perf_counter()
    if cost.example_dependent and learns_row_costs(model[-1]):
        model.set_params(model__cost=None)  # the rows' own costs replace it
        model.fit(X_train, y[train], model__sample_cost=cost.take(train))
    else:
        model.fit(X_train, y[train])
    fit_time = time.perf_counter() - started
    started = time.perf_counter()
    if actions is not None:
        per_row = actions.table.ndim == 3
        table = (
            ActionCosts(actions.table[test], actions.actions) if per_row else actions
        )
        prediction = decide_actions(model.predict_proba(X_test), table)[0]
    else:
        prediction = np.asarray(decide(model, X_test, test_costs))
    predict_time = time.perf_counter() - started
    if actions is not None:
        found = action_metrics(y[test], prediction, table, cost.classes)
    elif cost.pos_index is None:
        found = multiclass_metrics(y[test], prediction, cost.matrix, model.classes_)
    else:
        scores = positive_scores(model, X_test, cost.pos_index)
        found = fold_metrics(y[test], prediction, scores, cost, test_costs)
    metrics = {k: float(v) for k, v in found.items()}
    times = {"fit_time": fit_time, "predict_time": predict_time}
    return prediction, {**times, "metrics": metrics}


def run_cell(
    study: Study,
    cell: Cell,
    data: DatasetSpec,
    recorders: Sequence[Callable[[Fitted, dict[str, Any]], None]] = STUDY_RECORDERS,
) -> dict[str, Any]:
    """Fit and evaluate one cell; return its row, its warnings recorded, not printed.

    Parameters
    ----------
    study : Study
        The study the cell belongs to.
    cell : Cell
        The cell.
    data : DatasetSpec
        Its dataset.
    recorders : sequence of callable, default=STUDY_RECORDERS
        What the cell records beyond its metrics.

    Returns
    -------
    dict
        ``key, dataset, cost, algorithm, repeat, fold, seed, params, n_train,
        n_test, fit_time, predict_time, metrics, curves, series, diagnostics,
        warnings``.
    """
    with collect_warnings() as records:
        X, y, pos_label, categorical = data.load()
        folds = splits(study, cell.dataset, y, cell.repeat, data.time)
        train, test = folds[cell.fold]
        cost = data.costs(cell.cost, y, pos_label)
        seed = derive_seed(study.seed, "model", cell.key)
        model = build_model(
            study, cell.algorithm, cost, seed, categorical, data.prepare
        )
        prediction, scored = fit_and_score(model, X, y, train, test, cost, data.actions)
        row: dict[str, Any] = {
            "key": cell.key,
            "dataset": cell.dataset,
            "cost": cost_label(cell.cost),
            "algorithm": cell.algorithm.name,
            "repeat": cell.repeat,
            "fold": cell.fold,
            "seed": seed,
            "params": {
                "method": cell.algorithm.method,
                "base": cell.algorithm.base,
                "params": cell.algorithm.params,
                "chosen": getattr(model, "best_params_", {}),
            },
            "n_train": int(train.size),
            "n_test": int(test.size),
            **scored,
            "curves": [],
            "series": [],
            "diagnostics": fit_diagnostics(model, prediction),
        }
        fitted = Fitted(model, X, y, train, test, cost, data)
        for record in recorders:
            record(fitted, row)
    row["warnings"] = count_warnings(records)
    return row
