"""Model files: written with skops, read only after every check that needs no object.

A model file is a skops archive (a zip holding ``schema.json`` and one ``.npy``
member per numeric array). skops builds each object a schema node names, so a
file is only as safe as the list of types the loader trusts, and the members it
reads before any check decide its memory. :func:`read_model_file` therefore
checks, in this order, before skops constructs a single object:

1. **the archive**: at most ``max_bytes`` on disk (read once, so the file cannot
   change between the checks and the load); members named as skops names them,
   none twice, none compressed (``costsense fit`` writes them stored, so a member
   holds exactly its declared size and no zip bomb can inflate);
2. **the signature**, when a key is given: an HMAC-SHA256 of every member under
   the user's key, written by ``costsense fit --sign-key-file``;
3. **the schema** (:mod:`costsense.cli._model_schema`): bounded in bytes,
   values and depth, written with this skops's protocol; every node's
   loader and type on the exact list of :mod:`costsense.cli._model_types`; every
   array's ``.npy`` header read without numpy's loader, its data type free of
   Python objects and its shape matching the bytes present; the nodes whose
   construction allocates by a stored number (a scikit-learn tree's outputs and
   node count, a random generator's seed pool) held to the numbers a fitted
   model has; object arrays holding plain strings only (a genuine model's
   labels and column names), so no estimator or tree can hide in one from the
   checks that follow construction;
4. **the size of what skops will build**: no cached node (skops' reference to an
   object built earlier, which a file could use to make one tree count a
   million times; ``costsense fit`` never writes one), and the array members'
   bytes summed over every node that reads them at most
   ``MAX_ARRAY_READS`` times the file's size (skops reads a member once per
   node naming it), so loading takes memory and time in proportion to the file.

Only then does ``skops.io.loads`` run, on the bytes already read, trusting exactly
the types found. What skops and these checks do not protect against: a file whose
every type is allowed but whose fitted numbers were edited (a model that predicts
badly on purpose). :mod:`costsense.cli._model_checks` refuses the edits it can see
(metadata against the stored model, tree indices out of range); a signature refuses
every edit, for whoever holds the key.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from costsense.cli._model_schema import ARRAY_MEMBER, SchemaWalker, read_schema
from costsense.cli._options import UsageError

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ModelFile",
    "read_key",
    "read_model_file",
    "write_model_file",
]

#: Largest model file read by default (``predict --max-model-mb`` changes it).
DEFAULT_MAX_BYTES = 1 << 30
#: Most members in an archive.
MAX_MEMBERS = 500_000
#: The member holding the signature.
SIGNATURE_MEMBER = "costsense-signature.json"
#: Shortest signing key, in bytes.
MIN_KEY_BYTES = 16


@dataclass(frozen=True)
class ModelFile:
    """A model file that passed every check, not yet constructed.

    Attributes
    ----------
    data : bytes
        The archive as read.
    schema : dict
        Its parsed ``schema.json``.
    types : list of str
        The dotted names of the types its nodes build (all allowed).
    metadata : dict
        The metadata ``costsense fit`` stored beside the model (not yet checked
        against it).
    signed : bool
        Whether the archive holds a signature.
    """

    data: bytes
    schema: dict[str, Any]
    types: list[str]
    metadata: dict[str, Any]
    signed: bool

    def construct(self, path: str) -> Any:
        """Build the stored pipeline with skops, trusting exactly :attr:`types`."""
        import skops.io

        try:
            content = skops.io.loads(self.data, trusted=self.types)
        except Exception as error:
            raise UsageError(
                f"--model {path} passed the checks but skops could not build it "
                f"({type(error).__name__}: {error}); fit the model again"
            ) from None
        return content["model"]


#: Largest key file read (a key is tens of bytes; a pipe or a device is refused).
MAX_KEY_BYTES = 64 << 10


def read_key(path: str, option: str) -> bytes:
    """Read a signing key: the file's bytes, without surrounding white space.

    Only a regular file of at most :data:`MAX_KEY_BYTES` is read: ``/dev/zero``
    or a pipe given as the key would otherwise fill memory or wait forever.
    """
    import os
    import stat

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise UsageError(f"{option} {path}: {error.strerror or error}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise UsageError(
            f"{option} {path} is not a regular file; give the file the key was "
            "written to"
        )
    with os.fdopen(descriptor, "rb") as handle:
        key = handle.read(MAX_KEY_BYTES + 1)
    if len(key) > MAX_KEY_BYTES:
        raise UsageError(
            f"{option} {path} holds more than {MAX_KEY_BYTES >> 10} KiB; a key is "
            "a short secret (for example: head -c 32 /dev/urandom | base64)"
        )
    key = key.strip()
    if len(key) < MIN_KEY_BYTES:
        raise UsageError(
            f"{option} {path} holds {len(key)} bytes; a key needs at least "
            f"{MIN_KEY_BYTES} (for example: head -c 32 /dev/urandom | base64 > {path})"
        )
    return key


def write_model_file(
    model: Any, metadata: dict[str, Any], path: Path, key: bytes | None = None
) -> None:
    """Write a fitted model and its metadata to a new file, signed under ``key``."""
    import skops.io

    data = skops.io.dumps({"metadata": json.dumps(metadata), "model": model})
    if key is not None:
        buffer = io.BytesIO(data)
        with zipfile.ZipFile(buffer, "a") as archive:
            digest = _digest(archive, key)
            archive.writestr(
                SIGNATURE_MEMBER,
                json.dumps({"algorithm": "hmac-sha256", "digest": digest}),
            )
        data = buffer.getvalue()
    _write_new(path, data)


def _write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to a file that did not exist, whole or not at all.

    The bytes go to a hidden temporary file beside ``path``, are flushed to the
    disk, and only then get the final name by
    :func:`~costsense.cli._output.link_new` (which refuses a file that appeared
    there meanwhile: nothing is replaced); a full disk or an interruption leaves
    no file under the final name and removes the temporary one.
    """
    import os
    import tempfile

    from costsense.cli._output import link_new

    folder = path.parent
    handle = tempfile.NamedTemporaryFile(
        dir=folder, prefix=f".{path.name}.", suffix=".partial", delete=False
    )
    temporary = Path(handle.name)
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            link_new(temporary, path)
        except FileExistsError:
            raise UsageError(
                f"--out {path} appeared while the model was written; it was left "
                "as it is: choose another name"
            ) from None
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as error:
        raise UsageError(
            f"--out {path}: the model could not be written "
            f"({error.strerror or error}); nothing was saved under that name"
        ) from None
    finally:
        temporary.unlink(missing_ok=True)


def read_model_file(
    path: str, *, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> ModelFile:
    """Read and check a model file without constructing any object.

    Parameters
    ----------
    path : str
        The file.
    key : bytes, optional
        Refuse the file unless it is signed under this key.
    max_bytes : int
        Refuse a larger file.

    Raises
    ------
    UsageError
        Naming the check the file failed: its size, a member, the signature, a
        node's loader or type (by its dotted name), an array's declared size.
    """
    data = _read_bounded(path, max_bytes)
    # zipfile builds an object per central-directory entry before any check can
    # count them (a 1 GiB file holds 20 million); each entry starts with this
    # signature, so their number bounds the objects zipfile will build
    if data.count(b"PK\x01\x02") > MAX_MEMBERS:
        raise UsageError(f"--model {path} has more than {MAX_MEMBERS} members")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise UsageError(f"--model {path} is not a model file ({error})") from None
    with archive:
        _check_members(infos, len(data), path)
        names = {info.filename for info in infos}
        signed = SIGNATURE_MEMBER in names
        if key is not None:
            _verify(archive, key, signed, path)
        try:
            schema = read_schema(archive, path)
            walker = SchemaWalker(archive, names, path)
            types = walker.check(schema)
            walker.check_reads(len(data))
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            # a member whose local header or checksum disagrees with the index
            raise UsageError(f"--model {path} is damaged ({error})") from None
    metadata = _stored_metadata(schema, path)
    return ModelFile(data, schema, sorted(types), metadata, signed)


def _read_bounded(path: str, max_bytes: int) -> bytes:
    """Read a regular file of at most ``max_bytes``, opened once.

    The type and size are read from the open descriptor (a pipe, a device or a
    folder swapped in after a check by name would otherwise be read), and the
    file is opened without blocking, so a pipe cannot make the open wait.
    """
    import os
    import stat

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise UsageError(f"--model {path}: {error.strerror or error}") from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise UsageError(
            f"--model {path} is not a regular file; give the file costsense fit wrote"
        )
    with os.fdopen(descriptor, "rb") as handle:
        size = status.st_size
        if size > max_bytes:
            raise UsageError(
                f"--model {path} has {size / 2**20:.1f} MiB, more than the "
                f"{max_bytes / 2**20:.0f} MiB limit; if you trust it, raise "
                "--max-model-mb"
            )
        # read() allocates what it is asked for: the file's size, not the limit
        data = handle.read(size + 1)
    if len(data) > size:
        raise UsageError(f"--model {path} grew while read")
    return data


def _check_members(infos: list[zipfile.ZipInfo], size: int, path: str) -> None:
    """Names as skops writes them, none twice, all stored, sizes within the file."""
    if len(infos) > MAX_MEMBERS:
        raise UsageError(
            f"--model {path} has {len(infos)} members (most: {MAX_MEMBERS})"
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename
        if name in seen:
            raise UsageError(f"--model {path} holds member {name!r} twice")
        seen.add(name)
        if name not in ("schema.json", SIGNATURE_MEMBER) and not ARRAY_MEMBER.match(
            name
        ):
            raise UsageError(
                f"--model {path} holds member {name[:80]!r}, which costsense fit "
                "never writes"
            )
        if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:
            raise UsageError(
                f"--model {path}: member {name!r} is compressed or encrypted; "
                "costsense fit writes members stored, so their sizes are the "
                "file's (no zip bomb)"
            )
        if info.file_size != info.compress_size:
            raise UsageError(
                f"--model {path}: member {name!r} declares {info.file_size} bytes "
                f"but stores {info.compress_size}"
            )
        total += info.file_size
    if total > size:
        raise UsageError(
            f"--model {path}: its members declare {total} bytes, more than the "
            f"file's {size}"
        )
    if "schema.json" not in seen:
        raise UsageError(f"--model {path} has no schema.json: not a model file")


def _digest(archive: zipfile.ZipFile, key: bytes) -> str:
    """HMAC-SHA256 of every member but the signature, by name, in name order."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for name in sorted(i.filename for i in archive.infolist()):
        if name == SIGNATURE_MEMBER:
            continue
        content = archive.read(name)
        encoded = name.encode()
        mac.update(len(encoded).to_bytes(8, "big") + encoded)
        mac.update(len(content).to_bytes(8, "big") + content)
    return mac.hexdigest()


def _verify(archive: zipfile.ZipFile, key: bytes, signed: bool, path: str) -> None:
    if not signed:
        raise UsageError(
            f"--model {path} is not signed; --verify-key-file accepts only models "
            "written with costsense fit --sign-key-file"
        )
    try:
        stored = json.loads(archive.read(SIGNATURE_MEMBER))["digest"]
        digest = _digest(archive, key)  # a member failing its CRC was changed
    except (ValueError, KeyError, TypeError, zipfile.BadZipFile):
        stored = digest = None
    if (
        not isinstance(stored, str)
        or digest is None
        or not hmac.compare_digest(stored, digest)
    ):
        raise UsageError(
            f"--model {path} was not signed with this key, or was changed since "
            "it was signed; refusing it"
        )


def _stored_metadata(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """Parse the metadata string stored beside the model."""
    content = schema.get("content")
    if (
        schema.get("__loader__") != "DictNode"
        or not isinstance(content, dict)
        or set(content) != {"metadata", "model"}
    ):
        raise UsageError(f"--model {path} is not a model written by `costsense fit`")
    node = content["metadata"]
    try:
        text = json.loads(node["content"]) if node["__loader__"] == "JsonNode" else None
        metadata = json.loads(text) if isinstance(text, str) else None
    except (KeyError, TypeError, ValueError, RecursionError):
        metadata = None
    if not isinstance(metadata, dict):
        raise UsageError(f"--model {path} has no readable metadata")
    return metadata
