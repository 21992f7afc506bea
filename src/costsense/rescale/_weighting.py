"""CostWeighting: train the base learner with ``sample_weight`` = cost of error."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils.metaestimators import available_if

from costsense.costs import Costs

from ._weights import _class_weights, _cost_weights, _unweighted
from ._wrapper import (
    _base_has,
    _CostSensitiveWrapper,
    _document,
    _need_proba,
    _proba_in,
)

__all__ = ["CostWeighting"]

FloatArray = NDArray[np.float64]


@_document
class CostWeighting(_CostSensitiveWrapper):
    """Cost-proportionate weighting: train with ``sample_weight`` = cost of error.

    For two classes, a learner that minimises weighted error on weights
    ``c_i`` (``C1`` for positives, ``C2`` for negatives, or each sample's own cost)
    minimises the expected cost (Zadrozny, Langford & Abe 2003, Theorem 2.1). For
    ``K`` classes the class weights of Zhou & Liu (2010) are used when the matrix
    is consistent (:func:`consistent_class_weights`); otherwise each class's mean
    error cost, with a warning. The weights are not rescaled: as with
    scikit-learn's ``class_weight``, ``cost=5`` gives positives weight 5 and negatives
    1, so ``CostWeighting(LogisticRegression(), cost=5)`` is
    ``LogisticRegression(class_weight={pos: 5, neg: 1})``, and ``cost=None`` is
    ``class_weight="balanced"``.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    class_weights_ : ndarray of shape (n_classes,)
        The mean cost weight of the rows learnt as each class (``classes_``
        order; 0 for a class no row was learnt as): ``C1`` and ``C2`` for
        class-level costs.

    See Also
    --------
    RejectionSampling : the same reduction by resampling, for any base learner.

    Notes
    -----
    Per-row costs given to ``fit`` enter through
    :func:`~costsense.costs.cost_reduction` (each row learnt as its cheaper class,
    weighted by the cost difference). ``predict(X, sample_cost=...)`` takes the
    weighting out, ``P(k|x)`` proportional to ``P_w(k|x) / w_k`` with
    ``w = class_weights_`` (Elkan 2001, Theorem 2, read backwards), then makes each
    row's Bayes decision ``argmin_j sum_i P(i|x) M[i, j]`` (Zadrozny & Elkan 2001).
    Exact when the weight depends on the class only; with per-row costs in ``fit``
    ``w_k`` is the class's mean weight. It needs the base learner's
    ``predict_proba``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.rescale import CostWeighting
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = CostWeighting(cost=10).fit(X, y)
    >>> int(model.predict(X).sum()) >= int(y.sum())  # more positive predictions
    True
    """

    _needs_sample_weight = True
    _degenerate_why = (
        "weighted by their costs, one class outweighs the rest wherever {base} "
        "can tell the rows apart"
    )

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        index, weight = _cost_weights(resolved, type(self).__name__)
        if sample_weight is not None:
            weight = weight * sample_weight
        if weight.sum() <= 0:
            raise ValueError("every sample has zero cost-weight; check the costs.")
        self.class_weights_ = _class_weights(
            index, weight, sample_weight, self.classes_.size
        )
        self.estimator_ = self._fit_base(X, self.classes_[index], weight)

    def _posterior(self, X: FloatArray) -> FloatArray:
        _need_proba(self, self.estimator_)
        weighted = _proba_in(self.estimator_, X, self.classes_)
        return _unweighted(weighted, self.class_weights_)

    @available_if(_base_has("decision_function"))
    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Decision function of the cost-weighted base learner.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        X = self._validated(X)
        return self.estimator_.decision_function(X)

    @available_if(_base_has("predict_proba"))
    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Probabilities of the cost-weighted base learner.

        They estimate the *reweighted* class distribution, not ``P(y|x)``; the most
        probable class is the cost-sensitive decision.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return super().predict_proba(X)
