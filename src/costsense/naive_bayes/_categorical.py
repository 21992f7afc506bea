"""Which columns are categorical: the reading of ``categorical_features``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.utils._columns import categorical_mask

__all__ = ["categorical_feature_mask"]


def categorical_feature_mask(
    categorical_features: ArrayLike | None, n_features: int
) -> NDArray[np.bool_]:
    """Read ``categorical_features`` (indices or a boolean mask) as a boolean mask.

    The reading of :class:`DiscreteNaiveBayesClassifier`'s ``categorical_features``,
    shared with the estimators that pass it on (EFSBoost, the resampling boosters).

    Parameters
    ----------
    categorical_features : array-like of int or bool, or None
        Column indices (negative ones count from the end) or a boolean mask with
        one entry per column; None or empty: no categorical column.
    n_features : int
        Number of columns.

    Returns
    -------
    ndarray of bool, shape (n_features,)

    Raises
    ------
    ValueError
        A 2-d value, a mask of the wrong length, or an index that is not an
        integer or outside the columns, each named with the fix.

    Examples
    --------
    >>> from costsense.naive_bayes import categorical_feature_mask
    >>> categorical_feature_mask([0, -1], 4).tolist()
    [True, False, False, True]
    """
    return categorical_mask(categorical_features, None, n_features)
