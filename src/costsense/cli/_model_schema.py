"""A model file's ``schema.json``: every node checked before skops builds one.

skops builds the object each node of ``schema.json`` names. :func:`read_schema`
parses the schema within bounds (:data:`MAX_SCHEMA_BYTES`, :data:`MAX_SCHEMA_VALUES`
values) and refuses another skops protocol; :class:`SchemaWalker` then visits
every node without recursion (at most :data:`MAX_DEPTH` levels): its loader and
type on the exact list of :mod:`costsense.cli._model_types`, every array's
``.npy`` header read without numpy's loader (no Python objects, the shape
matching the bytes present), object arrays of plain strings only (so no
estimator or tree hides from the checks after construction), no cached node
(one tree counted a million times), the nodes whose construction allocates by a
stored number held to what a fitted model has, and the array bytes skops will
read at most :data:`MAX_ARRAY_READS` times the file's size.
"""

from __future__ import annotations

import json
import re
import zipfile
from typing import Any

import numpy as np

from costsense.cli._model_types import ALLOWED, BIT_GENERATORS
from costsense.cli._options import UsageError

__all__ = [
    "ARRAY_MEMBER",
    "MAX_ARRAY_READS",
    "MAX_DEPTH",
    "MAX_SCHEMA_BYTES",
    "MAX_SCHEMA_VALUES",
    "SchemaWalker",
    "read_schema",
]

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
#: Most bytes of array members read, over every node naming one, per byte of the
#: file: skops reads a member once for each node that names it, so a member named
#: by many nodes is read many times (genuine files read about a quarter of their
#: size: most arrays are named once, and ``schema.json`` takes the rest).
MAX_ARRAY_READS = 2

ARRAY_MEMBER = re.compile(r"^[0-9]{1,40}\.npy$")


def read_schema(archive: zipfile.ZipFile, path: str) -> dict[str, Any]:
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


class SchemaWalker:
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
        if not ARRAY_MEMBER.match(member):
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
