"""Cost-sensitive boosting: one engine, one small rule per variant (papers 000, 001).

Discrete variants (a weak classifier per round, ``H = sign(sum alpha h)``):
:class:`AdaBoostClassifier` (the reference), :class:`AdaBoostCClassifier`,
:class:`AdaCostClassifier`, :class:`AdaC1Classifier`, :class:`AdaC2Classifier`,
:class:`AdaC3Classifier`, :class:`CSB0Classifier`, :class:`CSB1Classifier`,
:class:`CSB2Classifier`, :class:`AsymBoostClassifier`, :class:`AsyBClassifier`.
LogitBoost variants (a regressor per round): :class:`AsyBLClassifier`,
:class:`AsymLogitBoostClassifier`. And the strongest simple baseline:
:class:`CalibratedAdaBoostClassifier` (AdaBoost, Platt scaling, Bayes threshold).
Paper 003: :class:`EFSBoostClassifier` (AdaBoost.M1 over naive Bayes with feature
selection in every round), the paper's system :class:`OBPDEFSBoostClassifier`
(OBPD balancing, then EFSBoost), and AdaBoost with an oversampler in every round,
:class:`SMOTEBoostClassifier`, :class:`RWOBoostClassifier` and
:class:`OBPDBoostClassifier`.

On many rows give any booster the compiled tree of :mod:`costsense.tree`
(``AsyBClassifier(CostSensitiveTreeClassifier(max_depth=3, splitter="hist"))``,
``CostSensitiveTreeRegressor`` for LogitBoost), whose bins are made once per
boosting fit. It is not the default: scikit-learn's exact trees keep the
reductions exact (AsyB with ``C1 = C2`` is scikit-learn's AdaBoost, tested).
"""

from __future__ import annotations

from costsense.boosting._adaboost import AdaBoostCClassifier, AdaBoostClassifier
from costsense.boosting._asymmetric import (
    AsyBClassifier,
    AsyBLClassifier,
    AsymBoostClassifier,
    AsymLogitBoostClassifier,
)
from costsense.boosting._calibrated import CalibratedAdaBoostClassifier
from costsense.boosting._efs import EFSBoostClassifier
from costsense.boosting._heuristic import (
    AdaC1Classifier,
    AdaC2Classifier,
    AdaC3Classifier,
    AdaCostClassifier,
    CSB0Classifier,
    CSB1Classifier,
    CSB2Classifier,
)
from costsense.boosting._obpd_efs import OBPDEFSBoostClassifier
from costsense.boosting._oversampling import (
    OBPDBoostClassifier,
    RWOBoostClassifier,
    SMOTEBoostClassifier,
)

__all__ = [
    "AdaBoostCClassifier",
    "AdaBoostClassifier",
    "AdaC1Classifier",
    "AdaC2Classifier",
    "AdaC3Classifier",
    "AdaCostClassifier",
    "AsyBClassifier",
    "AsyBLClassifier",
    "AsymBoostClassifier",
    "AsymLogitBoostClassifier",
    "CSB0Classifier",
    "CSB1Classifier",
    "CSB2Classifier",
    "CalibratedAdaBoostClassifier",
    "EFSBoostClassifier",
    "OBPDBoostClassifier",
    "OBPDEFSBoostClassifier",
    "RWOBoostClassifier",
    "SMOTEBoostClassifier",
]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__
