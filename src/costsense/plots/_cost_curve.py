"""Drummond and Holte's cost curves of a binary scoring classifier."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from costsense.costs import as_binary_costs, bayes_threshold

from ._base import (
    FloatArray,
    binary_labels,
    estimator_scores,
    new_axes,
    positive_scores,
)

__all__ = ["CostCurveDisplay"]

#: The probability-cost values at which the lower envelope is evaluated.
_GRID = np.linspace(0.0, 1.0, 1001)


class CostCurveDisplay:
    r"""Cost curve: normalised expected cost against the probability-cost function.

    Build it with :meth:`from_predictions` or :meth:`from_estimator`; every
    parameter is kept as an attribute of the same name.

    Parameters
    ----------
    pc : ndarray of shape (n_points,)
        Values of the probability-cost function ``PC(+)`` (the x axis).
    norm_cost : ndarray of shape (n_points,)
        The lower envelope at ``pc``: the least normalised expected cost of any
        operating point, the two trivial classifiers included.
    fpr, fnr : ndarray of shape (n_thresholds,)
        False-positive and false-negative rates of each operating point: the line
        from ``(0, fpr)`` to ``(1, fnr)``.
    thresholds : ndarray of shape (n_thresholds,)
        The score thresholds (positive iff ``score >= threshold``), ``inf`` and
        ``-inf`` standing for "all negative" and "all positive".
    decision : tuple of (threshold, fpr, fnr), default=None
        A decision at one threshold, drawn as its own line.
    operating_pc : float, default=None
        ``PC(+)`` at the costs the model is used at, drawn as a vertical line.
    name : str, default=None
        The model's name in the legend.
    pos_label : label, default=None
        The positive class.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The lower envelope.
    lines_ : matplotlib LineCollection or None
        The operating points' lines (``plot(show_lines=True)``).
    trivial_ : list of matplotlib Line2D
        "All negative" (``y = x``) and "all positive" (``y = 1 - x``).
    decision_line_ : matplotlib Line2D or None
        The line of ``decision``.
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure of ``ax_``.

    Notes
    -----
    With ``p(+)`` the share of positives and ``C(-|+)``, ``C(+|-)`` the costs of
    a missed positive and of a false alarm, Drummond and Holte [1]_ (section 3;
    also [2]_, section 5.7) plot an operating point of rates ``(FPR, TPR)`` as

    .. math::

        PC(+) = \frac{p(+) C(-|+)}{p(+) C(-|+) + p(-) C(+|-)}, \qquad
        NE = (1 - TPR - FPR)\, PC(+) + FPR,

    the expected cost divided by its largest value over classifiers. A scoring
    classifier can take any of its thresholds, so its curve is the lower envelope
    of its lines; it never lies above ``min(PC, 1 - PC)``, the better trivial
    classifier.

    References
    ----------
    .. [1] C. Drummond, R. C. Holte, "Cost curves: an improved method for
       visualizing classifier performance", Machine Learning 65(1), 2006.
    .. [2] I. H. Witten, E. Frank, "Data Mining: Practical Machine Learning Tools
       and Techniques", 2nd ed., Morgan Kaufmann, 2005.

    Examples
    --------
    >>> from costsense.plots import CostCurveDisplay
    >>> y = [0, 0, 0, 1, 1]
    >>> score = [0.1, 0.4, 0.6, 0.55, 0.9]
    >>> display = CostCurveDisplay.from_predictions(y, score, cost=(4, 1))
    >>> # worst at PC(+) = 0.4, where the lines 0.5 PC and (1 - PC) / 3 cross
    >>> round(float(display.norm_cost.max()), 3)
    0.2
    >>> [round(v, 3) for v in display.decision]  # Bayes threshold 1 / (4 + 1)
    [0.2, 0.667, 0.0]
    """

    def __init__(
        self,
        *,
        pc: FloatArray,
        norm_cost: FloatArray,
        fpr: FloatArray,
        fnr: FloatArray,
        thresholds: FloatArray,
        decision: tuple[float, float, float] | None = None,
        operating_pc: float | None = None,
        name: str | None = None,
        pos_label: Any = None,
    ) -> None:
        self.pc = pc
        self.norm_cost = norm_cost
        self.fpr = fpr
        self.fnr = fnr
        self.thresholds = thresholds
        self.decision = decision
        self.operating_pc = operating_pc
        self.name = name
        self.pos_label = pos_label

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        pos_label: Any = None,
        thresholds: ArrayLike | None = None,
        threshold: float | None = None,
        cost: Any = None,
        name: str | None = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> CostCurveDisplay:
        """Compute the cost curve of scores and draw it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels of two classes.
        y_score : array-like of shape (n_samples,) or (n_samples, 2)
            Scores of the positive class (or ``predict_proba``'s rows).
        pos_label : label, default=None
            The positive class; the minority class if None.
        thresholds : array-like, default=None
            The thresholds whose lines make the envelope (positive iff
            ``score >= threshold``); None: every distinct score. "All negative"
            and "all positive" are always added.
        threshold : float, default=None
            A decision to mark; None: the Bayes threshold of ``cost`` if given.
        cost : float or pair of floats, default=None
            ``C1 / C2`` or ``(C1, C2)`` (missed positive, false alarm) the model
            is used at: marks ``PC(+)`` at these costs and, for probabilities,
            their Bayes threshold :func:`~costsense.costs.bayes_threshold`.
        name : str, default=None
            Legend name.
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure.
        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        CostCurveDisplay
        """
        y, classes, pos_label = binary_labels(y_true, pos_label)
        score = positive_scores(y_score, classes, pos_label)
        cuts = np.unique(score if thresholds is None else np.ravel(thresholds))
        cuts = np.r_[np.inf, cuts[::-1], -np.inf]
        fpr, fnr = _rates(score, y == pos_label, cuts)
        envelope = np.full_like(_GRID, np.inf)
        for start in range(0, cuts.size, 256):  # bounded memory for many rows
            part = slice(start, start + 256)
            lines = fpr[part, None] + np.outer(fnr[part] - fpr[part], _GRID)
            envelope = np.minimum(envelope, lines.min(axis=0))
        operating_pc = None
        if cost is not None:
            c1, c2 = as_binary_costs(cost)
            p = float(np.mean(y == pos_label))
            operating_pc = p * c1 / (p * c1 + (1 - p) * c2)
            threshold = bayes_threshold(cost) if threshold is None else threshold
        decision = None
        if threshold is not None:
            one_fpr, one_fnr = _rates(score, y == pos_label, np.array([threshold]))
            decision = (float(threshold), float(one_fpr[0]), float(one_fnr[0]))
        display = cls(
            pc=_GRID.copy(),
            norm_cost=envelope,
            fpr=fpr,
            fnr=fnr,
            thresholds=cuts,
            decision=decision,
            operating_pc=operating_pc,
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
        pos_label: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CostCurveDisplay:
        """Draw the cost curve of a fitted classifier's scores on ``X``.

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba`` (else ``decision_function``) and ``classes_``.
        X : array-like of shape (n_samples, n_features)
            Rows to score.
        y : array-like of shape (n_samples,)
            Their true labels.
        pos_label : label, default=None
            The positive class; the minority class if None.
        name : str, default=None
            Legend name; the estimator's class name if None.
        **kwargs : dict
            Passed to :meth:`from_predictions`.

        Returns
        -------
        CostCurveDisplay
        """
        y, _, pos_label = binary_labels(y, pos_label)
        return cls.from_predictions(
            y,
            estimator_scores(estimator, X, pos_label),
            pos_label=pos_label,
            name=type(estimator).__name__ if name is None else name,
            **kwargs,
        )

    def plot(
        self,
        ax: Any = None,
        *,
        name: str | None = None,
        show_lines: bool = False,
        **kwargs: Any,
    ) -> CostCurveDisplay:
        """Draw the envelope, the trivial classifiers and the marks.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure.
        name : str, default=None
            Legend name; ``self.name`` if None.
        show_lines : bool, default=False
            Also draw every operating point's line (thin, grey).
        **kwargs : dict
            Passed to the envelope's ``ax.plot``.

        Returns
        -------
        CostCurveDisplay
            ``self``, with ``ax_``, ``figure_``, ``line_`` and the other artists.
        """
        self.ax_, self.figure_ = new_axes(ax)
        ax = self.ax_
        name = self.name if name is None else name
        self.trivial_ = [
            ax.plot([0, 1], [0, 1], ":", color="0.5", lw=1)[0],
            ax.plot([0, 1], [1, 0], ":", color="0.5", lw=1)[0],
        ]
        self.lines_ = None
        if show_lines:
            from matplotlib.collections import LineCollection

            ends = np.stack([self.fpr, self.fnr], axis=1)
            segments = np.stack([np.zeros_like(ends), ends], axis=2)
            segments[:, 1, 0] = 1.0  # each line from (0, fpr) to (1, fnr)
            self.lines_ = LineCollection(list(segments), colors="0.8", linewidths=0.5)
            ax.add_collection(self.lines_)
        style = {"label": name or "lower envelope", **kwargs}
        (self.line_,) = ax.plot(self.pc, self.norm_cost, **style)
        self.decision_line_ = None
        if self.decision is not None:
            cut, fpr, fnr = self.decision
            (self.decision_line_,) = ax.plot(
                [0, 1],
                [fpr, fnr],
                "--",
                color=self.line_.get_color(),
                lw=1,
                label=f"threshold {cut:.3g}",
            )
        if self.operating_pc is not None:
            ax.axvline(self.operating_pc, color="0.3", lw=0.8, label="given costs")
        ax.set(
            xlim=(0, 1),
            ylim=(0, 1 if show_lines else 0.5),
            xlabel=f"Probability cost function PC(+), positive: {self.pos_label}",
            ylabel="Normalised expected cost",
        )
        ax.legend(loc="upper right", fontsize="small")
        return self


def _rates(
    score: FloatArray, positive: Any, thresholds: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """False-positive and false-negative rates of ``score >= t`` for each ``t``."""

    def share_at_least(values: FloatArray) -> FloatArray:
        ordered = np.sort(values)
        below = np.searchsorted(ordered, thresholds, side="left")
        return np.asarray((ordered.size - below) / max(ordered.size, 1))

    fpr = share_at_least(score[~positive])
    fnr = 1.0 - share_at_least(score[positive])
    return fpr, fnr
