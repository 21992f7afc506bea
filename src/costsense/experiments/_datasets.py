"""Datasets described once: where their rows come from and what they can do.

A :class:`DatasetSpec` is a KEEL set, a set derived from one, a user's file, a
problem of known densities or a table in memory (``costsense evaluate``). Its
capabilities, not its name, decide what a cell records: :attr:`~DatasetSpec.problem`
(a known Bayes risk and boundary) and :meth:`~DatasetSpec.costs` (the rows' own
costs). Add a kind here, and nowhere else.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from costsense.costs import Costs
from costsense.datasets import load_keel
from costsense.experiments._derived import load_derived
from costsense.experiments._files import ROW_COSTS, file_row_costs, load_file_dataset
from costsense.experiments._plan import derive_seed
from costsense.experiments._problems import PROBLEMS
from costsense.experiments._study import Study

__all__ = ["DatasetSpec", "dataset_spec"]


@dataclass(frozen=True, eq=False)
class DatasetSpec:
    """One dataset: its kind, what loads it, and its capabilities.

    Attributes
    ----------
    name : str
        Its name in the study and the results.
    kind : {"keel", "derived", "file", "problem", "table"}
        Where its rows come from.
    seed : int
        The study seed (a problem's sample, a derived set's noise columns).
    encoding : {"onehot", "ordinal"}
        How a KEEL set's categorical columns become numbers.
    recipe : str
        A derived or file set's table as canonical JSON; "" otherwise.
    samples : int
        Rows drawn from a problem.
    table : tuple or None
        ``(X, y, pos_label)`` of a table held in memory.
    prepare : transformer or None
        First step of every model on the table (its column encoder).
    given : Costs or None
        The table's costs, resolved by the caller (class-level or per row).
    time : array-like or None
        Each row's period: the folds of a ``"time"`` protocol chain over it.
    actions : ActionCosts or None
        A true class x action table: the cells decide actions and are scored
        by it (``given`` then holds its label costs, what models learn from).
    """

    name: str
    kind: str
    seed: int = 0
    encoding: str = "onehot"
    recipe: str = ""
    samples: int = 0
    table: tuple[Any, Any, Any] | None = None
    prepare: Any = None
    given: Costs | None = None
    time: Any = None
    actions: Any = None

    def load(self) -> tuple[Any, Any, Any, Any]:
        """Return ``(X, y, pos_label, categorical codes)``, read once per process.

        The arrays of a cached set are read-only (index them to change a copy).
        """
        if self.table is not None:
            return (*self.table, np.empty(0, dtype=np.intp))
        data = _load(
            self.name, self.kind, self.seed, self.encoding, self.recipe, self.samples
        )
        for array in data:
            if isinstance(array, np.ndarray):
                array.flags.writeable = False
        return data

    @property
    def problem(self) -> Any:
        """The problem of known densities (Bayes risk, boundary) drawn from, or None."""
        return PROBLEMS[self.name]() if self.kind == "problem" else None

    def costs(self, cost: Any, y: Any, pos_label: Any) -> Costs:
        """Resolve a cell's cost: the table's own, a file's rows' costs, or ``cost``."""
        if self.given is not None:
            return self.given
        if cost == ROW_COSTS:
            rows = file_row_costs(self.name, self.recipe)
            return Costs.resolve(None, y, pos_label=pos_label, sample_cost=rows)
        return Costs.resolve(cost, y, pos_label=pos_label)


def dataset_spec(study: Study, name: str) -> DatasetSpec:
    """Describe dataset ``name`` of ``study`` (its seed, encoding and tables)."""
    seed, encoding = study.seed, study.protocol.categorical
    if name in PROBLEMS:
        return DatasetSpec(name, "problem", seed, samples=study.gaussian_samples)
    recipe = study.recipe_for(name)
    if not recipe:
        return DatasetSpec(name, "keel", seed, encoding)
    kind = "file" if "sha256" in json.loads(recipe) else "derived"
    return DatasetSpec(name, kind, seed, encoding, recipe=recipe)


@functools.lru_cache(maxsize=16)
def _load(
    name: str, kind: str, seed: int, encoding: str, recipe: str, samples: int
) -> tuple[Any, Any, Any, Any]:
    """Read a dataset (:meth:`DatasetSpec.load` shares it within a process)."""
    none = np.empty(0, dtype=np.intp)
    if kind == "problem":
        X, y = PROBLEMS[name]().sample(samples, random_state=derive_seed(seed, name))
        return X, y, 1, none
    if kind == "file":  # text columns one-hot
        return (*load_file_dataset(name, json.loads(recipe)), none)
    if kind == "derived":
        return load_derived(name, json.loads(recipe), seed, encoding=encoding)
    bunch = load_keel(name, encoding=encoding)
    codes = np.flatnonzero(bunch.categorical) if encoding == "ordinal" else none
    return bunch.X, np.asarray(bunch.y), bunch.pos_label, codes
