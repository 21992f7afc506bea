"""Read a user's table: a CSV or Parquet file or a folder of parts, whole or chunked.

``fit`` and ``evaluate`` read one file whole (:func:`read_frame`); ``predict``
reads its rows a chunk at a time (:func:`read_chunks`), so that its memory does
not grow with the file. Every way a file cannot be read becomes a
:class:`UsageError` naming the file and the option that fixes it. A Parquet
file is told from a CSV file by its first four bytes (``PAR1``), not its name.

Nothing read runs code: CSV text is parsed by pandas; Parquet by pyarrow, whose
reader since 14.0.1 refuses to unpickle the Python extension types a hostile
file can declare (CVE-2023-47248), the reason for the lower bound on pyarrow.
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from costsense.exceptions import UsageError
from costsense.utils._text import printable

__all__ = [
    "Chunk",
    "csv_layout",
    "is_parquet",
    "read_chunks",
    "read_frame",
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


def is_parquet(path: str | Path) -> bool:
    """Whether the file starts with Parquet's magic bytes."""
    with open(path, "rb") as handle:
        return handle.read(4) == b"PAR1"


def table_files(path: str, option: str = "--csv") -> list[Path]:
    """Return the files of a table: the file itself, or a folder's parts sorted by name.

    A folder's parts are its files ending in one of :data:`PART_SUFFIXES`; they
    are read in the order of their names, as Dask and Spark name their parts
    (``part-00000.parquet``, ...).
    """
    given = Path(path)
    if not given.exists():
        raise UsageError(f"{option} {path}: no such file")
    if not given.is_dir():
        return [given]
    parts = sorted(p for p in given.iterdir()
                   if p.is_file() and p.suffix.lower() in PART_SUFFIXES)  # fmt: skip
    if not parts:
        raise UsageError(
            f"{option} {path} is a folder without parts (files ending "
            f"{', '.join(PART_SUFFIXES)}); give a file, or a folder of parts"
        )
    return parts


def read_frame(path: str, args: argparse.Namespace | None = None) -> Any:
    """Read a whole CSV or Parquet file, or raise a UsageError saying why it cannot be.

    A CSV's separator is ``--sep``, or found from the file's first lines among
    :data:`SEPARATORS`; ``--decimal`` and ``--encoding`` say how numbers and text
    are written. Refused by name: a folder, an unreadable file, text that is not
    in the encoding, a header naming a column twice (pandas would rename the
    second ``name.1`` silently) and a file without rows.
    """
    import pandas as pd

    if Path(path).is_dir():
        raise UsageError(f"--csv {path} is a folder; give a CSV or Parquet file")
    options = _Options.of(args)
    with _reading(path, options):
        if is_parquet(path):
            frame = pd.read_parquet(path)
            refuse_repeated([str(c) for c in frame.columns], path)
        else:  # checked on the header as written: pandas renames a repeat
            sep = _separator(path, options)
            refuse_repeated(_header(path, sep, options), path)
            frame = pd.read_csv(
                path, sep=sep, encoding=options.encoding, decimal=options.decimal
            )
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
        ``--sep``, ``--decimal`` and ``--encoding`` for CSV parts.
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
    options = _Options.of(args)
    sizes = [f.stat().st_size for f in files]
    total = max(sum(sizes), 1)
    first_row = 0
    columns: list[str] | None = None
    for index, file in enumerate(files):
        before = sum(sizes[:index])
        with _reading(str(file), options):
            parts = (
                _parquet_chunks(file, rows)
                if is_parquet(file)
                else _csv_chunks(file, options, rows, text_columns)
            )
            for frame, read in parts:
                names = [str(c) for c in frame.columns]
                if columns is None:
                    columns = names
                elif names != columns:
                    raise UsageError(
                        f"--csv {path}: part {file.name} has the columns {names}, "
                        f"the first part {columns}; every part needs the same "
                        "columns in the same order"
                    )
                frame.columns = names
                frame.index = range(first_row, first_row + frame.shape[0])
                first_row += frame.shape[0]
                if frame.shape[0]:
                    yield Chunk(frame, min((before + read) / total, 1.0))
    if first_row == 0:
        raise UsageError(f"--csv {path} has a header but no rows")


def csv_layout(path: str, args: argparse.Namespace | None) -> tuple[str, list[str]]:
    """Return a CSV file's separator and its header's column names, as written."""
    options = _Options.of(args)
    with _reading(path, options):
        sep = _separator(path, options)
        return sep, _header(path, sep, options)


def chunk_rows(n_columns: int, given: int | None) -> int:
    """Rows per chunk: ``given``, else about :data:`CHUNK_CELLS` cells."""
    if given is not None:
        return given
    return max(1_000, CHUNK_CELLS // max(n_columns, 1))


def _csv_chunks(
    file: Path, options: _Options, rows: int | None, text_columns: Sequence[str]
) -> Iterator[tuple[Any, float]]:
    """Read a CSV file's chunks, each with the bytes read so far."""
    import pandas as pd

    sep = _separator(str(file), options)
    header = _header(str(file), sep, options)
    refuse_repeated(header, str(file))
    with open(file, "rb") as handle:
        reader = pd.read_csv(
            handle,
            sep=sep,
            encoding=options.encoding,
            decimal=options.decimal,
            dtype={c: str for c in text_columns if c in header},
            chunksize=chunk_rows(len(header), rows),
        )
        with reader:
            for frame in reader:
                yield frame, float(handle.tell())


def _parquet_chunks(file: Path, rows: int | None) -> Iterator[tuple[Any, float]]:
    """Read a Parquet file's chunks, each with the share of its bytes read so far."""
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(file)
    n_rows = max(parquet.metadata.num_rows, 1)
    size = file.stat().st_size
    names = parquet.schema_arrow.names
    refuse_repeated([str(n) for n in names], str(file))
    done = 0
    for batch in parquet.iter_batches(batch_size=chunk_rows(len(names), rows)):
        frame = batch.to_pandas()
        done += frame.shape[0]
        yield frame, size * done / n_rows


@dataclass
class _Options:
    """How a CSV file is written: ``--sep``, ``--decimal``, ``--encoding``."""

    sep: str | None
    decimal: str
    encoding: str

    @classmethod
    def of(cls, args: argparse.Namespace | None) -> _Options:
        return cls(
            getattr(args, "sep", None) or None,
            getattr(args, "decimal", None) or ".",
            getattr(args, "encoding", None) or "utf-8",
        )


@contextmanager
def _reading(path: str, options: _Options) -> Iterator[None]:
    """Turn the errors of reading ``path`` into UsageErrors naming the fix."""
    import pandas as pd

    try:
        yield
    except FileNotFoundError:
        raise UsageError(f"--csv {path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"--csv {path} is a folder; give a file") from None
    except PermissionError:
        raise UsageError(f"--csv {path}: permission denied") from None
    except LookupError:
        raise UsageError(
            f"--encoding {options.encoding!r} is not an encoding Python knows (e.g. "
            "utf-8, latin-1, cp1252)"
        ) from None
    except UnicodeDecodeError as error:
        raise UsageError(
            f"--csv {path} is not {options.encoding} text (byte "
            f"{error.object[error.start]:#04x} at offset {error.start}); give its "
            "encoding, e.g. --encoding latin-1 or --encoding cp1252"
        ) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise UsageError(f"--csv {path} is not a readable CSV file: {error}") from None
    except Exception as error:  # pyarrow: a damaged or truncated Parquet file
        if not _from_pyarrow(error):
            raise
        raise UsageError(
            f"--csv {path} is not a readable Parquet file: {error}"
        ) from None


def _from_pyarrow(error: BaseException) -> bool:
    return type(error).__module__.startswith("pyarrow")


def _separator(path: str, options: _Options) -> str:
    r"""Return ``--sep`` as given (``\t`` or ``tab`` read as a tab), or as found."""
    given = options.sep
    if given:
        return "\t" if given in ("\\t", "tab") else given
    with open(path, newline="", encoding=options.encoding) as handle:
        sample = handle.read(1 << 16)
    try:
        return csv.Sniffer().sniff(sample, delimiters=SEPARATORS).delimiter
    except csv.Error:  # one column, or nothing to tell the separators apart
        return ","


def _header(path: str, sep: str, options: _Options) -> list[str]:
    """Return the CSV file's first line as column names, as written (no renaming)."""
    with open(path, newline="", encoding=options.encoding) as handle:
        return list(next(csv.reader(handle, delimiter=sep), []))


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
