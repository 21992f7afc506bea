"""Model files taken apart and put together again, for the hostile-file tests."""

from __future__ import annotations

import json
import warnings
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any


def read_members(path: Path) -> dict[str, bytes]:
    """Every member of an archive, by name."""
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def write_zip(
    path: Path, members: Iterable[tuple[str, bytes | str]], compressed=()
) -> Path:
    """Write the members in order, stored (as fit writes them) unless compressed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of duplicate names
        with zipfile.ZipFile(path, "w") as archive:
            for name, content in members:
                kind = (
                    zipfile.ZIP_DEFLATED if name in compressed else zipfile.ZIP_STORED
                )
                archive.writestr(name, content, compress_type=kind)
    return path


def schema_nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every schema node (a dict with a loader) in ``value``, itself included."""
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if "__loader__" in value:
                yield value
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def edit_metadata(path: Path, out: Path, edit: Callable[[dict], Any]) -> Path:
    """Write ``path`` to ``out`` with its metadata changed by ``edit`` (in place)."""
    members = read_members(path)
    schema = json.loads(members["schema.json"])
    node = schema["content"]["metadata"]
    metadata = json.loads(json.loads(node["content"]))
    edit(metadata)
    node["content"] = json.dumps(json.dumps(metadata))
    members["schema.json"] = json.dumps(schema).encode()
    return write_zip(out, members.items())
