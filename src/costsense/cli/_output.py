"""What commands write: tables on the terminal, result files, rows named in messages.

A command never overwrites its inputs or any file (:func:`new_output`, checked
before any work), writes nothing inside a folder it reads, and writes each row
as it is finished (:class:`RowWriter`), so an interrupted run keeps what it did.

Files are created exclusively (``O_EXCL``: a file that appears meanwhile, or a
symbolic link, is never written through). ``predict`` writes under a
``.partial`` name (:func:`open_partial`) and gives the file its own name at the
end by a hard link, which fails rather than replace a file that appeared at
``--out`` while it ran (:func:`publish`).

CSV cells a spreadsheet would evaluate as a formula (text starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return, and not a plain number such as
``-1.5``) are written as text, a single quote before them, as OWASP's "CSV
injection" page recommends (:func:`text_cells`); ``--raw-cells`` keeps them as
read.
"""

from __future__ import annotations

import csv
import errno
import os
import re
import shlex
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from costsense.cli._options import UsageError

try:  # POSIX: a run's lock on its partial file dies with the process
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "RowWriter",
    "as_text_cell",
    "new_output",
    "open_partial",
    "print_table",
    "publish",
    "text_cells",
]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: A plain number (``-1.5``, ``+3``, ``2e-3``): kept, though it starts with a sign.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")

#: Bytes of a stale partial file read to tell whether it holds rows.
_PARTIAL_PEEK = 1 << 20


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
    """Check that an output path is new, is none of the inputs and is outside them.

    Checked before any work, so that a command refuses its output at once, not
    after an hour's fit: an existing path (a dangling symbolic link included:
    writing through it would create its target), an input file, a path inside
    an input folder (predict reads every part of a folder: the output would
    become a part of the input) and a missing folder are refused.

    Parameters
    ----------
    path : str or None
        The output option's value (None: no output, nothing checked).
    option : str
        The option, for the messages.
    *inputs : str or None
        The command's input files and folders.

    Returns
    -------
    Path or None
    """
    if path is None:
        return None
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
    """Return ``value``, written as text if a spreadsheet would evaluate it.

    A string starting with one of :data:`FORMULA_STARTS` that is not a plain
    number gets a single quote in front (``=HYPERLINK(...)`` becomes
    ``'=HYPERLINK(...)``); any other value is returned unchanged.
    """
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not _NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def text_cells(frame: Any) -> Any:
    """Return the frame with every formula-like text cell and name written as text.

    Only text columns are looked at (numbers are never formulas); a copy is
    made only when a cell changes. See :func:`as_text_cell`.
    """
    import pandas as pd

    changed = False
    for position in range(frame.shape[1]):
        column = frame.iloc[:, position]
        if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            continue
        safe = column.map(as_text_cell, na_action="ignore")
        differs = (safe != column) & column.notna()
        if differs.any():
            if not changed:
                frame, changed = frame.copy(), True
            frame.isetitem(position, safe)
    names = [as_text_cell(name) for name in frame.columns]
    if names != list(frame.columns):
        frame = frame.copy() if not changed else frame
        frame.columns = names
    return frame


def open_partial(output: Path, option: str) -> tuple[Path, IO[str]]:
    """Create ``output``'s partial file exclusively, locked while this process lives.

    The partial file is created under a name of this process's own, locked
    (``flock``) and then linked to ``<output>.partial``, so it is never seen
    unlocked while its writer runs. The kernel drops the lock when the process
    ends, however it ends (a crash, ``kill -9``), so a partial file found
    unlocked is known to be stale: no process id is trusted, none can be
    reused or forged. A stale partial file that holds no row (a run that
    crashed before its first rows) is replaced; one holding rows (an
    interrupted run keeps them, and says so) is refused, naming the command
    that removes it; a partial file being written is refused as in use.

    Parameters
    ----------
    output : Path
        The output file (checked by :func:`new_output`).
    option : str
        Its option, for the messages.

    Returns
    -------
    Path
        The partial file.
    file object
        It, open for writing text.
    """
    partial = output.with_name(output.name + ".partial")
    for _ in range(3):
        try:
            return partial, _create_locked(partial)
        except FileExistsError:
            _remove_stale(partial, output, option)
    raise UsageError(
        f"{option} {output}: {partial} keeps being created by another run; "
        "choose another --out"
    )


def _create_locked(partial: Path) -> IO[str]:
    """Create ``partial`` exclusively, locked before it has its name."""
    fresh = partial.with_name(f".{partial.name}.{os.getpid()}")
    fresh.unlink(missing_ok=True)  # this process's id: left by a dead process
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(fresh, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        link_new(fresh, partial)
    except BaseException:
        os.close(fd)
        fresh.unlink(missing_ok=True)
        raise
    return os.fdopen(fd, "w", newline="")


def _remove_stale(partial: Path, output: Path, option: str) -> None:
    """Remove a partial file no process writes and that holds no row, or refuse."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(partial, flags | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return  # gone meanwhile: create it again
    except OSError as error:
        raise UsageError(
            f"{option} {output}: {partial} exists and cannot be opened "
            f"({error.strerror}); remove it (rm {shlex.quote(str(partial))})"
        ) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(
                f"{option} {output}: {partial} exists and is not a file; remove it"
            )
        if fcntl is None or not _try_lock(fd):
            raise UsageError(
                f"{option} {output}: another costsense predict is writing {partial} "
                "now; wait for it to finish, or choose another --out"
            )
        if _holds_rows(handle, info.st_size):
            raise UsageError(
                f"{option} {output}: {partial} exists and holds the rows of an "
                "earlier run that stopped; move it elsewhere to keep them, or "
                f"delete it (rm {shlex.quote(str(partial))}), then run again"
            )
        try:
            now = os.stat(partial, follow_symlinks=False)
        except FileNotFoundError:
            return
        if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
            partial.unlink()  # still the stale file we hold: no run writes it


def _try_lock(fd: int) -> bool:
    """Whether this process can lock ``fd`` (no live process holds its lock)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holds_rows(handle: IO[bytes], size: int) -> bool:
    """Whether a predictions file holds any line after its header."""
    if size > _PARTIAL_PEEK:
        return True
    data = handle.read(_PARTIAL_PEEK)
    end = data.find(b"\n")
    return end >= 0 and bool(data[end + 1 :].strip())


def publish(handle: IO[str], partial: Path, output: Path, option: str) -> None:
    """Give a finished partial file its own name, never replacing a file.

    The file is flushed to disk, then hard-linked to ``output`` (a link fails
    if ``output`` exists: a file created there while the command ran is kept)
    and its partial name removed, while ``handle`` still holds the lock.

    Parameters
    ----------
    handle : file object
        The open partial file.
    partial : Path
        Its name.
    output : Path
        The name it gets.
    option : str
        The output's option, for the message.
    """
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


def link_new(source: Path, target: Path) -> None:
    """Give ``source`` the name ``target`` (which must not exist) and drop its own.

    A hard link refuses an existing target atomically. On a file system without
    hard links the target is checked, then ``source`` renamed (a rename would
    replace a file created in between; such a file system leaves no better way).

    Raises
    ------
    FileExistsError
        When ``target`` exists.
    """
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP,
                               errno.EMLINK, errno.ENOSYS):  # fmt: skip
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(source, target)
        return
    source.unlink()


class RowWriter:
    """Append rows to a new CSV file, flushing each one (an interrupt keeps them).

    Text a spreadsheet would evaluate is written as text (:func:`as_text_cell`)
    unless ``raw``.
    """

    def __init__(self, path: Path, fields: Sequence[str], *, raw: bool = False) -> None:
        self._file = path.open("x", newline="")
        self._raw = raw
        self._writer = csv.DictWriter(
            self._file, fieldnames=list(fields), extrasaction="ignore"
        )
        self._writer.writerow({name: self._cell(name) for name in fields})
        self._file.flush()

    def _cell(self, value: object) -> object:
        """Return a cell as written: formula-like text as text unless ``raw``."""
        return value if self._raw else as_text_cell(value)

    def __call__(self, row: dict[str, Any]) -> None:
        """Write one row."""
        self._writer.writerow({name: self._cell(value) for name, value in row.items()})
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()
