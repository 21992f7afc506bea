"""Which files a table is read from, opened so that only regular files are read.

A table is one file or a folder of parts (``part-00000.parquet``, ...).
:func:`open_table` opens a file without blocking and reads its type from the
open descriptor (what is checked is what is parsed): a pipe, a device such as
``/dev/zero`` or a socket is refused before a byte is read. :func:`table_files`
refuses a part that is a symbolic link or not a regular file (parts are opened
without following links). :class:`LineLimit` refuses a line over
``--max-line-mb`` as it is read.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from costsense.exceptions import UsageError
from costsense.utils._text import printable

__all__ = [
    "MAX_LINE_MB",
    "PART_SUFFIXES",
    "LineLimit",
    "link_refused",
    "long_line",
    "open_table",
    "starts_parquet",
    "table_files",
]

#: The suffixes of a folder's parts (``predict --csv FOLDER``).
PART_SUFFIXES = (".csv", ".parquet", ".pq")

#: Longest line of a CSV file read, in MiB, unless ``--max-line-mb`` says more: a
#: header of a million columns fits; a file without line breaks does not.
MAX_LINE_MB = 16


def open_table(path: str | Path, option: str = "--csv", *, follow: bool = True) -> Any:
    """Open a file in binary, refusing anything but a regular file.

    ``option`` names it in messages; ``follow`` is False for the parts of a
    folder, whose links are refused. A pipe without a writer does not hang.
    """
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFO to fear
    flags = os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UsageError(f"{option} {printable(path)}: no such file") from None
    except PermissionError:
        raise UsageError(f"{option} {printable(path)}: permission denied") from None
    except OSError as error:
        if error.errno == errno.ELOOP and not follow:
            raise UsageError(link_refused(option, Path(path))) from None
        raise UsageError(
            f"{option} {printable(path)} cannot be opened ({error.strerror})"
        ) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UsageError(
                f"{option} {printable(path)} is a folder; give a CSV or Parquet file"
            )
        if not stat.S_ISREG(mode):
            raise UsageError(
                f"{option} {printable(path)} is not a regular file (it is "
                f"{_kind(mode)}); costsense reads CSV and Parquet files: save the "
                "rows to a file and give its path"
            )
        if nonblocking:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind(mode: int) -> str:
    """Name a file type that is not a regular file."""
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def link_refused(option: str, part: Path) -> str:
    """Write the message refusing a part that is a symbolic link."""
    return (
        f"{option} {printable(part.parent)}: part {printable(part.name)} is a "
        "symbolic link; a folder of parts is read without following links: copy "
        "the file into the folder in its place"
    )


def starts_parquet(handle: BinaryIO) -> bool:
    """Whether an open file starts with Parquet's magic bytes; rewinds it."""
    magic = handle.read(4)
    handle.seek(0)
    return magic == b"PAR1"


def table_files(path: str, option: str = "--csv") -> list[Path]:
    """Return the files of a table: the file itself, or a folder's parts by name.

    A folder's parts are its entries ending in one of :data:`PART_SUFFIXES`,
    read in the order Dask and Spark name them; a linked or irregular part is
    refused by name, unread.
    """
    given = Path(path)
    try:
        mode = os.stat(given).st_mode
    except FileNotFoundError:
        raise UsageError(f"{option} {printable(path)}: no such file") from None
    except OSError as error:
        raise UsageError(
            f"{option} {printable(path)} cannot be read ({error.strerror})"
        ) from None
    if not stat.S_ISDIR(mode):
        return [given]
    parts = []
    with os.scandir(given) as entries:
        for entry in entries:
            if Path(entry.name).suffix.lower() not in PART_SUFFIXES:
                continue
            if entry.is_symlink():
                raise UsageError(link_refused(option, Path(entry.path)))
            if not entry.is_file(follow_symlinks=False):
                raise UsageError(
                    f"{option} {printable(path)}: part {printable(entry.name)} is "
                    "not a regular file; a folder of parts holds files only"
                )
            parts.append(Path(entry.path))
    if not parts:
        raise UsageError(
            f"{option} {printable(path)} is a folder without parts (files ending "
            f"{', '.join(PART_SUFFIXES)}); give a file, or a folder of parts"
        )
    return sorted(parts, key=lambda part: part.name)


class LineLimit(io.RawIOBase):
    """A binary file read through, refusing a line longer than ``limit`` bytes.

    Only the line running across reads is counted (every line of a read longer
    than ``limit``), so the Python work per read is constant.
    """

    def __init__(self, raw: BinaryIO, limit: int, path: str) -> None:
        super().__init__()
        self._raw = raw
        self._limit = limit
        self._path = path
        self._run = 0  # bytes of the line being read
        self._lines = 0  # line breaks read
        self.position = 0

    def readable(self) -> bool:
        """Readable (a file object's contract)."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Read into ``buffer``, refusing a line over the limit."""
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.position += n
        breaks = data.count(b"\n")
        if not breaks:
            self._run += n
            self._check(self._run, 1)
            return n
        self._check(self._run + data.find(b"\n"), 1)
        if n > self._limit:  # whole lines inside this read may be over the limit
            lengths = [len(line) for line in data.split(b"\n")[1:-1]]
            for index, length in enumerate(lengths, start=2):
                self._check(length, index)
        self._run = n - data.rfind(b"\n") - 1
        self._check(self._run, breaks + 1)
        self._lines += breaks
        return n

    def _check(self, length: int, line: int) -> None:
        """Refuse a line of ``length`` bytes, the ``line``-th one this read began."""
        if length > self._limit:
            raise UsageError(long_line(self._path, self._limit, self._lines + line))


def long_line(path: str, limit: int, line: int | None = None) -> str:
    """Write the message refusing a line over ``--max-line-mb``."""
    where = "a line" if line is None else f"line {line:,}"
    return (
        f"--csv {printable(path)}: {where} is longer than --max-line-mb "
        f"{limit / 2**20:g} MiB; a CSV file has one row per line: check that it is "
        "CSV text (a binary file has no line breaks), or raise --max-line-mb"
    )
