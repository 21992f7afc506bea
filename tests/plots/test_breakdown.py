"""Cost breakdowns: the parts by hand, and their sum the decision's total cost."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from costsense.costs import Costs
from costsense.metrics import misclassification_cost
from costsense.plots import CostBreakdownDisplay

Y = np.array([0, 1, 0, 0, 1, 0, 0, 1])
PRED = np.array([0, 1, 1, 0, 0, 0, 1, 1])
AMOUNT = np.array([10.0, 50.0, 5.0, 20.0, 80.0, 1.0, 8.0, 30.0])
PER_ROW = np.stack([[[0.0, 3.0], [a, 0.1 * a]] for a in AMOUNT])


def test_parts_by_hand():
    display = CostBreakdownDisplay.from_predictions(Y, PRED, costs=PER_ROW)
    # alarms: rows 2 and 6 (3 each); missed: row 4 (80);
    # handled: rows 1 and 7 (5 + 3); true negatives cost nothing
    assert display.parts.tolist() == [[6.0, 80.0, 8.0, 0.0]]
    assert display.names == ["model"]


@pytest.mark.parametrize("kind", ["matrix", "per-row", "Costs"])
def test_parts_sum_to_the_misclassification_cost(kind):
    matrix = np.array([[0.5, 3.0], [20.0, 1.0]])  # right decisions cost too
    rng = np.random.default_rng(1)
    preds = {"a": PRED, "b": rng.integers(0, 2, Y.size), "all": np.ones(Y.size, int)}
    if kind == "matrix":
        costs, total = matrix, {"cost": matrix}
    elif kind == "per-row":
        costs, total = PER_ROW, {"sample_cost": PER_ROW}
    else:
        parts = {"fn": AMOUNT, "fp": 3.0, "tp": 0.1 * AMOUNT}
        costs, total = Costs.resolve(None, Y, sample_cost=parts), {"sample_cost": parts}
    display = CostBreakdownDisplay.from_predictions(Y, preds, costs=costs)
    for name, row in zip(display.names, display.parts, strict=True):
        assert row.sum() == pytest.approx(
            misclassification_cost(Y, preds[name], **total)
        )


def test_bars_stack_by_outcome_and_labels():
    labels = np.where(Y == 1, "fraud", "ok")
    predicted = np.where(PRED == 1, "fraud", "ok")
    display = CostBreakdownDisplay.from_predictions(
        labels,
        {"m": predicted, "none": np.full(Y.size, "ok")},
        costs=PER_ROW[:, ::-1, ::-1],
    )
    assert display.pos_label == "fraud"
    assert_allclose(display.parts, [[6.0, 80.0, 8.0, 0.0], [0.0, 160.0, 0.0, 0.0]])
    lefts = np.array([[bar.get_x() for bar in bars] for bars in display.bars_]).T
    assert_allclose(lefts, np.cumsum(display.parts, axis=1) - display.parts)
    assert [bars.get_label() for bars in display.bars_] == [
        "false alarms",
        "missed positives",
        "handled positives",
        "true negatives",
    ]


def test_from_estimator_names_each_model():
    X = np.column_stack([AMOUNT, np.arange(Y.size) % 2])
    models = {
        "lr": LogisticRegression().fit(X, Y),
        "nobody": DummyClassifier(strategy="constant", constant=0).fit(X, Y),
    }
    display = CostBreakdownDisplay.from_estimator(models, X, Y, costs=PER_ROW)
    assert display.names == ["lr", "nobody"]
    assert_allclose(display.parts[1], [0.0, AMOUNT[Y == 1].sum(), 0.0, 0.0])
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == ["lr", "nobody"]


def test_bad_predictions():
    with pytest.raises(
        ValueError, match=r"^y_pred\['model'\]: give one label of \[0, 1\]"
    ):
        CostBreakdownDisplay.from_predictions(Y, PRED[:-1], costs=PER_ROW)
