"""Files a run writes: inside its folder, never through a symbolic link.

A results folder may be shared, or written by someone else before the run: a
symbolic link planted there (``report.md -> ~/.bashrc``, ``figures -> /etc``)
would make the run write wherever it points. Every file a run or a report
creates goes through this module:

- :func:`make_folder` creates a folder under the run's folder, refusing a
  component that is a symbolic link or a path that leaves the folder;
- :func:`write_atomically` writes a file under a temporary name in its folder
  (created exclusively: never through a link), then renames it over the final
  name; a link at the final name is replaced, never written through;
- :func:`refuse_links` is the check both make, for writers that open files
  themselves (the SQLite store).

The run's folder itself (``--out``) is the user's choice and may be a link; what
lies below it may not.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from costsense.experiments._store_errors import StoreFileError

__all__ = ["OutputPathError", "make_folder", "refuse_links", "write_atomically"]

#: Opening flags of a new file: created here, never an existing file or a link.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


class OutputPathError(StoreFileError):
    """A file a run would write lies outside its folder or behind a link."""


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


def refuse_links(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """Refuse ``path`` if it leaves ``root`` or any part of it below is a link.

    Parameters
    ----------
    root : path-like
        The run's output folder.
    path : path-like
        A file or folder to write under it (it need not exist).

    Returns
    -------
    Path
        ``path`` made absolute.

    Raises
    ------
    OutputPathError
        Outside ``root``, or a component from ``root`` down to ``path`` (itself
        included) is a symbolic link; the message names it and the fix.
    """
    base = Path(os.path.abspath(root))
    current = base
    for part in _below(Path(root), Path(path)):
        current = current / part
        if current.is_symlink():
            raise OutputPathError(
                f"{current} is a symbolic link; a run never writes through one: "
                "remove it, or write to another folder (--out)"
            )
    return current


def make_folder(
    root: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None
) -> Path:
    """Create ``folder`` under ``root`` (and ``root``), refusing links below root.

    Parameters
    ----------
    root : path-like
        The run's output folder (created if missing).
    folder : path-like, default=None
        A folder under it; None for ``root`` itself.

    Returns
    -------
    Path
        The folder, absolute.

    Raises
    ------
    OutputPathError
        As :func:`refuse_links`, or a component exists and is not a folder.
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

    The temporary file is created exclusively in ``path``'s folder, so it is
    never a link; the rename replaces whatever ``path`` was (a link included)
    without writing through it. A reader sees the old file or the new, whole.

    Parameters
    ----------
    path : path-like
        The file to write.
    data : bytes
        Its content.
    root : path-like
        The run's output folder, which ``path`` must lie under.

    Returns
    -------
    Path
        ``path``, absolute.

    Raises
    ------
    OutputPathError
        As :func:`make_folder` for ``path``'s folder.
    OSError
        The system refused (a full disk); no temporary file is left.
    """
    target = Path(os.path.abspath(path))
    folder = make_folder(root, target.parent)
    while True:
        temporary = folder / f".{target.name}.{secrets.token_hex(6)}.part"
        try:  # the mode as for any new file (the umask applies)
            handle = os.open(temporary, _CREATE, 0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target
