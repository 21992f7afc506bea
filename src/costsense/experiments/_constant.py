"""A model that falls back to the constant of least cost when its fit fails."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from costsense.costs import as_cost_matrix, bayes_decision

__all__ = ["ConstantOnFailure"]


class ConstantOnFailure(ClassifierMixin, BaseEstimator):
    """Fit ``estimator``; if its fit raises, predict the class of least cost.

    For imbalanced-learn's RUSBoost, which raises when its first weak learner is
    worse than random: the study goes on with the constant class of least
    training cost (the error in ``stop_reason_``), a degenerate fit in the report.
    """

    def __init__(
        self, estimator: Any = None, *, cost: Any = None, pos_label: Any = None
    ) -> None:
        self.estimator = estimator
        self.cost = cost
        self.pos_label = pos_label

    def fit(self, X: Any, y: Any) -> ConstantOnFailure:
        """Fit the estimator, or the constant of least cost if it raises."""
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        self.stop_reason_ = "fitted"
        try:
            self.estimator_: Any = clone(self.estimator).fit(X, y)
            return self
        except ValueError as error:
            self.stop_reason_ = f"failed, constant of least cost: {error}"
        counts = np.array([np.sum(y == c) for c in self.classes_], dtype=float)
        matrix = as_cost_matrix(self.cost, self.classes_, self.pos_label, y=y)
        self.prior_ = counts / counts.sum()
        self.constant_ = self.classes_[bayes_decision(self.prior_[None, :], matrix)[0]]
        self.estimator_ = None
        return self

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: ``stop_reason`` (fitted, or why it failed)."""
        return {"stop_reason": self.stop_reason_}

    def predict(self, X: Any) -> Any:
        """Predict with the estimator, or the constant."""
        if self.estimator_ is not None:
            return self.estimator_.predict(X)
        return np.full(np.asarray(X).shape[0], self.constant_)

    def predict_proba(self, X: Any) -> Any:
        """Probabilities of the estimator, or the training frequencies."""
        if self.estimator_ is not None:
            return self.estimator_.predict_proba(X)
        return np.tile(self.prior_, (np.asarray(X).shape[0], 1))
