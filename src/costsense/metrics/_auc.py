"""The ROC AUC of a binary score, for costsense's positive class.

scikit-learn's scores the greater label. Change it for another ranking metric.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn import metrics as _skm
from sklearn.utils import check_consistent_length, column_or_1d

from costsense.metrics._validation import _positive


def binary_roc_auc_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the ROC curve of a binary score.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (two classes).
    y_score : array-like of shape (n_samples,)
        Scores, larger for the positive class.
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        The probability that a random positive scores above a random negative
        (ties count one half).
    """
    y_true = np.asarray(column_or_1d(np.asarray(y_true), warn=True))
    y_score = np.asarray(column_or_1d(np.asarray(y_score, dtype=np.float64), warn=True))
    check_consistent_length(y_true, y_score)
    if not np.all(np.isfinite(y_score)):
        raise ValueError("y_score contains NaN or infinite values.")
    classes = np.unique(y_true)
    if classes.size != 2:
        raise ValueError(
            "binary_roc_auc_score needs both classes in y_true; it holds "
            f"{classes.tolist()}."
        )
    positive = _positive(y_true, classes, pos_label)
    return float(
        _skm.roc_auc_score(y_true == positive, y_score, sample_weight=sample_weight)
    )
