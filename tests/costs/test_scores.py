"""Tests of costsense.costs._scores: task scores of paper 004."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    as_cost_rows,
    cost_rows_from_scores,
    task_scores,
)


def test_task_scores_round_trip_and_one_hot():
    y = np.array([0, 2, 1])
    one_hot_rows = as_cost_rows(y, [0, 1, 2], cost=np.ones((3, 3)) - np.eye(3))
    assert_array_equal(task_scores(one_hot_rows), np.eye(3)[y])
    matrix = np.array([[0, 1], [5, 0]], dtype=float)  # class 1 positive
    rows = as_cost_rows([1, 0], [0, 1], cost=matrix)
    scores = task_scores(rows)
    # paper 004: a negative at C1/C2 = 5 scores (1, 0.8)
    assert_allclose(scores[1], [1.0, 0.8])
    assert_allclose(cost_rows_from_scores(scores), rows / rows.max())
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        cost_rows_from_scores([[1.2, 0.0]])
