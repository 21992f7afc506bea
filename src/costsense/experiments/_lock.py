"""A run's hold on its results folder: an exclusive ``flock`` on ``DIR/.lock``.

A second run is refused, naming the holder the file records, before it reads or
moves anything; the kernel releases the lock however the run ends. POSIX only.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from costsense.experiments._outputs import StoreLockedError, file_error, make_folder
from costsense.utils._text import printable

__all__ = ["hold_run_lock"]

#: The folders this process holds, and for which study.
_HELD: dict[Path, str] = {}


@contextmanager
def hold_run_lock(folder: str | Path, study: str) -> Iterator[None]:
    """Hold ``folder``'s run lock for the ``with`` block (reentrant in a process).

    Parameters
    ----------
    folder : str or Path
        The results folder (created if missing).
    study : str
        The running study's name, shown to a second run.

    Raises
    ------
    StoreLockedError
        If another run holds the folder (or this process, for another study).
    StoreFileError
        If the lock file cannot be created or written.
    """
    key = Path(folder).resolve()
    if key in _HELD:
        if _HELD[key] != study:
            raise StoreLockedError(
                f"{folder} is in use by this process's run of study {_HELD[key]!r}; "
                f"write study {study!r} to another folder (--out)."
            )
        yield
        return
    path = Path(folder) / ".lock"
    try:
        make_folder(folder)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as error:
        raise file_error(path, error) from error
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreLockedError(
                f"{folder} is in use by another run ({_holder(fd)}); wait for it "
                "to finish, or write to another folder (--out)."
            ) from None
        holder = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "study": study,
            "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
            "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        }
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(holder).encode(), 0)
        except OSError as error:
            raise file_error(path, error) from error
        _HELD[key] = study
        try:
            yield
        finally:
            del _HELD[key]
            os.ftruncate(fd, 0)  # an empty file: no run holds the folder
    finally:
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    """Describe the run a lock file names, escaped (anyone may write it)."""
    try:
        info = json.loads(os.pread(fd, 1 << 16, 0))
    except ValueError:
        info = None
    if not isinstance(info, dict):
        return "its study and pid are not written yet"
    shown = {k: printable(info.get(k), 80) for k in ("study", "pid", "host", "started")}
    return (
        f"study '{shown['study']}', pid {shown['pid']} on {shown['host']}, since "
        f"{shown['started']}, command: {printable(info.get('command'))}"
    )
