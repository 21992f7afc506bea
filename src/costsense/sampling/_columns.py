"""Tables in, tables out: a table's categorical values as codes, and back.

A table (a pandas DataFrame, or an ndarray of objects such as strings) is encoded
once (continuous columns as float64, each categorical column's values as codes
``0 .. k-1`` in the sorted order of its values, or first-seen order when they
cannot be sorted), resampled as numbers, and decoded at the end. With sortable
values a roulette wheel over codes draws what it would over the values, so a
numeric table gives the rows an ndarray of the same numbers gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.utils._columns import categorical_mask, is_dataframe

FloatArray = NDArray[np.float64]

__all__ = [
    "EncodedTable",
    "TableCodec",
    "categorical_columns",
    "encode_table",
    "is_table",
]


def is_table(X: Any) -> bool:
    """Whether ``X`` goes through the table path (encode, resample, decode).

    A DataFrame always does (its dtypes are given back); an ndarray (or a list)
    does when its values are objects or strings. A numeric ndarray, a list of
    numbers and a sparse matrix take the numeric path.
    """
    if is_dataframe(X):
        return True
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):  # sparse: the numeric path
        return False
    dtype = getattr(X, "dtype", None)
    if dtype is None:  # a list: look at what numpy makes of it
        try:
            dtype = np.asarray(X).dtype
        except (ValueError, TypeError):
            return False  # ragged: let the numeric path's check explain
    return np.dtype(dtype).kind in "OUS"


def categorical_columns(categorical_features: Any, X: Any) -> NDArray[np.intp]:
    """Return the indices of the columns ``categorical_features`` names in ``X``.

    The samplers' reading (imbalanced-learn's SMOTENC's), for code that must turn
    names or ``"auto"`` into indices before converting a DataFrame to an array.

    Parameters
    ----------
    categorical_features : None, "auto" or array-like of int, bool or str
        None: no column. "auto": the DataFrame's columns of pandas' ``category``
        dtype. Integers: column indices (negative ones count from the end).
        Booleans: a mask with one entry per column. Strings: column names (``X``
        a DataFrame with string column names).
    X : array-like or DataFrame of shape (n_samples, n_features)
        The data whose columns are named.

    Returns
    -------
    ndarray of int
        The categorical columns' indices, in increasing order.

    Raises
    ------
    ValueError
        When the columns cannot be read (an unknown name, names or "auto" without
        a DataFrame, an index outside X's columns, a mask of the wrong length).

    Examples
    --------
    >>> import numpy as np
    >>> from costsense.sampling import categorical_columns
    >>> X = np.zeros((4, 3))
    >>> categorical_columns([False, True, True], X).tolist()
    [1, 2]
    >>> categorical_columns([-1], X).tolist()
    [2]
    """
    shape = X.shape if hasattr(X, "shape") else np.shape(np.asarray(X, dtype=object))
    if len(shape) != 2:
        raise ValueError(
            f"X must be two-dimensional (rows x columns), got shape {tuple(shape)}."
        )
    mask = categorical_mask(categorical_features, X, int(shape[1]))
    return np.flatnonzero(mask).astype(np.intp)


def _factorize(values: NDArray[Any]) -> tuple[NDArray[Any], NDArray[np.intp]]:
    """Return a column's distinct values and each row's code (its value's position).

    The values in sorted order when they can be sorted, else in the order they
    first appear.
    """
    try:
        categories, codes = np.unique(values, return_inverse=True)
        return categories, codes.reshape(-1).astype(np.intp)
    except TypeError:
        pass
    index: dict[Any, int] = {}
    codes = np.fromiter(
        (index.setdefault(value, len(index)) for value in values),
        dtype=np.intp,
        count=len(values),
    )
    categories = np.empty(len(index), dtype=object)
    for position, value in enumerate(index):
        categories[position] = value
    return categories, codes


def _missing(values: NDArray[Any]) -> NDArray[np.bool_]:
    """Which entries are missing: NaN, None, or pandas' NA and NaT."""
    if values.dtype.kind in "fc":
        return np.isnan(values)
    if values.dtype.kind != "O":
        return np.zeros(values.shape, dtype=bool)
    try:
        import pandas as pd
    except ImportError:  # pandas is optional; then only None and NaN can occur
        return np.array(
            [
                value is None or (isinstance(value, float) and value != value)
                for value in values
            ],
            dtype=bool,
        )
    return np.asarray(pd.isna(values), dtype=bool)


@dataclass(frozen=True)
class TableCodec:
    """How a table's columns were encoded, to give rows back in the table's form.

    ``categories[j][k]`` is the value of code ``k`` of categorical column ``j``;
    ``columns`` and ``dtypes`` are a DataFrame's, ``array_dtype`` an ndarray's.
    """

    categorical: NDArray[np.bool_]
    categories: dict[int, NDArray[Any]]
    frame: bool
    columns: Any = None
    dtypes: list[Any] | None = None
    array_dtype: Any = None

    def decode(self, encoded: FloatArray) -> Any:
        """Rows of numbers (continuous values and codes) as rows of the table."""
        if self.frame:
            return self._decode_frame(encoded)
        rows = np.empty(encoded.shape, dtype=object)
        for column in range(encoded.shape[1]):
            rows[:, column] = self._column(encoded[:, column], column)
        return rows if self.array_dtype.kind == "O" else rows.astype(self.array_dtype)

    def stack(self, original: Any, encoded_new: FloatArray) -> Any:
        """Return the original table followed by the decoded new rows."""
        new = self.decode(encoded_new)
        if self.frame:
            import pandas as pd

            return pd.concat([original.reset_index(drop=True), new], ignore_index=True)
        return np.concatenate([np.asarray(original, dtype=new.dtype), new])

    def _column(self, values: FloatArray, column: int) -> NDArray[Any]:
        """One column's decoded values (categories, or numbers)."""
        if self.categorical[column]:
            return self.categories[column][values.astype(np.intp)]
        return values

    def _decode_frame(self, encoded: FloatArray) -> Any:
        import pandas as pd

        assert self.dtypes is not None
        series = {}
        for column, dtype in enumerate(self.dtypes):
            values = self._column(encoded[:, column], column)
            if not self.categorical[column] and pd.api.types.is_integer_dtype(dtype):
                limits = np.iinfo(getattr(dtype, "numpy_dtype", dtype))
                values = np.clip(np.rint(values), limits.min, limits.max)
            series[column] = pd.Series(values).astype(dtype)
        frame = pd.DataFrame(series, index=pd.RangeIndex(encoded.shape[0]))
        frame.columns = self.columns
        return frame


@dataclass(frozen=True)
class EncodedTable:
    """A table as numbers (``encoded``), the table as given, and the way back."""

    encoded: FloatArray
    original: Any
    codec: TableCodec


def _label(X: Any, column: int) -> str:
    """How a message names a column: its DataFrame name, or its index."""
    if is_dataframe(X):
        return f"column {X.columns[column]!r} (index {column})"
    return f"column {column}"


def _declare_hint(X: Any, column: int) -> str:
    """Say what to add to categorical_features for this column."""
    if is_dataframe(X) and isinstance(X.columns[column], str):
        return f"its name {X.columns[column]!r} (or its index {column})"
    return f"its index {column}"


def _continuous(column: Any, X: Any, j: int) -> FloatArray:
    """Return a column not declared categorical as finite float64, or raise.

    ``column`` is a pandas Series (a DataFrame's column) or a 1-D ndarray.
    """
    label, hint = _label(X, j), _declare_hint(X, j)
    advice = (
        "The columns not in categorical_features are modelled as continuous numbers; "
        f"add {hint} to categorical_features to draw its values from each class's "
        "own values, or encode the column as numbers."
    )
    dtype = column.dtype
    kind = getattr(dtype, "kind", "O")
    if getattr(dtype, "name", "") == "category":
        raise ValueError(
            f"X's {label} has pandas' category dtype but is not in "
            f"categorical_features. {advice} (categorical_features='auto' takes every "
            "column of category dtype.)"
        )
    if kind == "b":
        raise ValueError(f"X's {label} holds booleans. {advice}")
    if kind in "iuf":
        if hasattr(column, "iloc"):  # a Series, maybe of a nullable dtype
            floats = column.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            floats = np.asarray(column, dtype=np.float64)
    elif isinstance(dtype, np.dtype) and kind == "O":
        values = np.asarray(column)
        text = next((v for v in values if isinstance(v, str | bytes)), None)
        if text is not None:
            raise ValueError(f"X's {label} holds strings (e.g. {text!r}). {advice}")
        try:
            floats = values.astype(np.float64)
        except (TypeError, ValueError) as error:
            bad = next((v for v in values if not isinstance(v, Real)), None)
            raise type(error)(
                f"X's {label} holds a {type(bad).__name__} ({bad!r}), not a number "
                f"({error}). {advice}"
            ) from error
    else:
        values = np.asarray(column)
        example = values[0] if len(values) else None
        raise ValueError(
            f"X's {label} holds values of dtype {dtype} (e.g. {example!r}), not "
            f"numbers. {advice}"
        )
    if not np.all(np.isfinite(floats)):
        raise ValueError(
            f"X's {label} has missing (NaN) or infinite values; the class models need "
            "finite numbers. Impute or drop them first (for example with "
            "sklearn.impute.SimpleImputer in the pipeline before the sampler)."
        )
    return floats


def encode_table(X: Any, categorical: NDArray[np.bool_]) -> EncodedTable:
    """Encode a table's columns as numbers: continuous as floats, categories as codes.

    Raises
    ------
    ValueError or TypeError
        A column not declared categorical that does not hold finite numbers, or a
        categorical column with missing values, named with the fix.
    """
    frame = is_dataframe(X)
    if frame:
        if any(str(dtype).startswith("Sparse") for dtype in X.dtypes):
            raise TypeError(
                "X has sparse columns (pandas' SparseDtype); the class models are "
                "densities over dense columns. Convert them with "
                "X.sparse.to_dense() first."
            )
        columns: list[Any] = [X.iloc[:, j] for j in range(X.shape[1])]
    else:
        array = np.asarray(X)
        columns = [array[:, j] for j in range(array.shape[1])]
    encoded = np.empty((X.shape[0], len(columns)))
    categories: dict[int, NDArray[Any]] = {}
    for j, column in enumerate(columns):
        if not categorical[j]:
            encoded[:, j] = _continuous(column, X, j)
            continue
        values = np.asarray(column.to_numpy() if frame else column)
        if np.any(_missing(values)):
            raise ValueError(
                f"X's {_label(X, j)} (categorical) has missing values. Fill them "
                "first, for example with a category of their own "
                "(sklearn.impute.SimpleImputer(strategy='constant', "
                "fill_value='missing')), or drop those rows."
            )
        try:
            categories[j], codes = _factorize(values)
        except TypeError as error:
            raise TypeError(
                f"X's {_label(X, j)} (categorical) holds values that can be neither "
                f"sorted nor hashed ({error}); categories must be hashable values "
                "such as strings or numbers."
            ) from error
        encoded[:, j] = codes
    codec = TableCodec(
        categorical=categorical.copy(),
        categories=categories,
        frame=frame,
        columns=X.columns if frame else None,
        dtypes=list(X.dtypes) if frame else None,
        array_dtype=None if frame else np.asarray(X).dtype,
    )
    return EncodedTable(encoded=encoded, original=X, codec=codec)
