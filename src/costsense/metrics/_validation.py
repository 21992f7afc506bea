"""Label, positive-class and weight checks every metric shares.

A ratio of 0 / 0 warns and gives 0.0, as scikit-learn does. Change it when one of
them changes for all metrics.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import check_consistent_length, column_or_1d

from costsense.costs import _class_indices, _label_index, _minority_label
from costsense.utils._stack import caller_level

FloatArray = NDArray[np.float64]


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

    Over ``classes``: a label absent from ``y_true`` has count 0, so a test set
    without positives still treats the missing class as the positive one.
    """
    if pos_label is not None:
        return classes[_label_index(classes, pos_label)]
    return _minority_label(classes, _class_indices(y_true, classes), None)


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


def _refuse_balanced(cost: Any, who: str = "a cost metric") -> None:
    """Refuse balanced costs: they would follow each scored set's class mix."""
    if not (cost is None or (isinstance(cost, str) and cost == "balanced")):
        return
    raise ValueError(
        f"cost={cost!r}: {who} needs the costs themselves (balanced costs would "
        "follow each scored set's class mix). Pass cost= (a ratio C1/C2, a pair "
        '(C1, C2), "unit" or a cost matrix) or sample_cost=.'
    )


def _ratio(numerator: float, denominator: float, name: str) -> float:
    """``numerator / denominator``; 0.0 with an UndefinedMetricWarning if 0/0."""
    if denominator == 0:
        warnings.warn(
            f"{name} is ill-defined (no samples in its denominator); returning 0.0.",
            UndefinedMetricWarning,
            stacklevel=caller_level(),
        )
        return 0.0
    return float(numerator / denominator)
