"""Gradient-boosted trees grown by LightGBM, kept and predicted as costsense trees.

:class:`BoostedTreesClassifier` is gradient boosting with the logistic (two classes)
or softmax loss and Newton leaf values (Friedman 2001; Chen & Guestrin 2016), grown
leaf-wise on histograms by LightGBM (Ke et al. 2017) and stopped early on an inner
validation split. LightGBM only grows the trees: each is read from its model text
into the flat node arrays of :mod:`costsense.tree._predictor`, so a fitted model
holds only numbers and predicts without LightGBM. Every fit checks the conversion:
the converted trees' raw scores on the training rows must equal LightGBM's to
rounding, or ``fit`` raises. Splits send a row left iff ``x[feature] <= threshold``
and ``use_missing=False``, so the converted trees decide every row as LightGBM.

References
----------
.. [1] J. Friedman, "Greedy function approximation: a gradient boosting
   machine", Annals of Statistics 29, 2001.
.. [2] T. Chen, C. Guestrin, "XGBoost: a scalable tree boosting system", KDD 2016.
.. [3] G. Ke et al., "LightGBM: a highly efficient gradient boosting decision
   tree", NeurIPS 2017.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit, softmax
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state

from costsense._base import ClassifierBase, refuse_fit_params, training_decisions
from costsense.tree._predictor import PackedForest, accumulate
from costsense.utils._compat import Interval, _fit_context
from costsense.utils._docstrings import shared

__all__ = ["BoostedTreesClassifier"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

_MAX_SEED = np.iinfo(np.int32).max
#: Relative tolerance of the conversion check (LightGBM sums in float64 too; the
#: order of the additions is the same, so the difference is rounding only).
_CONVERSION_RTOL = 1e-9
#: LightGBM's log-loss metric, for two classes (True) or more.
_METRIC = {True: "binary_logloss", False: "multi_logloss"}
#: Training rows the conversion check predicts both ways.
_CONVERSION_ROWS = 512


@shared
class BoostedTreesClassifier(ClassifierBase):
    """Gradient-boosted trees with early stopping: LightGBM's growth, costsense's trees.

    The logistic (two classes) or softmax loss, with early stopping on a held-out
    share of the rows. The defaults are scikit-learn's
    ``HistGradientBoostingClassifier`` ones, with early stopping always on and a
    larger round budget.

    Parameters
    ----------
    learning_rate : float, default=0.1
        Shrinkage of each tree's values.
    max_iter : int, default=1000
        Most boosting rounds.
    max_leaf_nodes : int, default=31
        Most leaves per tree (trees grow best-first).
    min_samples_leaf : int, default=20
        Fewest training rows in a leaf.
    l2_regularization : float, default=0.0
        L2 penalty on the leaf values (LightGBM's ``lambda_l2``).
    max_bins : int, default=255
        Most histogram bins per feature.
    early_stopping : bool, default=True
        Hold out ``validation_fraction`` of the rows and stop on their log-loss.
        False: ``max_iter`` rounds on every row.
    validation_fraction : float, default=0.1
        Share of the rows held out for early stopping (stratified when every
        class has two rows or more); at least one row.
    n_iter_no_change : int, default=10
        Rounds without improvement of the validation log-loss before stopping.
    random_state : int, RandomState instance or None, default=None
        Seeds the validation split and LightGBM.
    n_jobs : int or None, default=None
        LightGBM's threads; None means 1 (costsense parallelises across fits).
        LightGBM runs with ``deterministic=True`` and row-wise histograms, so
        results do not depend on it.

    Attributes
    ----------
    {classes_}
    {n_features_in_}
    {feature_names_in_}
    n_iter_ : int
        Boosting rounds kept (the best validation round with early stopping).
    n_trees_per_iteration_ : int
        1 for two classes, ``n_classes`` otherwise.
    validation_loss_ : float or None
        Validation log-loss of the kept round (None without early stopping).
    {degenerate_}
    trees_ : PackedForest
        The trees' nodes in round order (within a round, class order), one value
        column per tree output, 0 outside the tree's own class column.

    See Also
    --------
    sklearn.ensemble.HistGradientBoostingClassifier : The same model family.
    costsense.MinimumCostClassifier : Uses it as one of its candidates.

    References
    ----------
    .. [1] J. Friedman, "Greedy function approximation: a gradient boosting
       machine", Annals of Statistics 29, 2001.
    .. [2] G. Ke et al., "LightGBM: a highly efficient gradient boosting decision
       tree", NeurIPS 2017.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.tree import BoostedTreesClassifier
    >>> X, y = make_classification(n_samples=500, random_state=0)
    >>> model = BoostedTreesClassifier(random_state=0).fit(X, y)
    >>> model.predict_proba(X[:2]).shape
    (2, 2)
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "learning_rate": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "max_leaf_nodes": [Interval(Integral, 2, None, closed="left")],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "l2_regularization": [Interval(Real, 0.0, None, closed="left")],
        "max_bins": [Interval(Integral, 2, 255, closed="both")],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0.0, 1.0, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
    }
    _degenerate_advice = (
        "try a smaller min_samples_leaf, or early_stopping=False with more "
        "rounds (max_iter)"
    )

    def __init__(
        self,
        *,
        learning_rate: float = 0.1,
        max_iter: int = 1000,
        max_leaf_nodes: int = 31,
        min_samples_leaf: int = 20,
        l2_regularization: float = 0.0,
        max_bins: int = 255,
        early_stopping: bool = True,
        validation_fraction: float = 0.1,
        n_iter_no_change: int = 10,
        random_state: Any = None,
        n_jobs: int | None = None,
    ) -> None:
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.max_bins = max_bins
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        **fit_params: Any,
    ) -> BoostedTreesClassifier:
        """Boost the trees (LightGBM) and convert them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples (finite).
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights (of the training and the validation rows).
        **fit_params : dict
            None is accepted. The model is cost-blind (a probability model):
            ``sample_cost`` is refused with a TypeError that names what takes it.

        Returns
        -------
        self
            The fitted estimator.
        """
        refuse_fit_params(
            self,
            fit_params,
            "costsense.MinimumCostClassifier (it is one of its candidates), or "
            "costsense.rescale.ThresholdMoving(BoostedTreesClassifier())",
        )
        import lightgbm

        start = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        samples = np.ascontiguousarray(start.X, dtype=np.float64)
        y_index = start.y_index
        n_classes = self.classes_.size
        weight = (
            np.ones(samples.shape[0])
            if start.sample_weight is None
            else start.sample_weight
        )
        rng = check_random_state(self.random_state)
        train, valid = self._split(y_index, rng)
        params = {
            "objective": "binary" if n_classes == 2 else "multiclass",
            "num_class": 1 if n_classes == 2 else n_classes,
            "learning_rate": float(self.learning_rate),
            "num_leaves": int(self.max_leaf_nodes),
            "min_data_in_leaf": int(self.min_samples_leaf),
            "lambda_l2": float(self.l2_regularization),
            "max_bin": int(self.max_bins),
            "use_missing": False,
            "deterministic": True,
            "force_row_wise": True,
            "num_threads": 1 if self.n_jobs is None else int(self.n_jobs),
            "seed": int(rng.randint(_MAX_SEED)),
            "verbosity": -1,
        }
        train_set = lightgbm.Dataset(
            samples[train], y_index[train], weight=weight[train], params=params
        )
        callbacks: list[Any] = []
        valid_sets: list[Any] = []
        if valid is not None:
            valid_sets = [
                lightgbm.Dataset(
                    samples[valid],
                    y_index[valid],
                    weight=weight[valid],
                    reference=train_set,
                )
            ]
            callbacks = [
                lightgbm.early_stopping(
                    int(self.n_iter_no_change), first_metric_only=True, verbose=False
                )
            ]
        booster = lightgbm.train(
            {**params, "metric": _METRIC[n_classes == 2]},
            train_set,
            num_boost_round=int(self.max_iter),
            valid_sets=valid_sets,
            callbacks=callbacks,
        )
        self.validation_loss_: float | None = None
        best = booster.current_iteration()
        if valid is not None:
            best = int(booster.best_iteration) or best
            scores = next(iter(booster.best_score.values()), {})
            self.validation_loss_ = float(next(iter(scores.values()), np.nan))
        self.n_iter_ = best
        self.n_trees_per_iteration_ = 1 if n_classes == 2 else n_classes
        model_text = booster.model_to_string(num_iteration=best)
        self.trees_ = _convert(model_text, self.n_trees_per_iteration_)
        check = samples[:_CONVERSION_ROWS]
        theirs = np.asarray(
            booster.predict(check, num_iteration=best, raw_score=True), dtype=np.float64
        ).reshape(check.shape[0], -1)
        ours = self._raw(check)
        if not np.allclose(ours, theirs, rtol=_CONVERSION_RTOL, atol=1e-9):
            raise RuntimeError(
                "the trees read from LightGBM "
                f"{lightgbm.__version__} do not reproduce its predictions (largest "
                f"difference {np.max(np.abs(ours - theirs)):.3g}); report this "
                "LightGBM version as unsupported."
            )
        self._check_degenerate(
            self.classes_[
                training_decisions(
                    samples.shape[0], lambda rows: _best_class(self._raw(samples[rows]))
                )
            ],
            reason="no boosting round separated the classes on the training rows",
        )
        return self

    def _split(
        self, y_index: IntArray, rng: np.random.RandomState
    ) -> tuple[IntArray, IntArray | None]:
        """Training and validation rows (all rows and None without early stopping)."""
        rows = np.arange(y_index.size)
        if not self.early_stopping:
            return rows, None
        n_valid = max(1, int(round(self.validation_fraction * rows.size)))
        if rows.size - n_valid < 2:
            return rows, None
        counts = np.bincount(y_index)
        stratify = y_index if counts.min() >= 2 and n_valid >= counts.size else None
        train, valid = train_test_split(
            rows,
            test_size=n_valid,
            stratify=stratify,
            random_state=rng.randint(_MAX_SEED),
        )
        return np.sort(train), np.sort(valid)

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: the rounds kept, below ``max_iter``."""
        return {
            "n_iter": int(self.n_iter_),
            "converged": bool(self.n_iter_ < self.max_iter),
        }

    def _check_loaded(self, width: int) -> str | None:
        """Say what makes a loaded model unsafe, or None (unfitted: None).

        Its packed trees hold one value column per class (one for two classes).
        Called by :func:`costsense.persist.load_model`.
        """
        trees = vars(self).get("trees_")
        if trees is None:
            return None
        outputs = 1 if len(self.classes_) == 2 else len(self.classes_)
        if not isinstance(trees, PackedForest) or trees.values[0].shape[1] != outputs:
            return "trees whose values do not match its classes"
        return None

    def _raw(self, X: FloatArray) -> FloatArray:
        """Sum of the trees' leaf values: ``(n, n_trees_per_iteration_)``."""
        trees = self.trees_
        out = np.zeros((X.shape[0], trees.values[0].shape[1]))
        accumulate(
            np.require(X, dtype=np.float64, requirements=["C", "W"]),
            trees.feature,
            trees.threshold,
            trees.right,
            trees.values[0],
            trees.roots,
            out,
        )
        return out

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Raw scores: log-odds of ``classes_[1]`` (two classes) or class scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (finite).

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        samples = self._validated(X, dtype=np.float64)
        raw = self._raw(np.asarray(samples, dtype=np.float64))
        return raw[:, 0] if raw.shape[1] == 1 else raw

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Class probabilities: sigmoid (two classes) or softmax of the raw scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (finite).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        raw = self.decision_function(X)
        if raw.ndim == 1:
            positive = expit(raw)
            return np.column_stack([1.0 - positive, positive])
        return np.asarray(softmax(raw, axis=1), dtype=np.float64)

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predict the most probable class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (finite).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


def _best_class(raw: FloatArray) -> IntArray:
    """Index of the most probable class from raw scores ``(n, 1)`` or ``(n, K)``."""
    if raw.shape[1] == 1:
        return (raw[:, 0] > 0).astype(np.int64)
    return np.argmax(raw, axis=1).astype(np.int64)


def _convert(model: str, n_outputs: int) -> PackedForest:
    """LightGBM's model text (``Booster.model_to_string``) as pre-order node arrays.

    Each tree's section lists its inner nodes (``split_feature``, ``threshold``,
    ``decision_type``, ``left_child``, ``right_child``; a negative child ``c`` is
    the leaf ``-c - 1``) and its ``leaf_value``; inner node 0 is the root, and a
    tree of one leaf lists its value only. A split of another kind than a
    numerical ``<=`` without a missing-value branch (``decision_type`` bit 0, the
    categorical flag, and bits 2-3, the missing type, all 0) is refused.
    """
    features: list[int] = []
    thresholds: list[float] = []
    rights: list[int] = []
    values: list[float] = []
    owners: list[int] = []
    roots = [0]
    for index, section in enumerate(_tree_sections(model)):
        leaf_value = _numbers(section["leaf_value"], float)
        # >= 0: inner node; < 0: leaf -c - 1; or a marker. A lone leaf is leaf 0.
        stack: list[int] = [0] if int(section["num_leaves"]) > 1 else [-1]
        if stack[0] == 0:
            split = _numbers(section["split_feature"], int)
            threshold = _numbers(section["threshold"], float)
            kind = _numbers(section["decision_type"], int)
            left = _numbers(section["left_child"], int)
            right = _numbers(section["right_child"], int)
            if any(k & 0b1101 for k in kind):
                raise RuntimeError(
                    "LightGBM grew a split costsense cannot convert (decision types "
                    f"{sorted(set(kind))}: categorical or with a missing-value branch)."
                )
        while stack:
            child = stack.pop()
            if child >= _MARKER:  # the right child of this position starts here
                rights[child - _MARKER] = len(features)
                continue
            owners.append(index % n_outputs)
            if child < 0:
                features.append(-1)
                thresholds.append(0.0)
                rights.append(-1)
                values.append(float(leaf_value[-child - 1]))
                continue
            position = len(features)
            features.append(int(split[child]))
            thresholds.append(float(threshold[child]))
            rights.append(-1)
            values.append(0.0)
            stack.extend([right[child], _MARKER + position, left[child]])
        roots.append(len(features))
    n_nodes = len(features)
    value = np.zeros((n_nodes, n_outputs))
    value[np.arange(n_nodes), np.asarray(owners, dtype=np.int64)] = values
    return PackedForest(
        feature=np.asarray(features, dtype=np.int64),
        threshold=np.asarray(thresholds, dtype=np.float64),
        right=np.asarray(rights, dtype=np.int64),
        values=(value,),
        roots=np.asarray(roots, dtype=np.int64),
    )


#: Stack entries at or above this mark a right child's start (a node position
#: plus it); below are LightGBM's child codes.
_MARKER = 1 << 40


def _tree_sections(model: str) -> list[dict[str, str]]:
    """Return the ``key=value`` lines of each ``Tree=`` section of the model text."""
    body = model.split("end of trees", 1)[0]
    sections = []
    for chunk in body.split("\nTree=")[1:]:
        fields = {}
        for line in chunk.splitlines()[1:]:
            key, _, value = line.partition("=")
            if key:
                fields[key] = value
        sections.append(fields)
    return sections


def _numbers(text: str, kind: type) -> list[Any]:
    """Parse a space-separated list of numbers."""
    return [kind(item) for item in text.split()]
