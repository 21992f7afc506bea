"""The histogram kernels against np.add.at, and the subtraction against filling."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.tree._histogram import (
    child_histograms,
    fill_feature_histogram,
    node_histograms,
    subtraction_pays,
)

N_BINS = 9


def _rows(seed, n=150, d=3, m=2):
    rng = np.random.RandomState(seed)
    codes = rng.randint(0, N_BINS, size=(n, d)).astype(np.uint8)
    weight = rng.uniform(0.1, 2.0, size=n)
    wstats = weight[:, None] * rng.uniform(size=(n, m))
    idx = rng.permutation(n).astype(np.int64)
    return codes, wstats, weight, idx


def _reference(codes, wstats, weight, rows):
    """Per feature and bin: weight, weighted statistics, count (np.add.at)."""
    d, m = codes.shape[1], wstats.shape[1]
    hist = np.zeros((d, N_BINS, 1 + m))
    count = np.zeros((d, N_BINS), dtype=np.int64)
    for f in range(d):
        bins = codes[rows, f]
        np.add.at(hist[f, :, 0], bins, weight[rows])
        np.add.at(hist[f, :, 1:], bins, wstats[rows])
        np.add.at(count[f], bins, 1)
    return hist, count


def test_node_histograms_are_the_sums_per_bin_of_the_node_rows():
    codes, wstats, weight, idx = _rows(0)
    hist, count = node_histograms(codes, wstats, weight, idx, 20, 110, N_BINS)
    expected_hist, expected_count = _reference(codes, wstats, weight, idx[20:110])
    assert_allclose(hist, expected_hist, rtol=1e-12)
    assert_array_equal(count, expected_count)
    assert count.sum() == 3 * 90  # every row once per feature


def test_a_feature_histogram_is_refilled_from_scratch():
    codes, wstats, weight, idx = _rows(1)
    hist = np.full((N_BINS + 2, 3), 7.0)  # stale values everywhere
    count = np.full(N_BINS + 2, 7, dtype=np.int64)
    fill_feature_histogram(codes, 2, wstats, weight, idx, 0, 60, N_BINS, hist, count)
    expected_hist, expected_count = _reference(codes, wstats, weight, idx[:60])
    assert_allclose(hist[:N_BINS], expected_hist[2], rtol=1e-12)
    assert_array_equal(count[:N_BINS], expected_count[2])
    assert_array_equal(count[N_BINS:], 7)  # bins past n_bins are not touched


@pytest.mark.parametrize("middle", [40, 75, 120])  # smaller child left, tie, right
def test_child_histograms_by_subtraction_equal_those_filled_directly(middle):
    codes, wstats, weight, idx = _rows(2)
    start, end = 0, 150
    parent_hist, parent_count = node_histograms(
        codes, wstats, weight, idx, start, end, N_BINS
    )
    left_hist, left_count, right_hist, right_count = child_histograms(
        codes, wstats, weight, idx, start, middle, end, parent_hist, parent_count
    )
    for hist, count, rows in (
        (left_hist, left_count, idx[start:middle]),
        (right_hist, right_count, idx[middle:end]),
    ):
        expected_hist, expected_count = _reference(codes, wstats, weight, rows)
        assert_allclose(hist, expected_hist, rtol=1e-9, atol=1e-12)
        assert_array_equal(count, expected_count)
    # the larger child's histograms are the parent's memory, subtracted in place
    larger = right_hist if middle - start <= end - middle else left_hist
    assert larger is parent_hist


def test_subtraction_pays_by_counting_operations():
    # subtract: n_small d + 2 d n_bins; per feature: n_node k + 2 k n_bins
    assert subtraction_pays(500, 1000, 10, 10, 255)  # every feature evaluated
    assert not subtraction_pays(500, 1000, 100, 10, 255)  # a tenth of them
    # d = 4, k = 2, 10 bins: 4 n_small + 80 against 2 * 200 + 40 = 440
    assert not subtraction_pays(90, 200, 4, 2, 10)  # equal: not less
    assert subtraction_pays(89, 200, 4, 2, 10)
