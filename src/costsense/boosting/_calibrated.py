"""AdaBoost with Platt-calibrated probabilities and the Bayes threshold."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from costsense._base import inner_fits, platt_scaling
from costsense.boosting._adaboost import AdaBoostClassifier
from costsense.boosting._engine import StagedCostClassifier, cost_of_signs
from costsense.utils._compat import HasMethods, Interval, _fit_context
from costsense.utils._docstrings import shared

__all__ = [
    "CalibratedAdaBoostClassifier",
]

FloatArray = NDArray[np.float64]


@shared
class CalibratedAdaBoostClassifier(StagedCostClassifier):
    """AdaBoost, Platt-calibrated, thresholded at the Bayes threshold.

    Nikolaou et al. (2016) found that plain AdaBoost with calibrated probabilities
    and the cost-sensitive threshold ``P(+|x) > C2 / (C1 + C2)`` matches or beats
    the cost-sensitive boosting variants. The calibration ``P(+|x) =
    sigmoid(a F(x) + b)`` (Platt 1999) is fitted on out-of-fold scores of ``cv``
    stratified folds (Nikolaou et al. held out part of the training set; folds
    use all of it), and the ensemble is refitted on all the data.

    Parameters
    ----------
    estimator : classifier with ``sample_weight``, default=None
        The weak learner; a decision stump if None.
    n_estimators : int, default=50
        Rounds of AdaBoost.
    learning_rate : float, default=1.0
        Shrinkage of AdaBoost's ``alpha``.
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`; None or "balanced": balanced
        costs; "unit": every error costs 1): used only by the threshold.
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    cv : int, cross-validation generator or iterable, default=3
        Folds for the out-of-fold scores of the calibration: a number of shuffled
        stratified folds, or any scikit-learn splitter or list of splits.
    early_stopping : bool, default=True
        AdaBoost's: stop at the first round whose ``alpha`` is not positive;
        False keeps such rounds (a study runs every boosting rule the same way).
    random_state : int, RandomState instance or None, default=None
        Seeds the folds and the weak learners.

    Attributes
    ----------
    {classes_}
    {pos_label_}
    {cost_matrix_}
    costs_ : tuple of float
        ``(C1, C2)``.
    adaboost_ : AdaBoostClassifier
        The ensemble fitted on all the data.
    calibration_ : tuple of float
        ``(a, b)`` of ``P(+|x) = sigmoid(a F + b)``.
    train_cost_ : ndarray of shape (n_rounds,)
        Mean training cost per sample after each round, with the calibrated
        threshold.
    {fitted}

    Notes
    -----
    The staged predictions apply the final calibration to each stage's score.
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "cost": "no_validation",
        "pos_label": "no_validation",
        "cv": ["cv_object"],
        "early_stopping": ["boolean"],
        "random_state": ["random_state"],
    }
    _degenerate_advice = (
        "its calibrated P(+|x) is on one side of the Bayes threshold "
        "C2 / (C1 + C2) for every row: try a stronger base learner (estimator="
        "DecisionTreeClassifier(max_depth=3)), more rounds (n_estimators), or a "
        "smaller cost"
    )
    _row_costs = "its AdaBoost learns no costs, they would only set its threshold"

    def __init__(
        self,
        estimator: Any = None,
        *,
        n_estimators: int = 50,
        learning_rate: float = 1.0,
        cost: Any = None,
        pos_label: Any = None,
        cv: int = 3,
        early_stopping: bool = True,
        random_state: Any = None,
    ) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.cost = cost
        self.pos_label = pos_label
        self.cv = cv
        self.early_stopping = early_stopping
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> CalibratedAdaBoostClassifier:
        """Fit AdaBoost, calibrate its score out of fold, refit on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            AdaBoost's initial weights.
        sample_cost : None
            Refused (TypeError): the costs set only the threshold, so per-row
            costs go to ``predict(X, sample_cost=...)``.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, signs, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        labels = np.where(signs > 0, 1, 0)
        booster = AdaBoostClassifier(
            self.estimator,
            n_estimators=self.n_estimators,
            learning_rate=self.learning_rate,
            cost=1.0,
            pos_label=1,
            early_stopping=self.early_stopping,
            random_state=self.random_state,
        )
        self.calibration_ = platt_scaling(
            booster,
            X,
            labels,
            pos_label=1,
            cv=self.cv,
            sample_weight=weight,
            random_state=self.random_state,
        )
        with inner_fits():  # this estimator warns about its own decisions
            self.adaboost_ = booster.fit(X, labels, sample_weight=weight)
        costs, score = [], np.zeros(X.shape[0])
        for score in self._staged_scores(X):  # noqa: B007 - the last one is used
            costs.append(cost_of_signs(signs, score, c))
        self.train_cost_ = np.array(costs)
        self._check_degenerate(
            self._to_labels(score),
            reason=f"AdaBoost: {self.adaboost_.stop_reason_}",
        )
        return self

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: its AdaBoost's summary."""
        return self.adaboost_.fit_summary()

    def _calibrated_score(self, F: FloatArray) -> FloatArray:
        """Return ``a F + b - ln(C2/C1)``, positive iff ``P(+|x) > C2/(C1 + C2)``."""
        a, b = self.calibration_
        c1, c2 = self.costs_
        return a * F + b - np.log(c2 / c1)

    def _score(self, X: FloatArray) -> FloatArray:
        return self._calibrated_score(self.adaboost_.decision_function(X))

    def _staged_scores(self, X: FloatArray) -> Any:
        for F in self.adaboost_.staged_decision_function(X):
            yield self._calibrated_score(F)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return the Platt-calibrated probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        X = self._validated(X)
        a, b = self.calibration_
        return self._proba(expit(a * self.adaboost_.decision_function(X) + b))
