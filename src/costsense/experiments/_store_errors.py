"""What can go wrong with a results folder, said with its file, its cause and its fix.

:class:`StoreError` is the base of every such error, so that a caller (the command
line) catches them with one clause:

- :class:`StoreConflictError`: the folder holds another study, or the definition
  a run would change without being told to;
- :class:`StoreLockedError`: another run is writing into the folder now;
- :class:`StoreFileError`: the store's file cannot be used: corrupted, not a
  SQLite file, an empty file, a full disk, a read-only folder.

:func:`store_file_error` turns SQLite's and the operating system's bare messages
into a :class:`StoreFileError` that names the file and the fix.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

__all__ = [
    "StoreConflictError",
    "StoreError",
    "StoreFileError",
    "StoreLockedError",
    "earlier_store_error",
    "empty_store_error",
    "store_file_error",
]


class StoreError(Exception):
    """A results folder cannot take this run; the message says why and the fix."""


class StoreConflictError(StoreError, ValueError):
    """A results folder holds another study's results, which a run would lose.

    Raised before any cell runs, or when a cell is about to be written into a
    store that records another study: write to another folder, or restart this
    one.
    """


class StoreLockedError(StoreConflictError):
    """Another run holds the folder's lock (``DIR/.lock``): it is writing there now.

    Raised before anything in the folder is read or changed: wait for that run to
    finish, or write to another folder.
    """


class StoreFileError(StoreError):
    """The results store's file cannot be read or written.

    Corrupted or not a SQLite file (``--restart`` moves it aside), a full disk
    (free space, then resume), a folder this process may not write (check its
    permissions, or write elsewhere).
    """


#: The fix of a corrupted store, named in every message that needs it.
_RESTART = (
    "costsense reproduce --restart (run_study(..., restart=True)) moves it aside, "
    "deleting nothing, and starts afresh"
)
_FULL = "free disk space, then run the same command again to resume"
_DENIED = (
    "check the folder's permissions (and that its file system is not read-only), "
    "or write to another folder (--out)"
)

#: Fragments of SQLite's messages, what they mean in plain words, and the fix.
_SQLITE_CAUSES = (
    ("file is not a database", "it is not a SQLite file or is corrupted", _RESTART),
    ("malformed", "it is corrupted", _RESTART),
    ("database or disk is full", "the disk is full", _FULL),
    ("disk i/o error", "reading or writing the disk failed (full or failing)", _FULL),
    ("readonly database", "this process may not write it", _DENIED),
    ("unable to open database file", "it cannot be opened or created", _DENIED),
    (
        "database is locked",
        "another process kept it locked for a minute",
        "wait for that process to finish, or write to another folder (--out)",
    ),
)

_OS_CAUSES = {
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


def _sqlite_cause(error: BaseException) -> sqlite3.Error | None:
    """Return the SQLite error behind ``error`` (pandas wraps them), or None.

    Only explicit causes (``raise ... from``) count: an error merely raised
    while another was handled is not that error.
    """
    seen: BaseException | None = error
    for _ in range(5):  # a short chain: the error, its cause, their causes
        if seen is None:
            return None
        if isinstance(seen, sqlite3.Error):
            return seen
        seen = seen.__cause__
    return None


def store_file_error(
    path: Path, error: BaseException, *, sqlite_only: bool = False
) -> StoreFileError | None:
    """Return the :class:`StoreFileError` that explains ``error`` on ``path``.

    Parameters
    ----------
    path : Path
        The file being used (``DIR/results.sqlite`` or ``DIR/.lock``).
    error : BaseException
        What SQLite or the operating system raised (a pandas error wrapping a
        SQLite error counts as that error).
    sqlite_only : bool, default=False
        Explain only SQLite's errors (an operating-system error then gives None).

    Returns
    -------
    StoreFileError or None
        One line naming ``path``, the cause in plain words and the fix; None when
        ``error`` is neither a SQLite error nor an operating-system error.

    Examples
    --------
    >>> import sqlite3
    >>> from pathlib import Path
    >>> full = sqlite3.OperationalError("database or disk is full")
    >>> print(store_file_error(Path("out/results.sqlite"), full))
    out/results.sqlite: the disk is full (SQLite: database or disk is full); free
    disk space, then run the same command again to resume.
    """
    sqlite_error = _sqlite_cause(error)
    if sqlite_error is not None:
        text = str(sqlite_error)
        for fragment, cause, fix in _SQLITE_CAUSES:
            if fragment in text.lower():
                return StoreFileError(f"{path}: {cause} (SQLite: {text}); {fix}.")
        return StoreFileError(
            f"{path}: SQLite failed ({type(sqlite_error).__name__}: {text}); if the "
            f"file is damaged, {_RESTART}."
        )
    if isinstance(error, OSError) and not sqlite_only:
        cause, fix = _OS_CAUSES.get(
            error.errno or 0, ("the operating system refused", _DENIED)
        )
        reason = error.strerror or str(error)
        return StoreFileError(f"{path}: {cause} ({reason}); {fix}.")
    return None


def earlier_store_error(path: Path, missing: list[str]) -> StoreFileError:
    """Return the error of a store of an earlier development version (not read)."""
    return StoreFileError(
        f"{path} was written by an earlier development version of costsense (its "
        f"cells have no {', '.join(missing)}); {_RESTART}."
    )


def empty_store_error(path: Path) -> StoreFileError:
    """Return the error of a 0-byte ``results.sqlite`` (a store cut off at birth)."""
    return StoreFileError(
        f"{path} is empty (0 bytes): not a results store, perhaps cut off while it "
        f"was created; {_RESTART}."
    )
