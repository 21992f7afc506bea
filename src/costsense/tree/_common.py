"""The values the builder's steps hand each other: its input, rules and output.

:func:`costsense.tree._grower.grow` takes the training rows (:class:`TrainingRows`,
made once per fit and shared by a forest's trees), the row weights, the rules
(:class:`GrowthRules`) and a seed, and returns the node arrays (:class:`Nodes`);
its compiled steps read the same named tuples (the role of ``common.pxd`` in
scikit-learn's ``_hist_gradient_boosting``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Int32Array = NDArray[np.int32]

__all__ = ["GrowthRules", "Nodes", "TrainingRows"]


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
    half the memory of int64. While the tree grows, the arrays have room for more
    nodes than it has (:mod:`costsense.tree._nodes`).
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
