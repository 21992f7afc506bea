"""Ratios of confusion counts, and two label-symmetric scores from scikit-learn.

Recall, specificity, precision, F-beta and G-mean of the positive class; balanced
accuracy and Cohen's kappa. Change it to add a ratio of confusion counts.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn import metrics as _skm

from costsense.costs import _label_index
from costsense.metrics._validation import _binary, _labels, _ratio, _weights

_Metric = TypeVar("_Metric", bound=Callable[..., Any])
_BINARY = """y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (binary).
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights."""


def _binary_doc(metric: _Metric) -> _Metric:
    """Fill ``{binary}`` in a binary metric's docstring with the shared parameters."""
    metric.__doc__ = (metric.__doc__ or "").replace("{binary}", _BINARY)
    return metric


@_binary_doc
def binary_confusion(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> tuple[float, float, float, float]:
    """Count true positives, false negatives, false positives and true negatives.

    Parameters
    ----------
    {binary}

    Returns
    -------
    (tp, fn, fp, tn) : tuple of float
    """
    truth, pred, _ = _binary(y_true, y_pred, pos_label)
    weight = _weights(sample_weight, truth.shape[0])
    return (
        float(weight[truth & pred].sum()),
        float(weight[truth & ~pred].sum()),
        float(weight[~truth & pred].sum()),
        float(weight[~truth & ~pred].sum()),
    )


@_binary_doc
def binary_recall_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Recall (sensitivity, true-positive rate) of the positive class.

    Parameters
    ----------
    {binary}

    Returns
    -------
    float
        ``TP / (TP + FN)``; 0.0 with a warning if there are no positives.
    """
    tp, fn, _, _ = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    return _ratio(tp, tp + fn, "recall")


@_binary_doc
def binary_specificity_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Specificity (true-negative rate): the recall of the negative class.

    Parameters
    ----------
    {binary}

    Returns
    -------
    float
        ``TN / (TN + FP)``; 0.0 with a warning if there are no negatives.
    """
    _, _, fp, tn = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    return _ratio(tn, tn + fp, "specificity")


@_binary_doc
def binary_precision_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Precision of the positive class.

    Parameters
    ----------
    {binary}

    Returns
    -------
    float
        ``TP / (TP + FP)``; 0.0 with a warning if nothing is predicted positive
        (scikit-learn's ``zero_division`` default).
    """
    tp, _, fp, _ = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    return _ratio(tp, tp + fp, "precision")


def binary_fbeta_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float = 1.0,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """F-beta score of the positive class.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (binary).
    beta : float, default=1.0
        Weight of recall relative to precision (> 0).
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        ``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``; 0.0 without positives.
    """
    if not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a finite number > 0, got {beta!r}.")
    tp, fn, fp, _ = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    b2 = beta * beta
    return _ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp, "F-score")


@_binary_doc
def binary_f1_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """F1 score of the positive class: :func:`binary_fbeta_score` with ``beta = 1``.

    Parameters
    ----------
    {binary}

    Returns
    -------
    float
        ``2 TP / (2 TP + FN + FP)``.
    """
    return binary_fbeta_score(
        y_true, y_pred, beta=1.0, pos_label=pos_label, sample_weight=sample_weight
    )


def g_mean_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Geometric mean of the per-class recalls (Kubat & Matwin 1997).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels, any number of classes.
    pos_label : hashable, default=None
        Accepted for a uniform signature (an unknown label is an error).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        The ``K``-th root of the product of the per-class recalls (binary:
        ``sqrt(recall * specificity)``); a label only predicted has recall 0,
        with an UndefinedMetricWarning (imbalanced-learn's multiclass G-mean).
    """
    y_true, y_pred, classes = _labels(y_true, y_pred)
    if pos_label is not None:
        _label_index(classes, pos_label)
    weight = _weights(sample_weight, y_true.shape[0])
    recalls = []
    for label in classes:  # a label only predicted has recall 0 (as imblearn)
        mine = y_true == label
        hits = weight[mine & (y_pred == label)].sum()
        recalls.append(_ratio(hits, weight[mine].sum(), "G-mean"))
    return float(np.prod(recalls) ** (1.0 / len(recalls)))


def balanced_accuracy_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
) -> float:
    """Mean of the per-class recalls (scikit-learn's ``balanced_accuracy_score``).

    Parameters
    ----------
    y_true, y_pred, sample_weight
        As in :func:`cohen_kappa_score`.

    Returns
    -------
    float
    """
    y_true, y_pred, _ = _labels(y_true, y_pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # y_pred labels not in y_true
        return float(
            _skm.balanced_accuracy_score(y_true, y_pred, sample_weight=sample_weight)
        )


def cohen_kappa_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
) -> float:
    """Cohen's kappa: agreement beyond chance (scikit-learn's ``cohen_kappa_score``).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels, any number of classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        ``(p_o - p_e) / (1 - p_e)``: accuracy against chance agreement.
    """
    y_true, y_pred, _ = _labels(y_true, y_pred)
    return float(_skm.cohen_kappa_score(y_true, y_pred, sample_weight=sample_weight))
