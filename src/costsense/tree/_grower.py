"""The compiled CART builder: one depth-first grower, two split finders.

:func:`grow` builds one binary tree with no Python in its loop (numba, ``nogil``,
so a forest grows trees in threads). Each node covers a slice of an index array of
the training rows of positive weight; nodes are numbered in depth-first pre-order,
left child first (scikit-learn's numbering).

The loop is a sequence of compiled steps, each in its module with kernel tests of
its own: enter the node (:mod:`costsense.tree._nodes`), summarise it
(:mod:`costsense.tree._summary`), decide whether it may be split, find its best
split (:mod:`costsense.tree._splitter`: sorted values, or per-node histograms of
bin codes, :mod:`costsense.tree._histogram`), partition its rows
(:mod:`costsense.tree._partition`), push the children. The steps are compiled with
``inline="always"``, so :func:`grow` compiles as one function. numba's cache of
:func:`grow` is checked against this file only: after editing a step's module,
touch this file (or clear the cache).

A node is a leaf when it is ``max_depth`` deep, has fewer than
``min_samples_split`` rows or fewer than ``2 * min_samples_leaf``, or when its
rows' label vectors are all identical. Otherwise its best split is made under one
of two rules: *positive gain* (``any_gain=False``): only if ``G > 1e-12 * scale``
(``scale`` = ``W``, or the sum of squared targets for regression) and
``G / W_root >= min_impurity_decrease``; *best candidate* (``any_gain=True``,
paper 004's rule): whatever its gain, if a candidate split exists (see the Notes
of :class:`costsense.tree.CostSensitiveTreeClassifier`). With ``max_features <
n_features`` the features are visited in a random order (seeded per tree) until
``max_features`` non-constant ones have been evaluated (scikit-learn's rule).

numba compiles :func:`grow` once per signature, and an array's type includes its
layout and writeability: every call must hand it C-ordered, writeable arrays
(``X`` Fortran-ordered) and the same scalar types, or it is compiled again.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from costsense.tree._common import GrowthRules, Nodes, TrainingRows
from costsense.tree._criteria import SQUARED_ERROR
from costsense.tree._histogram import (
    child_histograms,
    node_histograms,
    subtraction_pays,
)
from costsense.tree._nodes import (
    add_node,
    largest_tree,
    new_nodes,
    new_stack,
    pop_node,
    push_children,
    trimmed,
)
from costsense.tree._partition import partition, positive_rows
from costsense.tree._splitter import best_split, split_scratch
from costsense.tree._summary import identical_labels, node_summary, weighted_statistics

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = [
    "GAIN_TOLERANCE",
    "GrowthRules",
    "Nodes",
    "TrainingRows",
    "grow",
    "makes_split",
    "may_split",
]

#: A split must decrease ``W * I`` by more than this times ``W`` (or, for
#: regression, times the node's sum of squared targets).
GAIN_TOLERANCE = 1e-12


@njit(cache=True, nogil=True, inline="always")
def may_split(n_node: int, depth: int, rules: GrowthRules) -> bool:
    """Whether the stopping rules let a node of ``n_node`` rows at ``depth`` split."""
    return (
        depth < rules.max_depth
        and n_node >= rules.min_samples_split
        and n_node >= 2 * rules.min_samples_leaf
    )


@njit(cache=True, nogil=True, inline="always")
def makes_split(
    gain: float,
    feature: int,
    code: int,
    w_node: float,
    node_stats: FloatArray,
    total_weight: float,
    rules: GrowthRules,
) -> bool:
    """Whether a node's best split is made (the split rules of the module docstring)."""
    if feature < 0:
        return False
    if rules.any_gain:
        return True
    scale = node_stats[1] if code == SQUARED_ERROR else w_node
    return gain > GAIN_TOLERANCE * scale and not (
        gain / total_weight < rules.min_impurity_decrease
    )


@njit(cache=True, nogil=True, inline="always")
def _root_histograms(
    rows: TrainingRows,
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    rules: GrowthRules,
    n_bins_max: int,
) -> tuple[FloatArray, IntArray]:
    """Return the root's all-feature histograms, or empty arrays if they do not pay.

    All-feature histograms (and the subtraction at each split) pay only when most
    features are evaluated at a node (:func:`costsense.tree._histogram.
    subtraction_pays`); otherwise each evaluated feature's histogram is filled
    from the node's rows.
    """
    n_rows = idx.shape[0]
    d = rows.n_bins.shape[0]
    if rows.use_hist and subtraction_pays(
        n_rows // 2, n_rows, d, rules.max_features, n_bins_max
    ):
        return node_histograms(rows.codes, wstats, weight, idx, 0, n_rows, n_bins_max)
    return np.zeros((0, 0, 0)), np.zeros((0, 0), dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _children_histograms(
    rows: TrainingRows,
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    middle: int,
    end: int,
    child_depth: int,
    hist: FloatArray,
    count: IntArray,
    rules: GrowthRules,
) -> tuple[FloatArray, IntArray, FloatArray, IntArray]:
    """Return the children's histograms by subtraction, or empty arrays.

    By subtraction (:func:`costsense.tree._histogram.child_histograms`) when the
    parent has all-feature histograms, a child may be split, and the subtraction
    pays for the smaller child's size; otherwise empty arrays (each evaluated
    feature's histogram is then filled from a child's rows).
    """
    n_left = middle - start
    n_right = end - middle
    d = rows.n_bins.shape[0]
    if (
        rows.use_hist
        and hist.shape[0] > 0
        and subtraction_pays(
            min(n_left, n_right), end - start, d, rules.max_features, hist.shape[1]
        )
        and (
            may_split(n_left, child_depth, rules)
            or may_split(n_right, child_depth, rules)
        )
    ):
        return child_histograms(
            rows.codes, wstats, weight, idx, start, middle, end, hist, count
        )
    if hist.shape[0] == 0:  # the parent's empty arrays serve its children too
        return hist, count, hist, count
    empty_hist = np.zeros((0, 0, 0))
    empty_count = np.zeros((0, 0), dtype=np.int64)
    return empty_hist, empty_count, empty_hist, empty_count


@njit(cache=True, nogil=True)
def grow(
    rows: TrainingRows, weight: FloatArray, rules: GrowthRules, seed: int
) -> Nodes:
    """Grow one tree (see the module docstring)."""
    # tuple fields read in the loop as plain locals (a field read takes and drops
    # a reference to its array)
    X, codes, labels, values = rows.X, rows.codes, rows.labels, rows.values
    code, n_labels, use_hist = rows.code, rows.n_labels, rows.use_hist
    idx = positive_rows(weight)
    wstats, total_weight = weighted_statistics(rows.stats, weight)
    n_rows = idx.shape[0]
    d = rows.n_bins.shape[0]
    m = rows.stats.shape[1]
    n_bins_max = max(1, rows.n_bins.max())
    largest = largest_tree(n_rows, rules.max_depth, rules.min_samples_leaf)
    nodes = new_nodes(largest, values.shape[1])
    np.random.seed(seed)  # noqa: NPY002 - numba's per-thread generator
    scratch = split_scratch(d, m, n_bins_max, 0 if use_hist else n_rows)
    node_stats = np.empty(m)
    buffer = np.empty(n_rows, dtype=np.int64)
    hist, count = _root_histograms(rows, wstats, weight, idx, rules, n_bins_max)
    stack = new_stack(n_rows, hist, count)
    node_count = 0
    while len(stack.start) > 0:
        start, end, depth, parent, is_left, hist, count = pop_node(stack)
        node = node_count
        node_count += 1
        nodes = add_node(nodes, node, parent, is_left, depth, largest)
        w_node, impurity = node_summary(
            wstats,
            weight,
            values,
            idx,
            start,
            end,
            code,
            n_labels,
            node_stats,
            nodes.value[node],
        )
        nodes.impurity[node] = impurity
        nodes.n_node_samples[node] = end - start
        nodes.weighted_n_node_samples[node] = w_node
        if not may_split(end - start, depth, rules) or identical_labels(
            labels, idx, start, end
        ):
            continue
        gain, feature, threshold, bin_code = best_split(
            rows,
            wstats,
            weight,
            idx,
            start,
            end,
            hist,
            count,
            w_node,
            impurity,
            node_stats,
            rules.min_samples_leaf,
            rules.max_features,
            scratch,
        )
        if not makes_split(
            gain, feature, code, w_node, node_stats, total_weight, rules
        ):
            continue
        nodes.feature[node] = feature
        nodes.threshold[node] = threshold
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
            buffer,
        )
        left_hist, left_count, right_hist, right_count = _children_histograms(
            rows, wstats, weight, idx, start, middle, end, depth + 1, hist, count, rules
        )
        push_children(
            stack,
            start,
            middle,
            end,
            depth + 1,
            node,
            left_hist,
            left_count,
            right_hist,
            right_count,
        )
    return trimmed(nodes, node_count)
