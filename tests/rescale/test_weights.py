"""Tests of costsense.rescale._weights: consistent class weights (Zhou & Liu 2010)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.linear_model import LogisticRegression

from costsense.rescale import (
    CostWeighting,
    consistent_class_weights,
)
from tests.rescale._data import (
    three_classes,
)


def test_consistent_weights_satisfy_zhou_and_liu_ratios():
    rng = np.random.default_rng(3)
    w = rng.uniform(0.5, 5.0, size=4)
    symmetric = rng.uniform(1.0, 3.0, size=(4, 4))
    symmetric = symmetric + symmetric.T
    matrix = w[:, None] * symmetric  # cost[i, j] / cost[j, i] = w_i / w_j
    np.fill_diagonal(matrix, 0.0)
    found = consistent_class_weights(matrix)
    assert found is not None
    for i in range(4):
        for j in range(4):
            if i != j:
                assert found[i] / found[j] == pytest.approx(
                    matrix[i, j] / matrix[j, i], rel=1e-10
                )


def test_constant_rows_give_the_rows_costs_and_inconsistency_gives_none():
    rows = np.array([[0, 2, 2], [7, 0, 7], [1, 1, 0]], dtype=float)
    assert_allclose(consistent_class_weights(rows), [2, 7, 1], rtol=1e-12)
    # 0 -> 1 twice as costly as 1 -> 0, 1 -> 2 twice 2 -> 1, but 0 -> 2 equal to
    # 2 -> 0: w0 = 2 w1 = 4 w2 contradicts w0 = w2.
    cyclic = np.array([[0, 2, 1], [1, 0, 2], [1, 1, 0]], dtype=float)
    assert consistent_class_weights(cyclic) is None


def test_inconsistent_matrix_warns_and_weights_by_mean_row_cost():
    X, y = three_classes()
    cyclic = np.array([[0, 2, 1], [1, 0, 2], [1, 1, 0]], dtype=float)
    with pytest.warns(UserWarning, match="not consistent"):
        ours = CostWeighting(LogisticRegression(), cost=cyclic).fit(X, y)
    oracle = LogisticRegression(class_weight={0: 1.5, 1: 1.5, 2: 1.0}).fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)
