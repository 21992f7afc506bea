"""The cost options of a command, and the cost columns they name.

``--fn-cost``, ``--fp-cost``, ``--tp-cost``, ``--tn-cost``
each give a number or a column of the table (``col:<name>``); :func:`cost_parts`
reads them into one dict before any data is read, so that :func:`read_data
<costsense.cli._data.read_data>` can set the cost columns aside from the
features; :func:`read_cost_column` reads such a column's values, refusing
missing, negative or textual costs by row.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._options import COLUMN_PREFIX, COST_PARTS, UsageError
from costsense.cli._output import numbered_rows

__all__ = ["cost_parts", "describe_parts", "part_columns", "read_cost_column"]


def _cost_option_given(args: argparse.Namespace) -> list[str]:
    """Name the per-row cost options given on the command line."""
    return [option for part, option, *_ in COST_PARTS
            if getattr(args, f"{part}_cost", None) is not None]  # fmt: skip


def cost_parts(
    args: argparse.Namespace, columns: Sequence[str] | None
) -> dict[str, float | str] | None:
    """Read ``--fn-cost``, ``--fp-cost``, ``--tp-cost``, ``--tn-cost`` against the file.

    A value is a column when it starts with ``col:`` (the rest is the name) or
    names a column without reading as a number; a number when it reads as a
    finite one and names no column; a value that is both is refused (write
    ``col:NAME`` for the column, or the number another way, such as ``5.0``).

    Parameters
    ----------
    args : Namespace
        The parsed options.
    columns : sequence of str or None
        The CSV's columns; None for a KEEL set (numbers only).

    Returns
    -------
    dict or None
        ``{"fp": ..., "fn": ..., "tp": ..., "tn": ...}``, each a float (a cost
        for every row) or a column name; an omitted FN or FP cost is 1, an
        omitted TP or TN cost 0. None when none of the four options is given.

    Raises
    ------
    UsageError
        No costs at all, two ways of giving them, a value that is neither a
        number nor a column (or both), a negative or infinite number, a column
        of a KEEL set.
    """
    given = _cost_option_given(args)
    class_level = [
        option
        for option, value in (
            ("--cost", args.cost),
            ("--cost-matrix", args.cost_matrix),
        )
        if value is not None
    ]
    if not given and not class_level:
        raise UsageError(
            "give the costs: --cost (a ratio C1/C2 or a pair C1,C2), --cost-matrix "
            "(a K x K CSV) or --fn-cost/--fp-cost/--tp-cost/--tn-cost (each a "
            "number or a column of --csv)"
        )
    if len(class_level) > 1 or (class_level and given):
        raise UsageError(
            f"{' and '.join(class_level + given[:1])} are two ways of giving the "
            "costs; give --cost or --cost-matrix (one cost per pair of classes), or "
            "--fn-cost/--fp-cost/--tp-cost/--tn-cost (each a number or a column)"
        )
    if not given:
        return None
    parts: dict[str, float | str] = {}
    for part, option, _, default in COST_PARTS:
        text = getattr(args, f"{part}_cost")
        parts[part] = default if text is None else _cost_part(text, option, columns)
    return parts


def _cost_part(text: str, option: str, columns: Sequence[str] | None) -> float | str:
    """One cost option's value: a number or a column name."""
    if text.startswith(COLUMN_PREFIX):
        name = text[len(COLUMN_PREFIX) :]
        if columns is None:
            raise UsageError(f"{option} {text!r}: a cost column needs --csv")
        if name not in columns:
            raise UsageError(
                f"{option} {text!r}: {name!r} is not a column; the columns are "
                f"{list(columns)}"
            )
        return name
    try:
        number: float | None = float(text)
    except ValueError:
        number = None
    is_column = columns is not None and text in columns
    if number is not None and is_column:
        raise UsageError(
            f"{option} {text!r} is both a number and a column of --csv; write "
            f"{COLUMN_PREFIX}{text} for the column, or the number another way "
            f"(such as {number!r}) for a constant cost"
        )
    if is_column:
        return text
    if number is None:
        where = (
            f"nor a column; the columns are {list(columns)}"
            if columns is not None
            else "(a KEEL set has no cost columns: give a number)"
        )
        raise UsageError(f"{option} {text!r} is neither a number {where}")
    if not math.isfinite(number) or number < 0:
        raise UsageError(f"{option} {text}: a cost must be a finite number >= 0")
    return number


def part_columns(parts: dict[str, float | str] | None) -> list[str]:
    """List the distinct cost columns of ``parts``, in the order fp, fn, tp, tn."""
    if parts is None:
        return []
    return list(dict.fromkeys(v for v in parts.values() if isinstance(v, str)))


def describe_parts(parts: dict[str, float | str]) -> str:
    """Say the four costs in words, for a header."""
    shown = []
    for part, *_ in COST_PARTS:
        value = parts[part]
        shown.append(
            f"{part.upper()} {value:g}" if isinstance(value, float)
            else f"{part.upper()} column {value!r}"
        )  # fmt: skip
    return ", ".join(shown)


def read_cost_column(
    column: Any, where: str, *, missing_allowed: bool = False, first_row: int = 0
) -> NDArray[np.float64]:
    """Read a cost column (each row's cost), refusing what is not a cost.

    Parameters
    ----------
    column : Series
        The column as read from the CSV, every row of the file.
    where : str
        Names the file and column in the error.
    missing_allowed : bool, default=False
        Whether an empty cell is kept as NaN (``--missing drop`` drops its row);
        otherwise it is refused.
    first_row : int, default=0
        The number in the file (from 0) of the column's first row, for a chunk.

    Returns
    -------
    ndarray of shape (n_rows,)

    Raises
    ------
    UsageError
        A missing (unless allowed), non-numeric, infinite or negative value,
        naming the first such rows as the CSV numbers its lines (the header is
        line 1, the first data row line 2).
    """
    import pandas as pd

    missing = column.isna().to_numpy()
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
    text = np.isnan(values) & ~missing
    if text.any():
        first = column[text].iloc[0]
        raise UsageError(
            f"{where} must hold numbers (each row's cost); "
            f"{numbered_rows(text, first_row)} hold text such as {str(first)[:40]!r}"
        )
    if missing.any() and not missing_allowed:
        raise UsageError(
            f"{where} has missing costs in {numbered_rows(missing, first_row)}; fill "
            "them, or drop those rows (--missing drop)"
        )
    bad = ~np.isfinite(values) & ~missing | (values < 0)
    if bad.any():
        raise UsageError(
            f"{where} must hold finite costs >= 0; "
            f"{numbered_rows(bad, first_row)} hold {values[bad][:3].tolist()}"
        )
    return values
