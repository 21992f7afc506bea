"""LogitBoost with a cost-sensitive link: AsyBL (paper 000) and Asymmetric LogitBoost.

Both minimise a logistic loss whose probability link is shifted and scaled by the
costs, ``p(F) = sigmoid(2 (g F + eta))``, by Newton steps fitted with a weighted
least-squares regressor (Friedman, Hastie & Tibshirani 2000, Algorithm 3). With
``y* = (y + 1) / 2`` the Newton step of the loss ``-[y* ln p + (1 - y*) ln(1 - p)]``
is ``(y* - p) / (2 g p (1 - p))`` with curvature ``4 g^2 p (1 - p)``, so each round
fits a regressor ``f`` to the working response ``z = (y* - p) / (p (1 - p))`` with
weights ``w = p (1 - p)`` and adds ``f / (2 g)`` (times the learning rate) to ``F``.

- AsyBL: ``g = 1``, ``eta = 1/2 ln(C2 / C1)``, i.e.
  ``p(F) = C2 e^F / (C1 e^-F + C2 e^F) = 1 / (1 + (C1/C2) e^(-2F))``.
- Asymmetric LogitBoost (Masnadi-Shirazi & Vasconcelos 2011): ``g = (C1 + C2) / 2``,
  ``eta = 1/2 ln(C2 / C1)``.

With ``C1 = C2`` (``g = 1``, ``eta = 0``) both are LogitBoost.

The two are one model on two score scales. Proof sketch, by induction over the
rounds: let ``G = g F`` for Asymmetric LogitBoost. Its link is
``sigmoid(2 (G + eta))``, AsyBL's link of ``G``; both start at 0, use the same
``eta`` and the same clip ``z_max``, so in every round they fit the same regressor
to the same working response with the same weights, and Asymmetric LogitBoost's
step ``f / (2 g)`` in ``F`` is the step ``f / 2`` in ``G``, AsyBL's. Hence
``g F_asym = F_asybl`` after every round: the same probabilities and the same
predictions at the same learning rate (up to rounding, which can break a tie
between two equally good splits differently). Published tables that put them far
apart cannot come from these definitions at equal settings. In both, ``F = 0``
gives ``p = C2 / (C1 + C2)``, the Bayes threshold, so ``sign(F)`` is the
cost-sensitive Bayes rule when ``p`` estimates ``P(+|x)``; ``predict_proba`` is
``p(F)``.

Guards (Friedman et al. 2000, section 6): the weights are floored at ``1e-10``,
and the working response is clipped at ``z_max``. The usual ``z_max = 4`` is twice
LogitBoost's starting response (``|z| = 2`` at ``p = 1/2``); here the starting
response of a positive is ``1 / p = 1 + C1/C2``, so ``z_max`` scales with the costs:
``z_max = 2 (1 + max(C1/C2, C2/C1))`` (4 when the costs are equal). A fixed clip
at 4 would cut the very step that carries the cost when ``C1/C2 > 3``.
"""

from __future__ import annotations

from collections.abc import Iterator
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils import check_random_state
from sklearn.utils.validation import has_fit_parameter

from costsense._base import inner_fits
from costsense.boosting._shared import shared_fit_params
from costsense.boosting._staged import StagedCostClassifier, cost_of_signs
from costsense.utils._compat import HasMethods, Interval, _fit_context
from costsense.utils._random import seeded_clone

FloatArray = NDArray[np.float64]

__all__ = ["LogitCostBoostingClassifier"]

_WEIGHT_FLOOR = 1e-10


class LogitCostBoostingClassifier(StagedCostClassifier):
    """Base of AsyBL and Asymmetric LogitBoost; ``_link(c1, c2)`` gives ``(g, eta)``."""

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "cost": "no_validation",
        "pos_label": "no_validation",
        "random_state": ["random_state"],
    }
    _degenerate_advice = (
        "try a deeper regressor (estimator=DecisionTreeRegressor(max_depth=5)), "
        "more rounds (n_estimators) or a larger learning_rate, or a smaller cost "
        "(the link starts every row at P(+) = C2 / (C1 + C2), on the costly side)"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        n_estimators: int = 50,
        learning_rate: float = 0.1,
        cost: Any = None,
        pos_label: Any = None,
        random_state: Any = None,
    ) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.cost = cost
        self.pos_label = pos_label
        self.random_state = random_state

    def _link(self, c1: float, c2: float) -> tuple[float, float]:
        return 1.0, 0.5 * float(np.log(c2 / c1))

    def _base(self) -> Any:
        if self.estimator is None:
            return DecisionTreeRegressor(max_depth=3)
        return self.estimator

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> LogitCostBoostingClassifier:
        """Boost the base regressor by Newton steps of the cost-sensitive logit loss.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies the Newton weights.
        sample_cost : array-like, default=None
            Example-dependent costs; their class means ``C1``, ``C2`` define the link.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        base = self._base()
        if not has_fit_parameter(base, "sample_weight"):
            raise TypeError(
                f"{type(self).__name__}: the base regressor {type(base).__name__}.fit "
                "does not accept sample_weight, which the Newton steps need."
            )
        c1, c2 = self.costs_
        self.link_ = self._link(c1, c2)
        g, eta = self.link_
        self.z_max_ = 2.0 * (1.0 + max(c1 / c2, c2 / c1))
        rng = check_random_state(self.random_state)
        target = (y + 1.0) / 2.0
        shared = shared_fit_params(base, X)  # e.g. compiled-tree bins, made once
        F = np.zeros(X.shape[0])
        self.estimators_: list[Any] = []
        self.train_cost_ = np.empty(self.n_estimators)
        for t in range(self.n_estimators):
            p = expit(2.0 * (g * F + eta))
            w = np.maximum(p * (1.0 - p), _WEIGHT_FLOOR)
            z = np.clip((target - p) / w, -self.z_max_, self.z_max_)
            if weight is not None:
                w = w * weight
            learner = seeded_clone(base, rng)
            with inner_fits():
                learner.fit(X, z, sample_weight=w, **shared)
            F = F + self._step(learner.predict(X))
            self.estimators_.append(learner)
            self.train_cost_[t] = cost_of_signs(y, F, c)
        self._check_degenerate(
            self._to_labels(F),
            reason=f"after {self.n_estimators} Newton steps of learning rate "
            f"{self.learning_rate}, F(x) has one sign on every training row",
        )
        return self

    def _step(self, f: FloatArray) -> FloatArray:
        g, _ = self.link_
        return self.learning_rate * np.asarray(f, dtype=np.float64) / (2.0 * g)

    def _staged_scores(self, X: FloatArray) -> Iterator[FloatArray]:
        F = np.zeros(X.shape[0])
        for learner in self.estimators_:
            F = F + self._step(learner.predict(X))
            yield F

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return ``P(+|x) = p(F(x))``, the link of the loss.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        X = self._validated(X)
        g, eta = self.link_
        return self._proba(expit(2.0 * (g * self._score(X) + eta)))
