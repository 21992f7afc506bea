"""What commands write: tables on the terminal, and files that never replace one.

Outputs are checked new before any work; rows are flushed as finished, so an
interrupted run keeps them; text a spreadsheet would evaluate as a formula is
written after a single quote (OWASP, "CSV injection") unless ``--raw-cells``.
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import stat
import sys
from pathlib import Path
from typing import IO, Any

from costsense.cli._options import UsageError
from costsense.persist import link_new

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: A plain number (``-1.5``, ``+3``, ``2e-3``): kept, though it starts with a sign.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")

#: Bytes of a stale partial file read to tell whether it holds rows.
_PARTIAL_PEEK = 1 << 20


def print_table(table: list[list[str]], out: Any = None) -> None:
    """Print rows of cells, a rule under the header, numbers right-aligned."""
    out = sys.stdout if out is None else out  # at call time: tests swap sys.stdout
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    last = len(widths) - 1
    left = {0} | ({last} if table[0][last] in ("notes", "source") else set())
    for index, row in enumerate(table):
        cells = [
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=out)
        if index == 0:
            print("  ".join("-" * w for w in widths), file=out)


def new_output(path: str, option: str, *inputs: str | None) -> Path:
    """Refuse an existing output path, an input, or a path inside an input folder.

    A dangling link counts as existing.
    """
    output = Path(path)
    if not output.parent.is_dir():
        raise UsageError(f"{option} {path}: the folder {output.parent} does not exist")
    placed = output.parent.resolve() / output.name  # the path's own name, unresolved
    for given in inputs:
        if given is None:
            continue
        source = Path(given).resolve()
        if placed == source:
            raise UsageError(f"{option} {path} is an input file; choose another path")
        if source.is_dir() and source in placed.parents:
            raise UsageError(
                f"{option} {path} is inside the input folder {given}, whose files "
                "are read as parts of the input; choose a path outside it"
            )
    if os.path.lexists(output):
        link = " (a symbolic link)" if output.is_symlink() else ""
        raise UsageError(
            f"{option} {path} exists{link}; costsense never overwrites files. Choose "
            "a new path or remove it first."
        )
    return output


def as_text_cell(value: object) -> object:
    """Return ``value``, with a quote before it if a spreadsheet would evaluate it."""
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not _NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def text_cells(frame: Any) -> Any:
    """Return a copy of the frame with formula-like text cells and names as text."""
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    frame = frame.copy()
    for position in range(frame.shape[1]):
        column = frame.iloc[:, position]
        if not (is_numeric_dtype(column) or is_bool_dtype(column)):
            safe = column.map(as_text_cell, na_action="ignore")
            if ((safe != column) & column.notna()).any():  # else keep its dtype
                frame.isetitem(position, safe)
    frame.columns = [as_text_cell(name) for name in frame.columns]
    return frame


def open_partial(output: Path, option: str) -> tuple[Path, IO[str]]:
    """Open ``<output>.partial`` to write, locked (``flock``) while this process lives.

    The kernel drops the lock however the process ends, so an unlocked partial
    file is stale: reused if it holds no row, else refused naming how to remove
    it. A locked one is in use; a link or anything but a regular file is refused.
    """
    partial = output.with_name(output.name + ".partial")
    remove = f"rm {shlex.quote(str(partial))}"
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(partial, flags, 0o666)
    except OSError as error:
        raise UsageError(
            f"{option} {output}: {partial} exists and cannot be opened "
            f"({error.strerror}); remove it ({remove})"
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(
                f"{option} {output}: {partial} exists and is not a file; remove it"
            )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(
                f"{option} {output}: another costsense predict is writing "
                f"{partial} now; wait for it to finish, or choose another --out"
            ) from None
        head = os.pread(fd, _PARTIAL_PEEK, 0)
        end = head.find(b"\n")
        if info.st_size > _PARTIAL_PEEK or (end >= 0 and head[end + 1 :].strip()):
            raise UsageError(
                f"{option} {output}: {partial} exists and holds the rows of an "
                "earlier run that stopped; move it elsewhere to keep them, or "
                f"delete it ({remove}), then run again"
            )
        os.ftruncate(fd, 0)
        os.set_blocking(fd, True)
        return partial, os.fdopen(fd, "w", newline="")
    except BaseException:
        os.close(fd)
        raise


def publish(handle: IO[str], partial: Path, output: Path, option: str) -> None:
    """Flush a finished partial file to disk, then link it to ``output`` (locked)."""
    handle.flush()
    os.fsync(handle.fileno())
    try:
        link_new(partial, output)
    except FileExistsError:
        raise UsageError(
            f"{option} {output} was created by something else while this command "
            f"ran; it is left as it is, and the results are in {partial}: move "
            "them where you want them"
        ) from None
