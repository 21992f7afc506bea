"""The results store: one SQLite file per study run that never loses finished work.

Why SQLite (not CSV or Parquet): every finished cell is one transaction, so a crash
or Ctrl-C at any moment leaves either the whole cell or nothing (an appended CSV line
can be cut in half; Parquet files cannot be appended to at all); the primary key
makes a re-run skip finished cells without reading the whole file; it needs nothing
beyond the Python standard library; and pandas reads it directly.

Layout (``DIR/results.sqlite``):

``meta(key, value)``
    ``study`` (the study as JSON), ``fingerprint`` (what determines the results),
    ``created``, ``version`` (costsense's version that created the store).
``cells(key, dataset, cost, algorithm, repeat, fold, seed, params, version,
finished, n_train, n_test, fit_time, predict_time, metrics, diagnostics)``
    One row per finished cell; ``params`` the algorithm's declared parameters and
    the fitted model's parameters, ``metrics`` a JSON object of metric values (JSON
    keeps every float exactly), ``diagnostics`` what the fit did (rounds, stop
    reason, convergence, constant model: :mod:`costsense.experiments._diagnostics`;
    ``{}`` in stores written before it was recorded).
``curves(key, stage, split, value)``
    Mean cost per sample after each stage of a staged model (train and test).
``series(key, stage, name, value)``
    Other per-round series of a fit on its training part: for boosters that
    record their normalisers, paper 001's ``train_error``, ``normaliser_product``
    and ``edge_bound`` (:func:`costsense.experiments._cell._round_series`).
    Stores written before it have the table created empty when opened.
``warnings(key, category, message, count)``
    The warnings a cell's fit and scoring raised, by category and message (its
    numbers written ``N``): :mod:`costsense.experiments._warnings`. Stores
    written before it have the table created empty (no warnings) when opened.
``warning_texts(key, category, message, text)``
    Up to two of those warnings' texts as raised (their numbers, whole), for
    the report's lines; empty in stores written before it.

A study definition may change between runs (:meth:`ResultsStore.initialise` with
``drop``): the caller names the cells whose definition changed, they are deleted
with their curves, series and warnings, and the new definition is recorded, in one
transaction. :meth:`ResultsStore.move_aside` starts afresh without deleting
anything: the store moves into a timestamped folder beside it.

A store belongs to one study at a time: :meth:`ResultsStore.add` writes a cell
only while the store records the fingerprint this object was initialised with,
in the same transaction, so another study's cells never enter it. A run also
holds the folder's lock (:mod:`costsense.experiments._lock`), so a second run
is refused before it reads anything. A store that cannot be used (corrupted, a
0-byte file, one of an earlier development layout, which is never converted, a
full disk, a read-only folder) raises a
:class:`~costsense.experiments._store_errors.StoreFileError` naming the file,
the cause and the fix.

Other artefacts (decision-boundary grids) are ``.npz`` files under ``DIR/artifacts``,
each written to a temporary name and renamed, so a file is complete or absent.
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from costsense import __version__
from costsense.experiments._outputs import make_folder, refuse_links, write_atomically
from costsense.experiments._store_errors import (
    StoreConflictError,
    earlier_store_error,
    empty_store_error,
    store_file_error,
)
from costsense.experiments._warnings import WarningTally

__all__ = ["ResultsStore", "StoreConflictError", "save_npz_atomically"]

#: The files SQLite may create beside the store (each refused if a link).
_SQLITE_FILES = tuple(
    f"results.sqlite{suffix}" for suffix in ("", "-journal", "-wal", "-shm")
)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cells (
    key TEXT PRIMARY KEY,
    dataset TEXT NOT NULL,
    cost TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    fold INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    params TEXT NOT NULL,
    version TEXT NOT NULL,
    finished TEXT NOT NULL,
    n_train INTEGER NOT NULL,
    n_test INTEGER NOT NULL,
    fit_time REAL NOT NULL,
    predict_time REAL NOT NULL,
    metrics TEXT NOT NULL,
    diagnostics TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS curves (
    key TEXT NOT NULL,
    stage INTEGER NOT NULL,
    split TEXT NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (key, stage, split)
);
CREATE TABLE IF NOT EXISTS series (
    key TEXT NOT NULL,
    stage INTEGER NOT NULL,
    name TEXT NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (key, stage, name)
);
CREATE TABLE IF NOT EXISTS warnings (
    key TEXT NOT NULL,
    category TEXT NOT NULL,
    message TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (key, category, message)
);
CREATE TABLE IF NOT EXISTS warning_texts (
    key TEXT NOT NULL,
    category TEXT NOT NULL,
    message TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (key, category, message, text)
);
"""

#: The tables holding one cell's rows, keyed by its ``key``.
_CELL_TABLES = ("cells", "curves", "series", "warnings", "warning_texts")
#: The store's own files, moved aside together by :meth:`ResultsStore.move_aside`.
_STORE_FILES = ("results.sqlite", "results.sqlite-journal", "artifacts")

_CELL_COLUMNS = (
    "key",
    "dataset",
    "cost",
    "algorithm",
    "repeat",
    "fold",
    "seed",
    "params",
    "version",
    "finished",
    "n_train",
    "n_test",
    "fit_time",
    "predict_time",
    "metrics",
    "diagnostics",
)


def save_npz_atomically(path: Path, *, root: Path | None = None, **arrays: Any) -> None:
    """Write ``arrays`` to ``path`` (``.npz``) under a temporary name, then rename.

    Parameters
    ----------
    path : Path
        Destination; its folder is created.
    root : Path, default=None
        The run's output folder, which ``path`` lies under: no component
        between them may be a symbolic link (:mod:`costsense.experiments.
        _outputs`); None for ``path``'s own folder.
    **arrays : array-like
        Named arrays.

    Raises
    ------
    StoreFileError
        If the system refuses (a full disk, a read-only folder), or ``path``
        lies behind a symbolic link; no partial file is left.
    """
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    try:
        write_atomically(
            path, buffer.getvalue(), root=path.parent if root is None else root
        )
    except OSError as error:
        raise (store_file_error(path, error) or error) from error


def _refuse_earlier_layout(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a store whose cells lack a column of this layout (not converted)."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(cells)")}
    missing = [name for name in _CELL_COLUMNS if name not in columns]
    if missing:
        raise earlier_store_error(path, missing)


class ResultsStore:
    """The results of one study run, in ``folder / "results.sqlite"``.

    Parameters
    ----------
    folder : str or Path
        Output folder (created if missing).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "results.sqlite"
        self.artifacts = self.folder / "artifacts"
        # (study name, fingerprint) recorded by initialise: what add() may write
        self._writing: tuple[str, str] | None = None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """Open the store (creating its tables), closing it afterwards.

        SQLite's errors, also those raised in the ``with`` block, and the
        system's errors on opening come out as :class:`StoreFileError` naming
        the file, the cause and the fix; a 0-byte file is refused as corrupted
        (SQLite would take it for a new store).
        """
        try:
            make_folder(self.folder)
            for name in _SQLITE_FILES:  # SQLite opens them following links
                refuse_links(self.folder, self.folder / name)
            if self.path.is_file() and self.path.stat().st_size == 0:
                raise empty_store_error(self.path)
            connection = sqlite3.connect(self.path, timeout=60)
        except (sqlite3.Error, OSError) as error:
            explained = store_file_error(self.path, error)
            raise (explained or error) from error
        try:
            connection.executescript(_SCHEMA)
            _refuse_earlier_layout(connection, self.path)
            yield connection
        except Exception as error:
            explained = store_file_error(self.path, error, sqlite_only=True)
            if explained is None:
                raise
            raise explained from error
        finally:
            connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """Open the store and hold its write lock for one transaction.

        What is read in it (the recorded fingerprint) cannot change before it
        commits; an error rolls it all back.
        """
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.rollback()
                raise
            db.commit()

    def exists(self) -> bool:
        """Whether the store file exists."""
        return self.path.is_file()

    def initialise(
        self,
        study: dict[str, Any],
        fingerprint: str,
        *,
        drop: Iterable[str] | None = None,
    ) -> None:
        """Record the study, or check that the store holds the same study.

        Parameters
        ----------
        study : dict
            The study's plain data (recorded as JSON).
        fingerprint : str
            Canonical text of what determines the results.
        drop : iterable of str, default=None
            None refuses a store holding a different study definition. Otherwise
            the caller has compared the definitions: the cells with these keys
            (their definition changed, or the study no longer has them) are
            deleted with their curves, series and warnings, and ``study``
            becomes the recorded definition, all in one transaction.

        Raises
        ------
        StoreConflictError
            If ``drop`` is None and the store already holds results of a
            different study definition.

        Notes
        -----
        The recorded fingerprint is the one :meth:`add` then checks: this
        object writes cells of this study only.
        """
        with self._transaction() as db:
            row = db.execute(
                "SELECT value FROM meta WHERE key = 'fingerprint'"
            ).fetchone()
            if row is not None:
                if row[0] != fingerprint and drop is None:
                    raise StoreConflictError(
                        f"{self.folder} holds results of a different study definition "
                        "(datasets, costs, algorithms, protocol or seed differ); "
                        "choose another --out folder, or restart it."
                    )
                keys = [(key,) for key in drop or ()]
                # titles, notes and metric lists may change: keep the latest
                for table in _CELL_TABLES:
                    db.executemany(f"DELETE FROM {table} WHERE key = ?", keys)
                db.executemany(
                    "UPDATE meta SET value = ? WHERE key = ?",
                    [(json.dumps(study), "study"), (fingerprint, "fingerprint")],
                )
            else:
                now = datetime.now(UTC).isoformat(timespec="seconds")
                db.executemany(
                    "INSERT INTO meta VALUES (?, ?)",
                    [
                        ("study", json.dumps(study)),
                        ("fingerprint", fingerprint),
                        ("created", now),
                        ("version", __version__),
                    ],
                )
        self._writing = (str(study.get("name", "")), fingerprint)

    def _check_writing(self, db: sqlite3.Connection, key: str) -> None:
        """Refuse to write cell ``key`` unless the store records this run's study.

        Another process may have re-initialised the store (another study, or a
        ``--restart`` that moved it aside) since :meth:`initialise`.
        """
        if self._writing is None:
            raise ValueError(
                f"{self.path}: call initialise(study, fingerprint) before add(), so "
                "that every cell is checked against the study it belongs to."
            )
        name, fingerprint = self._writing
        recorded = dict(
            db.execute(
                "SELECT key, value FROM meta WHERE key IN ('fingerprint', 'study')"
            ).fetchall()
        )
        if recorded.get("fingerprint") == fingerprint:
            return
        now = (
            f"study {json.loads(recorded['study']).get('name')!r} (another definition)"
            if "study" in recorded
            else "no study (it was moved aside or replaced)"
        )
        raise StoreConflictError(
            f"{self.path} now records {now}, not the study {name!r} this run "
            f"writes: another run took the folder over; cell {key} was not written. "
            "Let that run finish and run this one again, or write to another "
            "folder (--out)."
        )

    def move_aside(self) -> Path | None:
        """Move the store into a new folder ``previous-<UTC time>`` beside it.

        Only the store's own files move (``results.sqlite`` and ``artifacts``);
        reports and anything else in the folder stay, and nothing is deleted.

        Returns
        -------
        Path or None
            The folder the store moved to; None when there was no store.
        """
        present = [self.folder / name for name in _STORE_FILES]
        present = [path for path in present if path.exists()]
        if not present:
            return None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target, k = self.folder / f"previous-{stamp}", 1
        while target.exists():
            k += 1
            target = self.folder / f"previous-{stamp}-{k}"
        target.mkdir(parents=True)
        for path in present:
            shutil.move(path, target / path.name)
        return target

    def study(self) -> dict[str, Any]:
        """Return the recorded study's plain data."""
        if not self.exists():
            raise ValueError(f"{self.folder} holds no results store (results.sqlite).")
        with self._connect() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'study'").fetchone()
        if row is None:
            raise ValueError(f"{self.path} records no study.")
        return json.loads(row[0])

    def recorded_study(self) -> dict[str, Any] | None:
        """Return the recorded study's plain data, or None for a new store."""
        if not self.exists():
            return None
        with self._connect() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'study'").fetchone()
        return None if row is None else json.loads(row[0])

    def done_keys(self) -> set[str]:
        """Return the keys of the finished cells."""
        if not self.exists():
            return set()
        with self._connect() as db:
            return {key for (key,) in db.execute("SELECT key FROM cells")}

    def add(self, cell: dict[str, Any]) -> None:
        """Save one finished cell, its curves and series in a single transaction.

        Parameters
        ----------
        cell : dict
            The cell's columns (see the module docstring); ``params`` and
            ``metrics`` dicts, an optional ``curves`` list of
            ``(stage, split, value)``, an optional ``series`` list of
            ``(stage, name, value)`` and an optional ``warnings`` list of
            ``(category, message, count)``.

        Raises
        ------
        StoreConflictError
            If the store no longer records the study this object was
            initialised with (another run re-initialised it, or moved it aside):
            nothing is written.
        ValueError
            If :meth:`initialise` was not called on this object.
        StoreFileError
            If the file cannot be written (full disk, read-only folder,
            corrupted file); the cell's transaction is rolled back.
        """
        row = dict(cell)
        curves = row.pop("curves", [])
        series = row.pop("series", [])
        raised = row.pop("warnings", [])
        row["params"] = json.dumps(row["params"], sort_keys=True, default=str)
        row["metrics"] = json.dumps(row["metrics"], sort_keys=True)
        row["diagnostics"] = json.dumps(row.get("diagnostics", {}), sort_keys=True)
        row.setdefault("version", __version__)
        row.setdefault("finished", datetime.now(UTC).isoformat(timespec="seconds"))
        values = [row[c] for c in _CELL_COLUMNS]
        with self._transaction() as db:
            self._check_writing(db, row["key"])
            db.execute(
                f"INSERT OR IGNORE INTO cells VALUES ({', '.join('?' * len(values))})",
                values,
            )
            db.executemany(
                "INSERT OR IGNORE INTO curves VALUES (?, ?, ?, ?)",
                [(row["key"], int(s), str(p), float(v)) for s, p, v in curves],
            )
            db.executemany(
                "INSERT OR IGNORE INTO series VALUES (?, ?, ?, ?)",
                [(row["key"], int(s), str(n), float(v)) for s, n, v in series],
            )
            db.executemany(
                "INSERT OR IGNORE INTO warnings VALUES (?, ?, ?, ?)",
                [(row["key"], str(c), str(m), int(n)) for c, m, n, *_ in raised],
            )
            db.executemany(  # the texts as raised, up to two per message
                "INSERT OR IGNORE INTO warning_texts VALUES (?, ?, ?, ?)",
                [(row["key"], str(c), str(m), str(text))
                 for c, m, _, *texts in raised for text in (texts[0] if texts else [])],
            )  # fmt: skip

    def results(self) -> pd.DataFrame:
        """Return the finished cells as a DataFrame, one column per metric.

        Returns
        -------
        pandas.DataFrame
            Sorted by key; columns ``key, dataset, cost, algorithm, repeat, fold,
            seed, n_train, n_test, fit_time, predict_time``, ``diagnostics`` (a
            dict per cell) and the metrics.
        """
        with self._connect() as db:
            frame = pd.read_sql_query("SELECT * FROM cells ORDER BY key", db)
        metrics = pd.DataFrame(
            [json.loads(m) for m in frame.pop("metrics")], index=frame.index
        )
        frame["diagnostics"] = [json.loads(d) for d in frame["diagnostics"]]
        return pd.concat([frame.drop(columns=["params"]), metrics], axis=1)

    def curves(self) -> pd.DataFrame:
        """Return the staged-cost curves joined with their cells' identifiers.

        Returns
        -------
        pandas.DataFrame
            Columns ``dataset, cost, algorithm, repeat, fold, stage, split, value``.
        """
        query = (
            "SELECT c.dataset, c.cost, c.algorithm, c.repeat, c.fold, "
            "k.stage, k.split, k.value FROM curves k JOIN cells c ON c.key = k.key "
            "ORDER BY c.key, k.split, k.stage"
        )
        with self._connect() as db:
            return pd.read_sql_query(query, db)

    def series(self) -> pd.DataFrame:
        """Return the per-round series joined with their cells' identifiers.

        Returns
        -------
        pandas.DataFrame
            Columns ``dataset, cost, algorithm, repeat, fold, stage, name, value``;
            empty for a store written before series were recorded.
        """
        query = (
            "SELECT c.dataset, c.cost, c.algorithm, c.repeat, c.fold, "
            "s.stage, s.name, s.value FROM series s JOIN cells c ON c.key = s.key "
            "ORDER BY c.key, s.name, s.stage"
        )
        with self._connect() as db:
            return pd.read_sql_query(query, db)

    def warnings(self) -> WarningTally:
        """Return the warnings of the finished cells, tallied per algorithm.

        Returns
        -------
        WarningTally
            Each cell one fit of its algorithm; empty for a store written before
            warnings were recorded.
        """
        query = (
            "SELECT c.algorithm, w.key, w.category, w.message, w.count "
            "FROM warnings w JOIN cells c ON c.key = w.key ORDER BY w.key"
        )
        tally = WarningTally()
        if not self.exists():
            return tally
        with self._connect() as db:
            rows = db.execute(query).fetchall()
            texts: dict[tuple[str, str, str], list[str]] = {}
            for key, category, message, text in db.execute(
                "SELECT key, category, message, text FROM warning_texts ORDER BY rowid"
            ):
                texts.setdefault((key, category, message), []).append(text)
        cells: dict[str, tuple[str, dict[tuple[str, str], int]]] = {}
        for algorithm, key, category, message, count in rows:
            cells.setdefault(key, (algorithm, {}))[1][(category, message)] = count
        for key, (algorithm, counts) in cells.items():
            examples = {kind: texts.get((key, *kind), []) for kind in counts}
            tally.add_counts(algorithm, counts, examples)
        return tally
