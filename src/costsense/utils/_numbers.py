"""Numbers written for people: thousands separators and decimal commas, read or refused.

A CSV written by a spreadsheet or a report may hold ``1,234.50``, ``1.234,50``,
``1 234,5`` or ``12,5``. pandas reads such a column as text, and text columns
become one indicator per distinct value. Here every cell of a text column is
tried both ways, "point decimal" (a comma, space or apostrophe groups
thousands; a point marks decimals) and "comma decimal" (a point, space or
apostrophe groups; a comma marks decimals). A column that reads one way only,
or both ways to the same numbers, becomes numbers. A column that reads both
ways to different numbers (every cell like ``1,234``: 1234 or 1.234?) is
refused by name unless ``--decimal`` says which mark is the decimal one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.exceptions import UsageError

__all__ = ["read_written_numbers"]

#: Each decimal mark with the pattern of a number written with it.
_WRITTEN = {
    ".": r"[+-]?(\d{1,3}([,\s'\u00a0]\d{3})+|\d+)(\.\d+)?",
    ",": r"[+-]?(\d{1,3}([.\s'\u00a0]\d{3})+|\d+)(,\d+)?",
}


def _read(cells: Any, decimal: str) -> NDArray[np.float64] | None:
    """Read every cell with ``decimal`` as the decimal mark, or None if one does not."""
    if not cells.str.fullmatch(_WRITTEN[decimal]).all():
        return None
    grouping = r"[,\s'\u00a0]" if decimal == "." else r"[.\s'\u00a0]"
    plain = cells.str.replace(grouping, "", regex=True).str.replace(",", ".")
    return plain.astype(np.float64).to_numpy()


def read_written_numbers(
    features: Any,
    path: str,
    decimal: str | None = None,
    marks: dict[str, str] | None = None,
) -> tuple[Any, dict[str, str]]:
    """Turn text columns of written numbers into numbers.

    Raises
    ------
    UsageError
        A column whose cells read both ways to different numbers, and neither
        ``decimal`` nor ``marks`` says which way.
    """
    import pandas as pd

    marks = dict(marks or {})
    found: dict[str, str] = {}
    features = features.copy()
    for name in features.columns:
        column = features[name]
        if pd.api.types.is_numeric_dtype(column):
            continue
        present = column.notna().to_numpy()
        cells = column[present].astype(str).str.strip()
        head = cells.iloc[:1000]
        if cells.empty or not any(
            head.str.fullmatch(pattern).all() for pattern in _WRITTEN.values()
        ):
            continue
        readings = {mark: _read(cells, mark) for mark in _WRITTEN}
        chosen = marks.get(str(name)) or decimal
        if chosen is None:
            both = [m for m, values in readings.items() if values is not None]
            point, comma = readings["."], readings[","]
            if (
                point is not None
                and comma is not None
                and not np.array_equal(point, comma)
            ):
                raise UsageError(
                    f"--csv {path}: column {name!r} holds numbers such as "
                    f"{cells.iloc[0]!r} whose comma or point may be a decimal mark "
                    "or a thousands separator; give --decimal . or --decimal , to "
                    "say which is the decimal mark"
                )
            chosen = both[0] if both else None
        values = None if chosen is None else readings[chosen]
        if values is None or chosen is None:
            continue  # text that is not numbers written this way: a category
        full = np.full(column.shape[0], np.nan)
        full[present] = values
        features[name] = full
        found[str(name)] = chosen
    return features, found
