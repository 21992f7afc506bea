"""The rows a command reads (``--csv`` or ``--dataset``), and their one ``Costs``."""

from __future__ import annotations

import argparse
import io
import sys
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._options import ACTION_PREFIX, COST_PARTS, UsageError
from costsense.datasets import Table, TableOptions, read_table
from costsense.exceptions import ColumnWarning
from costsense.utils._tables import cost_parts, part_columns
from costsense.utils._text import numbered_rows, printable

if TYPE_CHECKING:
    from costsense.costs import Costs
    from costsense.decision import ActionCosts


def table_options(args: argparse.Namespace) -> TableOptions:
    """Read how ``--csv`` is written and which of its columns are features."""
    return TableOptions(  # predict has no --missing, --drop, ... of its own
        sep=args.sep,
        decimal=args.decimal,
        encoding=args.encoding or "utf-8",
        missing=getattr(args, "missing", "raise"),
        id_column=args.id_column,
        drop=tuple((getattr(args, "drop", None) or "").split(",")),
        cost_features=not getattr(args, "drop_cost_columns", False),
        max_categories=getattr(args, "max_categories", 50),
        max_line_mb=args.max_line_mb,
        max_cell_chars=args.max_cell_chars,
    )


def read_data(args: argparse.Namespace) -> Table:
    """Load ``--dataset`` or ``--csv``/``--target`` with the cost parts given."""
    parts = given_parts(args)
    by_rows = getattr(args, "action_costs", None) == "columns"
    if args.dataset is not None:
        if by_rows:
            raise UsageError(
                "--action-costs columns reads each row's costs from --csv; a KEEL "
                "set (--dataset) has none: give --action-costs FILE"
            )
        if args.target is not None:
            raise UsageError(
                "--target is for --csv; a KEEL set (--dataset) has its own target"
            )
        from costsense.datasets import load_keel

        checked = cost_parts(parts, None)
        try:
            bunch = load_keel(args.dataset)
        except ValueError as error:
            raise UsageError(f"--dataset: {error}") from None
        return Table(
            np.asarray(bunch.X),
            np.asarray(bunch.y),
            source=f"KEEL {args.dataset}",
            parts=checked,
        )
    if not args.target:
        raise UsageError("--csv needs --target (the name of the label column)")
    with warnings.catch_warnings():  # its notes: printed by describe_columns
        warnings.simplefilter("ignore", ColumnWarning)
        return read_table(
            args.csv,
            args.target,
            parts,
            table_options(args),
            cost_prefix=ACTION_PREFIX if by_rows else None,
        )


def describe_columns(data: Table, out: Any = None) -> None:
    """Print how each column of a CSV is read, for the header (nothing for KEEL).

    The table's notes (a column that looks like an identifier) go to stderr.
    """
    from costsense.utils._dates import PARTS

    if not data.kinds:
        return
    numeric = [c for c, kind in data.kinds.items() if kind == "numeric"]
    said = []
    if numeric:
        shown = ", ".join(printable(c, 40) for c in numeric[:6])
        shown += ", ..." if len(numeric) > 6 else ""
        said.append(f"{len(numeric)} numeric ({shown})")
    for name, kind in data.kinds.items():
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
    print("columns: " + "; ".join(said), file=out)
    for note in data.notes:
        print(f"note: {note}", file=sys.stderr)


#: The largest ``--cost-matrix`` file read: far more than any K x K matrix.
MAX_MATRIX_BYTES = 1 << 20


def given_parts(args: argparse.Namespace) -> dict[str, str] | None:
    """Return the per-row cost options as written, None if none; refuse two ways."""
    given = {
        part: getattr(args, f"{part}_cost")
        for part, *_ in COST_PARTS
        if getattr(args, f"{part}_cost", None) is not None
    }
    options = [option for part, option, *_ in COST_PARTS if part in given]
    class_level = [
        option
        for option, value in (
            ("--cost", args.cost),
            ("--cost-matrix", args.cost_matrix),
            ("--action-costs", getattr(args, "action_costs", None)),
        )
        if value is not None
    ]
    if not given and not class_level:
        raise UsageError(
            "give the costs: --cost (a ratio C1/C2 or a pair C1,C2), --cost-matrix "
            "(a K x K CSV), --fn-cost/--fp-cost/--tp-cost/--tn-cost (each a "
            "number or a column of --csv) or --action-costs (class x action)"
        )
    if len(class_level) > 1 or (class_level and given):
        raise UsageError(
            f"{' and '.join(class_level + options[:1])} are two ways of giving the "
            "costs; give --cost or --cost-matrix (one cost per pair of classes), "
            "--fn-cost/--fp-cost/--tp-cost/--tn-cost (each a number or a column) "
            "or --action-costs (one cost per class and action)"
        )
    return given or None


def _cost_csv(path: str, option: str, classes: NDArray[Any]) -> Any:
    """Read a small cost CSV whose first column names each class once, in order."""
    import pandas as pd

    from costsense.utils._table_files import open_table

    with open_table(path, option) as handle:
        text = handle.read(MAX_MATRIX_BYTES + 1)
    if len(text) > MAX_MATRIX_BYTES:
        raise UsageError(
            f"{option} {path} is over {MAX_MATRIX_BYTES // 2**20} MiB; a cost "
            "table holds one row per class: give that file"
        )
    try:
        table = pd.read_csv(io.BytesIO(text), index_col=0)
    except UnicodeDecodeError:
        raise UsageError(f"{option} {path} is not utf-8 text") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise UsageError(f"{option} {path} is not a readable CSV: {error}") from None
    names = [str(c) for c in classes]
    table.index, table.columns = (
        [str(r) for r in table.index],
        [str(c) for c in table.columns],
    )
    found = [("rows (first column)", list(table.index))]
    if option == "--cost-matrix":
        found.append(("columns (header)", list(table.columns)))
    for what, given in found:
        unknown = [n for n in given if n not in names]
        absent = [n for n in names if n not in given]
        if unknown or absent or len(set(given)) != len(given):
            raise UsageError(
                f"{option} {path}: its {what} must name each class once; "
                + (f"unknown classes {unknown}; " if unknown else "")
                + (f"missing classes {absent}; " if absent else "")
                + f"the data's classes are {names}"
            )
    try:
        table = table.loc[names].astype(np.float64)
    except ValueError:
        raise UsageError(f"{option} {path}: every cost must be a number") from None
    if not np.all(np.isfinite(table.to_numpy())) or np.any(table.to_numpy() < 0):
        raise UsageError(f"{option} {path}: costs must be finite and >= 0")
    return table


def read_cost_matrix(path: str, classes: NDArray[Any]) -> NDArray[np.float64]:
    """Read ``--cost-matrix``: true classes down, predicted across, named by class."""
    table = _cost_csv(path, "--cost-matrix", classes)
    return np.asarray(table[[str(c) for c in classes]], dtype=np.float64)


def action_file(path: str, classes: NDArray[Any]) -> ActionCosts:
    """Read an ``--action-costs`` file: true classes down, action names across."""
    from costsense.decision import ActionCosts

    table = _cost_csv(path, "--action-costs", classes)
    actions = list(table.columns)
    if not actions or any(a.startswith("Unnamed:") for a in actions):
        raise UsageError(
            f"--action-costs {path}: name every action in the header "
            "(class,allow,review,block)"
        )
    if any(a.rpartition(".")[0] in actions for a in actions):  # pandas: block.1
        raise UsageError(f"--action-costs {path}: name each action once")
    return ActionCosts(table.to_numpy(), actions)


def read_action_costs(args: argparse.Namespace, data: Table) -> ActionCosts | None:
    """Read ``--action-costs`` over the target's sorted classes; None if not given.

    A file: true classes down, action names across; ``columns``: the rows'
    ``cost_<class>_<action>`` columns, every class with every action, as an
    ``(n, K, A)`` table.
    """
    from costsense.decision import ActionCosts

    given = getattr(args, "action_costs", None)
    if given is None:
        return None
    classes = np.unique(data.y)
    if given != "columns":
        return action_file(given, classes)
    found: dict[str, dict[str, str]] = {}  # action: {class: column}
    for column in data.cost_columns:
        rest = column[len(ACTION_PREFIX) :]
        label = max(
            (str(c) for c in classes if rest.startswith(f"{c}_")), key=len, default=None
        )
        if label is None or len(rest) == len(label) + 1:
            raise UsageError(
                f"--action-costs columns: column {printable(column)!r} is not "
                f"{ACTION_PREFIX}<class>_<action> for a class of "
                f"{[str(c) for c in classes]}; rename it"
            )
        found.setdefault(rest[len(label) + 1 :], {})[label] = column
    absent = [
        f"{ACTION_PREFIX}{c}_{a}"
        for a in found
        for c in classes
        if str(c) not in found[a]
    ]
    if not found or absent:
        raise UsageError(
            "--action-costs columns needs a column cost_<class>_<action> for every "
            "class and action; "
            + (f"missing {printable(absent)}" if found else "--csv has none")
        )
    values = np.stack(
        [
            np.stack([data.cost_columns[found[a][str(c)]] for a in found], axis=-1)
            for c in classes
        ],
        axis=1,
    )
    bad = ~np.all(np.isfinite(values) & (values >= 0), axis=(1, 2))
    if bad.any():
        raise UsageError(
            f"--action-costs columns: costs must be finite and >= 0 "
            f"({numbered_rows(bad)}); fix those cells or drop those rows"
        )
    return ActionCosts(values, list(found))


@dataclass(frozen=True)
class CommandCosts:
    """The costs given, the model file's name of their ``kind``, and one line."""

    costs: Costs
    kind: str
    describe: str
    parts: dict[str, float | str] | None = None
    actions: ActionCosts | None = None


def resolve_costs(args: argparse.Namespace, data: Table) -> CommandCosts:
    """Resolve ``--cost``, ``--cost-matrix`` or the four parts against the data."""
    from costsense.costs import Costs, FreeErrors, parts_matrix, resolve_pos_label

    classes = np.unique(data.y)
    if classes.size < 2:
        raise UsageError(
            f"the target has one class ({[str(c) for c in classes]}) after loading; "
            "a classifier needs rows of two classes or more"
        )
    pos = None
    if args.pos_label is not None:
        found = [c for c in classes if str(c) == args.pos_label]
        if not found:
            raise UsageError(
                f"--pos-label {args.pos_label!r} is not a class label; labels are "
                f"{printable([str(c) for c in classes][:20])}"
            )
        pos = found[0]
    actions = read_action_costs(args, data)
    if actions is not None:
        return _action_costs(actions, args.action_costs, data, pos)
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
    if data.parts is None:
        costs = Costs.resolve(args.cost, data.y, pos_label=pos)
        c1, c2 = costs.pair
        said = (
            f"positive class {costs.pos_label!s}; C1 (false negative) = {c1:g}, "
            f"C2 (false positive) = {c2:g}"
        )
        return CommandCosts(
            costs, "pair" if isinstance(args.cost, tuple) else "ratio", said
        )
    pos_label = resolve_pos_label(data.y, pos)
    said = f"positive class {pos_label!s}; costs " + ", ".join(
        f"{part.upper()} {value:g}"
        if isinstance(value, float)
        else f"{part.upper()} column {value!r}"
        for part, value in data.parts.items()
    )
    rows = data.row_costs()
    try:
        if rows is None:
            matrix = parts_matrix(data.parts, classes, pos_label)
            costs = Costs.resolve(matrix, data.y, pos_label=pos_label)
        else:
            costs = Costs.resolve(None, data.y, pos_label=pos_label, sample_cost=rows)
    except FreeErrors as error:
        label = classes[error.index]
        message = _free_errors(error, args.csv, data, label, label == pos_label)
        raise UsageError(message) from None
    if rows is not None:
        said += f"; cost columns {part_columns(data.parts)} " + (
            "are also features"
            if data.cost_features
            else "are not features (--drop-cost-columns)"
        )
    return CommandCosts(costs, "parts", said, parts=data.parts)


def _action_costs(
    actions: ActionCosts, given: str, data: Table, pos: Any
) -> CommandCosts:
    """Give the label costs models train on: each label its best action's."""
    from costsense.costs import Costs

    labels = actions.label_costs()
    try:
        if labels.ndim == 3:
            costs = Costs.resolve(None, data.y, pos_label=pos, sample_cost=labels)
        elif np.unique(data.y).size == 2:
            costs = Costs.resolve(labels, data.y, pos_label=pos)
        else:
            costs = Costs.unchecked(labels, data.y)
    except ValueError as error:  # two classes whose best action is the same
        message = str(error).removeprefix("cost: ")
        raise UsageError(
            f"--action-costs {given}: as labels (each its cheapest action), {message}"
        ) from None
    said = f"actions {', '.join(map(str, actions.actions))}" + (
        " (each row's cost columns)" if labels.ndim == 3 else f" from {given}"
    )
    return CommandCosts(costs, "actions", said, actions=actions)


def _free_errors(error: Any, csv: str, data: Table, label: Any, positive: bool) -> str:
    """Name the cost options that make the errors on a class free, and the lines."""
    assert data.parts is not None
    err, right = ("fn", "tp") if positive else ("fp", "tn")
    shown = {
        p: f"column {printable(v)!r}" if isinstance(v, str) else f"{v:g}"
        for p, v in data.parts.items()
    }
    lines = ""
    if error.rows is not None:  # a column's: each row's own
        flags = np.isin(np.arange(data.y.shape[0]), error.rows)
        after = f" once {data.n_dropped} rows were dropped" * bool(data.n_dropped)
        lines = f" ({numbered_rows(flags).replace('row', 'line', 1)} of {csv}{after})"
    what = "a missed positive" if positive else "a false alarm"
    return (
        f"--{err}-cost {shown[err]}: {what} costs no more than "
        f"{'a caught one' if positive else 'a true negative'} (--{right}-cost "
        f"{shown[right]}) on any of the {int(np.sum(data.y == label))} rows of class "
        f"{printable(str(label))!r}{lines}, so errors on that class would be free; "
        f"give --{err}-cost costs above --{right}-cost's (not zeros or benefits)"
    )
