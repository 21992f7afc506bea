"""What every ``costsense`` command shares: errors, tables, output files, data, costs.

Commands raise :class:`UsageError` for anything the user must fix before work
starts (an option, an input file, a cost): the command exits with status 2 and one
line, never a traceback. Anything that fails later exits with status 1.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._options import COLUMN_PREFIX, COST_PARTS, UsageError
from costsense.utils._columns import column_kinds, refuse_unencodable
from costsense.utils._numbers import read_written_numbers
from costsense.utils._tables import read_frame

if TYPE_CHECKING:
    from costsense.costs import Costs

__all__ = [
    "CommandCosts",
    "Data",
    "UsageError",
    "match_label",
    "new_output",
    "print_table",
    "read_cost_matrix",
    "read_data",
    "read_frame",
    "RowWriter",
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
        f"{[str(c) for c in classes][:20]}"
    )


def print_table(
    table: list[list[str]], out: Any = None, *, left_all: bool = False
) -> None:
    """Print rows of cells, a rule under the header.

    Numbers are right-aligned; the first column and a last column of text
    (headed "notes" or "source") are left-aligned; every column with
    ``left_all``.
    """
    out = sys.stdout if out is None else out  # at call time: tests swap sys.stdout
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    last = len(widths) - 1
    left = {0} | ({last} if table[0][last] in ("notes", "source") else set())
    if left_all:
        left = set(range(len(widths)))
    for index, row in enumerate(table):
        cells = [
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=out)
        if index == 0:
            print("  ".join("-" * w for w in widths), file=out)


def new_output(path: str | None, option: str, *inputs: str | None) -> Path | None:
    """Check that an output path is new and is none of the inputs."""
    if path is None:
        return None
    output = Path(path)
    for given in inputs:
        if given is not None and output.resolve() == Path(given).resolve():
            raise UsageError(f"{option} {path} is an input file; choose another path")
    if output.exists():
        raise UsageError(
            f"{option} {path} exists; costsense never overwrites files. Choose a new "
            "path or remove it first."
        )
    if not output.parent.is_dir():
        raise UsageError(f"{option} {path}: the folder {output.parent} does not exist")
    return output


class RowWriter:
    """Append rows to a new CSV file, flushing each one (an interrupt keeps them)."""

    def __init__(self, path: Path, fields: Sequence[str]) -> None:
        self._file = path.open("x", newline="")
        self._writer = csv.DictWriter(
            self._file, fieldnames=list(fields), extrasaction="ignore"
        )
        self._writer.writeheader()
        self._file.flush()

    def __call__(self, row: dict[str, Any]) -> None:
        """Write one row."""
        self._writer.writerow(row)
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


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


def make_encoder(columns: dict[str, str], missing: str) -> Any:
    """Build the column encoder of a CSV's features, fitted inside each model.

    Categorical columns become one indicator per category seen in training (a
    category first seen at prediction sets none of them); date-time columns
    become their hour, weekday, day and month
    (:class:`costsense.utils._dates.DateTimeParts`); numeric columns pass through.
    With ``missing="impute"`` a missing number (or date part) gets its training
    median and a missing category its own indicator.
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    from costsense.utils._dates import DateTimeParts

    def of(kind: str) -> list[str]:
        return [c for c, k in columns.items() if k == kind]

    def median() -> Any:
        return SimpleImputer(strategy="median", keep_empty_features=True)

    impute = missing == "impute"
    steps: list[tuple[str, Any, list[str]]] = [
        (
            "categorical",
            OneHotEncoder(handle_unknown="ignore", sparse_output=False),
            of("categorical"),
        ),
        ("numeric", median() if impute else "passthrough", of("numeric")),
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
            f"--target {args.target!r} is not a column; the columns are {names}"
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
        prepare=make_encoder(columns, args.missing),
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
        shown = ", ".join(numeric[:6]) + (", ..." if len(numeric) > 6 else "")
        said.append(f"{len(numeric)} numeric ({shown})")
    for name, kind in data.columns.items():
        if kind == "categorical":
            count = data.X[name].dropna().astype(str).str.strip().nunique()
            said.append(f"{name} (categorical, {count} categories)")
        elif kind == "date-time":
            said.append(f"{name} (date-time: {', '.join(PARTS)})")
    for name in data.ignored:
        said.append(f"{name} ({'identifier' if name == data.id_column else 'dropped'})")
    if data.cost_columns and not data.cost_features:
        said.extend(f"{name} (cost only)" for name in data.cost_columns)
    return "columns: " + "; ".join(said)


def _ignored_columns(
    args: argparse.Namespace, names: list[str], costly: list[str]
) -> tuple[list[str], str | None]:
    """Return the columns ``--drop`` and ``--id-column`` take out of the features."""
    dropped = [c.strip() for c in (args.drop or "").split(",") if c.strip()]
    id_column = args.id_column or None
    ignored = dropped + ([id_column] if id_column and id_column not in dropped else [])
    unknown = [c for c in ignored if c not in names]
    if unknown:
        raise UsageError(
            f"--drop/--id-column: {unknown} are not columns of --csv; the columns "
            f"are {names}"
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
                f"({_numbered(infinite, first_row)}); replace them with numbers, "
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
            f"{per_column}); choose --missing drop (drop those rows), --missing "
            "impute (each numeric column's training median; a missing category is "
            "a category of its own) or --missing keep (NaN stays, for models that "
            "accept it)"
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


def _numbered(flags: NDArray[np.bool_], first_row: int = 0, shown: int = 5) -> str:
    """Name the first flagged rows as the CSV numbers its lines (header = 1).

    ``first_row`` is the number in the whole file (from 0) of the first of the
    rows ``flags`` marks, for a chunk of the file.
    """
    rows = (np.flatnonzero(flags) + first_row + 2).tolist()
    more = f" and {len(rows) - shown} more" if len(rows) > shown else ""
    return f"{'row' if len(rows) == 1 else 'rows'} {rows[:shown]}{more}"


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
            f"{_numbered(text, first_row)} hold text such as {str(first)[:40]!r}"
        )
    if missing.any() and not missing_allowed:
        raise UsageError(
            f"{where} has missing costs in {_numbered(missing, first_row)}; fill "
            "them, or drop those rows (--missing drop)"
        )
    bad = ~np.isfinite(values) & ~missing | (values < 0)
    if bad.any():
        raise UsageError(
            f"{where} must hold finite costs >= 0; {_numbered(bad, first_row)} hold "
            f"{values[bad][:3].tolist()}"
        )
    return values


def _cost_option_given(args: argparse.Namespace) -> list[str]:
    """Name the per-row cost options given on the command line."""
    given = [option for part, option, *_ in COST_PARTS
             if getattr(args, f"{part}_cost", None) is not None]  # fmt: skip
    if getattr(args, "cost_column", None) is not None:
        given.append("--cost-column")
    return given


def cost_parts(
    args: argparse.Namespace, columns: Sequence[str] | None
) -> dict[str, float | str] | None:
    """Read ``--fn-cost``, ``--fp-cost``, ``--tp-cost``, ``--tn-cost`` against the file.

    A value is a column when it starts with ``col:`` (the rest is the name) or
    names a column without reading as a number; a number when it reads as a
    finite one and names no column; a value that is both is refused (write
    ``col:NAME`` for the column, or the number another way, such as ``5.0``).
    ``--cost-column COL`` is the deprecated spelling of ``--fn-cost COL``.

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
    if args.cost_column is not None:
        if args.fn_cost is not None:
            raise UsageError(
                "--cost-column is the old name of --fn-cost; give --fn-cost only"
            )
        print(
            f"note: --cost-column is deprecated; it means --fn-cost {args.cost_column}",
            file=sys.stderr,
        )
        args.fn_cost = (
            args.cost_column
            if columns is None or args.cost_column not in columns
            else f"{COLUMN_PREFIX}{args.cost_column}"
        )
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


def read_cost_matrix(path: str, classes: NDArray[Any]) -> NDArray[np.float64]:
    """Read ``--cost-matrix``: a K x K CSV with the class names as header and index.

    Rows are true classes, columns predicted ones; returned in the order of
    ``classes``.
    """
    import pandas as pd

    try:
        table = pd.read_csv(path, index_col=0)
    except FileNotFoundError:
        raise UsageError(f"--cost-matrix {path}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise UsageError(
            f"--cost-matrix {path} is not a readable CSV: {error}"
        ) from None
    rows = [str(r) for r in table.index]
    cols = [str(c) for c in table.columns]
    names = [str(c) for c in classes]
    for what, found in (("rows (first column)", rows), ("columns (header)", cols)):
        unknown = [n for n in found if n not in names]
        absent = [n for n in names if n not in found]
        if unknown or absent or len(set(found)) != len(found):
            raise UsageError(
                f"--cost-matrix {path}: its {what} must name each class once; "
                + (f"unknown classes {unknown}; " if unknown else "")
                + (f"missing classes {absent}; " if absent else "")
                + f"the data's classes are {names}"
            )
    table.index, table.columns = rows, cols
    try:
        matrix = table.loc[names, names].to_numpy(dtype=np.float64)
    except ValueError:
        raise UsageError(f"--cost-matrix {path}: every cost must be a number") from None
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
        raise UsageError(f"--cost-matrix {path}: costs must be finite and >= 0")
    return matrix


@dataclass(frozen=True)
class CommandCosts:
    """The costs a command was given: one :class:`~costsense.costs.Costs`, and words.

    Attributes
    ----------
    costs : Costs
        Resolved once against the data's labels; the command passes it down
        whole. Per-row (``costs.example_dependent``) when a cost part is a column:
        resolved from the rows' :class:`~costsense.costs.ExampleCosts`.
    kind : str
        How the model file's metadata names it: "ratio", "pair", "matrix" or
        "parts" (``--fn-cost`` and the others).
    describe : str
        One line for the header.
    parts : dict or None
        The four parts as given (:func:`cost_parts`), for "parts".
    """

    costs: Costs
    kind: str
    describe: str
    parts: dict[str, float | str] | None = None


def resolve_costs(args: argparse.Namespace, data: Data) -> CommandCosts:
    """Resolve ``--cost``, ``--cost-matrix`` or the four parts against the data."""
    from costsense.costs import Costs, part_costs, parts_matrix, resolve_pos_label

    classes = np.unique(data.y)
    if classes.size < 2:
        raise UsageError(
            f"the target has one class ({[str(c) for c in classes]}) after loading; "
            "a classifier needs rows of two classes or more"
        )
    pos = match_label(classes, args.pos_label, "--pos-label")
    if args.cost_matrix is not None:
        matrix = read_cost_matrix(args.cost_matrix, classes)
        # more classes: each model accepts or refuses the matrix (per fold)
        try:
            costs = (
                Costs.resolve(matrix, data.y, pos_label=pos)
                if classes.size == 2
                else Costs.unchecked(matrix, data.y)
            )
        except ValueError as error:  # e.g. a row whose errors are all free
            message = str(error).removeprefix("cost: ")
            raise UsageError(f"--cost-matrix {args.cost_matrix}: {message}") from None
        names = ", ".join(str(c) for c in classes)
        return CommandCosts(costs, "matrix", f"cost matrix over {names}")
    if classes.size > 2:
        raise UsageError(
            f"the target has {classes.size} classes "
            f"({', '.join(repr(str(c)) for c in classes[:20])}"
            f"{', ...' if classes.size > 20 else ''}); give their costs as "
            "--cost-matrix costs.csv (a K x K table, class names as header and "
            "first column); --cost and --fn-cost/--fp-cost/--tp-cost/--tn-cost are "
            "for two classes"
        )
    if data.parts is not None:
        pos_label = resolve_pos_label(data.y, pos)
        columns = part_columns(data.parts)
        said = f"positive class {pos_label!s}; costs {describe_parts(data.parts)}"
        if columns:
            said += (
                f"; cost columns {columns} "
                + ("are also features" if data.cost_features else
                   "are not features (--drop-cost-columns)")
            )  # fmt: skip
            rows = part_costs(data.parts, data.cost_columns, data.y.shape[0])
            costs = Costs.resolve(None, data.y, pos_label=pos_label, sample_cost=rows)
        else:
            matrix = parts_matrix(data.parts, classes, pos_label)
            costs = Costs.resolve(matrix, data.y, pos_label=pos_label)
        return CommandCosts(costs, "parts", said, parts=data.parts)
    costs = Costs.resolve(args.cost, data.y, pos_label=pos)
    c1, c2 = costs.pair
    return CommandCosts(
        costs,
        "pair" if isinstance(args.cost, tuple) else "ratio",
        f"positive class {costs.pos_label!s}; C1 (false negative) = "
        f"{c1:g}, C2 (false positive) = {c2:g}",
    )
