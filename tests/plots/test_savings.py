"""Savings curves against a hand computation on eight rows; the Bayes mark."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.linear_model import LogisticRegression

from costsense.costs import Costs, bayes_threshold
from costsense.metrics import savings_score
from costsense.plots import SavingsCurveDisplay

Y = np.array([0, 1, 0, 0, 1, 0, 0, 1])
P = np.array([0.1, 0.9, 0.35, 0.6, 0.2, 0.05, 0.8, 0.5])
AMOUNT = np.array([10.0, 50.0, 5.0, 20.0, 80.0, 1.0, 8.0, 30.0])
# per row: a missed positive loses its amount, a review (acting) costs 3
PER_ROW = np.stack(
    [[[0.0, 3.0], [a, 3.0]] for a in AMOUNT]
)  # cost[row, true, predicted]


def _saving_by_hand(y, p, costs, t):
    left = sum(costs[r, y[r], 0] for r in range(len(y)))
    acted = sum(costs[r, y[r], 1] for r in range(len(y)))
    spent = sum(costs[r, y[r], int(p[r] >= t)] for r in range(len(y)))
    return min(left, acted) - spent


def test_per_row_savings_by_hand_and_the_per_row_bayes_decision():
    cuts = [0.0, 0.1, 0.3, 0.5, 0.55, 0.9, 1.0]
    display = SavingsCurveDisplay.from_predictions(Y, P, costs=PER_ROW, thresholds=cuts)
    expected = [_saving_by_hand(Y, P, PER_ROW, t) for t in cuts]
    assert_allclose(display.saving, expected)
    # acting on all: 8 x 3 = 24; on nobody: 50 + 80 + 30 = 160
    assert display.baseline == "acting on everybody"
    assert display.baseline_cost == 24.0
    # t = 0.5 acts on 4 rows (12) and misses 80: 24 - 92
    assert display.saving[3] == -68.0
    # Bayes per row: act iff 3 < p x amount (rows 1, 3, 4, 6, 7): 5 x 3 + 0 missed
    assert display.bayes_x is None
    assert display.bayes_saving == 24.0 - 15.0


def test_savings_share_is_savings_score():
    matrix = np.array([[0.0, 1.0], [5.0, 0.0]])
    display = SavingsCurveDisplay.from_predictions(Y, P, costs=matrix)
    for t, saved in zip(display.x, display.saving, strict=True):
        share = savings_score(Y, (P >= t).astype(int), cost=matrix)
        assert saved / display.baseline_cost == pytest.approx(share)


def test_bayes_mark_at_the_bayes_threshold_of_class_costs():
    matrix = np.array([[0.0, 2.0], [6.0, 0.0]])  # C1 = 6, C2 = 2
    display = SavingsCurveDisplay.from_predictions(Y, P, costs=matrix)
    assert display.bayes_x == bayes_threshold((6.0, 2.0)) == 0.25
    costs = np.broadcast_to(matrix, (Y.size, 2, 2))
    assert display.bayes_saving == _saving_by_hand(
        Y, P, costs, 0.3
    )  # no p in (.25, .3)
    assert display.bayes_mark_.get_xydata().tolist() == [[0.25, display.bayes_saving]]
    # a right decision's own cost moves the threshold: C1 = 6 - 1, C2 = 2 - 0
    moved = SavingsCurveDisplay.from_predictions(
        Y, P, costs=np.array([[0.0, 2.0], [6.0, 1.0]])
    )
    assert moved.bayes_x == pytest.approx(2 / 7)


def test_costs_value_labels_and_estimator():
    labels = np.where(Y == 1, "fraud", "ok")
    costs = Costs.resolve(
        None, labels, sample_cost={"fn": AMOUNT, "fp": 3.0, "tp": 3.0}
    )
    display = SavingsCurveDisplay.from_predictions(
        labels, np.column_stack([P, 1 - P]), costs=costs, thresholds=[0.3]
    )
    assert display.pos_label == "fraud"
    assert display.saving.tolist() == [_saving_by_hand(Y, P, PER_ROW, 0.3)]
    X = np.column_stack([P, AMOUNT])
    model = LogisticRegression().fit(X, Y)
    fitted = SavingsCurveDisplay.from_estimator(model, X, Y, costs=PER_ROW, name="lr")
    q = model.predict_proba(X)[:, 1]
    by_hand = [_saving_by_hand(Y, q, PER_ROW, t) for t in fitted.x]
    assert_allclose(fitted.saving, by_hand)
    assert fitted.line_.get_label() == "lr"


def test_share_kind_acts_on_the_largest_expected_savings_by_hand():
    shares = [0.25, 0.5, 1.0]
    display = SavingsCurveDisplay.from_predictions(
        Y, P, costs=PER_ROW, kind="share", shares=shares
    )
    # expected saving of acting on row r: P(+) x amount - 3 (the review)
    ranked = np.argsort(-(P * AMOUNT - 3.0))
    expected = [24.0 - 160.0]  # share 0: acting on nobody
    for share in shares:
        k = int(share * Y.size)
        chosen = [r for r in ranked[:k] if P[r] * AMOUNT[r] > 3.0]  # never at a loss
        p = np.isin(np.arange(Y.size), chosen).astype(float)
        expected.append(_saving_by_hand(Y, p, PER_ROW, 1.0))
    assert display.x.tolist() == [0.0, *shares]
    assert_allclose(display.saving, expected)
    # 2 rows: rows 1 and 4 (3 + 3) and row 7 missed (30): 24 - 36
    assert display.saving[1] == -12.0
    # the Bayes decision acts on 5 rows of 8; share 1 is that decision
    assert display.bayes_x == 5 / 8
    assert display.saving[-1] == display.bayes_saving == 9.0
    assert display.bayes_mark_.get_xydata().tolist() == [[5 / 8, 9.0]]


def test_share_kind_with_a_costs_value_matches_the_array():
    labels = np.where(Y == 1, "fraud", "ok")
    costs = Costs.resolve(
        None, labels, sample_cost={"fn": AMOUNT, "fp": 3.0, "tp": 3.0}
    )
    as_value = SavingsCurveDisplay.from_predictions(
        labels, P, costs=costs, kind="share", pos_label="fraud"
    )
    as_array = SavingsCurveDisplay.from_predictions(Y, P, costs=PER_ROW, kind="share")
    assert_allclose(as_value.saving, as_array.saving)
    assert as_value.x.size == 101


def test_bad_input():
    with pytest.raises(ValueError, match=r"^proba: give probabilities in \[0, 1\]"):
        SavingsCurveDisplay.from_predictions(Y, P * 2, costs=PER_ROW)
    with pytest.raises(ValueError, match=r"^costs: give a Costs, a \(2, 2\) matrix"):
        SavingsCurveDisplay.from_predictions(Y, P, costs=5.0)
    with pytest.raises(
        ValueError, match=r"^kind='shares': give 'threshold' or 'share'"
    ):
        SavingsCurveDisplay.from_predictions(Y, P, costs=PER_ROW, kind="shares")
