"""A study's plan: its cells, their seeds, their data and their folds.

A *cell* is one (dataset, cost, algorithm, repeat, fold): fit on the training part,
evaluate on the test part. Cells are independent and deterministic:

- the split of (dataset, repeat) is seeded from (study seed, dataset, repeat) only,
  so every cost and algorithm sees the same folds (paired comparisons);
- the model of a cell is seeded from (study seed, cell key).

:meth:`Cell.definition` is what a store compares to keep a saved cell when the
study changes. Change this module when a cell gains something that determines
its results (then put it in the definition), or a dataset kind is added.
"""

from __future__ import annotations

import functools
import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

from costsense.datasets import load_keel, make_gaussian_problem
from costsense.experiments._derived import load_derived
from costsense.experiments._files import ROW_COSTS, load_file_dataset
from costsense.experiments._fold import check_folds
from costsense.experiments._labels import cost_label
from costsense.experiments._study import Algorithm, Study

__all__ = ["Cell", "derive_seed", "load_dataset", "plan", "splits"]


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
        search, the repeat and the fold; and for a cell at its rows' own costs,
        that each test row is decided by its own costs.

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
        if self.cost == ROW_COSTS:  # cells saved before the per-row decision
            data["decision"] = "per-row"  # of their test rows run again
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

    Notes
    -----
    A dataset is read once per process and shared by every call: its arrays are
    read-only (index them, as a fold does, to get a copy to change).
    """
    return _read_only(_load_dataset(name, seed, gaussian_samples, recipe, encoding))


def _read_only(data: tuple[Any, ...]) -> Any:
    """Mark the arrays of a cached dataset read-only: every caller shares them."""
    for array in data:
        if isinstance(array, np.ndarray):
            array.flags.writeable = False
    return data


@functools.lru_cache(maxsize=16)
def _load_dataset(
    name: str, seed: int, gaussian_samples: int, recipe: str, encoding: str
) -> tuple[NDArray[np.float64], NDArray[Any], Any, NDArray[np.intp]]:
    """Read a dataset once per process (:func:`load_dataset` shares it)."""
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
