"""Compare two folders of ``costsense reproduce`` stores, cell by cell.

Usage: ``python benchmarks/same_stores.py BEFORE AFTER``, each holding one
folder per study (``--out BEFORE/boosting``...). Every table of each
``results.sqlite`` (cells, curves, series, warnings, warning texts) must hold the
same rows, apart from the columns that record when and how fast (``finished``,
``fit_time``, ``predict_time``, ``version``); the study and its fingerprint must
match, and so must every boundary grid under ``artifacts/``. A refactoring that
changes no result passes; exit status 1 names the first differing rows.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import numpy as np

IGNORED = {"finished", "fit_time", "predict_time", "version"}
TABLES = ("cells", "curves", "series", "warnings", "warning_texts")


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    names = [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
    return [c for c in names if c not in IGNORED]


def _rows(db: sqlite3.Connection, table: str) -> list[tuple[object, ...]]:
    kept = ", ".join(_columns(db, table))
    return sorted(db.execute(f"SELECT {kept} FROM {table}").fetchall())


def _differing_columns(
    columns: list[str], a: list[tuple[object, ...]], b: list[tuple[object, ...]]
) -> str:
    """Say which columns differ, and in how many rows, for tables of equal length.

    Rows are paired in their sorted order (led by their key), so a difference in
    one column is told apart from rows that are missing or extra.
    """
    if len(a) != len(b):
        return f"{len(a)} rows before, {len(b)} after"
    counts = {
        name: sum(x[i] != y[i] for x, y in zip(a, b, strict=True))
        for i, name in enumerate(columns)
    }
    return ", ".join(f"{name} in {n} rows" for name, n in counts.items() if n)


def _same_grids(before: Path, after: Path) -> tuple[int, bool]:
    grids = sorted(before.glob("artifacts/*.npz"))
    same = True
    for grid in grids:
        a, b = np.load(grid), np.load(after / "artifacts" / grid.name)
        same &= set(a) == set(b) and all(np.array_equal(a[k], b[k]) for k in a)
    return len(grids), same


def compare(before: Path, after: Path) -> bool:
    """Print one line per study; return whether every study is the same."""
    ok = True
    for study in sorted(p.name for p in before.iterdir() if p.is_dir()):
        old = sqlite3.connect(before / study / "results.sqlite")
        new = sqlite3.connect(after / study / "results.sqlite")
        parts = []
        for table in TABLES:
            a, b = _rows(old, table), _rows(new, table)
            ok &= a == b
            parts.append(f"{table} {len(a)}/{len(b)} {'same' if a == b else 'DIFFER'}")
            if a != b:
                differ = _differing_columns(_columns(old, table), a, b)
                print(f"  {study} {table} differ: {differ}")
                print("  first differing rows:", [r for r in a if r not in set(b)][:1])
                print("                  after:", [r for r in b if r not in set(a)][:1])
        meta = [dict(db.execute("SELECT key, value FROM meta")) for db in (old, new)]
        same_meta = all(meta[0][k] == meta[1][k] for k in ("study", "fingerprint"))
        n_grids, same_grids = _same_grids(before / study, after / study)
        ok &= same_meta and same_grids
        parts.append(f"study and fingerprint {'same' if same_meta else 'DIFFER'}")
        parts.append(f"{n_grids} boundary grids {'same' if same_grids else 'DIFFER'}")
        print(f"{study}: " + "; ".join(parts))
    print("every store the same" if ok else "the stores differ")
    return ok


if __name__ == "__main__":
    sys.exit(0 if compare(Path(sys.argv[1]), Path(sys.argv[2])) else 1)
