"""Work shared across the rounds of one boosting fit (``_prepare_fit``)."""

from __future__ import annotations

import numpy as np
import pytest
from imblearn.over_sampling import RandomOverSampler
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense.boosting import AsyBClassifier, AsyBLClassifier
from costsense.boosting._engine import shared_fit_state

CALLS: dict[str, list] = {"prepare": [], "fit": []}


class _Token:
    """What a _prepare_fit hands to every fit: it must arrive unchanged."""


class SharingTree(DecisionTreeClassifier):
    def _prepare_fit(self, X):
        token = _Token()
        CALLS["prepare"].append((token, X.shape))
        return {"_token": token}

    def fit(self, X, y, sample_weight=None):
        CALLS["fit"].append(self.__dict__.pop("_token", None))
        return super().fit(X, y, sample_weight=sample_weight)


class SharingRegressor(DecisionTreeRegressor):
    def _prepare_fit(self, X):
        token = _Token()
        CALLS["prepare"].append((token, X.shape))
        return {"_token": token}

    def fit(self, X, y, sample_weight=None):
        CALLS["fit"].append(self.__dict__.pop("_token", None))
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.fixture
def data():
    for calls in CALLS.values():
        calls.clear()
    return make_classification(n_samples=200, weights=[0.8], random_state=0)


@pytest.mark.parametrize(
    ("booster", "sharing", "plain"),
    [
        (AsyBClassifier, SharingTree(max_depth=2), DecisionTreeClassifier(max_depth=2)),
        (
            AsyBLClassifier,
            SharingRegressor(max_depth=2),
            DecisionTreeRegressor(max_depth=2),
        ),
    ],  # fmt: skip
)
def test_prepared_once_per_fit_and_given_to_every_round(data, booster, sharing, plain):
    X, y = data
    model = booster(sharing, cost=5, n_estimators=7, random_state=0).fit(X, y)
    ((token, shape),) = CALLS["prepare"]  # once, on the training rows
    assert shape == X.shape
    assert len(CALLS["fit"]) == len(model.estimators_) > 1
    assert all(t is token for t in CALLS["fit"])
    # sharing changes the work, not the model
    reference = booster(plain, cost=5, n_estimators=7, random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))
    np.testing.assert_allclose(model.decision_function(X),
                               reference.decision_function(X))  # fmt: skip


def test_nothing_is_shared_when_rounds_see_new_rows(data):
    X, y = data
    AsyBClassifier(SharingTree(max_depth=2), cost=5, n_estimators=3, random_state=0,
                   sampler=RandomOverSampler(random_state=0)).fit(X, y)  # fmt: skip
    assert CALLS["prepare"] == [] and set(CALLS["fit"]) == {None}


@pytest.mark.parametrize("returned", [[1, 2], {"bins": 1}, {1: 2}])
def test_a_prepare_fit_must_return_private_attributes(returned):
    class Broken:
        def _prepare_fit(self, X):
            return returned

    with pytest.raises(TypeError, match="prepare_fit must return a dict of private"):
        shared_fit_state(Broken(), np.zeros((2, 2)))
    assert shared_fit_state(DecisionTreeClassifier(), np.zeros((2, 2))) == {}


def test_the_compiled_tree_bins_once_and_boosts_the_same_model(data, monkeypatch):
    from costsense.boosting import _engine, _logit
    from costsense.tree import CostSensitiveTreeClassifier, CostSensitiveTreeRegressor

    X, y = data
    hist = {"max_depth": 3, "splitter": "hist", "max_bins": 16}
    cases = [
        (AsyBClassifier, CostSensitiveTreeClassifier(**hist), _engine),
        (AsyBLClassifier, CostSensitiveTreeRegressor(**hist), _logit),
    ]
    for booster, tree, module in cases:
        assert set(tree._prepare_fit(X)) == {"_shared_bins"}
        shared = booster(tree, cost=5, n_estimators=10, random_state=0).fit(X, y)
        with monkeypatch.context() as patch:  # every round bins for itself
            patch.setattr(module, "shared_fit_state", lambda base, X: {})
            alone = booster(tree, cost=5, n_estimators=10, random_state=0).fit(X, y)
        np.testing.assert_allclose(shared.decision_function(X),
                                   alone.decision_function(X))  # fmt: skip
        assert len(shared.estimators_) == len(alone.estimators_) > 1
        # each round's tree took its bins: none is kept in the fitted model
        assert not any(hasattr(m, "_shared_bins") for m in shared.estimators_)


def test_the_exact_compiled_tree_boosts_like_scikit_learns_tree(data):
    from costsense.tree import CostSensitiveTreeClassifier

    X, y = data
    ours = CostSensitiveTreeClassifier(max_depth=2, splitter="exact")
    theirs = DecisionTreeClassifier(max_depth=2)
    a = AsyBClassifier(ours, cost=5, n_estimators=10, random_state=0).fit(X, y)
    b = AsyBClassifier(theirs, cost=5, n_estimators=10, random_state=0).fit(X, y)
    np.testing.assert_allclose(a.estimator_weights_, b.estimator_weights_)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))


def test_bins_of_other_data_are_refused():
    from costsense.tree import CostSensitiveTreeClassifier

    X, y = make_classification(n_samples=60, random_state=1)
    tree = CostSensitiveTreeClassifier(max_depth=2, splitter="hist")
    shared = shared_fit_state(tree, X[:30])
    with pytest.raises(ValueError, match="bins were made for data of shape"):
        tree._shared_bins = shared["_shared_bins"]
        tree.fit(X, y)
    assert CostSensitiveTreeClassifier(splitter="exact")._prepare_fit(X) == {}
