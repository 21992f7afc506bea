"""Binning through the histogram splitter's public behaviour and the tree's bins."""

from __future__ import annotations

import numpy as np
import pytest

from costsense.tree import CostSensitiveTreeClassifier


def _fitted(X, y, max_bins):
    return CostSensitiveTreeClassifier(splitter="hist", max_bins=max_bins).fit(X, y)


def test_hist_thresholds_lie_between_training_values():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(int)
    tree = _fitted(X, y, 16).tree_
    for node in np.flatnonzero(tree.children_left >= 0):
        column = X[:, tree.feature[node]]
        # a threshold never equals a training value and has values on both sides
        assert not np.any(column == tree.threshold[node])
        assert column.min() < tree.threshold[node] < column.max()


@pytest.mark.parametrize("seed", range(4))
def test_a_root_split_cuts_at_a_quantile_of_the_feature(seed):
    """With ``max_bins = 4`` the root can only cut at a quartile."""
    rng = np.random.RandomState(seed)
    n = 1000
    X = rng.exponential(size=(n, 1))
    y = (X[:, 0] + rng.normal(scale=0.5, size=n) > 1.0).astype(int)
    stump = CostSensitiveTreeClassifier(splitter="hist", max_bins=4, max_depth=1)
    tree = stump.fit(X, y).tree_
    assert tree.node_count == 3
    n_left = int(np.sum(X[:, 0] <= tree.threshold[0]))
    assert min(abs(n_left - q * n) for q in (0.25, 0.5, 0.75)) <= 1
    exact = CostSensitiveTreeClassifier(max_depth=1).fit(X, y).tree_
    assert min(abs(exact.n_node_samples[1] - q * n) for q in (0.25, 0.5, 0.75)) > 1


@pytest.mark.parametrize("max_bins", [1, 256])
def test_max_bins_out_of_range_is_refused(max_bins):
    X = np.arange(10.0).reshape(-1, 1)
    y = np.arange(10) % 2
    with pytest.raises(ValueError, match="max_bins"):
        _fitted(X, y, max_bins)
