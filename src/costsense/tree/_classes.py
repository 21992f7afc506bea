"""The two trees of paper 004 on the compiled builder: a classifier and a regressor.

Classification works on **task-score label vectors** (paper 004, section 2.1): each
training sample ``n`` carries ``K`` scores ``y^n`` in ``[0, 1]``, the value of
predicting each class; the cost of predicting class ``c`` is ``1 - y^n_c``, eq.
(1). Scores come from one-hot labels (``cost="unit"``), from cost rows ``r_n`` as
``y^n = 1 - r_n / max r`` (:func:`costsense.costs.task_scores`), or are given
(``fit(X, y, sample_score=S)``). A leaf predicts the class of largest mean score:
with class-level costs, the class of least expected cost under the leaf's class
frequencies ``p`` (the cost-sensitive Bayes decision); ``predict_proba`` returns
``p``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from costsense.tree._base import (
    CLASSIFIER_COST,
    TREE_CONSTRAINTS,
    BaseTree,
    ClassifierTargets,
)
from costsense.tree._criteria import CLASSIFICATION_CRITERIA
from costsense.tree._docs import (
    CLASSIFIER_ATTRIBUTES,
    CLASSIFIER_PARAMETERS,
    TREE_ADVICE,
    TREE_NOTES,
    TREE_PARAMETERS,
)
from costsense.utils._compat import (
    StrOptions,
    _check_sample_weight,
    _fit_context,
    validate_data,
)
from costsense.utils._docstrings import documented

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = ["CostSensitiveTreeClassifier", "CostSensitiveTreeRegressor"]


@documented(
    TREE_PARAMETERS % {"splitter": '"exact"', "max_features": "None"}
    + "\n"
    + CLASSIFIER_PARAMETERS,
    CLASSIFIER_ATTRIBUTES,
)
class CostSensitiveTreeClassifier(BaseTree, ClassifierTargets):
    """A CART classification tree on task-score labels (paper 004).

    Each leaf stores the weighted mean task-score vector of its training samples
    and predicts its largest entry, the class of least expected cost. With
    ``cost="unit"`` and ``criterion="gini"`` this is scikit-learn's
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
        **TREE_CONSTRAINTS,
        "cost": CLASSIFIER_COST,
        "pos_label": "no_validation",
    }
    _degenerate_advice = TREE_ADVICE

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
        cost: Any = "unit",
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
        sample_cost : array-like or ExampleCosts, default=None
            Per-row costs in any layout of :mod:`costsense.costs`, used per row
            (each row's task scores); replace ``cost``.
        sample_score : array-like of shape (n_samples, K), default=None
            Task-score labels in ``[0, 1]``, columns in the order of the sorted
            labels; replace ``cost``.

        Returns
        -------
        self
            The fitted estimator.
        """
        bins = self._take_shared_bins()
        X, scores, _, weight, y_index = self._task_scores(
            X, y, sample_weight, sample_cost, sample_score
        )
        self._grow(X, scores, self._value_rows(scores, y_index), weight, bins)
        leaf_class = np.argmax(self.tree_.value[:, : self.classes_.size], axis=1)
        # every leaf holds training rows, so the leaves' classes are the classes
        # the tree predicts for its training rows
        self._check_degenerate(
            self.classes_[leaf_class[self.tree_.children_left < 0]],
            reason="the tree is a single leaf: no split passed the stopping rules"
            if self.tree_.n_leaves == 1
            else "every leaf's class of least expected cost is the same",
        )
        return self

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
    "notes": TREE_NOTES
}


@documented(TREE_PARAMETERS % {"splitter": '"exact"', "max_features": "None"}, "")
class CostSensitiveTreeRegressor(BaseTree, RegressorMixin, BaseEstimator):
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
    {n_features_in_}
    {feature_names_in_}
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
        **TREE_CONSTRAINTS,
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

        Returns
        -------
        self
            The fitted estimator.
        """
        bins = self._take_shared_bins()
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
        self._grow(samples, targets, targets, weight, bins)
        return self

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
