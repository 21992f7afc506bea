"""What the boosting estimators share beyond the common base: staged predictions.

The fit start-up and the label mapping are
:class:`costsense._base.BinaryCostClassifier`; this module adds the staged
predictions (cost-per-round curves) and the training cost of a score's signs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense._base import BinaryCostClassifier

FloatArray = NDArray[np.float64]

__all__ = ["StagedCostClassifier", "cost_of_signs"]


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


class StagedCostClassifier(BinaryCostClassifier):
    """A binary cost classifier whose score is built in stages (boosting rounds).

    Subclasses implement ``_staged_scores(X)``, yielding the score (positive for
    the positive class) after each stage.
    """

    def _staged_scores(self, X: FloatArray) -> Iterator[FloatArray]:
        """Yield the score after each stage (subclasses)."""
        raise AttributeError(f"{type(self).__name__} defines no staged score")

    def _score(self, X: FloatArray) -> FloatArray:
        """Return the score after the last stage."""
        score = np.zeros(X.shape[0])
        for score in self._staged_scores(X):  # noqa: B007 - the last stage is it
            pass
        return score

    def staged_decision_function(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield the decision function after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        X = self._validated(X)
        for score in self._staged_scores(X):
            yield self._oriented(score)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray[Any]]:
        """Yield the predictions after each round (cost-vs-iteration curves).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        X = self._validated(X)
        for score in self._staged_scores(X):
            yield self._to_labels(score)
