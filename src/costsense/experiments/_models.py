"""Named models for the command line and the studies.

A model is named ``"<method>"`` and built on a named base learner; every model is a
scikit-learn pipeline whose preprocessing (scaling) is fitted inside each training fold
only, followed by the cost-sensitive wrapper around the base learner. The wrapper goes
last so that it sees the costs and the base learner receives ``sample_weight`` directly.
The scaling is a parameter of :func:`make_model`: a name of :data:`SCALERS` (a
study's ``protocol.scale``) or any transformer.

Categorical columns given as codes (a study's ``protocol.categorical =
"ordinal"``) are declared to the model by :func:`make_model`'s
``categorical_features``: the scaling leaves them as they are
(:class:`ScaleContinuous`), and the method gets them as its own
``categorical_features`` (the resampling boosters, EFSBoost, OBPD-EFSBoost, which
pass them to their sampler and naive Bayes) or, failing that, its base learner does
(the counting naive Bayes under AdaBoost). A method that takes none reads the codes
as numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from imblearn.ensemble import (
    BalancedRandomForestClassifier,
    EasyEnsembleClassifier,
    RUSBoostClassifier,
)
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression, Perceptron
from sklearn.model_selection import TunedThresholdClassifierCV
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense import boosting, margin, tree
from costsense.costs import as_cost_matrix, bayes_decision
from costsense.metrics import make_cost_scorer
from costsense.naive_bayes import DiscreteNaiveBayesClassifier
from costsense.recommend import MinimumCostClassifier
from costsense.rescale import (
    CostWeighting,
    MetaCost,
    RejectionSampling,
    ThresholdMoving,
)
from costsense.sampling import OBPDSampler

__all__ = ["BASE_LEARNERS", "METHODS", "SCALERS", "ScaleContinuous", "make_model"]

#: Scalings by name, fitted on each training fold: ``"none"`` leaves the features.
SCALERS: dict[str, Callable[[], TransformerMixin | str]] = {
    "standard": StandardScaler,
    "minmax": MinMaxScaler,
    "none": lambda: "passthrough",
}

#: Base learners by name: a factory taking a seed.
BASE_LEARNERS: dict[str, Callable[[int], BaseEstimator]] = {
    "logistic": lambda seed: LogisticRegression(max_iter=1000),
    "tree": lambda seed: DecisionTreeClassifier(min_samples_leaf=5, random_state=seed),
    "naive-bayes": lambda seed: GaussianNB(),
    # paper 003's counting naive Bayes (equation 8) on ten weighted equal-frequency
    # bins; the boosters pass a distribution, read as that many rows
    "discrete-naive-bayes": lambda seed: DiscreteNaiveBayesClassifier(
        weights_as="proportions"
    ),
    # boosting's weak learners (paper 000)
    "stump": lambda seed: DecisionTreeClassifier(max_depth=1, random_state=seed),
    # C4.5 stand-in: an entropy tree, depth-limited (an unpruned tree is perfect on
    # its training set in round 1, and boosting then stops at once)
    "entropy-tree": lambda seed: DecisionTreeClassifier(
        criterion="entropy", max_depth=4, random_state=seed
    ),
    "perceptron": lambda seed: Perceptron(random_state=seed),
    # CART regression tree: the base of the LogitBoost variants (AsyBL)
    "regression-tree": lambda seed: DecisionTreeRegressor(
        max_depth=3, random_state=seed
    ),
    # the peers of the recommended estimator (study "recommended"): with
    # "weighting" they are trained with the costs as class weights
    "forest": lambda seed: RandomForestClassifier(n_estimators=100, random_state=seed),
    "hist-gradient-boosting": lambda seed: HistGradientBoostingClassifier(
        random_state=seed
    ),
}


def _booster(cls: type) -> Callable[[BaseEstimator, Any, Any, int], BaseEstimator]:
    def build(base: BaseEstimator, cost: Any, pos: Any, seed: int) -> BaseEstimator:
        return cls(base, cost=cost, pos_label=pos, random_state=seed)

    return build


def _forest(criterion: str) -> Callable[[BaseEstimator, Any, Any, int], BaseEstimator]:
    def build(base: BaseEstimator, cost: Any, pos: Any, seed: int) -> BaseEstimator:
        return tree.CostSensitiveForestClassifier(
            criterion=criterion,
            min_impurity_decrease=None,  # paper 004's split rule (see METHODS)
            cost=cost,
            pos_label=pos,
            random_state=seed,
        )

    return build


class _ConstantOnFailure(ClassifierMixin, BaseEstimator):
    """Fit ``estimator``; if its fit raises, predict the class of least cost.

    imbalanced-learn's RUSBoost (scikit-learn's AdaBoost underneath) raises when
    its first weak learner is worse than random, which a balanced undersample of
    a hard set often makes it. A study must go on: the model then predicts the
    constant class of least training cost (``cost_matrix[i, j]`` summed over the
    training labels), with the training frequencies as probabilities, and keeps
    the error in ``stop_reason_``; the report lists it among the degenerate fits
    (it predicts one class). ``benchmarks/recommended.py`` scores such a fit the
    same way.
    """

    def __init__(
        self, estimator: Any = None, *, cost: Any = None, pos_label: Any = None
    ) -> None:
        self.estimator = estimator
        self.cost = cost
        self.pos_label = pos_label

    def fit(self, X: Any, y: Any) -> _ConstantOnFailure:
        """Fit the estimator, or the constant of least cost if it raises."""
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        self.stop_reason_ = "fitted"
        try:
            self.estimator_: Any = clone(self.estimator).fit(X, y)
            return self
        except ValueError as error:
            self.stop_reason_ = f"failed, constant of least cost: {error}"
        counts = np.array([np.sum(y == c) for c in self.classes_], dtype=float)
        matrix = as_cost_matrix(self.cost, self.classes_, self.pos_label, y=y)
        self.prior_ = counts / counts.sum()
        self.constant_ = self.classes_[bayes_decision(self.prior_[None, :], matrix)[0]]
        self.estimator_ = None
        return self

    def predict(self, X: Any) -> Any:
        """Predict with the estimator, or the constant."""
        if self.estimator_ is not None:
            return self.estimator_.predict(X)
        return np.full(np.asarray(X).shape[0], self.constant_)

    def predict_proba(self, X: Any) -> Any:
        """Probabilities of the estimator, or the training frequencies."""
        if self.estimator_ is not None:
            return self.estimator_.predict_proba(X)
        return np.tile(self.prior_, (np.asarray(X).shape[0], 1))


def _plain(base: BaseEstimator, cost: Any, pos_label: Any, seed: int) -> BaseEstimator:
    return base


#: Cost-sensitive methods by name: (base, cost, pos_label, seed) -> classifier.
METHODS: dict[str, Callable[[BaseEstimator, Any, Any, int], BaseEstimator]] = {
    "plain": _plain,
    "weighting": lambda base, cost, pos, seed: CostWeighting(
        base, cost=cost, pos_label=pos
    ),
    "rejection": lambda base, cost, pos, seed: RejectionSampling(
        base, cost=cost, pos_label=pos, random_state=seed
    ),
    "threshold": lambda base, cost, pos, seed: ThresholdMoving(
        base, cost=cost, pos_label=pos
    ),
    "threshold-calibrated": lambda base, cost, pos, seed: ThresholdMoving(
        base, cost=cost, pos_label=pos, calibration="sigmoid"
    ),
    "metacost": lambda base, cost, pos, seed: MetaCost(
        base, cost=cost, pos_label=pos, random_state=seed
    ),
    # the boosting family (papers 000, 001)
    "adaboost": _booster(boosting.AdaBoostClassifier),
    "adaboostc": _booster(boosting.AdaBoostCClassifier),
    "adacost": _booster(boosting.AdaCostClassifier),
    "adac1": _booster(boosting.AdaC1Classifier),
    "adac2": _booster(boosting.AdaC2Classifier),
    "adac3": _booster(boosting.AdaC3Classifier),
    "csb0": _booster(boosting.CSB0Classifier),
    "csb1": _booster(boosting.CSB1Classifier),
    "csb2": _booster(boosting.CSB2Classifier),
    "asymboost": _booster(boosting.AsymBoostClassifier),
    "asyb": _booster(boosting.AsyBClassifier),
    "asybl": _booster(boosting.AsyBLClassifier),
    "asymlogitboost": _booster(boosting.AsymLogitBoostClassifier),
    "calibrated-adaboost": _booster(boosting.CalibratedAdaBoostClassifier),
    # oversampling and feature selection in boosting (paper 003); not
    # cost-sensitive: the costs only name the positive class
    "efsboost": lambda base, cost, pos, seed: boosting.EFSBoostClassifier(),
    "smoteboost": _booster(boosting.SMOTEBoostClassifier),
    "rwoboost": _booster(boosting.RWOBoostClassifier),
    # OBPD's component count as paper 003 chooses it: Figueiredo & Jain's MML
    "obpdboost": lambda base, cost, pos, seed: boosting.OBPDBoostClassifier(
        base,
        sampler=OBPDSampler(n_components="fj"),
        cost=cost,
        pos_label=pos,
        random_state=seed,
    ),
    # OBPD once to balance the training fold (the paper's Gibbs sampler, T = 100),
    # then EFSBoost
    "obpd-efsboost": lambda base, cost, pos, seed: boosting.OBPDEFSBoostClassifier(
        sampling="gibbs", gibbs_steps=100, random_state=seed
    ),
    # margin learners (paper 002): the base learner is not used; every one gets
    # the same tolerance and iteration cap (the baselines' defaults)
    "svm": lambda base, cost, pos, seed: margin.CSSVMClassifier(
        cost=1.0, pos_label=pos, random_state=seed
    ),
    # costs in the unit of the cheaper error: the papers' ratios (C2 = 1) are
    # used as they are, and money (per-row costs, the CLI's) in any currency
    # gives the same model instead of scaling C by the price of an error
    "cssvm": lambda base, cost, pos, seed: margin.CSSVMClassifier(
        cost=cost, pos_label=pos, cost_unit="cheaper", random_state=seed
    ),
    "ldm": lambda base, cost, pos, seed: margin.LDMClassifier(random_state=seed),
    "csldm": lambda base, cost, pos, seed: margin.CSLDMClassifier(
        cost=cost, pos_label=pos, cost_unit="cheaper", random_state=seed
    ),
    # forests (paper 004), 100 trees (WEKA's default; the paper gives no number);
    # the base learner is not used. Every tree splits on its best candidate
    # whatever the gain (min_impurity_decrease=None): paper 004 does not restrict
    # its trees, which grow to the maximum depth unless a node is below the
    # minimum size (sect. 2.2 and 4.1); min_impurity_decrease=0.0 in a study's
    # params gives our positive-gain variant. CBRF is the paper's
    # classification-based random forest: Gini splits on the labels and a vote
    # of the label frequencies, costs unused, no balancing; "gini-scores" keeps
    # its splits and predicts from the leaves' mean task scores (the Bayes
    # decision per leaf), separating the leaf rule from the impurity
    "cbrf": lambda base, cost, pos, seed: tree.CostSensitiveForestClassifier(
        criterion="gini", min_impurity_decrease=None, cost=None, random_state=seed
    ),
    "gini-scores": _forest("gini"),
    "gcsrf": _forest("cs_gini"),
    "pdcsrf": _forest("pairwise"),
    "random-forest": lambda base, cost, pos, seed: RandomForestClassifier(
        n_estimators=100, random_state=seed
    ),
    # imbalanced-learn's forest: each tree on a balanced random undersample
    # (its documented future defaults, set here so no warning is raised)
    "balanced-random-forest": lambda base, cost, pos, seed: (
        BalancedRandomForestClassifier(
            n_estimators=100,
            sampling_strategy="all",
            replacement=True,
            bootstrap=False,
            random_state=seed,
        )
    ),
    # the estimator costsense recommends; the base learner is not used
    "minimum-cost": lambda base, cost, pos, seed: MinimumCostClassifier(
        cost=cost, pos_label=pos, random_state=seed
    ),
    # imbalanced-learn's ensembles of undersampled learners (defaults); not
    # cost-sensitive, the base learner is not used
    "rusboost": lambda base, cost, pos, seed: _ConstantOnFailure(
        RUSBoostClassifier(random_state=seed), cost=cost, pos_label=pos
    ),
    "easy-ensemble": lambda base, cost, pos, seed: EasyEnsembleClassifier(
        random_state=seed
    ),
    # scikit-learn's threshold tuned by 5-fold CV on the mean cost
    "tuned-threshold": lambda base, cost, pos, seed: TunedThresholdClassifierCV(
        base, scoring=make_cost_scorer(cost, pos_label=pos), cv=5, random_state=seed
    ),
}


class ScaleContinuous(TransformerMixin, BaseEstimator):
    """Scale the continuous columns only; categorical codes pass unchanged.

    The columns keep their order (scikit-learn's ``ColumnTransformer`` would move
    the passed-through ones to the end, and the declared indices would then name
    other columns).

    Parameters
    ----------
    scaler : transformer or "passthrough", default="passthrough"
        Fitted (a clone) on the continuous columns of the training rows.
    categorical_features : sequence of int, default=()
        Indices of the columns left as they are.

    Attributes
    ----------
    continuous_ : ndarray of bool of shape (n_features_in_,)
        The columns the scaler transforms.
    scaler_ : transformer or None
        The fitted scaler (None with "passthrough" or no continuous column).
    n_features_in_ : int
        Number of columns seen in fit.
    """

    def __init__(
        self, scaler: Any = "passthrough", categorical_features: Sequence[int] = ()
    ) -> None:
        self.scaler = scaler
        self.categorical_features = categorical_features

    def fit(self, X: Any, y: Any = None) -> ScaleContinuous:
        """Fit the scaler on the continuous columns of ``X``."""
        X = np.asarray(X, dtype=np.float64)
        self.n_features_in_ = X.shape[1]
        self.continuous_ = np.ones(X.shape[1], dtype=bool)
        self.continuous_[list(self.categorical_features)] = False
        self.scaler_ = None
        if self.scaler != "passthrough" and self.continuous_.any():
            self.scaler_ = clone(self.scaler).fit(X[:, self.continuous_])
        return self

    def transform(self, X: Any) -> np.ndarray:
        """Return ``X`` with its continuous columns scaled, in the same order."""
        X = np.array(X, dtype=np.float64)  # a copy: the input is not changed
        if self.scaler_ is not None:
            X[:, self.continuous_] = self.scaler_.transform(X[:, self.continuous_])
        return X


def _declare_categorical(model: BaseEstimator, columns: list[int]) -> None:
    """Give ``model`` (or else its base learner) the categorical columns."""
    params = model.get_params(deep=False)
    if "categorical_features" in params:
        model.set_params(categorical_features=columns)
        return
    base = params.get("estimator")
    if base is not None and "categorical_features" in base.get_params(deep=False):
        model.set_params(estimator=clone(base).set_params(categorical_features=columns))


def make_model(
    method: str,
    *,
    base: str = "logistic",
    cost: Any,
    pos_label: Any,
    seed: int = 0,
    scaler: str | TransformerMixin = "standard",
    prepare: TransformerMixin | None = None,
    categorical_features: Iterable[int] = (),
) -> Pipeline:
    """Build a named cost-sensitive model as a pipeline ``scale -> method(base)``.

    Parameters
    ----------
    method : str
        A key of :data:`METHODS` ("plain" is the cost-blind base learner).
    base : str, default="logistic"
        A key of :data:`BASE_LEARNERS`.
    cost : cost specification
        Any class-level form of :mod:`costsense.costs`.
    pos_label : hashable
        The positive (costly) class.
    seed : int, default=0
        Seed of every random part of the model.
    scaler : str or transformer, default="standard"
        The first step: a key of :data:`SCALERS` (``"none"`` for no scaling), or
        an unfitted transformer (cloned).
    prepare : transformer, default=None
        A step before the scaling (cloned): the column encoder and imputer of a
        table, for example.
    categorical_features : sequence of int, default=()
        Columns holding category codes: the scaling leaves them
        (:class:`ScaleContinuous`), and the method, or else its base learner, gets
        them as ``categorical_features`` when it takes that parameter.

    Returns
    -------
    sklearn.pipeline.Pipeline
        Unfitted; the steps ``"prepare"`` (when given), ``"scale"`` and
        ``"model"``.
    """
    if method not in METHODS:
        raise ValueError(f"model {method!r} is unknown; choose from {sorted(METHODS)}.")
    if base not in BASE_LEARNERS:
        raise ValueError(
            f"base {base!r} is unknown; choose from {sorted(BASE_LEARNERS)}."
        )
    if isinstance(scaler, str):
        if scaler not in SCALERS:
            raise ValueError(
                f"scaler {scaler!r} is unknown; choose from {sorted(SCALERS)} "
                "or give a transformer."
            )
        scale = SCALERS[scaler]()
    else:
        scale = clone(scaler)
    columns = [int(column) for column in categorical_features]
    if columns:
        scale = ScaleContinuous(scale, categorical_features=columns)
    learner = BASE_LEARNERS[base](seed)
    model = METHODS[method](learner, cost, pos_label, seed)
    if columns:
        _declare_categorical(model, columns)
    steps = [("scale", scale), ("model", model)]
    if prepare is not None:
        steps.insert(0, ("prepare", clone(prepare)))
    return Pipeline(steps)
