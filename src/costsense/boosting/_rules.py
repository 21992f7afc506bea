"""The cost-sensitive boosting variants as rules: each one is its formulas only.

Notation (binary): labels ``y`` and weak predictions ``h`` in ``{-1, +1}``, margin
``m = y h``, normalised weights ``D``, per-sample cost ``c`` (``C1`` for positives,
``C2`` for negatives, or each sample's own cost). A rule states
``init_weights(c)``, ``learner_weights(D, c)`` (what the weak learner is fitted
with), ``alpha(r)``, ``update(r, alpha)`` (normalised by the engine; any factor it
divided by in ``log_update_factor``), ``round_loss(r, alpha)`` (the objective
``alpha`` minimises exactly; None for heuristics and bound minimisers),
``votes(H, alphas, c1, c2)`` (the score) and ``probability`` (its link).

References
----------
.. [1] Y. Freund, R. Schapire, "A decision-theoretic generalization of on-line
   learning and an application to boosting", JCSS 55, 1997 (AdaBoost).
.. [2] W. Fan, S. Stolfo, J. Zhang, P. Chan, "AdaCost: misclassification
   cost-sensitive boosting", ICML 1999.
.. [3] K. M. Ting, "A comparative study of cost-sensitive boosting algorithms",
   ICML 2000 (CSB0, CSB1, CSB2).
.. [4] Y. Sun, M. Kamel, A. Wong, Y. Wang, "Cost-sensitive boosting for
   classification of imbalanced data", Pattern Recognition 40, 2007 (AdaC1-3).
.. [5] H. Masnadi-Shirazi, N. Vasconcelos, "Asymmetric boosting", ICML 2007.
.. [6] I. Landesa-Vazquez, J. L. Alba-Castro, "Shedding light on the asymmetric
   learning capability of AdaBoost", Pattern Recognition Letters 33, 2012
   (AdaBoost with cost-proportional initial weights, "AdaBoostC").
.. [7] Cao et al., paper 000 of this project (AsyB, Algorithm 1). Its errata, as
   corrected in :class:`AsyB`: the printed equations (5)-(6) use ``I[y = 1]`` in
   both the positive and the negative sums, and the printed ``alpha`` pairs the
   sums under another labelling; the ``alpha`` here follows from equation (4) and
   is AdaBoost's when ``C1 = C2``. The printed minimiser ``f*(x)`` lost its
   logarithm: ``f*(x) = 1/2 ln(C1 P(+|x) / (C2 P(-|x)))``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray
from scipy import optimize

FloatArray = NDArray[np.float64]

__all__ = ["RULES", "BoostRule", "Round"]


@dataclass(frozen=True)
class Round:
    """Everything a rule may read in one round: ``y``, ``h``, ``D`` and ``c``."""

    y: FloatArray
    h: FloatArray
    D: FloatArray
    c: FloatArray

    @cached_property
    def margin(self) -> FloatArray:
        """``y * h``: +1 where the weak learner is right, -1 where wrong."""
        return self.y * self.h

    @cached_property
    def error(self) -> float:
        """Weighted error ``sum D [h != y]``."""
        return float(self.D[self.margin < 0].sum())


def _half_log_ratio(good: float, bad: float) -> float:
    """``1/2 ln(good / bad)``, +inf for ``bad = 0``, -inf for ``good = 0``."""
    with np.errstate(divide="ignore"):
        return float(0.5 * (np.log(good) - np.log(bad)))


class BoostRule:
    """A boosting variant's formulas; the defaults are AdaBoost's.

    ``scale_free``: whether multiplying every cost by a constant leaves the model
    unchanged.
    """

    name = "adaboost"
    scale_free = True
    #: Whether the initial weights are the costs (``D_1 ∝ c``) or uniform.
    cost_start = False

    def probability(
        self, F: FloatArray, c1: float, c2: float, alpha_sum: float
    ) -> FloatArray:
        """Return ``P(+|x)`` from the score ``F``: the loss's minimiser inverted.

        ``sum exp(-y F)`` is minimised by ``F* = 1/2 ln(P / (1 - P))`` (Friedman,
        Hastie & Tibshirani 2000). Every cost-sensitive rule's link maps ``F = 0``
        to the Bayes threshold ``C2 / (C1 + C2)``. ``alpha_sum`` is the sum of the
        learner weights (Ting's vote fraction).
        """
        return 1.0 / (1.0 + np.exp(np.clip(-2.0 * F, -700, 700)))

    def init_weights(self, c: FloatArray) -> FloatArray:
        """Return the initial weights: ``c`` if ``cost_start``, else uniform."""
        return c.copy() if self.cost_start else np.ones_like(c)

    def learner_weights(self, D: FloatArray, c: FloatArray) -> FloatArray:
        """Return the ``sample_weight`` the weak learner is fitted with (``D``)."""
        return D

    def alpha(self, r: Round) -> float:
        """Return AdaBoost's ``1/2 ln((1 - err) / err)``."""
        correct = float(r.D[r.margin > 0].sum())
        return _half_log_ratio(correct, r.error)

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``D exp(-alpha m)``."""
        return r.D * np.exp(-alpha * r.margin)

    def log_update_factor(self, r: Round, alpha: float) -> float:
        """Return ``ln k``: ``update`` returned its weights divided by ``k > 0``."""
        return 0.0

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return ``sum D exp(-alpha m)``, the exponential loss of the round."""
        return float(np.sum(r.D * np.exp(-alpha * r.margin)))

    def votes(
        self, H: FloatArray, alphas: FloatArray, c1: float, c2: float
    ) -> FloatArray:
        """Return the score ``F = sum_t alpha_t h_t`` of ``H`` (rounds x samples).

        Every rule's score is a sum over rounds (the staged predictions add it up).
        """
        return alphas @ H


class _CostLinkRule(BoostRule):
    """A rule read with the link ``P = 1 / (1 + (C1/C2) exp(-2F))``.

    ``sum c exp(-y F)`` (AdaBoostC's and AsyB's loss) is minimised by
    ``F* = 1/2 ln(C1 P / (C2 (1 - P)))``, paper 000's ``f*``. A heuristic has no
    loss whose minimiser names a probability; this reading puts ``C2 / (C1 + C2)``
    where its prediction changes.
    """

    def probability(
        self, F: FloatArray, c1: float, c2: float, alpha_sum: float
    ) -> FloatArray:
        """Return ``1 / (1 + (C1/C2) exp(-2F))``."""
        return 1.0 / (1.0 + np.exp(np.clip(np.log(c1 / c2) - 2.0 * F, -700, 700)))


class AdaBoostC(_CostLinkRule):
    """AdaBoost with cost-proportional initial weights (Landesa-Vazquez 2012).

    The exact functional-gradient boosting of ``sum c_i exp(-y_i F)``.
    """

    name = "adaboostc"
    cost_start = True


class AdaCost(_CostLinkRule):
    """AdaCost (Fan et al. 1999): a cost-adjustment function inside the exponent.

    Costs are normalised to ``(0, 1]`` by their maximum; ``beta = (1 - c) / 2``
    where the learner is right, ``(1 + c) / 2`` where wrong;
    ``r = sum D m beta``, ``alpha = 1/2 ln((1 + r) / (1 - r))`` (the minimiser of
    the convex upper bound of the round's loss, not of the loss itself), and
    ``D <- D exp(-alpha m beta)``.
    """

    name = "adacost"
    cost_start = True

    @staticmethod
    def _beta(r: Round) -> FloatArray:
        unit = r.c / r.c.max()
        return np.where(r.margin > 0, 0.5 * (1 - unit), 0.5 * (1 + unit))

    def alpha(self, r: Round) -> float:
        """Return ``1/2 ln((1 + r) / (1 - r))`` with ``r = sum D m beta``."""
        s = float(np.sum(r.D * r.margin * self._beta(r)))
        return _half_log_ratio(1 + s, 1 - s)

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``D exp(-alpha m beta)``."""
        return r.D * np.exp(-alpha * r.margin * self._beta(r))

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return None: alpha minimises an upper bound, not the loss."""
        return None


class _SunRule(_CostLinkRule):
    """Shared set-up of AdaC1-3: cost items scaled to ``(0, 1]`` (Sun et al. 2007)."""

    @staticmethod
    def _unit(r: Round) -> FloatArray:
        return r.c / r.c.max()

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return None: the closed form minimises an upper bound."""
        return None


class AdaC1(_SunRule):
    """AdaC1: the cost inside the exponent, ``D <- D exp(-alpha C m)``.

    ``alpha = 1/2 ln((1 + S_ok - S_bad) / (1 - S_ok + S_bad))`` with ``S`` the
    sums of ``C D`` over correctly / wrongly classified samples, ``C`` the costs
    scaled to ``(0, 1]``.
    """

    name = "adac1"

    def alpha(self, r: Round) -> float:
        """Return Sun et al.'s AdaC1 step."""
        # 1 + S_ok - S_bad = sum D (1 + C m): a sum of non-negative terms, exact
        # even when the wrong weight is far below the rounding of 1
        u = self._unit(r) * r.margin
        return _half_log_ratio(np.sum(r.D * (1 + u)), np.sum(r.D * (1 - u)))

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``D exp(-alpha C m)``."""
        return r.D * np.exp(-alpha * self._unit(r) * r.margin)


class AdaC2(_SunRule):
    """AdaC2: the cost outside the exponent, ``D <- C D exp(-alpha m)``.

    ``alpha = 1/2 ln(sum_ok C D / sum_bad C D)``, the exact minimiser of
    ``sum C D exp(-alpha m)``; the factor ``C`` compounds every round.
    """

    name = "adac2"

    def alpha(self, r: Round) -> float:
        """Return ``1/2 ln(sum_ok C D / sum_bad C D)``."""
        weighted = self._unit(r) * r.D
        return _half_log_ratio(
            weighted[r.margin > 0].sum(), weighted[r.margin < 0].sum()
        )

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``C D exp(-alpha m)``."""
        return self._unit(r) * r.D * np.exp(-alpha * r.margin)

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return ``sum C D exp(-alpha m)``."""
        return float(np.sum(self._unit(r) * r.D * np.exp(-alpha * r.margin)))


class AdaC3(_SunRule):
    """AdaC3: the cost inside and outside, ``D <- C D exp(-alpha C m)``.

    ``alpha = 1/2 ln((S + Q_ok - Q_bad) / (S - Q_ok + Q_bad))``, ``S = sum C D``,
    ``Q`` the sums of ``C^2 D`` over correct / wrong samples.
    """

    name = "adac3"

    def alpha(self, r: Round) -> float:
        """Return Sun et al.'s AdaC3 step."""
        # S + Q_ok - Q_bad = sum C D (1 + C m), summed as non-negative terms
        unit = self._unit(r)
        u = unit * r.margin
        return _half_log_ratio(
            np.sum(unit * r.D * (1 + u)), np.sum(unit * r.D * (1 - u))
        )

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``C D exp(-alpha C m)``."""
        unit = self._unit(r)
        return unit * r.D * np.exp(-alpha * unit * r.margin)


class _TingRule(BoostRule):
    """Shared parts of CSB0-2 (Ting 2000).

    Initial weights proportional to the cost; a wrongly classified sample's weight
    is multiplied by its cost (``k = c`` if wrong, 1 if right); AdaBoost's alpha
    weighs the votes. The prediction is the class of minimum expected cost under
    the weighted votes: positive iff ``C1 sum_{h=+1} alpha > C2 sum_{h=-1} alpha``.
    """

    scale_free = False  # k multiplies by the costs themselves, not their ratio
    cost_start = True

    def probability(
        self, F: FloatArray, c1: float, c2: float, alpha_sum: float
    ) -> FloatArray:
        """Return the positive share of the vote, ``A+ / (A+ + A-)``.

        From ``F = C1 A+ - C2 A-`` and ``A+ + A- = sum alpha``,
        ``P = (F / sum alpha + C2) / (C1 + C2)``; 1 or 0 without a kept round.
        """
        if alpha_sum <= 0:
            return (F > 0).astype(np.float64)
        return np.clip((F / alpha_sum + c2) / (c1 + c2), 0.0, 1.0)

    @staticmethod
    def _k(r: Round) -> FloatArray:
        return np.where(r.margin < 0, r.c, 1.0)

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return None: a heuristic without a loss."""
        return None

    def votes(
        self, H: FloatArray, alphas: FloatArray, c1: float, c2: float
    ) -> FloatArray:
        """Return ``C1 sum_{h=+1} alpha - C2 sum_{h=-1} alpha``."""
        positive = alphas @ (H > 0)
        negative = alphas @ (H < 0)
        return c1 * positive - c2 * negative


class CSB0(_TingRule):
    """CSB0: ``D <- k D`` (no exponential factor)."""

    name = "csb0"

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``k D``."""
        return self._k(r) * r.D


class CSB1(_TingRule):
    """CSB1: ``D <- k D exp(-m)`` (a fixed step of 1)."""

    name = "csb1"

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``k D exp(-m)``."""
        return self._k(r) * r.D * np.exp(-r.margin)


class CSB2(_TingRule):
    """CSB2: ``D <- k D exp(-alpha m)``."""

    name = "csb2"

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``k D exp(-alpha m)``."""
        return self._k(r) * r.D * np.exp(-alpha * r.margin)


class AsymBoost(BoostRule):
    """Asymmetric boosting (Masnadi-Shirazi & Vasconcelos 2007).

    Loss ``sum_{y=+1} exp(-C1 F) + sum_{y=-1} exp(C2 F)``; a round adds ``alpha h``
    with ``alpha`` the exact minimiser of the convex 1-D function
    ``sum D exp(-C_y alpha m)`` (bracketed root of its derivative, to ``1e-12``),
    and ``D <- D exp(-C_y alpha m)``.
    """

    name = "asymboost"
    scale_free = False  # C1 and C2 scale the margin, not only its weight

    def learner_weights(self, D: FloatArray, c: FloatArray) -> FloatArray:
        """Return ``D c``: the learner of least ``sum D C_y [h != y]``.

        That is the learner of least loss at ``alpha -> 0`` (Masnadi-Shirazi &
        Vasconcelos); fitted on ``D`` alone it ignores the costs.
        """
        weights = D * c
        return weights / weights.sum()

    def alpha(self, r: Round) -> float:
        """Return the minimiser of ``sum D exp(-C_y alpha m)``."""
        live = r.D > 0  # zero-weight samples add nothing (and 0 * inf is NaN)
        D, a = r.D[live], (r.c * r.margin)[live]  # the loss is sum D exp(-alpha a)
        if np.all(a >= 0):
            return np.inf
        if np.all(a <= 0):
            return -np.inf

        def slope(alpha: float) -> float:
            return float(-np.sum(D * a * np.exp(-alpha * a)))

        lo, hi = -1.0, 1.0
        while slope(lo) > 0:
            lo *= 2
        while slope(hi) < 0:
            hi *= 2
        return float(optimize.brentq(slope, lo, hi, xtol=1e-14, rtol=1e-14))

    def probability(
        self, F: FloatArray, c1: float, c2: float, alpha_sum: float
    ) -> FloatArray:
        """Return ``1 / (1 + (C1/C2) exp(-(C1 + C2) F))``.

        The loss ``I(y=1) e^{-C1 F} + I(y=-1) e^{C2 F}`` is minimised by
        ``F* = ln(C1 P / (C2 (1 - P))) / (C1 + C2)``.
        """
        z = np.log(c1 / c2) - (c1 + c2) * F
        return 1.0 / (1.0 + np.exp(np.clip(z, -700, 700)))

    @staticmethod
    def _exponent(r: Round, alpha: float) -> tuple[FloatArray, float]:
        """Return ``-C_y alpha m`` and its maximum over the weighted samples."""
        exponent = -alpha * r.c * r.margin
        live = r.D > 0
        return exponent, float(exponent[live].max()) if np.any(live) else 0.0

    def update(self, r: Round, alpha: float) -> FloatArray:
        """Return ``D exp(-C_y alpha m)``, up to a factor the engine normalises away.

        The exponent is shifted by its maximum over the weighted samples: with
        costs far apart, ``C_y alpha`` can exceed the range of ``exp``.
        """
        exponent, shift = self._exponent(r, alpha)
        return r.D * np.exp(np.minimum(exponent - shift, 0.0))

    def log_update_factor(self, r: Round, alpha: float) -> float:
        """Return the shift of ``update``'s exponent (``ln`` of its factor)."""
        return self._exponent(r, alpha)[1]

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return ``sum D exp(-C_y alpha m)``."""
        return float(np.sum(r.D * np.exp(-alpha * r.c * r.margin)))


class AsyB(_CostLinkRule):
    """AsyB (paper 000, Algorithm 1), as printed.

    ``alpha = 1/2 ln((C1 W+_ok + C2 W-_ok) / (C1 W+_bad + C2 W-_bad))``, the exact
    minimiser of ``sum D c exp(-alpha m)``; ``D <- D exp(-alpha m)``. The printed
    algorithm also starts from ``D ∝ c`` (``init_weights="cost"``), which counts
    the cost twice; ``init_weights="uniform"`` counts it once (in alpha only).
    """

    name = "asyb"

    def __init__(self, init_weights: str = "cost") -> None:
        self.cost_start = init_weights == "cost"

    def alpha(self, r: Round) -> float:
        """Return the cost-weighted half log-ratio of right to wrong weight."""
        weighted = r.c * r.D
        return _half_log_ratio(
            weighted[r.margin > 0].sum(), weighted[r.margin < 0].sum()
        )

    def round_loss(self, r: Round, alpha: float) -> float | None:
        """Return ``sum D c exp(-alpha m)``."""
        return float(np.sum(r.D * r.c * np.exp(-alpha * r.margin)))


#: Every rule by name (AsyB with its printed initial weights).
RULES: dict[str, BoostRule] = {
    rule.name: rule
    for rule in (
        BoostRule(),
        AdaBoostC(),
        AdaCost(),
        AdaC1(),
        AdaC2(),
        AdaC3(),
        CSB0(),
        CSB1(),
        CSB2(),
        AsymBoost(),
        AsyB(),
    )
}
