"""Tests of costsense.costs._example: the named four-part costs."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    Costs,
    example_costs,
    part_costs,
    parts_matrix,
    row_cost_matrices,
)


def _four_parts(n: int = 6, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {name: rng.uniform(0, 10, n) for name in ("fp", "fn", "tp", "tn")}


@pytest.mark.parametrize("classes, pos_label", [([0, 1], 1), (["no", "yes"], "no")])
def test_four_part_costs_are_the_matrices_built_by_hand(classes, pos_label):
    parts = _four_parts()
    matrices = example_costs(**parts).matrices(classes, pos_label)
    pos = classes.index(pos_label)
    neg = 1 - pos
    for r in range(6):
        by_hand = np.empty((2, 2))
        by_hand[neg, neg] = parts["tn"][r]  # truth negative, predicted negative
        by_hand[neg, pos] = parts["fp"][r]
        by_hand[pos, neg] = parts["fn"][r]
        by_hand[pos, pos] = parts["tp"][r]
        assert_array_equal(matrices[r], by_hand)


def test_four_part_cost_rows_are_each_rows_true_class_row():
    parts = _four_parts()
    y = np.array([0, 1, 1, 0, 1, 0])
    costs = example_costs(**parts)
    rows = Costs.resolve(None, y, pos_label=1, sample_cost=costs).rows
    assert_array_equal(rows[y == 1], np.c_[parts["fn"], parts["tp"]][y == 1])
    assert_array_equal(rows[y == 0], np.c_[parts["tn"], parts["fp"]][y == 0])
    layout = np.c_[parts["fp"], parts["fn"], parts["tp"], parts["tn"]]
    assert_array_equal(np.asarray(costs), layout)


def test_four_part_costs_broadcast_numbers_and_take_rows():
    costs = example_costs(fp=2.0, fn=[5.0, 6.0, 7.0])
    assert len(costs) == 3
    assert_array_equal(costs.fp, [2.0, 2.0, 2.0])
    assert_array_equal(costs.tp, [0.0, 0.0, 0.0])
    part = costs.take([2, 0])
    assert_array_equal(part.fn, [7.0, 5.0])
    assert_array_equal(costs[np.array([True, False, True])].fn, [5.0, 7.0])
    assert len(example_costs(fp=1.0, fn=4.0, n_samples=5)) == 5


@pytest.mark.parametrize(
    "parts, message",
    [
        ({"fp": 1.0, "fn": 5.0}, "cost=.*n_samples"),
        ({"fp": [1.0, 2.0], "fn": [1.0, 2.0, 3.0]}, "different lengths"),
        ({"fp": [1.0, np.nan], "fn": 1.0}, "fp holds NaN"),
        ({"fp": 1.0, "fn": [1.0, np.inf]}, "fn holds NaN or infinite"),
        ({"fp": np.ones((2, 2)), "fn": 1.0}, "fp must be a number or 1-D"),
        ({"fp": 1.0, "fn": ["a", "b"]}, "fn must be a number"),
        ({"fp": 1.0, "fn": 2.0, "tn": np.inf, "n_samples": 2}, "tn=inf"),
    ],
)
def test_bad_four_part_costs_name_the_argument(parts, message):
    with pytest.raises((ValueError, TypeError), match=message):
        example_costs(**parts)


def test_four_part_costs_from_series_must_share_an_index():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"fp": [1.0, 2.0, 3.0], "fn": [4.0, 5.0, 6.0]}, index=[7, 3, 5]
    )
    costs = example_costs(fp=frame["fp"], fn=frame["fn"])  # one frame: one index
    assert_array_equal(costs.fn, [4.0, 5.0, 6.0])
    shuffled = frame["fn"].sort_index()
    with pytest.raises(ValueError, match="fp and fn are pandas Series with different"):
        example_costs(fp=frame["fp"], fn=shuffled)


def test_four_part_costs_need_two_classes_and_a_known_positive():
    costs = example_costs(fp=[1.0, 2.0, 3.0], fn=4.0)
    with pytest.raises(ValueError, match="binary.*3 classes"):
        Costs.resolve(None, [0, 1, 2], sample_cost=costs)
    with pytest.raises(ValueError, match="pos_label=5"):
        costs.matrices([0, 1], 5)
    with pytest.raises(ValueError, match="3 rows but there are 2 samples"):
        Costs.resolve(None, [0, 1], sample_cost=costs)


def test_row_cost_matrices_reads_every_layout_that_says_what_each_decision_costs():
    parts = _four_parts(4)
    costs = example_costs(**parts)
    layout = np.asarray(costs)
    from_parts = row_cost_matrices(costs, [0, 1], 1, n_samples=4)
    assert_array_equal(row_cost_matrices(layout, [0, 1], 1), from_parts)
    assert_array_equal(row_cost_matrices(from_parts, [0, 1], n_samples=4), from_parts)
    with pytest.raises(ValueError, match="sample_cost has shape"):
        row_cost_matrices(np.ones((4, 2)), [0, 1], 1)
    with pytest.raises(ValueError, match="4 rows but there are 3"):
        row_cost_matrices(costs, [0, 1], 1, n_samples=3)


def test_named_parts_give_the_rows_costs_and_their_mean_matrix():
    y = np.array([0, 1, 0, 1, 0])
    amount = np.array([10.0, 20.0, 30.0, 40.0, 50.0])
    rows = part_costs({"fp": 5.0, "fn": "amount", "tp": 1.0, "tn": 0.0},
                      {"amount": amount}, y.shape[0])  # fmt: skip
    assert_array_equal(rows.fn, amount)
    assert_array_equal(rows.fp, 5.0)
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=rows)
    assert_allclose(costs.mean_matrix, rows.matrices([0, 1], 1).mean(axis=0))
    assert_allclose(costs.take([1, 3]).mean_matrix, [[0.0, 5.0], [30.0, 1.0]])
    constants = parts_matrix({"fp": 2.0, "fn": 8.0, "tp": 1.0, "tn": 0.5}, [0, 1], 1)
    assert_array_equal(constants, [[0.5, 2.0], [8.0, 1.0]])
    resolved = Costs.resolve(constants, y, pos_label=1)
    assert_array_equal(resolved.mean_matrix, resolved.matrix)
