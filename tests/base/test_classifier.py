"""Tests of ClassifierBase: one fit start-up and one per-row decision for all."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from costsense._base import learns_row_costs
from costsense.boosting import (
    AdaBoostClassifier,
)
from costsense.costs import example_costs
from costsense.tree import CostSensitiveTreeClassifier
from tests._registry import classifiers, fast_instance
from tests.base._data import data, four_part_rows


@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_every_classifier_refuses_bad_weights_by_name(cls):
    X, y = data(n=60, seed=6)
    negative = np.ones(len(y))
    negative[3] = -1.0
    with pytest.raises(ValueError, match="sample_weight"):
        fast_instance(cls).fit(X, y, sample_weight=negative)
    with pytest.raises(ValueError, match="[Ss]ample weights must contain"):
        fast_instance(cls).fit(X, y, sample_weight=np.zeros(len(y)))


@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_every_classifier_says_the_same_about_one_class(cls):
    X, _ = data(n=30, seed=7)
    with pytest.raises(ValueError) as error:
        fast_instance(cls).fit(X, np.full(30, "only"))
    assert str(error.value) == (
        "y has only one class ('only'); a classifier needs at least two classes to "
        "learn from."
    )


def _decides_rows(cls) -> bool:
    return "sample_cost" in inspect.signature(cls.predict).parameters and (
        cls.__name__ != "LDMClassifier"  # cost-blind: sample_cost=None only
    )


ROW_COST_LEARNERS = [cls for cls in classifiers() if _decides_rows(cls)]


ON_PREDICT_PROBA = [
    cls
    for cls in ROW_COST_LEARNERS
    if cls.__name__
    not in {"CostWeighting", "RejectionSampling", "MetaCost", "MinimumCostClassifier"}
]


def _fitted_on_rows(cls):
    X, y = data()
    model = fast_instance(cls)
    if "probability" in model.get_params():
        model.set_params(probability=True)
    if cls is CostSensitiveTreeClassifier:
        model.set_params(min_samples_leaf=10)  # leaves of one class give 0 or 1
    if not learns_row_costs(model):  # costs only at prediction
        return model.fit(X, y), X
    return model.fit(X, y, sample_cost=four_part_rows(len(y), 1)), X


@pytest.mark.parametrize("cls", ROW_COST_LEARNERS, ids=lambda c: c.__name__)
def test_every_learner_fitted_on_row_costs_decides_with_them(cls):
    # fitted on per-row costs (where fit takes them), predict takes the rows' own
    # costs and they change
    # the decision: all-huge false-negative costs make every row positive
    model, X = _fitted_on_rows(cls)
    n = X.shape[0]
    huge_fn = np.column_stack([np.ones(n), np.full(n, 1e12), np.zeros(n), np.zeros(n)])
    huge_fp = huge_fn[:, [1, 0, 2, 3]]
    proba = model.predict_proba(X)[:, 1]
    inside = (proba > 1e-9) & (proba < 1 - 1e-9)
    assert inside.any()
    assert np.all(model.predict(X[inside], sample_cost=huge_fn[inside]) == 1)
    assert np.all(model.predict(X[inside], sample_cost=huge_fp[inside]) == 0)


@pytest.mark.parametrize("cls", ON_PREDICT_PROBA, ids=lambda c: c.__name__)
def test_the_row_decision_is_the_bayes_rule_on_predict_proba(cls):
    model, X = _fitted_on_rows(cls)
    rows = four_part_rows(X.shape[0], 2)
    fp, fn, tp, tn = rows.T
    p = model.predict_proba(X)[:, 1]  # labels 0 / 1, positive 1
    cost_if_positive = p * tp + (1 - p) * fp
    cost_if_negative = p * fn + (1 - p) * tn
    expected = (cost_if_positive < cost_if_negative).astype(int)
    assert_array_equal(model.predict(X, sample_cost=rows), expected)
    # the same costs as named parts or as one matrix per row decide the same
    parts = example_costs(fp=fp, fn=fn, tp=tp, tn=tn)
    matrices = np.stack([np.stack([tn, fp], 1), np.stack([fn, tp], 1)], 1)
    assert_array_equal(model.predict(X, sample_cost=parts), expected)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)


@pytest.mark.parametrize("cls", ON_PREDICT_PROBA, ids=lambda c: c.__name__)
def test_a_cost_of_being_right_changes_no_row_decision(cls):
    # adding a constant to a truth row of a row's matrix (a TP or TN cost) moves
    # both expected costs of that row by the same amount
    model, X = _fitted_on_rows(cls)
    rows = four_part_rows(X.shape[0], 3)
    shifted = rows.copy()
    shift = np.random.default_rng(4).uniform(0, 5, (X.shape[0], 2))
    shifted[:, [1, 2]] += shift[:, [0]]  # FN and TP: the positives' row
    shifted[:, [0, 3]] += shift[:, [1]]  # FP and TN: the negatives' row
    assert_array_equal(
        model.predict(X, sample_cost=shifted), model.predict(X, sample_cost=rows)
    )


def test_a_row_decision_refuses_costs_given_only_for_the_true_class():
    X, y = data()
    model = AdaBoostClassifier(n_estimators=5).fit(X, y)
    with pytest.raises(ValueError, match="cost rows given the true class do not say"):
        model.predict(X, sample_cost=np.ones((len(y), 2)))
