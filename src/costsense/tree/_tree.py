"""A fitted tree as flat node arrays, the form every tree of costsense is kept in.

The builder (:func:`costsense.tree._grower.grow`) returns these arrays; the trees,
the forest's members and the model-file checks read them. Change the fields with
the builder and :meth:`Tree._check_loaded` (the model loader's check).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from costsense.tree._traverse import apply

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Int32Array = NDArray[np.int32]

__all__ = ["Tree"]


#: What :meth:`_check_loaded` says of unsafe arrays (the loader names the type).
_UNSAFE = "node or feature indices outside its arrays or the model's input"


@dataclass(frozen=True)
class Tree:
    """A fitted tree as flat node arrays (node 0 is the root; pre-order numbering).

    Attributes
    ----------
    feature : ndarray of shape (n_nodes,), int32
        Feature tested at each node; -2 at leaves.
    threshold : ndarray of shape (n_nodes,)
        A sample goes left iff ``x[feature] <= threshold``; -2 at leaves.
    children_left, children_right : ndarray of shape (n_nodes,), int32
        Child nodes; -1 at leaves.
    value : ndarray of shape (n_nodes, n_values)
        Weighted mean of the node's value rows: for classifiers the mean task-score
        vector (``K`` columns) then the class frequencies (``K`` columns); for the
        regressor the mean target.
    impurity : ndarray of shape (n_nodes,)
        The criterion's impurity of each node.
    n_node_samples : ndarray of shape (n_nodes,), int32
        Training rows of positive weight in each node.
    weighted_n_node_samples : ndarray of shape (n_nodes,)
        Their total weight.
    max_depth : int
        Depth of the deepest leaf (the root has depth 0).
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

    @property
    def node_count(self) -> int:
        """Number of nodes."""
        return int(self.feature.shape[0])

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(np.sum(self.children_left < 0))

    def apply(self, X: FloatArray) -> IntArray:
        """Leaf index of each row of ``X`` (validated, float64).

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = np.require(X, dtype=np.float64, requirements=["C", "W"])
        return apply(
            X, self.feature, self.threshold, self.children_left, self.children_right
        )

    def _check_loaded(self, width: int) -> str | None:
        """Say what makes a loaded tree unsafe to predict with, or None.

        The compiled traversal follows the indices without bounds checks: every
        array has one entry per node, nodes are in pre-order (an inner node's left
        child is the next node, its right child after it, inside the arrays),
        leaves have no children and inner nodes test a feature of the input
        (``width`` columns). Called by :func:`costsense.persist.load_model`.
        """
        arrays = (
            self.feature,
            self.threshold,
            self.children_left,
            self.children_right,
            self.impurity,
            self.n_node_samples,
            self.weighted_n_node_samples,
        )
        n = self.feature.shape[0] if isinstance(self.feature, np.ndarray) else 0
        if (
            n == 0
            or any(not isinstance(a, np.ndarray) or a.shape != (n,) for a in arrays)
            or not isinstance(self.value, np.ndarray)
            or self.value.ndim != 2
            or (self.value.shape[0] != n)
        ):
            return _UNSAFE
        left, right = self.children_left, self.children_right
        inner = np.flatnonzero(left >= 0)
        leaves = left < 0
        if (
            np.all(left[inner] == inner + 1)
            and np.all(left[leaves] == -1)
            and np.all(right[leaves] == -1)
            and np.all((right[inner] > inner + 1) & (right[inner] < n))
            and np.all((self.feature[inner] >= 0) & (self.feature[inner] < width))
        ):
            return None
        return _UNSAFE

    def feature_importances(self, n_features: int) -> FloatArray:
        """Total weighted gain ``G`` of the splits on each feature, normalised to 1.

        A split of negative gain (the best-candidate rule,
        ``min_impurity_decrease=None``) counts as 0.

        Parameters
        ----------
        n_features : int
            Number of features.

        Returns
        -------
        ndarray of shape (n_features,)
            Zeros for a tree without splits.
        """
        importances = np.zeros(n_features)
        weighted = self.weighted_n_node_samples * self.impurity
        for node in np.flatnonzero(self.children_left >= 0):
            left, right = self.children_left[node], self.children_right[node]
            gain = weighted[node] - weighted[left] - weighted[right]
            # a split of negative gain (min_impurity_decrease=None) adds nothing
            importances[self.feature[node]] += max(gain, 0.0)
        total = importances.sum()
        return importances / total if total > 0 else importances
