"""What commands write: tables on the terminal, result files, rows named in messages.

A command never overwrites its inputs (:func:`new_output`), and writes each row
as it is finished (:class:`RowWriter`), so an interrupted run keeps what it did.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._options import UsageError

__all__ = ["RowWriter", "new_output", "numbered_rows", "print_table"]


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


def numbered_rows(flags: NDArray[np.bool_], first_row: int = 0, shown: int = 5) -> str:
    """Name the first flagged rows as the CSV numbers its lines (header = 1).

    ``first_row`` is the number in the whole file (from 0) of the first of the
    rows ``flags`` marks, for a chunk of the file.
    """
    rows = (np.flatnonzero(flags) + first_row + 2).tolist()
    more = f" and {len(rows) - shown} more" if len(rows) > shown else ""
    return f"{'row' if len(rows) == 1 else 'rows'} {rows[:shown]}{more}"
