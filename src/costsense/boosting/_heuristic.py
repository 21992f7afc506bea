"""The heuristic cost-sensitive boosters: AdaCost, AdaC1-3 and CSB0-2.

Rules without a loss that their ``alpha`` minimises exactly (Fan et al. 1999,
Sun et al. 2007, Ting 2000); the formulas are in :mod:`costsense.boosting._rules`.
"""

from __future__ import annotations

from costsense.boosting import _rules
from costsense.boosting._docs import documented_booster
from costsense.boosting._engine import CostBoostingClassifier

__all__ = [
    "AdaC1Classifier",
    "AdaC2Classifier",
    "AdaC3Classifier",
    "AdaCostClassifier",
    "CSB0Classifier",
    "CSB1Classifier",
    "CSB2Classifier",
]


@documented_booster
class AdaCostClassifier(CostBoostingClassifier):
    """AdaCost (Fan et al. 1999): a cost-adjusted step inside the exponent."""

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaCost()


@documented_booster
class AdaC1Classifier(CostBoostingClassifier):
    """AdaC1 (Sun et al. 2007): the cost inside the exponent of the update."""

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC1()


@documented_booster
class AdaC2Classifier(CostBoostingClassifier):
    """AdaC2 (Sun et al. 2007): the cost outside the exponent of the update."""

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC2()


@documented_booster
class AdaC3Classifier(CostBoostingClassifier):
    """AdaC3 (Sun et al. 2007): the cost inside and outside the exponent."""

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC3()


@documented_booster
class CSB0Classifier(CostBoostingClassifier):
    """CSB0 (Ting 2000): misclassified weights times their cost, no exponent.

    Predicts the class of minimum expected cost under the weighted votes.
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB0()


@documented_booster
class CSB1Classifier(CostBoostingClassifier):
    """CSB1 (Ting 2000): ``D <- k D exp(-y h)``, a fixed unit step."""

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB1()


@documented_booster
class CSB2Classifier(CostBoostingClassifier):
    """CSB2 (Ting 2000): ``D <- k D exp(-alpha y h)`` with AdaBoost's alpha."""

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB2()
