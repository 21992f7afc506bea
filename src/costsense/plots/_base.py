"""What every display shares: the binary labels, an estimator's scores, the axes."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import Costs, resolve_pos_label
from costsense.decision import realised_costs

FloatArray = NDArray[np.float64]


def binary_labels(y_true: ArrayLike, pos_label: Any, costs: Any = None) -> Any:
    """Return ``(y, classes, pos_label)`` of a binary target, refusing any other.

    The positive class is ``pos_label``, else that of a :class:`Costs`, else the
    minority class (as everywhere in costsense).
    """
    y = np.asarray(y_true)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"y_true: the displays are binary; it holds {classes.size} classes "
            f"{classes.tolist()[:5]} (plot one class against the rest)."
        )
    if pos_label is None and isinstance(costs, Costs):
        pos_label = costs.pos_label
    return y, classes, resolve_pos_label(y, pos_label)


def positive_scores(y_score: ArrayLike, classes: NDArray[Any], pos_label: Any) -> Any:
    """Return the positive class's scores from ``(n,)`` scores or ``(n, 2)`` proba."""
    score = np.asarray(y_score, dtype=np.float64)
    if score.ndim == 2 and score.shape[1] == 2:
        score = score[:, int(np.flatnonzero(classes == pos_label)[0])]
    if score.ndim != 1 or not np.isfinite(score).all():
        raise ValueError(
            "y_score: give one finite score per row, or predict_proba's (n, 2) rows."
        )
    return score


def estimator_proba(estimator: Any, X: Any, pos_label: Any) -> FloatArray:
    """Return ``predict_proba``'s column of ``pos_label``."""
    proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
    return np.asarray(proba[:, list(estimator.classes_).index(pos_label)])


def estimator_scores(estimator: Any, X: Any, pos_label: Any) -> FloatArray:
    """``predict_proba``'s column of ``pos_label``, else ``decision_function``."""
    if hasattr(estimator, "predict_proba"):
        return estimator_proba(estimator, X, pos_label)
    score = np.asarray(estimator.decision_function(X), dtype=np.float64)
    return score if estimator.classes_[1] == pos_label else -score


def outcome_costs(
    y: NDArray[Any], classes: NDArray[Any], pos_label: Any, costs: Any
) -> tuple[FloatArray, NDArray[np.bool_]]:
    """Each row's cost if left (column 0) and if acted on (column 1), and positives.

    Acting means predicting ``pos_label``; the costs are
    :func:`~costsense.decision.realised_costs` of ``costs``.
    """
    if not isinstance(costs, Costs) and np.ndim(costs) not in (2, 3):
        raise ValueError(
            "costs: give a Costs, a (2, 2) matrix or (n_samples, 2, 2) matrices "
            "(cost[true, predicted], classes in sorted order)."
        )
    realised = realised_costs(y, costs, classes)
    pos = int(np.flatnonzero(classes == pos_label)[0])
    return realised[:, [1 - pos, pos]], y == pos_label


def new_axes(ax: Any) -> tuple[Any, Any]:
    """Return ``(ax, figure)``: a new pyplot figure's axes if ``ax`` is None.

    matplotlib is imported here only, when a display is drawn.
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax, ax.figure
