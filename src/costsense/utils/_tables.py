"""Read a user's table: a CSV or Parquet file or a folder of parts, whole or chunked.

``fit`` and ``evaluate`` read one file whole (:func:`read_frame`); ``predict``
reads its rows a chunk at a time (:func:`read_chunks`), so that its memory does
not grow with the file. Every way a file cannot be read becomes a
:class:`UsageError` naming the file and the option that fixes it. A Parquet
file is told from a CSV file by its first four bytes (``PAR1``), not its name.

What is read is bounded before it is held:

- only a regular file is read (:func:`open_table`): a pipe, a device such as
  ``/dev/zero`` or a socket is refused before a byte is read, and each file is
  opened once, so that what is checked is what is parsed; a folder of parts
  holds regular files only, and a part that is a symbolic link is refused (a
  part is opened without following links, so a link put in its place after the
  check is refused too);
- a CSV line longer than ``--max-line-mb`` (default :data:`MAX_LINE_MB` MiB) is
  refused as it is read, the header before anything else, so a file without
  line breaks cannot fill the memory;
- a cell longer than ``--max-cell-chars`` (default :data:`MAX_CELL_CHARS`) is
  refused: in a Parquet file before its text is expanded (text columns are read
  dictionary-encoded, so one long value repeated on every row is measured once),
  in a CSV file chunk by chunk;
- header checks take time linear in the number of columns.

Nothing read runs code: CSV text is parsed by pandas; Parquet by pyarrow, whose
reader since 14.0.1 refuses to unpickle the Python extension types a hostile
file can declare (CVE-2023-47248), the reason for the lower bound on pyarrow.
"""

from __future__ import annotations

import argparse
import codecs
import csv
import errno
import io
import os
import stat
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from costsense.exceptions import UsageError
from costsense.utils._text import printable

__all__ = [
    "MAX_CELL_CHARS",
    "MAX_LINE_MB",
    "Chunk",
    "csv_layout",
    "is_parquet",
    "open_table",
    "read_chunks",
    "read_frame",
    "refuse_long_cells",
    "cell_limit",
    "refuse_repeated",
    "table_files",
]

#: The separators a CSV's is found among when not given (``--sep``).
SEPARATORS = ",;\t|"

#: The suffixes of a folder's parts (``predict --csv FOLDER``).
PART_SUFFIXES = (".csv", ".parquet", ".pq")

#: A chunk holds about this many cells unless ``--chunk-rows`` says otherwise:
#: a few tens of megabytes as pandas holds them, whatever the table's width.
CHUNK_CELLS = 1_000_000

#: Longest line of a CSV file read, in MiB, unless ``--max-line-mb`` says more: a
#: header of a million columns fits; a file without line breaks does not.
MAX_LINE_MB = 16

#: Longest cell read, in characters (bytes for binary Parquet cells), unless
#: ``--max-cell-chars`` says more: an identifier, a category or a date is far
#: shorter; one long value echoed to every row of the predictions is refused.
MAX_CELL_CHARS = 10_000

#: Bytes of a CSV file's start in which its separator is looked for.
SAMPLE_BYTES = 1 << 16

#: Encodings whose text holds NUL bytes (their names as Python normalises them).
_WIDE_ENCODINGS = ("utf_16", "utf_32")


def open_table(path: str | Path, option: str = "--csv", *, follow: bool = True) -> Any:
    """Open a file of rows for reading in binary, refusing anything but a regular file.

    The file is opened without blocking (a pipe with no writer does not hang
    the command), then its type is read from the open descriptor, so that what
    is checked is what is read.

    Parameters
    ----------
    path : str or Path
        The file.
    option : str
        The option that named it, for the messages.
    follow : bool
        Whether a symbolic link is followed: True for the file the user named,
        False for the parts of a folder.

    Returns
    -------
    file object
        The file, opened in binary.
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
            raise UsageError(_link_refused(option, Path(path))) from None
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


def _link_refused(option: str, part: Path) -> str:
    """Write the message refusing a part that is a symbolic link."""
    return (
        f"{option} {printable(part.parent)}: part {printable(part.name)} is a "
        "symbolic link; a folder of parts is read without following links: copy "
        "the file into the folder in its place"
    )


def is_parquet(path: str | Path) -> bool:
    """Whether the file starts with Parquet's magic bytes (a regular file only)."""
    with open_table(path) as handle:
        return bool(handle.read(4) == b"PAR1")


def _starts_parquet(handle: BinaryIO) -> bool:
    """Whether an open file starts with Parquet's magic bytes; rewinds it."""
    magic = handle.read(4)
    handle.seek(0)
    return magic == b"PAR1"


def table_files(path: str, option: str = "--csv") -> list[Path]:
    """Return the files of a table: the file itself, or a folder's parts sorted by name.

    A folder's parts are its entries ending in one of :data:`PART_SUFFIXES`;
    they are read in the order of their names, as Dask and Spark name their
    parts (``part-00000.parquet``, ...). A part that is a symbolic link, or not
    a regular file, is refused by name (its content is never read).
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
                raise UsageError(_link_refused(option, Path(entry.path)))
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


def read_frame(path: str, args: argparse.Namespace | None = None) -> Any:
    """Read a whole CSV or Parquet file, or raise a UsageError saying why it cannot be.

    A CSV's separator is ``--sep``, or found from the file's first lines among
    :data:`SEPARATORS`; ``--decimal`` and ``--encoding`` say how numbers and text
    are written. Refused by name: a folder, anything but a regular file, an
    unreadable file, text that is not in the encoding, a header naming a column
    twice (pandas would rename the second ``name.1`` silently), a line or a
    cell over its limit (``--max-line-mb``, ``--max-cell-chars``) and a file
    without rows.
    """
    import pandas as pd

    if Path(path).is_dir():
        raise UsageError(f"--csv {path} is a folder; give a CSV or Parquet file")
    options = _Options.of(args)
    with _reading(path, options), open_table(path) as handle:
        if _starts_parquet(handle):
            import pyarrow as pa

            batches = list(_parquet_batches(handle, path, None, options))
            if not batches:
                raise UsageError(f"--csv {path} has a header but no rows")
            frame = pa.Table.from_batches(batches).to_pandas()
        else:  # checked on the header as written: pandas renames a repeat
            frame = pd.read_csv(**_csv_source(handle, path, options)[0])
            refuse_long_cells(frame, path, options.max_cell)
    if frame.shape[0] == 0:
        raise UsageError(f"--csv {path} has a header but no rows")
    frame.columns = [str(c) for c in frame.columns]
    return frame


@dataclass
class Chunk:
    """Consecutive rows of a table.

    Attributes
    ----------
    frame : DataFrame
        The rows, indexed by their number in the whole table (from 0).
    done : float
        The share of the table read so far, from 0 to 1 (by bytes for CSV, by
        rows for Parquet), for progress.
    """

    frame: Any
    done: float


def read_chunks(
    path: str,
    args: argparse.Namespace | None = None,
    rows: int | None = None,
    *,
    text_columns: Sequence[str] = (),
) -> Iterator[Chunk]:
    """Read a table (a file or a folder of parts) a chunk of rows at a time.

    Parameters
    ----------
    path : str
        A CSV or Parquet file, or a folder of parts (:func:`table_files`); every
        part must have the columns of the first, in the same order.
    args : Namespace, optional
        ``--sep``, ``--decimal`` and ``--encoding`` for CSV parts, and the limits
        ``--max-line-mb`` and ``--max-cell-chars``.
    rows : int, optional
        Rows per chunk; by default :data:`CHUNK_CELLS` over the number of columns.
    text_columns : sequence of str
        Columns of a CSV read as the text written, whatever it holds (a row
        identifier: "007" stays "007", and every chunk reads it alike).

    Yields
    ------
    Chunk
        The next rows, indexed by their number in the table. A table without
        rows is refused before the first chunk.
    """
    files = table_files(path)
    folder = len(files) > 1 or files[0] != Path(path)
    options = _Options.of(args)
    sizes = [f.stat().st_size for f in files]
    total = max(sum(sizes), 1)
    first_row = 0
    columns: list[str] | None = None
    for index, file in enumerate(files):
        before = sum(sizes[:index])
        with (
            _reading(str(file), options),
            open_table(file, follow=not folder) as handle,
        ):
            parts = (
                _parquet_chunks(handle, str(file), rows, options)
                if _starts_parquet(handle)
                else _csv_chunks(handle, str(file), options, rows, text_columns)
            )
            for frame, read in parts:
                names = [str(c) for c in frame.columns]
                if columns is None:
                    columns = names
                elif names != columns:
                    raise UsageError(
                        f"--csv {path}: part {printable(file.name)} has the columns "
                        f"{printable(names)}, the first part {printable(columns)}; "
                        "every part needs the same columns in the same order"
                    )
                frame.columns = names
                frame.index = range(first_row, first_row + frame.shape[0])
                refuse_long_cells(frame, str(file), options.max_cell, first_row)
                first_row += frame.shape[0]
                if frame.shape[0]:
                    yield Chunk(frame, min((before + read) / total, 1.0))
    if first_row == 0:
        raise UsageError(f"--csv {path} has a header but no rows")


def csv_layout(path: str, args: argparse.Namespace | None) -> tuple[str, list[str]]:
    """Return a CSV file's separator and its header's column names, as written."""
    options = _Options.of(args)
    with _reading(path, options), open_table(path) as handle:
        sample, head = _head(handle, str(path), options)
        sep = _separator(sample, options)
        return sep, _header(head, sep, str(path), options)


def chunk_rows(n_columns: int, given: int | None) -> int:
    """Rows per chunk: ``given``, else about :data:`CHUNK_CELLS` cells."""
    if given is not None:
        return given
    return max(1_000, CHUNK_CELLS // max(n_columns, 1))


def refuse_long_cells(
    frame: Any, path: str, limit: int, first_row: int = 0, option: str = "--csv"
) -> None:
    """Refuse a text cell longer than ``limit`` characters, naming its column and row.

    Parameters
    ----------
    frame : DataFrame
        Rows of the table, as read.
    path : str
        The file, for the message.
    limit : int
        Most characters a cell may hold (``--max-cell-chars``).
    first_row : int
        The number in the whole table (from 0) of ``frame``'s first row.
    option : str
        The option naming the file.
    """
    import pandas as pd

    text = [
        position
        for position, kind in enumerate(frame.dtypes)
        if not (pd.api.types.is_numeric_dtype(kind) or pd.api.types.is_bool_dtype(kind))
    ]
    if not text or not frame.shape[0]:
        return
    cells = frame.iloc[:, text].to_numpy(dtype=object)
    lengths = _LENGTHS(cells).astype(np.int64)
    if lengths.max() > limit:
        row, column = np.unravel_index(int(lengths.argmax()), lengths.shape)
        name = str(frame.columns[text[int(column)]])
        _refuse_cell(path, name, int(lengths[row, column]), first_row + int(row), limit,
                     option)  # fmt: skip


def _length(value: Any) -> int:
    """Return the length of a cell that is text or bytes, else 0."""
    return len(value) if isinstance(value, str | bytes) else 0


#: :func:`_length` over an object array, cell by cell.
_LENGTHS = np.frompyfunc(_length, 1, 1)


def _refuse_cell(
    path: str, name: str, length: int, row: int, limit: int, option: str = "--csv"
) -> None:
    """Raise the UsageError of a cell over ``--max-cell-chars``."""
    raise UsageError(
        f"{option} {printable(path)}: column '{printable(name)}' holds a cell of "
        f"{length:,} characters (row {row + 2}, the header being row 1), over "
        f"--max-cell-chars {limit:,}; raise --max-cell-chars if such cells are "
        "meant, or remove the column"
    )


def _csv_source(
    handle: BinaryIO, path: str, options: _Options, text_columns: Sequence[str] = ()
) -> tuple[dict[str, Any], _LineLimit, list[str]]:
    """Check a CSV file's header and return pandas' arguments to read it.

    The header is read first (bounded by ``--max-line-mb``), refused if it names
    a column twice or holds a name over ``--max-cell-chars``; the rest is read
    through a :class:`_LineLimit`.

    Returns
    -------
    dict
        Keyword arguments of ``pandas.read_csv`` (the file among them).
    _LineLimit
        The reader under pandas, whose ``position`` is the bytes read so far.
    list of str
        The column names as written.
    """
    sample, head = _head(handle, path, options)
    sep = _separator(sample, options)
    header = _header(head, sep, path, options)
    refuse_repeated(header, path)
    longest = max(header, key=len, default="")
    if len(longest) > options.max_cell:
        _refuse_cell(path, longest[:40], len(longest), -1, options.max_cell)
    limited = _LineLimit(handle, options.max_line, path)
    named = set(header)
    arguments = {
        "filepath_or_buffer": io.BufferedReader(limited),
        "sep": sep,
        "encoding": options.encoding,
        "decimal": options.decimal,
        "dtype": {c: str for c in text_columns if c in named},
    }
    return arguments, limited, header


def _csv_chunks(
    handle: BinaryIO,
    path: str,
    options: _Options,
    rows: int | None,
    text_columns: Sequence[str],
) -> Iterator[tuple[Any, float]]:
    """Read a CSV file's chunks, each with the bytes read so far."""
    import pandas as pd

    arguments, limited, header = _csv_source(handle, path, options, text_columns)
    reader = pd.read_csv(**arguments, chunksize=chunk_rows(len(header), rows))
    with reader:
        for frame in reader:
            yield frame, float(limited.position)


def _parquet_chunks(
    handle: BinaryIO, path: str, rows: int | None, options: _Options
) -> Iterator[tuple[Any, float]]:
    """Read a Parquet file's chunks, each with the share of its bytes read so far."""
    size = os.fstat(handle.fileno()).st_size
    for batch, share in _parquet_batches(handle, path, rows, options, progress=True):
        yield batch.to_pandas(), size * share


def _parquet_batches(
    handle: BinaryIO,
    path: str,
    rows: int | None,
    options: _Options,
    *,
    progress: bool = False,
) -> Iterator[Any]:
    """Read a Parquet file's record batches, each cell checked before it is expanded.

    Text and binary columns are read dictionary-encoded: each distinct value is
    measured once against ``--max-cell-chars``, before the column is expanded to
    one value per row (so a small file repeating one long value on many rows
    is refused before it costs memory). A column the file itself stores
    dictionary-encoded (a pandas categorical) is checked and left so. With
    ``progress``, each batch comes with the share of the file's rows read so far.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.ParquetFile(handle).schema_arrow
    refuse_repeated([str(n) for n in schema.names], path)
    text = [f.name for f in schema if _is_text(f.type)]
    encoded = set(text)
    handle.seek(0)
    parquet = pq.ParquetFile(handle, read_dictionary=text)
    n_rows = max(parquet.metadata.num_rows, 1)
    done = 0
    for batch in parquet.iter_batches(batch_size=chunk_rows(len(schema.names), rows)):
        arrays = []
        for name, array in zip(batch.schema.names, batch.columns, strict=True):
            if pa.types.is_dictionary(array.type):
                if _is_text(array.type.value_type):
                    _check_dictionary(array, path, name, done, options.max_cell)
                if name in encoded:  # plain text in the file: read as it is
                    array = array.dictionary_decode()
            elif _is_text(array.type):
                _check_lengths(array, path, name, done, options.max_cell)
            arrays.append(array)
        decoded = pa.RecordBatch.from_arrays(
            arrays, names=batch.schema.names, metadata=batch.schema.metadata
        )
        done += batch.num_rows
        yield (decoded, done / n_rows) if progress else decoded


def _is_text(kind: Any) -> bool:
    """Whether an Arrow type holds text or bytes (read dictionary-encoded)."""
    import pyarrow as pa

    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
    )


def _text_lengths(array: Any) -> Any:
    """Each value's length: characters of text, bytes of binary."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        return pc.utf8_length(array)
    return pc.binary_length(array)


def _check_lengths(
    array: Any, path: str, name: str, first_row: int, limit: int
) -> None:
    """Refuse a text or binary Arrow array holding a value over ``limit``."""
    lengths = _text_lengths(array).to_numpy(zero_copy_only=False)
    lengths = np.nan_to_num(lengths.astype(float), nan=0.0)
    if lengths.size and lengths.max() > limit:
        at = int(lengths.argmax())
        _refuse_cell(path, name, int(lengths[at]), first_row + at, limit)


def _check_dictionary(
    array: Any, path: str, name: str, first_row: int, limit: int
) -> None:
    """Refuse a dictionary-encoded column whose used values are over ``limit``."""
    values = _text_lengths(array.dictionary).to_numpy(zero_copy_only=False)
    values = np.nan_to_num(values.astype(float), nan=0.0)
    if not values.size or values.max() <= limit:
        return
    indices = array.indices.to_numpy(zero_copy_only=False)
    indices = np.nan_to_num(indices.astype(float), nan=-1).astype(np.int64)
    lengths = np.where(indices >= 0, values[np.clip(indices, 0, None)], 0)
    if lengths.size and lengths.max() > limit:
        at = int(lengths.argmax())
        _refuse_cell(path, name, int(lengths[at]), first_row + at, limit)


class _LineLimit(io.RawIOBase):
    """A binary file read through, refusing a line longer than ``limit`` bytes.

    The longest line is found in constant Python work per read: a line wholly
    inside a read no longer than ``limit`` cannot be over it, so only the line
    running across reads is counted (every line when a read is longer).
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
            raise UsageError(_long_line(self._path, self._limit, self._lines + line))


def _long_line(path: str, limit: int, line: int | None = None) -> str:
    """Write the message refusing a line over ``--max-line-mb``."""
    where = "a line" if line is None else f"line {line:,}"
    return (
        f"--csv {printable(path)}: {where} is longer than --max-line-mb "
        f"{limit / 2**20:g} MiB; a CSV file has one row per line: check that it is "
        "CSV text (a binary file has no line breaks), or raise --max-line-mb"
    )


@dataclass
class _Options:
    """How a CSV file is written and what is read of it.

    ``--sep``, ``--decimal``, ``--encoding``; ``max_line`` (bytes,
    ``--max-line-mb``) and ``max_cell`` (characters, ``--max-cell-chars``).
    """

    sep: str | None
    decimal: str
    encoding: str
    max_line: int = MAX_LINE_MB * 2**20
    max_cell: int = MAX_CELL_CHARS

    @classmethod
    def of(cls, args: argparse.Namespace | None) -> _Options:
        return cls(
            getattr(args, "sep", None) or None,
            getattr(args, "decimal", None) or ".",
            getattr(args, "encoding", None) or "utf-8",
            int((getattr(args, "max_line_mb", None) or MAX_LINE_MB) * 2**20),
            int(getattr(args, "max_cell_chars", None) or MAX_CELL_CHARS),
        )


def cell_limit(args: argparse.Namespace | None) -> int:
    """Return the longest cell read (``--max-cell-chars`` or its default)."""
    return _Options.of(args).max_cell


@contextmanager
def _reading(path: str, options: _Options) -> Iterator[None]:
    """Turn the errors of reading ``path`` into UsageErrors naming the fix."""
    import pandas as pd

    shown = printable(path)
    try:
        yield
    except FileNotFoundError:
        raise UsageError(f"--csv {shown}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"--csv {shown} is a folder; give a file") from None
    except PermissionError:
        raise UsageError(f"--csv {shown}: permission denied") from None
    except LookupError:
        raise UsageError(
            f"--encoding {printable(options.encoding)!r} is not an encoding Python "
            "knows (e.g. utf-8, latin-1, cp1252)"
        ) from None
    except UnicodeError as error:
        raise UsageError(_not_encoded(shown, options, error)) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error) as error:
        raise UsageError(
            f"--csv {shown} is not a readable CSV file: {printable(error)}"
        ) from None
    except Exception as error:  # pyarrow: a damaged or truncated Parquet file
        if not _from_pyarrow(error):
            raise
        raise UsageError(
            f"--csv {shown} is not a readable Parquet file: {printable(error)}"
        ) from None


def _not_encoded(shown: str, options: _Options, error: UnicodeError) -> str:
    """Write the message of text that is not in ``--encoding``."""
    where = ""
    if isinstance(error, UnicodeDecodeError):
        where = f" (byte {error.object[error.start]:#04x} at offset {error.start})"
    return (
        f"--csv {shown} is not {printable(options.encoding)} text{where}; give its "
        "encoding, e.g. --encoding latin-1 or --encoding cp1252"
    )


def _from_pyarrow(error: BaseException) -> bool:
    return type(error).__module__.startswith("pyarrow")


def _head(handle: BinaryIO, path: str, options: _Options) -> tuple[str, bytes]:
    """Return the start of a CSV file as text (for its separator) and its header line.

    The header line is read up to its line break outside quotes, and refused
    when longer than ``--max-line-mb``; NUL bytes (a UTF-16 file without its
    byte-order mark, or a binary file) are refused unless the encoding is
    UTF-16 or UTF-32. The file is rewound.
    """
    name = codecs.lookup(options.encoding).name.replace("-", "_")
    first = handle.read(SAMPLE_BYTES)
    nul = first.find(b"\0")
    if nul >= 0 and not name.startswith(_WIDE_ENCODINGS):
        raise UsageError(
            f"--csv {printable(path)} holds NUL bytes (the first at offset "
            f"{nul}), which {printable(options.encoding)} text does not: "
            "a UTF-16 file without its byte-order mark, or not a text file; give "
            "--encoding utf-16-le (or utf-16-be), or save it as UTF-8"
        )
    head = bytearray(first)
    end = _record_end(head)
    while end < 0:
        if len(head) > options.max_line:
            raise UsageError(_long_line(path, options.max_line, 1))
        more = handle.read(max(SAMPLE_BYTES, len(head)))
        if not more:
            end = len(head)
            break
        head += more
        end = _record_end(head)
    if end - 1 > options.max_line:  # the line without its line break
        raise UsageError(_long_line(path, options.max_line, 1))
    handle.seek(0)
    decoder = codecs.getincrementaldecoder(options.encoding)()
    return decoder.decode(first, final=False), bytes(head[:end])


def _record_end(data: bytes | bytearray) -> int:
    """Find the end of the first CSV record (past its line break), or -1."""
    start = quotes = 0
    while True:
        stop = data.find(b"\n", start)
        if stop < 0:
            return -1
        quotes += data.count(b'"', start, stop)
        if quotes % 2 == 0:
            return stop + 1
        start = stop + 1


def _separator(sample: str, options: _Options) -> str:
    r"""Return ``--sep`` as given (``\t`` or ``tab`` read as a tab), or as found."""
    given = options.sep
    if given:
        return "\t" if given in ("\\t", "tab") else given
    try:
        return csv.Sniffer().sniff(sample, delimiters=SEPARATORS).delimiter
    except csv.Error:  # one column, or nothing to tell the separators apart
        return ","


def _header(head: bytes, sep: str, path: str, options: _Options) -> list[str]:
    """Return the CSV file's first record as column names, as written (no renaming)."""
    # the record ends at a line break byte: in UTF-16 its second byte is cut off,
    # which the incremental decoder holds back rather than refuses
    decoder = codecs.getincrementaldecoder(options.encoding)()
    text = decoder.decode(head, final=False).lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    limit = csv.field_size_limit()
    try:
        csv.field_size_limit(max(limit, len(text) + 1))
        return list(next(reader, []))
    finally:
        csv.field_size_limit(limit)


def refuse_repeated(header: Sequence[str], path: str) -> None:
    """Refuse a header naming a column more than once, in time linear in its width.

    The names are counted once (:class:`collections.Counter`), so a header of a
    million columns is checked in about a second; the names shown are escaped
    and cut (:func:`costsense.utils._text.printable`).

    Parameters
    ----------
    header : sequence of str
        The column names as written.
    path : str
        The file, for the message.
    """
    counts = Counter(header)
    if len(counts) == len(header):
        return
    repeated = sorted(name for name, count in counts.items() if count > 1)
    raise UsageError(
        f"--csv {printable(path)} names these columns more than once: "
        f"{printable(repeated)}; give every column its own name in the header"
    )
