"""A study's plan: its cells, their seeds and their folds.

A *cell* is one (dataset, cost, algorithm, repeat, fold): fit on the training part,
evaluate on the test part. Cells are independent and deterministic:

- the split of (dataset, repeat) is seeded from (study seed, dataset, repeat) only,
  so every cost and algorithm sees the same folds (paired comparisons);
- the model of a cell is seeded from (study seed, cell key).

Change it when a cell gains a dimension.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

from costsense.experiments._fold import check_folds
from costsense.experiments._labels import cost_label
from costsense.experiments._study import Algorithm, Study

__all__ = ["Cell", "derive_seed", "plan", "splits"]


def derive_seed(seed: int, *parts: Any) -> int:
    """Return a 32-bit seed derived from ``seed`` and labels, stably.

    The labels' text (dataset name, repeat, cell key...) is hashed with CRC32,
    the same in every process and Python version.
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
    """Return the (train, test) index pairs of one repeat of a dataset.

    Seeded from (study seed, dataset, repeat) only; a class with fewer rows than
    k-fold's folds is refused by name
    (:func:`~costsense.experiments._fold.check_folds`).
    """
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
