"""Tests of MetaCost: relabelling by bagged expected cost (Domingos 1999)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from costsense.costs import example_costs
from costsense.datasets import make_gaussian_problem
from costsense.rescale import (
    MetaCost,
)
from tests.rescale._data import (
    binary,
    least_expected_cost,
    member_proba,
    random_matrices,
    three_separable,
)


@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("c1, expected", [(10, 1), (2, 0)])
def test_metacost_relabels_by_least_expected_cost(c1, expected, oob):
    # A prior-only base learner estimates P(+) = 0.2 everywhere. Expected costs:
    # predict 0 -> 0.2 * C1, predict 1 -> 0.8 * C2. C1 = 10: 2 > 0.8, all become 1;
    # C1 = 2: 0.4 < 0.8, all become 0.
    X, y = binary(n=400, minority=0.2)
    model = MetaCost(
        DummyClassifier(strategy="prior"), cost=c1, oob=oob, random_state=0
    ).fit(X, y)
    assert_array_equal(model.predict(X), np.full(y.size, expected))
    assert model.relabelled_fraction_ == pytest.approx(np.mean(y != expected))


@pytest.mark.slow  # two models' costs integrated over 8 million points each
def test_metacost_lowers_the_cost_of_a_tree_on_the_gaussian_problem():
    problem = make_gaussian_problem()
    X, y = problem.sample(1000, random_state=1)
    tree = DecisionTreeClassifier(min_samples_leaf=20, random_state=0)
    plain = problem.expected_cost(tree.fit(X, y), cost=8)
    meta = problem.expected_cost(
        MetaCost(tree, cost=8, pos_label=1, random_state=0).fit(X, y), cost=8
    )
    assert meta < 0.8 * plain


class _PriorRecorder(ClassifierMixin, BaseEstimator):
    """Predicts its training prior everywhere; records the labels it learnt."""

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.prior_ = counts / counts.sum()
        self.y_seen_ = np.asarray(y)
        return self

    def predict_proba(self, X):
        return np.tile(self.prior_, (len(X), 1))

    def predict(self, X):
        return self.classes_[np.argmax(self.prior_)].repeat(len(X))


@pytest.mark.filterwarnings("ignore::costsense.exceptions.DegenerateModelWarning")
def test_metacost_relabels_each_training_row_with_its_own_matrix():
    # Domingos (1999) relabels each example by its own expected costs. With the
    # prior P(+) ~ 0.2 everywhere and C_FP = 1, a row whose false negative costs
    # 40 is cheapest positive (0.2 * 40 > 0.8 * 1), one whose costs 0.5 negative
    # (0.1 < 0.8); the class-mean matrix (C_FN ~ 20) says positive for every row.
    X, y = binary(n=400, minority=0.2)
    fn = np.where(np.arange(y.size) % 2 == 0, 40.0, 0.5)
    costs = example_costs(fp=1.0, fn=fn)
    model = MetaCost(_PriorRecorder(), pos_label=1, n_estimators=5, random_state=0)
    model.fit(X, y, sample_cost=costs)
    p = np.mean([np.mean(m.y_seen_ == 1) for m in model.estimators_])
    own = np.where(p * fn > (1 - p) * 1.0, 1, 0)
    average = int(p * fn[y == 1].mean() > (1 - p) * 1.0)
    relabelled = model.estimator_.y_seen_  # what the final learner was taught
    assert_array_equal(relabelled, own)
    assert average == 1 and np.any(own == 0)  # the mean matrix would say 1
    # predict with the same rows' costs applies the same rule (oob=False)
    assert_array_equal(model.predict(X, sample_cost=costs), relabelled)


@pytest.mark.parametrize("three", [False, True])
def test_metacost_decides_rows_on_the_mean_of_its_bagged_members(three):
    X, y = three_separable(seed=5) if three else binary(seed=5)
    k = np.unique(y).size
    rng = np.random.default_rng(5)
    cost = np.array([[0, 1, 2], [4, 0, 1], [9, 3, 0]])[:k, :k]
    model = MetaCost(LogisticRegression(), n_estimators=5, cost=cost, random_state=0)
    model.fit(X, y)
    assert len(model.estimators_) == 5
    matrices = rng.uniform(0, 10, size=(y.size, k, k))
    expected = least_expected_cost(member_proba(model, X), matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
    assert np.any(model.predict(X) != expected)  # not the final learner's decision


def test_metacost_without_predict_proba_decides_on_the_members_votes():
    X, y = binary(seed=6)
    model = MetaCost(LinearSVC(), cost=4, n_estimators=5, random_state=0).fit(X, y)
    votes = np.mean([m.predict(X)[:, None] == [0, 1] for m in model.estimators_], 0)
    matrices = random_matrices(np.random.default_rng(6), y.size)
    expected = least_expected_cost(votes, matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
