"""ThresholdMoving: the class of least expected cost under the base learner's P(y|x)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator
from sklearn.calibration import CalibratedClassifierCV

from costsense.costs import Costs, bayes_threshold
from costsense.utils._compat import StrOptions

from ._wrapper import (
    _CostSensitiveWrapper,
    _document,
    _proba_in,
    _row_costs_documented,
)

__all__ = ["ThresholdMoving"]

FloatArray = NDArray[np.float64]


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
    The base learner's probabilities never depend on the costs, so ``fit``
    refuses per-row costs (``sample_cost``, TypeError) rather than reduce them
    to a threshold; ``predict(X, sample_cost=...)`` decides each row with its
    own costs (four-part costs or one matrix per row). A non-zero diagonal
    (costs of correct decisions) is used as given: adding a constant to a truth
    row changes no decision.

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
    _row_costs = "its base learner learns no costs, they would only set the threshold"

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
