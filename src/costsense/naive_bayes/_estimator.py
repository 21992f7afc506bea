"""The counting naive Bayes of paper 003 over binned and categorical features."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp

from costsense._base import ClassifierBase, refuse_fit_params
from costsense.naive_bayes._binning import (
    _mdl_edges,
    _quantile_edges,
    _weighted_count,
)
from costsense.utils._columns import categorical_mask
from costsense.utils._compat import Interval, StrOptions, _fit_context
from costsense.utils._docstrings import shared

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

__all__ = ["DiscreteNaiveBayesClassifier"]


@shared
class DiscreteNaiveBayesClassifier(ClassifierBase):
    """Naive Bayes over binned and categorical features, with exact sample weights.

    The counting naive Bayes of paper 003 (equation 8) on binned continuous
    features and declared categorical ones; :mod:`costsense.naive_bayes` states
    the model, the binning and the MDL rule. Integer sample weights give exactly
    the model of rows repeated that many times. Binary and multiclass.

    Parameters
    ----------
    n_bins : int, default=10
        Most bins per continuous feature (at least 2). With
        ``binning="quantile"``, a feature with at most ``n_bins`` distinct training
        values gets one bin per value; with ``"mdl"`` it caps the number of bins.
    binning : {"quantile", "mdl"}, default="quantile"
        Weighted equal-frequency edges, or Fayyad & Irani's (1993) recursive
        entropy discretisation with the MDL stopping rule on weighted class
        counts.
    alpha : float, default=1.0
        Additive (Laplace) smoothing of the weighted counts, > 0, in the unit of
        the sample weights. A tiny value (1e-10) approaches the unsmoothed counts
        of equation 8 while keeping every probability positive.
    fit_prior : bool, default=True
        Learn the class priors from the weighted class frequencies; if False, a
        uniform prior. Ignored when ``class_prior`` is given.
    class_prior : array-like of shape (n_classes,), default=None
        Prior of each class, in the order of ``classes_``; its logarithm is used
        as given (as in scikit-learn's ``CategoricalNB``).
    categorical_features : array-like of int or bool, default=None
        Indices, or a boolean mask over the columns, of features that are already
        discrete: each distinct training value is a category, no binning. None: no
        categorical feature.
    weights_as : {"counts", "proportions"}, default="counts"
        What a sample weight means. ``"counts"``: a number of rows (integer
        weights are repeated rows). ``"proportions"``: only the weights' ratios
        matter; they are rescaled to sum to the number of rows of positive
        weight, so that a boosting distribution ``D`` (summing to 1) is read as
        ``n D`` rows and ``alpha`` and the MDL rule see counts of the data's size.

    Attributes
    ----------
    {classes_}
    class_count_ : ndarray of shape (n_classes,)
        Weighted number of training rows of each class, ``W_c``.
    class_log_prior_ : ndarray of shape (n_classes,)
        Logarithm of each class's prior.
    categorical_ : ndarray of shape (n_features_in_,) of bool
        Which features are categorical.
    bin_edges_ : list of ndarray
        One array per feature: the increasing edges of a binned feature (training
        values; bins are right-closed), an empty array for a categorical one.
    categories_ : list of ndarray
        One array per feature: the sorted distinct training values (of positive
        weight) of a categorical feature, an empty array for a binned one.
    n_bins_ : ndarray of shape (n_features_in_,) of int
        Number of bins (``len(bin_edges_[m]) + 1``) or of categories
        (``len(categories_[m])``) of each feature, ``B_m``.
    bin_count_ : list of ndarray of shape (n_classes, n_bins_[m])
        Weighted count ``W_cb`` of each class in each bin or category.
    feature_log_prob_ : list of ndarray of shape (n_classes, n_bins_[m])
        ``log P(bin b | c) = log(W_cb + alpha) - log(W_c + alpha * B_m)``.
    {fitted}

    See Also
    --------
    sklearn.naive_bayes.CategoricalNB : The same model when every column is
        categorical and every category of ``0, ..., max`` occurs in training.

    References
    ----------
    .. [1] Paper 003 of this project (OBPD-EFSBoost), equation 8.
    .. [2] U. M. Fayyad, K. B. Irani, "Multi-interval discretization of
       continuous-valued attributes for classification learning", IJCAI 1993.

    Examples
    --------
    >>> import numpy as np
    >>> from costsense.naive_bayes import DiscreteNaiveBayesClassifier
    >>> X = np.array([[0.1, 0], [0.4, 1], [0.35, 1], [0.8, 0], [0.9, 1], [0.7, 0]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> model = DiscreteNaiveBayesClassifier(n_bins=2, categorical_features=[1])
    >>> model = model.fit(X, y)
    >>> model.bin_edges_[0]  # bins (-inf, 0.4] and (0.4, inf)
    array([0.4])
    >>> model.categories_[1]
    array([0., 1.])
    >>> model.predict([[0.2, 0], [0.95, 1]])
    array([0, 1])
    >>> model.feature_log_likelihood([[0.2, 0]]).shape  # (rows, features, classes)
    (1, 2, 2)
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "n_bins": [Interval(Integral, 2, None, closed="left")],
        "binning": [StrOptions({"quantile", "mdl"})],
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "fit_prior": ["boolean"],
        "class_prior": ["array-like", None],
        "categorical_features": ["array-like", None],
        "weights_as": [StrOptions({"counts", "proportions"})],
    }
    _degenerate_advice = (
        "try more bins (n_bins) or binning='mdl', fit_prior=False (a uniform "
        "prior), or, for costs, a wrapper that decides by them "
        "(costsense.rescale.ThresholdMoving)"
    )

    def __init__(
        self,
        *,
        n_bins: int = 10,
        binning: str = "quantile",
        alpha: float = 1.0,
        fit_prior: bool = True,
        class_prior: ArrayLike | None = None,
        categorical_features: ArrayLike | None = None,
        weights_as: str = "counts",
    ) -> None:
        self.n_bins = n_bins
        self.binning = binning
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.categorical_features = categorical_features
        self.weights_as = weights_as

    def _categorical_mask(self, n_features: int) -> NDArray[np.bool_]:
        """``categorical_features`` as a boolean mask over the columns."""
        return categorical_mask(self.categorical_features, None, n_features)

    def _log_prior(self, class_count: FloatArray) -> FloatArray:
        """``class_log_prior_``: the given prior, the fitted one, or uniform."""
        n_classes = class_count.size
        if self.class_prior is not None:
            try:
                prior = np.asarray(self.class_prior, dtype=np.float64)
            except (TypeError, ValueError):
                raise ValueError(
                    "class_prior must be numbers, one prior per class in the order "
                    "of classes_."
                ) from None
            if prior.shape != (n_classes,):
                raise ValueError(
                    f"class_prior has shape {prior.shape}, but y has {n_classes} "
                    f"classes {self.classes_.tolist()}; give one prior per class, "
                    "in the order of classes_ (the sorted labels)."
                )
            if not np.all(np.isfinite(prior)) or np.any(prior < 0) or prior.sum() <= 0:
                raise ValueError(
                    "class_prior must hold finite non-negative priors, not all zero; "
                    f"got {prior.tolist()}."
                )
            with np.errstate(divide="ignore"):
                return np.asarray(np.log(prior))
        if self.fit_prior:
            with np.errstate(divide="ignore"):  # a class whose rows all weigh 0
                return np.asarray(np.log(class_count) - np.log(class_count.sum()))
        return np.full(n_classes, -np.log(n_classes))

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        **fit_params: Any,
    ) -> DiscreteNaiveBayesClassifier:
        """Bin the features and count each class's weight in each bin.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (uniform if None); they weigh the counts, the
            quantile edges and the MDL cuts. Rows of weight 0 are ignored.
        **fit_params : dict
            None is accepted. Naive Bayes is cost-blind: ``sample_cost`` is
            refused with a TypeError that names the wrappers that take it.

        Returns
        -------
        self
            The fitted estimator.
        """
        refuse_fit_params(
            self,
            fit_params,
            "a cost-sensitive wrapper around it, such as costsense.rescale."
            "ThresholdMoving(DiscreteNaiveBayesClassifier()) or CostWeighting",
        )
        fit = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        X, target = fit.X, fit.y_index
        n_features, n_classes = X.shape[1], self.classes_.size
        categorical = self._categorical_mask(n_features)
        if fit.sample_weight is None:
            weight = np.ones(X.shape[0])
        else:
            weight = fit.sample_weight
            kept = weight > 0
            if not kept.all():  # rows of weight 0 influence nothing, edges included
                X, target, weight = X[kept], target[kept], weight[kept]
            if self.weights_as == "proportions":
                weight = weight * (weight.size / weight.sum())
        class_count = _weighted_count(target, weight, n_classes)
        log_prior = self._log_prior(class_count)
        codes = np.empty(X.shape, dtype=np.intp)
        edges: list[FloatArray] = []
        categories: list[FloatArray] = []
        n_bins = np.empty(n_features, dtype=np.intp)
        empty = np.empty(0, dtype=np.float64)
        for m in range(n_features):
            values, inverse = np.unique(X[:, m], return_inverse=True)
            inverse = inverse.reshape(-1)
            if categorical[m]:
                edges.append(empty.copy())
                categories.append(values)
                codes[:, m] = inverse
                n_bins[m] = values.size
                continue
            if self.binning == "quantile":
                value_weight = _weighted_count(inverse, weight, values.size)
                cut = _quantile_edges(values, value_weight, self.n_bins)
            else:
                flat = inverse * n_classes + target
                counts = _weighted_count(flat, weight, values.size * n_classes).reshape(
                    values.size, n_classes
                )
                cut = _mdl_edges(values, counts, self.n_bins)
            edges.append(cut)
            categories.append(empty.copy())
            codes[:, m] = np.searchsorted(cut, values, side="left")[inverse]
            n_bins[m] = cut.size + 1
        # one weighted bincount for every (feature, bin, class) cell
        offsets = np.concatenate(([0], np.cumsum(n_bins)[:-1]))
        cells = (codes + offsets) * n_classes + target[:, None]
        counts = _weighted_count(
            cells.ravel(), np.repeat(weight, n_features), int(n_bins.sum()) * n_classes
        ).reshape(-1, n_classes)
        bin_count = [
            np.ascontiguousarray(counts[start : start + size].T)
            for start, size in zip(offsets, n_bins, strict=True)
        ]
        alpha = float(self.alpha)
        self.class_count_ = class_count
        self.class_log_prior_ = log_prior
        self.categorical_ = categorical
        self.bin_edges_ = edges
        self.categories_ = categories
        self.n_bins_ = n_bins
        self.bin_count_ = bin_count
        self.feature_log_prob_ = [
            np.log(count + alpha) - np.log(class_count + alpha * size)[:, None]
            for count, size in zip(bin_count, n_bins, strict=True)
        ]
        # the training rows' joint log-likelihoods, from the codes binned above
        joint = np.broadcast_to(log_prior, (X.shape[0], n_classes)).copy()
        for m, log_prob in enumerate(self.feature_log_prob_):
            joint += log_prob[:, codes[:, m]].T
        self._check_degenerate(
            self.classes_[np.argmax(joint, axis=1)],
            reason="one class's prior and bin probabilities outweigh the others' "
            "in every training row",
        )
        return self

    def _codes(self, X: FloatArray) -> IntArray:
        """Bin (or category) of each value; ``n_bins_[m]`` for an unseen category."""
        codes = np.empty(X.shape, dtype=np.intp)
        for m in range(X.shape[1]):
            column = X[:, m]
            if self.categorical_[m]:
                categories = self.categories_[m]
                index = np.searchsorted(categories, column, side="left")
                inside = np.minimum(index, categories.size - 1)
                codes[:, m] = np.where(
                    categories[inside] == column, index, categories.size
                )
            else:
                codes[:, m] = np.searchsorted(self.bin_edges_[m], column, side="left")
        return codes

    def feature_log_likelihood(self, X: ArrayLike) -> FloatArray:
        """Return ``log P(x_im | c)`` of each sample, feature and class.

        Entry ``[i, m, c]`` is the smoothed log-probability, under the fitted
        model, of the bin (or category) of ``X[i, m]`` given class
        ``classes_[c]``: ``feature_log_prob_[m][c, b]``, and for a categorical
        value unseen in training ``log(alpha / (W_c + alpha * (B_m + 1)))``.
        :meth:`predict_log_proba` is ``class_log_prior_`` plus the sum of these
        over ``m``, normalised.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_features_in_, n_classes)
            Finite log-probabilities.
        """
        X = self._validated(X, dtype=np.float64)
        alpha = float(self.alpha)
        tables = []
        for m, log_prob in enumerate(self.feature_log_prob_):
            tables.append(log_prob.T)
            if self.categorical_[m]:  # the row of an unseen value
                size = self.n_bins_[m] + 1
                unseen = np.log(alpha) - np.log(self.class_count_ + alpha * size)
                tables.append(unseen[None, :])
        rows = self.n_bins_ + self.categorical_
        offsets = np.concatenate(([0], np.cumsum(rows)[:-1]))
        return np.concatenate(tables)[self._codes(X) + offsets]

    def _joint_log_likelihood(self, X: ArrayLike) -> FloatArray:
        """``log P(c) + sum_m log P(x_m | c)`` of each sample and class."""
        per_feature = self.feature_log_likelihood(X)  # checks that it is fitted
        return np.asarray(self.class_log_prior_ + per_feature.sum(axis=1))

    def predict_log_proba(self, X: ArrayLike) -> FloatArray:
        """Return the log of each class's posterior probability.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Joint log-likelihoods minus their log-sum-exp over the classes,
            columns in the order of ``classes_``.
        """
        joint = self._joint_log_likelihood(X)
        return np.asarray(joint - logsumexp(joint, axis=1, keepdims=True))

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return each class's posterior probability.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            ``exp`` of :meth:`predict_log_proba`; rows sum to 1.
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """Predict the class of largest joint log-likelihood.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted labels.
        """
        joint = self._joint_log_likelihood(X)
        return self.classes_[np.argmax(joint, axis=1)]
