"""Model files of ``costsense fit``: written, and read back in checked stages.

The file holds the fitted pipeline (column encoder, scaling, model) and its
metadata (costsense version, the feature columns and their kinds, the classes, the
costs, the training date) as JSON, optionally signed under a user's key.
:func:`load_model` reads it in three stages, and nothing in the file runs code:
:mod:`costsense.cli._model_file` checks the archive, the signature and every node
of the schema against an exact list of types before skops constructs anything;
:mod:`costsense.cli._model_checks` checks the metadata alone, then the constructed
pipeline against it (the same model, parameters, classes and columns; tree indices
in range) before it predicts. ``fit`` writes and ``predict`` reads through here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from costsense import __version__
from costsense.cli._model_checks import check_metadata, check_model
from costsense.cli._model_file import (
    DEFAULT_MAX_BYTES,
    read_model_file,
    write_model_file,
)
from costsense.cli._options import UsageError

__all__ = ["FORMAT", "load_checked", "load_model", "save_model"]

#: The metadata format written and read by this version (no other is read: a file
#: of an earlier development version is refused, naming the fix, fit it again).
FORMAT = "costsense-model/2"


def save_model(
    model: Any, metadata: dict[str, Any], path: Path, key: bytes | None = None
) -> None:
    """Write a fitted model and its metadata to a new skops file (signed if keyed)."""
    write_model_file(model, metadata, path, key)


def load_model(
    path: str, *, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Any, dict[str, Any]]:
    """Load a model file written by ``costsense fit``: (pipeline, metadata).

    Parameters
    ----------
    path : str
        The model file.
    key : bytes, optional
        Refuse the file unless it is signed under this key.
    max_bytes : int
        Refuse a larger file.

    Raises
    ------
    UsageError
        The file is missing, too large, not a costsense model, unsigned or
        signed under another key, holds a type no ``costsense fit`` model holds
        (named), declares arrays it does not hold, or its metadata does not
        describe its model (the field named).
    """
    model, metadata, _ = load_checked(path, key, max_bytes)
    return model, metadata


def load_checked(
    path: str, key: bytes | None, max_bytes: int
) -> tuple[Any, dict[str, Any], bool]:
    """:func:`load_model`, and whether the file is signed."""
    stored = read_model_file(path, key=key, max_bytes=max_bytes)
    check_metadata(stored.metadata, path, FORMAT)
    try:
        model = stored.construct(path)
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
