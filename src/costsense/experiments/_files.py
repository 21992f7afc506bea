"""Datasets a study reads from a user's CSV or Parquet file.

A study lists the file's name among its datasets and declares it in a
``[files.<name>]`` table::

    datasets = ["fraud", "pima"]

    [files.fraud]
    path = "data/fraud.csv"     # CSV or Parquet; relative to the study file
    target = "is_fraud"         # the label column (two classes)
    positive = "1"              # the positive class, as written (default: the rarer)
    drop = ["txn_id"]           # columns that are not features
    sep = ";"                   # CSV only, optional: separator (default: found),
    decimal = ","               # decimal mark (default: found per column),
    encoding = "latin-1"        # text encoding (default utf-8)

The file is read as ``costsense fit`` reads ``--csv``: numbers written with
thousands separators are read, date-time columns become their hour, weekday, day
and month, and text columns one indicator per category (over the whole file; a
column of more than ``max_categories`` categories, default 50, is refused by
name). Missing values are refused: fill or drop them first. Its text columns
are one-hot encoded whatever the ``protocol.categorical``.

Costs are the study's ``costs``, as for a KEEL set, unless the table gives the
rows' own costs, as ``costsense fit`` takes them: ``fp_cost``, ``fn_cost``,
``tp_cost``, ``tn_cost``, each a cost or a column of the file (``fn_cost =
"amount"``: a missed positive costs its amount; the others default to 1, 1, 0,
0 when one is given). Such a dataset runs once, at its rows' costs (its cells'
cost is labelled ``rows``): each model is fitted with them (``sample_cost``),
and its fold's cost and savings are the test rows' own. Only methods that take
per-row costs, without a grid, run on it. A cost column stays a feature unless
it is dropped.

When the study loads, the file must exist and be a regular file (not a FIFO,
a device or a folder), its target and dropped columns must be columns, and its
SHA-256 is recorded with each cell, so that a resumed study never mixes results
of two versions of a file.

A study file may come from someone else, and its ``path`` may name any file the
user can read: the file is read as data only, and no message shows its content
beyond its column names. A cell or row that cannot be read is named by its
column, line or byte offset, never by its value (:func:`_content_free`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import stat
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.experiments._derived import check_table_keys
from costsense.utils._text import printable

__all__ = [
    "FILE_KEYS",
    "ROW_COSTS",
    "check_file_spec",
    "file_row_costs",
    "load_file_dataset",
]

#: The keys a ``[files.<name>]`` table may hold.
FILE_KEYS = ("path", "target", "positive", "drop", "sep", "decimal", "encoding",
             "max_categories", "fp_cost", "fn_cost", "tp_cost", "tn_cost")  # fmt: skip
#: The four per-row cost keys: (part, key, default when another is given).
COST_KEYS = (("fp", "fp_cost", 1.0), ("fn", "fn_cost", 1.0), ("tp", "tp_cost", 0.0),
             ("tn", "tn_cost", 0.0))  # fmt: skip
#: The cost label of a file dataset's cells when its rows carry their own costs.
ROW_COSTS = "rows"


def check_file_spec(name: str, spec: Any, source: str) -> dict[str, Any]:
    """Validate a ``[files.<name>]`` table and the file it names; return the recipe.

    Parameters
    ----------
    name : str
        The dataset's name in the study.
    spec : dict
        Its table.
    source : str
        The study file (relative paths start from its folder), for messages.

    Returns
    -------
    dict
        The table with ``path`` absolute, ``drop`` a list and ``sha256`` the
        file's digest: the recipe :func:`load_file_dataset` reads.

    Raises
    ------
    ValueError
        An unknown key, a missing file, a target or dropped column the file
        does not have, naming the dataset and the fix.
    """
    where = f"{source}: files.{name}"
    check_table_keys(spec, FILE_KEYS, where)
    for key in ("path", "target"):
        if not isinstance(spec.get(key), str) or not spec[key]:
            raise ValueError(f"{where} needs {key} (a string).")
    folder = Path(source).parent if Path(source).is_file() else Path.cwd()
    path = (folder / spec["path"]).resolve()
    _check_regular(path, where)
    drop = spec.get("drop", [])
    if isinstance(drop, str):
        drop = [drop]
    recipe = {**spec, "path": str(path), "drop": [str(c) for c in drop]}
    columns = [str(c) for c in _read(recipe).columns]
    absent = [c for c in [recipe["target"], *recipe["drop"]] if c not in columns]
    if absent:
        shown = printable(columns, 2000)  # the column names only, escaped
        raise ValueError(
            f"{where}: {printable(absent)} are not columns of {path}; the columns "
            f"are {shown}."
        )
    parts = _cost_parts(spec, columns, where)
    if parts is not None:
        recipe["parts"] = parts
    for _part, key, _default in COST_KEYS:
        recipe.pop(key, None)
    recipe["sha256"] = _digest(path)
    load_file_dataset(name, recipe)  # refuse now what would fail in every cell
    if parts is not None:
        file_row_costs(name, json.dumps(recipe, sort_keys=True))
    return recipe


def _check_regular(path: Path, where: str) -> None:
    """Refuse a path that is missing or not a regular file (a FIFO, a device)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        raise ValueError(
            f"{where}: no file {path} (path is relative to the study file)."
        ) from None
    if not stat.S_ISREG(mode):
        raise ValueError(
            f"{where}: {path} is not a regular file (a folder, a FIFO or a "
            "device); give the path of a CSV or Parquet file."
        )


def _digest(path: str | Path) -> str:
    """Return the file's SHA-256, read in blocks (not the whole file at once)."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


#: Read errors whose text holds no cell of the file (only counts and names).
_SAFE_READ_ERRORS = ("names these columns more than once", "has a header but no rows",
                     "is not an encoding Python knows")  # fmt: skip
#: Where a read error says the problem is: line, row or byte offset numbers.
_PLACES = re.compile(r"\b(line|row|offset) (\d+)", re.IGNORECASE)


def _content_free(message: str, path: str, columns: list[str]) -> str:
    """Return a read error's message without anything the file holds.

    The reader's messages may quote a cell (a number, a date, a line the parser
    choked on). Kept: the column it names (a column name is shown), the line,
    row or byte offset, and the kind of problem; never a value.

    Parameters
    ----------
    message : str
        The reader's message.
    path : str
        The file.
    columns : list of str
        The file's columns (empty when it could not be read).

    Returns
    -------
    str
    """
    column = next((c for c in columns if repr(c) in message), None)
    if column is not None and "categories" in message:
        return message  # counts and the column's name only
    places = ", ".join(dict.fromkeys(" ".join(m) for m in _PLACES.findall(message)))
    where = f" at {places}" if places else ""
    if column is None and "text (byte" in message:
        kind = "cannot be read as text in its encoding"
        fix = 'give its encoding in the file\'s table, e.g. encoding = "latin-1"'
        return f"{path} {kind}{where}; {fix} (its content is not shown here)."
    if column is None:
        kind = "cannot be read as a CSV or Parquet table"
        fix = "check its separator (sep), quoting and text encoding (encoding)"
        return f"{path} {kind}{where}; {fix} (its content is not shown here)."
    if "dates" in message:
        fix = "write its dates in one format, year first (YYYY-MM-DD), or drop it"
    elif "decimal mark" in message:
        fix = 'give decimal = "." or decimal = "," in the file\'s table, or drop it'
    else:
        fix = "fix it or drop it (drop = [...])"
    return (
        f"column {printable(column)!r} of {path} cannot be read{where}; {fix} (its "
        "values are not shown here)."
    )


def _cost_parts(
    spec: dict[str, Any], columns: list[str], where: str
) -> dict[str, float | str] | None:
    """Read ``fp_cost`` ... ``tn_cost``: each a cost >= 0 or a column; None if none."""
    if not any(key in spec for _, key, _ in COST_KEYS):
        return None
    parts: dict[str, float | str] = {}
    for part, key, default in COST_KEYS:
        value = spec.get(key, default)
        if isinstance(value, str):
            if value not in columns:
                raise ValueError(
                    f"{where}: {key} {printable(value)!r} is not a column; the "
                    f"columns are {printable(columns, 2000)}."
                )
            parts[part] = value
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and (math.isfinite(value) and value >= 0)
        ):
            parts[part] = float(value)
        else:
            raise ValueError(
                f"{where}: {key} must be a cost >= 0 or a column name, not "
                f"{printable(repr(value))}."
            )
    return parts


@functools.lru_cache(maxsize=8)
def file_row_costs(name: str, recipe: str) -> Any:
    """Each row's costs of a file dataset with cost parts: an ``ExampleCosts``.

    Parameters
    ----------
    name : str
        The dataset's name, for messages.
    recipe : str
        Its checked table as JSON (:meth:`Study.recipe_for`).

    Raises
    ------
    ValueError
        A cost column with text, a missing, negative or infinite cost, naming
        the rows.
    """
    import pandas as pd

    from costsense.costs import part_costs

    table = json.loads(recipe)
    frame = _read(table)
    values = {}
    for column in {v for v in table["parts"].values() if isinstance(v, str)}:
        numbers = pd.to_numeric(frame[column], errors="coerce").to_numpy(np.float64)
        bad = ~np.isfinite(numbers) | (numbers < 0)
        if bad.any():
            rows = (np.flatnonzero(bad)[:5] + 2).tolist()
            raise ValueError(
                f"dataset {name!r}: cost column {column!r} must hold finite costs "
                f">= 0; rows {rows} (as the file numbers its lines) do not"
            )
        values[column] = numbers
    return part_costs(table["parts"], values, frame.shape[0])


def _read(recipe: dict[str, Any]) -> Any:
    """Read the file as ``costsense fit`` does, errors as ValueError."""
    from argparse import Namespace

    from costsense.exceptions import UsageError
    from costsense.utils._tables import read_frame

    options = Namespace(sep=recipe.get("sep"), decimal=recipe.get("decimal"),
                        encoding=recipe.get("encoding"))  # fmt: skip
    _check_regular(Path(recipe["path"]), f"files {recipe['path']}")
    try:
        return read_frame(recipe["path"], options)
    except UsageError as error:
        text = str(error)
        if any(safe in text for safe in _SAFE_READ_ERRORS):
            raise ValueError(text) from None
        raise ValueError(_content_free(text, recipe["path"], [])) from None


def load_file_dataset(
    name: str, recipe: dict[str, Any]
) -> tuple[NDArray[np.float64], NDArray[Any], Any]:
    """Load a file dataset: ``(X, y, pos_label)`` with every feature a number.

    Parameters
    ----------
    name : str
        The dataset's name, for messages.
    recipe : dict
        Its checked table (:func:`check_file_spec`).

    Returns
    -------
    X : ndarray of shape (n_rows, n_features)
    y : ndarray of shape (n_rows,)
    pos_label : label
    """
    import pandas as pd

    from costsense.exceptions import UsageError
    from costsense.utils._columns import (
        MAX_CATEGORIES,
        column_kinds,
        refuse_unencodable,
    )
    from costsense.utils._dates import DateTimeParts
    from costsense.utils._numbers import read_written_numbers

    frame = _read(recipe)
    digest = _digest(recipe["path"])
    if digest != recipe["sha256"]:
        raise ValueError(
            f"dataset {name!r}: {recipe['path']} changed since the study loaded"
        )
    target = frame.pop(recipe["target"])
    frame = frame.drop(columns=recipe["drop"])
    holes = [str(c) for c in frame.columns if frame[c].isna().any()]
    if target.isna().any():
        holes.append(recipe["target"])
    if holes:
        raise ValueError(
            f"dataset {name!r}: columns {printable(holes, 2000)} have missing "
            f"values; fill them or drop those rows in {recipe['path']}"
        )
    try:
        frame, _ = read_written_numbers(frame, recipe["path"], recipe.get("decimal"))
        kinds = column_kinds(frame)
        refuse_unencodable(
            frame, kinds, int(recipe.get("max_categories", MAX_CATEGORIES))
        )
    except UsageError as error:
        columns = [str(c) for c in frame.columns]
        text = _content_free(str(error), recipe["path"], columns)
        raise ValueError(f"dataset {name!r}: {text}") from None
    blocks = []
    for column, kind in kinds.items():
        if kind == "numeric":
            blocks.append(frame[[column]].astype(np.float64).to_numpy())
        elif kind == "date-time":
            blocks.append(DateTimeParts().fit_transform(frame[[column]]))
        else:
            blocks.append(
                pd.get_dummies(frame[column].astype(str)).to_numpy(np.float64)
            )
    X = np.hstack(blocks) if blocks else np.empty((frame.shape[0], 0))
    y = target.astype(str).to_numpy(dtype=object)
    labels, counts = np.unique(y, return_counts=True)
    target_name = printable(recipe["target"])
    if labels.size != 2:  # the classes are the file's values: counted, not shown
        raise ValueError(
            f"dataset {name!r}: target {target_name!r} of {recipe['path']} has "
            f"{labels.size} classes; a study needs two"
        )
    positive = recipe.get("positive")
    if positive is None:
        positive = labels[np.argmin(counts)]
    elif str(positive) not in labels:
        raise ValueError(
            f"dataset {name!r}: positive {printable(positive)!r} is not a class of "
            f"target {target_name!r} of {recipe['path']}; give one of its two "
            "classes as written in the file"
        )
    return X, y, str(positive)
