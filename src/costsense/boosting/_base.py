"""What every binary cost-sensitive boosting estimator shares: validation and costs.

Both engines (the discrete forward-stagewise one and the LogitBoost one) start a fit
the same way: validate ``X`` and ``y``, insist on two classes, resolve the costs
with :mod:`costsense.costs`, and map the labels to ``-1`` (negative) and ``+1``
(the positive, costly class).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from costsense.costs import resolve_cost
from costsense.utils._param_validation import validate_data

FloatArray = NDArray[np.float64]

__all__ = ["BinaryCostClassifier", "StagedMixin", "cost_of_signs"]


def cost_of_signs(y: FloatArray, score: FloatArray, c: FloatArray) -> float:
    """Mean cost per sample of predicting ``sign(score)`` (0 counts as negative).

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Labels in ``{-1, +1}``.
    score : ndarray of shape (n_samples,)
        Scores, positive for the positive class.
    c : ndarray of shape (n_samples,)
        Cost of an error on each sample.

    Returns
    -------
    float
    """
    wrong = np.where(score > 0, 1.0, -1.0) != y
    return float(np.sum(c[wrong]) / y.shape[0])


class BinaryCostClassifier(ClassifierMixin, BaseEstimator):
    """Shared fit prelude and label mapping of the binary boosting estimators."""

    def _prepare(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
        sample_cost: ArrayLike | None,
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray | None]:
        """Validate; return ``X``, ``y`` in {-1, +1}, costs ``c`` and weights.

        Sets ``classes_``, ``pos_label_``, ``cost_matrix_`` and ``costs_`` (the
        pair ``(C1, C2)``: mean false-negative and false-positive costs).
        """
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            kind = type_of_target(y)
            if self.classes_.size < 2:
                raise ValueError(
                    f"y has only one class ({self.classes_[0].item()!r}); a "
                    "classifier needs at least two classes to learn from."
                )
            raise ValueError(
                "Only binary classification is supported. The type of the target "
                f"is {kind}."
            )
        weight = None
        if sample_weight is not None:
            weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        # an estimator without a ``cost`` parameter is cost-blind: C1 = C2 = 1
        resolved = resolve_cost(
            getattr(self, "cost", 1.0),
            y,
            classes=self.classes_,
            pos_label=getattr(self, "pos_label", None),
            sample_cost=sample_cost,
            sample_weight=weight,
        )
        pos = resolved.pos_index
        self.pos_label_ = resolved.pos_label
        self.cost_matrix_ = resolved.matrix
        self.costs_ = (
            float(resolved.matrix[pos, 1 - pos]),
            float(resolved.matrix[1 - pos, pos]),
        )
        signs = np.where(resolved.y_index == pos, 1.0, -1.0)
        return X, signs, resolved.sample_cost, weight

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

    def _validated(self, X: ArrayLike) -> FloatArray:
        check_is_fitted(self)
        return validate_data(self, X, reset=False)

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
            The ensemble score ``F(x)`` (Ting's rules: ``C1`` times the positive
            vote minus ``C2`` times the negative one; calibrated AdaBoost: the
            calibrated log-odds minus those of the Bayes threshold; LDM and SVM:
            ``w'phi(x)``), sign-flipped when the positive class is ``classes_[0]``.
        """
        X = self._validated(X)
        return self._oriented(self._score(X))

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predict the class the sign of the score points to.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``classes_[1]`` where :meth:`decision_function` is positive, else
            ``classes_[0]``.
        """
        X = self._validated(X)
        return self._to_labels(self._score(X))

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = False
        return tags


class StagedMixin:
    """Staged predictions of boosting models from their ``_staged_scores``."""

    def staged_decision_function(self, X: ArrayLike) -> Any:
        """Yield the decision function after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        X = self._validated(X)  # type: ignore[attr-defined]
        for score in self._staged_scores(X):  # type: ignore[attr-defined]
            yield self._oriented(score)  # type: ignore[attr-defined]

    def staged_predict(self, X: ArrayLike) -> Any:
        """Yield the predictions after each round (cost-vs-iteration curves).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        X = self._validated(X)  # type: ignore[attr-defined]
        for score in self._staged_scores(X):  # type: ignore[attr-defined]
            yield self._to_labels(score)  # type: ignore[attr-defined]
