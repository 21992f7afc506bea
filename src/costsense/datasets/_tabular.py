"""Tabular data with a declared target: pandas frames and CSV files.

Shared by the KEEL loader: one encoder turns a frame of numeric and categorical columns
into a float matrix, and one function builds the returned :class:`~sklearn.utils.Bunch`.
"""

from __future__ import annotations

import math
import os
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import Bunch

from ..costs import resolve_pos_label

__all__ = ["load_csv", "load_frame"]

FloatArray = NDArray[np.float64]

_ENCODINGS = ("onehot", "ordinal")
_MISSING = ("raise", "drop", "keep")


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


def _natural_key(value: Any) -> tuple[int, float, str]:
    """Sort key: numbers by value first, then everything else by its text."""
    text = str(value)
    try:
        number = float(text)
    except ValueError:
        return (1, 0.0, text)
    if math.isnan(number):
        return (1, 0.0, text)
    return (0, number, text)


def _check_option(value: Any, name: str, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}.")
    return value


def _categories(column: Any) -> list[Any]:
    """Category order of a column: a pandas Categorical's own order, else natural."""
    pd = _require_pandas("Categorical encoding")
    if isinstance(column.dtype, pd.CategoricalDtype):
        present = set(column.dropna().unique().tolist())
        return [c for c in column.cat.categories.tolist() if c in present]
    return sorted(column.dropna().unique().tolist(), key=_natural_key)


def _encode(
    features: Any, categorical: NDArray[np.bool_], encoding: str
) -> tuple[FloatArray, list[str], dict[str, list[Any]]]:
    """Encode a frame's columns as floats.

    Numeric columns are copied; a categorical column becomes one indicator column per
    category (``"onehot"``, named ``"col=value"``) or the category's index
    (``"ordinal"``, 0, 1, ...). Missing values stay NaN (in every indicator column).
    """
    blocks: list[FloatArray] = []
    names: list[str] = []
    categories: dict[str, list[Any]] = {}
    n = features.shape[0]
    for j, column_name in enumerate(features.columns):
        column = features[column_name]
        label = str(column_name)
        if not categorical[j]:
            blocks.append(column.to_numpy(dtype=np.float64, na_value=np.nan)[:, None])
            names.append(label)
            continue
        cats = _categories(column)
        categories[label] = cats
        values = column.to_numpy(dtype=object)
        missing = column.isna().to_numpy()
        codes = np.full(n, np.nan)
        for code, category in enumerate(cats):
            codes[(values == category) & ~missing] = code
        if encoding == "ordinal":
            blocks.append(codes[:, None])
            names.append(label)
        else:
            onehot = (codes[:, None] == np.arange(len(cats))[None, :]).astype(float)
            onehot[missing] = np.nan
            blocks.append(onehot)
            names.extend(f"{label}={category}" for category in cats)
    X = np.hstack(blocks) if blocks else np.empty((n, 0))
    return np.ascontiguousarray(X, dtype=np.float64), names, categories


def _handle_missing(
    frame: Any, target: str, missing: str, where: str
) -> tuple[Any, int]:
    """Apply the ``missing`` policy; return the frame and the number of rows dropped."""
    if frame[target].isna().any():
        if missing != "drop":
            raise ValueError(
                f"{where}: the target column {target!r} has "
                f"{int(frame[target].isna().sum())} missing labels. Drop those rows, "
                "or pass missing='drop'."
            )
    incomplete = frame.isna().any(axis=1)
    n_bad = int(incomplete.sum())
    if n_bad == 0:
        return frame, 0
    if missing == "raise":
        counts = frame.isna().sum()
        columns = {str(k): int(v) for k, v in counts[counts > 0].items()}
        raise ValueError(
            f"{where}: {n_bad} rows have missing values (per column: {columns}). "
            "Pass missing='drop' to drop those rows, or missing='keep' to keep NaN "
            "in X for an imputer."
        )
    if missing == "drop":
        return frame.loc[~incomplete].reset_index(drop=True), n_bad
    # keep: only the features may be NaN
    return frame, 0


def _build_bunch(
    frame: Any,
    target: str,
    categorical: NDArray[np.bool_],
    *,
    encoding: str,
    pos_label: Any,
    **meta: Any,
) -> Bunch:
    """Encode a cleaned frame (features + target column) into the returned Bunch."""
    features = frame.drop(columns=[target])
    X, names, categories = _encode(features, categorical, encoding)
    labels = frame[target]
    # Numbers keep a numeric dtype: scikit-learn reads an object array of numbers
    # as an "unknown" target type and refuses it. Other labels stay objects.
    numeric = _require_pandas("load_frame").api.types.is_numeric_dtype(labels)
    y = labels.to_numpy() if numeric else labels.to_numpy(dtype=object)
    if y.size == 0:
        raise ValueError("The data have no rows (after dropping missing values).")
    pos = resolve_pos_label(y, pos_label)
    return Bunch(
        X=X,
        y=y,
        pos_label=pos,
        target_names=np.unique(y),
        feature_names=np.asarray(names, dtype=object),
        categorical=np.asarray(categorical, dtype=bool),
        original_feature_names=np.asarray(
            [str(c) for c in features.columns], dtype=object
        ),
        categories=categories,
        encoding=encoding,
        frame=frame,
        target_name=target,
        **meta,
    )


_BUNCH_DOC = """\
    Bunch
        Dictionary-like object with attributes:

        X : ndarray of shape (n_samples, n_encoded_features)
            Float features: numeric columns as they are, categorical columns one-hot
            encoded (``encoding="onehot"``) or as category indices (``"ordinal"``).
        y : ndarray of shape (n_samples,)
            Class labels: numeric if the target column is numeric, else objects
            (strings).
        pos_label : label
            The positive (costly) class: ``pos_label`` if given, else the minority
            class (:func:`costsense.costs.resolve_pos_label`).
        target_names : ndarray
            The sorted class labels.
        feature_names : ndarray of str
            Names of the columns of ``X``; an indicator column is ``"col=value"``.
        categorical : ndarray of bool of shape (n_original_features,)
            Which ORIGINAL feature columns are categorical.
        original_feature_names : ndarray of str
            The original feature columns, in order.
        categories : dict
            For each categorical column, its categories in encoding order: a pandas
            ``Categorical``'s own order, otherwise numbers by value first, then
            strings in lexicographic order (so ``"2" < "10" < "more"``).
        encoding : str
            The encoding used.
        frame : pandas.DataFrame
            The data before encoding (after the missing-value policy), features and
            target.
        target_name : str
            Name of the target column in ``frame``.
        n_dropped : int
            Rows dropped for missing values.
        name : str or None
            The data set's name: the KEEL set, the CSV file's name without its
            extension, None for a DataFrame.
"""


def load_frame(
    df: Any,
    target: str,
    *,
    pos_label: Any = None,
    encoding: str = "onehot",
    missing: str = "raise",
) -> Bunch:
    """Turn a pandas DataFrame with a declared target column into ``X``, ``y``.

    Parameters
    ----------
    df : pandas.DataFrame
        Features and target.
    target : str
        Name of the target column.
    pos_label : hashable, default=None
        The positive (costly) class; ``None`` takes the minority class.
    encoding : {"onehot", "ordinal"}, default="onehot"
        How categorical columns become numbers.
    missing : {"raise", "drop", "keep"}, default="raise"
        Missing values (NaN / None): raise a ValueError naming the columns, drop the
        incomplete rows, or keep NaN in ``X`` (for an imputer in a pipeline; labels
        may never be missing).

    Returns
    -------
    {bunch}

    Raises
    ------
    ValueError
        Unknown target column (the message lists the columns), bad ``encoding`` or
        ``missing``, missing values under ``missing="raise"``, an unknown
        ``pos_label``.
    TypeError
        ``df`` is not a DataFrame, or a column holds dates or times.

    See Also
    --------
    load_csv : The same from a CSV file.

    Notes
    -----
    A feature column is categorical iff its dtype is not numeric (object, string,
    category; booleans count as numeric 0/1). Labels are kept exactly as given.

    Examples
    --------
    >>> import pandas as pd
    >>> from costsense.datasets import load_frame
    >>> df = pd.DataFrame({"age": [30, 40, 50], "city": ["b", "a", "b"],
    ...                    "fraud": ["no", "yes", "no"]})
    >>> data = load_frame(df, "fraud")
    >>> data.feature_names.tolist(), data.pos_label
    (['age', 'city=a', 'city=b'], 'yes')
    """
    pd = _require_pandas("load_frame")
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame, got {type(df).__name__}.")
    encoding = _check_option(encoding, "encoding", _ENCODINGS)
    missing = _check_option(missing, "missing", _MISSING)
    columns = [str(c) for c in df.columns]
    if len(set(columns)) != len(columns):
        raise ValueError(f"df has duplicate column names: {columns}.")
    if target not in df.columns:
        raise ValueError(
            f"target={target!r} is not a column of the data; the columns are {columns}."
        )
    frame, n_dropped = _handle_missing(df, target, missing, "load_frame")
    features = frame.drop(columns=[target])
    for column in features.columns:
        dtype = features[column].dtype
        if pd.api.types.is_datetime64_any_dtype(
            dtype
        ) or pd.api.types.is_timedelta64_dtype(dtype):
            raise TypeError(
                f"Column {column!r} holds dates or times ({dtype}); convert it to "
                "numbers (e.g. a timestamp or day of week) before loading."
            )
    categorical = np.array(
        [
            not pd.api.types.is_numeric_dtype(features[c].dtype)
            for c in features.columns
        ],
        dtype=bool,
    )
    return _build_bunch(
        frame,
        target,
        categorical,
        encoding=encoding,
        pos_label=pos_label,
        name=None,
        n_dropped=n_dropped,
    )


def load_csv(
    path: str | os.PathLike[str],
    target: str,
    *,
    pos_label: Any = None,
    encoding: str = "onehot",
    missing: str = "raise",
    **read_csv_kwargs: Any,
) -> Bunch:
    """Load a CSV file with a declared target column.

    Parameters
    ----------
    path : str or path-like
        The CSV file.
    target : str
        Name of the target column.
    pos_label : hashable, default=None
        The positive (costly) class; ``None`` takes the minority class.
    encoding : {"onehot", "ordinal"}, default="onehot"
        How categorical (non-numeric) columns become numbers.
    missing : {"raise", "drop", "keep"}, default="raise"
        Missing values, as in :func:`load_frame`.
    **read_csv_kwargs
        Passed to :func:`pandas.read_csv` (``sep``, ``na_values``, ``dtype``, ...).

    Returns
    -------
    {bunch}

    Raises
    ------
    ValueError
        As :func:`load_frame`.

    See Also
    --------
    load_frame : The same from a DataFrame; its Notes describe the encoding.
    """
    pd = _require_pandas("load_csv")
    frame = pd.read_csv(path, **read_csv_kwargs)
    data = load_frame(
        frame, target, pos_label=pos_label, encoding=encoding, missing=missing
    )
    data.name = os.path.splitext(os.path.basename(os.fspath(path)))[0]
    return data


load_frame.__doc__ = (load_frame.__doc__ or "").replace("{bunch}", _BUNCH_DOC.strip())
load_csv.__doc__ = (load_csv.__doc__ or "").replace("{bunch}", _BUNCH_DOC.strip())
