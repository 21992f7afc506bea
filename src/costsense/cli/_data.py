"""The rows a command reads: a CSV or Parquet table into features, labels, columns.

:func:`read_data` reads the table a command names (``--csv``, ``--target``,
``--drop``, ``--missing``), refuses what no model can use (infinite values, a
regression target, unencodable columns) with the row numbers and the fix, and
gives a :class:`Data`: features, labels, the column kinds and the encoder each
model's pipeline starts with. Change it when commands read a new kind of column
or a new file format.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._cost_options import cost_parts, part_columns, read_cost_column
from costsense.cli._options import COST_PARTS, UsageError
from costsense.cli._output import numbered_rows
from costsense.utils._columns import column_kinds, refuse_unencodable
from costsense.utils._numbers import read_written_numbers
from costsense.utils._tables import read_frame
from costsense.utils._text import printable

__all__ = [
    "Data",
    "describe_columns",
    "make_encoder",
    "match_label",
    "read_data",
    "refuse_infinite",
]


#: A numeric target with more distinct values than this is refused (a regression
#: target, not class labels).
MAX_NUMERIC_CLASSES = 20


def match_label(classes: Any, text: str | None, option: str) -> Any:
    """Find the class whose text form is ``text`` (a label from the command line)."""
    if text is None:
        return None
    for label in classes:
        if str(label) == text:
            return label
    raise UsageError(
        f"{option} {text!r} is not a class label; labels are "
        f"{printable([str(c) for c in classes][:20])}"
    )


@dataclass
class Data:
    """A labelled table as the commands use it.

    Attributes
    ----------
    X : DataFrame or ndarray
        Features: a DataFrame of the CSV's columns (encoded inside each model by
        ``prepare``), or a KEEL set's float matrix.
    y : ndarray
        Labels.
    source : str
        Where the data come from, for the header.
    columns : dict of str to str
        Each feature column's kind, "numeric" or "categorical" (empty for KEEL).
    prepare : transformer or None
        The column encoder (and imputer) of a CSV; None for a KEEL set.
    parts : dict of str to (float or str), or None
        The four per-row costs as given (:func:`cost_parts`): each of "fp", "fn",
        "tp", "tn" a constant or a column name; None for class-level costs.
    cost_columns : dict of str to ndarray
        Each cost column's values (checked: numbers, finite, >= 0), by name.
    cost_features : bool
        Whether the cost columns are also features (not ``--drop-cost-columns``).
    n_dropped : int
        Rows dropped for missing values.
    ignored : list of str
        Columns of the file that are not features (``--drop``, ``--id-column``).
    id_column : str or None
        The column naming each row (``--id-column``).
    number_marks : dict of str to str
        The decimal mark of each feature column of written numbers
        (:func:`costsense.utils._numbers.read_written_numbers`).
    """

    X: Any
    y: NDArray[Any]
    source: str
    columns: dict[str, str] = field(default_factory=dict)
    prepare: Any = None
    parts: dict[str, float | str] | None = None
    cost_columns: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    cost_features: bool = True
    n_dropped: int = 0
    ignored: list[str] = field(default_factory=list)
    id_column: str | None = None
    number_marks: dict[str, str] = field(default_factory=dict)


def make_encoder(
    columns: dict[str, str],
    missing: str,
    number_marks: dict[str, str] | None = None,
    parts: dict[str, Any] | None = None,
) -> Any:
    """Build the column encoder of a CSV's features, fitted inside each model.

    Categorical columns become one indicator per category seen in training (a
    category first seen at prediction sets none of them); date-time columns
    become their hour, weekday, day and month
    (:class:`costsense.utils._dates.DateTimeParts`); numeric columns pass through
    :class:`costsense.utils._reading.RowReading`, which keeps how rows are read
    (``number_marks``, ``missing`` and the cost ``parts``) inside the model, where the
    model loader holds the file's metadata to them. With ``missing="impute"`` a
    missing number (or date part) gets its training median and a missing
    category its own indicator.
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    from costsense.utils._dates import DateTimeParts
    from costsense.utils._reading import RowReading

    def of(kind: str) -> list[str]:
        return [c for c, k in columns.items() if k == kind]

    def median() -> Any:
        return SimpleImputer(strategy="median", keep_empty_features=True)

    impute = missing == "impute"
    reading = RowReading(dict(number_marks or {}), missing, parts)
    steps: list[tuple[str, Any, list[str]]] = [
        (
            "categorical",
            OneHotEncoder(handle_unknown="ignore", sparse_output=False),
            of("categorical"),
        ),
        (
            "numeric",
            make_pipeline(reading, median()) if impute else reading,
            of("numeric"),
        ),
    ]
    if of("date-time"):  # a step only when needed: older model files have none
        dates = make_pipeline(DateTimeParts(), median()) if impute else DateTimeParts()
        steps.append(("date-time", dates, of("date-time")))
    return ColumnTransformer(steps, verbose_feature_names_out=False)


def read_data(args: argparse.Namespace) -> Data:
    """Load ``--dataset`` or ``--csv``/``--target`` with the ``--missing`` policy.

    The cost columns named by ``--fn-cost`` and the others are read and checked
    here (on the whole file, so that an error names the file's rows), and stay
    features unless ``--drop-cost-columns``.
    """
    if args.dataset is not None:
        if args.target is not None:
            raise UsageError(
                "--target is for --csv; a KEEL set (--dataset) has its own target"
            )
        parts = cost_parts(args, None)
        from costsense.datasets import load_keel

        try:
            bunch = load_keel(args.dataset)
        except ValueError as error:
            raise UsageError(f"--dataset: {error}") from None
        return Data(
            np.asarray(bunch.X), np.asarray(bunch.y), f"KEEL {args.dataset}",
            parts=parts,
        )  # fmt: skip
    if not args.target:
        raise UsageError("--csv needs --target (the name of the label column)")
    frame = read_frame(args.csv, args)
    names = [str(c) for c in frame.columns]
    frame.columns = names
    if args.target not in names:
        raise UsageError(
            f"--target {args.target!r} is not a column; the columns are "
            f"{printable(names)}"
        )
    parts = cost_parts(args, names)
    costly = part_columns(parts)
    for part, option, *_ in COST_PARTS:
        if parts is not None and parts[part] == args.target:
            raise UsageError(
                f"{option} {args.target!r} is the --target column; a cost column "
                "holds each row's cost, the target its class"
            )
    ignored, id_column = _ignored_columns(args, names, costly)
    frame = frame.drop(columns=ignored)
    numbers, marks = read_written_numbers(
        frame.drop(columns=[args.target]), args.csv, args.decimal
    )
    frame[numbers.columns] = numbers
    for name in costly:
        frame[name] = read_cost_column(
            frame[name],
            f"--csv {args.csv}: cost column {name!r}",
            missing_allowed=args.missing == "drop",
        )
    refuse_infinite(frame.drop(columns=[args.target, *costly]), args.csv)
    frame, dropped = _apply_missing(frame, args)
    y = _labels(frame[args.target], args.target)
    cost_columns = {name: frame[name].to_numpy(dtype=np.float64) for name in costly}
    drop_costs = bool(getattr(args, "drop_cost_columns", False))
    features = frame.drop(columns=[args.target, *(costly if drop_costs else [])])
    if features.shape[1] == 0:
        raise UsageError(
            f"--csv {args.csv} has no feature column besides the target"
            + (" and the cost columns" if costly and drop_costs else "")
        )
    columns = column_kinds(features)
    refuse_unencodable(features, columns, args.max_categories)
    return Data(
        features,
        y,
        f"{args.csv} (target {args.target}"
        + (f"; not features: {', '.join(ignored)}" if ignored else "")
        + ")",
        columns=columns,
        prepare=make_encoder(
            columns,
            args.missing,
            {c: m for c, m in marks.items() if c in columns},
            parts,
        ),
        parts=parts,
        cost_columns=cost_columns,
        cost_features=not drop_costs,
        n_dropped=dropped,
        ignored=ignored,
        id_column=id_column,
        number_marks={c: m for c, m in marks.items() if c in columns},
    )


def describe_columns(data: Data) -> str | None:
    """Say how each column of a CSV is read, for the command's header (None for KEEL).

    Numeric columns are counted, each categorical column gives its number of
    categories, each date-time column the numbers it becomes, and the columns
    that are not features say why (``--id-column``, ``--drop``, costs).
    """
    from costsense.utils._dates import PARTS

    if not data.columns:
        return None
    numeric = [c for c, kind in data.columns.items() if kind == "numeric"]
    said = []
    if numeric:
        shown = ", ".join(printable(c, 40) for c in numeric[:6])
        shown += ", ..." if len(numeric) > 6 else ""
        said.append(f"{len(numeric)} numeric ({shown})")
    for name, kind in data.columns.items():
        if kind == "categorical":
            count = data.X[name].dropna().astype(str).str.strip().nunique()
            said.append(f"{printable(name)} (categorical, {count} categories)")
        elif kind == "date-time":
            said.append(f"{printable(name)} (date-time: {', '.join(PARTS)})")
    for name in data.ignored:
        role = "identifier" if name == data.id_column else "dropped"
        said.append(f"{printable(name)} ({role})")
    if data.cost_columns and not data.cost_features:
        said.extend(f"{printable(name)} (cost only)" for name in data.cost_columns)
    return "columns: " + "; ".join(said)


def _ignored_columns(
    args: argparse.Namespace, names: list[str], costly: list[str]
) -> tuple[list[str], str | None]:
    """Return the columns ``--drop`` and ``--id-column`` take out of the features."""
    dropped = [c.strip() for c in (args.drop or "").split(",") if c.strip()]
    id_column = args.id_column or None
    ignored = dropped + ([id_column] if id_column and id_column not in dropped else [])
    known = set(names)  # one set: a list searched per name is quadratic
    unknown = [c for c in ignored if c not in known]
    if unknown:
        raise UsageError(
            f"--drop/--id-column: {unknown} are not columns of --csv; the columns "
            f"are {printable(names)}"
        )
    for option, taken in (("--target", [args.target]), ("a cost option", costly)):
        clash = [c for c in ignored if c in taken]
        if clash:
            raise UsageError(
                f"--drop/--id-column {clash} names the column of {option}; it "
                "cannot also be left out"
            )
    return ignored, id_column


def refuse_infinite(features: Any, path: str, first_row: int = 0) -> None:
    """Refuse numeric feature columns holding inf or -inf, naming them and rows.

    No model accepts an infinite feature; found here, it is one error before any
    fit rather than one failed fit per fold.
    """
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


def _apply_missing(frame: Any, args: argparse.Namespace) -> Any:
    """Drop, keep or refuse rows with missing values, as ``--missing`` says.

    Cost columns were checked before (:func:`read_cost_column`): they hold no
    missing value unless ``--missing drop``, which drops those rows too.
    """
    target = frame[args.target]
    unlabelled = target.isna()
    incomplete = frame.isna().any(axis=1)
    if not incomplete.any():
        return frame, 0
    if args.missing == "raise":
        counts = frame.isna().sum()
        per_column = {str(k): int(v) for k, v in counts[counts > 0].items()}
        raise UsageError(
            f"{int(incomplete.sum())} rows have missing values (per column: "
            f"{printable(per_column)}); choose --missing drop (drop those rows), "
            "--missing impute (each numeric column's training median; a missing "
            "category is a category of its own) or --missing keep (NaN stays, for "
            "models that accept it)"
        )
    drop = incomplete if args.missing == "drop" else unlabelled
    kept = frame.loc[~drop].reset_index(drop=True)
    return kept, int(drop.sum())


def _labels(column: Any, name: str) -> NDArray[Any]:
    """Read the target's labels, refusing a numeric column of many values."""
    import pandas as pd

    distinct = column.nunique()
    if pd.api.types.is_numeric_dtype(column) and distinct > MAX_NUMERIC_CLASSES:
        raise UsageError(
            f"--target {name!r} holds {distinct} distinct numbers (such as "
            f"{column.iloc[0]}): it looks like a quantity, not class labels. "
            "costsense classifies: give a column of class labels (or make classes, "
            "e.g. 'amount > 100', into a column of their own)"
        )
    if pd.api.types.is_numeric_dtype(column):
        return column.to_numpy()
    return column.astype(str).to_numpy(dtype=object)
