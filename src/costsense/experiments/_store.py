"""The results store: one JSON file per finished cell, under the study's fingerprint.

In a results folder: ``study.json`` (the study, its fingerprint, ``created``,
``version``); ``cells-<hash of the fingerprint>/<cell key>.json``, each finished
cell's row, written atomically, so a killed run leaves whole cells and a re-run
skips them; ``artifacts/``, the boundary grids. A folder holds one study
definition: another name or fingerprint (its ``--quick`` version too) is refused
unless the run restarts. Every error names the file and the fix.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

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

__all__ = ["ResultsStore"]

_IDENTITY = ("key", "dataset", "cost", "algorithm", "repeat", "fold")
_RUN = ("seed", "version", "finished", "n_train", "n_test", "fit_time", "predict_time")


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
        """Write ``data`` as JSON to ``path``, atomically."""
        text = json.dumps(data, sort_keys=True, default=str)
        write_atomically(path, text.encode(), root=self.folder)

    def _read(self, path: Path, fix: str) -> Any:
        """Read the JSON of ``path``, refusing a link or a damaged file by name."""
        try:  # never through a planted link (ELOOP)
            with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), "rb") as file:
                return json.loads(file.read())
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

    def study(self) -> dict[str, Any]:
        """Return the recorded study's plain data (ValueError if there is none)."""
        record = self.recorded()
        if record is None:
            raise ValueError(f"{self.folder} holds no results (no study.json).")
        return dict(record["study"])

    def open(self, study: dict[str, Any], fingerprint: str) -> None:
        """Record ``study`` and its ``fingerprint``, or raise StoreConflictError."""
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
        self._write(
            self.path,
            {
                "study": study,
                "fingerprint": fingerprint,
                "version": __version__,
                "created": created if record is None else record.get("created"),
            },
        )

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
        assert cells is not None, "open(study, fingerprint) first"
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
        """Return the finished cells, a column per identifier, time and metric."""
        rows = self.rows()
        frame = pd.DataFrame(rows, columns=[*_IDENTITY, *_RUN, "diagnostics"])
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
        """Return the staged-cost curves (``stage, split, value``) per cell."""
        return self._joined("curves", "split")

    def series(self) -> pd.DataFrame:
        """Return the per-round series (``stage, name, value``) per cell."""
        return self._joined("series", "name")

    def warnings(self) -> WarningTally:
        """Return the finished cells' warnings, tallied per algorithm."""
        tally = WarningTally()
        for row in self.rows():
            tally.add_row(row)
        return tally

    def move_aside(self) -> Path | None:
        """Move the results (not the reports) into ``previous-<UTC time>``, or None."""
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
