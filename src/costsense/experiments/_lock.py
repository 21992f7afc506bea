"""A run's hold on its results folder: the lock file ``DIR/.lock``.

A run (:func:`costsense.experiments.run_study`, and ``costsense reproduce`` around
it and its report) holds an exclusive ``flock`` on ``DIR/.lock`` from before it
reads the store until it ends. The file says who holds it, as JSON: ``pid``
and ``pid_start`` (the process's start time: with the pid, it names one
process), ``run`` (a random identifier), ``host``, ``study``, ``started``
(UTC), ``command``, the run's local ``workers`` (pid and start time) and
``token``, the proof its workers carry (:mod:`costsense.experiments._workers`).

- A second run into the folder cannot take the lock: it is refused
  (:class:`~costsense.experiments._store_errors.StoreLockedError`) before it
  reads or moves anything, naming the running one; ``--restart`` too.
- The kernel releases a ``flock`` when its process dies, however it dies. A
  lock file that still names a holder but whose lock can be taken is therefore
  stale (that run was killed): the next run takes it over, says so
  (:attr:`RunLock.note`) and ends that run's leftover workers, and nothing
  else: only processes that prove they are that run's workers
  (:func:`~costsense.experiments._workers.end_leftover_workers`), and none when
  the process the lock names is alive (a forged or copied lock). Everything the
  file says is shown escaped (:func:`~costsense.utils._text.printable`).
- A run that ends empties the file and releases the lock; the file stays (a
  lock file deleted while another process opens it would let two runs hold
  two different files).

Within one process the lock is reentrant (:func:`hold_run_lock`): the command
line holds it around :func:`~costsense.experiments.run_study`, which holds it
again. Reading a store (``costsense report``) takes no lock.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from costsense.experiments._outputs import make_folder
from costsense.experiments._store_errors import (
    StoreLockedError,
    store_file_error,
)
from costsense.experiments._workers import (
    end_leftover_workers,
    process_start,
    worker_token,
)
from costsense.utils._text import printable

__all__ = ["RunLock", "hold_run_lock", "read_holder"]

#: The lock file's name inside the results folder.
LOCK_NAME = ".lock"
#: Open the lock file itself, never the file a link there points to.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` without waiting; False when held."""
    if sys.platform == "win32":
        import msvcrt

        # lock one byte far past the JSON, which other processes still read
        os.lseek(fd, 1 << 30, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 1 << 30, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def _read_info(fd: int) -> dict[str, Any] | None:
    """Return the holder JSON in ``fd``; None when empty or half-written."""
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 1 << 16)
    try:
        info = json.loads(text) if text.strip() else None
    except ValueError:
        return None
    return info if isinstance(info, dict) else None


def _describe(info: dict[str, Any]) -> str:
    """Return ``study 'x', pid N on HOST, since TIME`` for a holder's record."""
    shown = {key: printable(info.get(key), 80) for key in ("pid", "host", "started")}
    return (
        f"study '{printable(info.get('study'), 80)}', pid {shown['pid']} on "
        f"{shown['host']}, since {shown['started']}"
    )


def _names_live_process(info: dict[str, Any]) -> bool:
    """Whether the process a lock record names (pid and start) is alive."""
    pid, start = info.get("pid"), info.get("pid_start")
    if not isinstance(pid, int) or isinstance(pid, bool) or pid < 1:
        return False
    return start is not None and process_start(pid) == start


def read_holder(folder: str | Path) -> dict[str, Any] | None:
    """Return what ``folder``'s lock file says about its holder.

    Parameters
    ----------
    folder : str or Path
        A results folder.

    Returns
    -------
    dict or None
        The holder's record (``pid``, ``host``, ``study``, ``started``,
        ``command``, ``workers``) as its run wrote it; None when there is no lock
        file or it is empty (no run, or one that ended). A record whose lock can
        be taken is stale.
    """
    try:
        fd = os.open(Path(folder) / LOCK_NAME, os.O_RDONLY | _NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link planted at .lock: no run's record
            return None
        raise
    try:
        return _read_info(fd)
    finally:
        os.close(fd)


class RunLock:
    """The exclusive hold of one run on a results folder (``folder / ".lock"``).

    Parameters
    ----------
    folder : str or Path
        The results folder (created if missing).
    study : str
        The running study's name, recorded for the message a second run gets.

    Attributes
    ----------
    note : str
        After :meth:`acquire`: one line saying that a stale lock (a killed run's)
        was taken over and how many of its leftover workers were ended; empty
        otherwise.
    """

    def __init__(self, folder: str | Path, study: str) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.study = study
        self.note = ""
        self._fd: int | None = None
        self._info: dict[str, Any] = {}

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, or refuse: another run holds the folder.

        Raises
        ------
        StoreLockedError
            If another run holds the lock; the message names it (study, pid,
            host, start) and the fix.
        StoreFileError
            If the lock file cannot be created or written (a read-only folder, a
            full disk).
        """
        if self._fd is not None:
            raise RuntimeError(f"{self.path} is already held by this RunLock.")
        try:
            make_folder(self.folder)
            # never through a link planted at .lock
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o644)
        except OSError as error:
            raise (store_file_error(self.path, error) or error) from error
        try:
            if not _try_lock(fd):
                holder = _read_info(fd)
                who = (
                    _describe(holder)
                    if holder
                    else "its study and pid are not written yet"
                )
                command = (
                    f", command: {printable(holder.get('command'))}" if holder else ""
                )
                raise StoreLockedError(
                    f"{self.folder} is in use by another run ({who}{command}); "
                    "wait for it to finish, or write to another folder (--out)."
                )
            stale = _read_info(fd)
            self._fd = fd
            self._info = {
                "pid": os.getpid(),
                "pid_start": process_start(os.getpid()),
                "run": uuid.uuid4().hex,
                "token": worker_token(self.folder),
                "host": socket.gethostname(),
                "study": self.study,
                "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
                "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
                "workers": [],
            }
            self._write()
        except BaseException:
            if self._fd is not None:
                self.release()
            else:
                os.close(fd)
            raise
        if stale is not None:
            self.note = self._take_over(stale)

    def _take_over(self, stale: dict[str, Any]) -> str:
        """End a killed holder's leftover workers; return the note saying so.

        Only processes that prove to be its workers are ended
        (:func:`end_leftover_workers`: same start, a loky worker, the recorded
        token in their environment), and none when the record names a live
        process (a run that is alive holds its lock: this record is forged).
        """
        if _names_live_process(stale):
            return (
                f"took over {self.path}, whose record names a live process that "
                f"does not hold it ({_describe(stale)}); no process was signalled"
            )
        ended = 0
        workers = stale.get("workers", [])
        if stale.get("host") == self._info["host"] and isinstance(workers, list):
            ended = end_leftover_workers(
                [tuple(p) for p in workers if isinstance(p, list)],
                token=stale.get("token"),
                folder=self.folder,
            )
        done = f"; ended {ended} of its leftover worker processes" if ended else ""
        return (
            f"took over {self.path} from a run that ended without releasing it "
            f"({_describe(stale)}){done}"
        )

    def _write(self) -> None:
        assert self._fd is not None
        data = (json.dumps(self._info) + "\n").encode()
        try:
            os.ftruncate(self._fd, 0)
            os.lseek(self._fd, 0, os.SEEK_SET)
            os.write(self._fd, data)
        except OSError as error:
            raise (store_file_error(self.path, error) or error) from error

    def record_workers(self, workers: list[tuple[int, int | None]]) -> None:
        """Record the run's local worker processes, when they changed.

        Parameters
        ----------
        workers : list of (int, int or None)
            ``(pid, start)`` pairs (:func:`costsense.experiments._workers.
            worker_processes`), ended by the next run if this one is killed.
        """
        pairs = [[pid, start] for pid, start in workers]
        if self._fd is None or pairs == self._info["workers"]:
            return
        self._info["workers"] = pairs
        self._write()

    def release(self) -> None:
        """Empty the lock file and release the lock (the file stays)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, 0)  # an empty file: no run holds the folder
        except OSError:
            pass  # a stale record is harmless: the lock can be taken
        finally:
            try:
                _unlock(fd)
            finally:
                os.close(fd)

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


#: The locks this process holds, by resolved folder: taken again, they are shared.
_HELD: dict[Path, RunLock] = {}


@contextmanager
def hold_run_lock(folder: str | Path, study: str) -> Iterator[RunLock]:
    """Hold ``folder``'s run lock for the ``with`` block (reentrant in a process).

    Parameters
    ----------
    folder : str or Path
        The results folder.
    study : str
        The running study's name.

    Yields
    ------
    RunLock
        The held lock; its :attr:`~RunLock.note` says whether a stale lock was
        taken over.

    Raises
    ------
    StoreLockedError
        If another run holds the folder, or this process holds it for another
        study.
    StoreFileError
        If the lock file cannot be created or written.
    """
    key = Path(folder).resolve()
    held = _HELD.get(key)
    if held is not None:
        if held.study != study:
            raise StoreLockedError(
                f"{folder} is in use by this process's run of study "
                f"{held.study!r}; write study {study!r} to another folder (--out)."
            )
        yield held
        return
    lock = RunLock(folder, study)
    lock.acquire()
    _HELD[key] = lock
    try:
        yield lock
    finally:
        del _HELD[key]
        lock.release()
