"""Files a run writes: inside its folder, never through a link; errors with a fix.

Every file a run or a report creates is written by :func:`write_atomically` (a
temporary file, then a rename: a reader sees the old file or the new, whole)
under folders made by :func:`make_folder`, which refuses a link planted below the
folder (the folder itself, ``--out``, may be one) or a path leaving it. What can
go wrong is a :class:`StoreError` naming the file, the cause and the fix.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

__all__ = [
    "OutputPathError",
    "StoreConflictError",
    "StoreError",
    "StoreFileError",
    "StoreLockedError",
    "file_error",
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


class OutputPathError(StoreFileError):
    """A file a run would write lies outside its folder or behind a link."""


#: The fix of a damaged results folder, named in every message that needs it.
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


#: Opening flags of a new file: created here, never an existing file or a link.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


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
        raise OutputPathError(
            f"{path} is outside the output folder {root}; a run writes only there"
        ) from None
    current = base
    for part in parts:
        current = current / part
        try:
            current.mkdir()
        except FileExistsError:
            pass
        if current.is_symlink() or not current.is_dir():
            raise OutputPathError(
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
        handle = os.open(temporary, _CREATE, 0o666)  # the umask applies
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise file_error(target, error) from error
