"""What every ``costsense`` command shares: errors, tables, output files, data, costs.

Commands raise :class:`UsageError` for anything the user must fix before work
starts (an option, an input file, a cost): the command exits with status 2 and one
line, never a traceback. Anything that fails later exits with status 1.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._options import UsageError

__all__ = [
    "CostOptions",
    "Data",
    "UsageError",
    "match_label",
    "new_output",
    "print_table",
    "read_cost_matrix",
    "read_data",
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
    cost_values : ndarray or None
        The ``--cost-column`` values (each row's false-negative cost).
    n_dropped : int
        Rows dropped for missing values.
    """

    X: Any
    y: NDArray[Any]
    source: str
    columns: dict[str, str] = field(default_factory=dict)
    prepare: Any = None
    cost_values: NDArray[np.float64] | None = None
    n_dropped: int = 0


def column_kinds(frame: Any) -> dict[str, str]:
    """Each column's kind: "numeric" (numbers and booleans) or "categorical"."""
    import pandas as pd

    return {
        str(name): (
            "numeric" if pd.api.types.is_numeric_dtype(frame[name]) else "categorical"
        )
        for name in frame.columns
    }


def make_encoder(columns: dict[str, str], missing: str) -> Any:
    """Build the column encoder of a CSV's features, fitted inside each model.

    Categorical columns become one indicator per category seen in training (a
    category first seen at prediction sets none of them); numeric columns pass
    through, or get their training median where missing (``missing="impute"``,
    which also gives a missing category its own indicator).
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import OneHotEncoder

    categorical = [c for c, kind in columns.items() if kind == "categorical"]
    numeric = [c for c, kind in columns.items() if kind == "numeric"]
    numbers: Any = (
        SimpleImputer(strategy="median", keep_empty_features=True)
        if missing == "impute"
        else "passthrough"
    )
    return ColumnTransformer(
        [
            (
                "categorical",
                OneHotEncoder(handle_unknown="ignore", sparse_output=False),
                categorical,
            ),
            ("numeric", numbers, numeric),
        ],
        verbose_feature_names_out=False,
    )


def read_frame(path: str) -> Any:
    """Read a CSV file, or raise a UsageError saying why it cannot be read."""
    import pandas as pd

    try:
        return pd.read_csv(path)
    except FileNotFoundError:
        raise UsageError(f"--csv {path}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise UsageError(f"--csv {path} is not a readable CSV file: {e}") from None


def read_data(args: argparse.Namespace) -> Data:
    """Load ``--dataset`` or ``--csv``/``--target`` with the ``--missing`` policy."""
    cost_column = getattr(args, "cost_column", None)
    if args.dataset is not None:
        if args.target is not None:
            raise UsageError(
                "--target is for --csv; a KEEL set (--dataset) has its own target"
            )
        if cost_column is not None:
            raise UsageError("--cost-column needs --csv (a column of the file)")
        from costsense.datasets import load_keel

        try:
            bunch = load_keel(args.dataset)
        except ValueError as error:
            raise UsageError(f"--dataset: {error}") from None
        return Data(np.asarray(bunch.X), np.asarray(bunch.y), f"KEEL {args.dataset}")
    if not args.target:
        raise UsageError("--csv needs --target (the name of the label column)")
    frame = read_frame(args.csv)
    names = [str(c) for c in frame.columns]
    frame.columns = names
    for option, name in (("--target", args.target), ("--cost-column", cost_column)):
        if name is not None and name not in names:
            raise UsageError(
                f"{option} {name!r} is not a column; the columns are {names}"
            )
    if cost_column == args.target:
        raise UsageError("--cost-column and --target name the same column")
    frame, dropped = _apply_missing(frame, args, cost_column)
    y = _labels(frame[args.target], args.target)
    costs = None
    if cost_column is not None:
        costs = cost_values(frame[cost_column], f"--cost-column {cost_column!r}")
    features = frame.drop(columns=[c for c in (args.target, cost_column) if c])
    if features.shape[1] == 0:
        raise UsageError(f"--csv {args.csv} has no feature column besides the target")
    columns = column_kinds(features)
    return Data(
        features,
        y,
        f"{args.csv} (target {args.target})",
        columns=columns,
        prepare=make_encoder(columns, args.missing),
        cost_values=costs,
        n_dropped=dropped,
    )


def _apply_missing(
    frame: Any, args: argparse.Namespace, cost_column: str | None
) -> Any:
    """Drop, keep or refuse rows with missing values, as ``--missing`` says."""
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
    if (
        cost_column is not None
        and frame[cost_column].isna().any()
        and (args.missing != "drop")
    ):
        raise UsageError(
            f"--cost-column {cost_column!r} has missing costs; fill them, or use "
            "--missing drop"
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


def cost_values(column: Any, where: str) -> NDArray[np.float64]:
    """Read a cost column (each row's cost of a missed positive), checked.

    ``where`` names the column in the error (an option or a file's column).
    """
    import pandas as pd

    if not pd.api.types.is_numeric_dtype(column):
        raise UsageError(f"{where} must hold numbers (each row's cost)")
    values = column.to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise UsageError(
            f"{where} must hold finite costs >= 0; "
            f"found {values[~np.isfinite(values) | (values < 0)][:3].tolist()}"
        )
    return values


def column_cost_rows(
    values: NDArray[np.float64], fp_cost: float
) -> NDArray[np.float64]:
    """Per-row costs ``[C_FP, C_FN, C_TP, C_TN]``: a miss costs the row's value."""
    rows = np.zeros((values.shape[0], 4))
    rows[:, 0] = fp_cost
    rows[:, 1] = values
    return rows


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


@dataclass
class CostOptions:
    """The costs a command was given, resolved against the data's classes.

    Attributes
    ----------
    kind : str
        "ratio", "pair", "matrix" or "column".
    matrix : ndarray of shape (K, K)
        The class-level cost matrix (for a cost column: the false-positive cost
        and a false-negative cost of the column's mean, for models and metrics
        that need one matrix).
    pos_label : label or None
        The positive class of a binary problem.
    rows : ndarray of shape (n_samples, 4) or None
        Per-row costs ``[C_FP, C_FN, C_TP, C_TN]`` from ``--cost-column``.
    describe : str
        One line for the header.
    """

    kind: str
    matrix: NDArray[np.float64]
    pos_label: Any
    rows: NDArray[np.float64] | None
    describe: str


def resolve_costs(args: argparse.Namespace, data: Data) -> CostOptions:
    """Resolve ``--cost``, ``--cost-matrix`` or ``--cost-column`` against the data."""
    from costsense.experiments import CostSetting

    classes = np.unique(data.y)
    if classes.size < 2:
        raise UsageError(
            f"the target has one class ({[str(c) for c in classes]}) after loading; "
            "a classifier needs rows of two classes or more"
        )
    pos = match_label(classes, args.pos_label, "--pos-label")
    if args.cost_matrix is not None:
        matrix = read_cost_matrix(args.cost_matrix, classes)
        pos_label = None
        if classes.size == 2:
            setting = CostSetting.resolve(matrix, data.y, pos)
            pos_label = setting.pos_label
        names = ", ".join(str(c) for c in classes)
        return CostOptions(
            "matrix", matrix, pos_label, None, f"cost matrix over {names}"
        )
    if classes.size > 2:
        raise UsageError(
            f"the target has {classes.size} classes; give their costs as "
            "--cost-matrix costs.csv (a K x K table, class names as header and "
            "first column); --cost and --cost-column are for two classes"
        )
    if args.cost_column is not None:
        assert data.cost_values is not None
        setting = CostSetting.resolve(
            (float(np.mean(data.cost_values)), args.fp_cost), data.y, pos
        )
        return CostOptions(
            "column",
            setting.matrix,
            setting.pos_label,
            column_cost_rows(data.cost_values, args.fp_cost),
            f"positive class {setting.pos_label!s}; a missed positive costs its "
            f"row's {args.cost_column!r} (mean {np.mean(data.cost_values):.4g}), a "
            f"false alarm {args.fp_cost:g}",
        )
    setting = CostSetting.resolve(args.cost, data.y, pos)
    return CostOptions(
        "pair" if isinstance(args.cost, tuple) else "ratio",
        setting.matrix,
        setting.pos_label,
        None,
        f"positive class {setting.pos_label!s}; C1 (false negative) = "
        f"{setting.c1:g}, C2 (false positive) = {setting.c2:g}",
    )
