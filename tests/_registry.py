"""Fast, small instances of every registered estimator, for the shared test suites.

Settings here only make the estimators cheap (fewer members, shallow trees); they never
change what a check asserts. An estimator missing from FAST_PARAMS is tested with its
defaults.
"""

from __future__ import annotations

from typing import Any

from sklearn.base import BaseEstimator
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense.sampling import OBPDSampler
from costsense.utils import all_estimators

_REGRESSOR = DecisionTreeRegressor(max_depth=2, random_state=0)

FAST_PARAMS: dict[str, dict[str, Any]] = {
    "RejectionSampling": {"n_estimators": 3},
    "MetaCost": {"n_estimators": 3},
    # LogitBoost variants boost regressors
    "AsyBLClassifier": {"estimator": _REGRESSOR, "n_estimators": 10},
    "AsymLogitBoostClassifier": {"estimator": _REGRESSOR, "n_estimators": 10},
    "AdaCostClassifier": {"n_estimators": 10},
    "AdaBoostClassifier": {"n_estimators": 10},
    "AdaBoostCClassifier": {"n_estimators": 10},
    "AdaC1Classifier": {"n_estimators": 10},
    "AdaC2Classifier": {"n_estimators": 10},
    "AdaC3Classifier": {"n_estimators": 10},
    "CSB0Classifier": {"n_estimators": 10},
    "CSB1Classifier": {"n_estimators": 10},
    "CSB2Classifier": {"n_estimators": 10},
    "AsymBoostClassifier": {"n_estimators": 10},
    "AsyBClassifier": {"n_estimators": 10},
    "CalibratedAdaBoostClassifier": {"n_estimators": 10},
    "OBPDSampler": {"max_components": 2},
    "CostSensitiveForestClassifier": {"n_estimators": 5},
    "SMOTEBoostClassifier": {"n_estimators": 5},
    "RWOBoostClassifier": {"n_estimators": 5},
    "OBPDBoostClassifier": {
        "n_estimators": 5,
        "sampler": OBPDSampler(max_components=2),
    },
    "EFSBoostClassifier": {"n_estimators": 10},
    "OBPDEFSBoostClassifier": {
        "n_estimators": 5,
        "sampling": "ancestral",
        "max_components": 2,
    },
    # a small forest read out of bag and a cross-validated logistic regression:
    # both ways to out-of-fold probabilities, at a tenth of the default's work
    "MinimumCostClassifier": {
        "candidates": [
            RandomForestClassifier(n_estimators=25, oob_score=True),
            LogisticRegression(),
        ],
        "cv": 3,
    },
}

#: Estimators whose constructor takes a base learner.
WRAPPED_BASE = {"estimator": DecisionTreeClassifier(max_depth=3, random_state=0)}


def fast_instance(cls: type[BaseEstimator], **overrides: Any) -> BaseEstimator:
    """A small, seeded instance of ``cls``."""
    params = dict(FAST_PARAMS.get(cls.__name__, {}))
    accepted = cls().get_params(deep=False)
    if "estimator" in accepted and accepted["estimator"] is None:
        params.setdefault("estimator", WRAPPED_BASE["estimator"])
    if "random_state" in accepted:
        params.setdefault("random_state", 0)
    params.update(overrides)
    return cls(**params)


def classifiers() -> list[type[BaseEstimator]]:
    return [cls for _, cls in all_estimators("classifier")]


def samplers() -> list[type[BaseEstimator]]:
    return [cls for _, cls in all_estimators("sampler")]


def takes(cls: type[BaseEstimator], name: str) -> bool:
    return name in cls().get_params(deep=False)
