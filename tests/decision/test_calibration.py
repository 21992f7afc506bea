"""Tests of calibration_check: reliability bins, out-of-fold recalibration, money."""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

from costsense.costs import Costs
from costsense.decision import ActionCosts, calibration_check


def _simulated(seed, n=4000):
    rng = np.random.default_rng(seed)
    p = rng.beta(1.5, 3, n)
    return p, (rng.random(n) < p).astype(int)


def test_calibrated_probabilities_cost_nothing():
    p, y = _simulated(0)
    costs = Costs.resolve((5, 1), y, pos_label=1)
    check = calibration_check(np.c_[1 - p, p], y, costs)
    assert not check.costs_money
    assert check.difference == pytest.approx(
        check.cost_as_given - check.cost_recalibrated
    )
    assert check.low <= check.difference <= check.high
    assert sum(b["rows"] for b in check.bins) == len(y)
    for b in check.bins:
        spread = np.sqrt(b["mean_predicted"] * (1 - b["mean_predicted"]) / b["rows"])
        assert abs(b["observed"] - b["mean_predicted"]) <= 3 * spread + 1e-12
        assert b["lower"] <= b["mean_predicted"] <= b["upper"]


@pytest.mark.parametrize("method", ["isotonic", "sigmoid"])
def test_squashed_probabilities_cost_money(method):
    p, y = _simulated(1)
    squashed = 0.5 + 0.3 * (p - 0.5)  # all within [0.35, 0.65]
    costs = Costs.resolve((3, 1), y, pos_label=1)  # flag when p > 1 / 4
    check = calibration_check(np.c_[1 - squashed, squashed], y, costs, method=method)
    # as given, every row is flagged: the cost is one false alarm per negative
    assert check.cost_as_given == pytest.approx(np.sum(y == 0))
    assert check.costs_money and check.low > 0


def test_reliability_bins_by_hand():
    p = np.array([0.05, 0.15, 0.12, 0.95, 0.55, 0.58])
    y = np.array([0, 1, 0, 1, 0, 1])
    check = calibration_check(np.c_[1 - p, p], y, [[0, 1], [1, 0]], n_splits=2)
    assert [b["lower"] for b in check.bins] == pytest.approx([0.0, 0.1, 0.5, 0.9])
    assert [b["rows"] for b in check.bins] == [1, 2, 2, 1]
    assert [b["mean_predicted"] for b in check.bins] == pytest.approx(
        [0.05, 0.135, 0.565, 0.95]
    )
    assert [b["observed"] for b in check.bins] == [0, 0.5, 0.5, 1]


def test_reliability_of_the_top_label_with_three_classes():
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.75, 0.15], [0.3, 0.3, 0.4]] * 2)
    y = np.array([0, 0, 2, 1, 1, 2])
    table = ActionCosts(1 - np.eye(3), ("a", "b", "c"))
    check = calibration_check(proba, y, table, n_bins=5, n_splits=2)
    # top labels 0, 1, 2 with confidences 0.7, 0.75, 0.4; right on rows 0, 2, 4, 5
    assert [b["lower"] for b in check.bins] == pytest.approx([0.4, 0.6])
    assert [b["rows"] for b in check.bins] == [2, 4]
    assert [b["observed"] for b in check.bins] == [1.0, 0.5]


def test_recalibration_never_sees_its_own_row(monkeypatch):
    seen = []

    class Recording(IsotonicRegression):
        def fit(self, X, y, sample_weight=None):
            self.trained_ = set(np.round(X, 12))
            return super().fit(X, y, sample_weight)

        def predict(self, T):
            seen.append((self.trained_, set(np.round(T, 12))))
            return super().predict(T)

    monkeypatch.setattr("costsense.decision._calibration.IsotonicRegression", Recording)
    rng = np.random.default_rng(2)
    p = rng.permutation(np.linspace(0.01, 0.99, 60))  # every row its own value
    y = (rng.random(60) < p).astype(int)
    calibration_check(np.c_[1 - p, p], y, [[0, 1], [1, 0]], n_splits=3)
    assert len(seen) == 3 * 2  # a map per fold and class
    for trained, applied in seen:
        assert not trained & applied
    # each class's map applied once to every row (the values are distinct in a class)
    assert sum(len(applied) for _, applied in seen) == 2 * 60
    every = set(np.round(p, 12)) | set(np.round(1 - p, 12))
    assert set().union(*(applied for _, applied in seen)) == every


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "platt"}, "method='platt': give 'isotonic' or 'sigmoid'."),
        ({"n_bins": 0}, "n_bins=0: give a count >= 1."),
        ({"n_splits": 5}, "n_splits=5: give 2 to 3 (every class needs a row"),
        ({"level": 0}, "level=0: give a confidence level in (0, 1)."),
    ],
)
def test_calibration_check_bad_input(kwargs, message):
    p = np.array([0.1, 0.2, 0.3, 0.6, 0.7, 0.8, 0.4])
    y = np.array([0, 0, 0, 1, 1, 1, 0])
    with pytest.raises(ValueError, match=re.escape(message)):
        calibration_check(
            np.c_[1 - p, p], y, [[0, 1], [1, 0]], **{"n_splits": 2, **kwargs}
        )
