"""Tests of RejectionSampling: samples kept in proportion to their cost."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from costsense.rescale import (
    RejectionSampling,
)
from tests.rescale._data import (
    PER_ROW_WRAPPERS,
    binary,
    least_expected_cost,
    member_proba,
    random_matrices,
)


class _Recorder(ClassifierMixin, BaseEstimator):
    """Records the class counts of the sample it is trained on."""

    def fit(self, X, y):
        self.classes_, self.counts_ = np.unique(y, return_counts=True)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[np.argmax(self.counts_)])


def test_rejection_sampling_keeps_samples_in_proportion_to_their_cost():
    X, y = binary(n=1000)
    n_pos, n_neg = np.sum(y == 1), np.sum(y == 0)
    model = RejectionSampling(_Recorder(), cost=4, n_estimators=50, random_state=0)
    model.fit(X, y)
    kept = np.array([m.counts_ for m in model.estimators_])  # columns: class 0, 1
    assert np.all(kept[:, 1] == n_pos)  # the costly class is always kept
    # negatives are kept with probability C2 / C1 = 1/4: binomial mean and spread
    mean, sd = n_neg / 4, np.sqrt(n_neg * 0.25 * 0.75)
    assert abs(kept[:, 0].mean() - mean) < 4 * sd / np.sqrt(50)
    assert kept[:, 0].std() == pytest.approx(sd, rel=0.35)
    assert model.acceptance_rate_ == pytest.approx(kept.sum(axis=1).mean() / y.size)


def test_equal_costs_keep_everything_and_reduce_to_the_base_learner():
    X, y = binary()
    model = RejectionSampling(LogisticRegression(), cost=1, random_state=0).fit(X, y)
    base = LogisticRegression().fit(X, y)
    assert model.acceptance_rate_ == 1.0
    assert_array_equal(model.predict(X), base.predict(X))
    soft = RejectionSampling(LogisticRegression(), cost=1, voting="soft").fit(X, y)
    assert_allclose(soft.predict_proba(X), base.predict_proba(X))


def test_hard_votes_are_shares_of_member_predictions():
    X, y = binary()
    model = RejectionSampling(
        DecisionTreeClassifier(max_depth=2), cost=5, n_estimators=7, random_state=1
    ).fit(X, y)
    votes = np.mean([m.predict(X) == 1 for m in model.estimators_], axis=0)
    assert_allclose(model.predict_proba(X)[:, 1], votes)
    assert_array_equal(model.predict(X), np.where(votes > 0.5, 1, 0))


@pytest.mark.parametrize("per_row_fit", [False, True])
def test_rejection_sampling_decides_rows_on_the_mean_member_probability(per_row_fit):
    # the members see class k over-represented by its mean acceptance probability
    X, y = binary(seed=4)
    rng = np.random.default_rng(4)
    model = PER_ROW_WRAPPERS["RejectionSampling"]()  # hard votes: predict_proba
    if per_row_fit:  # is the vote share, the per-row decision uses probabilities
        error = np.where(y == 1, rng.uniform(4, 9, y.size), rng.uniform(1, 3, y.size))
        s = rng.uniform(0.5, 2.0, y.size)
        model.fit(X, y, sample_weight=s, sample_cost={"fn": error, "fp": error})
        accept = error * s / np.max(error * s)
        w = np.array([np.sum(accept[y == k]) / np.sum(s[y == k]) for k in (0, 1)])
    else:
        model.set_params(cost=4).fit(X, y)
        w = np.array([0.25, 1.0])
    assert_allclose(model.class_weights_, w, rtol=1e-12)
    averaged = member_proba(model, X)
    posterior = (averaged / w) / (averaged / w).sum(axis=1, keepdims=True)
    matrices = random_matrices(rng, y.size)
    expected = least_expected_cost(posterior, matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
    assert np.any(least_expected_cost(averaged, matrices) != expected)
    votes = np.argmax(model.predict_proba(X), axis=1)
    assert_array_equal(model.predict(X, sample_cost="mean"), votes)


def test_rejection_sampling_members_without_proba_decide_rows_by_their_votes():
    X, y = binary()
    model = RejectionSampling(LinearSVC(), cost=4, random_state=0).fit(X, y)
    matrices = random_matrices(np.random.default_rng(0), y.size)
    votes = np.mean([m.predict(X) == 1 for m in model.estimators_], axis=0)
    w0, w1 = model.class_weights_
    p = (votes / w1) / (votes / w1 + (1 - votes) / w0)  # the sampling divided out
    cost_positive = p * matrices[:, 1, 1] + (1 - p) * matrices[:, 0, 1]
    cost_negative = p * matrices[:, 1, 0] + (1 - p) * matrices[:, 0, 0]
    expected = (cost_positive < cost_negative).astype(int)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
