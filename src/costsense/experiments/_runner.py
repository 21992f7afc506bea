"""Run a study's unfinished cells, here, in local processes or on Dask.

Each cell is saved as it comes (:mod:`~costsense.experiments._store`), so an
interruption loses only the cells in flight, a re-run skips the saved ones, and
the numbers are the same however they ran; the run holds its folder's lock.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from costsense.experiments._boundary import save_boundaries
from costsense.experiments._cell import run_cell
from costsense.experiments._datasets import dataset_spec
from costsense.experiments._outputs import hold_run_lock
from costsense.experiments._plan import plan
from costsense.experiments._store import ResultsStore
from costsense.experiments._study import Study

__all__ = ["RunSummary", "run_cells", "run_study"]

#: What sizes a worker's native thread pools, read as each library loads.
_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@dataclass(frozen=True)
class RunSummary:
    """What a run did.

    Attributes
    ----------
    total, skipped, ran : int
        Cells of the study; already saved before; run and saved now.
    seconds : float
        Wall time of this run.
    interrupted : bool
        Whether the run was interrupted (Ctrl-C) before finishing.
    warnings : tuple of str
        One line per (algorithm, warning category) over every saved cell.
    moved_to : Path or None
        With ``restart=True``, the folder the previous results moved into.
    """

    total: int
    skipped: int
    ran: int
    seconds: float
    interrupted: bool
    warnings: tuple[str, ...] = ()
    moved_to: Path | None = None


def _end_with_run(run: int) -> None:
    """Have the kernel end this worker when its run dies (Linux only)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != run:  # the run died before the line above
        os._exit(1)


def run_cells(
    task: Callable[..., dict[str, Any]],
    tasks: Sequence[tuple[Any, ...]],
    on_result: Callable[[dict[str, Any]], None],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
) -> None:
    """Pass ``on_result`` each ``task(*args)``, run here, on loky workers or Dask."""
    if scheduler is not None:
        from distributed import Client
        from distributed import as_completed as dask_completed

        client = Client(scheduler)
        try:
            futures = [client.submit(task, *args, pure=False) for args in tasks]
            for future in dask_completed(futures):
                on_result(future.result())
        finally:
            client.close()
    elif jobs == 1:
        for args in tasks:
            on_result(task(*args))
    else:
        from joblib.externals.loky import ProcessPoolExecutor

        # workers share the cores: BLAS or OpenMP pools of all cores in each spin
        threads = str(max(1, (os.cpu_count() or 1) // jobs))
        limits = {v: threads for v in _THREAD_VARIABLES if v not in os.environ}
        pool = ProcessPoolExecutor(
            jobs, initializer=_end_with_run, initargs=(os.getpid(),), env=limits
        )
        try:
            pending = [pool.submit(task, *args) for args in tasks]
            for future in as_completed(pending):
                on_result(future.result())
        finally:
            pool.shutdown(wait=True, kill_workers=True)


def run_study(
    study: Study,
    out: str | Path,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int, int], Any] | None = None,
    restart: bool = False,
) -> RunSummary:
    """Run every unfinished cell of ``study`` and save it under ``out``.

    Parameters
    ----------
    study : Study
        The study.
    out : str or Path
        The results folder (:class:`~costsense.experiments.ResultsStore`).
    jobs : int, default=1
        Local worker processes (1 runs in this process).
    scheduler : str, default=None
        Address of a Dask scheduler; cells then run on that cluster.
    progress : callable, default=None
        ``progress(total, done)`` returns a bar with ``update(1)`` and ``close()``.
    restart : bool, default=False
        Start afresh: the results move into ``previous-<UTC time>`` inside.

    Returns
    -------
    RunSummary

    Raises
    ------
    StoreError
        If another run holds ``out`` (:class:`StoreLockedError`), ``out`` holds
        another study or definition (:class:`StoreConflictError`), or a file
        cannot be used (:class:`StoreFileError`).
    """
    with hold_run_lock(out, study.name):
        store = ResultsStore(out)
        moved_to = store.move_aside() if restart else None
        store.open(study.to_dict(), study.fingerprint())
        cells = plan(study)
        done = store.done_keys()
        todo = [cell for cell in cells if cell.key not in done]
        data = {name: dataset_spec(study, name) for name in study.datasets}
        bar = progress(len(cells), len(cells) - len(todo)) if progress else None
        started = time.perf_counter()

        def keep(row: dict[str, Any]) -> None:
            store.add(row)
            if bar is not None:
                bar.update(1)

        interrupted = False
        try:
            tasks = [(study, cell, data[cell.dataset]) for cell in todo]
            run_cells(run_cell, tasks, keep, jobs=jobs, scheduler=scheduler)
            save_boundaries(study, store, data)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if bar is not None:
                bar.close()
        skipped = len(cells) - len(todo)
        return RunSummary(
            total=len(cells),
            skipped=skipped,
            ran=len(store.done_keys()) - skipped,  # the store is the truth
            seconds=time.perf_counter() - started,
            interrupted=interrupted,
            warnings=tuple(store.warnings().lines(unit="cell")),
            moved_to=moved_to,
        )
