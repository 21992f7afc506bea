"""Bin edges of the discrete naive Bayes: weighted quantiles by hand and against
numpy, where a value on an edge goes, and the MDL cuts against a plain Fayyad & Irani
recursion."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from costsense.naive_bayes import DiscreteNaiveBayesClassifier

# 4. quantile edges by hand, MDL cuts ---------------------------------------------


def test_quantile_edges_by_hand_with_ties():
    # x = 1, 2, 2, 2, 3, 4, 5, 6, 7, 8: F(2) = 0.4 >= 1/4, F(3) = 0.5 >= 2/4,
    # F(5) = 0.7 < 3/4 <= F(6) = 0.8, so the edges are 2, 3, 6
    x = np.array([1, 2, 2, 2, 3, 4, 5, 6, 7, 8], dtype=float)
    y = np.array([0, 1] * 5)
    model = DiscreteNaiveBayesClassifier(n_bins=4).fit(x[:, None], y)
    assert_array_equal(model.bin_edges_[0], [2, 3, 6])
    # right-closed bins: (-inf, 2] holds 1, 2, 2, 2; (2, 3] holds 3; (3, 6] holds
    # 4, 5, 6; (6, inf) holds 7, 8
    assert_array_equal(model.bin_count_[0].sum(axis=0), [4, 1, 3, 2])
    # a heavy tie merges quantiles: F(0) = 0.6 covers 1/4 and 2/4, and
    # F(1) = 0.7 < 3/4 <= F(2) = 0.8
    x = np.array([0, 0, 0, 0, 0, 0, 1, 2, 3, 4], dtype=float)
    model = DiscreteNaiveBayesClassifier(n_bins=4).fit(x[:, None], y)
    assert_array_equal(model.bin_edges_[0], [0, 2])
    # weights move the quantiles: W = 8, F(1) = 4/8 reaches 1/4 and 2/4, and
    # F(2) = 6/8 reaches 3/4 (unweighted the edges would be 2, 3, 4)
    x = np.array([1, 2, 3, 4, 5], dtype=float)
    model = DiscreteNaiveBayesClassifier(n_bins=4).fit(
        x[:, None], [0, 1, 0, 1, 0], sample_weight=[4, 2, 0.5, 0.5, 1]
    )
    assert_array_equal(model.bin_edges_[0], [1, 2])
    # few distinct values: one bin per value
    x = np.array([1, 5, 9, 5, 1, 9], dtype=float)
    model = DiscreteNaiveBayesClassifier(n_bins=3).fit(x[:, None], [0, 1] * 3)
    assert_array_equal(model.bin_edges_[0], [1, 5])


def test_quantile_edges_are_numpys_weighted_inverted_cdf():
    rng = np.random.default_rng(5)
    x = np.round(rng.normal(size=300), 1)  # ties
    weight = rng.integers(1, 5, 300).astype(float)
    y = rng.integers(0, 2, 300)
    n_bins = 7
    model = DiscreteNaiveBayesClassifier(n_bins=n_bins).fit(
        x[:, None], y, sample_weight=weight
    )
    quantiles = np.quantile(
        x, np.arange(1, n_bins) / n_bins, weights=weight, method="inverted_cdf"
    )
    expected = np.unique(quantiles)
    assert_array_equal(model.bin_edges_[0], expected[expected < x.max()])


def test_a_value_on_an_edge_goes_to_the_lower_bin_and_outside_values_to_the_ends():
    x = np.array([1, 2, 2, 2, 3, 4, 5, 6, 7, 8], dtype=float)
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1, 1, 1])
    model = DiscreteNaiveBayesClassifier(n_bins=4).fit(x[:, None], y)
    table = model.feature_log_prob_[0]  # (classes, bins); edges 2, 3, 6
    probes = np.array([-1e9, 2.0, 2.0 + 1e-9, 3.0, 6.0, 6.5, 1e9])
    bins = [0, 0, 1, 1, 2, 3, 3]
    got = model.feature_log_likelihood(probes[:, None])[:, 0, :]
    assert_array_equal(got, table[:, bins].T)


def _fayyad_irani(values, labels, n_classes):
    """Recursive Fayyad & Irani with the MDL rule, written out plainly."""

    def ent(counts):
        total = sum(counts)
        return -sum(c / total * math.log2(c / total) for c in counts if c > 0)

    def split(lo, hi):  # rows lo..hi-1 of the sorted data
        rows = list(range(lo, hi))
        counts = [sum(labels[i] == c for i in rows) for c in range(n_classes)]
        n = hi - lo
        best = None
        for cut in range(lo + 1, hi):
            if values[cut] == values[cut - 1]:
                continue
            left = [
                sum(labels[i] == c for i in range(lo, cut)) for c in range(n_classes)
            ]
            right = [a - b for a, b in zip(counts, left, strict=True)]
            e = (cut - lo) / n * ent(left) + (hi - cut) / n * ent(right)
            if best is None or e < best[0] - 1e-12:
                best = (e, cut, left, right)
        if best is None or n <= 1:
            return []
        e, cut, left, right = best
        k = sum(c > 0 for c in counts)
        k1, k2 = sum(c > 0 for c in left), sum(c > 0 for c in right)
        gain = ent(counts) - e
        delta = math.log2(3**k - 2) - (
            k * ent(counts) - k1 * ent(left) - k2 * ent(right)
        )
        if not gain > (math.log2(n - 1) + delta) / n:
            return []
        return [*split(lo, cut), values[cut - 1], *split(cut, hi)]

    return split(0, len(values))


@pytest.mark.parametrize("seed", range(6))
def test_mdl_is_fayyad_irani_recursion_without_the_cap(seed):
    rng = np.random.default_rng(seed)
    n = 80
    x = np.round(rng.uniform(0, 10, n), 1)
    y = np.clip((x // 3.5).astype(int) + (rng.uniform(size=n) < 0.15), 0, 2)
    model = DiscreteNaiveBayesClassifier(binning="mdl", n_bins=100).fit(x[:, None], y)
    order = np.argsort(x, kind="stable")
    expected = _fayyad_irani(x[order].tolist(), y[order].tolist(), 3)
    assert len(expected) >= 1
    assert_array_equal(model.bin_edges_[0], expected)


def test_mdl_finds_the_one_threshold_and_n_bins_caps_best_first():
    rng = np.random.default_rng(6)
    x = rng.uniform(0, 1, 100)
    y = (x > 0.3).astype(int)
    model = DiscreteNaiveBayesClassifier(binning="mdl").fit(x[:, None], y)
    assert_array_equal(model.bin_edges_[0], [x[y == 0].max()])
    # classes 0 | 1 | 0 on 0..29, 30..49, 50..89: the cut after 49 lowers the
    # entropy most (50/90 H(0.4) < 60/90 H(1/3)), so a cap of 2 bins keeps it
    x = np.arange(90, dtype=float)
    y = ((x >= 30) & (x < 50)).astype(int)
    full = DiscreteNaiveBayesClassifier(binning="mdl").fit(x[:, None], y)
    assert_array_equal(full.bin_edges_[0], [29, 49])
    capped = DiscreteNaiveBayesClassifier(binning="mdl", n_bins=2).fit(x[:, None], y)
    assert_array_equal(capped.bin_edges_[0], [49])
    # classes 0 | 1 | 2 | 0 on 30, 30, 50, 10 rows: the first cut, after 59, leaves
    # 30 | 30 (N Gain = 60 bits) and 50 | 10 (N Gain = 60 H(1/6) < 40 bits); with
    # 3 bins the larger reduction of entropy is made first
    y = np.repeat([0, 1, 2, 0], [30, 30, 50, 10])
    x = np.arange(120, dtype=float)[:, None]
    edges = {
        n_bins: DiscreteNaiveBayesClassifier(binning="mdl", n_bins=n_bins)
        .fit(x, y)
        .bin_edges_[0]
        .tolist()
        for n_bins in (2, 3, 10)
    }
    assert edges == {2: [59], 3: [29, 59], 10: [29, 59, 109]}


@pytest.mark.parametrize("seed", range(5))
def test_mdl_makes_no_cut_on_noise(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3))
    y = rng.integers(0, 2, 30)
    model = DiscreteNaiveBayesClassifier(binning="mdl").fit(X, y)
    assert_array_equal(model.n_bins_, [1, 1, 1])
    # every row of one class then has the same P(x | c): only the prior decides
    assert len(np.unique(model.predict_proba(X), axis=0)) == 1
