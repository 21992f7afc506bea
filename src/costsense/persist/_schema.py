"""A model file's ``schema.json``, every node checked before skops builds one.

The third and fourth stages of :func:`costsense.persist.read_model`: the schema
within bounds, each node's loader and type on the exact list, arrays, object
arrays, allocation sizes, cached nodes and the bytes skops will read.
"""

from __future__ import annotations

import json
import zipfile
from typing import Any

import numpy as np

from costsense.exceptions import UsageError
from costsense.persist._archive import ARRAY_MEMBER, fail
from costsense.persist._types import ALLOWED, BIT_GENERATORS

#: Largest ``schema.json``: it is the one member parsed into Python objects.
MAX_SCHEMA_BYTES = 64 << 20
#: Most JSON values in ``schema.json`` (its commas, colons and opening brackets):
#: 64 MiB of ``[],[],...`` would parse into 22 million lists (over a gigabyte); the
#: largest catalog model, ``minimum-cost``, holds under 300,000.
MAX_SCHEMA_VALUES = 4_000_000
#: Deepest nesting (fitted models need about 35; skops recurses, so this keeps it
#: far from Python's recursion limit).
MAX_DEPTH = 100
#: Most bytes of array members read, over every node naming one, per byte of the
#: file (skops reads a member once per node naming it; genuine files read about
#: a quarter of their size).
MAX_ARRAY_READS = 2


def read_schema(archive: zipfile.ZipFile, path: str) -> dict[str, Any]:
    """Parse ``schema.json`` within :data:`MAX_SCHEMA_BYTES` and values."""
    from skops.io._protocol import PROTOCOL

    size = archive.getinfo("schema.json").file_size
    if size > MAX_SCHEMA_BYTES:
        raise fail(
            path,
            f"schema.json has {size / 2**20:.1f} MiB (most: "
            f"{MAX_SCHEMA_BYTES >> 20} MiB)",
        )
    text = archive.read("schema.json")
    values = sum(text.count(mark) for mark in (b",", b":", b"{", b"["))
    if values > MAX_SCHEMA_VALUES:
        raise fail(
            path, f"schema.json holds up to {values} values (most: {MAX_SCHEMA_VALUES})"
        )
    try:
        schema = json.loads(text)
    except RecursionError:
        raise fail(path, "schema.json is nested too deeply") from None
    except ValueError as error:
        raise fail(path, f"schema.json is not JSON ({error})") from None
    if not isinstance(schema, dict):
        raise fail(path, "schema.json is not a skops schema")
    if schema.get("protocol") != PROTOCOL:
        raise fail(
            path,
            f"it was written with skops protocol "
            f"{str(schema.get('protocol'))[:20]}; this installation reads "
            f"protocol {PROTOCOL} only: fit the model again",
        )
    return schema


class Walker:
    """Every node of a schema checked against the exact list, without recursion."""

    def __init__(self, archive: zipfile.ZipFile, path: str) -> None:
        self.archive, self.path = archive, path
        self.names = set(archive.namelist())
        #: Bytes of array members skops will read (a member once per node).
        self.array_reads = 0

    def fail(self, message: str) -> UsageError:
        return fail(self.path, message)

    def types(self, schema: dict[str, Any], size: int) -> set[str]:
        """Return the dotted names of the types the schema builds, all allowed."""
        found: set[str] = set()
        stack: list[tuple[Any, int]] = [(schema, 0)]
        while stack:
            value, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise self.fail(f"schema.json is nested deeper than {MAX_DEPTH}")
            if isinstance(value, dict):
                if "__loader__" in value:
                    found.add(self.node(value))
                stack.extend((item, depth + 1) for item in value.values())
            elif isinstance(value, list):
                stack.extend((item, depth + 1) for item in value)
        if self.array_reads > MAX_ARRAY_READS * size:
            raise self.fail(
                f"its arrays would be read {self.array_reads} bytes in all, more "
                f"than {MAX_ARRAY_READS} times the file's {size} bytes (a member "
                "named by many nodes; save_model names each about once)"
            )
        return found

    def node(self, node: dict[str, Any]) -> str:
        loader = node["__loader__"]
        module, cls = node.get("__module__"), node.get("__class__")
        if not (
            isinstance(loader, str) and isinstance(module, str) and isinstance(cls, str)
        ):
            raise self.fail("a schema node has no loader, module or class")
        name = f"{module}.{cls}"
        if loader == "CachedNode":  # one tree named a million times: a million
            # predictions a row from a small file
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
        if loader == "JsonNode" and isinstance(self.value(node), list | dict):
            raise self.fail("a JSON node holds a container, not a plain value")
        if loader == "NdArrayNode":
            self.array(node)
        elif loader == "TreeNode":
            self.sklearn_tree(node)
        elif loader == "RandomGeneratorNode":
            self.generator(node)
        return name

    def array(self, node: dict[str, Any]) -> None:
        """Check a numeric array's header, or an object array of plain strings only.

        A fitted model keeps string labels and column names in object arrays;
        anything else there would be used by the model yet out of sight of the
        checks that walk the constructed pipeline.
        """
        if node.get("type") == "numpy":
            self.header(node)
            self.array_reads += self.archive.getinfo(node["file"]).file_size
            return
        items = node.get("content") if node.get("type") == "json" else None
        if not isinstance(items, list):
            raise self.fail(f"an array node has type {str(node.get('type'))[:40]!r}")
        text = {"__loader__": "JsonNode", "__module__": "builtins", "__class__": "str"}
        for item in items:
            if not (
                isinstance(item, dict)
                and all(item.get(k) == v for k, v in text.items())
                and isinstance(self.value(item), str)
            ):
                raise self.fail(
                    "an object array holds something other than text (a model "
                    "written by costsense fit keeps only labels and column names "
                    "in one)"
                )

    def sklearn_tree(self, node: dict[str, Any]) -> None:
        """Hold a scikit-learn tree's outputs and node count to its arrays.

        Its constructor allocates by the stored number of outputs and reads that
        many class counts; its predictor trusts its node count.
        """
        try:
            n_features, n_classes, n_outputs = node["__reduce__"]["args"]["content"]
            content = node["content"]["content"]
            node_count = self.value(content["node_count"])
            nodes_shape, _ = self.header(content["nodes"])
            values_shape, _ = self.header(content["values"])
            classes_shape, classes_dtype = self.header(n_classes)
            n_features, n_outputs = self.value(n_features), self.value(n_outputs)
        except (KeyError, TypeError, ValueError) as error:
            raise self.fail(f"a scikit-learn tree is malformed ({error})") from None
        if n_outputs != 1 or classes_shape != (1,) or classes_dtype.kind not in "iu":
            raise self.fail(
                f"a scikit-learn tree declares {n_outputs!r} outputs; "
                "costsense fit writes single-output trees"
            )
        if not isinstance(n_features, int) or not 0 < n_features < 2**31:
            raise self.fail(f"a scikit-learn tree declares {n_features!r} features")
        counts = (len(nodes_shape), len(values_shape), *nodes_shape, *values_shape[:1])
        if counts != (1, 3, node_count, node_count):
            raise self.fail(
                f"a scikit-learn tree declares {node_count!r} nodes but stores "
                f"arrays of shapes {nodes_shape} and {values_shape}"
            )

    def generator(self, node: dict[str, Any]) -> None:
        """Check the bit generator numpy will call and the seed pool it will size."""
        try:
            content = node["content"]
            bits = content["bit_generator"]["content"]["bit_generator"]
            seed = content["seed_seq"]["content"]
            name, pool = self.value(bits), self.value(seed["pool_size"])
            spawned = self.value(seed["n_children_spawned"])
        except (KeyError, TypeError) as error:
            raise self.fail(f"a random generator is malformed ({error})") from None
        if name not in BIT_GENERATORS:
            raise self.fail(
                f"a random generator names bit generator {str(name)[:40]!r}"
            )
        if pool != 4 or not isinstance(spawned, int) or not 0 <= spawned < 2**32:
            raise self.fail("a random generator's seed sequence is not numpy's")

    def value(self, node: Any) -> Any:
        """Return the plain value a JSON node holds."""
        node = node if isinstance(node, dict) else {}
        content = node.get("content")
        if node.get("__loader__") != "JsonNode" or not isinstance(content, str):
            raise self.fail("a value expected as a JSON node is not one")
        try:
            return json.loads(content)
        except RecursionError:
            raise self.fail("a JSON node is nested too deeply") from None
        except ValueError:
            raise self.fail("a JSON node holds invalid JSON") from None

    def header(self, node: Any) -> tuple[tuple[int, ...], np.dtype[Any]]:
        """Read an array member's header: no Python objects, its size present.

        numpy's format module parses the header (a literal, not code).
        """
        from numpy.lib import format as npy

        node = node if isinstance(node, dict) else {}
        member = node.get("file")
        if node.get("__loader__") != "NdArrayNode" or not isinstance(member, str):
            raise self.fail("an array expected is not an array node")
        if member not in self.names or not ARRAY_MEMBER.match(member):
            raise self.fail(f"an array refers to member {member[:60]!r}, absent")
        size = self.archive.getinfo(member).file_size
        with self.archive.open(member) as handle:
            try:
                version = npy.read_magic(handle)
                if version not in ((1, 0), (2, 0), (3, 0)):
                    raise ValueError(f"unknown .npy version {version}")
                read = (
                    npy.read_array_header_1_0
                    if version == (1, 0)
                    else (npy.read_array_header_2_0)
                )
                shape, _, dtype = read(handle)
            except (ValueError, SyntaxError, TypeError, EOFError) as error:
                raise self.fail(
                    f"array {member} has no valid header ({error})"
                ) from None
            offset = handle.tell()
        if dtype.hasobject:
            raise self.fail(f"array {member} holds Python objects ({dtype})")
        declared = int(np.prod(shape, dtype=object)) * dtype.itemsize
        if declared != size - offset:
            raise self.fail(
                f"array {member} declares shape {shape} of {dtype} "
                f"({declared} bytes) but holds {size - offset} bytes"
            )
        return tuple(int(e) for e in shape), dtype
