"""What both trees share: the private bins protocol and its deprecated spellings."""

from __future__ import annotations

import warnings

import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification

from costsense.tree import CostSensitiveTreeClassifier, CostSensitiveTreeRegressor

NODE_ARRAYS = ("feature", "threshold", "children_left", "children_right", "value")


def _assert_same_tree(a, b):
    for name in NODE_ARRAYS:
        assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))


def _trees_and_targets():
    X, y = make_classification(n_samples=200, weights=[0.8], random_state=0)
    hist = {"max_depth": 4, "splitter": "hist", "max_bins": 16}
    return X, [
        (CostSensitiveTreeClassifier(cost=3, **hist), y),
        (CostSensitiveTreeRegressor(**hist), y * X[:, 0]),
    ]


def test_private_bins_give_the_tree_of_a_plain_fit_without_a_warning():
    X, cases = _trees_and_targets()
    for tree, target in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            shared = tree._prepare_fit(X)
            assert set(shared) == {"_bins"}
            reused = tree.fit(X, target, **shared)
            _assert_same_tree(reused, type(tree)(**tree.get_params()).fit(X, target))
            assert type(tree)(splitter="exact")._prepare_fit(X) == {}


def test_prepare_fit_is_deprecated_and_returns_the_same_bins():
    X, cases = _trees_and_targets()
    for tree, _ in cases:
        name = type(tree).__name__
        message = rf"{name}\.prepare_fit\(X\) is deprecated .* without bins"
        with pytest.warns(FutureWarning, match=message) as caught:
            (old,) = tree.prepare_fit(X).values()
        assert caught[0].filename == __file__  # the caller's line, not ours
        (new,) = tree._prepare_fit(X).values()
        for field in ("codes", "n_bins", "lower", "upper"):
            assert_array_equal(getattr(old, field), getattr(new, field))
        with pytest.warns(FutureWarning, match="prepare_fit"):
            assert type(tree)(splitter="exact").prepare_fit(X) == {}


def test_fit_with_bins_is_deprecated_and_gives_the_same_tree():
    X, cases = _trees_and_targets()
    for tree, target in cases:
        (bins,) = tree._prepare_fit(X).values()
        message = rf"{type(tree).__name__}\.fit\(\.\.\., bins=\) is deprecated"
        with pytest.warns(FutureWarning, match=message) as caught:
            old = type(tree)(**tree.get_params()).fit(X, target, bins=bins)
        assert len(caught) == 1 and caught[0].filename == __file__
        new = type(tree)(**tree.get_params()).fit(X, target, _bins=bins)
        _assert_same_tree(old, new)
        assert_array_equal(old.predict(X), new.predict(X))
        # the deprecated pair, as it was used, still works
        with pytest.warns(FutureWarning):
            paired = type(tree)(**tree.get_params())
            paired.fit(X, target, **paired.prepare_fit(X))
        _assert_same_tree(paired, new)


def test_the_private_keyword_is_not_routable_metadata():
    for cls in (CostSensitiveTreeClassifier, CostSensitiveTreeRegressor):
        requests = cls()._get_metadata_request().fit.requests
        assert "_bins" not in requests and "sample_weight" in requests
        assert "bins" in requests  # unchanged while it is deprecated


def test_bins_of_other_rows_are_refused_naming_the_private_method():
    X, cases = _trees_and_targets()
    tree, target = cases[0]
    (bins,) = tree._prepare_fit(X[:50]).values()
    with pytest.raises(ValueError, match=r"_prepare_fit\(X\) for this same X"):
        tree.fit(X, target, _bins=bins)
