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

__all__ = ["Cell", "check_folds", "derive_seed", "plan", "splits"]


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


def splits(study: Study, dataset: str, y: NDArray[Any], repeat: int) -> list[Any]:
    """Return the (train, test) index pairs of one repeat, seeded by it alone."""
    protocol = study.protocol
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
