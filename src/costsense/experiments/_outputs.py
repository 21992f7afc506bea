"""Files a run writes: inside its folder, never through a link; errors with a fix.

A results folder may be shared, or written by someone else before the run: a
symbolic link planted there (``report.md -> ~/.bashrc``, ``figures -> /etc``)
would make the run write wherever it points. Every file a run or a report
creates goes through :func:`write_atomically` (a temporary file created
exclusively, then renamed over the final name: a reader sees the old file or
the new, whole) under folders made by :func:`make_folder`, which refuses a
component that is a link or a path that leaves the folder. The run's folder
itself (``--out``) is the user's choice and may be a link.

What can go wrong with a folder is a :class:`StoreError` naming the file, the
cause and the fix: :class:`StoreConflictError` (another study's results),
:class:`StoreLockedError` (another run is writing there), :class:`StoreFileError`
(a file cannot be used: corrupted, a full disk, a read-only folder, a link).
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


def _below(root: Path, path: Path) -> tuple[str, ...]:
    """Return the components of ``path`` below ``root``, refusing one outside."""
    base = Path(os.path.abspath(root))
    full = Path(os.path.abspath(path))  # '..' removed without following links
    try:
        parts = full.relative_to(base).parts
    except ValueError:
        raise OutputPathError(
            f"{path} is outside the output folder {root}; a run writes only there"
        ) from None
    return parts


def make_folder(
    root: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None
) -> Path:
    """Create ``folder`` under ``root`` (``root`` itself if None); return it absolute.

    Raises :class:`OutputPathError` for a path outside ``root``, or a component
    below it that is a symbolic link or not a folder.
    """
    base = Path(os.path.abspath(root))
    base.mkdir(parents=True, exist_ok=True)
    current = base
    for part in _below(base, Path(folder if folder is not None else base)):
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
) -> Path:
    """Write ``data`` to ``path`` under ``root``: a temporary file, then a rename.

    The temporary file is created exclusively (never a link) in a folder of
    :func:`make_folder`; the rename replaces whatever ``path`` was, a link
    included, without writing through it. On an error (``OSError``: a full
    disk) no temporary file is left. Returns ``path``, absolute.
    """
    target = Path(os.path.abspath(path))
    folder = make_folder(root, target.parent)
    while True:
        temporary = folder / f".{target.name}.{secrets.token_hex(6)}.part"
        try:  # the mode as for any new file (the umask applies)
            handle = os.open(temporary, _CREATE, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target
