"""A study's cell: build its model, fit and score it, and record what the study asks.

The fit, the decision and the fold's metrics are
:func:`~costsense.experiments._fold.fit_and_score`; a cell adds an optional grid
search around the model (:func:`build_model`), what the fit did
(:func:`~costsense.experiments._diagnostics.fit_diagnostics`), the warnings it
raised, and what its recorders add (:mod:`costsense.experiments._recorders`).
Preprocessing is the first step of the model's pipeline, so it is fitted on the
training part only; an inner grid search refits it per inner fold.

Change it when every cell must record something new.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sklearn.model_selection import GridSearchCV, StratifiedKFold

from costsense.costs import Costs
from costsense.experiments._datasets import DatasetSpec
from costsense.experiments._diagnostics import fit_diagnostics
from costsense.experiments._fold import fit_and_score
from costsense.experiments._labels import cost_label
from costsense.experiments._models import make_model
from costsense.experiments._plan import Cell, derive_seed, splits
from costsense.experiments._recorders import STUDY_RECORDERS, Fitted
from costsense.experiments._study import Algorithm, Study
from costsense.experiments._warnings import collect_warnings, count_warnings
from costsense.metrics import make_cost_scorer

__all__ = ["build_model", "run_cell"]


def build_model(
    study: Study,
    algorithm: Algorithm,
    cost: Costs,
    seed: int,
    categorical: Iterable[int] = (),
    prepare: Any = None,
) -> Any:
    """Build a cell's unfitted model: scaling, the method, an optional grid search.

    The model gets the class-level matrix of ``cost`` (the rows' mean matrix of
    per-row costs), as the grid search's scorer does; ``study`` gives the
    scaling and the inner folds, ``algorithm`` the method, base learner,
    parameters and grid, ``categorical`` the columns of category codes and
    ``prepare`` a first step (a table's column encoder).
    """
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


def run_cell(
    study: Study,
    cell: Cell,
    data: DatasetSpec,
    recorders: Sequence[Callable[[Fitted, dict[str, Any]], None]] = STUDY_RECORDERS,
) -> dict[str, Any]:
    """Fit and evaluate one cell; return its row.

    The warnings raised meanwhile are recorded, not printed.

    Parameters
    ----------
    study : Study
        The study the cell belongs to.
    cell : Cell
        The cell.
    data : DatasetSpec
        Its dataset (:func:`~costsense.experiments._datasets.dataset_spec`).
    recorders : sequence of callable, default=STUDY_RECORDERS
        What the cell records beyond its metrics.

    Returns
    -------
    dict
        ``key, dataset, cost, algorithm, repeat, fold, seed, params, n_train,
        n_test, fit_time, predict_time`` (seconds), ``metrics`` (name to value),
        ``curves`` (``(stage, split, value)``), ``series`` (``(stage, name,
        value)``), ``diagnostics`` (:func:`fit_diagnostics`) and ``warnings``,
        a list of ``(category, message, count, texts)`` (messages with their
        numbers written ``N``; up to two texts as raised).
    """
    with collect_warnings() as records:
        X, y, pos_label, categorical = data.load()
        train, test = splits(study, cell.dataset, y, cell.repeat)[cell.fold]
        cost = data.costs(cell.cost, y, pos_label)
        seed = derive_seed(study.seed, "model", cell.key)
        model = build_model(
            study, cell.algorithm, cost, seed, categorical, data.prepare
        )
        done = fit_and_score(model, X, y, train, test, cost)
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
            "fit_time": done.fit_time,
            "predict_time": done.predict_time,
            "metrics": {k: float(v) for k, v in done.metrics.items()},
            "curves": [],
            "series": [],
            "diagnostics": fit_diagnostics(model, done.prediction),
        }
        fitted = Fitted(model, X, y, train, test, cost, data)
        for record in recorders:
            record(fitted, row)
    row["warnings"] = count_warnings(records)
    return row
