"""What each column of a user's table is: numeric, categorical or date-time.

:func:`categorical_mask` reads an estimator's ``categorical_features`` (the
samplers', naive Bayes' and the boosters' that pass it on).

The command line (``evaluate``, ``fit``, ``predict``) and the studies' file
datasets read a table's columns the same way: :func:`column_kinds` names each
column's kind, :func:`refuse_unencodable` refuses, by name and with the fix, the
columns that cannot become features.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.exceptions import UsageError

__all__ = [
    "MAX_CATEGORIES",
    "categorical_mask",
    "column_kinds",
    "is_dataframe",
    "refuse_unencodable",
]

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
    ``--id-column``, ``--max-categories``); of numbers with a unit, the
    numbers alone or ``--drop``. A date-time column must read in one
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
        cells = features[name].dropna().astype(str).str.strip()
        distinct = cells.nunique()
        if distinct > max_categories and cells.str.fullmatch(_UNIT).mean() > 0.9:
            raise UsageError(
                f"column {name!r} holds numbers written with a unit, such as "
                f"{cells.iloc[0][:40]!r}; write the numbers alone (the unit in the "
                f"column's name; currency signs and % are read), or --drop {name}"
            )
        if distinct > max_categories:
            raise UsageError(
                f"column {name!r} has {distinct} categories, over --max-categories "
                f"{max_categories} (one indicator column each): if it names rows, "
                f"give --id-column {name}; if it is free text or not a feature, "
                f"--drop {name}; else raise --max-categories"
            )


#: A number followed by a unit (``12 kg``, ``3.5km``), which is not read as a number.
_UNIT = r"[+-]?\d[\d.,'\s]*\s?[^\W\d_]{1,5}\.?"

#: How many column names an error message lists before it abbreviates.
_NAMES_SHOWN = 30


def is_dataframe(X: Any) -> bool:
    """Whether ``X`` is a pandas DataFrame (without importing pandas)."""
    module = type(X).__module__
    return module.startswith("pandas") and type(X).__name__ == "DataFrame"


def _shown(names: list[str]) -> str:
    """Show the names as a list for a message, abbreviated past :data:`_NAMES_SHOWN`."""
    if len(names) <= _NAMES_SHOWN:
        return repr(names)
    return f"{names[:_NAMES_SHOWN]!r} and {len(names) - _NAMES_SHOWN} more"


def categorical_mask(
    categorical_features: Any, X: Any, n_features: int
) -> NDArray[np.bool_]:
    """Read ``categorical_features`` into a boolean mask over the columns of ``X``.

    Parameters
    ----------
    categorical_features : None, "auto" or array-like of int, bool or str
        None: no categorical column. "auto": the columns of pandas' ``category``
        dtype (``X`` must be a DataFrame). Integers: column indices (negative ones
        count from the end). Booleans: a mask with one entry per column. Strings:
        column names (``X`` must be a DataFrame with string column names).
    X : array-like or DataFrame
        The input as the user gave it (for its column names and dtypes).
    n_features : int
        Number of columns of ``X``.

    Returns
    -------
    ndarray of bool, shape (n_features,)

    Raises
    ------
    ValueError
        When the columns cannot be read, naming what was given and what would do.
    """
    mask = np.zeros(n_features, dtype=bool)
    if categorical_features is None:
        return mask
    if isinstance(categorical_features, str):
        if categorical_features != "auto":
            raise ValueError(
                "categorical_features must be 'auto', column indices, a boolean mask "
                f"or a list of column names, got the string {categorical_features!r}"
                f". To name one column, give a list: [{categorical_features!r}]."
            )
        if not is_dataframe(X):
            raise ValueError(
                "categorical_features='auto' takes the columns of pandas' category "
                "dtype, so X must be a pandas DataFrame; got "
                f"{type(X).__name__}. Give the categorical columns' indices or a "
                "boolean mask instead."
            )
        import pandas as pd

        return np.array(
            [isinstance(dtype, pd.CategoricalDtype) for dtype in X.dtypes], dtype=bool
        )
    try:
        items = list(categorical_features)
    except TypeError:
        items = [categorical_features]
    if any(np.ndim(item) != 0 for item in items):
        raise ValueError(
            "categorical_features must be one-dimensional (column indices, a boolean "
            f"mask or column names), got {categorical_features!r}."
        )
    if not items:
        return mask
    if all(isinstance(item, bool | np.bool_) for item in items):
        if len(items) != n_features:
            raise ValueError(
                f"categorical_features as a boolean mask needs {n_features} entries "
                f"(one per column of X), got {len(items)}."
            )
        return np.array(items, dtype=bool)
    if all(isinstance(item, str | np.str_) for item in items):
        return _mask_from_names([str(item) for item in items], X, n_features)
    if all(
        isinstance(item, Integral | np.integer)
        and not isinstance(item, bool | np.bool_)
        for item in items
    ):
        indices = np.array([int(item) for item in items], dtype=np.intp)
        outside = indices[(indices < -n_features) | (indices >= n_features)]
        if outside.size:
            raise ValueError(
                f"categorical_features has an index outside X's {n_features} columns "
                f"(indices run from 0 to {n_features - 1}): {outside.tolist()}."
            )
        mask[indices] = True
        return mask
    raise ValueError(
        "categorical_features must be column indices (integers), a boolean mask or "
        f"column names (strings), not a mix of them; got {categorical_features!r}."
    )


def _mask_from_names(names: list[str], X: Any, n_features: int) -> NDArray[np.bool_]:
    """Return the mask of the columns of the DataFrame ``X`` named ``names``."""
    if not is_dataframe(X):
        raise ValueError(
            f"categorical_features names columns ({names!r}), which needs X as a "
            f"pandas DataFrame with those column names; X is a {type(X).__name__}. "
            "Give the columns' indices or a boolean mask instead."
        )
    columns = list(X.columns)
    if not all(isinstance(column, str) for column in columns):
        raise ValueError(
            f"categorical_features names columns ({names!r}), but X's column names "
            f"are not all strings ({_shown([repr(c) for c in columns])}). Give the "
            "columns' indices or a boolean mask instead."
        )
    unknown = [name for name in names if name not in columns]
    if unknown:
        raise ValueError(
            f"categorical_features names columns X does not have: {unknown!r}. "
            f"X's columns are {_shown(columns)}."
        )
    wanted = set(names)
    mask = np.array([column in wanted for column in columns], dtype=bool)
    assert mask.size == n_features
    return mask
