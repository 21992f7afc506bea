"""The cost-sensitive random forest of paper 004 (CBRF, G-CSRF, PD-CSRF).

Bagged trees grown in threads on one shared builder input, each on a bootstrap
sample counted as row weights; predictions walk every tree in one compiled call
over the trees packed at the end of ``fit`` (``_packed_``, left out of pickles and
model files and packed again on loading).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from numpy.typing import ArrayLike, NDArray
from sklearn.metrics import accuracy_score
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from costsense._base import members_summary, training_decisions
from costsense.tree._base import (
    CLASSIFIER_COST,
    MAX_SEED,
    TREE_CONSTRAINTS,
    ClassifierTargets,
    grow_tree,
    n_features_to_try,
    prepare,
)
from costsense.tree._classes import CostSensitiveTreeClassifier
from costsense.tree._criteria import CLASSIFICATION_CRITERIA
from costsense.tree._docs import (
    CLASSIFIER_ATTRIBUTES,
    CLASSIFIER_PARAMETERS,
    TREE_ADVICE,
    TREE_NOTES,
    TREE_PARAMETERS,
)
from costsense.tree._predictor import PackedForest, accumulate, pack, shared_class
from costsense.tree._traverse import add_leaf_values, apply_rows
from costsense.tree._tree import Tree
from costsense.utils._compat import Interval, StrOptions, _fit_context
from costsense.utils._docstrings import documented
from costsense.utils._stack import caller_level

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = ["CostSensitiveForestClassifier", "bootstrap_weight", "n_drawn"]


def bootstrap_weight(
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


def n_drawn(max_samples: int | float | None, n_rows: int) -> int:
    """Rows each bootstrap sample draws, from ``max_samples`` and the rows to draw."""
    if max_samples is None:
        return n_rows
    if isinstance(max_samples, Integral):
        return int(max_samples)
    return max(1, int(round(float(max_samples) * n_rows)))


@documented(
    TREE_PARAMETERS % {"splitter": '"hist"', "max_features": '"sqrt"'}
    + "\n"
    + CLASSIFIER_PARAMETERS,
    CLASSIFIER_ATTRIBUTES,
)
class CostSensitiveForestClassifier(ClassifierTargets):
    """A random forest on task-score labels: CBRF, G-CSRF and PD-CSRF (paper 004).

    The forest averages its trees' leaf values and predicts the class of largest
    mean task score (least expected cost). Paper 004's three forests are
    configurations of this one:

    - **CBRF** (classification-based random forest, 基于分类的随机森林):
      ``criterion="gini"``, splits on the labels ``argmax_c y^n_c``; the paper's
      cost-blind CBRF is the default ``cost="unit"``. With a ``cost`` its leaves
      still decide by the largest mean task score, the cost-sensitive Bayes
      decision.
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
        that share of them (at least one). Fewer bound each tree's size and time.
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
        **TREE_CONSTRAINTS,
        "bootstrap": ["boolean"],
        "max_samples": [
            None,
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0.0, 1.0, closed="right"),
        ],
        "oob_score": ["boolean"],
        "n_jobs": [Integral, None],
        "cost": CLASSIFIER_COST,
        "pos_label": "no_validation",
    }
    _degenerate_advice = TREE_ADVICE + ", or more trees (n_estimators)"
    #: The trees packed for prediction, with the members and trees packed
    #: (:meth:`_members`), by which a changed ``estimators_`` is told.
    _packed_: tuple[tuple[Any, ...], PackedForest]

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
        cost: Any = "unit",
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
        if self.oob_score and not self.bootstrap:
            raise ValueError(
                "oob_score=True needs bootstrap=True: without bootstrap samples no "
                "row is out of bag."
            )
        X, scores, rows, weight, y_index = self._task_scores(
            X, y, sample_weight, sample_cost, sample_score
        )
        n, d = X.shape
        self.max_features_ = n_features_to_try(self.max_features, d)
        data = prepare(
            X,
            scores,
            self._value_rows(scores, y_index),
            self.criterion,
            self.splitter,
            self.max_bins,
        )
        want_oob = self.oob_score
        # what the trees do not read is let go before they grow (lower peak memory)
        oob_labels = (y_index, rows) if want_oob else None
        del scores, rows, y_index
        params = {**self.get_params(), "max_features": self.max_features_}
        seeds = check_random_state(self.random_state).randint(
            MAX_SEED, size=self.n_estimators
        )
        positive = np.flatnonzero(weight > 0)
        uniform = bool(np.all(weight[positive] == weight[positive[0]]))
        p = None if uniform else weight[positive] / weight[positive].sum()
        # every row: the same draws from range(n), without the array
        drawn: IntArray | int = n if positive.size == n else positive
        size = n_drawn(self.max_samples, positive.size)
        del positive
        fixed_weight = None if self.bootstrap else weight
        del weight
        k = self.classes_.size
        X_rows = np.require(X, dtype=np.float64, requirements=["C", "W"])

        def build(seed: int) -> tuple[Tree, IntArray, IntArray]:
            if fixed_weight is None:
                tree_weight = bootstrap_weight(seed, drawn, p, n, size)
            else:
                tree_weight = fixed_weight
            tree = grow_tree(data, tree_weight, params, seed)
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
        self._packed_ = (self._members(), pack(trees, k))
        if oob_labels is not None:
            self._set_oob(oob_sum, oob_n, *oob_labels)
        self._check_degenerate(
            self.classes_[self._training_decisions(X_rows)],
            reason="the trees' mean task scores favour one class on every row",
        )
        return self

    def _check_loaded(self, width: int) -> str | None:
        """Say what makes a loaded forest unsafe, or None (unfitted: None).

        Its trees are packed with two value columns per class of the forest, so
        every member's tree must have them. Called by
        :func:`costsense.persist.load_model`.
        """
        members = vars(self).get("estimators_")
        columns = 2 * len(self.classes_) if members is not None else 0
        if members is not None and any(
            m.tree_.value.shape[1:] != (columns,) for m in members
        ):
            return "tree values that do not match its classes"
        return None

    def _training_decisions(self, X: FloatArray) -> IntArray:
        """Class indices the forest predicts for its training rows, as far as needed.

        None is predicted when every leaf of every tree decides for one class.
        """
        shared = shared_class(self._packed_[1])
        if shared is not None:
            return np.array([shared])
        return training_decisions(
            X.shape[0], lambda rows: np.argmax(self._leaf_means(X[rows], 0), axis=1)
        )

    def __getstate__(self) -> dict[str, Any]:
        """Return the state without the packed trees: ``estimators_`` holds them."""
        state = dict(super().__getstate__())
        state.pop("_packed_", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore the state and pack the fitted trees again."""
        super().__setstate__(state)
        if "estimators_" in state:
            self._packed_ = (self._members(), self._pack())

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
                stacklevel=caller_level(),
            )
        mean = np.full_like(oob_sum, np.nan)
        mean[seen] = oob_sum[seen] / oob_n[seen, None]
        self.oob_decision_function_ = mean[:, k:]
        predicted = np.argmax(mean[seen, :k], axis=1)
        self.oob_score_ = float(accuracy_score(y_index[seen], predicted))
        self.oob_cost_ = float(
            np.mean(rows[seen][np.arange(predicted.size), predicted])
        )

    def _pack(self) -> PackedForest:
        """Concatenate the nodes of the trees of ``estimators_``."""
        trees = [member.tree_ for member in self.estimators_]
        return pack(trees, self.classes_.size)

    def _members(self) -> tuple[Any, ...]:
        """Return what is packed: ``estimators_``, its members and their trees."""
        members = self.estimators_
        return (members, *members, *(member.tree_ for member in members))

    def _packed(self) -> PackedForest:
        """Return the trees' nodes concatenated, as packed at the end of ``fit``.

        A forest whose ``estimators_`` was changed by hand (told by identity from
        what ``_packed_`` was packed from) is packed again for this prediction
        only, so predicting never changes the estimator nor uses stale trees.
        """
        members, packed = getattr(self, "_packed_", ((), None))
        current = self._members()
        same = len(members) == len(current) and all(
            a is b for a, b in zip(members, current, strict=True)
        )
        if packed is None or not same:
            return self._pack()
        return packed

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

    fit_summary = members_summary

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


CostSensitiveForestClassifier.__doc__ = (
    CostSensitiveForestClassifier.__doc__ or ""
) % {"notes": TREE_NOTES}
