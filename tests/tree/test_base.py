"""What the trees and the forest share: the private bins protocol, ``cost``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification

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


def _hand_over(tree, shared):
    """Set what ``_prepare_fit`` returned on the tree, as a booster does."""
    for name, value in shared.items():
        setattr(tree, name, value)
    return tree


def test_shared_bins_give_the_tree_of_a_plain_fit_without_a_warning():
    import pickle

    X, cases = _trees_and_targets()
    for tree, target in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            shared = tree._prepare_fit(X)
            assert set(shared) == {"_shared_bins"}
            reused = _hand_over(tree, shared).fit(X, target)
            _assert_same_tree(reused, type(tree)(**tree.get_params()).fit(X, target))
            assert type(tree)(splitter="exact")._prepare_fit(X) == {}
        # taken by the fit: the fitted tree neither keeps nor pickles them
        assert not hasattr(reused, "_shared_bins")
        assert "_shared_bins" not in pickle.loads(pickle.dumps(reused)).__dict__


def test_fit_takes_no_bins_and_routes_none():
    import inspect

    for cls in (CostSensitiveTreeClassifier, CostSensitiveTreeRegressor):
        parameters = inspect.signature(cls.fit).parameters
        assert "bins" not in parameters and "_bins" not in parameters
        assert not hasattr(cls, "prepare_fit")
        requests = cls()._get_metadata_request().fit.requests
        assert "sample_weight" in requests
        assert not {"bins", "_bins", "_shared_bins"} & set(requests)


def test_bins_of_other_rows_are_refused_naming_the_private_method():
    X, cases = _trees_and_targets()
    tree, target = cases[0]
    shared = tree._prepare_fit(X[:50])
    with pytest.raises(ValueError, match=r"_prepare_fit\(X\) for this same X"):
        _hand_over(tree, shared).fit(X, target)


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


def _balanced_by_hand(y, weight=None):
    """``cost[i, j] = W / (K W_i)`` off the diagonal: balanced costs, by hand."""
    classes = np.unique(y)
    w = np.ones(y.size) if weight is None else weight
    totals = np.array([w[y == c].sum() for c in classes])
    k = classes.size
    return (w.sum() / (k * totals))[:, None] * (1 - np.eye(k))


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_the_default_is_unit_cost(make):
    X, y, _ = _three_classes()
    default = make().fit(X, y)
    assert default.cost == "unit"
    assert_array_equal(default.cost_matrix_, 1 - np.eye(3))
    unit = make(cost="unit").fit(X, y)
    explicit = make(cost=1 - np.eye(3)).fit(X, y)
    _assert_same_model(unit, default, X)
    _assert_same_model(explicit, default, X)


@pytest.mark.parametrize("make", CLASSIFIERS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("cost", [None, "balanced"])
def test_cost_none_and_balanced_are_the_balanced_matrix_given_explicitly(
    make, weighted, cost
):
    # one meaning of cost=None for every costsense estimator: balanced costs
    X, y, weight = _three_classes()
    w = weight if weighted else None
    matrix = as_cost_matrix(None, np.unique(y), y=y, sample_weight=w)
    assert_allclose(matrix, _balanced_by_hand(y, w), rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # None is a cost like any other: no warning
        balanced = make(cost=cost).fit(X, y, sample_weight=w)
    explicit = make(cost=matrix).fit(X, y, sample_weight=w)
    _assert_same_model(balanced, explicit, X)
    # not the unit costs: the rarer classes' errors cost more
    assert not np.array_equal(balanced.cost_matrix_, 1 - np.eye(3))
    assert np.any(balanced.predict(X) != make().fit(X, y, sample_weight=w).predict(X))


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_cost_none_beside_per_row_costs_is_replaced_by_them(make):
    """Per-row costs replace ``cost``: None beside them changes nothing."""
    X, y, weight = _three_classes()
    rows = (1 - np.eye(3))[y] * weight[:, None]
    blind = make(cost=None).fit(X, y, sample_cost=rows)
    _assert_same_model(blind, make().fit(X, y, sample_cost=rows), X)


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_an_unknown_cost_name_is_refused_naming_the_parameter(make):
    X, y, _ = _three_classes()
    with pytest.raises(ValueError, match="'cost' parameter"):
        make(cost="balnced").fit(X, y)
