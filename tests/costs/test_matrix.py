"""Tests of costsense.costs._matrix: class-level cost forms to one matrix."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    Costs,
    as_binary_costs,
    as_cost_matrix,
    zero_diagonal,
)


def test_ratio_pair_and_matrix_forms_agree():
    classes = np.array(["a", "b"])
    by_ratio = as_cost_matrix(4.0, classes, pos_label="a")
    by_pair = as_cost_matrix((8.0, 2.0), classes, pos_label="a") / 2
    assert_array_equal(by_ratio, by_pair)
    # cost[true, predicted]: a positive "a" predicted "b" is the false negative, C1.
    assert by_ratio[0, 1] == 4.0 and by_ratio[1, 0] == 1.0
    assert_array_equal(as_cost_matrix(by_ratio, classes), by_ratio)
    assert Costs.resolve(by_ratio, classes, pos_label="a").pair == (4.0, 1.0)


def test_positive_class_index_follows_label_not_position():
    classes = np.array([0, 1])
    m = as_cost_matrix((5, 1), classes, pos_label=0)
    assert m[0, 1] == 5 and m[1, 0] == 1
    m = as_cost_matrix((5, 1), classes, y=[0, 1, 1])  # minority is 0
    assert m[0, 1] == 5


def test_balanced_costs_are_inverse_class_frequencies():
    y = np.array([0] * 6 + [1] * 2 + [2] * 4)
    m = as_cost_matrix(None, [0, 1, 2], y=y)
    n, k = 12, 3
    for i, count in enumerate([6, 2, 4]):
        off = np.delete(m[i], i)
        assert_allclose(off, n / (k * count))
        assert m[i, i] == 0
    # binary: the ratio is the imbalance ratio
    m2 = as_cost_matrix(None, [0, 1], y=[0] * 9 + [1] * 3)
    assert_allclose(m2[1, 0] / m2[0, 1], 3.0)


@pytest.mark.parametrize(
    "cost, message",
    [
        (0, "> 0"),
        (-2, "> 0"),
        (np.nan, "> 0"),
        (np.inf, "> 0"),
        ((5, 0), "> 0"),
        ((1, 2, 3), "binary cost"),
        ("5", "string"),
        ([[0, 1], [-1, 0]], "negative"),
        ([[1, 1], [1, 0]], "every error costs what the correct prediction costs"),
        ([[2, 1], [5, 0]], r"less than cost\[0, 0\] = 2.*negative regret"),
        ([[0, np.nan], [1, 0]], "NaN"),
        ([[0, 1, 1], [1, 0, 1]], "square"),
        ([[0, 0], [1, 0]], "> 0|no positive"),
    ],
)
def test_invalid_costs_raise_a_clear_error(cost, message):
    with pytest.raises((ValueError, TypeError), match=message):
        as_cost_matrix(cost, [0, 1], pos_label=1)


def test_ratio_for_multiclass_and_matrix_of_wrong_size_are_rejected():
    with pytest.raises(ValueError, match="binary problem"):
        as_cost_matrix(5, [0, 1, 2], pos_label=1)
    with pytest.raises(ValueError, match="3 classes"):
        as_cost_matrix([[0, 1], [1, 0]], [0, 1, 2])


def test_as_binary_costs_rejects_bools_and_strings():
    with pytest.raises((TypeError, ValueError)):
        as_binary_costs(("a", 1))
    assert as_binary_costs(3) == (3.0, 1.0)


def test_a_matrix_with_a_diagonal_keeps_its_costs_and_decides_by_differences():
    matrix = [[1.0, 3.0], [12.0, 2.0]]  # a correct decision costs 1 or 2
    assert_array_equal(as_cost_matrix(matrix, [0, 1]), matrix)
    assert_array_equal(zero_diagonal(matrix), [[0.0, 2.0], [10.0, 0.0]])
    # C1 = 12 - 2 (false negative over true positive), C2 = 3 - 1
    assert Costs.resolve(matrix, [0, 1], pos_label=1).pair == (10.0, 2.0)
    # benefits (negative costs) are allowed when errors still cost more
    benefit = as_cost_matrix([[-4.0, 1.0], [5.0, -1.0]], [0, 1])
    assert_array_equal(benefit[0], [-4.0, 1.0])


# ------------------------------------------------------------ costs named by a string
@pytest.mark.parametrize("y", [[0] * 6 + [1] * 2, [0] * 6 + [1] * 2 + [2] * 4])
def test_balanced_names_the_matrix_of_none(y):
    classes = np.unique(y)
    weight = np.linspace(0.5, 2.0, len(y))
    by_name = as_cost_matrix("balanced", classes, y=y)
    assert_array_equal(by_name, as_cost_matrix(None, classes, y=y))
    assert_array_equal(
        as_cost_matrix("balanced", classes, y=y, sample_weight=weight),
        as_cost_matrix(None, classes, y=y, sample_weight=weight),
    )
    assert not np.allclose(by_name, 1.0 - np.eye(classes.size))  # not unit costs
    with pytest.raises(ValueError, match="cost='balanced' means balanced costs"):
        as_cost_matrix("balanced", classes)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_unit_costs_are_one_for_every_error(k):
    classes = np.arange(k)
    assert_array_equal(as_cost_matrix("unit", classes), 1.0 - np.eye(k))
    # no labels needed, and the minority class does not enter
    y = np.r_[np.zeros(9), np.arange(k)].astype(int)
    assert_array_equal(as_cost_matrix("unit", classes, y=y), 1.0 - np.eye(k))


@pytest.mark.parametrize("bad", ["Balanced", "uniform", "", "5"])
def test_a_string_that_names_no_cost_is_refused_naming_the_names(bad):
    with pytest.raises(ValueError, match=r"cost=.*'balanced'.*'unit'"):
        as_cost_matrix(bad, [0, 1], y=[0, 1, 1])
