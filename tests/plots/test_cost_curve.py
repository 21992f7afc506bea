"""Cost curves against confusion counts by hand, the trivial classifiers, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.linear_model import LogisticRegression

from costsense.plots import CostCurveDisplay

Y = np.array([0, 0, 0, 1, 1, 0, 1, 0])
SCORE = np.array([0.1, 0.7, 0.3, 0.8, 0.3, 0.5, 0.6, 0.2])


def _by_hand(y, score, x):
    """Least normalised expected cost over every cut of the scores, by counting."""
    positives, negatives = (y == 1).sum(), (y == 0).sum()
    best = np.full_like(x, np.inf)
    for cut in [np.inf, *score, -np.inf]:
        false_pos = sum(1 for s, t in zip(score, y, strict=True) if s >= cut and t == 0)
        false_neg = sum(1 for s, t in zip(score, y, strict=True) if s < cut and t == 1)
        best = np.minimum(
            best, false_neg / positives * x + false_pos / negatives * (1 - x)
        )
    return best


def test_envelope_is_the_least_cost_over_thresholds_from_confusion_counts():
    display = CostCurveDisplay.from_predictions(Y, SCORE)
    assert_allclose(display.norm_cost, _by_hand(Y, SCORE, display.pc), atol=1e-12)
    # at PC = 1/2 the best cut is 0.6: FNR 1/3 (0.3 missed), FPR 1/5 (0.7 acted on)
    assert_allclose(np.interp(0.5, display.pc, display.norm_cost), (1 / 3 + 1 / 5) / 2)


def test_envelope_never_above_the_better_trivial_classifier():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    score = rng.random(300) + 0.3 * y
    display = CostCurveDisplay.from_predictions(y, score, pos_label=1)
    bound = np.minimum(display.pc, 1 - display.pc)
    assert np.all(display.norm_cost <= bound + 1e-12)
    assert np.all(display.norm_cost >= 0)
    assert display.norm_cost[400] < bound[400]  # an informative score does better


def test_perfect_and_uninformative_classifiers():
    perfect = CostCurveDisplay.from_predictions(Y, Y + 0.5)
    assert_allclose(perfect.norm_cost, 0.0)
    constant = CostCurveDisplay.from_predictions(Y, np.full(Y.size, 0.4))
    assert_allclose(constant.norm_cost, np.minimum(constant.pc, 1 - constant.pc))


def test_trivial_lines_are_the_diagonals_and_show_lines_draws_each_point():
    display = CostCurveDisplay.from_predictions(Y, SCORE, show_lines=True)
    all_negative, all_positive = display.trivial_
    assert_allclose(all_negative.get_xydata(), [[0, 0], [1, 1]])  # y = x
    assert_allclose(all_positive.get_xydata(), [[0, 1], [1, 0]])  # y = 1 - x
    segments = display.lines_.get_segments()
    assert len(segments) == display.thresholds.size == np.unique(SCORE).size + 2
    for (start, end), fpr, fnr in zip(segments, display.fpr, display.fnr, strict=True):
        assert_allclose([start, end], [[0, fpr], [1, fnr]])


def test_cost_marks_its_pc_and_bayes_decision():
    display = CostCurveDisplay.from_predictions(Y, SCORE, cost=(4, 1))
    # p(+) = 3/8: PC = (3/8 * 4) / (3/8 * 4 + 5/8 * 1) = 12 / 17
    assert display.operating_pc == pytest.approx(12 / 17)
    # Bayes threshold 1 / 5: acted on 7 rows, the 4 negatives among them of 5
    assert display.decision == pytest.approx((0.2, 4 / 5, 0.0))
    assert_allclose(display.decision_line_.get_ydata(), [4 / 5, 0.0])


def test_labels_probabilities_and_estimators():
    labels = np.where(Y == 1, "fraud", "ok")
    proba = np.column_stack([SCORE, 1 - SCORE])  # "fraud" < "ok": fraud first
    display = CostCurveDisplay.from_predictions(labels, proba, pos_label="fraud")
    assert_allclose(display.norm_cost, _by_hand(Y, SCORE, display.pc), atol=1e-12)
    X = np.column_stack([SCORE, np.arange(Y.size) % 3])
    model = LogisticRegression().fit(X, Y)
    fitted = CostCurveDisplay.from_estimator(model, X, Y)
    by_hand = _by_hand(Y, model.predict_proba(X)[:, 1], fitted.pc)
    assert_allclose(fitted.norm_cost, by_hand, atol=1e-12)
    assert fitted.line_.get_label() == "LogisticRegression"


def test_plot_on_given_axes():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    display = CostCurveDisplay.from_predictions(Y, SCORE, ax=ax, name="m", color="red")
    assert display.ax_ is ax and display.figure_ is ax.figure
    assert display.line_.get_color() == "red" and display.line_.get_label() == "m"


def test_refuses_more_than_two_classes_and_bad_scores():
    with pytest.raises(
        ValueError, match=r"^y_true: the displays are binary; it holds 3"
    ):
        CostCurveDisplay.from_predictions([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"^y_score: give one finite score per row"):
        CostCurveDisplay.from_predictions(Y, np.r_[np.nan, SCORE[1:]])
