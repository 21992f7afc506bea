"""The node arrays and the stack of the tree under construction."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numpy.testing import assert_array_equal

from costsense.tree._nodes import (
    INITIAL_CAPACITY,
    add_node,
    largest_tree,
    new_nodes,
    new_stack,
    pop_node,
    push_children,
    trimmed,
)


@pytest.mark.parametrize(
    ("n_rows", "max_depth", "min_samples_leaf", "expected"),
    [
        (100, 3, 1, 15),  # 2 ** 3 leaves
        (100, 2**31 - 1, 10, 19),  # 10 leaves of 10 rows
        (5, 1, 7, 1),  # not one full leaf: still a root
        (10**6, 60, 1, 2 * 10**6 - 1),  # no 2 ** 60 overflow
    ],
)
def test_largest_tree_by_hand(n_rows, max_depth, min_samples_leaf, expected):
    assert largest_tree(n_rows, max_depth, min_samples_leaf) == expected


def test_new_nodes_start_small():
    assert new_nodes(15, 3).value.shape == (15, 3)
    nodes = new_nodes(10**6, 2)
    assert nodes.feature.shape == (INITIAL_CAPACITY,)
    assert nodes.feature.dtype == np.int32 and nodes.max_depth == 0


def test_add_node_links_marks_and_enlarges_up_to_the_largest_tree():
    largest = 5
    nodes = new_nodes(2, 1)  # room for two: the third node enlarges
    nodes = add_node(nodes, 0, -1, False, 0, largest)
    nodes.feature[0], nodes.threshold[0], nodes.impurity[0] = 3, 0.5, 0.25
    nodes = add_node(nodes, 1, 0, True, 1, largest)
    first = nodes.feature
    nodes = add_node(nodes, 2, 0, False, 1, largest)
    assert nodes.feature is not first  # copied into larger arrays
    assert nodes.feature.shape == (4,)  # doubled
    nodes = add_node(nodes, 3, 1, True, 2, largest)
    nodes = add_node(nodes, 4, 1, False, 2, largest)
    assert nodes.feature.shape == (5,)  # doubled, but at most the largest tree
    # the entries written before the copies are kept
    assert (nodes.feature[0], nodes.threshold[0], nodes.impurity[0]) == (3, 0.5, 0.25)
    assert_array_equal(nodes.children_left, [1, 3, -1, -1, -1])
    assert_array_equal(nodes.children_right, [2, 4, -1, -1, -1])
    assert_array_equal(nodes.feature[1:], -2)  # leaves until the caller splits
    assert_array_equal(nodes.threshold[1:], -2.0)
    assert nodes.max_depth == 2


def test_trimmed_copies_the_first_nodes():
    nodes = new_nodes(7, 2)
    for node in range(3):
        nodes = add_node(nodes, node, node - 1, True, node, 7)
        nodes.value[node] = node
    tree = trimmed(nodes, 3)
    assert tree.feature.shape == (3,) and tree.value.shape == (3, 2)
    assert_array_equal(tree.value[:, 0], [0, 1, 2])
    assert not np.shares_memory(tree.value, nodes.value)
    assert tree.max_depth == 2


@njit(cache=True)
def _grow_by_hand(left_hist, left_count, right_hist, right_count):
    """Pop the root, split it at 20, pop its left child, split that at 5, empty.

    Inside numba: the stack's lists live in compiled code (a stack handed back to
    Python is a copy).
    """
    stack = new_stack(50, np.zeros((0, 0, 0)), np.zeros((0, 0), dtype=np.int64))
    popped = np.empty((4, 5), dtype=np.int64)
    hist_sums = np.empty(4)
    for i in range(4):
        start, end, depth, parent, is_left, hist, count = pop_node(stack)
        popped[i, 0], popped[i, 1], popped[i, 2] = start, end, depth
        popped[i, 3], popped[i, 4] = parent, is_left
        hist_sums[i] = hist.sum() + count.sum()
        if i == 0:
            push_children(stack, 0, 20, 50, 1, 0, left_hist, left_count,
                          right_hist, right_count)  # fmt: skip
        elif i == 1:
            push_children(stack, 0, 5, 20, 2, 1, left_hist, left_count,
                          right_hist, right_count)  # fmt: skip
    return popped, hist_sums, len(stack.start)


def test_the_stack_pops_the_left_child_first():
    left = np.ones((2, 3, 4)), np.ones((2, 3), dtype=np.int64)
    right = np.full((2, 3, 4), 2.0), np.full((2, 3), 2, dtype=np.int64)
    popped, hist_sums, left_over = _grow_by_hand(*left, *right)
    assert popped.tolist() == [
        [0, 50, 0, -1, 0],  # the root
        [0, 20, 1, 0, 1],  # its left child
        [0, 5, 2, 1, 1],  # that child's left child
        [5, 20, 2, 1, 0],
    ]
    # each child carries its own histograms: left 24 + 6, right 48 + 12
    assert hist_sums.tolist() == [0.0, 30.0, 30.0, 60.0]
    assert left_over == 1  # the root's right child, still waiting
