"""The compiled CART builder: one depth-first grower, two split finders.

:func:`grow` builds one binary tree with no Python in its loop (numba, ``nogil``,
so a forest grows trees in threads). Each node covers a slice of an index array of
the training rows with positive weight (rows of weight 0 are dropped, as
scikit-learn's trees drop them); nodes are numbered in depth-first pre-order, left
child first, scikit-learn's numbering.

A node's best split is the one of largest weighted gain ``G`` over the candidate
features and thresholds (:mod:`costsense.tree._splitter`, ties: the first feature
in the visiting order, then the lowest threshold), found on the sorted values
(``use_hist=False``) or on per-node histograms of bin codes (``use_hist=True``,
:mod:`costsense.tree._histogram`).

A node becomes a leaf when it is ``max_depth`` deep, has fewer than
``min_samples_split`` rows or fewer than ``2 * min_samples_leaf``, or when its rows'
label vectors are all identical (purity is tested on the labels, not on the
impurity: with the cost-sensitive Gini a node of identical non-one-hot labels has a
positive impurity, and no split can separate identical labels usefully).

**Split rules.** Two rules decide whether a node's best split is made:

- *positive gain* (``any_gain=False``): only if its gain is strictly positive,
  ``G > 1e-12 * scale`` (``scale`` = ``W``, or the sum of squared targets for
  regression: rounding of mathematically zero gains stays below it), and
  ``G / W_root >= min_impurity_decrease`` (scikit-learn's weighted impurity
  decrease). Otherwise the node is a leaf. This differs from scikit-learn, which
  also makes splits of zero gain.
- *best candidate* (``any_gain=True``, paper 004's rule): whatever its gain, as
  long as the node has a candidate split (a feature not constant in it, and a
  threshold leaving ``min_samples_leaf`` rows on each side). Paper 004, sect. 2.2
  and 4.1: the trees are not restricted ("不限制每棵决策树的生成") and grow to the
  maximum depth unless a node is below the minimum size ("在未达到节点的最小样本数量
  的情况下,树会持续生长至最大指定深度"). The best split is still the one of largest
  gain.

The rules differ for the pairwise-difference impurity: with cost-mapped task scores
it is not concave in the class mix (with ``C1 / C2 = 5`` a pure negative node has
``I_pdc = 0.08``, a node with one positive in six ``0.17``), so every split of a
node can have a negative gain; under the positive-gain rule such a node stays a
leaf, and a forest of such trees is often a constant model. For a strictly concave
impurity (Gini on one-hot labels), a node's best gain is positive unless no split
changes the class mix, and the two rules give the same tree when every best gain
is positive.

With ``max_features < n_features`` the features are visited in a random order
(numba's generator, seeded per tree) until ``max_features`` features that are not
constant in the node have been evaluated (scikit-learn's rule); otherwise in
column order.

**Arguments.** :func:`grow` takes the training rows (:class:`TrainingRows`, made
once per fit and shared by a forest's trees), the row weights, the rules
(:class:`GrowthRules`) and a seed, and returns the node arrays (:class:`Nodes`).
numba types a named tuple field by field, so the fields are read in the loop as
plain locals. It compiles :func:`grow` once per signature, and an array's type
includes its layout and writeability: every call must hand it C-ordered,
writeable arrays (``X`` Fortran-ordered) and the same scalar types, or the
builder is compiled again (tens of seconds). Change this module for the grow loop
and the node arrays; a split's gain is :mod:`costsense.tree._splitter`'s, a
histogram :mod:`costsense.tree._histogram`'s.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from costsense.tree._criteria import SQUARED_ERROR, node_impurity
from costsense.tree._histogram import (
    fill_feature_histogram,
    fill_histogram,
    subtraction_pays,
)
from costsense.tree._splitter import exact_split, hist_split

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Int32Array = NDArray[np.int32]

__all__ = ["GAIN_TOLERANCE", "GrowthRules", "Nodes", "TrainingRows", "grow"]

#: A split must decrease ``W * I`` by more than this times ``W`` (or, for
#: regression, times the node's sum of squared targets).
GAIN_TOLERANCE = 1e-12


@njit(cache=True, nogil=True)
def _identical_labels(labels: FloatArray, idx: IntArray, start: int, end: int) -> bool:
    first = idx[start]
    for p in range(start + 1, end):
        r = idx[p]
        for k in range(labels.shape[1]):
            if labels[r, k] != labels[first, k]:
                return False
    return True


#: Nodes a tree's arrays have room for at first.
_INITIAL_CAPACITY = 1023


@njit(cache=True, nogil=True)
def _enlarged(a: NDArray[Any], capacity: int) -> NDArray[Any]:
    """Return a copy of ``a`` with room for ``capacity`` entries (rest unset)."""
    out = np.empty(capacity, dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True, nogil=True)
def _enlarged_rows(a: FloatArray, capacity: int) -> FloatArray:
    """Return a copy of ``a`` with room for ``capacity`` rows (rest unset)."""
    out = np.empty((capacity, a.shape[1]))
    out[: a.shape[0]] = a
    return out


class TrainingRows(NamedTuple):
    """The training rows in the builder's form, made once per fit.

    A forest's trees share one; :func:`costsense.tree._base.prepare` makes it.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), Fortran-ordered
        Samples, for ``use_hist=False`` (a placeholder otherwise).
    codes : ndarray of shape (n_samples, n_features) or (0, n_features), uint8
        Bin codes, for ``use_hist=True``.
    n_bins : ndarray of shape (n_features,)
        Bins per feature.
    lower, upper : ndarray of shape (n_features, max_bins)
        Smallest and largest training value of each bin.
    stats : ndarray of shape (n_samples, m)
        Per-sample statistics of the criterion (unweighted).
    labels : ndarray of shape (n_samples, n_labels)
        Label vectors, for the purity test.
    values : ndarray of shape (n_samples, q)
        Rows whose weighted mean is a node's value.
    code : int
        Criterion code.
    n_labels : int
        Length of a label vector.
    use_hist : bool
        Histogram (True) or exact (False) split finder.
    """

    X: FloatArray
    codes: NDArray[np.uint8]
    n_bins: IntArray
    lower: FloatArray
    upper: FloatArray
    stats: FloatArray
    labels: FloatArray
    values: FloatArray
    code: int
    n_labels: int
    use_hist: bool


class GrowthRules(NamedTuple):
    """When a node is split: the estimator's stopping and split rules.

    Attributes
    ----------
    max_depth, min_samples_split, min_samples_leaf : int
        Stopping rules.
    min_impurity_decrease : float
        Least ``G / W_root`` of a split (positive-gain rule only).
    any_gain : bool
        Split on the best candidate whatever its gain (paper 004's rule) instead
        of on a strictly positive gain only.
    max_features : int
        Non-constant features to evaluate per node.
    """

    max_depth: int
    min_samples_split: int
    min_samples_leaf: int
    min_impurity_decrease: float
    any_gain: bool
    max_features: int


class Nodes(NamedTuple):
    """A grown tree's node arrays, one entry per node (pre-order numbering).

    The fields of :class:`costsense.tree.Tree`, in its order. Leaves have feature
    -2, threshold -2 and children -1. Node indices, features and counts are int32,
    half the memory of int64.
    """

    feature: Int32Array
    threshold: FloatArray
    children_left: Int32Array
    children_right: Int32Array
    value: FloatArray
    impurity: FloatArray
    n_node_samples: Int32Array
    weighted_n_node_samples: FloatArray
    max_depth: int


@njit(cache=True, nogil=True)
def grow(
    rows: TrainingRows, weight: FloatArray, rules: GrowthRules, seed: int
) -> Nodes:
    """Grow one tree (see the module docstring).

    Parameters
    ----------
    rows : TrainingRows
        The training rows in the builder's form.
    weight : ndarray of shape (n_samples,)
        Non-negative weights; rows of weight 0 are ignored.
    rules : GrowthRules
        The stopping and split rules.
    seed : int
        Seed of the feature order.

    Returns
    -------
    Nodes
        The node arrays; ``max_depth`` is the depth of the deepest leaf.
    """
    X, codes, n_bins, lower, upper = (
        rows.X,
        rows.codes,
        rows.n_bins,
        rows.lower,
        rows.upper,
    )
    stats, labels, values = rows.stats, rows.labels, rows.values
    code, n_labels, use_hist = rows.code, rows.n_labels, rows.use_hist
    max_depth = rules.max_depth
    min_samples_split = rules.min_samples_split
    min_samples_leaf = rules.min_samples_leaf
    min_impurity_decrease = rules.min_impurity_decrease
    any_gain = rules.any_gain
    max_features = rules.max_features
    d = n_bins.shape[0]
    n = weight.shape[0]
    m = stats.shape[1]
    q = values.shape[1]
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
    wstats = np.zeros((n, m))
    total_weight = 0.0
    for r in range(n):
        if weight[r] > 0.0:
            total_weight += weight[r]
            for k in range(m):
                wstats[r, k] = weight[r] * stats[r, k]

    max_leaves = max(1, n_rows // max(min_samples_leaf, 1))
    if max_depth < 40:
        max_leaves = min(max_leaves, 2**max_depth)
    largest = 2 * max_leaves - 1  # nodes of the largest possible tree
    # the node arrays start small and double when full (a tree is usually far
    # smaller than the largest possible one)
    capacity = min(largest, _INITIAL_CAPACITY)
    feature = np.empty(capacity, dtype=np.int32)
    threshold = np.empty(capacity)
    children_left = np.empty(capacity, dtype=np.int32)
    children_right = np.empty(capacity, dtype=np.int32)
    value = np.empty((capacity, q))
    impurity = np.empty(capacity)
    n_node_samples = np.empty(capacity, dtype=np.int32)
    weighted_n_node_samples = np.empty(capacity)

    np.random.seed(seed)  # noqa: NPY002 - numba's per-thread generator
    order = np.arange(d)
    buffer = np.empty(n_rows, dtype=np.int64)
    n_sorted = 0 if use_hist else n_rows  # the exact splitter's sort buffers
    sort_values = np.empty(n_sorted)
    sort_rows = np.empty(n_sorted, dtype=np.int64)
    node_stats = np.empty(m)
    left_stats = np.empty(m)
    right_stats = np.empty(m)
    n_bins_max = 1
    for f in range(d):
        n_bins_max = max(n_bins_max, n_bins[f])

    # the stack of nodes to build: (start, end, depth, parent, is_left) + histogram
    empty_hist = np.zeros((0, 0, 0))
    empty_count = np.zeros((0, 0), dtype=np.int64)
    st_start = [0]
    st_end = [n_rows]
    st_depth = [0]
    st_parent = [-1]
    st_left = [False]
    feature_hist = np.zeros((n_bins_max, 1 + m))
    feature_count = np.zeros(n_bins_max, dtype=np.int64)
    # all-feature histograms (and the subtraction) pay only when most features are
    # evaluated at a node; otherwise each evaluated feature's histogram is filled
    # from the node's rows (see subtraction_pays)
    if use_hist and subtraction_pays(n_rows // 2, n_rows, d, max_features, n_bins_max):
        root_hist = np.zeros((d, n_bins_max, 1 + m))
        root_count = np.zeros((d, n_bins_max), dtype=np.int64)
        fill_histogram(codes, wstats, weight, idx, 0, n_rows, root_hist, root_count)
        st_hist = [root_hist]
        st_count = [root_count]
    else:
        st_hist = [empty_hist]
        st_count = [empty_count]

    node_count = 0
    deepest = 0
    while len(st_start) > 0:
        start = st_start.pop()
        end = st_end.pop()
        depth = st_depth.pop()
        parent = st_parent.pop()
        is_left = st_left.pop()
        hist = st_hist.pop()
        count = st_count.pop()
        node = node_count
        node_count += 1
        if node == capacity:
            capacity = min(largest, 2 * capacity)
            feature = _enlarged(feature, capacity)
            threshold = _enlarged(threshold, capacity)
            children_left = _enlarged(children_left, capacity)
            children_right = _enlarged(children_right, capacity)
            value = _enlarged_rows(value, capacity)
            impurity = _enlarged(impurity, capacity)
            n_node_samples = _enlarged(n_node_samples, capacity)
            weighted_n_node_samples = _enlarged(weighted_n_node_samples, capacity)
        if parent >= 0:
            if is_left:
                children_left[parent] = node
            else:
                children_right[parent] = node
        deepest = max(deepest, depth)

        feature[node] = -2
        threshold[node] = -2.0
        children_left[node] = -1
        children_right[node] = -1
        value[node, :] = 0.0

        n_node = end - start
        w_node = 0.0
        node_stats[:] = 0.0
        for p in range(start, end):
            r = idx[p]
            w = weight[r]
            w_node += w
            for k in range(m):
                node_stats[k] += wstats[r, k]
            for k in range(q):
                value[node, k] += w * values[r, k]
        if w_node > 0.0:
            for k in range(q):
                value[node, k] /= w_node
        node_impurity_value = node_impurity(code, w_node, node_stats, n_labels)
        impurity[node] = node_impurity_value
        n_node_samples[node] = n_node
        weighted_n_node_samples[node] = w_node

        if (
            depth >= max_depth
            or n_node < min_samples_split
            or n_node < 2 * min_samples_leaf
            or _identical_labels(labels, idx, start, end)
        ):
            continue

        parent_term = w_node * node_impurity_value
        best_gain = -np.inf
        best_feature = -1
        best_threshold = 0.0
        best_bin = -1
        evaluated = 0
        for i in range(d):
            if max_features < d:
                jj = np.random.randint(i, d)  # noqa: NPY002
                order[i], order[jj] = order[jj], order[i]
            f = order[i]
            if use_hist:
                if hist.shape[0] == 0:  # no all-feature histogram: fill this one
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
                gain, thr, b, constant = hist_split(
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
                    left_stats,
                    right_stats,
                )
            else:
                b = -1
                gain, thr, constant = exact_split(
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
                    left_stats,
                    right_stats,
                    sort_values,
                    sort_rows,
                )
            if constant:
                continue
            evaluated += 1
            if gain > best_gain:
                best_gain = gain
                best_feature = f
                best_threshold = thr
                best_bin = b
            if evaluated >= max_features:
                break

        scale = node_stats[1] if code == SQUARED_ERROR else w_node
        if best_feature < 0:
            continue
        if not any_gain and (
            not best_gain > GAIN_TOLERANCE * scale
            or best_gain / total_weight < min_impurity_decrease
        ):
            continue

        feature[node] = best_feature
        threshold[node] = best_threshold
        # stable partition of the node's rows: left rows first
        n_left = 0
        n_right = 0
        for p in range(start, end):
            r = idx[p]
            if use_hist:
                goes_left = codes[r, best_feature] <= best_bin
            else:
                goes_left = X[r, best_feature] <= best_threshold
            if goes_left:
                idx[start + n_left] = r
                n_left += 1
            else:
                buffer[n_right] = r
                n_right += 1
        for p in range(n_right):
            idx[start + n_left + p] = buffer[p]
        middle = start + n_left

        child_depth = depth + 1
        left_hist, right_hist = empty_hist, empty_hist
        left_count, right_count = empty_count, empty_count
        if (
            use_hist
            and child_depth < max_depth
            and hist.shape[0] > 0
            and subtraction_pays(
                min(n_left, n_right), n_node, d, max_features, n_bins_max
            )
        ):
            needs_left = n_left >= min_samples_split and n_left >= 2 * min_samples_leaf
            needs_right = (
                n_right >= min_samples_split and n_right >= 2 * min_samples_leaf
            )
            if needs_left or needs_right:
                small_hist = np.zeros((d, n_bins_max, 1 + m))
                small_count = np.zeros((d, n_bins_max), dtype=np.int64)
                if n_left <= n_right:
                    fill_histogram(
                        codes,
                        wstats,
                        weight,
                        idx,
                        start,
                        middle,
                        small_hist,
                        small_count,
                    )
                else:
                    fill_histogram(
                        codes, wstats, weight, idx, middle, end, small_hist, small_count
                    )
                hist -= small_hist  # the larger child: parent minus the smaller
                count -= small_count
                if n_left <= n_right:
                    left_hist, left_count = small_hist, small_count
                    right_hist, right_count = hist, count
                else:
                    left_hist, left_count = hist, count
                    right_hist, right_count = small_hist, small_count
        # push right, then left: the left child is built (and numbered) first
        st_start.append(middle)
        st_end.append(end)
        st_depth.append(child_depth)
        st_parent.append(node)
        st_left.append(False)
        st_hist.append(right_hist)
        st_count.append(right_count)
        st_start.append(start)
        st_end.append(middle)
        st_depth.append(child_depth)
        st_parent.append(node)
        st_left.append(True)
        st_hist.append(left_hist)
        st_count.append(left_count)

    return Nodes(
        feature[:node_count].copy(),
        threshold[:node_count].copy(),
        children_left[:node_count].copy(),
        children_right[:node_count].copy(),
        value[:node_count].copy(),
        impurity[:node_count].copy(),
        n_node_samples[:node_count].copy(),
        weighted_n_node_samples[:node_count].copy(),
        deepest,
    )
