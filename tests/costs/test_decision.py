"""Tests of costsense.costs._decision: the Bayes decision."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from costsense.costs import (
    as_cost_matrix,
    bayes_decision,
    bayes_threshold,
)

positive_floats = st.floats(min_value=1e-3, max_value=1e3)


def test_binary_bayes_decision_is_the_threshold_rule():
    c1, c2 = 5.0, 2.0
    threshold = bayes_threshold((c1, c2))
    assert threshold == pytest.approx(2 / 7)
    p = np.linspace(0, 1, 1001)
    proba = np.column_stack([1 - p, p])  # column 1 is the positive class
    matrix = as_cost_matrix((c1, c2), [0, 1], pos_label=1)
    decision = bayes_decision(proba, matrix)
    # expected cost of predicting + is c2 * (1 - p), of predicting - is c1 * p
    assert_array_equal(decision == 1, c1 * p > c2 * (1 - p))
    away = np.abs(p - threshold) > 1e-12
    assert_array_equal((decision == 1)[away], (p > threshold)[away])


def test_multiclass_bayes_decision_minimises_expected_cost_by_hand():
    matrix = np.array([[0, 1, 10], [2, 0, 1], [3, 3, 0]], dtype=float)
    proba = np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.9, 0.05, 0.05]])
    # hand: row 0 costs per prediction j = sum_i p_i m[i, j]
    # j=0: .3*2+.2*3=1.2; j=1: .5*1+.2*3=1.1; j=2: .5*10+.3*1=5.3 -> 1
    # row 1: j=0: .1*2+.8*3=2.6; j=1: .1+.8*3=2.5; j=2: .1*10+.1=1.1 -> 2
    # row 2: j=0: .05*2+.05*3=.25; j=1: .9+.15=1.05; j=2: 9+.05 -> 0
    assert_array_equal(bayes_decision(proba, matrix), [1, 2, 0])


def test_example_dependent_bayes_decision_uses_each_samples_matrix():
    proba = np.array([[0.5, 0.5], [0.5, 0.5]])
    matrices = np.array([[[0, 3], [1, 0]], [[0, 1], [3, 0]]], dtype=float)
    assert_array_equal(bayes_decision(proba, matrices), [0, 1])


@given(scale=positive_floats)
@settings(max_examples=30, deadline=None)
def test_bayes_decision_is_invariant_to_scaling_the_costs(scale):
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), size=50)
    matrix = np.array([[0, 1, 4], [2, 0, 1], [5, 1, 0]], dtype=float)
    assert_array_equal(
        bayes_decision(proba, matrix), bayes_decision(proba, matrix * scale)
    )


def test_adding_a_constant_to_each_truth_row_changes_no_bayes_decision():
    rng = np.random.default_rng(3)
    proba = rng.dirichlet(np.ones(3), size=200)
    matrix = rng.uniform(1, 10, (3, 3))
    np.fill_diagonal(matrix, 0.0)
    shift = rng.uniform(-5, 5, 3)
    shifted = matrix + shift[:, None]
    assert_array_equal(bayes_decision(proba, shifted), bayes_decision(proba, matrix))
    # per-row matrices, each shifted by its own constants
    per_row = rng.uniform(0, 10, (200, 3, 3))
    row_shift = rng.uniform(-5, 5, (200, 3, 1))
    assert_array_equal(
        bayes_decision(proba, per_row + row_shift), bayes_decision(proba, per_row)
    )
