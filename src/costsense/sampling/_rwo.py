"""RWO-Sampling: random walk oversampling (Zhang & Li 2014), cited by paper 003."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.sampling._base import ClassDensityOverSampler
from costsense.utils._docstrings import shared

__all__ = ["RWOSampler"]


@shared
class RWOSampler(ClassDensityOverSampler):
    """Random walk oversampling (RWO-Sampling, Zhang & Li 2014).

    Each synthetic row takes a parent row ``x`` of its class and one random step per
    continuous column, ``x_j - r_j sigma_j / sqrt(n_c)`` with ``r_j ~ N(0, 1)``,
    ``sigma_j`` the column's standard deviation in the class (``ddof=0``) and
    ``n_c`` the class's size: the standard error of the class mean, so by the central
    limit theorem the synthetic rows keep the class's mean, and their variance is
    ``sigma_j^2 (1 + 1 / n_c)``. Parents are used in turn (each row of the class
    ``floor`` or ``ceil`` of ``n_new / n_c`` times, the extra ones at random), as the
    original algorithm loops over the minority rows. Categorical columns are drawn
    by roulette wheel from the class's frequencies.

    Parameters
    ----------
    {sampling_strategy}
    random_state : int, RandomState instance or None, default=None
        Seeds the parents, the steps and the roulette wheels.
    {categorical_features}

    Attributes
    ----------
    sampling_strategy_ : dict
        Class label -> number of rows synthesised.
    models_ : dict
        Class label -> ``(mean, step)``: the class's column means and the step
        scales ``sigma_j / sqrt(n_c)`` of its continuous columns.
    categorical_features_ : ndarray of int
        Indices of the categorical columns.
    {n_features_in_}
    {feature_names_in_}

    Notes
    -----
    Tables are given back as tables, with the same columns and dtypes (a
    continuous column of integer dtype rounded to the nearest integer); a
    synthetic row's category is always one its class has in the training data.

    References
    ----------
    .. [1] H. Zhang, M. Li, "RWO-Sampling: a random walk over-sampling approach to
       imbalanced data classification", Information Fusion 20 (2014) 99-116.

    Examples
    --------
    >>> from collections import Counter
    >>> from sklearn.datasets import make_classification
    >>> from costsense.sampling import RWOSampler
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> X_res, y_res = RWOSampler(random_state=0).fit_resample(X, y)
    >>> sorted(Counter(y_res).values())
    [91, 91]
    """

    def __init__(
        self,
        *,
        sampling_strategy: Any = "auto",
        random_state: Any = None,
        categorical_features: Any = None,
    ) -> None:
        super().__init__(sampling_strategy=sampling_strategy)
        self.random_state = random_state
        self.categorical_features = categorical_features

    def _draw_continuous(
        self, X_class: NDArray[np.float64], n_new: int, rng: np.random.Generator
    ) -> tuple[Any, NDArray[np.float64]]:
        n_class = X_class.shape[0]
        step = X_class.std(axis=0) / np.sqrt(n_class)
        rounds, extra = divmod(n_new, n_class)
        parents = np.concatenate(
            [np.tile(np.arange(n_class), rounds), rng.permutation(n_class)[:extra]]
        )
        rng.shuffle(parents)
        draws = X_class[parents] - rng.standard_normal((n_new, X_class.shape[1])) * step
        return (X_class.mean(axis=0), step), draws
