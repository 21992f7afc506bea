"""EFSBoost: AdaBoost.M1 over naive Bayes, selecting features each round (paper 003).

Paper 003, algorithm 2 (steps 2-11; step 1, OBPD oversampling, is
:class:`costsense.sampling.OBPDSampler`; both together are
:class:`costsense.boosting.OBPDEFSBoostClassifier`). Each round fits naive Bayes on
the current feature subset with the boosting weights: the paper's counting naive
Bayes on discretised features (equation 8,
:class:`costsense.naive_bayes.DiscreteNaiveBayesClassifier`, ten weighted
equal-frequency bins per feature, the weights read as ``W D`` rows for starting
weights of total ``W``: ``n D`` without ``sample_weight``) by default, or
Gaussian naive Bayes (``naive_bayes="gaussian"``). With the weighted error ``e``:

- ``beta = e / (1 - e)``, ``alpha = 1/2 ln(1 / beta)``; the weights of the correctly
  classified rows are multiplied by ``beta``, then all are normalised (AdaBoost.M1,
  Freund & Schapire 1997; the paper's ``1/2`` only scales the votes);
- every misclassified row ``x_n`` (true class ``y_n``, predicted ``p_n``) adds, for
  each feature ``m`` of the subset, ``P(x_nm | y_n) - P(x_nm | p_n)`` to the feature's
  weight (equation 14, the naive Bayes model's own class-conditional likelihoods;
  weights start at ``1 / M``); features whose weight is negative leave the subset for
  good (the last one never does: the one of largest weight stays). Features constant
  on the training rows are left out from the start (their term is 0, so they would
  outlive every useful feature, and naive Bayes on them alone divides by zero).

The vote is ``C(x) = argmax_y sum_{t: C_t(x) = y} alpha_t`` (*erratum*: the paper
prints ``C_t(x) != y``).

Why a loop of its own, not the engine's hooks: the engine
(:class:`costsense.boosting._engine.StagewiseBoosting`) fits a seeded clone of one
base learner on every column, and its score is one real number per row whose sign
is the decision of a binary, cost-sensitive classifier (the rules' ``votes`` and
``probability`` links, ``train_cost_``, ``predict(X, sample_cost=...)``). The step
hook could carry AdaBoost.M1's ``alpha``, the reset and the feature drops, but
EFSBoost would still need (1) a score of one column per class whose argmax is the
decision, over any number of classes, and no costs: the engine's score, training
cost and every rule's votes and link would become per-class arrays for one
cost-blind variant; and (2) a new naive Bayes per round, built for the round's
feature subset and fitted and asked on those columns only: every kept learner
would carry its columns, changing ``estimators_`` and the staged predictions of
every booster (or wrapping each learner, changing EFSBoost's ``estimators_``).
So the loop below stays; it takes from the engine the weight normalisation
(:func:`~costsense.boosting._engine.normalised`) and the weight of a perfect
round (:data:`~costsense.boosting._engine.PERFECT_ALPHA`), and its validation is
every classifier's (:meth:`~costsense._base.ClassifierBase._start_fit`).

Choices the paper leaves open, as parameters:

- ``feature_update="literal"`` (default) adds the terms unweighted, as equation 14
  prints them: every misclassified row counts alike, whatever its boosting weight,
  so a few rounds' errors can drop most features (the README's user guide measures
  how many remain); with ``sample_weight``, a row of starting weight ``w`` counts
  as ``w`` rows (integer weights are repeated rows, as everywhere else).
  ``"weighted"`` is our deviation, not the paper's: each row's term is multiplied
  by its boosting weight in the round, so the terms of a round sum to at most the
  round's weighted error and features leave more slowly.
- ``feature_score="density"`` (default) is equation 14 as printed, the difference
  of the probabilities ``P(x_nm | y_n) - P(x_nm | p_n)``: with the paper's counting
  naive Bayes these are the bins' probabilities (unitless); with the Gaussian one,
  densities of the standardised feature (a density's value depends on the
  feature's scale, so it is measured in standard deviations of the training data).
  ``"log_ratio"`` uses ``log P(x | y_n) - log P(x | p_n)``, the feature's term
  ``w_i`` of the model's log-odds (the paper's equations 11-12), which no
  rescaling of a feature changes either.
- A round with ``e >= 1/2`` has ``beta >= 1``: ``on_weak_round="stop"`` drops it and
  stops (as scikit-learn's AdaBoost), ``"reset"`` drops it, resets the weights to
  uniform and goes on (Bauer & Kohavi 1999); the round counts towards
  ``n_estimators`` either way.
- A perfect round (``e = 0``) is kept with the weight of a round at ``e = 1e-10``
  and boosting stops.
- If no round is kept (naive Bayes errs on half the weight or more from the start,
  as it does on yeast4, whose minority class has near-constant features), the model
  predicts the class of largest starting weight and ``stop_reason_`` says so, as
  costsense's other boosters fall back to their constant rule.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.naive_bayes import GaussianNB

from costsense._base import ClassifierBase, inner_fits, refuse_fit_params
from costsense.boosting._engine import PERFECT_ALPHA, normalised
from costsense.naive_bayes import (
    DiscreteNaiveBayesClassifier,
    categorical_feature_mask,
)
from costsense.utils._compat import Interval, StrOptions, _fit_context

FloatArray = NDArray[np.float64]

__all__ = ["EFSBoostClassifier"]

#: Where per-row costs go instead of paper 003's cost-blind boosters.
COST_SENSITIVE_BOOSTERS = (
    "a cost-sensitive booster such as costsense.boosting.AsyBClassifier (add "
    "sampler=OBPDSampler() for OBPD's rows in every round) or AsyBLClassifier, "
    "or costsense.MinimumCostClassifier"
)
#: What to try when EFSBoost's model is constant.
EFS_ADVICE = (
    "try on_weak_round='reset' (restart the weights instead of stopping), "
    "naive_bayes='gaussian', feature_selection=False, or balance the classes "
    "first (OBPDEFSBoostClassifier)"
)


def feature_terms(
    model: GaussianNB | DiscreteNaiveBayesClassifier,
    X: FloatArray,
    true: NDArray[np.intp],
    predicted: NDArray[np.intp],
    score: str,
    scale: FloatArray,
) -> FloatArray:
    """Each row's term of equation 14, per feature of the model.

    Parameters
    ----------
    model : GaussianNB or DiscreteNaiveBayesClassifier
        The round's fitted naive Bayes (the Gaussian one's ``theta_`` and
        ``var_``; the discrete one's ``feature_log_likelihood``).
    X : ndarray of shape (n_rows, n_features)
        The rows, restricted to the model's features.
    true, predicted : ndarray of shape (n_rows,)
        Indices (into ``model.classes_``) of each row's true and predicted class.
    score : {"log_ratio", "density"}
        ``log P(x | true) - log P(x | predicted)``, or the difference of the
        densities of the standardised feature (``P(x | c)`` times ``scale``).
    scale : ndarray of shape (n_features,)
        The features' standard deviations (for ``"density"`` with the Gaussian
        model; a bin's probability needs no scale).

    Returns
    -------
    ndarray of shape (n_rows, n_features)
    """
    if isinstance(model, DiscreteNaiveBayesClassifier):
        # log P(x_nm | c) of every row, feature and class: pick the two classes
        likelihood = model.feature_log_likelihood(X)
        rows = np.arange(X.shape[0])
        log_true = likelihood[rows, :, true]
        log_predicted = likelihood[rows, :, predicted]
        if score == "log_ratio":
            return log_true - log_predicted
        return np.exp(log_true) - np.exp(log_predicted)

    def log_density(classes: NDArray[np.intp]) -> FloatArray:
        mean, var = model.theta_[classes], model.var_[classes]
        return -0.5 * (np.log(2 * np.pi * var) + (X - mean) ** 2 / var)

    log_true, log_predicted = log_density(true), log_density(predicted)
    if score == "log_ratio":
        return log_true - log_predicted
    return (np.exp(log_true) - np.exp(log_predicted)) * scale


class EFSBoostClassifier(ClassifierBase):
    """AdaBoost.M1 over naive Bayes with per-round feature selection.

    EFSBoost of paper 003; see :mod:`costsense.boosting._efs` for the algorithm and
    the choices the paper leaves open. OBPD-EFSBoost is
    ``imblearn.pipeline.make_pipeline(OBPDSampler(), EFSBoostClassifier())``.
    Binary and multiclass.

    Parameters
    ----------
    n_estimators : int, default=50
        Boosting rounds.
    naive_bayes : {"discrete", "gaussian"}, default="discrete"
        The weak learner: the paper's counting naive Bayes on discretised
        features (:class:`~costsense.naive_bayes.DiscreteNaiveBayesClassifier`,
        ``n_bins`` weighted equal-frequency bins, Laplace smoothing ``alpha``), or
        scikit-learn's Gaussian naive Bayes.
    n_bins : int, default=10
        Bins per continuous feature of the discrete naive Bayes.
    alpha : float, default=1.0
        Laplace smoothing of the discrete naive Bayes, in rows (the round's
        weights are read as ``W D`` rows, ``W`` the total starting weight: ``n``
        without ``sample_weight``).
    feature_selection : bool, default=True
        Drop features by equation 14; False is AdaBoost.M1 over naive Bayes.
    feature_update : {"literal", "weighted"}, default="literal"
        ``"literal"``: equation 14 as printed, each misclassified row's term
        added unweighted. ``"weighted"`` (our deviation from the paper): each
        term multiplied by the row's boosting weight, which drops features more
        slowly; try it when the printed update leaves too few features.
    feature_score : {"density", "log_ratio"}, default="density"
        Equation 14's difference of probabilities (bins' probabilities, or
        densities of standardised features for the Gaussian naive Bayes), or of
        log-likelihoods.
    on_weak_round : {"stop", "reset"}, default="stop"
        What a round with weighted error >= 1/2 does.
    var_smoothing : float, default=1e-9
        GaussianNB's variance smoothing (``naive_bayes="gaussian"``).
    categorical_features : array-like of int or bool, default=None
        Columns holding category codes (column indices or a boolean mask), given
        to the counting naive Bayes as categories (one probability per value,
        equation 8 without bins) in every round, restricted to the round's
        subset. Gaussian naive Bayes has no categories: with
        ``naive_bayes="gaussian"`` the codes are read as numbers. None: every
        column is binned.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    estimators_ : list of DiscreteNaiveBayesClassifier or GaussianNB
        The kept rounds' models.
    feature_subsets_ : list of ndarray of int
        The features each kept model uses.
    estimator_weights_ : ndarray of shape (n_kept,)
        ``alpha`` of each kept round.
    estimator_errors_ : ndarray of shape (n_kept,)
        Weighted error of each kept round.
    feature_weights_ : ndarray of shape (n_features_in_,)
        The features' final weights (dropped features keep the weight that
        dropped them).
    support_ : ndarray of shape (n_features_in_,) of bool
        The features still in the subset at the end (never a constant one, unless
        every feature is constant).
    drop_round_ : ndarray of shape (n_features_in_,) of int
        The round whose errors dropped each feature (1 for the first round: the
        feature is absent from round 2 on); 0 for a feature left out from the
        start (constant), -1 for one still in the subset at the end.
    stop_reason_ : str
        Why boosting ended.
    constant_ : label
        The class of largest starting weight, predicted when no round was kept
        (naive Bayes never reached a weighted error below 1/2).
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it kept no
        round, or predicts one class on its own training data) and why, as the
        :class:`~costsense.exceptions.DegenerateModelWarning` that ``fit``
        issued said it.
    n_resets_ : int
        Rounds whose error >= 1/2 reset the weights (``on_weak_round="reset"``).
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when X has string column names.

    References
    ----------
    .. [1] Paper 003 of this project (OBPD-EFSBoost), algorithm 2 and equation 14.
    .. [2] Y. Freund, R. E. Schapire, "A decision-theoretic generalization of
       on-line learning and an application to boosting", JCSS 55 (1997).
    .. [3] E. Bauer, R. Kohavi, "An empirical comparison of voting classification
       algorithms", Machine Learning 36 (1999).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import EFSBoostClassifier
    >>> X, y = make_classification(n_features=8, n_informative=3, random_state=0)
    >>> model = EFSBoostClassifier(n_estimators=10).fit(X, y)
    >>> bool(model.support_.sum() <= 8)
    True
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "naive_bayes": [StrOptions({"discrete", "gaussian"})],
        "n_bins": [Interval(Integral, 2, None, closed="left")],
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "feature_selection": ["boolean"],
        "feature_update": [StrOptions({"weighted", "literal"})],
        "feature_score": [StrOptions({"log_ratio", "density"})],
        "on_weak_round": [StrOptions({"stop", "reset"})],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "categorical_features": ["array-like", None],
    }
    _degenerate_advice = EFS_ADVICE

    def __init__(
        self,
        *,
        n_estimators: int = 50,
        naive_bayes: str = "discrete",
        n_bins: int = 10,
        alpha: float = 1.0,
        feature_selection: bool = True,
        feature_update: str = "literal",
        feature_score: str = "density",
        on_weak_round: str = "stop",
        var_smoothing: float = 1e-9,
        categorical_features: ArrayLike | None = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.naive_bayes = naive_bayes
        self.n_bins = n_bins
        self.alpha = alpha
        self.feature_selection = feature_selection
        self.feature_update = feature_update
        self.feature_score = feature_score
        self.on_weak_round = on_weak_round
        self.var_smoothing = var_smoothing
        self.categorical_features = categorical_features

    def _weak_learner(
        self, categorical: NDArray[np.bool_]
    ) -> GaussianNB | DiscreteNaiveBayesClassifier:
        """Return the round's naive Bayes (``categorical``: the subset's mask)."""
        if self.naive_bayes == "gaussian":
            return GaussianNB(var_smoothing=self.var_smoothing)
        return DiscreteNaiveBayesClassifier(
            n_bins=self.n_bins,
            alpha=self.alpha,
            categorical_features=categorical if categorical.any() else None,
        )

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        **fit_params: Any,
    ) -> EFSBoostClassifier:
        """Boost naive Bayes, shrinking the feature subset each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Initial boosting weights (uniform if None).
        **fit_params : dict
            None is accepted. EFSBoost is cost-blind: ``sample_cost`` is refused
            with a TypeError that names the cost-sensitive boosters to use
            instead.

        Returns
        -------
        self
            The fitted estimator.
        """
        refuse_fit_params(self, fit_params, COST_SENSITIVE_BOOSTERS)
        fit = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        X, target = fit.X, fit.y_index
        start = np.ones(X.shape[0]) if fit.sample_weight is None else fit.sample_weight
        # the printed update counts each misclassified row once: a row of starting
        # weight w counts as w rows (integer weights = repeated rows)
        row_counts = start.copy()
        # the counting naive Bayes reads weights as rows: D times the rows the
        # starting weights stand for (integer weights = repeated rows); the
        # Gaussian one is scale-free and gets D itself
        weight_scale = start.sum() if self.naive_bayes == "discrete" else 1.0
        start = normalised(start)
        n_features = X.shape[1]
        categorical = categorical_feature_mask(self.categorical_features, n_features)
        # the features' standard deviations under the starting weights (integer
        # weights = repeated rows), the unit of the Gaussian "density" score
        centre = start @ X
        scale = np.sqrt(start @ (X - centre) ** 2)
        scale[scale == 0] = 1.0
        D = start.copy()
        weights = np.full(n_features, 1.0 / n_features)
        # a feature constant on the training rows cannot separate the classes, and
        # naive Bayes on constant features alone divides by a zero variance
        support = X.max(axis=0) > X.min(axis=0)
        if not support.any():
            support[:] = True
        drop_round = np.where(support, -1, 0)
        self.estimators_: list[Any] = []
        self.feature_subsets_: list[NDArray[np.intp]] = []
        alphas: list[float] = []
        errors: list[float] = []
        self.n_resets_ = 0
        self.stop_reason_ = "completed all rounds"
        # the kept rounds' votes on the training rows, from their predictions
        train_votes = np.zeros((X.shape[0], self.classes_.size))
        rows = np.arange(X.shape[0])
        for t in range(self.n_estimators):
            columns = np.flatnonzero(support)
            model = self._weak_learner(categorical[columns])
            with inner_fits():  # a round's naive Bayes may be constant
                model.fit(X[:, columns], target, sample_weight=D * weight_scale)
            predicted = model.predict(X[:, columns])
            wrong = predicted != target
            error = float(D[wrong].sum())
            if error >= 0.5:
                if self.on_weak_round == "stop":
                    self.stop_reason_ = (
                        f"round {t + 1}: weighted error {error:.3g} >= 1/2"
                    )
                    break
                self.n_resets_ += 1
                D = start.copy()
                continue
            self.estimators_.append(model)
            self.feature_subsets_.append(columns)
            errors.append(error)
            if error <= 0:
                alphas.append(PERFECT_ALPHA)
                train_votes[rows, predicted] += PERFECT_ALPHA
                self.stop_reason_ = f"round {t + 1}: perfect (no weighted error)"
                break
            beta = error / (1.0 - error)
            alphas.append(0.5 * np.log(1.0 / beta))
            train_votes[rows, predicted] += alphas[-1]
            if self.feature_selection and wrong.any():
                terms = feature_terms(
                    model,
                    X[wrong][:, columns],
                    target[wrong],
                    predicted[wrong],
                    self.feature_score,
                    scale[columns],
                )
                if self.feature_update == "weighted":
                    terms = terms * D[wrong, None]
                else:
                    terms = terms * row_counts[wrong, None]
                weights[columns] += terms.sum(axis=0)
                drop = columns[weights[columns] < 0]
                if drop.size == columns.size:  # never the last feature
                    drop = drop[drop != columns[np.argmax(weights[columns])]]
                support[drop] = False
                drop_round[drop] = t + 1
            D = np.where(wrong, D, D * beta)
            D = normalised(D)
        self.estimator_weights_ = np.asarray(alphas, dtype=np.float64)
        self.estimator_errors_ = np.asarray(errors, dtype=np.float64)
        self.feature_weights_ = weights
        self.support_ = support
        self.drop_round_ = drop_round
        # With no useful round, the model is the class of largest starting weight.
        self.constant_ = self.classes_[np.argmax(np.bincount(target, weights=start))]
        if not self.estimators_:
            self.stop_reason_ += (
                "; no round was kept: the model predicts the class of largest weight"
            )
            train_votes[:, np.searchsorted(self.classes_, self.constant_)] = 1.0
        self._check_degenerate(
            self.classes_[np.argmax(train_votes, axis=1)],
            n_kept=len(self.estimators_),
        )
        return self

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: why it stopped, rounds, the features it kept."""
        return {
            "stop_reason": str(self.stop_reason_),
            "rounds": len(self.estimators_),
            "rounds_planned": int(self.n_estimators),
            "n_features_kept": int(np.count_nonzero(self.support_)),
            "features_kept": np.flatnonzero(self.support_).tolist(),
            "drop_round": np.asarray(self.drop_round_).tolist(),
            "feature_update": self.feature_update,
        }

    def _votes(self, X: ArrayLike) -> FloatArray:
        """Return the corrected vote ``sum_{t: C_t(x) = c} alpha_t`` of each class."""
        X = self._validated(X, dtype=np.float64)
        votes = np.zeros((X.shape[0], self.classes_.size))
        if not self.estimators_:
            votes[:, np.searchsorted(self.classes_, self.constant_)] = 1.0
            return votes
        rows = np.arange(X.shape[0])
        for model, columns, alpha in zip(
            self.estimators_,
            self.feature_subsets_,
            self.estimator_weights_,
            strict=True,
        ):
            votes[rows, model.predict(X[:, columns])] += alpha
        return votes

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Weighted votes: ``votes[:, 1] - votes[:, 0]`` for two classes, else all.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Positive for ``classes_[1]`` with two classes.
        """
        votes = self._votes(X)
        return votes[:, 1] - votes[:, 0] if self.classes_.size == 2 else votes

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predict the class with the largest weighted vote.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted labels.
        """
        votes = self._votes(X)  # checks that the model is fitted first
        return self.classes_[np.argmax(votes, axis=1)]
