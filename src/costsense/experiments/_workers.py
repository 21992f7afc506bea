"""Local worker processes that end with their run.

joblib's loky workers are children of the run's process; when that process dies
without shutting them down (``kill -9``, an out-of-memory kill) they wait for
work until their idle timeout, minutes later, holding their memory (and, through
their pipes, loky's and multiprocessing's resource trackers). Two guards:

- :func:`watch_parent`, the workers' initializer (:func:`executor_options`): a
  daemon thread in each worker checks every second that the run's process is
  still its parent, and ends the worker at once when it is not (the parent died
  and the worker was handed to another process). The resource trackers exit on
  their own when the last worker holding their pipe is gone.
- :func:`worker_processes` / :func:`end_leftover_workers`: the run records its
  workers (pid and start time) in its lock file, and the next run into the
  folder ends those still alive after a crash (a worker stuck in compiled code
  that never lets the watch thread run), after proving that each is that run's
  worker: the same process (start time), a loky worker (command line), and
  carrying the run's key (below).

A lock file can be forged (anyone who can write the folder can write it), so
what it names proves nothing by itself. Each run process draws a secret key
(:func:`process_key`) that its local workers inherit in their environment
(:data:`WORKER_KEY`, set by :func:`executor`); its lock records only
:func:`worker_token`, a hash of that key and the folder. A process is ended only
if its own environment holds a key whose hash, with this folder, is the recorded
token: a forged lock naming another process (a ``sleep``, another run's worker,
a copy of another folder's token) ends nothing.

The watch is POSIX (a dead parent changes ``os.getppid()``); process identities
come from Linux's ``/proc`` (elsewhere nothing is recorded and nothing ended).
"""

from __future__ import annotations

import hashlib
import hmac
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from joblib import parallel_config

__all__ = [
    "POLL_SECONDS",
    "WORKER_KEY",
    "end_leftover_workers",
    "executor_options",
    "process_key",
    "process_start",
    "watch_parent",
    "worker_processes",
    "worker_token",
]

#: How often a worker checks that its run is alive (seconds).
POLL_SECONDS = 1.0
#: The environment variable in which a run's local workers carry its key.
WORKER_KEY = "COSTSENSE_WORKER_KEY"

#: This process's key and the pid it was drawn in (a forked child draws anew).
_KEY: tuple[int, str] | None = None


def process_key() -> str:
    """Return this process's secret key, drawn on first use.

    Returns
    -------
    str
        32 hex digits, never written anywhere but this process's workers'
        environment.
    """
    global _KEY
    if _KEY is None or _KEY[0] != os.getpid():
        _KEY = (os.getpid(), secrets.token_hex(16))
    return _KEY[1]


def _token(key: str, folder: str | os.PathLike[str]) -> str:
    text = f"{key}\0{os.path.realpath(folder)}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def worker_token(folder: str | os.PathLike[str]) -> str:
    """Return the token a lock on ``folder`` records for this process's workers.

    Parameters
    ----------
    folder : path-like
        The results folder.

    Returns
    -------
    str
        SHA-256 of :func:`process_key` and the folder's real path: proof of
        the key without revealing it, valid for this folder only.
    """
    return _token(process_key(), folder)


def _carries_token(pid: int, token: str, folder: str | os.PathLike[str]) -> bool:
    """Whether process ``pid``'s environment holds a key giving ``token`` here."""
    try:
        environment = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False  # gone, or not ours to read: nothing proven
    prefix = WORKER_KEY.encode() + b"="
    for entry in environment.split(b"\0"):
        if entry.startswith(prefix):
            key = entry[len(prefix) :].decode("utf-8", "replace")
            return hmac.compare_digest(_token(key, folder), token)
    return False


def watch_parent(parent: int, interval: float = POLL_SECONDS) -> None:
    """End this process when process ``parent`` is no longer its parent.

    A worker initializer: it starts a daemon thread and returns at once.

    Parameters
    ----------
    parent : int
        The run's process id (the workers' parent when they start).
    interval : float, default=POLL_SECONDS
        Seconds between checks.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)  # the run is gone: no one reads this worker's results

    threading.Thread(target=watch, name="costsense-watch-parent", daemon=True).start()


def executor_options() -> dict[str, Any]:
    """Return the loky backend's options that tie its workers to this process.

    Returns
    -------
    dict
        ``initializer`` and ``initargs`` for ``joblib.parallel_config``.
    """
    return {"initializer": watch_parent, "initargs": (os.getpid(),)}


def process_start(pid: int) -> int | None:
    """Return when process ``pid`` started (clock ticks since boot), or None.

    With the pid it names one process: a pid reused later has another start.

    Parameters
    ----------
    pid : int
        A process id.

    Returns
    -------
    int or None
        None when the process is gone, is a zombie, or the system has no
        ``/proc``.
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # fields after the command name in parentheses: state is field 3, start 22
    fields = text[text.rindex(")") + 2 :].split()
    if fields[0] == "Z":
        return None
    return int(fields[19])


def worker_processes() -> list[tuple[int, int | None]]:
    """Return this process's live loky workers, each ``(pid, start)``.

    Returns
    -------
    list of (int, int or None)
        Sorted by pid; ``start`` from :func:`process_start`.
    """
    return sorted(
        (child.pid, process_start(child.pid))
        for child in multiprocessing.active_children()
        if child.pid is not None and child.name.startswith("LokyProcess")
    )


def _is_loky_worker(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"loky" in command


def end_leftover_workers(
    workers: Iterable[Sequence[Any]],
    *,
    token: Any = None,
    folder: str | os.PathLike[str] | None = None,
) -> int:
    """End the recorded workers of a dead run that are still alive.

    Parameters
    ----------
    workers : iterable of (int, int or None)
        ``(pid, start)`` pairs as :func:`worker_processes` returned them in the
        dead run. A pair is ended only if that pid still has that start (the
        same process, not a reused pid), a loky worker's command line, and an
        environment whose key gives ``token`` with ``folder``.
    token : str, default=None
        The dead run's :func:`worker_token`, as its lock recorded it; None (or
        anything but a string) ends nothing.
    folder : path-like, default=None
        The results folder the lock is in; None ends nothing.

    Returns
    -------
    int
        How many processes were ended.
    """
    if not isinstance(token, str) or folder is None:
        return 0  # no proof that any process is that run's
    ended = 0
    for pair in workers:
        if len(pair) != 2:
            continue
        pid, start = pair
        if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 1:
            continue
        if start is None or process_start(pid) != start:
            continue
        if not _is_loky_worker(pid) or not _carries_token(pid, token, folder):
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue  # gone meanwhile, or not ours to end
        ended += 1
    return ended


def executor(jobs: int, scheduler: str | None) -> tuple[Any, Any]:
    """Return ``(context manager, client)`` selecting the joblib backend.

    ``scheduler=None`` gives ``jobs`` local loky processes, which watch this
    process and end when it dies (:func:`watch_parent`) and carry its key
    (:data:`WORKER_KEY`, proof that they are its workers); an address gives dask's
    backend on that cluster, whose client the caller closes.
    """
    if scheduler is None:
        os.environ[WORKER_KEY] = process_key()  # inherited by the workers it starts
        return parallel_config(backend="loky", n_jobs=jobs, **executor_options()), None
    from distributed import Client  # dask's cluster client: slow to load, only here

    client = Client(scheduler)
    return parallel_config(backend="dask", n_jobs=-1), client
