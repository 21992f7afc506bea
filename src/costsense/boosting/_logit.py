"""LogitBoost with a cost-sensitive link: AsyBL (paper 000) and Asymmetric LogitBoost.

Both minimise a logistic loss with the link ``p(F) = sigmoid(2 (g F + eta))`` by
Newton steps (Friedman, Hastie & Tibshirani 2000, Algorithm 3): with
``y* = (y + 1) / 2`` each round fits a regressor ``f`` to the working response
``z = (y* - p) / (p (1 - p))`` with weights ``w = p (1 - p)`` and adds ``f / (2 g)``
(times the learning rate) to ``F``. AsyBL: ``g = 1``, ``eta = 1/2 ln(C2 / C1)``,
i.e. ``p(F) = C2 e^F / (C1 e^-F + C2 e^F)``; Asymmetric LogitBoost
(Masnadi-Shirazi & Vasconcelos 2011): ``g = (C1 + C2) / 2``, the same ``eta``.
With ``C1 = C2`` both are LogitBoost.

The two are one model on two score scales: with ``G = g F``, Asymmetric
LogitBoost's link is AsyBL's link of ``G``, both start at 0 with the same clip,
so every round fits the same regressor and its step ``f / (2 g)`` in ``F`` is
AsyBL's ``f / 2`` in ``G``; by induction ``g F_asym = F_asybl`` (up to rounding
breaking ties between splits). ``F = 0`` gives ``p = C2 / (C1 + C2)``, the Bayes
threshold.

Guards (Friedman et al. 2000, section 6): weights floored at ``1e-10``, the
working response clipped at ``z_max = 2 (1 + max(C1/C2, C2/C1))``: twice the
starting response of the costlier class (4 with equal costs, the usual clip; a
fixed 4 would cut the step that carries the cost when ``C1/C2 > 3``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit
from sklearn.tree import DecisionTreeRegressor

from costsense.boosting._engine import StagewiseBoosting, Step, shared_fit_state
from costsense.utils._compat import _fit_context

FloatArray = NDArray[np.float64]

__all__ = ["LogitCostBoostingClassifier", "NewtonRounds"]

_WEIGHT_FLOOR = 1e-10


def newton_step(f: ArrayLike, learning_rate: float, g: float) -> FloatArray:
    """Return ``learning_rate f / (2 g)``: the regressor's step in ``F``."""
    return learning_rate * np.asarray(f, dtype=np.float64) / (2.0 * g)


@dataclass(frozen=True)
class NewtonRounds:
    """The engine's hooks for Newton steps of the cost-sensitive logit loss.

    ``target`` is ``y* = (y + 1) / 2``, ``weight`` the ``sample_weight`` (or None)
    multiplying the Newton weights, ``link`` the ``(g, eta)`` of ``p(F)``.
    """

    target: FloatArray
    weight: FloatArray | None
    link: tuple[float, float]
    z_max: float
    learning_rate: float

    def task(self, score: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Return the working response ``z`` and the Newton weights at ``F``."""
        g, eta = self.link
        p = expit(2.0 * (g * score + eta))
        w = np.maximum(p * (1.0 - p), _WEIGHT_FLOOR)
        z = np.clip((self.target - p) / w, -self.z_max, self.z_max)
        if self.weight is not None:
            w = w * self.weight
        return z, w

    def step(self, t: int, prediction: FloatArray) -> Step:
        """Return the Newton step; every round is kept."""
        return Step(newton_step(prediction, self.learning_rate, self.link[0]))


class LogitCostBoostingClassifier(StagewiseBoosting):
    """Base of AsyBL and Asymmetric LogitBoost; ``_link(c1, c2)`` gives ``(g, eta)``."""

    _default_estimator: ClassVar[type[Any] | partial[Any]] = partial(
        DecisionTreeRegressor, max_depth=3
    )
    _needs_sample_weight = (
        "base regressor {name}.fit does not accept sample_weight, which the "
        "Newton steps need."
    )
    _degenerate_advice = (
        "try a deeper regressor (estimator=DecisionTreeRegressor(max_depth=5)), "
        "more rounds (n_estimators) or a larger learning_rate, or a smaller cost "
        "(the link starts every row at P(+) = C2 / (C1 + C2), on the costly side)"
    )
    _row_costs = "the costs set only the link (C1, C2) of its loss, no Newton step"

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
        sample_cost : None
            Refused (TypeError): the costs set only the link, so per-row costs
            go to ``predict(X, sample_cost=...)``.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        base = self._checked_base()
        c1, c2 = self.costs_
        self.link_ = self._link(c1, c2)
        self.z_max_ = 2.0 * (1.0 + max(c1 / c2, c2 / c1))
        rounds = NewtonRounds(
            (y + 1.0) / 2.0, weight, self.link_, self.z_max_, self.learning_rate
        )
        shared = shared_fit_state(base, X)  # e.g. compiled-tree bins, made once
        F, train_cost, _ = self._boost(X, y, c, base, rounds, shared)
        self.train_cost_ = np.array(train_cost)
        self._check_degenerate(
            self._to_labels(F),
            reason=f"after {self.n_estimators} Newton steps of learning rate "
            f"{self.learning_rate}, F(x) has one sign on every training row",
        )
        return self

    def _vote(self, t: int, prediction: FloatArray) -> FloatArray:
        """Return the Newton step of kept round ``t``."""
        return newton_step(prediction, self.learning_rate, self.link_[0])

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
