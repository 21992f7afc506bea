"""Run a study: plan its cells, run them anywhere, save each as it finishes.

A *cell* is one (dataset, cost, algorithm, repeat, fold): fit on the training part,
evaluate on the test part. Cells are independent and deterministic:

- the split of (dataset, repeat) is seeded from (study seed, dataset, repeat) only,
  so every cost and algorithm sees the same folds (paired comparisons);
- the model of a cell is seeded from (study seed, cell key);
- preprocessing (scaling) is the first step of the model's pipeline, so it is
  fitted on the training part only; an inner grid search refits it per inner fold.

Cells run through joblib: in this process (``jobs=1``), in ``jobs`` local processes,
or on a Dask cluster (``scheduler="tcp://..."``, dask's joblib backend). Results come
back in completion order and are saved one by one, so an interruption loses only
the cells in flight; a re-run skips the saved ones. Whichever way they ran, the
saved numbers are the same.

A re-run after the study definition changed keeps every saved cell whose own
definition (:meth:`Cell.definition`: dataset, cost, algorithm and its parameters,
split, scaling, seed) did not change, and drops the others, which run again;
``restart=True`` moves the old store aside and starts afresh. A run holds its
folder's lock from start to end (:mod:`costsense.experiments._lock`): a second run
into the folder is refused, a killed run's lock is taken over, and local workers
end with the process that started them (:mod:`costsense.experiments._workers`).
The warnings a cell raises are recorded in the worker, saved with the cell and
summarised per algorithm (:mod:`costsense.experiments._warnings`); none is
printed.
"""

from __future__ import annotations

import functools
import json
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed, parallel_config
from numpy.typing import NDArray
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    StratifiedShuffleSplit,
)
from sklearn.pipeline import Pipeline

from costsense.costs import Costs
from costsense.datasets import load_keel, make_gaussian_problem
from costsense.experiments._catalog import CATALOG
from costsense.experiments._claims import check_claims
from costsense.experiments._derived import load_derived
from costsense.experiments._diagnostics import fit_diagnostics
from costsense.experiments._evaluate import (
    LOWER_IS_BETTER,
    fold_metrics,
    positive_scores,
    row_cost_metrics,
)
from costsense.experiments._files import ROW_COSTS, file_row_costs, load_file_dataset
from costsense.experiments._labels import cost_label, costs_label
from costsense.experiments._lock import hold_run_lock
from costsense.experiments._models import make_model
from costsense.experiments._report import (
    Boundary,
    ReportFiles,
    ReportSpec,
    write_report,
)
from costsense.experiments._store import (
    ResultsStore,
    StoreConflictError,
    save_npz_atomically,
)
from costsense.experiments._study import (
    Algorithm,
    Study,
    count_cells,
    study_from_record,
)
from costsense.experiments._warnings import collect_warnings, count_warnings
from costsense.experiments._workers import executor_options, worker_processes
from costsense.metrics import excess_cost, make_cost_scorer, misclassification_cost

__all__ = [
    "Cell",
    "RunSummary",
    "derive_seed",
    "load_dataset",
    "plan",
    "report_study",
    "run_cell",
    "run_study",
]


def derive_seed(seed: int, *parts: Any) -> int:
    """Return a 32-bit seed derived from ``seed`` and any labels, stably.

    Parameters
    ----------
    seed : int
        The study seed.
    *parts : hashable
        Labels (dataset name, repeat, cell key...); their text is hashed with CRC32,
        which is the same in every process and Python version.

    Returns
    -------
    int
    """
    key = tuple(zlib.crc32(str(p).encode()) for p in parts)
    sequence = np.random.SeedSequence(entropy=seed, spawn_key=key)
    return int(sequence.generate_state(1)[0])


@dataclass(frozen=True)
class Cell:
    """One unit of work: an algorithm on one split of one dataset at one cost."""

    dataset: str
    cost: Any
    algorithm: Algorithm
    repeat: int
    fold: int

    @property
    def key(self) -> str:
        """Unique text key, the results store's primary key."""
        return "|".join(
            [
                self.dataset,
                cost_label(self.cost),
                self.algorithm.name,
                str(self.repeat),
                str(self.fold),
            ]
        )

    def definition(self, study: Study) -> str:
        """Return canonical JSON text of everything that determines this cell.

        Two cells with the same key and definition give the same results: the
        study seed, the dataset (its derivation, the Gaussian sample size), the
        cost, the algorithm's method, base learner, parameters and grid, the
        split (k-fold's ``n_splits``, holdout's ``test_size``; not
        ``n_repeats``, which only adds repeats), the scaling, the encoding of
        categorical columns (when not one-hot), the inner folds of a grid
        search, the repeat and the fold.

        Parameters
        ----------
        study : Study
            The study the cell belongs to.

        Returns
        -------
        str
        """
        protocol = study.protocol
        recipe = study.derived.get(self.dataset)
        split: dict[str, Any] = {"kind": protocol.kind, "scale": protocol.scale}
        if protocol.categorical != "onehot":  # earlier studies' cells stay valid
            split["categorical"] = protocol.categorical
        if protocol.kind == "kfold":
            split["n_splits"] = protocol.n_splits
        else:
            split["test_size"] = protocol.test_size
        if self.algorithm.grid:
            split["inner_splits"] = protocol.inner_splits
        data = {
            "key": self.key,
            "seed": study.seed,
            "dataset": self.dataset,
            "recipe": (
                None
                if recipe is None
                else {k: v for k, v in recipe.items() if k != "note"}
            ),
            "gaussian_samples": (
                study.gaussian_samples if self.dataset == "gaussian" else None
            ),
            "algorithm": {
                "method": self.algorithm.method,
                "base": self.algorithm.base,
                "params": self.algorithm.params,
                "grid": self.algorithm.grid,
            },
            "protocol": split,
        }
        return json.dumps(data, sort_keys=True, default=str)


def plan(study: Study) -> list[Cell]:
    """List every cell of a study, in a fixed order.

    Parameters
    ----------
    study : Study
        The study.

    Returns
    -------
    list of Cell
    """
    return [
        Cell(dataset, cost, algorithm, repeat, fold)
        for dataset in study.datasets
        for repeat in range(study.protocol.n_repeats)
        for fold in range(study.protocol.folds_per_repeat)
        for cost in study.costs_for(dataset)
        for algorithm in study.algorithms
    ]


@functools.lru_cache(maxsize=16)
def load_dataset(
    name: str,
    seed: int,
    gaussian_samples: int,
    recipe: str = "",
    encoding: str = "onehot",
) -> tuple[NDArray[np.float64], NDArray[Any], Any, NDArray[np.intp]]:
    """Load a study dataset: ``(X, y, pos_label, categorical)``.

    Parameters
    ----------
    name : str
        A KEEL set name, or ``"gaussian"`` (paper 000's problem).
    seed : int
        Study seed (the Gaussian sample is drawn from it).
    gaussian_samples : int
        Size of the Gaussian sample.
    recipe : str, default=""
        A derived dataset's table as JSON (:meth:`Study.recipe_for`); "" for a
        KEEL set or the Gaussian problem.
    encoding : {"onehot", "ordinal"}, default="onehot"
        How a KEEL set's categorical columns become numbers (the study's
        ``protocol.categorical``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    pos_label : label
    categorical : ndarray of int
        The columns of category codes (none with one-hot encoding).
    """
    none = np.empty(0, dtype=np.intp)
    if name == "gaussian":
        X, y = make_gaussian_problem().sample(
            gaussian_samples, random_state=derive_seed(seed, "gaussian")
        )
        return X, y, 1, none
    if recipe:
        table = json.loads(recipe)
        if "sha256" in table:  # a [files.<name>] dataset: text columns one-hot
            return (*load_file_dataset(name, table), none)
        return load_derived(name, table, seed, encoding=encoding)
    bunch = load_keel(name, encoding=encoding)
    codes = np.flatnonzero(bunch.categorical) if encoding == "ordinal" else none
    return bunch.X, np.asarray(bunch.y), bunch.pos_label, codes


def _splits(study: Study, dataset: str, y: NDArray[Any], repeat: int) -> list[Any]:
    protocol = study.protocol
    seed = derive_seed(study.seed, "split", dataset, repeat)
    if protocol.kind == "kfold":
        splitter: Any = StratifiedKFold(
            protocol.n_splits, shuffle=True, random_state=seed
        )
    else:
        splitter = StratifiedShuffleSplit(
            1, test_size=protocol.test_size, random_state=seed
        )
    return list(splitter.split(np.zeros((y.shape[0], 1)), y))


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
    train, test = _splits(study, cell.dataset, y, cell.repeat)[cell.fold]
    if cell.cost == ROW_COSTS:  # a file dataset's rows carry their own costs
        rows = file_row_costs(cell.dataset, study.recipe_for(cell.dataset))
        cost = Costs.resolve(None, y, pos_label=pos_label, sample_cost=rows)
    else:
        cost = Costs.resolve(cell.cost, y, pos_label=pos_label)
    seed = derive_seed(study.seed, "model", cell.key)
    model = build_model(study, cell.algorithm, cost, seed, categorical)
    started = time.perf_counter()
    if cost.example_dependent:
        model.fit(X[train], y[train], model__sample_cost=cost.take(train))
    else:
        model.fit(X[train], y[train])
    fit_time = time.perf_counter() - started
    started = time.perf_counter()
    prediction = model.predict(X[test])
    pos_index = cost.pos_index
    assert pos_index is not None  # the studies' problems are binary
    scores = positive_scores(model, X[test], pos_index)
    predict_time = time.perf_counter() - started
    values = fold_metrics(y[test], prediction, scores, cost)
    if cost.example_dependent:  # the fold's cost by the test rows' own costs
        values.update(row_cost_metrics(y[test], prediction, cost.take(test)))
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
        "fit_time": fit_time,
        "predict_time": predict_time,
        "metrics": {
            ("cost_total" if k == "cost" else k): float(v) for k, v in values.items()
        },
        "curves": curves,
        "series": _round_series(model, staged["train"], y[train]),
        "diagnostics": fit_diagnostics(model, prediction),
    }


def _gaussian_excess_cost(model: Any, cost: Costs) -> float:
    """Exact expected cost of a model on paper 000's problem, relative to Bayes.

    The expected cost is integrated over the known densities (not the test fold),
    on 256 x 256 equal-probability points per class.
    """
    problem = make_gaussian_problem()
    expected = problem.expected_cost(model, cost.pair, resolution=256)
    return excess_cost(expected, _gaussian_bayes_risk(tuple(cost.pair)))


@functools.lru_cache(maxsize=64)
def _gaussian_bayes_risk(pair: tuple[float, ...]) -> float:
    """Bayes risk of paper 000's problem at costs ``pair`` (an integral: cached)."""
    risk = make_gaussian_problem().bayes_risk(pair)
    assert isinstance(risk, float)  # a (risk, error) pair only with return_error
    return risk


def boundary_grid(study: Study, dataset: str, cost: Any) -> dict[str, Any] | None:
    """Predictions of every algorithm on a grid over a 2-D dataset.

    Each algorithm is fitted on the training part of repeat 0, fold 0, with that
    cell's seed. For the Gaussian problem the grid also holds the exact Bayes
    discriminant (its zero level set is the reference boundary).

    Parameters
    ----------
    study : Study
        The study.
    dataset : str
        A dataset with two features.
    cost : ratio or pair
        The cost.

    Returns
    -------
    dict or None
        Arrays ``xx, yy, reference, X, y`` and ``pred_<algorithm>``; None when the
        dataset does not have two features.
    """
    X, y, pos_label, categorical = load_dataset(
        dataset,
        study.seed,
        study.gaussian_samples,
        study.recipe_for(dataset),
        study.protocol.categorical,
    )
    if X.shape[1] != 2:
        return None
    train, _ = _splits(study, dataset, y, 0)[0]
    setting = Costs.resolve(cost, y, pos_label=pos_label)
    if dataset == "gaussian":
        xx, yy, reference = make_gaussian_problem().bayes_boundary_grid(
            setting.pair, resolution=150
        )
    else:
        lo, hi = X.min(axis=0), X.max(axis=0)
        pad = 0.05 * (hi - lo)
        xx, yy = np.meshgrid(
            np.linspace(lo[0] - pad[0], hi[0] + pad[0], 150),
            np.linspace(lo[1] - pad[1], hi[1] + pad[1], 150),
        )
        reference = np.empty(0)
    grid = np.c_[xx.ravel(), yy.ravel()]
    arrays: dict[str, Any] = {
        "xx": xx,
        "yy": yy,
        "reference": reference,
        "X": X[train],
        "y": (y[train] == setting.pos_label).astype(np.int8),
    }
    for algorithm in study.algorithms:
        cell = Cell(dataset, cost, algorithm, 0, 0)
        seed = derive_seed(study.seed, "model", cell.key)
        model = build_model(study, algorithm, setting, seed, categorical)
        # the fit of cell (dataset, cost, algorithm, 0, 0) again: its warnings
        # are that cell's, already counted, so they are not counted twice
        with collect_warnings():
            model.fit(X[train], y[train])
            predicted = (model.predict(grid) == setting.pos_label).astype(np.int8)
        arrays[f"pred_{algorithm.name}"] = predicted.reshape(xx.shape)
    return arrays


@dataclass(frozen=True)
class RunSummary:
    """What a run did.

    Attributes
    ----------
    total : int
        Cells of the study.
    skipped : int
        Cells already in the store.
    ran : int
        Cells run and saved now.
    seconds : float
        Wall time of this run.
    interrupted : bool
        Whether the run was interrupted (Ctrl-C) before finishing.
    dropped : int
        Saved cells deleted before the run because their definition changed or
        the study no longer has them (the changed ones ran again).
    warnings : tuple of str
        One line per (algorithm, warning category) over every cell in the store
        (:meth:`costsense.experiments._warnings.WarningTally.lines`): the count,
        in how many cells, the message and what to change; empty when no fit
        warned.
    moved_to : Path or None
        With ``restart=True``, the folder the previous store was moved into
        (None when there was none).
    """

    total: int
    skipped: int
    ran: int
    seconds: float
    interrupted: bool
    dropped: int = 0
    warnings: tuple[str, ...] = ()
    moved_to: Path | None = None


def _executor(jobs: int, scheduler: str | None) -> tuple[Any, Any]:
    """Return ``(context manager, client)`` selecting the joblib backend.

    Local workers watch this process and end when it dies
    (:func:`costsense.experiments._workers.watch_parent`).
    """
    if scheduler is None:
        return parallel_config(backend="loky", n_jobs=jobs, **executor_options()), None
    from distributed import Client  # dask's cluster client: slow to load, only here

    client = Client(scheduler)
    return parallel_config(backend="dask", n_jobs=-1), client


def run_study(
    study: Study,
    out: str | Path,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int, int], Any] | None = None,
    on_cell: Callable[[dict[str, Any]], None] | None = None,
    restart: bool = False,
) -> RunSummary:
    """Run every unfinished cell of ``study`` and save it under ``out``.

    A store holding an earlier definition of the study keeps the cells whose
    definition (:meth:`Cell.definition`) is unchanged; the cells that changed or
    that the study no longer has are deleted (the changed ones run again), and
    so are the decision-boundary grids of their (dataset, cost) rows.

    Parameters
    ----------
    study : Study
        The study.
    out : str or Path
        Output folder holding the results store.
    jobs : int, default=1
        Local worker processes (1 runs in this process).
    scheduler : str, default=None
        Address of a Dask scheduler; cells then run on that cluster.
    progress : callable, default=None
        Called as ``progress(total, done)``; returns an object with ``update(1)``
        and ``close()`` (a tqdm bar).
    on_cell : callable, default=None
        Called with each saved cell.
    restart : bool, default=False
        Start afresh: the existing store (``results.sqlite`` and ``artifacts``)
        moves into a folder ``previous-<UTC time>`` inside ``out``; nothing is
        deleted.

    Returns
    -------
    RunSummary

    Raises
    ------
    StoreLockedError
        If another run holds ``out`` (:func:`hold_run_lock`): refused before
        anything there is read or moved (also with ``restart=True``).
    StoreConflictError
        If ``out`` holds another study, or the full study and ``study`` is its
        ``--quick`` version (that would delete the full study's other cells);
        also if another run re-initialised the store during this one (no cell
        of this run is written into it then).
    StoreFileError
        If the store cannot be used: corrupted or 0 bytes (``restart=True``
        moves it aside), a full disk, a read-only folder.

    Notes
    -----
    The run holds ``out``'s lock (``out/.lock``, :func:`hold_run_lock`) from
    start to end, so two runs never write one store; a lock left by a killed
    run is taken over, and that run's leftover workers ended. Local workers
    end within about a second when this process dies.
    """
    with hold_run_lock(out, study.name) as lock:
        store = ResultsStore(out)
        moved_to = store.move_aside() if restart else None
        cells = plan(study)
        stale = _stale_keys(study, cells, store)
        store.initialise(study.to_dict(), study.fingerprint(), drop=stale)
        for dataset, cost in sorted({tuple(key.split("|")[:2]) for key in stale}):
            (store.artifacts / f"boundary_{dataset}_{cost}.npz").unlink(missing_ok=True)
        done = store.done_keys()
        todo = [cell for cell in cells if cell.key not in done]
        bar = progress(len(cells), len(cells) - len(todo)) if progress else None
        started = time.perf_counter()
        interrupted = False
        context, client = _executor(jobs, scheduler)
        try:
            with context:
                results: Iterable[dict[str, Any]] = Parallel(
                    n_jobs=jobs if scheduler is None else -1,
                    return_as="generator_unordered",
                )(delayed(run_cell)(study, cell) for cell in todo)
                lock.record_workers(worker_processes())
                for row in results:
                    store.add(row)
                    lock.record_workers(worker_processes())
                    if bar is not None:
                        bar.update(1)
                    if on_cell is not None:
                        on_cell(row)
            _save_boundaries(study, store)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if bar is not None:
                bar.close()
            if client is not None:
                client.close()
        skipped = len(cells) - len(todo)
        return RunSummary(
            total=len(cells),
            skipped=skipped,
            ran=len(store.done_keys()) - skipped,  # the store is the truth
            seconds=time.perf_counter() - started,
            interrupted=interrupted,
            dropped=len(stale),
            warnings=tuple(store.warnings().lines(unit="cell")),
            moved_to=moved_to,
        )


def _stale_keys(study: Study, cells: list[Cell], store: ResultsStore) -> set[str]:
    """Keys of saved cells whose definition changed or that ``study`` lacks.

    The saved cells were run under the store's recorded study (each run
    records its definition after deleting what no longer fits it), so their
    definitions are recomputed from that record.
    """
    record = store.recorded_study()
    done = store.done_keys()
    if record is None or not done:
        return set()
    if record["name"] != study.name:
        raise StoreConflictError(
            f"{store.folder} holds results of study {record['name']!r}, not "
            f"{study.name!r}; write {study.name!r} to another folder (--out), or "
            "restart this one (--restart moves its results aside)."
        )
    recorded = study_from_record(record)
    before = {cell.key: cell.definition(recorded) for cell in plan(recorded)}
    now = {cell.key: cell.definition(study) for cell in cells}
    stale = {key for key in done if key not in now or before.get(key) != now[key]}
    removed = {key for key in done if key not in now}
    if study.quick and not record.get("quick", False) and removed:
        raise StoreConflictError(
            f"{store.folder} holds the full study {record['name']!r}; its quick "
            f"version would delete {len(removed)} of its cells. Write the quick run "
            "to another folder (--out), or restart this one."
        )
    return stale


def boundary_path(store: ResultsStore, dataset: str, cost: Any) -> Path:
    """Return the file of a boundary grid in the store's artefacts folder."""
    return store.artifacts / f"boundary_{dataset}_{cost_label(cost)}.npz"


def _save_boundaries(study: Study, store: ResultsStore) -> None:
    names = [f"pred_{algorithm.name}" for algorithm in study.algorithms]
    for dataset in study.datasets:
        for cost in study.costs_for(dataset):
            if cost == ROW_COSTS:  # each row has its own boundary: none to draw
                continue
            path = boundary_path(store, dataset, cost)
            if path.exists():
                with np.load(path) as saved:
                    if set(names) <= set(saved.files):
                        continue  # an algorithm added since needs a new grid
            arrays = boundary_grid(study, dataset, cost)
            if arrays is None:
                break
            save_npz_atomically(path, **arrays)


def _partial_banner(study: dict[str, Any], finished: int) -> str:
    """Return the report's warning for a quick or unfinished run ("" if neither)."""
    planned = count_cells(study)
    parts = []
    if study.get("quick"):
        parts.append(
            "This is the --quick version of the study (fewer datasets, costs or "
            "repeats): its numbers are a smoke test, and claims about rows it did "
            "not run are marked incomplete."
        )
    if finished < planned:
        parts.append(
            f"The run is unfinished: {finished} of {planned} cells are in the "
            "store; run the same command again to resume."
        )
    return " ".join(["Partial results.", *parts]) if parts else ""


def report_study(out: str | Path, *, alpha: float = 0.05) -> ReportFiles:
    """Write the Markdown and HTML report of a results store.

    Reads only the store (cells, curves, series, boundary grids), so a report can
    be rebuilt at any time, also from a partial run.

    Parameters
    ----------
    out : str or Path
        The folder of the results store; the report is written there.
    alpha : float, default=0.05
        Level of the statistical tests.

    Returns
    -------
    ReportFiles
        Paths of ``report.md``, ``report.html`` and the figures.
    """
    store = ResultsStore(out)
    study = store.study()
    results = store.results()
    if results.empty:
        raise ValueError(f"{store.path} holds no finished cells yet.")
    # tables list the algorithms in the study's order (their first appearance)
    order = {a["name"]: i for i, a in enumerate(study["algorithms"])}
    results = results.sort_values(
        "algorithm", key=lambda names: names.map(order), kind="stable"
    )
    boundaries = []
    for dataset in study["datasets"]:
        for cost in study.get("dataset_costs", {}).get(dataset, study["costs"]):
            path = boundary_path(store, dataset, cost)
            if not path.exists():
                continue
            with np.load(path) as grid:
                predictions = {
                    a["name"]: grid[f"pred_{a['name']}"] for a in study["algorithms"]
                }
                boundaries.append(
                    Boundary(
                        dataset=dataset,
                        cost=cost_label(cost),
                        xx=grid["xx"],
                        yy=grid["yy"],
                        predictions=predictions,
                        reference=grid["reference"] if grid["reference"].size else None,
                        X=grid["X"],
                        y=grid["y"],
                    )
                )
    spec = ReportSpec(
        title=study["title"],
        metrics=study["metrics"],
        lower_is_better=LOWER_IS_BETTER,
        reference=study["reference"],
        ratio_to=study.get("ratio_to"),
        notes=study["notes"],
        paper_notes=study.get("paper_notes", ""),
        alpha=alpha,
        paper=study.get("paper", []),
        claims=check_claims(
            results,
            study.get("claims", []),
            [tuple(row) for row in study.get("claim_rows", [])] or None,
            alpha=alpha,
            like_for_like=study.get("paper_datasets", []),
        ),
        paper_datasets=study.get("paper_datasets", []),
        banner=_partial_banner(study, len(results)),
        paper_features=study.get("paper_features", {}),
        noise_columns={
            name: int(recipe.get("append_uniform", 0))
            for name, recipe in study.get("derived", {}).items()
            if recipe.get("append_uniform", 0)
        },
        adaboost_algorithms=_theorem_algorithms(study),
        warnings=store.warnings().lines(unit="cell"),
    )
    return write_report(
        results,
        store.folder,
        spec,
        curves=store.curves(),
        boundaries=boundaries,
        series=store.series(),
    )


def _theorem_algorithms(study: dict[str, Any]) -> list[str]:
    """Return the study's rows that paper 001's theorems speak of.

    Its AdaBoost (a method whose catalog entry says ``theorems``, which the runner
    fits from uniform weights) at learning rate 1, neither set otherwise nor
    searched over.
    """
    return [
        a["name"]
        for a in study["algorithms"]
        if (spec := CATALOG.get(a["method"])) is not None
        and spec.theorems
        and float(a.get("params", {}).get("learning_rate", 1.0)) == 1.0
        and "learning_rate" not in a.get("grid", {})
    ]
