"""What each model's decisions save, re-made over its out-of-fold probabilities.

Every number is computed from the test rows only: each model's decisions are
re-made from the probabilities its folds kept (``costsense evaluate`` keeps
them), so no model is fitted again.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import Costs
from costsense.exceptions import CalibrationWarning

from ._actions import ActionCosts, decide, no_action
from ._calibration import CalibrationCheck, calibration_check
from ._money import SavingsInterval, capacity_curve, cost_sensitivity, savings_interval

__all__ = ["DecisionReport", "decision_report"]

#: Capacities of the curve of savings, as shares of each period's rows.
CURVE_SHARES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


@dataclass
class DecisionReport:
    """What each model's decisions saved on the pooled test rows.

    Attributes
    ----------
    rows : dict of str to int
        Test rows pooled per model (the folds that ran).
    savings : dict of str to SavingsInterval
        The saving of each model's decision (within ``capacity`` if given) over
        the default action, money and share, with its bootstrap interval.
    curves : dict of str to list of dict
        Per model, :func:`~costsense.decision.capacity_curve` at
        :data:`CURVE_SHARES` (empty when no action is the capacitated one).
    calibration : dict of str to CalibrationCheck
        Per model, :func:`~costsense.decision.calibration_check` (left out when a
        class has fewer than 2 pooled rows).
    best : str or None
        The model of largest saving.
    sensitivity : list of dict
        :func:`~costsense.decision.cost_sensitivity` of the best model.
    default : hashable or None
        The action every saving is measured against (None: the best single one).
    """

    rows: dict[str, int] = field(default_factory=dict)
    savings: dict[str, SavingsInterval] = field(default_factory=dict)
    curves: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    calibration: dict[str, CalibrationCheck] = field(default_factory=dict)
    best: str | None = None
    sensitivity: list[dict[str, Any]] = field(default_factory=list)
    default: Any = None


def decision_report(
    out_of_fold: Mapping[str, tuple[ArrayLike, ArrayLike]],
    y: ArrayLike,
    costs: Any,
    *,
    capacity: Mapping[Any, int | str] | None = None,
    per: ArrayLike | None = None,
    default: Any = None,
    factors: Sequence[float] = (0.5, 0.8, 1.25, 2.0),
    level: float = 0.95,
    n_resamples: int = 2000,
    random_state: int = 0,
) -> DecisionReport:
    """Decide again over each model's out-of-fold probabilities, and say what it saved.

    Parameters
    ----------
    out_of_fold : mapping of str to (index, proba)
        Per model, the rows of ``y`` it was tested on and their class
        probabilities (columns in the order of the classes), pooled over folds
        (:func:`costsense.experiments.pooled_probabilities`).
    y : array-like of shape (n_samples,)
        Labels of all rows.
    costs : Costs or ActionCosts
        The :class:`~costsense.costs.Costs` resolved against ``y``, or the action
        table (one, or one per row of ``y``).
    capacity : dict, default=None
        ``{action: k or "p%"}`` per period, as in :func:`costsense.decision.decide`.
    per : array-like of shape (n_samples,), default=None
        Each row's period, for ``capacity`` and the curve; None: one period.
    default : hashable, default=None
        The action savings are measured against; None: doing nothing
        (:func:`~costsense.decision.no_action`: acting on nobody, or the table's
        first action), as a capacity is a limit on acting.
    factors : sequence of float, default=(0.5, 0.8, 1.25, 2.0)
        Scalings of each cost part in the sensitivity table.
    level, n_resamples, random_state
        Of the savings' and the calibration's bootstrap intervals.

    Returns
    -------
    DecisionReport

    Warns
    -----
    CalibrationWarning
        Per model whose miscalibration costs money (``costs_money``), naming it
        and the money at stake.
    """
    y = np.asarray(y)
    classes = costs.classes if isinstance(costs, Costs) else np.unique(y)
    names = costs.actions if isinstance(costs, ActionCosts) else tuple(classes)
    there = dict(capacity or {})
    curve_action = next(iter(there)) if len(there) == 1 else None
    binary = isinstance(costs, Costs) and costs.pos_label is not None
    curved = curve_action is not None or binary or len(names) == 2
    periods = None if per is None else np.asarray(per)
    default = no_action(costs) if default is None else default
    report = DecisionReport(default=default)
    pooled = {m: (np.asarray(i), np.asarray(p)) for m, (i, p) in out_of_fold.items()}
    for model, (index, proba) in pooled.items():
        part = _rows(costs, index)
        when = None if periods is None else periods[index]
        action, _ = decide(proba, part, capacity=there or None, per=when)
        report.rows[model] = int(index.size)
        report.savings[model] = savings_interval(
            y[index],
            action,
            part,
            default=default,
            classes=classes,
            level=level,
            n_resamples=n_resamples,
            random_state=random_state,
        )
        if curved:
            report.curves[model] = capacity_curve(
                proba,
                y[index],
                part,
                action=curve_action,
                shares=CURVE_SHARES,
                default=default,
                per=when,
                classes=classes,
            )
        smallest = np.unique(y[index], return_counts=True)[1].min()
        if smallest >= 2 and np.unique(y[index]).size == classes.size:
            check = calibration_check(
                proba,
                y[index],
                part,
                classes=classes,
                n_splits=int(min(5, smallest)),
                level=level,
                random_state=random_state,
            )
            report.calibration[model] = check
            if check.costs_money:
                _warn_miscalibrated(model, check, index.size, level)
    if report.savings:
        best = max(report.savings, key=lambda m: report.savings[m].saving)
        index, proba = pooled[best]
        report.best = best
        report.sensitivity.extend(
            cost_sensitivity(
                proba,
                y[index],
                _rows(costs, index),
                factors=factors,
                default=default,
                classes=classes,
                capacity=there or None,
                per=None if periods is None else periods[index],
            )
        )
    return report


def _warn_miscalibrated(
    model: str, check: CalibrationCheck, rows: int, level: float
) -> None:
    """Warn that ``model``'s miscalibration costs money, and what would fix it."""
    warnings.warn(
        f"{model}: miscalibrated probabilities cost money: recalibrated out of "
        f"fold, its decisions would have cost {check.difference:.2f} less on the "
        f"{rows} test rows ({level:.0%} interval {check.low:.2f} to "
        f"{check.high:.2f}); calibrate it (threshold-calibrated, "
        "CalibratedClassifierCV), or, if the base rate moved, state it (predict "
        "--positive-rate)",
        CalibrationWarning,
        stacklevel=3,
    )


def _rows(costs: Any, index: NDArray[np.intp]) -> Any:
    """Return the costs of some rows (a Costs is read against its rows' order)."""
    if isinstance(costs, Costs):
        return costs.take(index)
    if isinstance(costs, ActionCosts) and costs.table.ndim == 3:
        return ActionCosts(costs.table[index], costs.actions)
    return costs
