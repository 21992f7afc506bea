"""The docstring parts the trees and the forest share: parameters, attributes, notes."""

from __future__ import annotations

__all__ = [
    "CLASSIFIER_ATTRIBUTES",
    "CLASSIFIER_PARAMETERS",
    "TREE_ADVICE",
    "TREE_NOTES",
    "TREE_PARAMETERS",
]

TREE_PARAMETERS = """\
    splitter : {"exact", "hist"}, default=%(splitter)s
        ``"exact"`` tries every midpoint between consecutive distinct values of
        each feature at every node (scikit-learn's CART); ``"hist"`` bins every
        feature once into at most ``max_bins`` quantile bins and finds splits on
        per-node histograms: much faster on many rows, the same tree as
        ``"exact"`` when no feature has more than ``max_bins`` distinct values.
    max_bins : int, default=255
        Most bins per feature for ``splitter="hist"`` (2 to 255).
    max_depth : int or None, default=None
        Deepest a leaf may be; None grows until the other rules stop.
    min_samples_split : int, default=2
        Fewest training rows a node needs to be split.
    min_samples_leaf : int, default=1
        Fewest training rows each child of a split must keep.
    min_impurity_decrease : float or None, default=0.0
        The split rule. A number: a split must decrease the weighted impurity
        ``(W_P I_P - W_L I_L - W_R I_R) / W_root`` by at least this
        (scikit-learn's definition), and by a strictly positive amount. None:
        paper 004's rule, the best candidate split is made whatever its gain.
        Use None for the pairwise-difference impurity with cost-mapped scores,
        where every split of a node can lose (see Notes).
    max_features : int, float, {"sqrt", "log2"} or None, default=%(max_features)s
        Features evaluated at each split: a number, a fraction of the features,
        ``sqrt(n_features)``, ``log2(n_features)``, or all (None). With fewer than
        all, a random subset is drawn per node (more are drawn while the drawn
        ones are constant in the node)."""

CLASSIFIER_PARAMETERS = """\
    cost : {"unit", "balanced"}, float, pair of floats, array-like of shape \
(K, K) or None, default="unit"
        Misclassification costs, turned into task-score labels ``1 - cost[y_n, c]
        / max cost`` (paper 004). ``"unit"`` (the default): every error costs 1,
        one-hot labels, the ordinary tree (paper 004's cost-blind CBRF). None or
        ``"balanced"``: each class's errors cost inversely to its frequency, as
        for every costsense estimator (swapping estimators never changes what an
        unset cost means). A number is the ratio ``C1 / C2``
        (false-negative over false-positive cost), a pair is ``(C1, C2)``, a
        matrix has ``cost[i, j]`` the cost of predicting class ``j`` for class
        ``i`` (sorted labels). Per-sample costs go to ``fit(...,
        sample_cost=...)`` and task scores to ``fit(..., sample_score=...)``;
        both replace ``cost``.
    pos_label : label, default=None
        The positive (costly) class of a binary ``cost``; the minority class if
        None."""

CLASSIFIER_ATTRIBUTES = """\
    {classes_}
    {n_features_in_}
    {feature_names_in_}
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The class-level costs used: ``cost`` as a matrix (``1 - I`` for
        ``cost="unit"``), or the mean cost row of each class for per-sample costs or
        scores.
    pos_label_ : label or None
        The positive class of a binary problem; None for more classes.
    max_features_ : int
        Features evaluated per split.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Total weighted impurity decrease of the splits on each feature, normalised
        to sum to 1 (zeros without splits).
    {degenerate_}"""

TREE_ADVICE = (
    "try a deeper tree (max_depth=None), smaller min_samples_leaf or "
    "min_samples_split, min_impurity_decrease=None (paper 004's rule: split on "
    "the best candidate whatever its gain), another criterion "
    "('pairwise' or 'cs_gini' split on the costs), or a smaller cost"
)


TREE_NOTES = """\
Notes
    -----
    Paper 004's impurities (``criterion``; :func:`costsense.tree.impurity`
    computes any of them): ``"gini"`` (eq. 2) on the labels ``argmax_c y^n_c``,
    ``"entropy"`` (eq. 5), ``"misclassification"`` (eq. 6), ``"cs_gini"`` (eq. 8,
    the scores themselves), ``"pairwise"`` (eqs. 9-11; *erratum*: eq. (10)
    prints ``d_{i->i}``, identically zero, in place of Mac Aodha & Brostow's
    ``d_{j->i}``). A split maximises the weighted gain ``G = W_P I_P - W_L I_L -
    W_R I_R`` (eq. 4 with weights). With a number as ``min_impurity_decrease``
    (the positive-gain rule, ours) a node splits only on a strictly positive gain
    (``G > 1e-12 W_P``), where scikit-learn also makes zero-gain splits. With None
    (paper 004's best-candidate rule: the trees are not restricted,
    "不限制每棵决策树的生成", sect. 2.2, and grow to the maximum depth unless a node is
    below the minimum size, sect. 4.1) the best split is made whatever its gain.
    The rules differ for the pairwise impurity: with cost-mapped scores it is not
    concave in the class mix, so a node all of whose splits lose stays a leaf
    under the positive-gain rule, and a tree is often a single leaf; under paper
    004's rule it grows on. A node whose label vectors are all identical is a
    leaf. Rows of weight 0 are left out, as in scikit-learn."""
