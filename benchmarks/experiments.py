"""Runner speed: a 40-cell study with --jobs 1 and --jobs 2, and the runner's overhead.

Prints, measured in one run on this machine:

- the speed-up of 2 local jobs over 1 (target >= 1.6x on two cores);
- the overhead of the runner (planning, seeding, metrics, the SQLite store, the
  progress callback) over the bare ``fit`` + ``predict`` calls of the same 40 cells
  run in a plain loop (target <= 10 %).

Usage: ``.venv/bin/python benchmarks/experiments.py``
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from costsense.costs import Costs
from costsense.experiments import plan, run_study, study_from_dict
from costsense.experiments._cell import build_model
from costsense.experiments._datasets import dataset_spec
from costsense.experiments._plan import derive_seed, splits

STUDY = study_from_dict(
    {
        "name": "bench",
        "seed": 0,
        "datasets": ["magic"],  # 19,020 x 10
        "costs": [5, 20],
        "algorithms": [
            {"name": "weighting", "method": "weighting", "base": "tree"},
            {"name": "threshold", "method": "threshold", "base": "tree"},
            {"name": "rejection", "method": "rejection", "base": "tree"},
            {"name": "metacost", "method": "metacost", "base": "tree"},
        ],
        "protocol": {"kind": "kfold", "n_splits": 5, "n_repeats": 1},
    }
)


def bare_seconds() -> float:
    """Fit and predict every cell in a loop, timing only fit + predict."""
    total = 0.0
    for cell in plan(STUDY):
        X, y, pos, _ = dataset_spec(STUDY, cell.dataset).load()
        train, test = splits(STUDY, cell.dataset, y, cell.repeat)[cell.fold]
        cost = Costs.resolve(cell.cost, y, pos_label=pos)
        seed = derive_seed(STUDY.seed, "model", cell.key)
        model = build_model(STUDY, cell.algorithm, cost, seed)
        started = time.perf_counter()
        model.fit(X[train], y[train])
        model.predict(X[test])
        total += time.perf_counter() - started
    return total


def runner_seconds(jobs: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        summary = run_study(STUDY, Path(folder), jobs=jobs)
        elapsed = time.perf_counter() - started
        assert summary.ran == STUDY.n_cells
    return elapsed


def main() -> None:
    assert STUDY.n_cells == 40
    dataset_spec(STUDY, "magic").load()  # warm the cache
    bare = bare_seconds()
    one = runner_seconds(1)
    two = runner_seconds(2)
    print(f"40 cells: bare fit+predict loop {bare:.2f} s")
    print(f"runner --jobs 1: {one:.2f} s  overhead {100 * (one / bare - 1):+.1f} %")
    print(f"runner --jobs 2: {two:.2f} s  speed-up over --jobs 1: {one / two:.2f}x")


if __name__ == "__main__":
    main()
