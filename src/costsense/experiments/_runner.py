"""Run a study: its unfinished cells, anywhere, each saved as it finishes.

Cells (:mod:`costsense.experiments._plan`) run through joblib: in this process
(``jobs=1``), in ``jobs`` local processes, or on a Dask cluster
(``scheduler="tcp://..."``, dask's joblib backend). Results come back in
completion order and are saved one by one, so an interruption loses only the
cells in flight; a re-run skips the saved ones. Whichever way they ran, the saved
numbers are the same.

A re-run after the study definition changed keeps every saved cell whose own
definition (:meth:`~costsense.experiments._plan.Cell.definition`: dataset, cost,
algorithm and its parameters, split, scaling, seed) did not change, and drops the
others, which run again; ``restart=True`` moves the old store aside and starts
afresh. A run holds its folder's lock from start to end
(:mod:`costsense.experiments._lock`): a second run into the folder is refused, a
killed run's lock is taken over, and local workers end with the process that
started them (:mod:`costsense.experiments._workers`). The warnings a cell raises
are recorded in the worker, saved with the cell and summarised per algorithm
(:mod:`costsense.experiments._warnings`); none is printed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed

from costsense.experiments._boundary import save_boundaries
from costsense.experiments._cell import run_cell
from costsense.experiments._lock import hold_run_lock
from costsense.experiments._outputs import refuse_links
from costsense.experiments._plan import Cell, plan
from costsense.experiments._store import ResultsStore, StoreConflictError
from costsense.experiments._study import IDENTIFIER, Study, study_from_record
from costsense.experiments._workers import executor, worker_processes

__all__ = ["RunSummary", "run_study"]


@dataclass(frozen=True)
class RunSummary:
    """What a run did.

    Attributes
    ----------
    total : int
        Cells of the study.
    skipped : int
        Cells already in the store.
    ran : int
        Cells run and saved now.
    seconds : float
        Wall time of this run.
    interrupted : bool
        Whether the run was interrupted (Ctrl-C) before finishing.
    dropped : int
        Saved cells deleted before the run because their definition changed or
        the study no longer has them (the changed ones ran again).
    warnings : tuple of str
        One line per (algorithm, warning category) over every cell in the store
        (:meth:`costsense.experiments._warnings.WarningTally.lines`): the count,
        in how many cells, the message and what to change; empty when no fit
        warned.
    moved_to : Path or None
        With ``restart=True``, the folder the previous store was moved into
        (None when there was none).
    """

    total: int
    skipped: int
    ran: int
    seconds: float
    interrupted: bool
    dropped: int = 0
    warnings: tuple[str, ...] = ()
    moved_to: Path | None = None


def run_study(
    study: Study,
    out: str | Path,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int, int], Any] | None = None,
    on_cell: Callable[[dict[str, Any]], None] | None = None,
    restart: bool = False,
) -> RunSummary:
    """Run every unfinished cell of ``study`` and save it under ``out``.

    A store holding an earlier definition of the study keeps the cells whose
    definition (:meth:`Cell.definition`) is unchanged; the cells that changed or
    that the study no longer has are deleted (the changed ones run again), and
    so are the decision-boundary grids of their (dataset, cost) rows.

    Parameters
    ----------
    study : Study
        The study.
    out : str or Path
        Output folder holding the results store.
    jobs : int, default=1
        Local worker processes (1 runs in this process).
    scheduler : str, default=None
        Address of a Dask scheduler; cells then run on that cluster.
    progress : callable, default=None
        Called as ``progress(total, done)``; returns an object with ``update(1)``
        and ``close()`` (a tqdm bar).
    on_cell : callable, default=None
        Called with each saved cell.
    restart : bool, default=False
        Start afresh: the existing store (``results.sqlite`` and ``artifacts``)
        moves into a folder ``previous-<UTC time>`` inside ``out``; nothing is
        deleted.

    Returns
    -------
    RunSummary

    Raises
    ------
    StoreLockedError
        If another run holds ``out`` (:func:`hold_run_lock`): refused before
        anything there is read or moved (also with ``restart=True``).
    StoreConflictError
        If ``out`` holds another study, or the full study and ``study`` is its
        ``--quick`` version (that would delete the full study's other cells);
        also if another run re-initialised the store during this one (no cell
        of this run is written into it then).
    StoreFileError
        If the store cannot be used: corrupted or 0 bytes (``restart=True``
        moves it aside), a full disk, a read-only folder.

    Notes
    -----
    The run holds ``out``'s lock (``out/.lock``, :func:`hold_run_lock`) from
    start to end, so two runs never write one store; a lock left by a killed
    run is taken over, and that run's leftover workers ended. Local workers
    end within about a second when this process dies.
    """
    with hold_run_lock(out, study.name) as lock:
        store = ResultsStore(out)
        moved_to = store.move_aside() if restart else None
        cells = plan(study)
        stale = _stale_keys(study, cells, store)
        store.initialise(study.to_dict(), study.fingerprint(), drop=stale)
        for dataset, cost in sorted({tuple(key.split("|")[:2]) for key in stale}):
            if IDENTIFIER.fullmatch(dataset):  # a saved key names no other file
                boundary = store.artifacts / f"boundary_{dataset}_{cost}.npz"
                refuse_links(store.folder, boundary.parent)
                boundary.unlink(missing_ok=True)
        done = store.done_keys()
        todo = [cell for cell in cells if cell.key not in done]
        bar = progress(len(cells), len(cells) - len(todo)) if progress else None
        started = time.perf_counter()
        interrupted = False
        context, client = executor(jobs, scheduler)
        try:
            with context:
                results: Iterable[dict[str, Any]] = Parallel(
                    n_jobs=jobs if scheduler is None else -1,
                    return_as="generator_unordered",
                )(delayed(run_cell)(study, cell) for cell in todo)
                lock.record_workers(worker_processes())
                for row in results:
                    store.add(row)
                    lock.record_workers(worker_processes())
                    if bar is not None:
                        bar.update(1)
                    if on_cell is not None:
                        on_cell(row)
            save_boundaries(study, store)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if bar is not None:
                bar.close()
            if client is not None:
                client.close()
        skipped = len(cells) - len(todo)
        return RunSummary(
            total=len(cells),
            skipped=skipped,
            ran=len(store.done_keys()) - skipped,  # the store is the truth
            seconds=time.perf_counter() - started,
            interrupted=interrupted,
            dropped=len(stale),
            warnings=tuple(store.warnings().lines(unit="cell")),
            moved_to=moved_to,
        )


def _stale_keys(study: Study, cells: list[Cell], store: ResultsStore) -> set[str]:
    """Keys of saved cells whose definition changed or that ``study`` lacks.

    The saved cells were run under the store's recorded study (each run
    records its definition after deleting what no longer fits it), so their
    definitions are recomputed from that record.
    """
    record = store.recorded_study()
    done = store.done_keys()
    if record is None or not done:
        return set()
    if record["name"] != study.name:
        raise StoreConflictError(
            f"{store.folder} holds results of study {record['name']!r}, not "
            f"{study.name!r}; write {study.name!r} to another folder (--out), or "
            "restart this one (--restart moves its results aside)."
        )
    recorded = study_from_record(record)
    before = {cell.key: cell.definition(recorded) for cell in plan(recorded)}
    now = {cell.key: cell.definition(study) for cell in cells}
    stale = {key for key in done if key not in now or before.get(key) != now[key]}
    removed = {key for key in done if key not in now}
    if study.quick and not record.get("quick", False) and removed:
        raise StoreConflictError(
            f"{store.folder} holds the full study {record['name']!r}; its quick "
            f"version would delete {len(removed)} of its cells. Write the quick run "
            "to another folder (--out), or restart this one."
        )
    return stale
