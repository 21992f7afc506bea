"""The model-file library: a round trip, public type names, checks without the CLI."""

from __future__ import annotations

import dataclasses
import importlib
import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification

from costsense.exceptions import UsageError
from costsense.persist import load_model, read_model, save_model
from costsense.persist._types import ALLOWED
from costsense.tree import CostSensitiveForestClassifier
from costsense.utils.discovery import all_estimators

PACKAGES = [
    "boosting",
    "margin",
    "naive_bayes",
    "recommend",
    "rescale",
    "sampling",
    "tree",
]


@pytest.mark.parametrize("package", PACKAGES)
def test_public_classes_name_their_public_module_and_still_pickle(package):
    module = importlib.import_module(f"costsense.{package}")
    classes = [getattr(module, n) for n in module.__all__]
    classes = [c for c in classes if isinstance(c, type)]
    assert classes
    for cls in classes:
        assert cls.__module__ == module.__name__, cls
        assert pickle.loads(pickle.dumps(cls)) is cls


def test_model_files_name_costsense_classes_by_their_public_path():
    # a private module can move without changing the file format
    for dotted in ALLOWED["ObjectNode"]:
        if not dotted.startswith("costsense."):
            continue
        module_name, _, name = dotted.rpartition(".")
        cls = getattr(importlib.import_module(module_name), name)
        public = f"costsense.{dotted.split('.')[1]}"
        if name in getattr(importlib.import_module(public), "__all__", ()):
            assert module_name == public, dotted
        assert f"{cls.__module__}.{cls.__qualname__}" == dotted


def test_estimators_clone_and_pickle_with_their_public_module():
    for _, cls in all_estimators():
        assert cls.__module__.count("._") == 0, cls  # no private module named
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    model = CostSensitiveForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    assert type(clone(model)) is CostSensitiveForestClassifier


@pytest.fixture
def forest(tmp_path):
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    model = CostSensitiveForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    path = tmp_path / "forest.skops"
    save_model(model, path, metadata={"rows": 60}, key=b"k" * 16)
    return model, path, X


def test_a_library_user_saves_and_loads_a_checked_model(forest):
    model, path, X = forest
    loaded, metadata = load_model(path, key=b"k" * 16)
    assert metadata == {"rows": 60}
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    stored = read_model(path)
    assert stored.signed and "costsense.tree.CostSensitiveForestClassifier" in (
        stored.types
    )
    with pytest.raises(UsageError, match="not signed with this key"):
        load_model(path, key=b"other-key-of-16b")
    with pytest.raises(UsageError, match="appeared while"):
        save_model(model, path)  # nothing is replaced


def test_the_library_loader_checks_the_trees_it_built(forest, monkeypatch):
    model, path, _ = forest
    stored = read_model(path)
    built = stored.construct()
    member = built.estimators_[0]
    tree = member.tree_
    feature = tree.feature.copy()
    feature[feature >= 0] += 4  # past the input's 4 columns
    member.tree_ = dataclasses.replace(tree, feature=feature)
    monkeypatch.setattr(type(stored), "construct", lambda self: built)
    with pytest.raises(UsageError, match="CostSensitiveForestClassifier|Tree has node"):
        load_model(path)
