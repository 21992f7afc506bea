"""The index array of a tree's rows, and its partition at a split.

A tree's training rows of positive weight are listed once in an index array
(:func:`positive_rows`; rows of weight 0 are dropped, as scikit-learn's trees drop
them). Every node covers a slice ``idx[start:end]`` of it: the root the whole
array, and a split reorders its node's slice in place so that the rows going left
come first (:func:`partition`), each child keeping one contiguous part, as
scikit-learn's trees and ``_hist_gradient_boosting``'s ``split_indices`` do.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = ["partition", "positive_rows"]


@njit(cache=True, nogil=True, inline="always")
def positive_rows(weight: FloatArray) -> IntArray:
    """Return the rows of positive weight, in increasing order."""
    n = weight.shape[0]
    n_rows = 0
    for r in range(n):
        if weight[r] > 0.0:
            n_rows += 1
    idx = np.empty(n_rows, dtype=np.int64)
    j = 0
    for r in range(n):
        if weight[r] > 0.0:
            idx[j] = r
            j += 1
    return idx


@njit(cache=True, nogil=True, inline="always")
def partition(
    X: FloatArray,
    codes: NDArray[np.uint8],
    use_hist: bool,
    feature: int,
    threshold: float,
    bin_code: int,
    idx: IntArray,
    start: int,
    end: int,
    buffer: IntArray,
) -> int:
    """Reorder ``idx[start:end]`` so the rows going left come first (stable).

    A row goes left iff ``X[r, feature] <= threshold`` (exact splitter) or
    ``codes[r, feature] <= bin_code`` (histogram splitter, where the threshold lies
    between bin ``bin_code`` and the next non-empty bin). Both parts keep the order
    the rows had. Returns ``middle``: the left child's rows are
    ``idx[start:middle]``, the right child's ``idx[middle:end]``.
    """
    n_left = 0
    n_right = 0
    for p in range(start, end):
        r = idx[p]
        if use_hist:
            goes_left = codes[r, feature] <= bin_code
        else:
            goes_left = X[r, feature] <= threshold
        if goes_left:
            idx[start + n_left] = r
            n_left += 1
        else:
            buffer[n_right] = r
            n_right += 1
    for p in range(n_right):
        idx[start + n_left + p] = buffer[p]
    return start + n_left
