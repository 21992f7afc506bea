"""A study's plan: its cells, their seeds and their folds.

A *cell* is one (dataset, cost, algorithm, repeat, fold), independent and
deterministic: the split of (dataset, repeat) is seeded from (study seed,
dataset, repeat) only, so every cost and algorithm sees the same folds (paired
comparisons); the model from (study seed, cell key).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

from costsense.experiments._labels import cost_label
from costsense.experiments._study import Algorithm, Study

__all__ = ["Cell", "check_folds", "derive_seed", "forward_chaining", "plan", "splits"]


def derive_seed(seed: int, *parts: Any) -> int:
    """Return a 32-bit seed from ``seed`` and the CRC32 of labels, stably."""
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
        """Unique text key: ``dataset|cost|algorithm|repeat|fold``."""
        parts = (self.dataset, cost_label(self.cost), self.algorithm.name)
        return "|".join([*parts, str(self.repeat), str(self.fold)])


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


def splits(
    study: Study, dataset: str, y: NDArray[Any], repeat: int, time: Any = None
) -> list[Any]:
    """Return the (train, test) index pairs of one repeat, seeded by it alone.

    A ``"time"`` protocol chains forward over ``time``, each row's period.
    """
    protocol = study.protocol
    if protocol.kind == "time":
        return forward_chaining(time, protocol.n_splits, y)
    seed = derive_seed(study.seed, "split", dataset, repeat)
    if protocol.kind == "kfold":
        check_folds(y, protocol.n_splits, option="protocol.n_splits = ")
        splitter: Any = StratifiedKFold(
            protocol.n_splits, shuffle=True, random_state=seed
        )
    else:
        splitter = StratifiedShuffleSplit(
            1, test_size=protocol.test_size, random_state=seed
        )
    return list(splitter.split(np.zeros((y.shape[0], 1)), y))


def forward_chaining(
    time: ArrayLike, folds: int, y: ArrayLike | None = None
) -> list[tuple[NDArray[np.intp], NDArray[np.intp]]]:
    """Split rows by period: train on the past, test on the next block of periods.

    The distinct values of ``time`` are sorted as NumPy sorts them (numbers by
    value, dates in time, text as written, character by character) and cut
    into ``folds + 1`` consecutive blocks of whole periods, each cut at the
    period boundary nearest an equal share of the rows. Fold ``f`` trains on
    blocks ``0..f`` and tests on block ``f + 1``, so a period is never split
    and every test period is strictly later than every training one (the
    expanding window of Tashman 2000, "Out-of-sample tests of forecasting
    accuracy", Int. J. Forecasting 16).

    Parameters
    ----------
    time : array-like of shape (n_samples,)
        Each row's period; no missing values.
    folds : int
        Number of test blocks (at least 1).
    y : array-like of shape (n_samples,), default=None
        Labels: when given, the first block must hold two classes or more.

    Returns
    -------
    list of (train, test) index arrays, in time order.

    Raises
    ------
    ValueError
        Missing periods, fewer than ``folds + 1`` periods, or a first
        training block of one class.
    """
    periods = np.asarray(time)
    if periods.ndim != 1 or (y is not None and len(periods) != len(np.asarray(y))):
        raise ValueError("time: give one period per row.")
    if periods.dtype.kind in "fcmM" and np.isnan(periods).any():
        raise ValueError("time: some rows have no period; drop them or fill them in.")
    try:
        values, code, counts = np.unique(
            periods, return_inverse=True, return_counts=True
        )
    except TypeError:
        raise ValueError(
            "time: periods of mixed kinds (numbers and text) cannot be ordered; "
            "give one kind."
        ) from None
    if folds < 1 or values.size < folds + 1:
        raise ValueError(
            f"time: {values.size} distinct periods cannot make {folds} forward-"
            f"chaining fold(s) ({folds} + 1 blocks of whole periods); use "
            f"{max(values.size - 1, 1)} folds or fewer, or finer periods."
        )
    ends = np.cumsum(counts)  # rows up to the end of each period
    cuts, last = [], -1
    for b in range(1, folds + 1):  # block b starts after period cuts[b - 1]
        nearest = int(np.argmin(np.abs(ends - b * ends[-1] / (folds + 1))))
        last = min(max(nearest, last + 1), values.size - 2 - (folds - b))
        cuts.append(last)
    block = np.searchsorted(np.asarray(cuts), np.arange(values.size), side="left")
    row_block = block[code.ravel()]
    if y is not None:
        first = np.unique(np.asarray(y)[row_block == 0])
        if first.size < 2:
            raise ValueError(
                f"time: the first training block (periods up to {values[cuts[0]]!s}) "
                f"holds class {first[0]!s} only; a model needs two classes: use "
                "fewer folds, or start the data earlier."
            )
    return [
        (np.flatnonzero(row_block <= f), np.flatnonzero(row_block == f + 1))
        for f in range(folds)
    ]


def check_folds(y: ArrayLike, folds: int, *, option: str = "n_splits=") -> None:
    """Refuse fewer than 2 folds, one class, or a class too small for the folds.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The labels.
    folds : int
        Number of folds: every class needs at least one row per test fold.
    option : str, default="n_splits="
        How the user sets the number of folds (``"--folds "``), in the fix.

    Raises
    ------
    ValueError
        Naming each class that is too small, its size, and what to do.
    """
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    if folds < 2 or classes.size < 2:
        raise ValueError(
            f"{option}{folds}: cross-validation needs 2 folds or more; use {option}5"
            if folds < 2
            else f"the target has one class ({classes[0]!s}); a classifier needs two"
        )
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
