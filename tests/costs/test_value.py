"""Tests of costsense.costs._value: the one cost value, Costs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    Costs,
    bayes_decision,
    cost_reduction,
    example_costs,
    row_cost_matrices,
    task_scores,
    zero_diagonal,
)

positive_floats = st.floats(min_value=1e-3, max_value=1e3)


@given(c1=positive_floats, c2=positive_floats)
@settings(max_examples=50, deadline=None)
def test_the_reduction_of_a_binary_problem_weighs_rows_by_c1_and_c2(c1, c2):
    y = np.array([0, 1, 1, 0, 1])
    resolved = Costs.resolve((c1, c2), y, pos_label=1)
    assert_allclose(resolved.reduction()[1], np.where(y == 1, c1, c2))
    assert resolved.pair == pytest.approx((c1, c2))
    assert resolved.pos_index == 1


def test_costs_resolve_with_example_costs_summarises_a_class_matrix():
    y = np.array([0, 0, 1])
    errors = [1.0, 3.0, 10.0]
    resolved = Costs.resolve(None, y, sample_cost={"fn": errors, "fp": errors})
    assert resolved.example_dependent
    assert_allclose(resolved.matrix, [[0, 2], [10, 0]])
    assert resolved.pos_label == 1


def _labels_and_matrices(n: int = 12, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.array([0, 1] * (n // 2))
    matrices = rng.uniform(0.0, 5.0, size=(n, 2, 2))
    matrices[:, 0, 1] += 5.0  # every error costs more than being right
    matrices[:, 1, 0] += 5.0
    return y, matrices


def test_costs_resolve_from_each_form_gives_the_hand_built_matrices():
    y, matrices = _labels_and_matrices()
    n = y.shape[0]
    own = matrices[np.arange(n), y]  # (n, 2) cost rows of the true classes
    parts = example_costs(
        fp=matrices[:, 0, 1], fn=matrices[:, 1, 0], tp=matrices[:, 1, 1],
        tn=matrices[:, 0, 0],
    )  # fmt: skip
    costcla = np.asarray(parts)
    for layout in (parts, costcla, matrices):
        costs = Costs.resolve(None, y, pos_label=1, sample_cost=layout)
        assert costs.kind == "per-row" and costs.example_dependent
        assert_allclose(costs.rows, own)
        assert_allclose(costs.per_row, matrices)
        assert_allclose(costs.matrix, [own[y == 0].mean(0), own[y == 1].mean(0)])
        assert_array_equal(costs.y_index, y)
    rows_only = Costs.resolve(None, y, pos_label=1, sample_cost=own)
    assert rows_only.per_row is None
    assert_allclose(rows_only.rows, own)
    errors = np.arange(1.0, n + 1)
    one = Costs.resolve(None, y, pos_label=1, sample_cost={"fn": errors, "fp": errors})
    assert_allclose(one.rows, np.where(np.eye(2)[y] == 1, 0.0, errors[:, None]))
    # class-level forms: a ratio, a pair, a matrix, balanced costs
    ratio = Costs.resolve(5, y, pos_label=1)
    assert (ratio.kind, ratio.pair) == ("ratio", (5.0, 1.0))
    assert_allclose(ratio.matrix, [[0, 1], [5, 0]])
    assert_allclose(ratio.rows, ratio.matrix[y])
    pair = Costs.resolve((5, 2), y, pos_label=0)
    assert (pair.kind, pair.pair) == ("pair", (5.0, 2.0))
    assert_allclose(pair.matrix, [[0, 5], [2, 0]])
    matrix = Costs.resolve([[1, 4], [6, 2]], y, pos_label=1)
    assert (matrix.kind, matrix.pair) == ("matrix", (4.0, 3.0))
    assert Costs.resolve(None, y).kind == "balanced"


def test_costs_resolve_takes_a_resolved_costs_as_sample_cost():
    y, matrices = _labels_and_matrices()
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=matrices)
    again = Costs.resolve(1.0, y, pos_label=1, sample_cost=costs)
    assert_allclose(again.rows, costs.rows)
    assert_allclose(again.per_row, costs.per_row)
    assert_allclose(row_cost_matrices(costs, [0, 1]), matrices)
    with pytest.raises(ValueError, match="classes"):
        Costs.resolve(1.0, y + 1, sample_cost=costs)


def test_costs_take_equals_resolving_the_subset():
    y, matrices = _labels_and_matrices()
    subset = np.array([0, 3, 4, 7, 8, 11])
    for cost, sample_cost in ((None, matrices), ((5, 2), None)):
        whole = Costs.resolve(cost, y, pos_label=1, sample_cost=sample_cost)
        part = Costs.resolve(
            cost,
            y[subset],
            pos_label=1,
            sample_cost=None if sample_cost is None else sample_cost[subset],
        )
        taken = whole.take(subset)
        assert_allclose(taken.matrix, part.matrix)
        assert_allclose(taken.rows, part.rows)
        assert_array_equal(taken.y_index, part.y_index)
        assert len(taken) == subset.size and taken.kind == part.kind
        assert_allclose(whole[subset, ...].rows, part.rows)  # scikit-learn's slicing
        assert_allclose(taken.reduction()[1], part.reduction()[1])


def test_costs_decide_equals_bayes_decision():
    y, matrices = _labels_and_matrices()
    rng = np.random.default_rng(1)
    proba = rng.dirichlet(np.ones(2), size=y.shape[0])
    per_row = Costs.resolve(None, y, pos_label=1, sample_cost=matrices)
    assert_array_equal(per_row.decide(proba), bayes_decision(proba, matrices))
    level = Costs.resolve((5, 2), y, pos_label=1)
    assert_array_equal(level.decide(proba), bayes_decision(proba, level.matrix))
    assert_array_equal(level.decide(proba, matrices), bayes_decision(proba, matrices))


def test_per_row_costs_with_a_diagonal_decide_as_their_zero_diagonal_versions():
    y, matrices = _labels_and_matrices(n=40, seed=3)
    rng = np.random.default_rng(2)
    proba = rng.dirichlet(np.ones(2), size=y.shape[0])
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=matrices)
    zeroed = Costs.resolve(None, y, pos_label=1, sample_cost=zero_diagonal(matrices))
    assert_allclose(np.diagonal(zeroed.per_row, axis1=1, axis2=2), 0.0)
    assert_allclose(zeroed.rows, costs.rows - costs.rows[np.arange(y.size), y][:, None])
    assert_array_equal(costs.decide(proba), zeroed.decide(proba))
    assert_allclose(costs.reduction()[1], zeroed.reduction()[1])


def test_costs_derived_forms_match_the_functions():
    y, matrices = _labels_and_matrices()
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=matrices - 1.0)
    index, weight = cost_reduction(costs.rows, y)
    assert_array_equal(costs.reduction()[0], index)
    assert_allclose(costs.reduction()[1], weight)
    assert_allclose(task_scores(costs.rows - costs.rows.min()), costs.task_scores())
    with pytest.raises(ValueError, match="binary"):
        _ = Costs.resolve(np.ones((3, 3)) - np.eye(3), [0, 1, 2]).pair
    with pytest.raises(ValueError, match="labels"):
        Costs(np.array([0, 1]), 1, np.array([[0.0, 1.0], [2.0, 0.0]])).reduction()


def test_an_unchecked_matrix_is_taken_as_given():
    y = np.array([0, 1, 2, 2])
    matrix = np.zeros((3, 3))  # all errors free: Costs.resolve refuses it
    with pytest.raises(ValueError, match="free"):
        Costs.resolve(matrix, y)
    costs = Costs.unchecked(matrix, y)
    assert costs.pos_label is None and costs.kind == "matrix"
    assert_array_equal(costs.matrix, matrix)
    assert_array_equal(costs.y_index, [0, 1, 2, 2])


def test_per_row_costs_resolved_for_the_same_rows_are_passed_on_as_they_are():
    y = np.array([0, 1, 0, 1, 0, 0])
    rows = example_costs(fp=1.0, fn=[5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=rows)
    assert Costs.resolve(None, y, pos_label=1, sample_cost=costs) is costs
    train = costs.take([0, 1, 2, 3])
    again = Costs.resolve(None, y[:4], pos_label=1, sample_cost=train)
    assert again is train
    other = Costs.resolve(None, y[::-1], pos_label=1, sample_cost=costs)
    assert other is not costs  # other labels: resolved anew from its matrices
    assert_allclose(other.per_row, costs.per_row)
    assert_allclose(
        Costs.resolve(
            None, y[:4], pos_label=1, sample_cost=rows.take([0, 1, 2, 3])
        ).rows,
        train.rows,
    )


def test_costs_resolve_the_named_costs_as_their_matrices():
    y = np.array([0, 0, 0, 1, 2, 2])
    balanced = Costs.resolve("balanced", y)
    none = Costs.resolve(None, y)
    assert balanced.kind == none.kind == "balanced"
    assert_array_equal(balanced.matrix, none.matrix)
    assert_array_equal(balanced.rows, none.rows)
    unit = Costs.resolve("unit", y)
    assert unit.kind == "unit"
    assert_array_equal(unit.matrix, 1.0 - np.eye(3))
    assert_array_equal(unit.reduction()[1], np.ones(6))
    binary = Costs.resolve("unit", y[:4])
    assert binary.pair == (1.0, 1.0) and binary.pos_label == 1
