"""Numbers written for people: separators, decimal commas and currency signs.

A CSV written by a spreadsheet or a report may hold ``1,234.50``, ``1.234,50``,
``1 234,5``, ``€1,022``, ``6.29 USD`` or ``12%``. pandas reads such a column as
text, and text columns become one indicator per distinct value. Here every cell
of a text column is tried both ways, "point decimal" (a comma, space or
apostrophe groups thousands; a point marks decimals) and "comma decimal" (a
point, space or apostrophe groups; a comma marks decimals), with a currency
sign or code before or after it or a percent sign after it set aside (``12%``
reads 12, ``€1,022`` 1022). A column that reads one way only, or both ways to
the same numbers, becomes numbers, its mark (the decimal mark, then the sign:
``"."``, ``",€"``, ``".%"``) kept so a later file is read the same way. A column
that reads both ways to different numbers (every cell like ``1,234``: 1234 or
1.234?) is refused by name unless ``--decimal`` says which mark is the decimal
one; so is a column of two currencies, and a column of numbers with a few cells
that are not (``unknown``), each named by line and value.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

import numpy as np

from costsense.exceptions import UsageError
from costsense.utils._text import numbered_rows, printable

__all__ = ["is_mark", "read_written_numbers"]

#: The number written with each decimal mark (its currency set aside).
_WRITTEN = {
    ".": r"[+-]?(\d{1,3}([,\s'\u00a0]\d{3})+|\d+)(\.\d+)?",
    ",": r"[+-]?(\d{1,3}([.\s'\u00a0]\d{3})+|\d+)(,\d+)?",
}

#: Currency signs and the commonest ISO codes, read around a number; and percent.
_SIGNS = (
    r"[$€£¥₹₽₩₺₪₫₴₦₱¢]|[A-Z]{1,2}\$|EUR|USD|GBP|CHF|JPY|CNY|INR|CAD|AUD|NZD|SEK"
    r"|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|HKD|SGD|%"
)

#: A cell: sign, currency, sign, the number (ending in a digit), currency or percent.
_AMOUNT = (
    rf"([+-]?)(?:({_SIGNS})\s?)?([+-]?)(\d(?:[\d.,\s'\u00a0]*\d)?)(?:\s?({_SIGNS}))?"
)


#: The largest share of a text column's cells that may fail to read as numbers
#: for the column to be refused as numbers with bad cells, not read as text.
_FEW_UNREAD = 0.05


def is_mark(mark: object) -> bool:
    """Whether ``mark`` is a column's mark as read: a decimal mark, then a sign."""
    return (
        isinstance(mark, str)
        and mark[:1] in (".", ",")
        and re.fullmatch(f"(?:{_SIGNS})?", mark[1:]) is not None
    )


def read_written_numbers(
    features: Any,
    path: str,
    decimal: str | None = None,
    marks: dict[str, str] | None = None,
    first_row: int = 0,
    spare: Collection[str] = (),
    show_cells: bool = True,
) -> tuple[Any, dict[str, str]]:
    """Turn text columns of written numbers into numbers; return them and their marks.

    ``marks`` (a model's) fixes each column's mark, and says every column holds
    numbers: a column of which some cells read is refused for the others (a
    cell without the sign reads too). Without ``marks``, a column is refused for
    its unread cells when they are few (one, or :data:`_FEW_UNREAD` of the
    cells, and fewer than the numbers). The unread cells of the ``spare``
    columns stay as text, for the caller to refuse; ``first_row`` numbers a
    chunk's first row in messages.

    Raises
    ------
    UsageError
        A column whose cells read both ways to different numbers, and neither
        ``decimal`` nor ``marks`` says which way; a column of two currencies; a
        column of numbers with cells that are not.
    """
    import pandas as pd

    model = marks is not None
    marks = dict(marks or {})
    found: dict[str, str] = {}
    features = features.copy()
    for name in features.columns:
        column = features[name]
        if pd.api.types.is_numeric_dtype(column):
            continue
        present = column.notna().to_numpy()
        cells = column[present].astype(str).str.strip()
        if cells.empty or not cells.iloc[:1000].str.fullmatch(_AMOUNT).any():
            continue
        number, units = cells, pd.Series("", index=cells.index)
        if cells.str.contains(r"[^\d.,\s'\u00a0+-]").any():  # signs, or text
            parts = cells.str.extract(f"^{_AMOUNT}$").fillna("")
            number, units = parts[0] + parts[2] + parts[3], parts[1] + parts[4]
        readings = {}
        for mark, pattern in _WRITTEN.items():
            grouping = r"[,\s'\u00a0]" if mark == "." else r"[.\s'\u00a0]"
            ok = number.str.fullmatch(pattern).to_numpy()
            readings[mark] = np.full(ok.size, np.nan)
            if ok.any():
                plain = number[ok].str.replace(grouping, "", regex=True)
                readings[mark][ok] = plain.str.replace(",", ".").astype(np.float64)
        chosen = marks.get(str(name), decimal or "")
        if not chosen:
            chosen = _decimal_mark(readings, units, cells, f"--csv {path}", name)
        values = readings[chosen[0]]
        signed = sorted(set(units[~np.isnan(values)]) - {""})
        if len(signed) > 1 and not model:
            raise UsageError(
                f"--csv {path}: column {name!r} holds amounts in {len(signed)} "
                f"currencies or units ({', '.join(signed)}); write them in one (a "
                f"column each, or converted), or --drop {name}"
            )
        unit = chosen[1:] if model else "".join(signed)
        values[~units.isin(["", unit]).to_numpy()] = np.nan
        ok = ~np.isnan(values)
        if chosen[0] == "." and not ok.all():  # and as Python writes them: 1e-05
            values[~ok] = pd.to_numeric(cells[~ok], errors="coerce")
            ok = ~np.isnan(values)
        if not ok.any():
            continue  # text
        bad = np.zeros(column.shape[0], dtype=bool)
        bad[np.flatnonzero(present)[~ok]] = True
        n_bad = int(bad.sum())
        if n_bad and str(name) not in spare:
            few = n_bad <= max(1, ok.size * _FEW_UNREAD) and n_bad < ok.sum()
            if not (model or few):
                continue  # text with a few numbers among it: a category
            shown = column[bad].astype(str).unique()[:3] if show_cells else []
            raise UsageError(
                f"--csv {path}: column {name!r} holds numbers"
                + f" in {unit}" * bool(unit)
                + f", but not in {numbered_rows(bad, first_row)} ("
                + (", ".join(repr(printable(v, 40)) for v in shown) or "text")
                + "): correct or empty those cells (an empty cell is a missing value"
                + (")" if model else f"; see --missing), or --drop {name}")
            )
        full = column.to_numpy(dtype=object) if n_bad else np.full(bad.size, np.nan)
        full[np.flatnonzero(present)[ok]] = values[ok]
        features[name] = full  # a spared column's unread cells stay as text
        found[str(name)] = chosen[0] + unit
    return features, found


def _decimal_mark(
    readings: dict[str, Any], units: Any, cells: Any, where: str, name: Any
) -> str:
    """Choose the decimal mark reading more cells; refuse a column that reads both ways.

    Amounts in a currency have two decimals (or none): a column of them reading
    both ways (``€1,022``) is read as whole numbers, its mark a thousands one.
    """
    point, comma = readings["."], readings[","]
    read = ~np.isnan(point)
    if not np.array_equal(read, ~np.isnan(comma)) or np.array_equal(
        point[read], comma[read]
    ):
        return "." if read.sum() >= np.sum(~np.isnan(comma)) else ","
    whole = [m for m, v in readings.items() if np.all(v[read] == np.round(v[read]))]
    if len(whole) == 1 and (~units.isin(["", "%"])).any():
        return whole[0]
    raise UsageError(
        f"{where}: column {name!r} holds numbers such as "
        f"{cells.iloc[int(read.argmax())]!r} whose comma or point may be a decimal "
        "mark or a thousands separator; give --decimal . or --decimal , to say "
        "which is the decimal mark"
    )
