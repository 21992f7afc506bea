"""The heuristic cost-sensitive boosters: AdaCost, AdaC1-3 and CSB0-2.

Rules without a loss whose ``alpha`` they minimise exactly (Fan et al. 1999,
Sun et al. 2007, Ting 2000): the cost enters the weight update (and, for
AdaCost and Ting's rules, the initial weights and the vote). Each class is a
rule of :mod:`costsense.boosting._rules` and a docstring; change this module to
change what they say about themselves.
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
    """AdaCost (Fan et al. 1999): a cost-adjusted step inside the exponent.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    Notes
    -----
    See :class:`costsense.boosting._rules.AdaCost` for the formulas.
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaCost()


@documented_booster
class AdaC1Classifier(CostBoostingClassifier):
    """AdaC1 (Sun et al. 2007): the cost inside the exponent of the update.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC1()


@documented_booster
class AdaC2Classifier(CostBoostingClassifier):
    """AdaC2 (Sun et al. 2007): the cost outside the exponent of the update.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC2()


@documented_booster
class AdaC3Classifier(CostBoostingClassifier):
    """AdaC3 (Sun et al. 2007): the cost inside and outside the exponent.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC3()


@documented_booster
class CSB0Classifier(CostBoostingClassifier):
    """CSB0 (Ting 2000): misclassified weights times their cost, no exponent.

    Predicts the class of minimum expected cost under the weighted votes.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB0()


@documented_booster
class CSB1Classifier(CostBoostingClassifier):
    """CSB1 (Ting 2000): ``D <- k D exp(-y h)``, a fixed unit step.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB1()


@documented_booster
class CSB2Classifier(CostBoostingClassifier):
    """CSB2 (Ting 2000): ``D <- k D exp(-alpha y h)`` with AdaBoost's alpha.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB2()
