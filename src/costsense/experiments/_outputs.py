"""A run's folder: its lock, the files written there, errors with a fix.

The lock is an ``flock`` (POSIX only); files are written atomically and never
through a planted link; every error names the file, the cause and the fix.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from costsense.utils._text import printable

__all__ = [
    "StoreConflictError",
    "StoreError",
    "StoreFileError",
    "StoreLockedError",
    "file_error",
    "hold_run_lock",
    "make_folder",
    "write_atomically",
]


class StoreError(Exception):
    """A results folder cannot take this run; the message says why and the fix."""


class StoreConflictError(StoreError, ValueError):
    """A results folder holds another study's results: refused before any cell runs."""


class StoreLockedError(StoreConflictError):
    """Another run holds the folder's lock (``DIR/.lock``): it is writing there now."""


class StoreFileError(StoreError):
    """A file of the results folder cannot be read or written."""


#: The fix of a damaged results folder.
RESTART = "--restart (restart=True) moves the results aside and starts afresh"
_FULL = "free disk space, then run the same command again to resume"
_DENIED = (
    "check the folder's permissions (and that its file system is not read-only), "
    "or write to another folder (--out)"
)
_CAUSES = {
    # (before ENOSPC, which stands in for it where the system has no EDQUOT)
    getattr(errno, "EDQUOT", errno.ENOSPC): ("the disk quota is used up", _FULL),
    errno.ENOSPC: ("the disk is full", _FULL),
    errno.EACCES: ("this process may not write there", _DENIED),
    errno.EPERM: ("this process may not write there", _DENIED),
    errno.EROFS: ("the file system is read-only", _DENIED),
    errno.ELOOP: (
        "it is a symbolic link, which a run never writes through",
        "remove the link, or write to another folder (--out)",
    ),
}


def file_error(path: Path, error: OSError) -> StoreFileError:
    """Return the :class:`StoreFileError` naming ``path``, the cause and the fix."""
    cause, fix = _CAUSES.get(error.errno or 0, ("the system refused", _DENIED))
    return StoreFileError(f"{path}: {cause} ({error.strerror or error}); {fix}.")


def make_folder(
    root: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None
) -> Path:
    """Create ``folder`` under ``root`` (``root`` if None), never through a link."""
    base = Path(os.path.abspath(root))
    base.mkdir(parents=True, exist_ok=True)
    path = folder if folder is not None else base
    try:  # abspath removes '..' without following links
        parts = Path(os.path.abspath(path)).relative_to(base).parts
    except ValueError:
        raise StoreFileError(
            f"{path} is outside the output folder {root}; a run writes only there"
        ) from None
    current = base
    for part in parts:
        current = current / part
        with suppress(FileExistsError):
            current.mkdir()
        if current.is_symlink() or not current.is_dir():
            raise StoreFileError(
                f"{current} is a symbolic link or not a folder; a run never writes "
                "through one: remove it, or write to another folder (--out)"
            )
    return current


def write_atomically(
    path: str | os.PathLike[str], data: bytes, *, root: str | os.PathLike[str]
) -> None:
    """Write ``data`` to ``path`` under ``root`` by a new temporary file and a rename.

    The rename replaces whatever ``path`` was, a link included, without writing
    through it; a refusal leaves no temporary file.
    """
    target = Path(os.path.abspath(path))
    try:
        folder = make_folder(root, target.parent)
        temporary = folder / f".{target.name}.{secrets.token_hex(8)}.part"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW  # a new file
        handle = os.open(temporary, flags, 0o666)  # the umask applies
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise file_error(target, error) from error


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
    StoreError
        If another run (or this process, for another study) holds the folder
        (StoreLockedError), or the lock file cannot be written (StoreFileError).
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
