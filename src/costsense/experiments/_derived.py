"""Datasets a study derives from a KEEL set: columns dropped, noise appended, one class.

A study declares such a copy as a ``[derived.<name>]`` table (paper 003's Table 4
drops a feature of Credit-g and appends noise to Ionosphere); its keys are
described in ``docs/guide/study_format.rst``. The steps run in order: drop,
append, relabel.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.datasets import load_keel
from costsense.experiments._problems import PROBLEMS

__all__ = ["RECIPE_KEYS", "check_recipe", "check_table_keys", "load_derived"]

#: The keys a ``[derived.<name>]`` table may hold.
RECIPE_KEYS = ("from", "collection", "drop", "append_uniform", "positive", "note")


def check_table_keys(table: Any, keys: tuple[str, ...], where: str) -> None:
    """Refuse a dataset table that is not a table of ``keys`` (named ``where``)."""
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table of keys {list(keys)}.")
    unknown = sorted(set(table) - set(keys))
    if unknown:
        raise ValueError(f"{where} has unknown keys {unknown}; use {list(keys)}.")


def check_recipe(name: str, recipe: Any, source: str) -> dict[str, Any]:
    """Validate the ``[derived.<name>]`` table of study file ``source``."""
    where = f"{source}: derived dataset {name!r}"
    check_table_keys(recipe, RECIPE_KEYS, where)
    if not isinstance(recipe.get("from"), str):
        raise ValueError(f"{where} needs 'from', the KEEL set it starts from.")
    if name in (*PROBLEMS, recipe["from"]):
        raise ValueError(
            f"{where}: give the derived set a name of its own (not {sorted(PROBLEMS)} "
            "or the name of the set it starts from)."
        )
    drop = recipe.get("drop", [])
    if not isinstance(drop, list) or not all(isinstance(c, str) for c in drop):
        raise ValueError(f"{where}: 'drop' must be a list of KEEL column names.")
    count = recipe.get("append_uniform", 0)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"{where}: 'append_uniform' must be a count (0 or more).")
    if count > 1_000:  # every row gets them: a memory bomb otherwise
        raise ValueError(
            f"{where}: 'append_uniform' is {count:,}, over the limit of "
            "1,000 noise columns; append fewer."
        )
    collection = recipe.get("collection")
    if collection not in (None, "balanced", "imbalanced"):
        raise ValueError(
            f"{where}: 'collection' must be 'balanced' or 'imbalanced', got "
            f"{collection!r}."
        )
    return dict(recipe)


def load_derived(
    name: str, recipe: dict[str, Any], seed: int, encoding: str = "onehot"
) -> tuple[NDArray[np.float64], NDArray[Any], Any, NDArray[np.intp]]:
    """Build derived dataset ``name``: ``(X, y, pos_label, columns of category codes)``.

    The noise columns are seeded by the study ``seed`` and ``name``.
    """
    bunch = load_keel(
        recipe["from"], encoding=encoding, collection=recipe.get("collection")
    )
    X = np.asarray(bunch.X, dtype=np.float64)
    y = np.asarray(bunch.y)
    pos_label = bunch.pos_label
    names = [str(column) for column in bunch.feature_names]
    dropped = set()
    for column in recipe.get("drop", []):
        matches = {
            i for i, n in enumerate(names) if n == column or n.startswith(column + "=")
        }
        if not matches:
            raise ValueError(
                f"derived dataset {name!r}: {recipe['from']!r} has no column "
                f"{column!r}; its columns are {names}."
            )
        dropped |= matches
    kept = [i for i in range(X.shape[1]) if i not in dropped]
    X = X[:, kept]
    codes = np.zeros(len(names), dtype=bool)
    if encoding == "ordinal":  # one column per KEEL column: the mask lines up
        codes = np.asarray(bunch.categorical, dtype=bool)
    codes = codes[kept]
    count = int(recipe.get("append_uniform", 0))
    if count:
        # the same columns for every cell: seeded by the study and the set only
        key = zlib.crc32(f"{seed}/derived/{name}".encode())
        noise = np.random.default_rng(key).uniform(0.0, 1.0, size=(X.shape[0], count))
        X = np.hstack([X, noise])
        codes = np.concatenate([codes, np.zeros(count, dtype=bool)])
    positive = recipe.get("positive")
    if positive is not None:
        labels = [str(v) for v in np.unique(y)]
        if str(positive) not in labels:
            raise ValueError(
                f"derived dataset {name!r}: {positive!r} is not a class of "
                f"{recipe['from']!r}; its classes are {labels}."
            )
        y = np.where(y.astype(str) == str(positive), str(positive), "rest")
        pos_label = str(positive)
    return X, y, pos_label, np.flatnonzero(codes)
