"""Every named base learner of the command line and the studies: what it is, how built.

:data:`BASES` holds one :class:`BaseSpec` per name: the estimator class (as
``"module:Class"``, imported only when a learner is built), its parameters,
whether it takes the seed, whether it is a classifier or a regressor and whether it
gives class probabilities. The name lists the catalog and the command line use
(:data:`CLASSIFIER_BASES`, :data:`PROBABILISTIC_BASES`, :data:`REGRESSION_BASES`,
:data:`BASE_NAMES`) are derived from it, so a base learner is described once. It
imports nothing heavy, so ``costsense --help`` stays fast.

A base learner is added here, once; the models that accept it say so in their
:class:`~costsense.experiments.ModelSpec` (``bases``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "BASES",
    "BASE_NAMES",
    "CLASSIFIER_BASES",
    "PROBABILISTIC_BASES",
    "REGRESSION_BASES",
    "BaseSpec",
]


@dataclass(frozen=True)
class BaseSpec:
    """One named base learner: its estimator, parameters and what it gives.

    Attributes
    ----------
    name : str
        The name given to ``--base`` and in study files.
    estimator : str
        Its class as ``"module:Class"``; imported when a learner is built.
    params : mapping
        Keyword arguments of the class.
    seeded : bool
        Whether it draws at random and gets the seed as ``random_state``.
    kind : {"classifier", "regressor"}
        A classifier taking ``sample_weight``, or a regressor (the base of the
        LogitBoost variants).
    probabilistic : bool
        Whether, as a classifier, it gives class probabilities.
    note : str
        Why it is set up this way, when that is not obvious.
    """

    name: str
    estimator: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seeded: bool = True
    kind: Literal["classifier", "regressor"] = "classifier"
    probabilistic: bool = True
    note: str = ""

    def build(self, seed: int) -> Any:
        """Return a new, unfitted learner (``seed`` as ``random_state`` if seeded)."""
        module, _, name = self.estimator.partition(":")
        estimator_class = getattr(importlib.import_module(module), name)
        extra = {"random_state": seed} if self.seeded else {}
        return estimator_class(**self.params, **extra)


_SPECS = (
    BaseSpec("logistic", "sklearn.linear_model:LogisticRegression",
             {"max_iter": 1000}, seeded=False),
    BaseSpec("tree", "sklearn.tree:DecisionTreeClassifier", {"min_samples_leaf": 5}),
    BaseSpec("naive-bayes", "sklearn.naive_bayes:GaussianNB", seeded=False),
    BaseSpec("discrete-naive-bayes",
             "costsense.naive_bayes:DiscreteNaiveBayesClassifier",
             {"weights_as": "proportions"}, seeded=False,
             note="paper 003's counting naive Bayes (equation 8) on ten weighted "
             "equal-frequency bins; the boosters pass a distribution, read as that "
             "many rows"),
    BaseSpec("stump", "sklearn.tree:DecisionTreeClassifier", {"max_depth": 1},
             note="boosting's weak learner (paper 000)"),
    BaseSpec("entropy-tree", "sklearn.tree:DecisionTreeClassifier",
             {"criterion": "entropy", "max_depth": 4},
             note="C4.5 stand-in, depth-limited: an unpruned tree is perfect on its "
             "training set in round 1, and boosting then stops at once"),
    BaseSpec("perceptron", "sklearn.linear_model:Perceptron", probabilistic=False),
    BaseSpec("forest", "sklearn.ensemble:RandomForestClassifier",
             {"n_estimators": 100},
             note="a peer of the recommended estimator (study 'recommended')"),
    BaseSpec("hist-gradient-boosting",
             "sklearn.ensemble:HistGradientBoostingClassifier",
             note="a peer of the recommended estimator (study 'recommended')"),
    BaseSpec("regression-tree", "sklearn.tree:DecisionTreeRegressor",
             {"max_depth": 3}, kind="regressor", probabilistic=False,
             note="CART regression tree: the base of the LogitBoost variants (AsyBL)"),
)  # fmt: skip

#: Every named base learner, by name, in the order ``costsense models`` lists them.
BASES: dict[str, BaseSpec] = {spec.name: spec for spec in _SPECS}

#: Classifiers taking ``sample_weight`` (every base learner but the regressors).
CLASSIFIER_BASES = tuple(s.name for s in _SPECS if s.kind == "classifier")
#: Classifiers with class probabilities (the perceptron has none).
PROBABILISTIC_BASES = tuple(
    s.name for s in _SPECS if s.kind == "classifier" and s.probabilistic
)
#: Regressors: the base learners of the LogitBoost variants.
REGRESSION_BASES = tuple(s.name for s in _SPECS if s.kind == "regressor")
#: Every base learner name, classifiers first.
BASE_NAMES = CLASSIFIER_BASES + REGRESSION_BASES
