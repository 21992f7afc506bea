"""RejectionSampling: cost-proportionate rejection sampling with voting ("Costing")."""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import check_random_state

from costsense._base import members_summary
from costsense.costs import Costs
from costsense.utils._compat import Interval, StrOptions

from ._weights import _class_weights, _cost_weights, _unweighted
from ._wrapper import _CostSensitiveWrapper, _document, _mean_proba

__all__ = ["RejectionSampling"]

FloatArray = NDArray[np.float64]


@_document
class RejectionSampling(_CostSensitiveWrapper):
    """Cost-proportionate rejection sampling with voting ("Costing").

    Each member is trained, without weights, on a sample in which training example
    ``i`` is kept with probability ``c_i / max(c)``; the kept sample is distributed
    as the cost-weighted data, so any learner becomes cost-sensitive (Zadrozny,
    Langford & Abe 2003). ``n_estimators`` members vote. A draw that misses a class
    is redrawn (at most 100 times).

    Parameters
    ----------
    {parameters}
    n_estimators : int, default=10
        Number of rejection-sampled members.
    voting : {"hard", "soft"}, default="hard"
        "hard": members vote with their predictions (as published); "soft": their
        probabilities are averaged (needs ``predict_proba``).
    random_state : int, RandomState instance or None, default=None
        Seeds the draws and the members' own ``random_state``.

    Attributes
    ----------
    {attributes}
    estimators_ : list of classifiers
        The fitted members (``estimator_`` is the first).
    acceptance_rate_ : float
        Mean fraction of the training samples kept per draw.
    class_weights_ : ndarray of shape (n_classes,)
        The mean acceptance probability of the rows learnt as each class
        (``classes_`` order; 0 for a class no row was learnt as).

    Notes
    -----
    ``predict_proba`` is the share of member votes ("hard") or the mean member
    probability ("soft"); ``predict`` is its argmax. With ``sample_weight`` the
    acceptance probability is proportional to ``c_i * w_i``.

    Per-row costs given to ``fit`` enter as for :class:`CostWeighting`, through
    the acceptance probability. ``predict(X, sample_cost=...)`` decides each row
    by its own costs on the members' averaged probabilities (whatever
    ``voting``) with the sampling taken out, ``P(k|x)`` proportional to
    ``P_w(k|x) / w_k``, ``w = class_weights_`` (Elkan 2001, Theorem 2, read
    backwards; Zadrozny & Elkan 2001).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from costsense.rescale import RejectionSampling
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = RejectionSampling(
    ...     DecisionTreeClassifier(max_depth=3), cost=5, random_state=0
    ... ).fit(X, y)
    >>> len(model.estimators_)
    10
    """

    _parameter_constraints = {
        **_CostSensitiveWrapper._parameter_constraints,
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "voting": [StrOptions({"hard", "soft"})],
        "random_state": ["random_state"],
    }
    _degenerate_why = (
        "the copies of {base} trained on the cost-proportionate samples vote "
        "for one class on every row"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        cost: Any = None,
        pos_label: Any = None,
        n_estimators: int = 10,
        voting: str = "hard",
        random_state: Any = None,
    ) -> None:
        super().__init__(estimator, cost=cost, pos_label=pos_label)
        self.n_estimators = n_estimators
        self.voting = voting
        self.random_state = random_state

    def _check_sample_weight_support(self, passed: bool) -> None:
        # Weights enter through the acceptance probability, never the base learner.
        if self.voting == "soft" and not hasattr(self._base(), "predict_proba"):
            raise TypeError(
                f"RejectionSampling(voting='soft') needs predict_proba, which "
                f"{type(self._base()).__name__} lacks; use voting='hard'."
            )

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        index, weight = _cost_weights(resolved, type(self).__name__)
        y = self.classes_[index]  # the reduction's labels (see _cost_weights)
        if sample_weight is not None:
            weight = weight * sample_weight
        if weight.max() <= 0:
            raise ValueError("every sample has zero cost-weight; check the costs.")
        accept = weight / weight.max()
        rng = check_random_state(self.random_state)
        members, kept = [], []
        for _ in range(self.n_estimators):
            for _attempt in range(100):
                keep = rng.random_sample(X.shape[0]) < accept
                if np.unique(index[keep]).size == np.unique(index).size:
                    break
            else:
                raise ValueError(
                    "RejectionSampling: 100 draws in a row missed a class (its "
                    f"samples are kept with probability {accept.min():.2g}); use "
                    "CostWeighting, or more samples of the cheap class."
                )
            kept.append(keep.mean())
            members.append(self._fit_base(X[keep], y[keep], None, rng))
        self.estimators_ = members
        self.estimator_ = members[0]
        self.acceptance_rate_ = float(np.mean(kept))
        self.class_weights_ = _class_weights(
            index, accept, sample_weight, self.classes_.size
        )

    fit_summary = members_summary

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Share of member votes, or mean member probability (``voting``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._votes(self._validated(X))

    def _votes(self, X: FloatArray) -> FloatArray:
        if self.voting == "soft":
            return _mean_proba(self.estimators_, X, self.classes_)
        total = np.zeros((X.shape[0], self.classes_.size))
        for member in self.estimators_:
            votes = np.searchsorted(self.classes_, member.predict(X))
            total[np.arange(X.shape[0]), votes] += 1.0
        return total / len(self.estimators_)

    def _labels(self, X: FloatArray) -> NDArray[Any]:
        return np.asarray(self.classes_[np.argmax(self._votes(X), axis=1)])

    def _posterior(self, X: FloatArray) -> FloatArray:
        # members without predict_proba contribute one-hot votes (_proba_in)
        proba = _mean_proba(self.estimators_, X, self.classes_)
        return _unweighted(proba, self.class_weights_)
