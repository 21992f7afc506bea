"""Model files of ``costsense fit``, read back by ``costsense predict``.

The file (:mod:`costsense.persist`) holds the fitted pipeline (column encoder,
scaling, model) and its metadata (costsense version, the feature columns and
their kinds, the classes, the costs, the training date), optionally signed.
:func:`load_checked` reads it in checked stages and nothing in it runs code: the
archive, signature and schema (:func:`costsense.persist.read_model`), the metadata
alone, then the constructed pipeline against it
(:mod:`costsense.cli._model_checks`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from costsense import __version__
from costsense.cli._model_checks import check_metadata, check_model
from costsense.exceptions import UsageError
from costsense.persist import DEFAULT_MAX_BYTES, read_model
from costsense.persist import save_model as _save

__all__ = ["FORMAT", "load_checked", "load_model", "save_model"]

#: The metadata format written and read (no other is read: a file of an earlier
#: development version is refused, naming the fix, fit it again).
FORMAT = "costsense-model/2"


def save_model(
    model: Any, metadata: dict[str, Any], path: Path, key: bytes | None = None
) -> None:
    """Write a fitted model and its metadata to a new file (signed if keyed)."""
    try:
        _save(model, path, metadata=metadata, key=key)
    except UsageError as error:
        raise UsageError(f"--out {error}") from None


def load_model(
    path: str, *, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Any, dict[str, Any]]:
    """Load a model file written by ``costsense fit``: (pipeline, metadata)."""
    model, metadata, _ = load_checked(path, key, max_bytes)
    return model, metadata


def load_checked(
    path: str, key: bytes | None, max_bytes: int
) -> tuple[Any, dict[str, Any], bool]:
    """:func:`load_model`, and whether the file is signed.

    Raises
    ------
    UsageError
        Naming the check the file failed (:func:`costsense.persist.read_model`),
        or the metadata's field that does not describe its model.
    """
    stored = read_model(path, key=key, max_bytes=max_bytes)
    check_metadata(stored.metadata, path, FORMAT)
    try:
        model = stored.construct()
        check_model(model, stored.metadata, path)
    except UsageError as error:
        written = stored.metadata["costsense_version"]
        if written == __version__:
            raise
        # another version's classes or defaults differ: say so, and the fix
        raise UsageError(
            f"{error} (the file was written by costsense {written[:40]}, this is "
            f"{__version__}: fit the model again with this version)"
        ) from None
    return model, stored.metadata, stored.signed
