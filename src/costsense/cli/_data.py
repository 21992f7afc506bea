"""The rows a command reads: ``--dataset`` (KEEL) or ``--csv`` through one reader.

:func:`read_data` reads ``--csv`` with :func:`costsense.datasets.read_table`
(options from :func:`table_options`), or a KEEL set; :func:`describe_columns`
says how each column is read, for the command's header.
"""

from __future__ import annotations

import argparse

import numpy as np

from costsense.cli._costs import given_parts
from costsense.cli._options import UsageError
from costsense.datasets import Table, TableOptions, read_table
from costsense.datasets._tabular import cost_parts
from costsense.utils._text import printable

__all__ = ["describe_columns", "read_data", "table_options"]


def table_options(args: argparse.Namespace) -> TableOptions:
    """Read how ``--csv`` is written and which of its columns are features."""
    return TableOptions(
        sep=getattr(args, "sep", None) or None,
        decimal=getattr(args, "decimal", None),
        encoding=getattr(args, "encoding", None) or "utf-8",
        missing=getattr(args, "missing", "raise"),
        drop=tuple((getattr(args, "drop", None) or "").split(",")),
        id_column=getattr(args, "id_column", None) or None,
        cost_features=not getattr(args, "drop_cost_columns", False),
        max_categories=getattr(args, "max_categories", 50),
        max_line_mb=args.max_line_mb,
        max_cell_chars=args.max_cell_chars,
    )


def read_data(args: argparse.Namespace) -> Table:
    """Load ``--dataset`` or ``--csv``/``--target`` with the cost parts given."""
    parts = given_parts(args)
    if args.dataset is not None:
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
        return Table(np.asarray(bunch.X), np.asarray(bunch.y),
                     source=f"KEEL {args.dataset}", parts=checked)  # fmt: skip
    if not args.target:
        raise UsageError("--csv needs --target (the name of the label column)")
    return read_table(args.csv, args.target, parts, table_options(args))


def describe_columns(data: Table) -> str | None:
    """Say how each column of a CSV is read, for the header (None for KEEL).

    Numeric columns are counted, each categorical column gives its number of
    categories, each date-time column the numbers it becomes, and the columns
    that are not features say why (``--id-column``, ``--drop``, costs).
    """
    from costsense.utils._dates import PARTS

    if not data.kinds:
        return None
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
    return "columns: " + "; ".join(said)
