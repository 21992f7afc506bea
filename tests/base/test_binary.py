"""Tests of BinaryCostClassifier: Platt probabilities, per-row costs, row decisions."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import has_fit_parameter

from costsense.boosting import (
    AdaBoostCClassifier,
    AdaC1Classifier,
    AsyBClassifier,
)
from costsense.margin import CSLDMClassifier, CSSVMClassifier, LDMClassifier
from tests.base._data import data, four_part_rows


@pytest.mark.parametrize(
    "model",
    [
        CSSVMClassifier(cost=3.0, probability=True, random_state=0),
        LDMClassifier(probability=True, random_state=0),
        CSLDMClassifier(cost=3.0, probability=True, random_state=0),
    ],
    ids=lambda m: type(m).__name__,
)
def test_margin_learners_calibrate_with_their_cv_weights_and_seed(model):
    X, y = data(seed=4)
    w = np.random.default_rng(4).integers(1, 4, size=len(y)).astype(float)
    splits = list(KFold(4).split(X))
    fitted = model.set_params(cv=splits).fit(X, y, sample_weight=w)
    # the same learner, on the same folds, by hand: the costs of the positives
    # (class 1, the minority) weigh their hinge losses, the weights everything
    given = {"probability": False, "cv": 5}
    if has_fit_parameter(model, "sample_cost"):
        given["cost"] = None  # c replaces cost
    member = type(model)(**{**model.get_params(), **given})
    c = np.where(y == 1, fitted.costs_[0], fitted.costs_[1])
    scores = np.full(len(y), np.nan)
    for train, test in splits:
        kwargs = {"sample_weight": w[train]}
        if has_fit_parameter(member, "sample_cost"):
            kwargs["sample_cost"] = {"fn": c[train], "fp": c[train]}
        scores[test] = member.fit(X[train], y[train], **kwargs).decision_function(
            X[test]
        )
    platt = LogisticRegression(C=1e6).fit(scores[:, None], y, sample_weight=w)
    assert fitted.platt_ == pytest.approx(
        (platt.coef_[0, 0], platt.intercept_[0]), rel=1e-6
    )
    reseeded = type(model)(**{**model.get_params(), "cv": 5, "random_state": 1})
    again = type(model)(**{**model.get_params(), "cv": 5, "random_state": 1})
    assert reseeded.fit(X, y).platt_ == again.fit(X, y).platt_


@pytest.mark.parametrize(
    "model",
    [
        AdaBoostCClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=8),
        AdaC1Classifier(DecisionTreeClassifier(max_depth=2), n_estimators=8),
        AsyBClassifier(n_estimators=8),
    ],
    ids=lambda m: type(m).__name__,
)
def test_train_cost_uses_each_samples_own_cost(model):
    X, y = data(seed=5)
    cost = np.random.default_rng(5).uniform(0.5, 9.0, size=len(y))
    any_error = {"fn": cost, "fp": cost}
    fitted = model.set_params(random_state=0).fit(X, y, sample_cost=any_error)
    for stage, prediction in enumerate(fitted.staged_predict(X)):
        by_hand = np.sum(cost[prediction != y]) / len(y)
        assert fitted.train_cost_[stage] == pytest.approx(by_hand, rel=1e-12)
    # the class means alone would give another figure
    means = np.where(y == fitted.pos_label_, *fitted.costs_)
    last = fitted.predict(X, sample_cost="mean") != y
    assert fitted.train_cost_[-1] != pytest.approx(np.sum(means[last]) / len(y))


def test_a_row_decision_without_probabilities_says_how_to_get_them():
    X, y = data()
    model = CSSVMClassifier().fit(X, y, sample_cost=four_part_rows(len(y), 1))
    with pytest.raises(ValueError, match=r"probability=True"):
        model.predict(X, sample_cost=four_part_rows(len(y), 2))
