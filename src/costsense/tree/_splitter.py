"""The split finders: the best threshold of one feature in one node.

A split of a node of weight ``W`` and impurity ``I_P`` into ``L`` and ``R`` has the
weighted gain ``G = W I_P - W_L I_L - W_R I_R`` (:func:`split_gain`; ``W`` times
paper 004's eq. (4) with counts replaced by weights). **exact**
(:func:`exact_split`): every boundary between consecutive distinct sorted values,
the threshold at their midpoint (scikit-learn's convention); **hist**
(:func:`hist_split`): every boundary between two non-empty bins, the threshold at
the midpoint of the values on either side. Both skip candidates leaving fewer
than ``min_samples_leaf`` rows on a side and keep the first best (the lowest
threshold); :func:`best_split` keeps the first best feature in visiting order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from costsense.tree._binning import midpoint
from costsense.tree._common import TrainingRows
from costsense.tree._criteria import node_impurity
from costsense.tree._histogram import fill_feature_histogram

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = [
    "SplitScratch",
    "best_split",
    "exact_split",
    "hist_split",
    "sort_pairs",
    "split_gain",
    "split_scratch",
]


@njit(cache=True, nogil=True)
def split_gain(
    parent_term: float,
    code: int,
    n_labels: int,
    w_node: float,
    stats: FloatArray,
    w_left: float,
    left: FloatArray,
    right: FloatArray,
) -> float:
    """Return the weighted gain ``G = W I_P - W_L I_L - W_R I_R`` of one split.

    ``parent_term`` is ``W I_P``; ``left`` holds the left child's summed weighted
    statistics, and ``right`` (scratch) receives the right child's, ``stats - left``.
    """
    for k in range(stats.shape[0]):
        right[k] = stats[k] - left[k]
    w_right = w_node - w_left
    return (
        parent_term
        - w_left * node_impurity(code, w_left, left, n_labels)
        - w_right * node_impurity(code, w_right, right, n_labels)
    )


@njit(cache=True, nogil=True)
def hist_split(
    hist: FloatArray,
    count: IntArray,
    n_bins: int,
    lower: FloatArray,
    upper: FloatArray,
    code: int,
    n_labels: int,
    n_node: int,
    weight: float,
    stats: FloatArray,
    parent_term: float,
    min_samples_leaf: int,
    left: FloatArray,
    right: FloatArray,
) -> tuple[float, float, int, bool]:
    """Best split of one feature by its histogram: gain, threshold, bin, constant."""
    m = stats.shape[0]
    non_empty = 0
    for b in range(n_bins):
        if count[b] > 0:
            non_empty += 1
    if non_empty <= 1:
        return -np.inf, 0.0, -1, True
    left[:] = 0.0
    w_left = 0.0
    n_left = 0
    best, best_threshold, best_bin = -np.inf, 0.0, -1
    previous = -1
    for b in range(n_bins):
        if count[b] == 0:
            continue
        if previous >= 0 and n_left >= min_samples_leaf:
            if n_node - n_left < min_samples_leaf:
                break
            gain = split_gain(
                parent_term, code, n_labels, weight, stats, w_left, left, right
            )
            if gain > best:
                best = gain
                best_bin = previous
                best_threshold = midpoint(upper[previous], lower[b])
        n_left += count[b]
        w_left += hist[b, 0]
        for k in range(m):
            left[k] += hist[b, 1 + k]
        previous = b
    return best, best_threshold, best_bin, False


@njit(cache=True, nogil=True)
def _sift_down(keys: FloatArray, rows: IntArray, lo: int, root: int, n: int) -> None:
    while True:
        child = 2 * root + 1
        if child >= n:
            return
        if child + 1 < n and keys[lo + child] < keys[lo + child + 1]:
            child += 1
        if keys[lo + root] >= keys[lo + child]:
            return
        a, b = lo + root, lo + child
        keys[a], keys[b] = keys[b], keys[a]
        rows[a], rows[b] = rows[b], rows[a]
        root = child


@njit(cache=True, nogil=True)
def _heapsort(keys: FloatArray, rows: IntArray, lo: int, hi: int) -> None:
    n = hi - lo
    for root in range(n // 2 - 1, -1, -1):
        _sift_down(keys, rows, lo, root, n)
    for end in range(n - 1, 0, -1):
        keys[lo], keys[lo + end] = keys[lo + end], keys[lo]
        rows[lo], rows[lo + end] = rows[lo + end], rows[lo]
        _sift_down(keys, rows, lo, 0, end)


@njit(cache=True, nogil=True)
def sort_pairs(keys: FloatArray, rows: IntArray, n: int) -> None:
    """Sort ``keys[:n]`` ascending, moving ``rows[:n]`` along (introsort).

    Quicksort with a median-of-three pivot and three-way partition (ties are
    common in binned or discrete features), insertion sort below 16 items, and
    heapsort when the recursion grows too deep; an explicit stack, no recursion.
    """
    max_depth = 2 * int(np.log2(n + 1)) + 2
    stack_lo = np.empty(64, dtype=np.int64)
    stack_hi = np.empty(64, dtype=np.int64)
    stack_depth = np.empty(64, dtype=np.int64)
    top = 0
    stack_lo[0], stack_hi[0], stack_depth[0] = 0, n, 0
    top = 1
    while top > 0:
        top -= 1
        lo, hi, depth = stack_lo[top], stack_hi[top], stack_depth[top]
        while hi - lo > 16:
            if depth >= max_depth:
                _heapsort(keys, rows, lo, hi)
                lo = hi
                break
            depth += 1
            mid = lo + (hi - lo) // 2
            a, b, c = keys[lo], keys[mid], keys[hi - 1]
            if a < b:
                pivot = b if b < c else (c if a < c else a)
            else:
                pivot = a if a < c else (c if b < c else b)
            # three-way partition: [lo, lt) < pivot, [lt, i) == pivot, (gt, hi) >
            lt, i, gt = lo, lo, hi - 1
            while i <= gt:
                if keys[i] < pivot:
                    keys[lt], keys[i] = keys[i], keys[lt]
                    rows[lt], rows[i] = rows[i], rows[lt]
                    lt += 1
                    i += 1
                elif keys[i] > pivot:
                    keys[gt], keys[i] = keys[i], keys[gt]
                    rows[gt], rows[i] = rows[i], rows[gt]
                    gt -= 1
                else:
                    i += 1
            # push the larger side, loop on the smaller (stack depth <= log2 n)
            if lt - lo > hi - (gt + 1):
                stack_lo[top], stack_hi[top], stack_depth[top] = lo, lt, depth
                top += 1
                lo = gt + 1
            else:
                stack_lo[top], stack_hi[top], stack_depth[top] = gt + 1, hi, depth
                top += 1
                hi = lt
        for i in range(lo + 1, hi):  # insertion sort of a short range
            key, row = keys[i], rows[i]
            j = i - 1
            while j >= lo and keys[j] > key:
                keys[j + 1] = keys[j]
                rows[j + 1] = rows[j]
                j -= 1
            keys[j + 1] = key
            rows[j + 1] = row


@njit(cache=True, nogil=True)
def exact_split(
    X: FloatArray,
    feature: int,
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    end: int,
    code: int,
    n_labels: int,
    w_node: float,
    stats: FloatArray,
    parent_term: float,
    min_samples_leaf: int,
    left: FloatArray,
    right: FloatArray,
    values: FloatArray,
    rows: IntArray,
) -> tuple[float, float, bool]:
    """Best split of one feature on its sorted values: (gain, threshold, constant).

    ``values`` and ``rows`` are scratch buffers of at least ``end - start`` items.
    """
    n_node = end - start
    m = stats.shape[0]
    low_value, high_value = np.inf, -np.inf
    for p in range(n_node):
        r = idx[start + p]
        v = X[r, feature]
        values[p] = v
        rows[p] = r
        low_value = min(low_value, v)
        high_value = max(high_value, v)
    if high_value <= low_value:
        return -np.inf, 0.0, True
    sort_pairs(values, rows, n_node)
    left[:] = 0.0
    w_left = 0.0
    best, best_threshold = -np.inf, 0.0
    for p in range(n_node - 1):
        r = rows[p]
        w_left += weight[r]
        for k in range(m):
            left[k] += wstats[r, k]
        n_left = p + 1
        if n_left < min_samples_leaf:
            continue
        if n_node - n_left < min_samples_leaf:
            break
        low = values[p]
        high = values[p + 1]
        if high <= low:
            continue
        gain = split_gain(
            parent_term, code, n_labels, w_node, stats, w_left, left, right
        )
        if gain > best:
            best = gain
            best_threshold = midpoint(low, high)
    return best, best_threshold, False


class SplitScratch(NamedTuple):
    """The split finder's buffers, made once per tree and reused at every node.

    Attributes
    ----------
    order : ndarray of shape (n_features,), int64
        The order the features are visited in. With ``max_features <
        n_features`` it is shuffled in place at each node, starting from the
        previous node's order (so it carries state from node to node).
    left, right : ndarray of shape (m,)
        A candidate's left and right summed statistics.
    sort_values : ndarray of shape (n_rows,) or (0,)
        The exact splitter's sorted values (empty for the histogram splitter).
    sort_rows : ndarray of shape (n_rows,) or (0,), int64
        Their rows.
    feature_hist : ndarray of shape (n_bins_max, 1 + m)
        One feature's histogram, when a node has no all-feature histograms.
    feature_count : ndarray of shape (n_bins_max,), int64
        Its row counts.
    """

    order: IntArray
    left: FloatArray
    right: FloatArray
    sort_values: FloatArray
    sort_rows: IntArray
    feature_hist: FloatArray
    feature_count: IntArray


@njit(cache=True, nogil=True, inline="always")
def split_scratch(
    n_features: int, m: int, n_bins_max: int, n_sorted: int
) -> SplitScratch:
    """Make the buffers of :func:`best_split`; ``order`` starts as ``0 .. d - 1``."""
    return SplitScratch(
        np.arange(n_features),
        np.empty(m),
        np.empty(m),
        np.empty(n_sorted),
        np.empty(n_sorted, dtype=np.int64),
        np.zeros((n_bins_max, 1 + m)),
        np.zeros(n_bins_max, dtype=np.int64),
    )


@njit(cache=True, nogil=True, inline="always")
def best_split(
    rows: TrainingRows,
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    end: int,
    hist: FloatArray,
    count: IntArray,
    w_node: float,
    impurity: float,
    node_stats: FloatArray,
    min_samples_leaf: int,
    max_features: int,
    scratch: SplitScratch,
) -> tuple[float, int, float, int]:
    """Best split of a node over its features: gain, feature, threshold, bin.

    With ``max_features < n_features`` the features are shuffled as they are
    visited (a Fisher-Yates step each) until ``max_features`` non-constant ones
    have been evaluated (scikit-learn's rule). The largest gain wins; ties go to
    the feature visited first.
    """
    # tuple fields as plain locals: each read of a field in the loop would take
    # and drop a reference to its array
    X, codes, n_bins, lower, upper = (
        rows.X,
        rows.codes,
        rows.n_bins,
        rows.lower,
        rows.upper,
    )
    code, n_labels, use_hist = rows.code, rows.n_labels, rows.use_hist
    order, left, right = scratch.order, scratch.left, scratch.right
    feature_hist, feature_count = scratch.feature_hist, scratch.feature_count
    sort_values, sort_rows = scratch.sort_values, scratch.sort_rows
    d = order.shape[0]
    n_node = end - start
    parent_term = w_node * impurity
    best_gain = -np.inf
    best_feature = -1
    best_threshold = 0.0
    best_bin = -1
    evaluated = 0
    for i in range(d):
        if max_features < d:
            j = np.random.randint(i, d)  # noqa: NPY002 - numba's generator
            order[i], order[j] = order[j], order[i]
        f = order[i]
        if use_hist:
            if hist.shape[0] == 0:  # no all-feature histograms: fill this one
                fill_feature_histogram(
                    codes,
                    f,
                    wstats,
                    weight,
                    idx,
                    start,
                    end,
                    n_bins[f],
                    feature_hist,
                    feature_count,
                )
                scan_hist, scan_count = feature_hist, feature_count
            else:
                scan_hist, scan_count = hist[f], count[f]
            gain, threshold, b, constant = hist_split(
                scan_hist,
                scan_count,
                n_bins[f],
                lower[f],
                upper[f],
                code,
                n_labels,
                n_node,
                w_node,
                node_stats,
                parent_term,
                min_samples_leaf,
                left,
                right,
            )
        else:
            b = -1
            gain, threshold, constant = exact_split(
                X,
                f,
                wstats,
                weight,
                idx,
                start,
                end,
                code,
                n_labels,
                w_node,
                node_stats,
                parent_term,
                min_samples_leaf,
                left,
                right,
                sort_values,
                sort_rows,
            )
        if constant:
            continue
        evaluated += 1
        if gain > best_gain:
            best_gain = gain
            best_feature = f
            best_threshold = threshold
            best_bin = b
        if evaluated >= max_features:
            break
    return best_gain, best_feature, best_threshold, best_bin
