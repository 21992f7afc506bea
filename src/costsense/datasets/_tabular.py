"""A user's table with a declared target: one reader, :func:`read_table`.

``fit``, ``evaluate``, ``predict`` and study file datasets read a CSV or Parquet
file (or a DataFrame) through it: target, non-feature columns and the four cost
parts set aside, numbers written for people read, and what no model can use
refused as a :class:`~costsense.exceptions.UsageError` naming column, rows, fix.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..exceptions import ColumnWarning, UsageError
from ..utils._columns import column_kinds, refuse_unencodable
from ..utils._reading import make_encoder, read_cells
from ..utils._tables import (
    TableOptions,
    cost_parts,
    part_columns,
    read_frame,
    refuse_repeated,
)
from ..utils._text import printable

__all__ = ["Table", "TableOptions", "read_table"]

FloatArray = NDArray[np.float64]

#: A numeric target with more distinct values than this is refused (a regression
#: target, not class labels).
MAX_NUMERIC_CLASSES = 20

#: Fewest rows in which a feature of distinct whole numbers looks like an identifier.
MIN_ID_ROWS = 50

#: A column name that says identifier (``client_id``, ``OrderNo``, ``ID``).
_ID_NAME = re.compile(r"(?i:(.*[\W_])?(id|no|nr|number))|.*[a-z\d](Id|ID|No|Nr|Number)")


@dataclass
class Table:
    """A labelled table as :func:`read_table` reads it.

    Attributes
    ----------
    X : DataFrame or ndarray
        The feature columns as read (a KEEL set's matrix on the command line).
    y : ndarray
        Labels: numbers if the target column holds numbers, else text.
    kinds : dict of str to str
        Each feature's kind: "numeric", "categorical" or "date-time".
    encoder : ColumnTransformer or None
        The unfitted encoder each model's pipeline starts with.
    source : str
        Where the rows come from, for headers.
    parts : dict or None
        The four cost parts, each a constant or a column.
    cost_columns : dict of str to ndarray
        Each cost column's values, checked.
    cost_features : bool
        Whether the cost columns are features too.
    ignored : list of str
        Columns that are not features (``drop``, ``id_column``).
    id_column : str or None
        The column naming each row.
    number_marks : dict of str to str
        The mark of each feature or cost column of written numbers: its
        decimal mark, then the currency sign or percent set aside (``".€"``).
    n_dropped : int
        Rows dropped for missing values.
    notes : list of str
        What was read that may not be meant, each also issued as a
        :class:`~costsense.exceptions.ColumnWarning`: a feature that looks like
        an identifier (whole numbers, one per row).
    """

    X: Any
    y: NDArray[Any]
    kinds: dict[str, str] = field(default_factory=dict)
    encoder: Any = None
    source: str = ""
    parts: dict[str, float | str] | None = None
    cost_columns: dict[str, FloatArray] = field(default_factory=dict)
    cost_features: bool = True
    ignored: list[str] = field(default_factory=list)
    id_column: str | None = None
    number_marks: dict[str, str] = field(default_factory=dict)
    n_dropped: int = 0
    notes: list[str] = field(default_factory=list)

    def row_costs(self) -> Any:
        """Each row's four costs (an ``ExampleCosts``); None if no part is a column."""
        from ..costs import part_costs

        if not self.cost_columns or self.parts is None:
            return None
        return part_costs(self.parts, self.cost_columns, self.y.shape[0])


def read_table(
    source: str | os.PathLike[str] | Any,
    target: str,
    costs: Mapping[str, float | str] | None = None,
    options: TableOptions = TableOptions(),  # noqa: B008 - frozen, never changed
    cost_prefix: str | None = None,
) -> Table:
    """Read a labelled table: features, labels, column kinds and their encoder.

    Parameters
    ----------
    source : str, path-like or DataFrame
        A CSV or Parquet file (told apart by its first bytes), or a DataFrame.
    target : str
        The label column.
    costs : mapping, optional
        Per-row costs: any of "fp", "fn", "tp", "tn", each a number or a column
        (:func:`~costsense.utils._tables.cost_parts`).
    options : TableOptions
        How the file is written, the missing-value policy, the columns that are
        not features and the read limits.
    cost_prefix : str, optional
        Every column whose name starts with it holds per-row costs (such as a
        class x action table's ``cost_<class>_<action>``): read as numbers, kept
        in ``Table.cost_columns``, never a feature.

    Returns
    -------
    Table

    Raises
    ------
    UsageError
        An unreadable file, unknown column, bad cost, infinite or (``"raise"``)
        missing values, a numeric target of many values, a text column of too
        many categories, a numeric column's few cells that are not numbers:
        named with its rows (as the file numbers its lines).

    Warns
    -----
    ColumnWarning
        A feature that looks like an identifier (distinct whole numbers, one
        per row), with the fix (``id_column`` or ``drop``); it stays a feature,
        and the note is kept in ``Table.notes`` too.

    Examples
    --------
    >>> import pandas as pd
    >>> from costsense.datasets import read_table
    >>> df = pd.DataFrame({"age": [30, 40, 50], "city": ["b", "a", "b"],
    ...                    "amount": [5.0, 80.0, 12.0], "fraud": ["no", "yes", "no"]})
    >>> table = read_table(df, "fraud", costs={"fn": "amount", "fp": 2})
    >>> table.kinds
    {'age': 'numeric', 'city': 'categorical', 'amount': 'numeric'}
    >>> table.row_costs().matrices(["no", "yes"], "yes")[1].tolist()
    [[0.0, 2.0], [80.0, 0.0]]
    """
    pd = _require_pandas("read_table")
    if isinstance(source, pd.DataFrame):
        path, frame = "the DataFrame", source.copy()
        frame.columns = [str(c) for c in frame.columns]
        refuse_repeated(list(frame.columns), path)
    else:
        path = os.fspath(source)
        frame = read_frame(path, options)
    names = list(frame.columns)
    if target not in names:
        raise UsageError(
            f"--target {target!r} is not a column; the columns are {printable(names)}"
        )
    parts = cost_parts(costs, names)
    prefixed = [c for c in names if cost_prefix and c.startswith(cost_prefix)]
    costly = part_columns(parts) + [c for c in prefixed if c != target]
    if target in costly:
        raise UsageError(
            f"cost column {target!r} is the --target column; a cost column holds "
            "each row's cost, the target its class"
        )
    ignored = _ignored(options, names, target, costly)
    frame = frame.drop(columns=ignored)
    cells, marks = read_cells(frame.drop(columns=[target]), path, options, costly)
    frame[cells.columns] = cells
    frame, dropped = _apply_missing(frame, target, options.missing)
    y = _labels(frame[target], target, options.show_cells)
    drop_costs = not options.cost_features
    unused = costly if drop_costs else prefixed
    features = frame.drop(columns=[target, *unused])
    if features.shape[1] == 0:
        raise UsageError(
            f"--csv {path} has no feature column besides the target"
            + (" and the cost columns" if unused else "")
        )
    kinds = column_kinds(features)
    refuse_unencodable(features, kinds, options.max_categories)
    notes = _identifiers(features, kinds, costly)
    for note in notes:
        warnings.warn(note, ColumnWarning, stacklevel=2)
    marks = {c: m for c, m in marks.items() if c in kinds or c in costly}
    source = f"{path} (target {target}" + (
        f"; not features: {', '.join(ignored)})" if ignored else ")"
    )
    costs_read = {name: frame[name].to_numpy(dtype=np.float64) for name in costly}
    encoder = make_encoder(kinds, options.missing, marks, parts)
    return Table(
        features,
        y,
        kinds,
        encoder,
        source,
        parts,
        costs_read,
        not drop_costs and not prefixed,
        ignored,
        options.id_column or None,
        marks,
        dropped,
        notes,
    )


def _ignored(
    options: TableOptions, names: list[str], target: str, costly: list[str]
) -> list[str]:
    """Return the columns ``drop`` and ``id_column`` take out of the features."""
    ignored = [c.strip() for c in options.drop if c.strip()]
    if options.id_column and options.id_column not in ignored:
        ignored.append(options.id_column)
    known = set(names)  # one set: a list searched per name is quadratic
    unknown = [c for c in ignored if c not in known]
    if unknown:
        raise UsageError(
            f"--drop/--id-column: {printable(unknown)} are not columns of --csv; the "
            f"columns are {printable(names)}"
        )
    for option, taken in (("--target", [target]), ("a cost option", costly)):
        clash = [c for c in ignored if c in taken]
        if clash:
            raise UsageError(
                f"--drop/--id-column {printable(clash)} names the column of {option}; "
                "it cannot also be left out"
            )
    return ignored


def _identifiers(features: Any, kinds: dict[str, str], costly: list[str]) -> list[str]:
    """Note each numeric feature that looks like an identifier, with the fix.

    Whole numbers in :data:`MIN_ID_ROWS` rows or more (missing ones aside), each
    distinct (or most of them, under a name like ``client_id``).
    """
    notes = []
    for name, kind in kinds.items():
        if kind != "numeric" or name in costly:
            continue
        numbers = features[name].dropna().to_numpy(dtype=np.float64)
        distinct = np.unique(numbers).size
        if numbers.size < MIN_ID_ROWS or not np.all(numbers == np.round(numbers)):
            continue
        if distinct >= (numbers.size / 2 if _ID_NAME.fullmatch(name) else numbers.size):
            notes.append(
                f"column {name!r} looks like an identifier ({distinct} distinct "
                f"whole numbers in {numbers.size} rows) and is a feature: if it "
                f"names rows, give --id-column {name} (or --drop {name})"
            )
    return notes


def _apply_missing(frame: Any, target: str, missing: str) -> tuple[Any, int]:
    """Drop, keep or refuse rows with missing values; return the rows dropped.

    A row without its label is dropped under "impute" and "keep" too.
    """
    incomplete = frame.isna().any(axis=1)
    if not incomplete.any():
        return frame, 0
    if missing == "raise":
        counts = frame.isna().sum()
        per_column = {str(k): int(v) for k, v in counts[counts > 0].items()}
        raise UsageError(
            f"{int(incomplete.sum())} rows have missing values (per column: "
            f"{printable(per_column)}); choose --missing drop (drop those rows), "
            "--missing impute (each numeric column's training median; a missing "
            "category is a category of its own) or --missing keep (NaN stays, for "
            "models that accept it)"
        )
    drop = incomplete if missing == "drop" else frame[target].isna()
    return frame.loc[~drop].reset_index(drop=True), int(drop.sum())


def _labels(column: Any, name: str, show_cells: bool) -> NDArray[Any]:
    """Read the target's labels, refusing a numeric column of many values."""
    import pandas as pd

    numeric = pd.api.types.is_numeric_dtype(column)
    distinct = column.nunique()
    if numeric and distinct > MAX_NUMERIC_CLASSES:
        such = f" (such as {column.iloc[0]})" if show_cells else ""
        raise UsageError(
            f"--target {name!r} holds {distinct} distinct numbers{such}: it looks "
            "like a quantity, not class labels. costsense classifies: give a column "
            "of class labels (or make classes, e.g. 'amount > 100', into a column "
            "of their own)"
        )
    return column.to_numpy() if numeric else column.astype(str).to_numpy(dtype=object)


def _require_pandas(what: str) -> ModuleType:
    """Import pandas, or raise an ImportError naming the extra to install."""
    try:
        import pandas
    except ImportError as exc:  # pragma: no cover - pandas is installed in CI
        raise ImportError(
            f"{what}: pandas is not installed. It is an optional dependency of "
            "costsense; install it with: pip install costsense[experiments]"
        ) from exc
    return pandas
