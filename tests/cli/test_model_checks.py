"""A constructed model is refused when it is not what its metadata describes.

These tests edit a genuine fitted pipeline in memory (as a file edited with
allowed types only would arrive) and call :func:`check_model` and
:func:`check_metadata` directly; ``test_model_file_hostile.py`` sends edited files
through ``predict``.
"""

import copy
import dataclasses

import numpy as np
import pytest

from costsense import cli
from costsense.cli import _model_io
from costsense.cli._model_io import check_metadata, check_model
from tests.cli._data import write_csv


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    """(model, metadata) for a scikit-learn tree, gradient boosting and PD-CSRF."""
    folder = tmp_path_factory.mktemp("checks")
    data = write_csv(folder / "d.csv", categorical=True)
    out = {}
    for name, model, base in (
        ("sklearn-tree", "threshold", "tree"),
        ("hgb", "threshold", "hist-gradient-boosting"),
        ("costsense-tree", "pdcsrf", None),
        ("boosted", "minimum-cost", None),
    ):
        path = folder / f"{name}.skops"
        argv = ["fit", "--csv", str(data), "--target", "label", "--model", model,
                "--cost", "5", "--out", str(path)]  # fmt: skip
        if base:
            argv += ["--base", base]
        assert cli.main(argv) == 0
        out[name] = (path, *_model_io.load_model(str(path))[:2])
    return out


def _width(model):
    return model.steps[-2][1].n_features_in_


def _inner(model, kind):
    """The first fitted tree structure of ``kind`` inside ``model``."""
    final = model.steps[-1][1]
    if kind == "sklearn-tree":
        return final.estimator_.tree_
    if kind == "hgb":
        return final.estimator_._predictors[0][0]
    if kind == "boosted":  # minimum-cost's boosted candidate, first fold model
        return final.candidates_["boosted"].estimators_[0].trees_
    return final.estimators_[0].tree_


def _refused(path, model, metadata, *words):
    with pytest.raises(cli._options.UsageError) as error:
        check_model(model, metadata, str(path))
    message = str(error.value)
    assert str(path) in message and "\n" not in message
    for word in words:
        assert word in message
    return message


KINDS = ["sklearn-tree", "hgb", "costsense-tree", "boosted"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_genuine_model_passes_and_an_out_of_range_feature_is_refused(fitted, kind):
    path, model, metadata = fitted[kind]
    check_model(model, metadata, str(path))  # the genuine file passes
    edited = copy.deepcopy(model)
    tree = _inner(edited, kind)
    outside = _width(edited) + 7  # a column the model's input does not have
    if kind == "sklearn-tree":
        state = tree.__getstate__()
        nodes = state["nodes"].copy()
        inner = np.flatnonzero(nodes["left_child"] != -1)
        nodes["feature"][inner[0]] = outside
        state["nodes"] = nodes
        tree.__setstate__(state)
        assert tree.feature[inner[0]] == outside
    elif kind == "hgb":
        inner = np.flatnonzero(tree.nodes["is_leaf"] == 0)
        tree.nodes["feature_idx"][inner[0]] = outside
    elif kind == "boosted":
        inner = np.flatnonzero(tree.feature >= 0)
        tree.feature[inner[0]] = outside
    else:
        inner = np.flatnonzero(tree.children_left >= 0)
        tree.feature[inner[0]] = outside  # the deep copy's own array
    _refused(path, edited, metadata, "indices")


@pytest.mark.parametrize("kind", KINDS)
def test_a_child_pointing_backwards_or_outside_is_refused(fitted, kind):
    """A cycle would make a compiled predictor loop; an index past the end reads
    outside its arrays."""
    path, model, metadata = fitted[kind]
    for target in ("self", "past-end"):
        edited = copy.deepcopy(model)
        tree = _inner(edited, kind)
        if kind == "sklearn-tree":
            state = tree.__getstate__()
            nodes = state["nodes"].copy()
            node = int(np.flatnonzero(nodes["left_child"] != -1)[0])
            nodes["right_child"][node] = node if target == "self" else len(nodes)
            state["nodes"] = nodes
            tree.__setstate__(state)
        elif kind == "hgb":
            node = int(np.flatnonzero(tree.nodes["is_leaf"] == 0)[0])
            size = len(tree.nodes)
            tree.nodes["right"][node] = node if target == "self" else size + 3
        elif kind == "boosted":
            node = int(np.flatnonzero(tree.feature >= 0)[0])
            size = len(tree.right)
            tree.right[node] = node if target == "self" else size + 3
        else:
            node = int(np.flatnonzero(tree.children_left >= 0)[0])
            size = len(tree.children_right)
            tree.children_right[node] = node if target == "self" else size + 3
        _refused(path, edited, metadata, "indices")


def test_boosted_trees_that_leave_their_tree_or_miss_classes_are_refused(fitted):
    """A right child in the next tree, roots past the nodes, or values of the wrong
    width would make the compiled predictor read outside its arrays."""
    path, model, metadata = fitted["boosted"]

    def edit(change):
        edited = copy.deepcopy(model)
        member = edited.steps[-1][1].candidates_["boosted"].estimators_[0]
        member.trees_ = change(member.trees_)
        return edited

    def into_next_tree(trees):
        inner = np.flatnonzero(trees.feature[: trees.roots[1]] >= 0)
        trees.right[inner[-1]] = trees.roots[1]  # the second tree's root
        return trees

    def roots_past_the_end(trees):
        return dataclasses.replace(trees, roots=trees.roots + 1)

    def other_width(trees):
        value = trees.values[0]
        return dataclasses.replace(trees, values=(np.hstack([value, value]),))

    genuine = model.steps[-1][1].candidates_["boosted"].estimators_[0].trees_
    assert genuine.roots.size > 2  # two trees or more
    _refused(path, edit(into_next_tree), metadata, "indices")
    _refused(path, edit(roots_past_the_end), metadata, "indices")
    _refused(path, edit(other_width), metadata, "classes")


def test_a_forest_tree_with_values_for_other_classes_is_refused(fitted):
    path, model, metadata = fitted["costsense-tree"]
    edited = copy.deepcopy(model)
    member = edited.steps[-1][1].estimators_[0]
    tree = member.tree_
    # four classes' statistics in a two-class forest
    member.tree_ = dataclasses.replace(tree, value=np.hstack([tree.value, tree.value]))
    _refused(path, edited, metadata, "classes")


@pytest.mark.parametrize(
    ("field", "value", "word"),
    [
        ("cost", {"matrix": [[0.0, 1.0], [1.0, 0.0]]}, "cost"),
        ("model", "weighting", "model"),
        ("seed", 12345, "seed"),
        ("classes", [1, 0], "classes"),
        ("missing", "impute", "missing-value"),
    ],
)
def test_metadata_that_lies_about_the_model_is_refused_naming_the_field(
    fitted, field, value, word
):
    path, model, metadata = fitted["sklearn-tree"]
    lying = {**metadata, field: value}
    if field == "cost":
        lying["cost"] = {**metadata["cost"], **value}
    check_metadata(lying, str(path))  # well formed on its own
    assert _refused(path, model, lying, word)


def test_metadata_columns_that_lie_are_refused(fitted):
    path, model, metadata = fitted["sklearn-tree"]
    columns = dict(metadata["columns"])
    columns["f9"] = columns.pop("f3")
    _refused(path, model, {**metadata, "columns": columns}, "columns")
    columns = {**metadata["columns"], "f1": "categorical"}
    _refused(path, model, {**metadata, "columns": columns}, "columns")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("model", "no-such-model"),
        ("base", "tree-of-life"),
        ("columns", {"f1": "text"}),
        ("columns", {}),
        ("missing", "guess"),
        ("classes", [1]),
        ("classes", [1, 1]),
        ("classes", [[0], [1]]),
        ("pos_label", 7),
        ("cost", {"matrix": [[0.0, -1.0], [5.0, 0.0]]}),
        ("cost", {"matrix": [[0.0, float("nan")], [5.0, 0.0]]}),
        ("cost", {"matrix": [[0.0, 1.0, 1.0], [5.0, 0.0, 1.0], [1.0, 1.0, 0.0]]}),
        ("cost", {"matrix": "0,1;5,0"}),
        ("rows", "150"),
        ("seed", None),
        ("number_marks", {"f1": ";"}),
        ("number_marks", {"no-such-column": "."}),
        ("number_marks", [","]),
    ],
)
def test_malformed_metadata_is_refused_before_anything_is_built(fitted, field, value):
    path, _, metadata = fitted["sklearn-tree"]
    bad = {**metadata, field: value}
    if field == "cost":
        bad["cost"] = {**metadata["cost"], **value}
    with pytest.raises(cli._options.UsageError) as error:
        check_metadata(bad, str(path))
    assert str(path) in str(error.value)
    name = {"pos_label": "positive class", "missing": "missing-value",
            "number_marks": "number marks"}.get(field, field)  # fmt: skip
    assert name in str(error.value)
