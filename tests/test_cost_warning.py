"""A model fitted with per-row costs warns when it decides without them.

Issue 39, item 1: ``predict(X)`` of such a model decided at the mean class costs in
silence. It now issues one CostWarning, unless ``sample_cost="mean"`` asks for the
mean costs; scikit-learn's loops calling ``predict`` warn once, not per fold.
"""

from __future__ import annotations

import warnings
import weakref

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn import config_context
from sklearn.datasets import make_classification
from sklearn.model_selection import TunedThresholdClassifierCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costsense._base import _classifier, learns_row_costs
from costsense.costs import example_costs
from costsense.exceptions import CostWarning
from costsense.metrics import make_cost_scorer
from costsense.rescale import CostWeighting
from tests._registry import classifiers, fast_instance

ROW_LEARNERS = [cls for cls in classifiers() if learns_row_costs(fast_instance(cls))]


def _data():
    X, y = make_classification(
        n_samples=150, n_features=5, weights=[0.75], random_state=0
    )
    rng = np.random.default_rng(0)
    costs = example_costs(fp=rng.uniform(1, 3, y.size), fn=rng.uniform(5, 50, y.size))
    return X, y, costs


@pytest.fixture(autouse=True)
def _forget_the_warnings_issued(monkeypatch):
    # once per fitted model: each test starts with none warned
    monkeypatch.setattr(_classifier, "_COST_WARNED", weakref.WeakSet())


def _cost_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught if w.category is CostWarning]


def test_the_row_learners_are_the_ones_the_issue_names():
    names = {cls.__name__ for cls in ROW_LEARNERS}
    assert {"CostWeighting", "MinimumCostClassifier", "AdaC2Classifier"} <= names
    assert {"CostSensitiveTreeClassifier", "CSSVMClassifier"} <= names


@pytest.mark.parametrize("cls", ROW_LEARNERS, ids=lambda c: c.__name__)
def test_a_row_cost_fit_warns_when_it_decides_without_the_rows_costs(cls):
    X, y, costs = _data()
    model, said = _cost_warnings(
        lambda: fast_instance(cls).fit(X, y, sample_cost=costs)
    )
    assert said == []  # fitting decides nothing the user asked for
    at_means, said = _cost_warnings(lambda: model.predict(X))
    assert len(said) == 1
    assert said[0].startswith(f"{cls.__name__} was fitted with per-row costs")
    assert 'sample_cost="mean"' in said[0]
    # asked for on purpose: the same decision, no warning
    on_purpose, said = _cost_warnings(lambda: model.predict(X, sample_cost="mean"))
    assert said == []
    assert_array_equal(on_purpose, at_means)
    # a model fitted with class-level costs has nothing to warn about
    plain = fast_instance(cls).set_params(cost=5).fit(X, y)
    assert _cost_warnings(lambda: plain.predict(X))[1] == []


def test_the_rows_own_costs_decide_without_a_warning_and_differently():
    X, y, costs = _data()
    model = CostWeighting().fit(X, y, sample_cost=costs)
    own, said = _cost_warnings(lambda: model.predict(X, sample_cost=costs))
    assert said == []
    assert np.any(own != model.predict(X, sample_cost="mean"))


def test_a_cross_validation_scoring_predict_warns_once_per_fold_model():
    X, y, costs = _data()
    with config_context(enable_metadata_routing=True):
        scores, said = _cost_warnings(
            lambda: cross_val_score(
                CostWeighting().set_fit_request(sample_cost=True),
                X,
                y,
                cv=5,
                scoring=make_cost_scorer(5).set_score_request(sample_cost=True),
                params={"sample_cost": costs},
            )
        )
    assert scores.shape == (5,)
    # the scorer decides by predict(X) alone: each fold's model warns, once
    assert len(said) == 5
    assert len(set(said)) == 1


def test_each_fitted_model_warns_once_and_a_new_fit_warns_again():
    X, y, costs = _data()
    first = CostWeighting().fit(X, y, sample_cost=costs)
    second = CostWeighting().fit(X, y, sample_cost=costs)
    assert len(_cost_warnings(lambda: [first.predict(X) for _ in "ab"])[1]) == 1
    # another model of the same class is another trap: it warns too
    assert len(_cost_warnings(lambda: second.predict(X))[1]) == 1
    first.fit(X, y, sample_cost=costs)
    assert len(_cost_warnings(lambda: first.predict(X))[1]) == 1


def test_the_threshold_tuner_reads_probabilities_only_and_warns_nothing():
    X, y, costs = _data()
    with config_context(enable_metadata_routing=True):
        tuned, said = _cost_warnings(
            lambda: TunedThresholdClassifierCV(
                CostWeighting().set_fit_request(sample_cost=True),
                scoring=make_cost_scorer(5).set_score_request(sample_cost=True),
                cv=3,
            ).fit(X, y, sample_cost=costs)
        )
    assert said == []
    assert _cost_warnings(lambda: tuned.predict(X))[1] == []


def test_a_pipeline_passes_the_opt_in_on_and_batches_warn_once():
    X, y, costs = _data()
    pipeline = make_pipeline(StandardScaler(), CostWeighting())
    pipeline.fit(X, y, costweighting__sample_cost=costs)
    assert _cost_warnings(lambda: pipeline.predict(X, sample_cost="mean"))[1] == []
    batches = _cost_warnings(lambda: [pipeline.predict(X[:9]) for _ in "abc"])
    assert len(batches[1]) == 1
