"""The command line's options and its usage error: what ``--help`` needs, no more.

Nothing here imports numpy, pandas or scikit-learn, so that ``costsense --help``
and a usage error answer at once.
"""

from __future__ import annotations

import argparse

__all__ = [
    "MISSING",
    "UsageError",
    "add_cost_options",
    "add_data_options",
    "parse_cost",
]

#: ``--missing`` policies.
MISSING = ("raise", "drop", "impute", "keep")


class UsageError(Exception):
    """A problem the user must fix in the command (exit status 2)."""


def parse_cost(text: str) -> float | tuple[float, float]:
    """Parse ``--cost``: a ratio ``"5"`` (C1/C2, C2 = 1) or a pair ``"5,2"`` (C1, C2).

    Parameters
    ----------
    text : str
        The command-line value.

    Returns
    -------
    float or (float, float)
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--cost {text!r}: give a ratio C1/C2 such as 5, "
            "or a pair C1,C2 such as 5,1"
        ) from None
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return (values[0], values[1])
    raise argparse.ArgumentTypeError(
        f"--cost {text!r}: give one number (C1/C2) or two (C1,C2), not {len(values)}"
    )


def add_data_options(parser: argparse.ArgumentParser, *, dataset: bool) -> None:
    """Add ``--csv``, ``--target``, ``--missing`` (and ``--dataset``)."""
    if dataset:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument(
            "--dataset", help="a KEEL set name (see `costsense datasets`)"
        )
        source.add_argument("--csv", help="a CSV file with a header row")
    else:
        parser.add_argument("--csv", required=True, help="a CSV file with a header row")
    parser.add_argument("--target", help="the label column of --csv")
    parser.add_argument(
        "--missing",
        choices=MISSING,
        default="raise",
        help="rows with missing values: refuse them (default), drop them, impute "
        "them (numeric: training median; categorical: a category of its own), or "
        "keep NaN for models that accept it",
    )


def add_cost_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--cost`` | ``--cost-matrix`` | ``--cost-column`` with ``--fp-cost``."""
    costs = parser.add_mutually_exclusive_group(required=True)
    costs.add_argument(
        "--cost",
        type=parse_cost,
        help="C1/C2 ratio (e.g. 5) or pair C1,C2 (false negative, false positive)",
    )
    costs.add_argument(
        "--cost-matrix",
        help="a CSV of K x K costs, class names as header (predicted) and first "
        "column (true)",
    )
    costs.add_argument(
        "--cost-column",
        help="a numeric column: what missing that row's positive costs",
    )
    parser.add_argument(
        "--fp-cost",
        type=float,
        default=1.0,
        help="with --cost-column: the cost of a false alarm (default 1)",
    )
    parser.add_argument(
        "--pos-label", default=None, help="the costly class (default: the minority)"
    )
