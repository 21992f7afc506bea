"""What each column of a user's table is: numeric, categorical or date-time.

The command line (``evaluate``, ``fit``, ``predict``) and the studies' file
datasets read a table's columns the same way: :func:`column_kinds` names each
column's kind, :func:`refuse_unencodable` refuses, by name and with the fix, the
columns that cannot become features.
"""

from __future__ import annotations

from typing import Any

from costsense.exceptions import UsageError

__all__ = ["MAX_CATEGORIES", "column_kinds", "refuse_unencodable"]

#: A text column of more distinct values than this is refused (``--max-categories``).
MAX_CATEGORIES = 50


def column_kinds(frame: Any) -> dict[str, str]:
    """Each column's kind: "numeric" (numbers, booleans), "date-time" or "categorical".

    A text column is "date-time" when its cells are dates or times
    (:func:`costsense.utils._dates.looks_like_dates`).
    """
    import pandas as pd

    from costsense.utils._dates import looks_like_dates

    kinds = {}
    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_numeric_dtype(column):
            kinds[str(name)] = "numeric"
        elif pd.api.types.is_datetime64_any_dtype(column) or looks_like_dates(column):
            kinds[str(name)] = "date-time"
        else:
            kinds[str(name)] = "categorical"
    return kinds


def refuse_unencodable(
    features: Any, columns: dict[str, str], max_categories: int
) -> None:
    """Refuse columns that cannot become features, each by name with the fix.

    A text column of more than ``max_categories`` distinct values (an
    identifier, free text) would become one dense indicator column per value:
    tens of thousands of columns on an ordinary table (``--drop``,
    ``--id-column``, ``--max-categories``). A date-time column must read in one
    format, one way (:func:`costsense.utils._dates.date_format`).
    """
    from costsense.utils._dates import AmbiguousDates, date_format

    for name, kind in columns.items():
        if kind == "date-time":
            try:
                date_format(features[name])
            except AmbiguousDates as error:
                raise UsageError(
                    f"column {name!r} holds dates, but {error}; write them year "
                    f"first (YYYY-MM-DD), or --drop {name}"
                ) from None
            except ValueError as error:
                raise UsageError(
                    f"column {name!r} holds dates, but {error}; write them in one "
                    f"format, or --drop {name}"
                ) from None
        if kind != "categorical":
            continue
        distinct = features[name].dropna().astype(str).str.strip().nunique()
        if distinct > max_categories:
            raise UsageError(
                f"column {name!r} has {distinct} categories, over --max-categories "
                f"{max_categories} (one indicator column each): if it names rows, "
                f"give --id-column {name}; if it is free text or not a feature, "
                f"--drop {name}; else raise --max-categories"
            )
