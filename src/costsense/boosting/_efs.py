"""EFSBoost: AdaBoost.M1 over naive Bayes, selecting features each round (paper 003).

Paper 003, algorithm 2, steps 2-11 (step 1, OBPD oversampling, makes
:class:`costsense.boosting.OBPDEFSBoostClassifier`). Each round fits naive Bayes
(by default the paper's counting one on discretised features, equation 8, reading
the weights ``D`` as ``W D`` rows for starting weights of total ``W``) on the
current feature subset. With the weighted error ``e``: ``beta = e / (1 - e)``,
``alpha = 1/2 ln(1 / beta)``, the correct rows' weights times ``beta``, then
normalised (AdaBoost.M1, Freund & Schapire 1997); every misclassified row adds
``P(x_nm | y_n) - P(x_nm | p_n)`` to the weight of each feature ``m`` of the subset
(equation 14; weights start at ``1 / M``), and features of negative weight leave
for good (never the last one). Features constant on the training rows are left
out from the start. The vote is ``C(x) = argmax_y sum_{t: C_t(x) = y} alpha_t``
(*erratum*: the paper prints ``C_t(x) != y``). A perfect round is kept at the
``alpha`` of ``e = 1e-10`` and stops; with no round kept the model predicts the
class of largest starting weight.

It keeps a loop of its own: EFSBoost votes over any number of classes,
cost-blind, where the engine's score is one binary decision per row.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.naive_bayes import GaussianNB

from costsense._base import ClassifierBase, inner_fits, refuse_fit_params
from costsense.boosting._engine import PERFECT_ALPHA, normalised
from costsense.naive_bayes import DiscreteNaiveBayesClassifier
from costsense.utils._columns import categorical_mask
from costsense.utils._compat import Interval, StrOptions, _fit_context
from costsense.utils._docstrings import shared

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
    """Each row's term of equation 14, per feature of the round's naive Bayes.

    ``true`` and ``predicted`` index ``model.classes_``; ``score`` is
    ``"log_ratio"`` (``log P(x | true) - log P(x | predicted)``) or ``"density"``
    (the probabilities' difference; for the Gaussian model, densities of the
    feature standardised by ``scale``).
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


@shared
class EFSBoostClassifier(ClassifierBase):
    """AdaBoost.M1 over naive Bayes with per-round feature selection.

    EFSBoost of paper 003 (:mod:`costsense.boosting._efs` states the algorithm).
    OBPD-EFSBoost is
    ``imblearn.pipeline.make_pipeline(OBPDSampler(), EFSBoostClassifier())``.
    Binary and multiclass.

    Parameters
    ----------
    n_estimators : int, default=50
        Boosting rounds.
    naive_bayes : {"discrete", "gaussian"}, default="discrete"
        The weak learner: the paper's counting naive Bayes
        (:class:`~costsense.naive_bayes.DiscreteNaiveBayesClassifier`), or
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
        added unweighted (a row of starting weight ``w`` counts as ``w`` rows).
        ``"weighted"`` (our deviation from the paper): each term multiplied by
        the row's boosting weight, which drops features more slowly; try it when
        the printed update leaves too few features.
    feature_score : {"density", "log_ratio"}, default="density"
        Equation 14's difference of probabilities (bins' probabilities, or
        densities of standardised features for the Gaussian naive Bayes), or of
        log-likelihoods (the feature's term of the log-odds, equations 11-12,
        which no rescaling of a feature changes).
    on_weak_round : {"stop", "reset"}, default="stop"
        What a round with weighted error >= 1/2 does: drop it and stop (as
        scikit-learn's AdaBoost), or drop it and reset the weights to uniform
        (Bauer & Kohavi 1999); it counts towards ``n_estimators`` either way.
    var_smoothing : float, default=1e-9
        GaussianNB's variance smoothing (``naive_bayes="gaussian"``).
    categorical_features : array-like of int or bool, default=None
        Columns holding category codes (indices or a boolean mask), counted as
        categories by the discrete naive Bayes (equation 8 without bins); the
        Gaussian one reads them as numbers. None: every column is binned.

    Attributes
    ----------
    {classes_}
    estimators_ : list of DiscreteNaiveBayesClassifier or GaussianNB
        The kept rounds' models.
    feature_subsets_ : list of ndarray of int
        The features each kept model uses.
    estimator_weights_ : ndarray of shape (n_kept,)
        ``alpha`` of each kept round.
    estimator_errors_ : ndarray of shape (n_kept,)
        Weighted error of each kept round.
    feature_weights_ : ndarray of shape (n_features_in_,)
        The features' final weights (a dropped feature keeps the one that
        dropped it).
    support_ : ndarray of shape (n_features_in_,) of bool
        The features still in the subset at the end.
    drop_round_ : ndarray of shape (n_features_in_,) of int
        The round whose errors dropped each feature (1: absent from round 2 on);
        0 for a constant feature, -1 for one still in the subset at the end.
    stop_reason_ : str
        Why boosting ended.
    constant_ : label
        The class of largest starting weight, predicted when no round was kept.
    n_resets_ : int
        Rounds whose error >= 1/2 reset the weights (``on_weak_round="reset"``).
    {fitted}

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
            Only None values: EFSBoost is cost-blind, ``sample_cost`` is refused
            (the TypeError names the cost-sensitive boosters).

        Returns
        -------
        self
            The fitted estimator.
        """
        refuse_fit_params(self, fit_params, COST_SENSITIVE_BOOSTERS)
        fit = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        X, target = fit.X, fit.y_index
        start = np.ones(X.shape[0]) if fit.sample_weight is None else fit.sample_weight
        # the printed update counts a row of starting weight w as w rows
        row_counts = start.copy()
        # the counting naive Bayes reads D as W D rows; the Gaussian one is scale-free
        weight_scale = start.sum() if self.naive_bayes == "discrete" else 1.0
        start = normalised(start)
        n_features = X.shape[1]
        categorical = categorical_mask(self.categorical_features, None, n_features)
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
                counted = D if self.feature_update == "weighted" else row_counts
                terms = feature_terms(
                    model,
                    X[wrong][:, columns],
                    target[wrong],
                    predicted[wrong],
                    self.feature_score,
                    scale[columns],
                )
                weights[columns] += (terms * counted[wrong, None]).sum(axis=0)
                drop = columns[weights[columns] < 0]
                if drop.size == columns.size:  # never the last feature
                    drop = drop[drop != columns[np.argmax(weights[columns])]]
                support[drop] = False
                drop_round[drop] = t + 1
            D = normalised(np.where(wrong, D, D * beta))
        self.estimator_weights_ = np.asarray(alphas, dtype=np.float64)
        self.estimator_errors_ = np.asarray(errors, dtype=np.float64)
        self.feature_weights_ = weights
        self.support_ = support
        self.drop_round_ = drop_round
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
