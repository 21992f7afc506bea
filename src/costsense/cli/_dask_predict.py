"""``costsense predict --scheduler``: the input's partitions scored on a Dask cluster.

The checked model goes to every worker once; each partition (a CSV block or a
part) is one task, and the client numbers the rows in order, so the file is the
one a single machine writes. A lost worker is a usage error naming the partition.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from costsense.exceptions import UsageError
from costsense.utils._cells import refuse_long_cells
from costsense.utils._table_files import open_table, starts_parquet, table_files
from costsense.utils._tables import csv_layout
from costsense.utils._text import printable

#: Bytes of CSV per partition (a block of a large file).
CSV_BLOCK_BYTES = 32 * 2**20
#: Seconds to wait for the scheduler to answer.
CONNECT_SECONDS = 10


def dask_chunks(args: argparse.Namespace, scorer: Any) -> Iterator[Any]:
    """Yield each partition's lines (``attrs["done"]``: the share done), in order."""
    import dask
    from distributed import Client

    frame = _dask_frame(args, scorer)
    try:
        client = Client(args.scheduler, timeout=CONNECT_SECONDS)
    except OSError as error:
        raise UsageError(
            f"--scheduler {args.scheduler}: no Dask scheduler answers there "
            f"({error}); start one (dask scheduler) or check the address"
        ) from None
    with client:
        sent = client.scatter(scorer, broadcast=True, hash=False)
        parts = frame.to_delayed()
        futures = client.compute([dask.delayed(_score)(sent, part) for part in parts])
        first_row = 0
        for index, future in enumerate(futures):
            try:
                lines = future.result()
            except UsageError as error:
                raise UsageError(
                    f"{error} (row numbers counted within partition {index + 1} of "
                    f"{len(futures)}, which starts at row {first_row + 1})"
                ) from None
            except ValueError as error:  # pandas: text in a column read as numbers
                raise UsageError(
                    f"--csv {args.csv}: partition {index + 1} of {len(futures)} "
                    f"cannot be read with the model's column types "
                    f"({printable(error)}); a column the model reads as numbers "
                    "holds text there"
                ) from None
            except Exception as error:
                if not _cluster_failure(error):
                    raise
                raise UsageError(
                    f"--scheduler {args.scheduler}: the cluster lost partition "
                    f"{index + 1} of {len(futures)} ({type(error).__name__}: "
                    f"{printable(error)}): its workers died or left (out of "
                    "memory? see their logs); give the workers more memory or "
                    "cut the input into smaller parts, then run again"
                ) from None
            future.release()
            lines["row"] += first_row
            first_row += lines.shape[0]
            lines.attrs["done"] = (index + 1) / len(futures)
            yield lines


def _score(scorer: Any, part: Any) -> Any:
    refuse_long_cells(part, scorer.path, scorer.options.max_cell_chars)
    return scorer(part, 0)


def _cluster_failure(error: BaseException) -> bool:
    """Whether ``error`` is the cluster's or the network's (not a scoring fault)."""
    from concurrent.futures import CancelledError

    if isinstance(error, CancelledError | OSError | TimeoutError):
        return True
    return type(error).__module__.partition(".")[0] == "distributed"


def _dask_frame(args: argparse.Namespace, scorer: Any) -> Any:
    """Open the input with the model's column types: no partition guesses its own."""
    import dask.dataframe as dd

    files = [str(f) for f in table_files(args.csv)]
    with open_table(files[0]) as handle:
        parquet = starts_parquet(handle)
    if parquet:
        return dd.read_parquet(files)
    sep, header = csv_layout(files[0], scorer.options)
    # every column as text: the Scorer reads numbers (marks, signs, bad cells named)
    types: dict[str, Any] = dict.fromkeys(header, object)
    return dd.read_csv(
        files,
        sep=sep,
        decimal=scorer.options.decimal or ".",
        encoding=scorer.options.encoding,
        dtype=types,
        blocksize=CSV_BLOCK_BYTES,
    )
