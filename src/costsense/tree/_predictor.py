"""A fitted forest as one set of flat node arrays, predicted by one compiled loop.

The trees' nodes are concatenated (tree ``t`` owns the nodes ``roots[t]`` to
``roots[t + 1] - 1``) into the arrays the traversal reads: the feature tested
(negative at leaves), the threshold, the right child and the node values, in
contiguous blocks of columns (a classifier's scores and its class frequencies).
The left child is the next node (pre-order numbering), so it is not stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


class _Nodes(Protocol):
    """What packing reads of a tree (:class:`costsense.tree.Tree` has it)."""

    @property
    def feature(self) -> NDArray[Any]: ...
    @property
    def threshold(self) -> FloatArray: ...
    @property
    def children_left(self) -> NDArray[Any]: ...
    @property
    def children_right(self) -> NDArray[Any]: ...
    @property
    def value(self) -> FloatArray: ...
    @property
    def node_count(self) -> int: ...


__all__ = ["PackedForest", "accumulate", "pack", "shared_class"]


#: What :meth:`_check_loaded` says of unsafe arrays (the loader names the type).
_UNSAFE = "node or feature indices outside its arrays or the model's input"


@dataclass(frozen=True)
class PackedForest:
    """The nodes of several trees, concatenated.

    Attributes
    ----------
    feature : ndarray of shape (n_nodes,)
        Feature tested at each node; negative at leaves.
    threshold : ndarray of shape (n_nodes,)
        A sample goes left (to the next node) iff ``x[feature] <= threshold``.
    right : ndarray of shape (n_nodes,)
        Index of the right child in these arrays; unused at leaves.
    values : tuple of ndarray of shape (n_nodes, width)
        The nodes' values (as in :class:`~costsense.tree.Tree`), ``width`` columns
        at a time.
    roots : ndarray of shape (n_trees + 1,)
        Index of each tree's root, then the number of nodes.
    """

    feature: IntArray
    threshold: FloatArray
    right: IntArray
    values: tuple[FloatArray, ...]
    roots: IntArray

    def _check_loaded(self, width: int) -> str | None:
        """Say what makes loaded packed trees unsafe to predict with, or None.

        Every walk of the compiled predictor must stay inside its tree: the roots
        increase from 0 to the node count; an inner node's left child (the next
        node) and right child lie after it and inside its tree; it tests a feature
        of the input (``width`` columns). Called by
        :func:`costsense.persist.load_model`.
        """
        arrays = (self.feature, self.threshold, self.right, self.roots)
        kinds = (np.int64, np.float64, np.int64, np.int64)
        n = self.feature.shape[0] if isinstance(self.feature, np.ndarray) else 0
        if (
            any(
                not isinstance(a, np.ndarray) or a.ndim != 1 or a.dtype != kind
                for a, kind in zip(arrays, kinds, strict=True)
            )
            or not isinstance(self.values, tuple)
            or len(self.values) == 0
            or any(
                not isinstance(v, np.ndarray)
                or v.ndim != 2
                or v.shape[0] != n
                or v.dtype != np.float64
                for v in self.values
            )
            or n == 0
            or self.threshold.shape != (n,)
            or self.right.shape != (n,)
        ):
            return _UNSAFE
        roots = self.roots
        if (
            roots.size < 2
            or roots[0] != 0
            or roots[-1] != n
            or np.any(np.diff(roots) < 1)
        ):
            return _UNSAFE
        index = np.flatnonzero(self.feature >= 0)
        end = roots[np.searchsorted(roots, index, side="right")]  # its tree's end
        right = self.right[index]
        if (
            np.all(self.feature[index] < width)
            and np.all(index + 1 < end)
            and np.all((right > index + 1) & (right < end))
        ):
            return None
        return _UNSAFE


def pack(trees: Sequence[_Nodes], width: int) -> PackedForest:
    """Concatenate the nodes of ``trees`` (each numbered in pre-order)."""
    sizes = np.array([tree.node_count for tree in trees], dtype=np.int64)
    roots = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    for tree in trees:
        inner = np.flatnonzero(tree.children_left >= 0)
        if not np.array_equal(tree.children_left[inner], inner + 1):
            raise ValueError("The tree's nodes are not numbered in pre-order.")
    right = np.concatenate(
        [
            np.where(tree.children_left >= 0, tree.children_right + root, -1)
            for tree, root in zip(trees, roots[:-1], strict=True)
        ]
    )
    value = np.concatenate([tree.value for tree in trees])
    return PackedForest(
        feature=np.concatenate([tree.feature for tree in trees]).astype(np.int64),
        threshold=np.concatenate([tree.threshold for tree in trees]),
        right=right.astype(np.int64),
        values=tuple(
            np.ascontiguousarray(value[:, start : start + width])
            for start in range(0, value.shape[1], width)
        ),
        roots=roots,
    )


def shared_class(forest: PackedForest) -> int | None:
    """Return the column every row's mean leaf values favour, if the leaves tell.

    If the largest entry (the first of ties, as ``argmax`` takes it) of the first
    block of values is in the same column ``c`` at every leaf of every tree, the
    mean over the trees of any row's leaves has its largest entry in ``c`` too:
    ``c`` is returned, and the forest decides for it on every row, training rows
    included, without predicting one. Otherwise None.

    The sums over the trees (in :func:`accumulate`) and the division by their
    number are rounded monotonically, so no later column overtakes ``c``; an
    earlier column could reach a tie with ``c`` by rounding and would then win
    it, so for ``c > 0`` every leaf must favour ``c`` over every earlier column
    by more than the rounding of ``T`` sums can take away (``8 T eps max |v|``),
    else None.
    """
    leaves = forest.values[0][forest.feature < 0]
    best = np.argmax(leaves, axis=1)
    column = int(best[0])
    if np.any(best != column):
        return None
    if column > 0:
        n_trees = forest.roots.size - 1
        lead = leaves[:, column, None] - leaves[:, :column]
        rounding = 8 * n_trees * np.finfo(np.float64).eps * np.max(np.abs(leaves))
        if lead.min() <= rounding:
            return None
    return column


@njit(cache=True, nogil=True)
def accumulate(
    X: FloatArray,
    feature: IntArray,
    threshold: FloatArray,
    right: IntArray,
    value: FloatArray,
    roots: IntArray,
    out: FloatArray,
) -> None:
    """Add, tree after tree, the values of each row's leaves to ``out``."""
    q = out.shape[1]
    for t in range(roots.shape[0] - 1):
        root = roots[t]
        for i in range(X.shape[0]):
            node = root
            while True:
                f = feature[node]
                if f < 0:
                    break
                if X[i, f] <= threshold[node]:
                    node += 1
                else:
                    node = right[node]
            for c in range(q):
                out[i, c] += value[node, c]
