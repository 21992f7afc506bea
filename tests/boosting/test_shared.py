"""Work shared across the rounds of one boosting fit (``prepare_fit``)."""

from __future__ import annotations

import numpy as np
import pytest
from imblearn.over_sampling import RandomOverSampler
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense.boosting import AsyBClassifier, AsyBLClassifier
from costsense.boosting._shared import shared_fit_params

CALLS: dict[str, list] = {"prepare": [], "fit": []}


class _Token:
    """What a prepare_fit hands to every fit: it must arrive unchanged."""


class SharingTree(DecisionTreeClassifier):
    def prepare_fit(self, X):
        token = _Token()
        CALLS["prepare"].append((token, X.shape))
        return {"token": token}

    def fit(self, X, y, sample_weight=None, token=None):
        CALLS["fit"].append(token)
        return super().fit(X, y, sample_weight=sample_weight)


class SharingRegressor(DecisionTreeRegressor):
    def prepare_fit(self, X):
        token = _Token()
        CALLS["prepare"].append((token, X.shape))
        return {"token": token}

    def fit(self, X, y, sample_weight=None, token=None):
        CALLS["fit"].append(token)
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


def test_a_prepare_fit_must_return_keyword_arguments():
    class Broken:
        def prepare_fit(self, X):
            return [1, 2]

    with pytest.raises(TypeError, match="prepare_fit must return a dict"):
        shared_fit_params(Broken(), np.zeros((2, 2)))
    assert shared_fit_params(DecisionTreeClassifier(), np.zeros((2, 2))) == {}
