"""The results store: one JSON file per finished cell, under the study's fingerprint.

In a results folder ``DIR``: ``study.json`` records the study (plain data),
its fingerprint (what determines the results), ``created`` and ``version``;
``cells-<hash of the fingerprint>/<cell key>.json`` holds each finished cell's
row (:func:`~costsense.experiments.run_cell`) with ``version`` and ``finished``,
written under a temporary name and renamed, so a killed run leaves whole cells
or none and a re-run skips them; ``artifacts/`` holds the decision-boundary
grids (``.npz``), written the same way.

A folder belongs to one study definition: :meth:`ResultsStore.open` refuses
another name or fingerprint (a ``--quick`` run into the full study's folder
too) unless the run restarts (:meth:`ResultsStore.move_aside`); report-only
fields may change. Every error names the file and the fix
(:class:`~costsense.experiments._outputs.StoreError`).
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
import pandas as pd

from costsense import __version__
from costsense.experiments._outputs import (
    RESTART,
    StoreConflictError,
    StoreFileError,
    file_error,
    write_atomically,
)
from costsense.experiments._warnings import WarningTally

__all__ = ["ResultsStore", "save_npz_atomically"]

#: The identifiers of a cell, first columns of :meth:`ResultsStore.results`.
_IDENTITY = ("key", "dataset", "cost", "algorithm", "repeat", "fold")
_COLUMNS = (*_IDENTITY, "seed", "version", "finished", "n_train", "n_test",
            "fit_time", "predict_time", "diagnostics")  # fmt: skip


def save_npz_atomically(path: Path, *, root: Path, **arrays: Any) -> None:
    """Write ``arrays`` to ``path`` (``.npz``) under ``root``, atomically.

    A refusal (a full disk, a read-only folder, a link) is a
    :class:`StoreFileError`; no partial file is left.
    """
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    try:
        write_atomically(path, buffer.getvalue(), root=root)
    except OSError as error:
        raise file_error(path, error) from error


class ResultsStore:
    """The results of one study in ``folder`` (see the module docstring).

    Parameters
    ----------
    folder : str or Path
        The results folder.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "study.json"
        self.artifacts = self.folder / "artifacts"

    def exists(self) -> bool:
        """Whether the folder records a study."""
        return self.path.is_file()

    def _write(self, path: Path, data: dict[str, Any]) -> None:
        text = json.dumps(data, sort_keys=True, default=str)
        try:
            write_atomically(path, text.encode(), root=self.folder)
        except OSError as error:
            raise file_error(path, error) from error

    def _read(self, path: Path, fix: str) -> Any:
        if path.is_symlink():  # planted: a run neither reads nor writes through it
            raise file_error(path, OSError(errno.ELOOP, "a symbolic link"))
        try:
            return json.loads(path.read_bytes())
        except OSError as error:
            raise file_error(path, error) from error
        except ValueError:
            raise StoreFileError(f"{path}: damaged (not JSON); {fix}.") from None

    def recorded(self) -> dict[str, Any] | None:
        """Return ``study.json`` (study, fingerprint, created, version), or None."""
        if not self.exists():
            return None
        record = self._read(self.path, RESTART)
        if not isinstance(record, dict) or not {"study", "fingerprint"} <= set(record):
            raise StoreFileError(f"{self.path}: not a study record; {RESTART}.")
        return record

    def recorded_study(self) -> dict[str, Any] | None:
        """Return the recorded study's plain data, or None for a new folder."""
        record = self.recorded()
        return None if record is None else record["study"]

    def study(self) -> dict[str, Any]:
        """Return the recorded study's plain data (ValueError if there is none)."""
        found = self.recorded_study()
        if found is None:
            raise ValueError(f"{self.folder} holds no results (no study.json).")
        return found

    def open(self, study: dict[str, Any], fingerprint: str) -> None:
        """Record ``study`` (:meth:`Study.to_dict`) and its ``fingerprint`` here.

        Raises :class:`StoreConflictError` if the folder records another study,
        or another definition of it (another fingerprint: datasets, costs,
        algorithms, protocol, seed; its quick or full version).
        """
        record = self.recorded()
        if record is not None and record["fingerprint"] != fingerprint:
            was, now = record["study"].get("name"), study.get("name")
            what = (
                f"results of study {was!r}, not {now!r}"
                if was != now
                else f"results of another definition of study {now!r} (its "
                "datasets, costs, algorithms, protocol or seed differ, or one is "
                "the --quick version)"
            )
            raise StoreConflictError(
                f"{self.folder} holds {what}; write to another folder (--out), "
                "or restart this one (--restart moves its results aside)."
            )
        created = datetime.now(UTC).isoformat(timespec="seconds")
        self._write(self.path, {
            "study": study, "fingerprint": fingerprint, "version": __version__,
            "created": created if record is None else record.get("created"),
        })  # fmt: skip

    def _cells(self) -> Path | None:
        """Return the folder of the recorded study's cells (None for a new folder)."""
        record = self.recorded()
        if record is None:
            return None
        digest = hashlib.sha256(str(record["fingerprint"]).encode()).hexdigest()
        return self.folder / f"cells-{digest[:16]}"

    def add(self, row: dict[str, Any]) -> None:
        """Save one finished cell (a row of :func:`run_cell`), atomically."""
        cells = self._cells()
        if cells is None:
            raise ValueError(f"{self.folder}: open(study, fingerprint) first.")
        now = datetime.now(UTC).isoformat(timespec="seconds")
        saved = {**row, "version": __version__, "finished": now}
        self._write(cells / f"{quote(row['key'], safe='')}.json", saved)

    def rows(self) -> list[dict[str, Any]]:
        """Return every finished cell's row, sorted by key."""
        cells = self._cells()
        if cells is None or not cells.is_dir():
            return []
        fix = f"delete it to run that cell again, or {RESTART}"
        found = [self._read(path, fix) for path in cells.glob("*.json")]
        return sorted(found, key=lambda row: row["key"])

    def done_keys(self) -> set[str]:
        """Return the keys of the finished cells."""
        return {row["key"] for row in self.rows()}

    def results(self) -> pd.DataFrame:
        """Return the finished cells as a DataFrame, one column per metric.

        Returns
        -------
        pandas.DataFrame
            Sorted by key; columns ``key, dataset, cost, algorithm, repeat,
            fold, seed, version, finished, n_train, n_test, fit_time,
            predict_time``, ``diagnostics`` (a dict per cell) and the metrics.
        """
        rows = self.rows()
        frame = pd.DataFrame([[r[c] for c in _COLUMNS] for r in rows],
                             columns=list(_COLUMNS))  # fmt: skip
        metrics = pd.DataFrame([r["metrics"] for r in rows], index=frame.index)
        return pd.concat([frame, metrics], axis=1)

    def _joined(self, part: str, name: str) -> pd.DataFrame:
        """Return the curves or the series, with their cells' identifiers."""
        records = [
            (*(row[c] for c in _IDENTITY[1:]), stage, label, value)
            for row in self.rows()
            for stage, label, value in sorted(row[part], key=lambda s: (s[1], s[0]))
        ]
        columns = [*_IDENTITY[1:], "stage", name, "value"]
        return pd.DataFrame(records, columns=columns)

    def curves(self) -> pd.DataFrame:
        """Return the staged-cost curves with their cells' identifiers.

        Columns ``dataset, cost, algorithm, repeat, fold, stage, split, value``.
        """
        return self._joined("curves", "split")

    def series(self) -> pd.DataFrame:
        """Return the per-round series with their cells' identifiers.

        Columns ``dataset, cost, algorithm, repeat, fold, stage, name, value``.
        """
        return self._joined("series", "name")

    def warnings(self) -> WarningTally:
        """Return the finished cells' warnings, tallied per algorithm."""
        tally = WarningTally()
        for row in self.rows():
            tally.add_row(row)
        return tally

    def move_aside(self) -> Path | None:
        """Move the results into a new folder ``previous-<UTC time>`` inside.

        Only ``study.json``, the cells and ``artifacts`` move; reports and
        anything else stay, nothing is deleted. Returns where they moved (None
        when there was nothing).
        """
        present = [self.path, self.artifacts, *self.folder.glob("cells-*")]
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
