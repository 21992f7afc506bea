"""The tree under construction: its node arrays and the stack of nodes to build.

A node waiting to be built is an entry on a :class:`Stack` (its slice of the index
array, depth, parent, side and histograms); a split pushes the right child, then
the left, so the left child is built and numbered first (pre-order). The node
arrays start with room for the largest possible tree or :data:`INITIAL_CAPACITY`
nodes, double when full (:func:`add_node`), and are cut to size at the end
(:func:`trimmed`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from costsense.tree._common import Nodes

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = [
    "INITIAL_CAPACITY",
    "Stack",
    "add_node",
    "largest_tree",
    "new_nodes",
    "new_stack",
    "pop_node",
    "push_children",
    "trimmed",
]

#: Nodes a tree's arrays have room for at first.
INITIAL_CAPACITY = 1023


@njit(cache=True, nogil=True, inline="always")
def largest_tree(n_rows: int, max_depth: int, min_samples_leaf: int) -> int:
    """Nodes of the largest tree the stopping rules allow.

    A leaf holds at least ``min_samples_leaf`` rows, and a tree ``max_depth``
    deep has at most ``2 ** max_depth`` leaves; a binary tree of ``L`` leaves
    has ``2 L - 1`` nodes.
    """
    max_leaves = max(1, n_rows // max(min_samples_leaf, 1))
    if max_depth < 40:
        max_leaves = min(max_leaves, 2**max_depth)
    return 2 * max_leaves - 1


@njit(cache=True, nogil=True, inline="always")
def new_nodes(largest: int, q: int) -> Nodes:
    """Node arrays with room for ``min(largest, INITIAL_CAPACITY)`` nodes (unset)."""
    capacity = min(largest, INITIAL_CAPACITY)
    return Nodes(
        np.empty(capacity, dtype=np.int32),
        np.empty(capacity),
        np.empty(capacity, dtype=np.int32),
        np.empty(capacity, dtype=np.int32),
        np.empty((capacity, q)),
        np.empty(capacity),
        np.empty(capacity, dtype=np.int32),
        np.empty(capacity),
        0,
    )


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


@njit(cache=True, nogil=True, inline="always")
def add_node(
    nodes: Nodes, node: int, parent: int, is_left: bool, depth: int, largest: int
) -> Nodes:
    """Enter node ``node`` as a leaf child of ``parent``, doubling full arrays.

    Its value, impurity and counts are the caller's to write.
    """
    if node == nodes.feature.shape[0]:
        capacity = min(largest, 2 * node)
        nodes = Nodes(
            _enlarged(nodes.feature, capacity),
            _enlarged(nodes.threshold, capacity),
            _enlarged(nodes.children_left, capacity),
            _enlarged(nodes.children_right, capacity),
            _enlarged_rows(nodes.value, capacity),
            _enlarged(nodes.impurity, capacity),
            _enlarged(nodes.n_node_samples, capacity),
            _enlarged(nodes.weighted_n_node_samples, capacity),
            nodes.max_depth,
        )
    if parent >= 0:
        if is_left:
            nodes.children_left[parent] = node
        else:
            nodes.children_right[parent] = node
    nodes.feature[node] = -2
    nodes.threshold[node] = -2.0
    nodes.children_left[node] = -1
    nodes.children_right[node] = -1
    return Nodes(
        nodes.feature,
        nodes.threshold,
        nodes.children_left,
        nodes.children_right,
        nodes.value,
        nodes.impurity,
        nodes.n_node_samples,
        nodes.weighted_n_node_samples,
        max(nodes.max_depth, depth),
    )


@njit(cache=True, nogil=True, inline="always")
def trimmed(nodes: Nodes, node_count: int) -> Nodes:
    """Return copies of the node arrays cut to the tree's ``node_count`` nodes."""
    return Nodes(
        nodes.feature[:node_count].copy(),
        nodes.threshold[:node_count].copy(),
        nodes.children_left[:node_count].copy(),
        nodes.children_right[:node_count].copy(),
        nodes.value[:node_count].copy(),
        nodes.impurity[:node_count].copy(),
        nodes.n_node_samples[:node_count].copy(),
        nodes.weighted_n_node_samples[:node_count].copy(),
        nodes.max_depth,
    )


class Stack(NamedTuple):
    """Nodes waiting to be built, last in, first out (one list per field).

    Used inside compiled code: a stack handed to Python and back is a copy, and
    what a compiled call pops from the copy stays on the Python side's lists.

    Attributes
    ----------
    start, end : list of int
        A node's slice ``idx[start:end]`` of the index array.
    depth : list of int
        Its depth.
    parent : list of int
        Its parent's number (-1 for the root).
    is_left : list of bool
        Whether it is its parent's left child.
    hist : list of ndarray of shape (n_features, n_bins_max, 1 + m) or (0, 0, 0)
        Its all-feature histograms, or an empty array when it has none.
    hist_count : list of ndarray of shape (n_features, n_bins_max) or (0, 0), int64
        Their row counts.
    """

    start: list[int]
    end: list[int]
    depth: list[int]
    parent: list[int]
    is_left: list[bool]
    hist: list[FloatArray]
    hist_count: list[IntArray]


@njit(cache=True, nogil=True, inline="always")
def new_stack(n_rows: int, hist: FloatArray, count: IntArray) -> Stack:
    """Return a stack holding the root: rows ``0 .. n_rows``, depth 0, no parent."""
    return Stack([0], [n_rows], [0], [-1], [False], [hist], [count])


@njit(cache=True, nogil=True, inline="always")
def push_children(
    stack: Stack,
    start: int,
    middle: int,
    end: int,
    depth: int,
    parent: int,
    left_hist: FloatArray,
    left_count: IntArray,
    right_hist: FloatArray,
    right_count: IntArray,
) -> None:
    """Push a split node's children: the right one, then the left one.

    The left child (rows ``idx[start:middle]``) is then popped, built and
    numbered first: pre-order numbering.
    """
    stack.start.append(middle)
    stack.end.append(end)
    stack.depth.append(depth)
    stack.parent.append(parent)
    stack.is_left.append(False)
    stack.hist.append(right_hist)
    stack.hist_count.append(right_count)
    stack.start.append(start)
    stack.end.append(middle)
    stack.depth.append(depth)
    stack.parent.append(parent)
    stack.is_left.append(True)
    stack.hist.append(left_hist)
    stack.hist_count.append(left_count)


@njit(cache=True, nogil=True, inline="always")
def pop_node(stack: Stack) -> tuple[int, int, int, int, bool, FloatArray, IntArray]:
    """Take the node on top of the stack."""
    return (
        stack.start.pop(),
        stack.end.pop(),
        stack.depth.pop(),
        stack.parent.pop(),
        stack.is_left.pop(),
        stack.hist.pop(),
        stack.hist_count.pop(),
    )
