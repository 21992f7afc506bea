"""The partition kernels: every row once, the left rows first, stable."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from costsense.tree._partition import partition, positive_rows


def test_positive_rows_are_those_of_positive_weight_in_order():
    weight = np.array([0.0, 1.0, 2.5, 0.0, 0.0, 1e-300, 3.0])
    assert_array_equal(positive_rows(weight), [1, 2, 5, 6])
    assert positive_rows(np.zeros(4)).shape == (0,)


@pytest.mark.parametrize("use_hist", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_partition_puts_the_left_rows_first_keeping_every_row_once(use_hist, seed):
    rng = np.random.RandomState(seed)
    n, d = 200, 3
    codes = rng.randint(0, 12, size=(n, d)).astype(np.uint8)
    X = np.asfortranarray(codes + rng.uniform(-0.4, 0.4, size=(n, d)))
    feature, bin_code = 1, 5
    threshold = 5.5  # between the values of bins 5 and 6
    idx = rng.permutation(n).astype(np.int64)
    before = idx.copy()
    start, end = 30, 170
    middle = partition(
        X,
        codes,
        use_hist,
        feature,
        threshold,
        bin_code,
        idx,
        start,
        end,
        np.empty(n, dtype=np.int64),
    )
    node = before[start:end]
    goes_left = (
        codes[node, feature] <= bin_code if use_hist else X[node, feature] <= threshold
    )
    assert 0 < goes_left.sum() < end - start  # the premise: both sides non-empty
    assert middle == start + goes_left.sum()
    # stable: each side keeps the rows' previous order
    assert_array_equal(idx[start:middle], node[goes_left])
    assert_array_equal(idx[middle:end], node[~goes_left])
    # outside the node's slice, nothing moves
    assert_array_equal(idx[:start], before[:start])
    assert_array_equal(idx[end:], before[end:])


def test_partition_with_every_row_on_one_side():
    X = np.asfortranarray(np.arange(6.0).reshape(-1, 1))
    codes = np.zeros((6, 1), dtype=np.uint8)
    idx = np.arange(6)
    buffer = np.empty(6, dtype=np.int64)
    assert partition(X, codes, False, 0, 10.0, 0, idx, 1, 5, buffer) == 5
    assert partition(X, codes, False, 0, -1.0, 0, idx, 1, 5, buffer) == 1
    assert_array_equal(idx, np.arange(6))
