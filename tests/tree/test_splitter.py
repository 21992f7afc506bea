"""The split finder kernels against brute force over every threshold."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numpy.testing import assert_array_equal

from costsense.tree import impurity
from costsense.tree._base import prepare
from costsense.tree._binning import midpoint
from costsense.tree._histogram import node_histograms
from costsense.tree._splitter import best_split, sort_pairs, split_scratch
from costsense.tree._summary import node_summary, weighted_statistics


@njit(cache=True)
def _seed_numba(seed: int) -> None:
    np.random.seed(seed)  # noqa: NPY002 - numba's generator, which best_split draws


def _problem(seed, name, n=90, d=4):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] - X[:, 2] + rng.normal(scale=0.7, size=n) > 0).astype(int)
    y[X[:, 1] > 1.0] = 2
    if name == "squared_error":
        labels = (X[:, 0] + rng.normal(size=n))[:, None]
    elif name in ("cs_gini", "pairwise"):
        scores = rng.uniform(0.0, 0.6, size=(n, 3))  # task scores, not one-hot
        scores[np.arange(n), y] = 1.0
        labels = scores
    else:
        labels = np.eye(3)[y]
    weight = rng.uniform(0.2, 2.0, size=n)
    return X, labels, weight, rng.permutation(n).astype(np.int64)


def _candidates(X, codes, rows, lower, upper):
    """Every candidate of every feature: (feature, threshold, goes-left mask).

    Exact (``codes is None``): between consecutive distinct values, at their
    midpoint. Histogram: between consecutive non-empty bins.
    """
    for f in range(X.shape[1]):
        if codes is None:
            x = X[rows, f]
            distinct = np.unique(x)
            for low, high in zip(distinct[:-1], distinct[1:], strict=True):
                yield f, midpoint(low, high), x <= low
        else:
            c = codes[rows, f]
            present = np.unique(c)
            for b, after in zip(present[:-1], present[1:], strict=True):
                yield f, midpoint(upper[f, b], lower[f, after]), c <= b


def _brute_force(X, codes, rows, lower, upper, labels, weight, name, min_leaf):
    """Largest gain ``W I - W_L I_L - W_R I_R`` from the public impurity."""
    w = weight[rows]
    parent = w.sum() * impurity(name, labels[rows], w)
    found = []
    for f, threshold, left in _candidates(X, codes, rows, lower, upper):
        if min(left.sum(), (~left).sum()) < min_leaf:
            continue
        gain = parent
        for side in (left, ~left):
            gain -= w[side].sum() * impurity(name, labels[rows][side], w[side])
        found.append((gain, f, threshold))
    found.sort(key=lambda g: -g[0])
    return found


def _best_split(data, weight, idx, start, end, min_leaf, all_hist=False):
    """best_split of the node ``idx[start:end]``, summarised by the kernels."""
    wstats, _ = weighted_statistics(data.stats, weight)
    node_stats = np.empty(data.stats.shape[1])
    w_node, node_impurity = node_summary(
        wstats,
        weight,
        data.values,
        idx,
        start,
        end,
        data.code,
        data.n_labels,
        node_stats,
        np.empty(data.values.shape[1]),
    )
    n_bins_max = int(data.n_bins.max())
    if all_hist:
        hist, count = node_histograms(
            data.codes, wstats, weight, idx, start, end, n_bins_max
        )
    else:
        hist, count = np.zeros((0, 0, 0)), np.zeros((0, 0), dtype=np.int64)
    d = data.n_bins.shape[0]
    scratch = split_scratch(
        d, data.stats.shape[1], n_bins_max, 0 if data.use_hist else idx.shape[0]
    )
    result = best_split(
        data,
        wstats,
        weight,
        idx,
        start,
        end,
        hist,
        count,
        w_node,
        node_impurity,
        node_stats,
        min_leaf,
        d,
        scratch,
    )
    return result, scratch


CASES = [
    ("gini", "exact", False),
    ("entropy", "exact", False),
    ("misclassification", "hist", True),
    ("cs_gini", "hist", False),
    ("pairwise", "exact", False),
    ("squared_error", "hist", True),
]


@pytest.mark.parametrize(("name", "splitter", "all_hist"), CASES)
@pytest.mark.parametrize("min_leaf", [1, 9])
def test_best_split_is_the_brute_force_best(name, splitter, all_hist, min_leaf):
    X, labels, weight, idx = _problem(0, name)
    data = prepare(X, labels, labels, name, splitter, max_bins=12)
    start, end = 5, 80
    (gain, feature, threshold, bin_code), _ = _best_split(
        data, weight, idx, start, end, min_leaf, all_hist
    )
    codes = data.codes if splitter == "hist" else None
    found = _brute_force(
        X, codes, idx[start:end], data.lower, data.upper, labels, weight, name, min_leaf
    )
    best, second = found[0], found[1]
    assert best[0] - second[0] > 1e-9 * abs(best[0])  # premise: one best
    assert gain == pytest.approx(best[0], rel=1e-9, abs=1e-12)
    assert (feature, threshold) == (best[1], best[2])
    if splitter == "hist":
        # the bin and the threshold send the same rows left (the partition's test)
        rows = idx[start:end]
        assert_array_equal(
            data.codes[rows, feature] <= bin_code, X[rows, feature] <= threshold
        )
        assert 0 < bin_code < data.n_bins[feature] - 1  # not every bin one side
    else:
        assert bin_code == -1


def test_histogram_best_split_is_the_same_with_all_or_one_feature_histograms():
    X, labels, weight, idx = _problem(1, "gini", n=300, d=5)
    data = prepare(X, labels, labels, "gini", "hist", max_bins=32)
    with_all, _ = _best_split(data, weight, idx, 0, 300, 1, all_hist=True)
    per_feature, _ = _best_split(data, weight, idx, 0, 300, 1, all_hist=False)
    assert with_all == per_feature


def test_no_candidate_when_min_samples_leaf_leaves_none():
    X, labels, weight, idx = _problem(2, "gini", n=10)
    data = prepare(X, labels, labels, "gini", "exact", max_bins=255)
    (gain, feature, _, _), _ = _best_split(data, weight, idx, 0, 10, 6)
    assert (gain, feature) == (-np.inf, -1)


@pytest.mark.parametrize("splitter", ["exact", "hist"])
def test_max_features_counts_non_constant_features_in_the_shuffled_order(splitter):
    rng = np.random.RandomState(3)
    X = np.zeros((60, 5))
    X[:, 1] = rng.normal(size=60)
    X[:, 3] = rng.normal(size=60)
    labels = np.eye(2)[(X[:, 1] + X[:, 3] > 0).astype(int)]
    weight = np.ones(60)
    data = prepare(X, labels, labels, "gini", splitter, max_bins=255)
    wstats, _ = weighted_statistics(data.stats, weight)
    node_stats = weight @ data.stats
    node_impurity = impurity("gini", labels)
    chosen = set()
    for seed in range(12):
        _seed_numba(seed)
        scratch = split_scratch(5, 2, int(data.n_bins.max()), 60)
        empty = np.zeros((0, 0, 0)), np.zeros((0, 0), dtype=np.int64)
        _, feature, _, _ = best_split(
            data,
            wstats,
            weight,
            np.arange(60),
            0,
            60,
            *empty,
            60.0,
            node_impurity,
            node_stats,
            1,
            1,
            scratch,
        )
        assert feature in (1, 3)  # a constant feature is never the one evaluated
        assert sorted(scratch.order) == list(range(5))  # shuffled, not lost
        chosen.add(feature)
    assert chosen == {1, 3}  # the draws reach both


@pytest.mark.parametrize("n", [5, 16, 17, 300, 2000])
@pytest.mark.parametrize("arrangement", ["random", "ties", "sorted", "reversed"])
def test_sort_pairs_sorts_the_keys_and_moves_the_rows_along(n, arrangement):
    rng = np.random.RandomState(n)
    keys = {
        "random": rng.normal(size=n),
        "ties": rng.randint(0, 4, size=n).astype(float),
        "sorted": np.arange(float(n)),
        "reversed": np.arange(float(n))[::-1].copy(),
    }[arrangement]
    original = keys.copy()
    padded = np.append(keys, [-1.0, -2.0])  # items past n are not touched
    rows = np.arange(n + 2, dtype=np.int64)
    sort_pairs(padded, rows, n)
    assert_array_equal(padded[:n], np.sort(original))
    assert_array_equal(np.sort(rows[:n]), np.arange(n))  # a permutation
    assert_array_equal(original[rows[:n]], padded[:n])  # rows moved along
    assert_array_equal(padded[n:], [-1.0, -2.0])
