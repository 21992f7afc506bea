"""What the trees and the forest share: the private bins protocol, ``cost``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costsense.costs import as_cost_matrix
from costsense.tree import (
    CostSensitiveForestClassifier,
    CostSensitiveTreeClassifier,
    CostSensitiveTreeRegressor,
)

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


# --------------------------------------------------------------- cost="unit"
CLASSIFIERS = [
    pytest.param(lambda **p: CostSensitiveTreeClassifier(max_depth=5, **p), id="tree"),
    pytest.param(
        lambda **p: CostSensitiveForestClassifier(
            n_estimators=4, max_depth=5, random_state=0, **p
        ),
        id="forest",
    ),
]


def _three_classes():
    X, y = make_classification(
        n_samples=300, n_classes=3, n_informative=4, weights=[0.7, 0.2],
        random_state=2,
    )  # fmt: skip
    weight = np.random.RandomState(0).uniform(0.5, 2.0, size=y.size)
    return X, y, weight


def _members(model):
    return getattr(model, "estimators_", [model])


def _assert_same_model(a, b, X):
    for one, other in zip(_members(a), _members(b), strict=True):
        _assert_same_tree(one, other)
    assert_array_equal(a.cost_matrix_, b.cost_matrix_)
    assert_array_equal(a.predict_task_score(X), b.predict_task_score(X))
    assert_array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_the_default_is_unit_cost_and_cost_none_is_deprecated_with_the_same_model(
    make,
):
    X, y, _ = _three_classes()
    default = make().fit(X, y)
    assert default.cost == "unit"
    assert_array_equal(default.cost_matrix_, 1 - np.eye(3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unit = make(cost="unit").fit(X, y)
    name = type(default).__name__
    message = (
        rf"{name}\(cost=None\) means cost-blind \(unit\) costs today and will mean "
        r'balanced costs.*cost="unit".*cost="balanced"'
    )
    with pytest.warns(FutureWarning, match=message) as caught:
        blind = make(cost=None).fit(X, y)
    assert len(caught) == 1 and caught[0].filename == __file__
    _assert_same_model(unit, default, X)
    _assert_same_model(blind, default, X)


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_the_cost_none_warning_points_at_the_users_line_through_a_pipeline(make):
    # a fixed stacklevel would name scikit-learn's Pipeline.fit here
    X, y, _ = _three_classes()
    pipeline = make_pipeline(StandardScaler(), make(cost=None))
    with pytest.warns(FutureWarning, match=r"cost=None\) means") as caught:
        pipeline.fit(X, y)
    assert len(caught) == 1 and caught[0].filename == __file__


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_cost_none_beside_per_row_costs_is_not_warned_about(make):
    """Per-row costs replace ``cost``: what None will mean changes nothing."""
    X, y, weight = _three_classes()
    rows = (1 - np.eye(3))[y] * weight[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        blind = make(cost=None).fit(X, y, sample_cost=rows)
    _assert_same_model(blind, make().fit(X, y, sample_cost=rows), X)


@pytest.mark.parametrize("make", CLASSIFIERS)
@pytest.mark.parametrize("weighted", [False, True])
def test_balanced_cost_is_the_balanced_matrix_given_explicitly(make, weighted):
    X, y, weight = _three_classes()
    w = weight if weighted else None
    matrix = as_cost_matrix(None, np.unique(y), y=y, sample_weight=w)
    balanced = make(cost="balanced").fit(X, y, sample_weight=w)
    explicit = make(cost=matrix).fit(X, y, sample_weight=w)
    _assert_same_model(balanced, explicit, X)
    # not the unit costs: the rarer classes' errors cost more
    assert not np.array_equal(balanced.cost_matrix_, 1 - np.eye(3))


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_an_unknown_cost_name_is_refused_naming_the_parameter(make):
    X, y, _ = _three_classes()
    with pytest.raises(ValueError, match="'cost' parameter"):
        make(cost="balnced").fit(X, y)


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_a_fitted_model_saved_with_cost_none_loads_as_unit_cost(make):
    # None meant unit costs when such a model was grown; it will mean balanced
    import pickle

    X, y, _ = _three_classes()
    with pytest.warns(FutureWarning, match=r"cost=None\) means"):
        blind = make(cost=None).fit(X, y)
    loaded = pickle.loads(pickle.dumps(blind))
    assert loaded.cost == "unit" and blind.cost is None
    _assert_same_model(loaded, blind, X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a refit no longer warns: unit is named
        refit = clone(loaded).fit(X, y)
    _assert_same_model(refit, blind, X)
    unfitted = pickle.loads(pickle.dumps(make(cost=None)))
    assert unfitted.cost is None  # nothing was grown: the parameter is left
