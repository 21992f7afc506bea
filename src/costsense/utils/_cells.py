"""Cells that cannot be read: too long, infinite, or not a cost.

A cell over ``--max-cell-chars`` is refused by column and row, in a CSV file
chunk by chunk (:func:`refuse_long_cells`), in a Parquet file before its text
is expanded (:func:`check_dictionary`); so are infinite numbers
(:func:`refuse_infinite`) and costs that are not costs (:func:`read_cost_column`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.exceptions import UsageError
from costsense.utils._text import numbered_rows, printable

__all__ = [
    "MAX_CELL_CHARS",
    "check_dictionary",
    "is_text",
    "read_cost_column",
    "refuse_infinite",
    "refuse_cell",
    "refuse_long_cells",
]

#: Longest cell read, in characters (bytes of binary Parquet cells), unless
#: ``--max-cell-chars`` says more: an identifier, a category or a date is far
#: shorter.
MAX_CELL_CHARS = 10_000


def refuse_long_cells(
    frame: Any, path: str, limit: int, first_row: int = 0, option: str = "--csv"
) -> None:
    """Refuse a text cell over ``limit`` characters, naming its column and row.

    ``first_row`` is the number in the table (from 0) of ``frame``'s first row.
    """
    import pandas as pd

    text = [
        position
        for position, kind in enumerate(frame.dtypes)
        if not (pd.api.types.is_numeric_dtype(kind) or pd.api.types.is_bool_dtype(kind))
    ]
    if not text or not frame.shape[0]:
        return
    cells = frame.iloc[:, text].to_numpy(dtype=object)
    lengths = _LENGTHS(cells).astype(np.int64)
    if lengths.max() > limit:
        row, column = np.unravel_index(int(lengths.argmax()), lengths.shape)
        name = str(frame.columns[text[int(column)]])
        at, length = first_row + int(row), int(lengths[row, column])
        refuse_cell(path, name, length, at, limit, option)


def _length(value: Any) -> int:
    """Return the length of a cell that is text or bytes, else 0."""
    return len(value) if isinstance(value, str | bytes) else 0


#: :func:`_length` over an object array, cell by cell.
_LENGTHS = np.frompyfunc(_length, 1, 1)


def refuse_cell(
    path: str, name: str, length: int, row: int, limit: int, option: str = "--csv"
) -> None:
    """Raise the UsageError of a cell over ``--max-cell-chars``."""
    raise UsageError(
        f"{option} {printable(path)}: column '{printable(name)}' holds a cell of "
        f"{length:,} characters (row {row + 2}, the header being row 1), over "
        f"--max-cell-chars {limit:,}; raise --max-cell-chars if such cells are "
        "meant, or remove the column"
    )


def is_text(kind: Any) -> bool:
    """Whether an Arrow type holds text or bytes (read dictionary-encoded)."""
    import pyarrow as pa

    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
    )


def _text_lengths(array: Any) -> Any:
    """Each value's length: characters of text, bytes of binary."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        return pc.utf8_length(array)
    return pc.binary_length(array)


def check_dictionary(
    array: Any, path: str, name: str, first_row: int, limit: int
) -> None:
    """Refuse a text or binary Arrow column holding a value over ``limit``.

    Each distinct value of a dictionary-encoded column is measured once.
    """
    import pyarrow as pa

    if not pa.types.is_dictionary(array.type):
        array = array.dictionary_encode()
    values = _text_lengths(array.dictionary).to_numpy(zero_copy_only=False)
    values = np.nan_to_num(values.astype(float), nan=0.0)
    if not values.size or values.max() <= limit:
        return
    indices = array.indices.to_numpy(zero_copy_only=False)
    indices = np.nan_to_num(indices.astype(float), nan=-1).astype(np.int64)
    lengths = np.where(indices >= 0, values[np.clip(indices, 0, None)], 0)
    if lengths.size and lengths.max() > limit:
        at = int(lengths.argmax())
        refuse_cell(path, name, int(lengths[at]), first_row + at, limit)


def read_cost_column(
    column: Any,
    where: str,
    *,
    missing_allowed: bool = False,
    first_row: int = 0,
    show_cells: bool = True,
) -> NDArray[np.float64]:
    """Read a cost column, refusing text, infinite or negative costs by row.

    Missing cells are kept as NaN if ``missing_allowed`` (their rows are
    dropped), else refused; ``first_row`` numbers a chunk's first row.
    """
    import pandas as pd

    missing = column.isna().to_numpy()
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
    text = np.isnan(values) & ~missing
    if text.any():
        such = f" such as {str(column[text].iloc[0])[:40]!r}" if show_cells else ""
        raise UsageError(
            f"{where} must hold numbers (each row's cost); "
            f"{numbered_rows(text, first_row)} hold text{such}"
        )
    if missing.any() and not missing_allowed:
        raise UsageError(
            f"{where} has missing costs in {numbered_rows(missing, first_row)}; fill "
            "them, or drop those rows (--missing drop)"
        )
    bad = ~np.isfinite(values) & ~missing | (values < 0)
    if bad.any():
        raise UsageError(
            f"{where} must hold finite costs >= 0; {numbered_rows(bad, first_row)} "
            "do not"
        )
    return values


def refuse_infinite(features: Any, path: str, first_row: int = 0) -> None:
    """Refuse numeric columns holding inf or -inf, naming them and the rows."""
    import pandas as pd

    for name in features.columns:
        column = features[name]
        if not pd.api.types.is_numeric_dtype(column):
            continue
        infinite = np.isinf(column.to_numpy(dtype=np.float64, na_value=np.nan))
        if infinite.any():
            raise UsageError(
                f"--csv {path}: column {name!r} holds infinite values "
                f"({numbered_rows(infinite, first_row)}); replace them with numbers, "
                "or leave the cells empty and choose a --missing policy"
            )
