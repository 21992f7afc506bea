"""Save a fitted model to a file, and load it back without running code from it.

A model file is a skops archive (skops comes with the ``experiments`` extra)
holding the model and a JSON metadata mapping, optionally signed with HMAC-SHA256
under the user's key. :func:`read_model` checks, before skops constructs one object:

1. **the archive**: at most ``max_bytes`` on disk, read once (the file cannot
   change between the checks and the load); members named as skops names them,
   none twice, none compressed (:func:`save_model` stores them, so a member holds
   exactly its declared size: no zip bomb);
2. **the signature**, when a key is given;
3. **the schema**: bounded in bytes, values and depth, of this skops's protocol;
   every node's loader and type on an exact list (costsense's classes by their
   public path, never a module prefix); array headers read without numpy's
   loader, free of Python objects, their shapes matching their bytes; object
   arrays of plain strings only; allocations held to what a fitted model has;
4. **what skops will build**: no cached node (one tree counted a million times),
   the array bytes read over every node at most twice the file's size.

Only then does skops construct the model, trusting exactly the types found, and
:func:`check_fitted` holds every fitted tree's indices to its arrays and to the
model's input (compiled predictors do not check bounds). A file whose allowed
numbers were edited (a model that predicts badly on purpose) passes these
checks: a signature refuses every edit, for whoever holds the key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from costsense.exceptions import UsageError
from costsense.persist._archive import (
    SIGNATURE_MEMBER,
    fail,
    link_new,
    open_archive,
    read_regular,
    sign,
    verify,
)
from costsense.persist._archive import write_new as _write_new
from costsense.persist._fitted import UNBOUNDED, check_fitted
from costsense.persist._schema import Walker, read_schema

__all__ = [
    "DEFAULT_MAX_BYTES",
    "StoredModel",
    "check_fitted",
    "link_new",
    "load_model",
    "read_key",
    "read_model",
    "save_model",
]

#: Largest model file read by default.
DEFAULT_MAX_BYTES = 1 << 30
#: Largest key file read (a key is tens of bytes), and the shortest key.
MAX_KEY_BYTES, MIN_KEY_BYTES = 64 << 10, 16


@dataclass(frozen=True)
class StoredModel:
    """A model file that passed every check before construction.

    ``path``, the archive's bytes as read (``data``), the dotted names of the
    (allowed) ``types`` it builds, its ``metadata``, and whether it is ``signed``.
    """

    path: str
    data: bytes
    types: list[str]
    metadata: dict[str, Any]
    signed: bool

    def construct(self) -> Any:
        """Build the model with skops, trusting exactly :attr:`types`."""
        import skops.io

        try:
            return skops.io.loads(self.data, trusted=self.types)["model"]
        except Exception as error:
            raise UsageError(
                f"model file {self.path} passed the checks but skops could not build "
                f"it ({type(error).__name__}: {error}); fit the model again"
            ) from None


def save_model(
    model: Any,
    path: str | Path,
    *,
    metadata: dict[str, Any] | None = None,
    key: bytes | None = None,
) -> None:
    """Write a fitted model and its metadata to a new file, whole or not at all.

    Parameters
    ----------
    model : estimator
        A fitted model built from the types :func:`load_model` allows.
    path : str or Path
        The file; it must not exist (nothing is replaced).
    metadata : dict, optional
        JSON-serialisable facts stored beside the model.
    key : bytes, optional
        Sign the file with HMAC-SHA256 under this key.

    Raises
    ------
    UsageError
        The file exists, appeared meanwhile, or could not be written.
    """
    import skops.io

    data = skops.io.dumps({"metadata": json.dumps(metadata or {}), "model": model})
    _write_new(Path(path), data if key is None else sign(data, key))


def read_model(
    path: str | Path, *, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> StoredModel:
    """Read and check a model file without constructing any object.

    Parameters
    ----------
    path : str or Path
        The file.
    key : bytes, optional
        Refuse the file unless it is signed under this key.
    max_bytes : int, default=2**30
        Refuse a larger file.

    Returns
    -------
    StoredModel

    Raises
    ------
    UsageError
        Naming the check the file failed: its size, a member, the signature, a
        node's loader or type (by its dotted name), an array's declared size.
    """
    import zipfile
    import zlib

    path = str(path)
    fix = "if you trust it, raise max_bytes (costsense predict --max-model-mb)"
    data = read_regular(path, max_bytes, "model file", fix)
    with open_archive(data, path) as archive:
        if key is not None:
            verify(archive, key, path)
        try:
            schema = read_schema(archive, path)
            types = Walker(archive, path).types(schema, len(data))
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            # a member whose local header or checksum disagrees with the index
            raise fail(path, f"it is damaged ({error})") from None
        signed = SIGNATURE_MEMBER in archive.namelist()
    return StoredModel(path, data, sorted(types), _metadata(schema, path), signed)


def load_model(
    path: str | Path, *, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Any, dict[str, Any]]:
    """Load a model saved by :func:`save_model`, checked before and after it is built.

    Parameters
    ----------
    path : str or Path
        The file.
    key : bytes, optional
        Refuse the file unless it is signed under this key.
    max_bytes : int, default=2**30
        Refuse a larger file.

    Returns
    -------
    model : estimator
    metadata : dict

    Raises
    ------
    UsageError
        The file is missing, too large, not a model file, unsigned or signed under
        another key, holds a type no costsense model holds (named), declares arrays
        it does not hold, or a fitted tree indexes outside its arrays.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from costsense.persist import load_model, save_model
    >>> from costsense.tree import CostSensitiveTreeClassifier
    >>> model = CostSensitiveTreeClassifier().fit([[0.0], [1.0]], [0, 1])
    >>> path = Path(tempfile.mkdtemp()) / "tree.skops"
    >>> save_model(model, path, metadata={"note": "a demo"})
    >>> loaded, metadata = load_model(path)
    >>> loaded.predict([[1.0]]).tolist(), metadata
    ([1], {'note': 'a demo'})
    """
    stored = read_model(path, key=key, max_bytes=max_bytes)
    model = stored.construct()
    check_fitted(model, UNBOUNDED, stored.path)
    return model, stored.metadata


def read_key(path: str | Path, what: str = "key file") -> bytes:
    """Read a signing key: a regular file's bytes, without surrounding white space.

    A pipe or a device is refused (``/dev/zero`` would fill memory, a pipe wait
    forever), and so is a file over 64 KiB or a key under 16 bytes; ``what``
    names the file in messages (on the command line, its option).
    """
    fix = "a key is a short secret (for example: head -c 32 /dev/urandom | base64)"
    key = read_regular(str(path), MAX_KEY_BYTES, what, fix).strip()
    if len(key) < MIN_KEY_BYTES:
        raise UsageError(
            f"{what} {path} holds {len(key)} bytes; a key needs at least "
            f"{MIN_KEY_BYTES} (for example: head -c 32 /dev/urandom | base64 > {path})"
        )
    return key


def _metadata(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """Parse the metadata string stored beside the model."""
    content = schema.get("content")
    if (
        schema.get("__loader__") != "DictNode"
        or not isinstance(content, dict)
        or set(content) != {"metadata", "model"}
    ):
        raise UsageError(f"model file {path} is not a model written by save_model")
    node = content["metadata"]
    try:
        text = json.loads(node["content"]) if node["__loader__"] == "JsonNode" else None
        metadata = json.loads(text) if isinstance(text, str) else None
    except (KeyError, TypeError, ValueError, RecursionError):
        metadata = None
    if not isinstance(metadata, dict):
        raise fail(path, "it has no readable metadata")
    return metadata
