"""``costsense evaluate``: a one-dataset study run in memory, and its table.

The same planner, cell function and workers as ``costsense reproduce``, so a row
of either is computed and named one way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import Costs
from costsense.decision import ActionCosts
from costsense.experiments._catalog import default_base, refusals
from costsense.experiments._cell import run_cell
from costsense.experiments._datasets import DatasetSpec
from costsense.experiments._labels import costs_label
from costsense.experiments._plan import (
    Cell,
    check_folds,
    forward_chaining,
    plan,
    splits,
)
from costsense.experiments._recorders import out_of_fold
from costsense.experiments._runner import run_cells
from costsense.experiments._scores import (
    ACTION_METRICS,
    FOLD_METRICS,
    GAIN,
    LOWER_IS_BETTER,
    MULTICLASS_METRICS,
    TIME_COLUMNS,
    action_metrics,
    fold_metrics,
    multiclass_metrics,
)
from costsense.experiments._stats import best_mask, describe
from costsense.experiments._study import Algorithm, Protocol, Study

__all__ = ["CURRENT", "evaluate", "pooled_probabilities", "summarise"]

#: The name of the current decision's rows (``current=``, ``--current-decision``).
CURRENT = "current decision"


def evaluate(
    X: ArrayLike,
    y: ArrayLike,
    methods: Iterable[str],
    *,
    cost: Any = None,
    pos_label: Any = None,
    base: str | None = None,
    n_splits: int = 5,
    seed: int = 0,
    prepare: Any = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    n_jobs: int = 1,
    name: str = "data",
    time: ArrayLike | None = None,
    current: ArrayLike | None = None,
    actions: ActionCosts | None = None,
) -> list[dict[str, Any]]:
    """Cross-validation of named models on one data set, stratified or over time.

    A study of one dataset, one cost and one repeat of ``n_splits`` folds:
    every model sees the same folds; a fold that raises gets its ``error``.
    Each row keeps its test rows (``test_index``) and their class probabilities
    (``proba``), for :func:`decision_report`.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features (a DataFrame when ``prepare`` encodes its columns).
    y : array-like of shape (n_samples,)
        Labels: two classes, or more with a K x K cost matrix.
    methods : iterable of str
        Names from :data:`costsense.experiments.CATALOG`.
    cost : cost specification or Costs
        Class-level cost (ratio, pair, K x K matrix), or :class:`Costs` resolved
        against ``y``; per-row ones fit the models where they learn from them,
        decide the test rows and give the cost metrics.
    pos_label : hashable, default=None
        Positive class of a binary problem; the minority class if None.
    base : str, default=None
        Base learner of the models built on one; None gives each its default.
    n_splits : int, default=5
        Number of folds.
    seed : int, default=0
        The study seed: the folds' and the models' seeds derive from it.
    prepare : transformer, default=None
        First step of every model (a column encoder), fitted per training fold.
    on_row : callable, default=None
        Called with each finished row, in completion order.
    n_jobs : int, default=1
        Local worker processes; the rows are the same, but for their times.
    name : str, default="data"
        The dataset's name: with the seed it seeds the folds, so a study naming
        its dataset so (same seed, ``n_splits``) splits the same folds.
    time : array-like of shape (n_samples,), default=None
        Each row's period: the folds chain forward over it
        (:func:`~costsense.experiments.forward_chaining`) instead of being
        stratified at random. Not a feature (leave it out of ``X``).
    current : array-like of shape (n_samples,), default=None
        The decisions a team takes today (labels, or action names with
        ``actions``), scored on the same test folds at the same true costs: rows
        named :data:`CURRENT`, and each model's ``gain_over_current``, the money
        it saves over them per fold. Not a feature.
    actions : ActionCosts, default=None
        A true class x action table (one, or one per row): the models learn its
        label costs (:meth:`~costsense.decision.ActionCosts.label_costs`, or
        ``cost`` if given), decide actions from their probabilities, and are
        scored by the actions' realised costs.

    Returns
    -------
    list of dict
        One row per (fold, model) in plan order: a cell's row
        (:func:`~costsense.experiments.run_cell`), or ``key, algorithm, fold,
        error, warnings`` for a failed one; then the current decision's rows.

    Raises
    ------
    ValueError
        An unknown model or a pair it does not accept, per-row costs for a
        model that cannot take them, a class with fewer rows than folds.
    """
    y = np.asarray(y)
    methods = list(methods)
    classes = np.unique(y)
    if time is None:
        check_folds(y, n_splits)
    else:
        forward_chaining(time, n_splits, y)  # refuse before any fit
    given = _label_costs(cost, actions, y, pos_label)
    agrees = pos_label is None or pos_label == given.pos_label
    if not (agrees and np.array_equal(given.classes, classes)):
        raise ValueError(
            f"cost (classes {given.classes.tolist()[:10]}, positive {given.pos_label!r}"
            f") disagrees with the target's classes {classes.tolist()[:10]} or "
            f"pos_label={pos_label!r}; resolve the cost against this target."
        )
    problems = refusals(
        methods,
        base,
        n_classes=classes.size,
        row_costs=given.example_dependent,
        scored=True,
    )
    if problems:
        raise ValueError("; ".join(message for _, message in problems) + ".")
    study = Study(
        name="evaluate",
        seed=seed,
        datasets=(name,),
        costs=("matrix" if classes.size > 2 else costs_label(given),),
        algorithms=tuple(
            Algorithm(m, m, base if base is not None else default_base(m))
            for m in methods
        ),
        protocol=Protocol("kfold" if time is None else "time", n_splits),
    )
    data = DatasetSpec(
        name,
        "table",
        seed=seed,
        table=(X, y, given.pos_label),
        prepare=prepare,
        given=given,
        time=None if time is None else np.asarray(time),
        actions=actions,
    )
    cells = plan(study)
    rows: list[dict[str, Any]] = []
    folds = splits(study, name, y, 0, data.time)
    baseline = [] if current is None else _current_rows(current, y, given, data, folds)

    def keep(row: dict[str, Any]) -> None:
        if baseline and not row.get("error") and row["algorithm"] != CURRENT:
            spent = baseline[row["fold"]]["metrics"]["cost_total"]
            row["metrics"][GAIN] = spent - row["metrics"]["cost_total"]
        rows.append(row)
        if on_row is not None:
            on_row(row)

    tasks = [(study, cell, data) for cell in cells]
    run_cells(_cell_or_error, tasks, keep, jobs=n_jobs)
    order = {cell.key: i for i, cell in enumerate(cells)}
    for row in baseline:
        keep(row)
    return sorted(rows, key=lambda row: order.get(row["key"], len(order)))


def _label_costs(cost: Any, actions: Any, y: NDArray[Any], pos_label: Any) -> Costs:
    """Return the costs models learn: ``cost``, or the label costs of ``actions``."""
    if actions is not None and not isinstance(actions, ActionCosts):
        raise TypeError("actions: give an ActionCosts table.")
    if cost is not None:
        return (
            cost
            if isinstance(cost, Costs)
            else Costs.resolve(cost, y, pos_label=pos_label)
        )
    if actions is None:
        raise ValueError(
            "cost/actions: give one, a label cost (cost=) or an action table "
            "(actions=ActionCosts(...))."
        )
    labels = actions.label_costs()
    if labels.ndim == 3:
        return Costs.resolve(None, y, pos_label=pos_label, sample_cost=labels)
    return Costs.resolve(labels, y, pos_label=pos_label)


def _current_rows(
    current: ArrayLike,
    y: NDArray[Any],
    given: Costs,
    data: DatasetSpec,
    folds: list[Any],
) -> list[dict[str, Any]]:
    """Score today's decisions on each test fold at the rows' true costs."""
    decided = np.asarray(current)
    names = data.actions.actions if data.actions is not None else given.classes.tolist()
    known = set(names)
    strange = sorted({str(v) for v in decided.tolist() if v not in known})
    if decided.shape != y.shape or strange:
        what = "actions" if data.actions is not None else "labels of the target"
        raise ValueError(
            f"current: give one decision per row ({y.shape[0]}), each among the "
            f"{what} {names[:10]}; found {strange[:5] or decided.shape}."
        )
    rows = []
    for fold, (_, test) in enumerate(folds):
        pred = decided[test]
        if data.actions is not None:
            table = data.actions
            if table.table.ndim == 3:
                table = ActionCosts(table.table[test], table.actions)
            found = action_metrics(y[test], pred, table, given.classes)
        elif given.pos_index is None:
            found = multiclass_metrics(y[test], pred, given.matrix, given.classes)
        else:
            hard = (pred == given.pos_label).astype(float)  # its ranking: itself
            row_costs = given.take(test) if given.example_dependent else None
            found = fold_metrics(y[test], pred, hard, given, row_costs)
        rows.append(
            {
                "key": f"{data.name}|{CURRENT}|{fold}",
                "algorithm": CURRENT,
                "fold": fold,
                "n_test": int(test.size),
                "metrics": {k: float(v) for k, v in found.items()},
                "fit_time": 0.0,
                "predict_time": 0.0,
                "diagnostics": {"constant": bool(np.unique(pred).size <= 1)},
                "test_index": test,
                "proba": None,
                "warnings": [],
            }
        )
    return rows


def pooled_probabilities(
    rows: Iterable[dict[str, Any]],
) -> dict[str, tuple[NDArray[np.intp], NDArray[np.float64]]]:
    """Each model's test rows and their probabilities, concatenated over its folds.

    What :func:`costsense.decision.decision_report` reads: rows of
    :func:`evaluate` with ``proba`` (a model with probabilities, a fold that ran).
    """
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row.get("proba") is not None and not row.get("error"):
            found.setdefault(row["algorithm"], []).append(row)
    return {
        model: (
            np.concatenate([r["test_index"] for r in kept]),
            np.concatenate([r["proba"] for r in kept]),
        )
        for model, kept in found.items()
    }


def _cell_or_error(study: Study, cell: Cell, data: DatasetSpec) -> dict[str, Any]:
    """Run one cell, recording its test rows' probabilities; a failure, an error row."""
    try:
        return run_cell(study, cell, data, recorders=(out_of_fold,))
    except Exception as error:
        failed = f"{type(error).__name__}: {error}"
        keys = {"key": cell.key, "algorithm": cell.algorithm.name, "fold": cell.fold}
        return {**keys, "error": failed, "warnings": []}


def summarise(
    rows: list[dict[str, Any]],
    methods: Iterable[str],
    notes: dict[str, list[str]] | None = None,
) -> list[list[str]]:
    """Table of ``mean (std)`` per model and metric, with each model's notes.

    Parameters
    ----------
    rows : list of dict
        Rows from :func:`evaluate`.
    methods : iterable of str
        Row order of the table.
    notes : dict of str to list of str, default=None
        Notes per model from the caller (such as "cost-blind").

    Returns
    -------
    list of list of str
        A header, then per model the metrics' mean (sample std) over the folds
        that ran, NaN left out (``*`` marks the best of two models or more that
        ran the same folds, the most any ran: an unfinished model is not compared),
        the mean seconds, ``folds`` (ran of tried) and ``notes`` (the caller's,
        folds that predicted one class, the first error).
    """
    methods = [m for m in methods if any(r["algorithm"] == m for r in rows)]
    tried = {m: [r for r in rows if r["algorithm"] == m] for m in methods}
    ran = {m: [r for r in tried[m] if not r.get("error")] for m in methods}
    found_names = {k for m in ran for r in ran[m] for k in r["metrics"]}
    names: tuple[str, ...] = (
        MULTICLASS_METRICS
        if "balanced_accuracy" in found_names
        else FOLD_METRICS
        if "recall" in found_names
        else ACTION_METRICS
    ) + (GAIN,) * (GAIN in found_names)
    scored = [m for m in methods if ran[m]]
    ran_folds = {m: sorted(r["fold"] for r in ran[m]) for m in scored}
    widest = max(ran_folds.values(), key=len, default=[])
    compared = [m for m in scored if ran_folds[m] == widest]  # the same folds ran
    shown = {m: ["-"] * len(names) for m in methods}
    for i, k in enumerate(names if scored else ()):
        found = [
            np.array([r["metrics"].get(k, np.nan) for r in ran[m]], float)
            for m in scored
        ]
        found = [v[~np.isnan(v)] for v in found]
        described = [describe(v) if v.size else (np.nan, np.nan) for v in found]
        means, stds = np.array(described).T.reshape(2, -1)
        means_compared = np.where([m in compared for m in scored], means, np.nan)
        best = best_mask(means_compared[None, :], lower_is_better=k in LOWER_IS_BETTER)
        digits = 1 if k in ("cost_total", GAIN) else 3
        for j, m in enumerate(scored):
            if not found[j].size:
                continue
            mark = "*" if len(compared) >= 2 and best[0, j] else " "
            shown[m][i] = f"{means[j]:.{digits}f} ({stds[j]:.{digits}f}){mark}"
    table = [["model", *names, *TIME_COLUMNS, "folds", "notes"]]
    for m in methods:
        said = list((notes or {}).get(m, []))
        constant = sum(r["diagnostics"]["constant"] for r in ran[m])
        if constant:
            said.append(f"CONSTANT: predicts one class in {constant} fold(s)")
        errors = [r["error"] for r in tried[m] if r.get("error")]
        if errors:
            first = " ".join(errors[0].split())  # one line
            first = first if len(first) <= 160 else first[:157] + "..."
            said.append(f"FAILED in {len(errors)} fold(s): {first}")
        times = [
            f"{np.mean([r[k] for r in ran[m]]):.2f}" if ran[m] else "-"
            for k in TIME_COLUMNS
        ]  # seconds per fold, not compared
        if m in ran_folds and m not in compared:
            said.append("not compared for *: other folds ran")
        folds = f"{len(ran[m])}/{len(tried[m])}"
        table.append([m, *shown[m], *times, folds, "; ".join(said)])
    return table
