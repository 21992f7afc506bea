"""How each named model of the catalog is built, importing its class only when built.

Every builder takes ``(base, cost, pos_label, seed)``: the base learner (ignored
by the models that use none), any class-level cost of :mod:`costsense.costs`, the
positive class and the seed of every random part. The catalog
(:mod:`costsense.experiments._catalog`) holds one per model; a builder imports its
estimator's module when it is called, so reading the catalog (``costsense
--help``, ``costsense models``, the refusals before a fit) imports nothing heavy,
and a command imports only the models it fits.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = [
    "Builder",
    "balanced_random_forest",
    "booster",
    "cbrf",
    "csldm",
    "cssvm",
    "easy_ensemble",
    "efsboost",
    "forest",
    "ldm",
    "minimum_cost",
    "obpd_efsboost",
    "obpdboost",
    "plain",
    "random_forest",
    "rusboost",
    "svm",
    "tuned_threshold",
    "wrapper",
]

#: ``(base, cost, pos_label, seed) -> unfitted classifier``.
Builder = Callable[[Any, Any, Any, int], Any]


def _load(path: str) -> Any:
    """Return the object named ``"module:name"``, importing its module."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def booster(path: str) -> Builder:
    """Build a booster of ``path`` on the base learner, with the costs and the seed."""

    def build(base: Any, cost: Any, pos: Any, seed: int) -> Any:
        return _load(path)(base, cost=cost, pos_label=pos, random_state=seed)

    return build


def wrapper(path: str, *, seeded: bool = False, **params: Any) -> Builder:
    """Build a rescaling wrapper of ``path`` around the base learner.

    ``seeded`` wrappers draw at random and get the seed; ``params`` are passed as
    they are.
    """

    def build(base: Any, cost: Any, pos: Any, seed: int) -> Any:
        extra = {"random_state": seed} if seeded else {}
        return _load(path)(base, cost=cost, pos_label=pos, **extra, **params)

    return build


def forest(criterion: str) -> Builder:
    """Paper 004's forest with ``criterion``, its trees grown by the paper's rule.

    100 trees (WEKA's default; the paper gives no number); the base learner is not
    used. Every tree splits on its best candidate whatever the gain
    (``min_impurity_decrease=None``): paper 004 does not restrict its trees, which
    grow to the maximum depth unless a node is below the minimum size (sect. 2.2
    and 4.1); ``min_impurity_decrease=0.0`` in a study's params gives our
    positive-gain variant.
    """

    def build(base: Any, cost: Any, pos: Any, seed: int) -> Any:
        return _load("costsense.tree:CostSensitiveForestClassifier")(
            criterion=criterion,
            min_impurity_decrease=None,
            cost=cost,
            pos_label=pos,
            random_state=seed,
        )

    return build


def plain(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Return the base learner itself, cost-blind."""
    return base


def efsboost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Paper 003's EFSBoost with its defaults (not cost-sensitive; no base)."""
    return _load("costsense.boosting:EFSBoostClassifier")()


def obpdboost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """OBPDBoost with the component count as paper 003 chooses it (Figueiredo-Jain)."""
    sampler = _load("costsense.sampling:OBPDSampler")(n_components="fj")
    return _load("costsense.boosting:OBPDBoostClassifier")(
        base, sampler=sampler, cost=cost, pos_label=pos, random_state=seed
    )


def obpd_efsboost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Build OBPD-EFSBoost (paper 003).

    OBPD balances the training rows once (the paper's Gibbs sampler, T = 100),
    then EFSBoost fits them.
    """
    return _load("costsense.boosting:OBPDEFSBoostClassifier")(
        sampling="gibbs", gibbs_steps=100, random_state=seed
    )


# margin learners (paper 002): the base learner is not used; every one gets the
# same tolerance and iteration cap (the baselines' defaults)
def svm(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Build the linear SVM: CS-SVM at equal costs."""
    return _load("costsense.margin:CSSVMClassifier")(
        cost=1.0, pos_label=pos, random_state=seed
    )


def cssvm(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """CS-SVM with costs in the unit of the cheaper error.

    The papers' ratios (``C2 = 1``) are used as they are, and money (per-row
    costs, the CLI's) in any currency gives the same model instead of scaling
    ``C`` by the price of an error.
    """
    return _load("costsense.margin:CSSVMClassifier")(
        cost=cost, pos_label=pos, cost_unit="cheaper", random_state=seed
    )


def ldm(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """LDM (Zhang & Zhou 2014), cost-blind."""
    return _load("costsense.margin:LDMClassifier")(random_state=seed)


def csldm(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """CS-LDM (paper 002), costs in the unit of the cheaper error (as :func:`cssvm`)."""
    return _load("costsense.margin:CSLDMClassifier")(
        cost=cost, pos_label=pos, cost_unit="cheaper", random_state=seed
    )


def cbrf(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Paper 004's classification-based random forest: Gini splits, a vote, no costs.

    Costs unused and no balancing; the ``gini-scores`` model keeps its splits and
    predicts from the leaves' mean task scores (the Bayes decision per leaf),
    separating the leaf rule from the impurity.
    """
    return _load("costsense.tree:CostSensitiveForestClassifier")(
        criterion="gini", min_impurity_decrease=None, cost="unit", random_state=seed
    )


def random_forest(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """scikit-learn's random forest, 100 trees."""
    return _load("sklearn.ensemble:RandomForestClassifier")(
        n_estimators=100, random_state=seed
    )


def balanced_random_forest(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """imbalanced-learn's forest, each tree on a balanced random undersample.

    Its documented future defaults are set here, so no warning is raised.
    """
    return _load("imblearn.ensemble:BalancedRandomForestClassifier")(
        n_estimators=100,
        sampling_strategy="all",
        replacement=True,
        bootstrap=False,
        random_state=seed,
    )


def minimum_cost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Build the estimator costsense recommends; the base learner is not used."""
    return _load("costsense.recommend:MinimumCostClassifier")(
        cost=cost, pos_label=pos, random_state=seed
    )


def rusboost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """Build RUSBoost (imbalanced-learn); the constant of least cost if it fails."""
    rus = _load("imblearn.ensemble:RUSBoostClassifier")(random_state=seed)
    return _load("costsense.experiments._constant:ConstantOnFailure")(
        rus, cost=cost, pos_label=pos
    )


def easy_ensemble(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """imbalanced-learn's EasyEnsemble (defaults); not cost-sensitive."""
    return _load("imblearn.ensemble:EasyEnsembleClassifier")(random_state=seed)


def tuned_threshold(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    """scikit-learn's threshold tuned by 5-fold cross-validation on the mean cost."""
    scorer = _load("costsense.metrics:make_cost_scorer")(cost, pos_label=pos)
    return _load("sklearn.model_selection:TunedThresholdClassifierCV")(
        base, scoring=scorer, cv=5, random_state=seed
    )
