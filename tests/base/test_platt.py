"""Tests of costsense._base._platt: Platt scaling on out-of-fold scores (Platt 1999)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.svm import LinearSVC

from costsense._base import platt_scaling
from tests.base._data import data


def _by_hand(estimator, X, y, splits, weight=None):
    """Out-of-fold decision values and the logistic fit, written out."""
    scores = np.full(len(y), np.nan)
    for train, test in splits:
        kwargs = {} if weight is None else {"sample_weight": weight[train]}
        model = estimator.fit(X[train], y[train], **kwargs)
        scores[test] = model.decision_function(X[test])
    seen = ~np.isnan(scores)
    platt = LogisticRegression(C=1e6).fit(
        scores[seen, None],
        y[seen],
        sample_weight=None if weight is None else weight[seen],
    )
    return platt.coef_[0, 0], platt.intercept_[0]


def test_platt_scaling_is_logistic_regression_on_out_of_fold_scores():
    X, y = data()
    splits = list(KFold(4).split(X))
    a, b = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits)
    assert (a, b) == pytest.approx(_by_hand(LinearSVC(), X, y, splits), rel=1e-9)
    assert a > 0  # a larger score means a likelier positive


def test_platt_scaling_honours_weights_and_leaves_untested_rows_out():
    X, y = data(seed=1)
    w = np.random.default_rng(1).uniform(0.2, 3.0, size=len(y))
    splits = list(KFold(4).split(X))[:3]  # the last quarter is never tested
    got = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits, sample_weight=w)
    assert got == pytest.approx(_by_hand(LinearSVC(), X, y, splits, w), rel=1e-9)
    unweighted = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits)
    assert got != pytest.approx(unweighted, rel=1e-6)


def test_platt_scaling_of_the_first_label_flips_the_score():
    X, y = data(seed=2)
    splits = list(KFold(3).split(X))
    a1, b1 = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits)
    a0, b0 = platt_scaling(LinearSVC(), X, y, pos_label=0, cv=splits)
    assert (a0, b0) == pytest.approx((a1, -b1), rel=1e-6)


def test_platt_scaling_seeds_its_folds_from_random_state():
    X, y = data(seed=3)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=11).split(X, y))
    # a splitter is used as is; a number of folds is shuffled by random_state
    same = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=folds)
    assert same == pytest.approx(_by_hand(LinearSVC(), X, y, folds), rel=1e-9)
    first = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=5, random_state=0)
    again = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=5, random_state=0)
    other = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=5, random_state=1)
    assert first == again
    assert first != other


def test_platt_weights_leave_the_unweighted_fit_unchanged():
    X, y = data(seed=8)
    ones = np.ones(len(y))
    splits = list(KFold(4).split(X))
    assert platt_scaling(
        LinearSVC(), X, y, pos_label=1, cv=splits, sample_weight=ones
    ) == pytest.approx(platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits))
    assert_allclose(ones, 1.0)  # not modified in place
