"""Tests of costsense.costs._layouts: the one reader of the sample_cost layouts."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    Costs,
    cost_reduction,
    example_costs,
    row_cost_matrices,
    task_scores,
)


def _rows(y, sample_cost, classes=(0, 1), pos_label=1):
    resolved = Costs.resolve(
        None, y, classes=list(classes), pos_label=pos_label, sample_cost=sample_cost
    )
    return resolved.rows


def test_every_binary_layout_gives_the_same_cost_rows_by_hand():
    y = np.array([1, 0, 1, 0])
    fp, fn = np.array([1.0, 2.0, 1.5, 3.0]), np.array([9.0, 7.0, 4.0, 3.0])
    tp, tn = np.array([0.5, 0.5, 0.2, 3.0]), np.array([0.0, 0.1, 0.0, 0.0])
    costcla = np.c_[fp, fn, tp, tn]
    # positives: predicting 1 costs TP, predicting 0 costs FN; negatives: FP / TN
    by_hand = np.where(y[:, None] == 1, np.c_[fn, tp], np.c_[tn, fp])
    matrices = example_costs(fp=fp, fn=fn, tp=tp, tn=tn).matrices([0, 1], 1)
    named = example_costs(fp=fp, fn=fn, tp=tp, tn=tn)
    parts = {"fp": fp, "fn": fn, "tp": tp, "tn": tn}
    for layout in (costcla, named, matrices, by_hand, parts):
        assert_array_equal(_rows(y, layout), by_hand)
    pd = pytest.importorskip("pandas")
    assert_array_equal(_rows(y, pd.DataFrame(parts)), by_hand)
    # numbers are repeated on every row
    by_hand = np.where(y[:, None] == 1, np.c_[fn, 0 * fn], [0.0, 1.0])
    assert_array_equal(_rows(y, {"fn": fn, "fp": 1.0}), by_hand)


@pytest.mark.parametrize("classes", [(0, 1), ("x", "y", "z")])
def test_one_unnamed_cost_per_row_is_refused_naming_the_parts(classes):
    # an amount could be a missed positive's cost or any error's: say which
    y = np.array(classes)
    with pytest.raises(ValueError, match=r"one number per row.*sample_cost=\{'fn'"):
        _rows(y, np.arange(1.0, y.size + 1), classes=classes, pos_label=None)


def test_named_parts_must_name_fn_and_fp_only():
    with pytest.raises(ValueError, match=r"names the parts \['fn'\]; name fn and fp"):
        _rows([0, 1, 1], {"fn": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match=r"names the parts \['fn', 'fp', 'loss'\]"):
        _rows([0, 1, 1], {"fn": 1.0, "fp": 1.0, "loss": [1.0, 2.0, 3.0]})


@pytest.mark.parametrize(
    "sample_cost, message",
    [
        ([1.0, np.nan, 1.0], "NaN"),
        (np.zeros((3, 2)), "prediction's is <= 0 on all 1 rows of class 0"),
        ([1.0, 1.0], "2 rows but there are 3 samples"),
        (np.ones((3, 5)), r"shape \(3, 5\) for 2 classes; give one of the sample_cost"),
        (np.ones((3, 2, 3)), "sample_cost has shape"),
        ([["a", "b"]] * 3, "sample_cost must be numeric"),
        (example_costs(fp=1.0, fn=[1.0, 2.0]), "2 rows but there are 3"),
    ],
)
def test_invalid_sample_costs_name_sample_cost_and_the_fix(sample_cost, message):
    with pytest.raises((ValueError, TypeError), match=message):
        _rows([0, 1, 1], sample_cost)


def test_four_part_layouts_need_two_classes():
    with pytest.raises(ValueError, match="binary.*3 classes"):
        _rows([0, 1, 2], example_costs(fp=[1.0, 2.0, 3.0], fn=4.0), (0, 1, 2), None)
    rows = _rows([0, 1, 2, 3], 1 - np.eye(4), (0, 1, 2, 3), None)
    assert_array_equal(rows, 1 - np.eye(4))  # (n, 4) with 4 classes: cost rows


def test_rows_being_decided_need_a_layout_that_prices_every_outcome():
    costs = example_costs(fp=[1.0, 2.0], fn=4.0)
    matrices = row_cost_matrices(costs, [0, 1], 1)
    assert_array_equal(row_cost_matrices(np.asarray(costs), [0, 1], 1), matrices)
    with pytest.raises(ValueError, match="cost rows given the true class"):
        row_cost_matrices(np.ones((2, 2)), [0, 1], 1)


def test_the_reduction_relabels_rows_whose_error_is_cheaper_than_being_right():
    rows = np.array([[0.0, 5.0], [3.0, 1.0], [2.0, 7.0], [6.0, 4.0]])
    y_index = np.array([0, 1, 1, 1])  # row 2's error (2) is cheaper than right (7)
    index, weight = cost_reduction(rows, y_index)
    assert_array_equal(index, [0, 1, 0, 1])
    assert_array_equal(weight, np.abs(rows[:, 1] - rows[:, 0]))
    three = np.array([[0.0, 2.0, 4.0], [1.0, 1.0, 7.0]])
    assert_allclose(cost_reduction(three, [0, 1])[1], [3.0, 3.0])  # (2+4)/2; (1+7)/2-1


def test_task_scores_are_one_hot_for_unit_costs_and_scale_by_the_largest_cost():
    y = np.array([0, 2, 1])
    unit = Costs.resolve("unit", y).rows
    assert_array_equal(task_scores(unit), np.eye(3)[y])
    rows = Costs.resolve(np.array([[0, 1], [5, 0]]), [1, 0]).rows
    assert_allclose(task_scores(rows)[1], [1.0, 0.8])  # paper 004: C1/C2 = 5
    with pytest.raises(ValueError, match="positive cost"):
        task_scores(np.zeros((2, 2)))


@pytest.mark.parametrize(
    "fn, said",
    [
        ([5.0, 0.0, 5.0, 0.0, 0.0], "0 on all 3 rows of class 1 (mean 0)"),
        ([5.0, -1.0, 5.0, -2.0, -3.0], "0 on all 3 rows of class 1 (mean -2)"),
    ],
)
def test_errors_free_on_every_row_of_a_class_are_refused_naming_the_parts(fn, said):
    y = [0, 1, 0, 1, 1]  # a column of zeros, or of benefits
    with pytest.raises(ValueError) as refused:
        _rows(y, {"fn": fn, "fp": 1.0})
    message = str(refused.value)
    assert message.startswith(f"sample_cost: fn - tp is <= {said}, which makes class 0")
    assert "sample_cost=...)" not in message  # no advice to use what was used
    with pytest.raises(ValueError, match="fp - tn is <= 0 on all 2 rows of class 0"):
        _rows(y, {"fn": fn, "fp": 1.0, "tn": [1.0] * 5})
    mixed = _rows(y, {"fn": [5.0, -1.0, 5.0, -2.0, 3.0], "fp": 1.0})  # one dear row
    assert_array_equal(mixed[:, 0], [0.0, -1.0, 0.0, -2.0, 3.0])


def test_a_model_of_the_mean_costs_refuses_free_mean_errors_as_row_costs():
    # it learns from the rows' class means; their class-level message advised
    # sample_cost to a caller who had passed it
    from costsense.boosting import AdaC2Classifier

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 2)), np.tile([0, 1, 0, 0], 10)
    fn = np.where(np.arange(40) < 20, 3.0, -4.0)  # positive on some rows only
    with pytest.raises(ValueError, match="sample_cost: on average over the rows of "
                       "class 1, its error costs no more") as refused:  # fmt: skip
        AdaC2Classifier().fit(X, y, sample_cost={"fn": fn, "fp": 1.0})
    assert "sample_cost=...)" not in str(refused.value)
