"""OBPD-EFSBoost, paper 003's system: OBPD balancing, then EFSBoost (algorithm 2).

Exactly ``make_pipeline(OBPDSampler(...), EFSBoostClassifier(...))`` with the
paper's settings as defaults (section 4.2 and algorithm 1: Gibbs sampling with
``T = 100`` sweeps, 50 rounds of its counting naive Bayes, Figueiredo & Jain's
component count, a *balanced* set as algorithm 2 asks: the 200 % rate of section
4.2 is SMOTEBoost's and RWOBoost's), with both fitted parts in reach.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense._base import ClassifierBase, inner_fits, refuse_fit_params
from costsense.boosting._efs import (
    COST_SENSITIVE_BOOSTERS,
    EFS_ADVICE,
    EFSBoostClassifier,
)
from costsense.utils._compat import Interval, StrOptions, _fit_context
from costsense.utils._docstrings import shared

FloatArray = NDArray[np.float64]

__all__ = ["OBPDEFSBoostClassifier"]

#: EFSBoost's parameters that OBPD-EFSBoost passes on as they are.
_EFS = (
    "n_estimators",
    "naive_bayes",
    "n_bins",
    "alpha",
    "feature_selection",
    "feature_update",
    "feature_score",
    "on_weak_round",
    "categorical_features",
)


@shared
class OBPDEFSBoostClassifier(ClassifierBase):
    """OBPD-EFSBoost (paper 003): balance by a Gaussian-mixture model, then EFSBoost.

    Fitting grows every class but the majority with
    :class:`~costsense.sampling.OBPDSampler` until the classes are balanced
    (algorithm 1), then runs :class:`EFSBoostClassifier` on the balanced set.
    Predictions are never resampled.

    Parameters
    ----------
    n_estimators : int, default=50
        Boosting rounds (the paper's 50).
    sampling_strategy : float, str, dict or callable, default="auto"
        Which classes OBPD grows and to what size (imbalanced-learn's meaning);
        "auto" balances every class with the majority, as algorithm 2's step 1.
    sampling : {"gibbs", "ancestral"}, default="gibbs"
        How OBPD draws from the mixture: the paper's Gibbs sampler, or exact
        ancestral draws (faster; the same law).
    gibbs_steps : int, default=100
        Gibbs sweeps per synthetic row (the paper's ``T``).
    n_components : "fj", "aic", "bic" or int, default="fj"
        OBPD's mixture components per class (Figueiredo & Jain's minimum message
        length by default, as the paper).
    max_components : int, default=10
        Largest number of components searched.
    naive_bayes, n_bins, alpha, feature_selection, feature_update, \
feature_score, on_weak_round
        EFSBoost's (:class:`EFSBoostClassifier`), with its defaults.
    categorical_features : array-like of int or bool, default=None
        Columns holding category codes: OBPD draws them by roulette wheel from
        each class's own codes (algorithm 1, step 2b), and the counting naive
        Bayes counts them as categories.
    random_state : int, RandomState instance or None, default=None
        Seeds OBPD's mixtures and draws (EFSBoost is deterministic).

    Attributes
    ----------
    sampler_ : OBPDSampler
        The fitted oversampler (its ``models_``: each grown class's mixture).
    booster_ : EFSBoostClassifier
        EFSBoost fitted on the balanced set.
    n_synthetic_ : int
        Synthetic rows added to the training set.
    selected_features_ : list of ndarray of int
        ``booster_.feature_subsets_``: each kept round's features.
    support_ : ndarray of shape (n_features_in_,) of bool
        The features left after the last round (the paper's Table 3).
    drop_round_ : ndarray of shape (n_features_in_,) of int
        ``booster_.drop_round_``.
    {classes_}
    {fitted}

    See Also
    --------
    EFSBoostClassifier : Steps 2-11 alone.
    OBPDBoostClassifier : AdaBoost with OBPD rows added in every round.

    References
    ----------
    .. [1] Paper 003 of this project (OBPD-EFSBoost), algorithms 1 and 2.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import OBPDEFSBoostClassifier
    >>> X, y = make_classification(n_samples=200, weights=[0.85], random_state=0)
    >>> model = OBPDEFSBoostClassifier(
    ...     sampling="ancestral", max_components=2, random_state=0
    ... ).fit(X, y)
    >>> model.n_synthetic_ == 2 * int((y == 0).sum()) - len(y)
    True
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **{name: EFSBoostClassifier._parameter_constraints[name] for name in _EFS},
        "sampling_strategy": "no_validation",  # OBPDSampler validates it
        "sampling": [StrOptions({"gibbs", "ancestral"})],
        "gibbs_steps": [Interval(Integral, 1, None, closed="left")],
        "n_components": "no_validation",  # OBPDSampler validates it
        "max_components": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
    _degenerate_advice = EFS_ADVICE.replace(
        ", or balance the classes first (OBPDEFSBoostClassifier)", ""
    )

    def __init__(
        self,
        *,
        n_estimators: int = 50,
        sampling_strategy: Any = "auto",
        sampling: str = "gibbs",
        gibbs_steps: int = 100,
        n_components: Any = "fj",
        max_components: int = 10,
        naive_bayes: str = "discrete",
        n_bins: int = 10,
        alpha: float = 1.0,
        feature_selection: bool = True,
        feature_update: str = "literal",
        feature_score: str = "density",
        on_weak_round: str = "stop",
        categorical_features: Any = None,
        random_state: Any = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.sampling_strategy = sampling_strategy
        self.sampling = sampling
        self.gibbs_steps = gibbs_steps
        self.n_components = n_components
        self.max_components = max_components
        self.naive_bayes = naive_bayes
        self.n_bins = n_bins
        self.alpha = alpha
        self.feature_selection = feature_selection
        self.feature_update = feature_update
        self.feature_score = feature_score
        self.on_weak_round = on_weak_round
        self.categorical_features = categorical_features
        self.random_state = random_state

    def _sampler(self) -> Any:
        from costsense.sampling import OBPDSampler  # imbalanced-learn is optional

        return OBPDSampler(
            sampling_strategy=self.sampling_strategy,
            n_components=self.n_components,
            max_components=self.max_components,
            sampler=self.sampling,
            gibbs_steps=self.gibbs_steps,
            categorical_features=self.categorical_features,
            random_state=self.random_state,
        )

    def _booster(self) -> EFSBoostClassifier:
        return EFSBoostClassifier(**{name: getattr(self, name) for name in _EFS})

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        **fit_params: Any,
    ) -> OBPDEFSBoostClassifier:
        """Balance the training set with OBPD, then run EFSBoost on it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            EFSBoost's starting weights; a synthetic row starts with the mean
            weight of its class's rows. OBPD's mixtures are fitted unweighted.
        **fit_params : dict
            None is accepted. OBPD-EFSBoost is cost-blind: ``sample_cost`` is
            refused with a TypeError that names the cost-sensitive boosters to
            use instead.

        Returns
        -------
        self
            The fitted estimator.
        """
        refuse_fit_params(self, fit_params, COST_SENSITIVE_BOOSTERS)
        start = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        self.sampler_ = self._sampler()
        X_balanced, y_balanced = self.sampler_.fit_resample(start.X, start.y)
        n = start.X.shape[0]
        self.n_synthetic_ = int(X_balanced.shape[0] - n)
        weight = None
        if start.sample_weight is not None:
            original = start.sample_weight
            synthetic = np.array(
                [original[start.y == label].mean() for label in y_balanced[n:]]
            )
            weight = np.concatenate([original, synthetic])
        with inner_fits():  # this estimator warns about the whole model once
            self.booster_ = self._booster().fit(
                X_balanced, y_balanced, sample_weight=weight
            )
        self.selected_features_ = list(self.booster_.feature_subsets_)
        self.support_ = self.booster_.support_
        self.drop_round_ = self.booster_.drop_round_
        self._check_degenerate(
            self.booster_.predict(start.X),
            n_kept=len(self.booster_.estimators_),
            reason=f"EFSBoost: {self.booster_.stop_reason_}",
        )
        return self

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: its EFSBoost's summary."""
        return self.booster_.fit_summary()

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predict the class with EFSBoost's largest weighted vote.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        samples = self._validated(X, dtype=np.float64)  # checks the fit first
        return self.booster_.predict(samples)

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """EFSBoost's weighted votes (see :meth:`EFSBoostClassifier.decision_function`).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        samples = self._validated(X, dtype=np.float64)  # checks the fit first
        return self.booster_.decision_function(samples)
