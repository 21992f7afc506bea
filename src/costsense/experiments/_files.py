"""Datasets a study reads from a user's CSV or Parquet file (``[files.<name>]``).

The file is read and encoded by :func:`costsense.datasets.read_table`, as
``costsense fit`` reads ``--csv`` (docs/guide/study_format.rst gives the keys).
With cost parts the dataset runs once, at its rows' own costs (label ``rows``).
Its SHA-256 is recorded, so a resumed study never mixes two versions of it. A
study file may come from anyone: no message shows a cell of the file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.datasets import Table, TableOptions, read_table
from costsense.exceptions import UsageError
from costsense.experiments._derived import check_table_keys

__all__ = [
    "FILE_KEYS",
    "ROW_COSTS",
    "check_file_spec",
    "file_row_costs",
    "load_file_dataset",
]

#: The four per-row cost keys (the parts not given: 1, 1, 0, 0).
COST_KEYS = ("fp_cost", "fn_cost", "tp_cost", "tn_cost")
#: The keys a ``[files.<name>]`` table may hold.
FILE_KEYS = (
    *"path target positive drop sep decimal encoding max_categories".split(),
    *COST_KEYS,
)
#: The cost label of a file dataset's cells when its rows carry their own costs.
ROW_COSTS = "rows"


def check_file_spec(name: str, spec: Any, source: str) -> dict[str, Any]:
    """Check a ``[files.<name>]`` table and its file; return the recipe.

    A ValueError names the fix. The recipe is the table with ``path`` absolute
    (relative to the study file ``source``), ``drop`` a list, the cost keys as
    ``parts`` and ``sha256``.
    """
    where = f"{source}: files.{name}"
    check_table_keys(spec, FILE_KEYS, where)
    for key in ("path", "target"):
        if not isinstance(spec.get(key), str) or not spec[key]:
            raise ValueError(f"{where} needs {key} (a string).")
    folder = Path(source).parent if Path(source).is_file() else Path.cwd()
    path = (folder / spec["path"]).resolve()
    if not path.is_file():  # stat only: a FIFO is never opened
        raise ValueError(
            f"{where}: {path} is missing or is not a regular file (a folder, a FIFO, "
            "a device); give the path of a CSV or Parquet file, relative to the "
            "study file."
        )
    drop = spec.get("drop", [])
    recipe = {key: value for key, value in spec.items() if not key.endswith("_cost")}
    recipe.update(
        path=str(path),
        drop=[str(c) for c in ([drop] if isinstance(drop, str) else drop)],
        sha256=_digest(path),
    )
    if given := {key[:2]: spec[key] for key in COST_KEYS if key in spec}:
        recipe["parts"] = given
    load_file_dataset(name, recipe)  # refuse now what would fail in every cell
    return recipe


def _digest(path: str | Path) -> str:
    """Return the file's SHA-256, read in blocks."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


#: What the messages that may quote a cell say (a parser's, a number or date
#: reader's); the places (line, row, offset) and the column they name.
_QUOTING = re.compile(r"such as|readable|text \(byte|dates")
_PLACES = re.compile(r"\b(line|row|offset) (\d+)", re.IGNORECASE)
_COLUMN = re.compile(r"column ('(?:[^'\\]|\\.)*'|\"[^\"]*\")")


def _content_free(message: str, path: str) -> str:
    """Return a read error's message without a cell: its column and places only."""
    if not _QUOTING.search(message):
        return message
    places = ", ".join(dict.fromkeys(" ".join(m) for m in _PLACES.findall(message)))
    column = _COLUMN.search(message)
    what = path if column is None else f"column {column.group(1)} of {path}"
    return (
        f"{what} cannot be read{f' at {places}' if places else ''}; check its "
        "separator (sep), decimal mark (decimal), text encoding (encoding) and "
        "dates (year first), or drop the column (its content is not shown here)."
    )


def _table(name: str, recipe: dict[str, Any], parts: Any) -> Table:
    """Read the file as ``costsense fit`` does; errors as ValueError naming no cell."""
    path = recipe["path"]  # opened as a regular file only, by the reader
    options = TableOptions(
        sep=recipe.get("sep"),
        decimal=recipe.get("decimal"),
        encoding=recipe.get("encoding") or "utf-8",
        drop=tuple(recipe["drop"]),
        max_categories=int(recipe.get("max_categories", 50)),
        show_cells=False,
    )
    try:
        return read_table(path, recipe["target"], parts, options)
    except UsageError as error:
        said = re.sub(r"--(f[pn]|t[pn])-cost", r"\1_cost", str(error))
        said = said.replace("--target ", "target ").replace("--csv ", "")
        said, _, missing = said.replace("--drop/--id-column", "drop").partition(
            "; choose --missing"
        )
        said += f" in {path}; fill them or drop them" if missing else ""
        text = _content_free(said, path)
        raise ValueError(f"dataset {name!r}: {text}") from None


@functools.lru_cache(maxsize=8)
def file_row_costs(name: str, recipe: str) -> Any:
    """Each row's costs (an ``ExampleCosts``) of a file dataset with cost parts.

    ``recipe`` is its checked table as JSON (:meth:`Study.recipe_for`).
    """
    table = json.loads(recipe)
    return _table(name, table, table["parts"]).row_costs()


def load_file_dataset(
    name: str, recipe: dict[str, Any]
) -> tuple[NDArray[np.float64], NDArray[Any], Any]:
    """Load a file dataset: ``(X, y, pos_label)`` with every feature a number.

    ``recipe`` is its checked table (:func:`check_file_spec`).
    """
    import pandas as pd
    from sklearn.base import clone

    from costsense.utils._text import printable

    table = _table(name, recipe, recipe.get("parts"))
    if _digest(recipe["path"]) != recipe["sha256"]:
        raise ValueError(
            f"dataset {name!r}: {recipe['path']} changed since the study loaded"
        )
    encoder = table.encoder  # the command line's; fitted on the whole file
    X = table.X if encoder is None else clone(encoder).fit_transform(table.X)
    X = np.asarray(X, dtype=np.float64)
    y = pd.Series(table.y).astype(str).to_numpy(dtype=object)
    labels, counts = np.unique(y, return_counts=True)
    target = printable(recipe["target"])
    if labels.size != 2:  # the classes are the file's values: counted, not shown
        raise ValueError(
            f"dataset {name!r}: target {target!r} of {recipe['path']} has "
            f"{labels.size} classes; a study needs two"
        )
    positive = recipe.get("positive")
    if positive is None:
        positive = labels[np.argmin(counts)]
    elif str(positive) not in labels:
        raise ValueError(
            f"dataset {name!r}: positive {printable(positive)!r} is not a class of "
            f"target {target!r} of {recipe['path']}; give one of its two classes as "
            "written in the file"
        )
    return X, y, str(positive)
