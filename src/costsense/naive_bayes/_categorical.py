"""Which columns are categorical: the reading of ``categorical_features``.

Shared by :class:`~costsense.naive_bayes.DiscreteNaiveBayesClassifier` and the
estimators that pass the parameter on (EFSBoost, the resampling boosters). Change
it when the parameter accepts another form.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

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
        A 2-d value, a mask of the wrong length, non-integer indices, or an index
        outside the columns, each named with the fix.

    Examples
    --------
    >>> from costsense.naive_bayes import categorical_feature_mask
    >>> categorical_feature_mask([0, -1], 4).tolist()
    [True, False, False, True]
    """
    mask = np.zeros(n_features, dtype=bool)
    if categorical_features is None:
        return mask
    given = np.asarray(categorical_features)
    if given.size == 0:
        return mask
    if given.ndim != 1:
        raise ValueError(
            f"categorical_features has shape {given.shape}; give a 1-d list of "
            "column indices or a boolean mask with one entry per column."
        )
    if given.dtype == bool:
        if given.size != n_features:
            raise ValueError(
                f"categorical_features is a boolean mask of {given.size} "
                f"entries, but X has {n_features} features; give one True/False "
                "per column, or the indices of the categorical columns."
            )
        return given.copy()
    if not np.issubdtype(given.dtype, np.integer):
        raise ValueError(
            "categorical_features must hold column indices (integers) or a "
            f"boolean mask; got values of dtype {given.dtype}."
        )
    outside = given[(given < -n_features) | (given >= n_features)]
    if outside.size:
        raise ValueError(
            f"categorical_features holds the index {int(outside[0])}, but X has "
            f"{n_features} features; give indices from 0 to {n_features - 1} "
            "(or negative ones counted from the end)."
        )
    mask[given] = True
    return mask
