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
3. **the schema**: at most :data:`MAX_SCHEMA_BYTES` and
   :data:`MAX_SCHEMA_VALUES` values, nested at most
   :data:`MAX_DEPTH` levels, written with this skops's protocol; every node's
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
   :data:`MAX_ARRAY_READS` times the file's size (skops reads a member once per
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
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from costsense.cli._model_types import ALLOWED, BIT_GENERATORS
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
#: Largest ``schema.json``: it is the one member parsed into Python objects.
MAX_SCHEMA_BYTES = 64 << 20
#: Most JSON values in ``schema.json`` (bounded by its commas, colons and opening
#: brackets): 64 MiB of ``[],[],...`` would otherwise parse into 22 million lists
#: (over a gigabyte); the largest catalog model, ``minimum-cost``, holds under
#: 300,000.
MAX_SCHEMA_VALUES = 4_000_000
#: Deepest nesting of ``schema.json`` (fitted catalog models need at most about 35;
#: skops builds and constructs nodes recursively, so this keeps it far from
#: Python's recursion limit).
MAX_DEPTH = 100
#: Most members in an archive.
MAX_MEMBERS = 500_000
#: The member holding the signature.
SIGNATURE_MEMBER = "costsense-signature.json"
#: Shortest signing key, in bytes.
MIN_KEY_BYTES = 16
#: Most bytes of array members read, over every node naming one, per byte of the
#: file: skops reads a member once for each node that names it, so a member named
#: by many nodes is read many times (genuine files read about a quarter of their
#: size: most arrays are named once, and ``schema.json`` takes the rest).
MAX_ARRAY_READS = 2

_ARRAY_MEMBER = re.compile(r"^[0-9]{1,40}\.npy$")


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
            schema = _read_schema(archive, path)
            walker = _Walker(archive, names, path)
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
        if name not in ("schema.json", SIGNATURE_MEMBER) and not _ARRAY_MEMBER.match(
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


def _read_schema(archive: zipfile.ZipFile, path: str) -> dict[str, Any]:
    info = archive.getinfo("schema.json")
    if info.file_size > MAX_SCHEMA_BYTES:
        raise UsageError(
            f"--model {path}: schema.json has {info.file_size / 2**20:.1f} MiB "
            f"(most: {MAX_SCHEMA_BYTES >> 20} MiB)"
        )
    try:
        text = archive.read("schema.json")
        values = sum(text.count(mark) for mark in (b",", b":", b"{", b"["))
        if values > MAX_SCHEMA_VALUES:
            raise UsageError(
                f"--model {path}: schema.json holds up to {values} values (most: "
                f"{MAX_SCHEMA_VALUES})"
            )
        schema = json.loads(text)
    except RecursionError:
        raise UsageError(f"--model {path}: schema.json is nested too deeply") from None
    except (ValueError, zipfile.BadZipFile) as error:
        raise UsageError(f"--model {path}: schema.json is not JSON ({error})") from None
    if not isinstance(schema, dict):
        raise UsageError(f"--model {path}: schema.json is not a skops schema")
    from skops.io._protocol import PROTOCOL

    if schema.get("protocol") != PROTOCOL:
        raise UsageError(
            f"--model {path} was written with skops protocol "
            f"{schema.get('protocol')!r}; this installation reads protocol {PROTOCOL}"
            " only: fit the model again"
        )
    return schema


class _Walker:
    """Every node of a schema checked against the exact list, without recursion."""

    def __init__(self, archive: zipfile.ZipFile, names: set[str], path: str) -> None:
        self.archive = archive
        self.names = names
        self.path = path
        #: Bytes of array members skops will read (a member once per node).
        self.array_reads = 0

    def fail(self, message: str) -> UsageError:
        return UsageError(f"--model {self.path}: {message}; refusing it")

    def check(self, schema: dict[str, Any]) -> set[str]:
        """Return the dotted names of the types the schema builds, all allowed."""
        types: set[str] = set()
        stack: list[tuple[Any, int]] = [(schema, 0)]
        while stack:
            value, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise self.fail(f"schema.json is nested deeper than {MAX_DEPTH}")
            if isinstance(value, list):
                stack.extend((item, depth + 1) for item in value)
                continue
            if not isinstance(value, dict):
                continue
            if "__loader__" in value:
                types.add(self.node(value))
            stack.extend((item, depth + 1) for item in value.values())
        return types

    def check_reads(self, size: int) -> None:
        """Refuse array members named so often that loading would outgrow the file."""
        if self.array_reads > MAX_ARRAY_READS * size:
            raise self.fail(
                f"its arrays would be read {self.array_reads} bytes in all, more "
                f"than {MAX_ARRAY_READS} times the file's {size} bytes (a member "
                "named by many nodes; costsense fit names each about once)"
            )

    def node(self, node: dict[str, Any]) -> str:
        loader = node["__loader__"]
        module, cls = node.get("__module__"), node.get("__class__")
        if not (isinstance(loader, str) and isinstance(module, str)):
            raise self.fail("a schema node has no loader or module")
        if not isinstance(cls, str):
            raise self.fail("a schema node has no class")
        name = f"{module}.{cls}"
        if loader == "CachedNode":
            # the object of an earlier node, again: one tree named a million times
            # costs a million predictions a row from a small file
            raise self.fail(
                f"it holds a cached node (a second reference to a {name[:200]}), "
                "which no model written by costsense fit contains"
            )
        if name not in ALLOWED.get(loader, ()):
            what = "type" if loader in ALLOWED else f"loader {loader[:40]!r} for"
            raise self.fail(
                f"it holds {what} {name[:200]}, which no model written by "
                "costsense fit contains (a file of another costsense version: fit "
                "the model again)"
            )
        check = getattr(self, f"check_{loader}", None)
        if check is not None:
            check(node)
        return name

    # ---------------------------------------------------------- loader rules
    def check_JsonNode(self, node: dict[str, Any]) -> None:  # noqa: N802
        value = self.json_value(node)
        if isinstance(value, (list, dict)):
            raise self.fail("a JSON node holds a container, not a plain value")

    def check_NdArrayNode(self, node: dict[str, Any]) -> None:  # noqa: N802
        kind = node.get("type")
        if kind == "json":
            self.object_array(node)
            return
        if kind != "numpy":
            raise self.fail(f"an array node has type {str(kind)[:40]!r}")
        self.array_header(node)
        self.array_reads += self.archive.getinfo(node["file"]).file_size

    def object_array(self, node: dict[str, Any]) -> None:
        """Allow an object array only of plain strings, as genuine models hold.

        A fitted model keeps string labels and column names in object arrays;
        anything else there (an estimator, a tree) would be used by the model
        yet be out of sight of the checks that walk the constructed pipeline.
        """
        items = node.get("content")
        if not isinstance(items, list):
            raise self.fail("an object array has no list of items")
        for item in items:
            if (
                not isinstance(item, dict)
                or item.get("__loader__") != "JsonNode"
                or item.get("__module__") != "builtins"
                or item.get("__class__") != "str"
                or not isinstance(self.json_value(item), str)
            ):
                raise self.fail(
                    "an object array holds something other than text (a model "
                    "written by costsense fit keeps only labels and column names "
                    "in one)"
                )

    def check_TreeNode(self, node: dict[str, Any]) -> None:  # noqa: N802
        """Hold a scikit-learn tree's outputs and node count to its arrays.

        Its constructor allocates by the stored number of outputs and reads
        that many class counts; its node count is trusted by its predictor.
        """
        try:
            args = node["__reduce__"]["args"]["content"]
            n_features, n_classes, n_outputs = args
            content = node["content"]["content"]
            node_count = self.json_value(content["node_count"])
            nodes_shape, _ = self.array_header(content["nodes"])
            values_shape, _ = self.array_header(content["values"])
            classes_shape, classes_dtype = self.array_header(n_classes)
            n_features = self.json_value(n_features)
            n_outputs = self.json_value(n_outputs)
        except (KeyError, TypeError, ValueError) as error:
            raise self.fail(f"a scikit-learn tree is malformed ({error})") from None
        if n_outputs != 1 or classes_shape != (1,) or classes_dtype.kind not in "iu":
            raise self.fail(
                f"a scikit-learn tree declares {n_outputs!r} outputs; costsense fit "
                "writes single-output trees"
            )
        if not isinstance(n_features, int) or not 0 < n_features < 2**31:
            raise self.fail(f"a scikit-learn tree declares {n_features!r} features")
        if node_count != nodes_shape[0] or len(values_shape) != 3:
            raise self.fail(
                f"a scikit-learn tree declares {node_count!r} nodes but stores "
                f"{nodes_shape[0]}"
            )
        if values_shape[0] != nodes_shape[0]:
            raise self.fail("a scikit-learn tree stores values for other nodes")

    def check_RandomGeneratorNode(self, node: dict[str, Any]) -> None:  # noqa: N802
        """Check the bit generator numpy will call and the seed pool it will size."""
        try:
            content = node["content"]
            generator = content["bit_generator"]["content"]["bit_generator"]
            name = self.json_value(generator)
            seed = content["seed_seq"]["content"]
            pool = self.json_value(seed["pool_size"])
            spawned = self.json_value(seed["n_children_spawned"])
        except (KeyError, TypeError) as error:
            raise self.fail(f"a random generator is malformed ({error})") from None
        if name not in BIT_GENERATORS:
            raise self.fail(
                f"a random generator names bit generator {str(name)[:40]!r}"
            )
        if pool != 4 or not isinstance(spawned, int) or not 0 <= spawned < 2**32:
            raise self.fail("a random generator's seed sequence is not numpy's")

    # ---------------------------------------------------------------- values
    def json_value(self, node: Any) -> Any:
        """Return the plain value a JSON node holds."""
        if not isinstance(node, dict) or node.get("__loader__") != "JsonNode":
            raise self.fail("a value expected as a JSON node is not one")
        content = node.get("content")
        if not isinstance(content, str):
            raise self.fail("a JSON node holds no text")
        try:
            return json.loads(content)
        except RecursionError:
            raise self.fail("a JSON node is nested too deeply") from None
        except ValueError:
            raise self.fail("a JSON node holds invalid JSON") from None

    def array_header(self, node: Any) -> tuple[tuple[int, ...], np.dtype[Any]]:
        """Read an array member's header; refuse objects and declared sizes not present.

        The header is parsed by numpy's format module (a literal, not code); the
        data type must hold no Python object, and the shape times the item size
        must equal the bytes after the header.
        """
        from numpy.lib import format as npy

        if not isinstance(node, dict) or node.get("__loader__") != "NdArrayNode":
            raise self.fail("an array expected is not an array node")
        member = node.get("file")
        if not isinstance(member, str) or member not in self.names:
            raise self.fail(f"an array refers to member {str(member)[:60]!r}, absent")
        if not _ARRAY_MEMBER.match(member):
            raise self.fail(f"an array refers to member {member[:60]!r}")
        size = self.archive.getinfo(member).file_size
        with self.archive.open(member) as handle:
            try:
                version = npy.read_magic(handle)
                if version == (1, 0):
                    shape, fortran, dtype = npy.read_array_header_1_0(handle)
                elif version in ((2, 0), (3, 0)):
                    shape, fortran, dtype = npy.read_array_header_2_0(handle)
                else:
                    raise ValueError(f"unknown .npy version {version}")
            except (ValueError, SyntaxError, TypeError, EOFError) as error:
                raise self.fail(
                    f"array {member} has no valid header ({error})"
                ) from None
            offset = handle.tell()
        if dtype.hasobject:
            raise self.fail(f"array {member} holds Python objects ({dtype})")
        count = 1
        for extent in shape:
            count *= int(extent)
        declared = count * dtype.itemsize
        if declared != size - offset:
            raise self.fail(
                f"array {member} declares shape {shape} of {dtype} "
                f"({declared} bytes) but holds {size - offset} bytes"
            )
        return tuple(int(e) for e in shape), dtype


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
