"""BinaryCostClassifier: two labels as -1/+1, a score whose sign decides, Platt.

The costs enter as each row's reduction; the base of the boosters and margin
learners. Change it when their shared prediction methods change.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import has_fit_parameter

from costsense.costs import _plain as _plain_value
from costsense.costs import example_costs

from ._classifier import ClassifierBase
from ._platt import platt_scaling

__all__ = ["BinaryCostClassifier", "PlattClassifier"]

FloatArray = NDArray[np.float64]


def _cheaper_error_cost(c: FloatArray, signs: FloatArray) -> float:
    """Return the mean error cost of the cheaper class: ``cost_unit="cheaper"``.

    The papers state costs in units of the cheaper error (``C2 = 1``).
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
        pair ``(C1, C2)`` of ``cost_matrix_``). Signs and costs are each row's
        :func:`costsense.costs.cost_reduction`: its cheaper class and what the
        other costs more.
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

    def _to_labels(self, score: FloatArray) -> NDArray[Any]:
        """Labels from a positive-class score (``classes_[1]`` iff oriented > 0)."""
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
            The model's score (boosting: ``F(x)``; calibrated AdaBoost: the
            calibrated log-odds minus the Bayes threshold's; LDM and SVM:
            ``w'phi(x)``), sign-flipped when the positive class is ``classes_[0]``.
        """
        X = self._validated(X)
        return self._oriented(self._score(X))

    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class the sign of the score points to, or each row's own.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : ExampleCosts, array-like or "mean", default=None
            The costs of the rows being decided, in a layout of
            :mod:`costsense.costs` that prices every outcome. Each row is then
            decided by the Bayes rule on :meth:`predict_proba` (margin models:
            fitted with ``probability=True``). A model fitted with per-row costs
            warns (:class:`~costsense.exceptions.CostWarning`) without them,
            unless ``"mean"`` asks for the decision at the mean costs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Without ``sample_cost``, ``classes_[1]`` where
            :meth:`decision_function` is positive; with it, each row's class of
            least expected cost.
        """
        sample_cost = self._decision_costs(sample_cost)
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
                "with probability=True (Platt scaling), or call predict(X, "
                "sample_cost='mean') for the decision at the training costs."
            )
        return cast(FloatArray, self.predict_proba(X))

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class PlattClassifier(BinaryCostClassifier):
    """A binary cost classifier with Platt scaling of its score (``probability``)."""

    probability: bool
    cv: Any
    random_state: Any
    platt_: tuple[float, float]

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
        fit_params = {}
        if has_fit_parameter(member, "sample_cost"):  # c replaces cost
            updates["cost"] = None
            fit_params = {"sample_cost": example_costs(fp=c, fn=c)}
        if "pos_label" in member.get_params(deep=False):
            updates["pos_label"] = 1.0
        member.set_params(**updates)
        return platt_scaling(
            member,
            X,
            signs,
            pos_label=1.0,
            cv=self.cv,
            sample_weight=weight,
            fit_params=fit_params,
            random_state=self.random_state,
        )

    @available_if(lambda self: bool(self.probability))
    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Platt-scaled probabilities (fitted when ``probability=True``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            ``P(+|x) = sigmoid(a f(x) + b)`` (``platt_``), in ``classes_`` order.
        """
        X = self._validated(X)
        a, b = self.platt_
        return self._proba(1.0 / (1.0 + np.exp(-(a * self._score(X) + b))))
