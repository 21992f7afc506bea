"""A binary decision's realised cost, split by outcome, per model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._base import FloatArray, binary_labels, new_axes, outcome_costs

__all__ = ["CostBreakdownDisplay"]

#: The outcomes, in the order of ``parts``' columns.
OUTCOMES = ("false alarms", "missed positives", "handled positives", "true negatives")


class CostBreakdownDisplay:
    """Where each model's money goes: one horizontal stacked bar per model.

    Build it with :meth:`from_predictions` or :meth:`from_estimator`; every
    parameter is kept as an attribute of the same name.

    Parameters
    ----------
    names : list of str
        The models, one bar each.
    parts : ndarray of shape (n_models, 4)
        Each model's realised cost of false alarms (negatives acted on), missed
        positives, handled positives (true positives) and true negatives; a
        row's sum is the decision's total cost
        (:func:`~costsense.metrics.misclassification_cost`).
    pos_label : label, default=None
        The positive class (acting = predicting it).

    Attributes
    ----------
    bars_ : list of matplotlib BarContainer
        One container per outcome.
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure of ``ax_``.

    Examples
    --------
    >>> from costsense.plots import CostBreakdownDisplay
    >>> y = [0, 0, 0, 1, 1]
    >>> costs = [[0, 1], [4, 0.5]]  # handling a positive costs 0.5
    >>> display = CostBreakdownDisplay.from_predictions(
    ...     y, {"model": [1, 0, 0, 0, 1], "everybody": [1, 1, 1, 1, 1]}, costs=costs)
    >>> display.parts.tolist()
    [[1.0, 4.0, 0.5, 0.0], [3.0, 0.0, 1.0, 0.0]]
    """

    def __init__(
        self, *, names: list[str], parts: FloatArray, pos_label: Any = None
    ) -> None:
        self.names = names
        self.parts = parts
        self.pos_label = pos_label

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_pred: ArrayLike | Mapping[str, ArrayLike],
        *,
        costs: Any,
        pos_label: Any = None,
        name: str | None = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> CostBreakdownDisplay:
        """Split each decision's realised cost by outcome and draw the bars.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels of two classes.
        y_pred : array-like of shape (n_samples,) or dict of str to array-like
            Predicted labels, or several models' by name.
        costs : Costs or array-like of shape (2, 2) or (n_samples, 2, 2)
            ``costs[..., true, predicted]`` in sorted label order, or a
            :class:`~costsense.costs.Costs` (as
            :func:`~costsense.decision.realised_costs` takes them).
        pos_label : label, default=None
            The class acted on; that of a ``Costs``, else the minority class.
        name : str, default=None
            The model's name when ``y_pred`` is one array.
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure.
        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        CostBreakdownDisplay
        """
        y, classes, pos_label = binary_labels(y_true, pos_label, costs)
        leave_act, positive = outcome_costs(y, classes, pos_label, costs)
        if not isinstance(y_pred, Mapping):
            y_pred = {name or "model": y_pred}
        parts = []
        for label, pred in y_pred.items():
            pred = np.asarray(pred)
            if pred.shape != y.shape or not np.isin(pred, classes).all():
                raise ValueError(
                    f"y_pred[{label!r}]: give one label of {classes.tolist()} per row "
                    f"({y.size})."
                )
            acted = pred == pos_label
            parts.append(
                [
                    leave_act[acted & ~positive, 1].sum(),
                    leave_act[~acted & positive, 0].sum(),
                    leave_act[acted & positive, 1].sum(),
                    leave_act[~acted & ~positive, 0].sum(),
                ]
            )
        display = cls(
            names=[str(label) for label in y_pred],
            parts=np.asarray(parts, dtype=np.float64),
            pos_label=pos_label,
        )
        return display.plot(ax=ax, **kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        costs: Any,
        pos_label: Any = None,
        **kwargs: Any,
    ) -> CostBreakdownDisplay:
        """Split fitted classifiers' decisions on ``X`` by outcome.

        Parameters
        ----------
        estimator : fitted classifier or dict of str to fitted classifier
            One model (named by its class) or several by name; ``predict(X)``
            is each one's decision.
        X : array-like of shape (n_samples, n_features)
            Rows to decide on.
        y : array-like of shape (n_samples,)
            Their true labels.
        costs : Costs or array-like of shape (2, 2) or (n_samples, 2, 2)
            As in :meth:`from_predictions`.
        pos_label : label, default=None
            The class acted on.
        **kwargs : dict
            Passed to :meth:`from_predictions`.

        Returns
        -------
        CostBreakdownDisplay
        """
        models = (
            estimator
            if isinstance(estimator, Mapping)
            else {type(estimator).__name__: estimator}
        )
        y_pred = {name: model.predict(X) for name, model in models.items()}
        return cls.from_predictions(
            y, y_pred, costs=costs, pos_label=pos_label, **kwargs
        )

    def plot(self, ax: Any = None, **kwargs: Any) -> CostBreakdownDisplay:
        """Draw one horizontal bar per model, stacked by outcome.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure.
        **kwargs : dict
            Passed to every ``ax.barh``.

        Returns
        -------
        CostBreakdownDisplay
            ``self``, with ``ax_``, ``figure_`` and ``bars_``.
        """
        self.ax_, self.figure_ = new_axes(ax)
        ax = self.ax_
        left = np.zeros(len(self.names))
        self.bars_ = []
        for column, outcome in enumerate(OUTCOMES):
            width = self.parts[:, column]
            self.bars_.append(
                ax.barh(self.names, width, left=left, label=outcome, **kwargs)
            )
            left = left + width
        ax.invert_yaxis()  # the first model on top
        ax.set_xlabel(f"Realised cost (positive: {self.pos_label})")
        ax.legend(loc="best", fontsize="small")
        return self
