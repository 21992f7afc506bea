"""The money a binary decision saves, against its threshold or its capacity."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from costsense.costs import Costs, bayes_threshold
from costsense.decision import capacity_curve, expected_costs

from ._base import (
    FloatArray,
    binary_labels,
    estimator_proba,
    new_axes,
    outcome_costs,
    positive_scores,
)

__all__ = ["SavingsCurveDisplay"]


class SavingsCurveDisplay:
    """Money saved by acting on rows, against the threshold or the share acted on.

    Build it with :meth:`from_predictions` or :meth:`from_estimator`; every
    parameter is kept as an attribute of the same name.

    Parameters
    ----------
    x : ndarray of shape (n_points,)
        ``kind="threshold"``: thresholds on ``P(positive)`` (act on rows with
        ``p >= threshold``); ``kind="share"``: shares of the rows acted on, those
        of largest expected saving.
    saving : ndarray of shape (n_points,)
        The baseline's realised cost minus the decision's, in money.
    baseline_cost : float
        The realised cost of the cheaper constant action.
    baseline : str
        Which constant action that is: "acting on nobody" or "acting on everybody".
    bayes_saving : float
        The saving of the cost-sensitive Bayes decision (least expected cost per
        row, ties left alone).
    bayes_x : float or None
        Where it lies on ``x``: its threshold for class costs (None for per-row
        costs, a threshold per row), or the share of rows it acts on.
    kind : {"threshold", "share"}, default="threshold"
        What ``x`` holds.
    name : str, default=None
        The model's name in the legend.
    pos_label : label, default=None
        The positive class (acting = predicting it).

    Attributes
    ----------
    line_ : matplotlib Line2D
        The savings curve.
    bayes_mark_ : matplotlib Artist
        The Bayes decision: a point at ``bayes_x``, else a horizontal line at its
        saving.
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure of ``ax_``.

    Notes
    -----
    With ``c0[r]`` and ``c1[r]`` row ``r``'s realised cost if left and if acted on,
    the threshold ``t`` saves ``min(sum c0, sum c1) - sum_r (c1[r] if p_r >= t
    else c0[r])``; over ``baseline_cost`` this is Correa Bahnsen et al.'s savings
    [1]_ (:func:`~costsense.metrics.savings_score`). For class costs the Bayes
    decision is the threshold ``C2 / (C1 + C2)`` [2]_. With a capacity, acting on
    the rows of largest expected saving is optimal
    (:func:`~costsense.decision.capacity_curve`); at share 1 it is the Bayes
    decision.

    References
    ----------
    .. [1] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent
       cost-sensitive decision trees", Expert Systems with Applications 42(19),
       2015.
    .. [2] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.

    Examples
    --------
    >>> import numpy as np
    >>> from costsense.plots import SavingsCurveDisplay
    >>> y = [0, 0, 0, 1, 1]
    >>> proba = [0.1, 0.4, 0.6, 0.3, 0.9]
    >>> costs = np.array([[0, 1], [4, 0]])  # a missed positive costs 4, an alarm 1
    >>> display = SavingsCurveDisplay.from_predictions(
    ...     y, proba, costs=costs, thresholds=[0.2, 0.5])
    >>> display.baseline, display.baseline_cost  # acting on everybody: 3 alarms
    ('acting on everybody', 3.0)
    >>> display.saving.tolist()  # 3 - 2 alarms; 3 - (1 alarm + 1 miss x 4)
    [1.0, -2.0]
    >>> display.bayes_x, display.bayes_saving  # 1 / (4 + 1)
    (0.2, 1.0)
    >>> share = SavingsCurveDisplay.from_predictions(
    ...     y, proba, costs=costs, kind="share", shares=[0.2, 0.4])
    >>> share.x.tolist(), share.saving.tolist()  # act on none, on 0.9, on 0.9, 0.6
    ([0.0, 0.2, 0.4], [-5.0, -1.0, -2.0])
    """

    def __init__(
        self,
        *,
        x: FloatArray,
        saving: FloatArray,
        baseline_cost: float,
        baseline: str,
        bayes_saving: float,
        bayes_x: float | None = None,
        kind: str = "threshold",
        name: str | None = None,
        pos_label: Any = None,
    ) -> None:
        self.x = x
        self.saving = saving
        self.baseline_cost = baseline_cost
        self.baseline = baseline
        self.bayes_saving = bayes_saving
        self.bayes_x = bayes_x
        self.kind = kind
        self.name = name
        self.pos_label = pos_label

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        proba: ArrayLike,
        *,
        costs: Any,
        pos_label: Any = None,
        kind: str = "threshold",
        thresholds: ArrayLike | None = None,
        shares: Sequence[float] | None = None,
        name: str | None = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> SavingsCurveDisplay:
        """Compute the savings at each threshold (or share) and draw them.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels of two classes.
        proba : array-like of shape (n_samples,) or (n_samples, 2)
            ``P(positive)`` per row (or ``predict_proba``'s rows).
        costs : Costs or array-like of shape (2, 2) or (n_samples, 2, 2)
            ``costs[..., true, predicted]`` in sorted label order, or a
            :class:`~costsense.costs.Costs` (as
            :func:`~costsense.decision.realised_costs` takes them).
        pos_label : label, default=None
            The class acted on; that of a ``Costs``, else the minority class.
        kind : {"threshold", "share"}, default="threshold"
            Savings against the threshold on ``P(positive)``, or against the share
            of rows acted on (a capacity), rows ranked by expected saving.
        thresholds : array-like, default=None
            ``kind="threshold"``: where to evaluate; None: every distinct
            probability and a grid of 101 points on [0, 1].
        shares : sequence of float, default=None
            ``kind="share"``: shares in (0, 1] (rounded down to whole rows); None:
            0.01, 0.02, ..., 1. Share 0 (acting on nobody) is always added.
        name : str, default=None
            Legend name.
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure.
        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        SavingsCurveDisplay
        """
        if kind not in ("threshold", "share"):
            raise ValueError(f"kind={kind!r}: give 'threshold' or 'share'.")
        y, classes, pos_label = binary_labels(y_true, pos_label, costs)
        p = positive_scores(proba, classes, pos_label)
        if p.min() < 0 or p.max() > 1:
            raise ValueError("proba: give probabilities in [0, 1] (predict_proba).")
        leave_act, _ = outcome_costs(y, classes, pos_label, costs)
        totals = leave_act.sum(axis=0)
        baseline_cost = float(totals.min())
        pos = int(np.flatnonzero(classes == pos_label)[0])
        two = np.zeros((p.size, 2))
        two[:, pos], two[:, 1 - pos] = p, 1 - p
        expected = expected_costs(two, costs)
        acted = expected[:, pos] < expected[:, 1 - pos]
        spent = np.where(acted, leave_act[:, 1], leave_act[:, 0]).sum()
        if kind == "share":
            curve = capacity_curve(
                two,
                y,
                costs,
                action=pos_label if isinstance(costs, Costs) else pos,
                shares=[i / 100 for i in range(1, 101)] if shares is None else shares,
            )
            x = np.r_[0.0, [row["share"] for row in curve]]
            saving = np.r_[totals.min() - totals[0], [row["saving"] for row in curve]]
            bayes_x: float | None = float(acted.mean())
        else:
            default = np.r_[np.linspace(0, 1, 101), p]
            x = np.unique(np.asarray(default if thresholds is None else thresholds))
            # cost(t) = sum c0 + sum over rows with p >= t of (c1 - c0)
            order = np.argsort(p)
            extra = (leave_act[:, 1] - leave_act[:, 0])[order]
            gain = np.r_[np.cumsum(extra[::-1])[::-1], 0]
            saving = baseline_cost - totals[0] - gain[np.searchsorted(p[order], x)]
            bayes_x = None
            per_row = isinstance(costs, Costs) and costs.example_dependent
            matrix = costs.matrix if isinstance(costs, Costs) else np.asarray(costs)
            if matrix.ndim == 2 and not per_row:
                neg = 1 - pos
                c1 = matrix[pos, neg] - matrix[pos, pos]  # a missed positive
                bayes_x = bayes_threshold((c1, matrix[neg, pos] - matrix[neg, neg]))
        display = cls(
            x=np.asarray(x, dtype=np.float64),
            saving=np.asarray(saving, dtype=np.float64),
            baseline_cost=baseline_cost,
            baseline=("acting on nobody", "acting on everybody")[
                int(np.argmin(totals))
            ],
            bayes_saving=float(baseline_cost - spent),
            bayes_x=bayes_x,
            kind=kind,
            name=name,
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
        name: str | None = None,
        **kwargs: Any,
    ) -> SavingsCurveDisplay:
        """Draw the savings of a fitted classifier's probabilities on ``X``.

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba`` and ``classes_``.
        X : array-like of shape (n_samples, n_features)
            Rows to decide on.
        y : array-like of shape (n_samples,)
            Their true labels.
        costs : Costs or array-like of shape (2, 2) or (n_samples, 2, 2)
            As in :meth:`from_predictions`.
        pos_label : label, default=None
            The class acted on.
        name : str, default=None
            Legend name; the estimator's class name if None.
        **kwargs : dict
            Passed to :meth:`from_predictions`.

        Returns
        -------
        SavingsCurveDisplay
        """
        y, _, pos_label = binary_labels(y, pos_label, costs)
        return cls.from_predictions(
            y,
            estimator_proba(estimator, X, pos_label),
            costs=costs,
            pos_label=pos_label,
            name=type(estimator).__name__ if name is None else name,
            **kwargs,
        )

    def plot(
        self, ax: Any = None, *, name: str | None = None, **kwargs: Any
    ) -> SavingsCurveDisplay:
        """Draw the savings curve and mark the Bayes decision.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure.
        name : str, default=None
            Legend name; ``self.name`` if None.
        **kwargs : dict
            Passed to the curve's ``ax.plot``.

        Returns
        -------
        SavingsCurveDisplay
            ``self``, with ``ax_``, ``figure_``, ``line_`` and ``bayes_mark_``.
        """
        self.ax_, self.figure_ = new_axes(ax)
        ax = self.ax_
        style = {"label": (name or self.name) or "savings", **kwargs}
        steps = "steps-pre" if self.kind == "threshold" else "default"
        (self.line_,) = ax.plot(self.x, self.saving, drawstyle=steps, **style)
        colour = self.line_.get_color()
        if self.bayes_x is None:
            self.bayes_mark_ = ax.axhline(
                self.bayes_saving,
                ls="--",
                lw=1,
                color=colour,
                label="Bayes decision (per-row costs)",
            )
        else:
            where = "threshold" if self.kind == "threshold" else "acting on"
            (self.bayes_mark_,) = ax.plot(
                [self.bayes_x],
                [self.bayes_saving],
                "o",
                color=colour,
                label=f"Bayes decision ({where} {self.bayes_x:.3g})",
            )
        ax.axhline(0, color="0.5", lw=0.8)
        xlabel = (
            f"Threshold on P({self.pos_label}): act on rows at or above it"
            if self.kind == "threshold"
            else "Share of rows acted on, by expected saving (capacity)"
        )
        ax.set(
            xlabel=xlabel,
            ylabel=f"Saved against {self.baseline} ({self.baseline_cost:,.4g})",
        )
        ax.legend(loc="best", fontsize="small")
        return self
