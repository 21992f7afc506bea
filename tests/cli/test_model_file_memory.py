"""Model files built only from allowed types cannot make predict read outside memory.

Compiled predictors (scikit-learn's trees and gradient-boosting predictors,
costsense's trees and packed forests) index their node and feature arrays without
bounds checks, so every such index is checked once at load. These files are built
here from genuine models written by ``costsense fit``:

- **hidden trees**: the trees (or the members holding them) moved into object
  arrays, where a walk of attributes, lists and dicts would not look, with their
  feature indices pushed past the input (far: a crash; near: a read of the memory
  after each row). ``costsense predict`` runs in a subprocess limited in address
  space and time and must refuse the file (exit 2, one line), leave no output and
  no partial file; the checks after construction must refuse them on their own;
- **amplification**: one object referenced again and again through skops' cached
  nodes, and one array member named by thousands of nodes: refused before skops
  builds anything, in bounded memory and time.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import costsense
from costsense import cli
from costsense.cli import UsageError
from costsense.cli._model_io import check_model, load_model
from costsense.persist import read_model
from costsense.persist._fitted import check_fitted, reachable
from tests.cli._archives import read_members, schema_nodes, write_zip
from tests.cli._data import write_csv

SOURCE = str(Path(costsense.__file__).resolve().parents[1])
#: Address space of each predict subprocess: several times a genuine predict's.
ADDRESS_SPACE = 3 << 30
#: Generous wall-clock limit of one subprocess (imports included): a hang fails.
TIMEOUT = 120
#: Models whose trees sit in lists a file could turn into object arrays.
MODELS = {
    "sklearn-forest": ["--model", "random-forest"],
    "hist-gradient-boosting": ["--model", "plain", "--base", "hist-gradient-boosting"],
    "easy-ensemble": ["--model", "easy-ensemble"],
    "costsense-forest": ["--model", "pdcsrf"],
}


# ------------------------------------------------------------------ the files
@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("memory")


@pytest.fixture(scope="module")
def data(folder) -> tuple[Path, Path]:
    train = write_csv(folder / "train.csv", n=80)
    rows = write_csv(folder / "rows.csv", n=300, seed=1)
    return train, rows


@pytest.fixture(scope="module")
def genuine(folder, data) -> dict[str, Path]:
    train, _ = data
    models = {}
    for name, options in MODELS.items():
        path = folder / f"{name}.skops"
        argv = ["fit", "--csv", str(train), "--target", "label", "--cost", "4",
                "--out", str(path), *options]  # fmt: skip
        assert cli.main(argv) == 0
        models[name] = path
    return models


def _write(path: Path, members: dict[str, bytes], schema: dict[str, Any]) -> Path:
    """The members with ``schema`` as their schema, stored as fit stores them."""
    return write_zip(path, {**members, "schema.json": json.dumps(schema)}.items())


def _json(value: Any) -> dict[str, Any]:
    return {"__class__": type(value).__name__, "__module__": "builtins",
            "__loader__": "JsonNode", "content": json.dumps(value),
            "is_json": True}  # fmt: skip


def _object_array(items: list[Any]) -> dict[str, Any]:
    """What skops writes for ``np.array(items, dtype=object)``."""
    shape = {"__class__": "tuple", "__module__": "builtins",
             "__loader__": "TupleNode", "content": [_json(len(items))]}  # fmt: skip
    return {"__class__": "ndarray", "__module__": "numpy",
            "__loader__": "NdArrayNode", "type": "json", "content": items,
            "shape": shape, "__id__": 7}  # fmt: skip


def _attributes(node: dict[str, Any]) -> dict[str, Any]:
    """The attributes an object node sets (empty for other nodes)."""
    state = node.get("content")
    inner = state.get("content") if isinstance(state, dict) else None
    return inner if node["__loader__"] == "ObjectNode" and isinstance(
        inner, dict) else {}  # fmt: skip


def _hide_lists(schema: dict[str, Any], attributes: tuple[str, ...]) -> int:
    """Move each list attribute named in ``attributes`` into an object array."""
    moved = 0
    for node in list(schema_nodes(schema)):
        state = _attributes(node)
        for name in attributes:
            held = state.get(name)
            if isinstance(held, dict) and held.get("__loader__") == "ListNode":
                state[name] = _object_array(held["content"])
                moved += 1
    return moved


def _shift(members: dict[str, bytes], member: str, field: str | None, by: int) -> None:
    """Add ``by`` to the features of a stored array's inner nodes."""
    array = np.load(io.BytesIO(members[member]))
    if field is None:  # a costsense tree's feature array: negative at leaves
        array[array >= 0] += by
    else:
        inner = array["left_child" if "left_child" in array.dtype.names else "left"]
        is_leaf = array["is_leaf"] if "is_leaf" in array.dtype.names else None
        mask = (inner != -1) if is_leaf is None else (is_leaf == 0)
        array[field][mask] += by
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    members[member] = buffer.getvalue()


def _shift_features(schema: dict[str, Any], members: dict[str, bytes], by: int) -> int:
    """Push every tree's feature indices ``by`` past where they were."""
    shifted = 0
    for node in schema_nodes(schema):
        name = f"{node.get('__module__')}.{node.get('__class__')}"
        state = node.get("content", {})
        if node["__loader__"] == "TreeNode":
            _shift(members, state["content"]["nodes"]["file"], "feature", by)
        elif name.endswith("predictor.TreePredictor"):
            _shift(members, state["content"]["nodes"]["file"], "feature_idx", by)
        elif name == "costsense.tree.Tree":
            _shift(members, state["content"]["feature"]["file"], None, by)
        else:
            continue
        shifted += 1
    return shifted


def _hidden(genuine: Path, out: Path, by: int) -> Path:
    members = read_members(genuine)
    schema = json.loads(members["schema.json"])
    assert _hide_lists(schema, ("estimators_", "_predictors")) >= 1
    assert _shift_features(schema, members, by) >= 1
    return _write(out, members, schema)


def _predict(model: Path, rows: Path, out: Path) -> subprocess.CompletedProcess:
    """``costsense predict`` in a subprocess limited in address space and time."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([SOURCE, env.get("PYTHONPATH", "")])
    code = "import sys; from costsense import cli; sys.exit(cli.main(sys.argv[1:]))"
    argv = ["predict", "--model", str(model), "--csv", str(rows), "--out", str(out)]
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        env=env,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


# ------------------------------------------------------------ hidden trees
@pytest.mark.parametrize(
    ("model", "by"),
    [
        ("sklearn-forest", 10**7),  # far past the input: a segmentation fault
        ("sklearn-forest", 3),  # just past it: decisions read from the next rows
        # the other models' trees hidden the same way (each a subprocess; the
        # checks after construction are tested on all four in make test)
        pytest.param("hist-gradient-boosting", 10**7, marks=pytest.mark.slow),
        pytest.param("easy-ensemble", 10**7, marks=pytest.mark.slow),
        pytest.param("costsense-forest", 10**7, marks=pytest.mark.slow),
    ],
)
def test_trees_hidden_in_object_arrays_are_refused_by_predict_without_a_crash(
    model, by, genuine, data, tmp_path
):
    hostile = _hidden(genuine[model], tmp_path / "hostile.skops", by)
    out = tmp_path / "predictions.csv"
    done = _predict(hostile, data[1], out)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "object array" in lines[0], done.stderr
    assert list(tmp_path.iterdir()) == [hostile]  # no output, no partial file


def _into_object_arrays(model: Any) -> int:
    """Turn the model's tree lists into object arrays, in memory; count them."""
    hidden = 0
    for value, _ in list(reachable(model, 10**9)):
        attributes = getattr(value, "__dict__", {})
        for name in ("estimators_", "_predictors"):
            held = attributes.get(name)
            if isinstance(held, list):
                array = np.empty(len(held), dtype=object)
                array[:] = held
                attributes[name] = array
                hidden += 1
    return hidden


@pytest.mark.parametrize("model", sorted(MODELS))
def test_the_checks_after_construction_find_trees_inside_object_arrays(
    model, genuine, tmp_path
):
    import skops.io

    # the genuine model, then its tree lists made object arrays in memory (what a
    # file could build if the schema check let it): the walk must enter them
    loaded, metadata, _ = load_model(str(genuine[model]))
    assert _into_object_arrays(loaded) >= 1
    check_model(loaded, metadata, "m")  # still genuine: accepted
    members = read_members(genuine[model])
    schema = json.loads(members["schema.json"])
    _shift_features(schema, members, 10**7)
    shifted_file = _write(tmp_path / "shifted.skops", members, schema)
    trusted = read_model(str(genuine[model])).types
    shifted = skops.io.load(shifted_file, trusted=trusted)["model"]
    assert _into_object_arrays(shifted) >= 1
    with pytest.raises(UsageError, match="indices outside"):
        check_model(shifted, metadata, "m")


def test_a_tree_is_held_to_the_narrowest_input_on_its_way():
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 2)), rng.integers(0, 2, 60)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)  # reads 2 columns

    class Holder:  # a model of 3 columns holding an estimator of 2
        def __init__(self) -> None:
            self.n_features_in_ = 3
            self.members = {"narrow": np.array([tree], dtype=object)}

    found = {id(v): bound for v, bound in reachable(Holder(), 3)}
    assert found[id(tree)] == 2 and found[id(tree.tree_)] == 2
    check_fitted(Holder(), 3, "m")  # features 0 and 1: inside
    state = tree.tree_.__getstate__()
    inner = state["nodes"]["left_child"] != -1
    state["nodes"]["feature"][inner] = 2  # inside the model's 3, past the tree's 2
    tree.tree_.__setstate__(state)
    with pytest.raises(UsageError, match="indices outside"):
        check_fitted(Holder(), 3, "m")


def test_gradient_boosting_with_categorical_bins_is_refused(genuine):
    from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper

    loaded, metadata, _ = load_model(str(genuine["hist-gradient-boosting"]))
    mappers = [v for v, _ in reachable(loaded, 10**9) if isinstance(v, _BinMapper)]
    assert mappers
    # a categorical feature makes predict fill bitsets at the stored category
    # values: a value past 255 would write outside them
    mappers[0].is_categorical_ = np.ones_like(mappers[0].is_categorical_)
    mappers[0].bin_thresholds_ = [np.array([1e6])] * mappers[0].is_categorical_.size
    with pytest.raises(UsageError, match="_BinMapper"):
        check_model(loaded, metadata, "m")


# ------------------------------------------------------------- amplification
def test_a_cached_node_is_refused_before_skops_builds_anything(genuine, data, tmp_path):
    members = read_members(genuine["sklearn-forest"])
    schema = json.loads(members["schema.json"])
    forest = next(n for n in schema_nodes(schema) if "estimators_" in _attributes(n))
    trees = _attributes(forest)["estimators_"]["content"]
    first = trees[0]
    reference = {"__class__": first["__class__"], "__module__": first["__module__"],
                 "__loader__": "CachedNode", "__id__": first["__id__"]}  # fmt: skip
    # one tree counted 100,000 times: a small file, a slow and large load
    trees[1:] = [reference] * 100_000
    hostile = _write(tmp_path / "cached.skops", members, schema)
    assert hostile.stat().st_size < 20 << 20
    with pytest.raises(UsageError, match="cached node"):
        read_model(str(hostile))
    done = _predict(hostile, data[1], tmp_path / "out.csv")
    assert done.returncode == 2 and "cached node" in done.stderr, done.stderr[-2000:]


def test_an_array_named_by_many_nodes_is_refused_in_bounded_memory(
    genuine, data, tmp_path
):
    members = read_members(genuine["sklearn-forest"])
    schema = json.loads(members["schema.json"])
    largest = max((n for n in members if n.endswith(".npy")), key=lambda n: len(
        members[n]))  # fmt: skip
    node = next(n for n in schema_nodes(schema) if n.get("file") == largest)
    holder = next(n for n in schema_nodes(schema) if "classes_" in _attributes(n))
    copies = (3 * (sum(map(len, members.values())) // len(members[largest]))) + 2
    # each copy is read again by skops: together more than the whole file
    _attributes(holder)["classes_"] = {
        "__class__": "list", "__module__": "builtins", "__loader__": "ListNode",
        "content": [dict(node) for _ in range(copies)],
    }  # fmt: skip
    hostile = _write(tmp_path / "reads.skops", members, schema)
    with pytest.raises(UsageError, match="would be read"):
        read_model(str(hostile))
    done = _predict(hostile, data[1], tmp_path / "out.csv")
    assert done.returncode == 2 and "would be read" in done.stderr, done.stderr[-2000:]


def test_genuine_files_read_each_array_about_once(genuine):
    from costsense.persist._schema import MAX_ARRAY_READS

    for path in genuine.values():
        members = read_members(path)
        schema = json.loads(members["schema.json"])
        read = sum(
            len(members[n["file"]])
            for n in schema_nodes(schema)
            if n["__loader__"] == "NdArrayNode" and n.get("type") == "numpy"
        )
        # genuine files read at most their size: the limit leaves a margin of 2
        assert 2 * read <= MAX_ARRAY_READS * path.stat().st_size
        load_model(str(path))  # and loads
