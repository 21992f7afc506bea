"""Every named model of the command line and the studies: what it is, how it is built.

:data:`CATALOG` holds one :class:`ModelSpec` per name: where the method comes from,
whether it uses the costs or only names the positive class with them, which base
learners it accepts and which it takes by default, whether it handles more than two
classes and per-row (example-dependent) costs, and how it is built (a builder of
:mod:`costsense.experiments._builders`, which imports the model's class only when
called). The command line derives from it its lists (``costsense models``), its
refusals of an invalid model and base pair before any fit and what it says a model
ignores; the studies validate their algorithms against it, and
:func:`~costsense.experiments.make_model` builds from it. It imports nothing heavy,
so ``costsense --help`` stays fast.

A model is added here, once (a test fits every accepted model and base pair, and
checks that the model file allows every type it holds). Base learners are
:data:`costsense.experiments.BASES` (:mod:`costsense.experiments._bases`), whose
name lists a spec's ``bases`` are drawn from.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

from costsense.experiments import _builders as build
from costsense.experiments._bases import (
    BASE_NAMES,
    CLASSIFIER_BASES,
    PROBABILISTIC_BASES,
    REGRESSION_BASES,
)
from costsense.experiments._builders import Builder

__all__ = [
    "BASE_NAMES",
    "CATALOG",
    "CLASSIFIER_BASES",
    "ModelSpec",
    "check_pair",
    "decide",
    "decides_rows",
    "default_base",
    "refusals",
]


@dataclass(frozen=True)
class ModelSpec:
    """One named model: its source and what it accepts.

    Attributes
    ----------
    name : str
        The name given to ``--model`` and in study files.
    source : str
        The paper or library the method comes from.
    cost_sensitive : bool
        False when the method is cost-blind by design: the cost only names the
        positive class (or is not used at all).
    bases : tuple of str
        The base learners it accepts; empty when it uses none.
    default_base : str or None
        The base learner it takes when none is given.
    multiclass : bool
        Whether it handles more than two classes (with a K x K cost matrix).
    row_costs : bool
        Whether its ``fit`` takes per-row costs (``sample_cost``); such a model
        also decides each row with its own costs (:func:`decide`).
    theorems : bool
        Whether paper 001's theorems on AdaBoost's training error speak of its
        fits (at learning rate 1): the report checks them on its rounds.
    build : callable
        ``(base, cost, pos_label, seed) -> unfitted classifier``
        (:mod:`costsense.experiments._builders`); it imports the model's class
        when called.
    """

    name: str
    source: str
    cost_sensitive: bool = True
    bases: tuple[str, ...] = ()
    default_base: str | None = None
    multiclass: bool = False
    row_costs: bool = True
    theorems: bool = False
    build: Builder = field(kw_only=True, repr=False, compare=False)

    @property
    def uses_base(self) -> bool:
        """Whether the model is built on a base learner."""
        return bool(self.bases)


def _wrapper(name: str, source: str, **kwargs: object) -> ModelSpec:
    options: dict[str, object] = {
        "bases": CLASSIFIER_BASES,
        "default_base": "logistic",
        "multiclass": True,
    }
    options.update(kwargs)
    return ModelSpec(name, source, **options)  # type: ignore[arg-type]


def _booster(name: str, estimator: str, source: str, **kwargs: object) -> ModelSpec:
    """Describe a booster of :mod:`costsense.boosting` (class ``estimator``)."""
    options: dict[str, object] = {
        "bases": CLASSIFIER_BASES,
        "default_base": "entropy-tree",
        "build": build.booster(f"costsense.boosting:{estimator}"),
    }
    options.update(kwargs)
    return ModelSpec(name, source, **options)  # type: ignore[arg-type]


# paper 003's boosters: the AdaBoost rule with an oversampler, on naive Bayes
_PAPER_003_BOOSTER: dict[str, object] = {
    "cost_sensitive": False,
    "default_base": "discrete-naive-bayes",
    "row_costs": False,
}
_SPECS = (
    # the rescaling meta-methods: any scikit-learn classifier
    _wrapper("plain", "the base learner, cost-blind", cost_sensitive=False,
             row_costs=False, build=build.plain),
    _wrapper("weighting", "cost weighting (Elkan 2001)",
             build=build.wrapper("costsense.rescale:CostWeighting")),
    _wrapper("rejection", "cost-proportionate rejection sampling "
             "(Zadrozny et al. 2003)",
             build=build.wrapper("costsense.rescale:RejectionSampling", seeded=True)),
    _wrapper("threshold", "threshold moving (Elkan 2001)", bases=PROBABILISTIC_BASES,
             build=build.wrapper("costsense.rescale:ThresholdMoving")),
    _wrapper("threshold-calibrated", "threshold moving on sigmoid-calibrated "
             "probabilities (Elkan 2001; Platt 1999)",
             build=build.wrapper("costsense.rescale:ThresholdMoving",
                                 calibration="sigmoid")),
    _wrapper("metacost", "MetaCost (Domingos 1999)",
             build=build.wrapper("costsense.rescale:MetaCost", seeded=True)),
    # the boosting family (papers 000 and 001)
    _booster("adaboost", "AdaBoostClassifier",
             "AdaBoost (paper 001)", cost_sensitive=False,
             row_costs=False, theorems=True),
    _booster("adaboostc", "AdaBoostCClassifier",
             "AdaBoostC (Landesa-Vazquez & Alba-Castro 2012; paper 000)"),
    _booster("adacost", "AdaCostClassifier", "AdaCost (Fan et al. 1999; paper 000)"),
    _booster("adac1", "AdaC1Classifier", "AdaC1 (Sun et al. 2007; paper 000)"),
    _booster("adac2", "AdaC2Classifier", "AdaC2 (Sun et al. 2007; paper 000)"),
    _booster("adac3", "AdaC3Classifier", "AdaC3 (Sun et al. 2007; paper 000)"),
    _booster("csb0", "CSB0Classifier", "CSB0 (Ting 2000; paper 000)"),
    _booster("csb1", "CSB1Classifier", "CSB1 (Ting 2000; paper 000)"),
    _booster("csb2", "CSB2Classifier", "CSB2 (Ting 2000; paper 000)"),
    _booster("asymboost", "AsymBoostClassifier",
             "Asymmetric boosting (Masnadi-Shirazi & Vasconcelos 2007)"),
    _booster("asyb", "AsyBClassifier", "AsyB (paper 000, Algorithm 1)"),
    _booster("asybl", "AsyBLClassifier",
             "AsyBL (paper 000, Algorithm 2)", bases=REGRESSION_BASES,
             default_base="regression-tree"),
    _booster("asymlogitboost", "AsymLogitBoostClassifier",
             "Asymmetric LogitBoost (Masnadi-Shirazi & "
             "Vasconcelos 2011)", bases=REGRESSION_BASES,
             default_base="regression-tree"),
    _booster("calibrated-adaboost", "CalibratedAdaBoostClassifier",
             "calibrated AdaBoost, Bayes threshold "
             "(Nikolaou et al. 2016)"),
    # oversampling and feature selection in boosting (paper 003): cost-blind
    ModelSpec("efsboost", "EFSBoost (paper 003)", cost_sensitive=False,
              row_costs=False, build=build.efsboost),
    _booster("smoteboost", "SMOTEBoostClassifier",
             "SMOTEBoost (Chawla et al. 2003; paper 003)",
             **_PAPER_003_BOOSTER),
    _booster("rwoboost", "RWOBoostClassifier",
             "RWOBoost (paper 003)", **_PAPER_003_BOOSTER),
    _booster("obpdboost", "OBPDBoostClassifier", "OBPDBoost (paper 003)",
             **{**_PAPER_003_BOOSTER, "build": build.obpdboost}),
    ModelSpec("obpd-efsboost", "OBPD-EFSBoost (paper 003)", cost_sensitive=False,
              row_costs=False, build=build.obpd_efsboost),
    # margin learners (paper 002)
    ModelSpec("svm", "linear SVM (paper 002's baseline)", cost_sensitive=False,
              row_costs=False, build=build.svm),
    ModelSpec("cssvm", "cost-sensitive linear SVM (paper 002's baseline)",
              build=build.cssvm),
    ModelSpec("ldm", "LDM (Zhang & Zhou 2014; paper 002)", cost_sensitive=False,
              row_costs=False, build=build.ldm),
    ModelSpec("csldm", "CS-LDM (paper 002)", build=build.csldm),
    # forests (paper 004)
    ModelSpec("cbrf", "CBRF, classification-based random forest: Gini on the "
              "labels, a vote, no costs (paper 004's baseline)",
              cost_sensitive=False, multiclass=True, row_costs=False,
              build=build.cbrf),
    ModelSpec("gini-scores", "Gini forest deciding by the leaves' costs (paper 004)",
              multiclass=True, build=build.forest("gini")),
    ModelSpec("gcsrf", "G-CSRF, cost-sensitive Gini (paper 004)", multiclass=True,
              build=build.forest("cs_gini")),
    ModelSpec("pdcsrf", "PD-CSRF, pairwise-difference impurity (paper 004)",
              multiclass=True, build=build.forest("pairwise")),
    ModelSpec("random-forest", "scikit-learn's random forest", cost_sensitive=False,
              multiclass=True, row_costs=False, build=build.random_forest),
    ModelSpec("balanced-random-forest", "imbalanced-learn's balanced random forest",
              cost_sensitive=False, multiclass=True, row_costs=False,
              build=build.balanced_random_forest),
    # the estimator costsense recommends, and peers
    ModelSpec("minimum-cost", "MinimumCostClassifier (costsense)", multiclass=True,
              build=build.minimum_cost),
    ModelSpec("rusboost", "imbalanced-learn's RUSBoost", cost_sensitive=False,
              multiclass=True, row_costs=False, build=build.rusboost),
    ModelSpec("easy-ensemble", "imbalanced-learn's EasyEnsemble", cost_sensitive=False,
              multiclass=True, row_costs=False, build=build.easy_ensemble),
    _wrapper("tuned-threshold", "scikit-learn's TunedThresholdClassifierCV on the "
             "mean cost", multiclass=False, row_costs=False,
             build=build.tuned_threshold),
)  # fmt: skip

#: Every named model, by name, in the order ``costsense models`` lists them.
CATALOG: dict[str, ModelSpec] = {spec.name: spec for spec in _SPECS}


def decide(model: Any, X: Any, sample_cost: Any = None) -> Any:
    """Predict ``X``; with the rows' own costs, decide each row by them.

    The one decision of ``costsense evaluate`` and ``costsense predict``: a
    model (or a pipeline ending in one) whose ``predict`` takes ``sample_cost``
    and that gives probabilities decides each row with its own costs, as
    ``model.predict(X, sample_cost=...)`` does through the Python API; any other
    model (or ``sample_cost=None``) decides as ``model.predict(X)``. Margin
    models fitted without Platt scaling, and cost weighting on a base learner
    without probabilities, give none and so decide at the training costs.

    Parameters
    ----------
    model : fitted classifier or pipeline
        The model.
    X : array-like of shape (n_samples, n_features)
        The rows to decide.
    sample_cost : Costs, ExampleCosts or array-like, default=None
        The rows' costs (one matrix per row, four-part costs or costcla rows).

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    final = model[-1] if hasattr(model, "steps") else model
    if sample_cost is None or not decides_rows(final):
        return model.predict(X)
    return model.predict(X, sample_cost=sample_cost)


def decides_rows(model: Any) -> bool:
    """Whether a fitted model decides each row by its own costs (:func:`decide`)."""
    takes = "sample_cost" in inspect.signature(model.predict).parameters
    return takes and hasattr(model, "predict_proba")


def default_base(model: str) -> str:
    """Name the base learner a model takes when none is given.

    A model that uses no base learner gets "logistic" (which it ignores).

    Parameters
    ----------
    model : str
        A name of :data:`CATALOG`.

    Returns
    -------
    str
    """
    return CATALOG[model].default_base or "logistic"


def check_pair(model: str, base: str | None) -> str | None:
    """Why ``model`` cannot run on ``base``, or None when it can.

    Parameters
    ----------
    model : str
        A model name.
    base : str or None
        A base learner name; None means the model's default.

    Returns
    -------
    str or None
        A message naming the valid bases, or None. A model that uses no base
        learner accepts any (it ignores it; the caller says so); a name the
        catalog does not hold is not checked.
    """
    spec = CATALOG.get(model)
    if spec is None or base is None or not spec.uses_base or base in spec.bases:
        return None
    return (
        f"model {model!r} does not run on base {base!r}; its bases are "
        f"{', '.join(spec.bases)} (default {spec.default_base})"
    )


def refusals(
    models: list[str],
    base: str | None = None,
    *,
    n_classes: int = 2,
    row_costs: bool = False,
) -> list[tuple[str, str]]:
    """Why the models cannot run as asked: the one check before any fit.

    Parameters
    ----------
    models : list of str
        Model names.
    base : str, default=None
        The base learner asked for (None: each model's default).
    n_classes : int, default=2
        Classes of the target.
    row_costs : bool, default=False
        Whether per-row costs are given.

    Returns
    -------
    list of (str, str)
        ``(option, message)`` pairs, the option being the command-line option at
        fault (``"--model"``, ``"--base"`` or ``"--fn-cost"``, the first per-row
        cost option); empty when every model can run. Unknown names, then names
        given twice, are reported alone.
    """
    unknown = [m for m in models if m not in CATALOG]
    if unknown:
        return [("--model", f"unknown models {unknown}; `costsense models` lists them")]
    twice = sorted({m for m in models if models.count(m) > 1})
    if twice:
        # one row per model and fold: a second copy would fit the same again
        return [("--model", f"{twice} named more than once; name each model once")]
    found = [("--base", p) for m in models if (p := check_pair(m, base)) is not None]
    binary_only = [m for m in models if not CATALOG[m].multiclass]
    if n_classes > 2 and binary_only:
        takers = ", ".join(n for n, s in CATALOG.items() if s.multiclass)
        found.append(
            (
                "--model",
                f"{binary_only} handle two classes only and the target has "
                f"{n_classes}; multiclass models: {takers}",
            )
        )
    fixed = [m for m in models if not CATALOG[m].row_costs]
    if row_costs and fixed:
        takers = ", ".join(n for n, s in CATALOG.items() if s.row_costs)
        found.append(
            (
                "--fn-cost",
                f"models {fixed} do not take per-row costs (a cost column); these "
                f"do: {takers}",
            )
        )
    return found
