"""The node summary kernels against NumPy sums and the public impurity."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.tree import CRITERIA, impurity
from costsense.tree._criteria import criterion_code, sample_statistics
from costsense.tree._summary import (
    identical_labels,
    node_summary,
    weighted_statistics,
)


def _labels(name, rng, n):
    if name == "squared_error":
        return rng.normal(size=(n, 1))
    return rng.uniform(size=(n, 3))  # task scores: not one-hot


def test_weighted_statistics_are_the_weighted_rows_of_positive_weight():
    rng = np.random.RandomState(0)
    stats = rng.normal(size=(40, 3))
    weight = rng.uniform(size=40)
    weight[::4] = 0.0
    wstats, total = weighted_statistics(stats, weight)
    assert_array_equal(wstats, weight[:, None] * stats)
    assert_array_equal(wstats[::4], 0.0)
    assert total == pytest.approx(weight.sum(), rel=1e-14)


@pytest.mark.parametrize("name", sorted(CRITERIA))
def test_node_summary_is_the_numpy_sums_of_the_node_rows(name):
    rng = np.random.RandomState(1)
    n = 60
    labels = _labels(name, rng, n)
    stats = np.ascontiguousarray(sample_statistics(name, labels))
    weight = rng.uniform(0.1, 3.0, size=n)
    values = rng.normal(size=(n, 4))
    wstats, _ = weighted_statistics(stats, weight)
    idx = rng.permutation(n).astype(np.int64)
    start, end = 7, 41
    rows = idx[start:end]
    node_stats = np.full(stats.shape[1], np.nan)  # overwritten, not added to
    value = np.full(4, np.nan)
    w_node, node_impurity = node_summary(
        wstats,
        weight,
        values,
        idx,
        start,
        end,
        criterion_code(name),
        labels.shape[1],
        node_stats,
        value,
    )
    assert w_node == pytest.approx(weight[rows].sum(), rel=1e-13)
    assert_allclose(node_stats, weight[rows] @ stats[rows], rtol=1e-12)
    assert_allclose(value, np.average(values[rows], axis=0, weights=weight[rows]))
    expected = impurity(name, labels[rows], weight[rows])
    assert node_impurity == pytest.approx(expected, rel=1e-10, abs=1e-14)


def test_node_summary_of_zero_weight_is_zero_not_nan():
    stats = np.ones((3, 2))
    weight = np.zeros(3)
    node_stats = np.empty(2)
    value = np.full(2, np.nan)
    w_node, node_impurity = node_summary(
        stats,
        weight,
        np.ones((3, 2)),
        np.arange(3),
        0,
        3,
        criterion_code("gini"),
        2,
        node_stats,
        value,
    )
    assert (w_node, node_impurity) == (0.0, 0.0)
    assert_array_equal(value, 0.0)


def test_identical_labels_looks_at_the_slice_and_every_column():
    labels = np.array([[1.0, 0.8], [0.0, 1.0], [1.0, 0.8], [1.0, 0.8], [1.0, 0.9]])
    idx = np.array([1, 0, 2, 3, 4])
    assert identical_labels(labels, idx, 1, 4)  # rows 0, 2, 3
    assert identical_labels(labels, idx, 0, 1)  # one row
    assert not identical_labels(labels, idx, 0, 2)  # first column differs
    assert not identical_labels(labels, idx, 2, 5)  # second column differs
