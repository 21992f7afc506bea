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


def _numpy_edges(column, max_bins):
    """The bin edges computed with numpy: every distinct value up to ``max_bins``,
    else the lower quantiles (the reference the compiled binning must match)."""
    distinct = np.unique(column)
    if distinct.size <= max_bins:
        return distinct[:-1]
    quantiles = np.arange(1, max_bins) / max_bins
    edges = np.unique(np.quantile(column, quantiles, method="lower"))
    return edges[edges < distinct[-1]]


@pytest.mark.parametrize("max_bins", [4, 255])
def test_bins_are_numpy_quantiles_and_codes_count_the_edges_below(max_bins):
    """Edges: ``np.quantile(..., method="lower")`` at ``i / max_bins`` (or every
    distinct value); codes: ``np.searchsorted(edges, x)``; each bin's value range."""
    from costsense.tree._binning import bin_features

    rng = np.random.RandomState(0)
    n = 3000
    X = np.c_[
        rng.normal(size=n),  # many distinct values: quantile edges
        rng.randint(0, 3, size=n),  # few distinct values: one bin each
        np.round(rng.exponential(size=n), 1),  # ties and a long tail
    ]
    bins = bin_features(X, max_bins)
    for f in range(X.shape[1]):
        column = X[:, f]
        edges = _numpy_edges(column, max_bins)
        code = np.searchsorted(edges, column, side="left")
        assert bins.n_bins[f] == edges.size + 1
        np.testing.assert_array_equal(bins.codes[:, f], code)
        for b in range(edges.size + 1):
            in_bin = column[code == b]
            assert bins.lower[f, b] == in_bin.min()
            assert bins.upper[f, b] == in_bin.max()


@pytest.mark.parametrize("max_bins", [3, 255])
def test_few_rows_many_columns_bin_as_numpy_and_keep_one_range_per_bin(max_bins):
    """Wide data: 6 rows (ties, -0.0 and 0.0) by 500 columns, sorted in the loop.

    With at most ``max_bins`` rows every bin holds one value, so ``upper`` is
    ``lower`` (one array, not two) and each has ``min(n, max_bins)`` columns, not
    ``max_bins``: the bins cost no more than the data.
    """
    from costsense.tree._binning import bin_features

    rng = np.random.RandomState(1)
    X = np.round(rng.normal(size=(6, 500)), 0) + 0.0
    X[:3, :50] = -0.0
    bins = bin_features(X, max_bins)
    width = min(6, max_bins)
    assert bins.lower.shape == (500, width)
    assert (bins.upper is bins.lower) == (6 <= max_bins)
    for f in range(X.shape[1]):
        column = X[:, f]
        edges = _numpy_edges(column, max_bins)
        code = np.searchsorted(edges, column, side="left")
        assert bins.n_bins[f] == edges.size + 1
        np.testing.assert_array_equal(bins.codes[:, f], code)
        for b in range(edges.size + 1):
            assert bins.lower[f, b] == column[code == b].min()
            assert bins.upper[f, b] == column[code == b].max()
