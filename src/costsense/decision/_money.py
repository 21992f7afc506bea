"""The money decisions save: with an interval, as costs and capacity move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import Costs, _plain

from ._actions import ActionCosts, _find, decide, realised_costs

__all__ = ["SavingsInterval", "capacity_curve", "cost_sensitivity", "savings_interval"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class SavingsInterval:
    """A decision's saving over the default action, with a bootstrap interval.

    Attributes
    ----------
    saving : float
        The default action's realised total minus the decision's.
    share : float
        ``saving`` over the default's total (NaN when that total is 0).
    low, high : float
        Percentile interval of ``saving`` at ``level``.
    share_low, share_high : float
        The same for ``share``.
    level : float
        Confidence level.
    method : str
        Which bootstrap made the interval.
    """

    saving: float
    share: float
    low: float
    high: float
    share_low: float
    share_high: float
    level: float
    method: str


def _scored(
    y: ArrayLike, costs: Any, classes: ArrayLike | None
) -> tuple[FloatArray, ActionCosts, NDArray[Any], NDArray[np.intp]]:
    """Realised costs, the table decided by, the table's class labels, y's classes."""
    realised = realised_costs(y, costs, classes)  # checks y against the classes
    if isinstance(costs, Costs):
        labels = costs.classes if classes is None else np.asarray(classes)
        table = ActionCosts(costs.decision_matrices, costs.classes)
    else:
        labels = np.unique(y) if classes is None else np.asarray(classes)
        table = costs if isinstance(costs, ActionCosts) else ActionCosts(costs)
    index = np.minimum(np.searchsorted(labels, np.asarray(y)), labels.size - 1)
    return realised, table, labels, index


def _positions(names: tuple[Any, ...], action: ArrayLike, n: int) -> NDArray[np.intp]:
    """Each row's action as its column in ``names``."""
    action = np.asarray(action)
    if action.shape != (n,):
        raise ValueError(f"action: give one action per row ({n}), as decide returns.")
    unique, inverse = np.unique(action, return_inverse=True)
    return np.array([_find(names, a, "action") for a in unique], np.intp)[inverse]


def _saving(totals: FloatArray, base: int | None) -> tuple[FloatArray, FloatArray]:
    """Return saving and share from totals ``[..., each action, the decision]``.

    ``base`` None: the action of least total (recomputed per resample).
    """
    actions = totals[..., :-1]
    ref = actions.min(axis=-1) if base is None else actions[..., base]
    saving = ref - totals[..., -1]
    share = np.divide(saving, ref, out=np.full_like(saving, np.nan), where=ref != 0)
    return saving, share


def _money(realised: FloatArray, chosen: NDArray[np.intp], base: int | None) -> dict:
    rows = np.arange(len(chosen))
    totals = np.r_[realised.sum(axis=0), realised[rows, chosen].sum()]
    saving, share = _saving(totals, base)
    return {"saving": float(saving), "saving_share": float(share)}


def _resampled_totals(
    values: FloatArray,
    strata: NDArray[Any],
    n_resamples: int,
    rng: np.random.Generator,
) -> FloatArray:
    """Column totals of ``values`` over bootstrap resamples drawn within strata.

    Each resample's counts come from ``np.bincount`` of uniform draws, in chunks of
    about 65,000 draws (they stay in cache), so the work is ``n_resamples x n``.
    """
    _, strata = np.unique(strata, return_inverse=True)
    out = np.zeros((n_resamples, values.shape[1]))
    for s in range(strata.max(initial=-1) + 1):
        part = values[strata == s]
        m = len(part)
        chunk = max(1, 2**16 // m)
        for start in range(0, n_resamples, chunk):
            b = min(chunk, n_resamples - start)
            draw = rng.integers(0, m, size=(b, m), dtype=np.int64)
            draw += m * np.arange(b)[:, None]
            counts = np.bincount(draw.ravel(), minlength=b * m).reshape(b, m)
            out[start : start + b] += counts @ part
    return out


def _interval(values: FloatArray, level: float) -> tuple[float, float]:
    values = values[np.isfinite(values)]
    if not values.size:
        return np.nan, np.nan
    tail = 50 * (1 - level)
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def _check(level: float, n_resamples: int) -> None:
    if not isinstance(level, Real) or not 0 < level < 1:
        raise ValueError(f"level={level!r}: give a confidence level in (0, 1).")
    if not isinstance(n_resamples, Integral) or n_resamples < 1:
        raise ValueError(f"n_resamples={n_resamples!r}: give a count >= 1.")


def savings_interval(
    y: ArrayLike,
    action: ArrayLike,
    costs: Any,
    *,
    default: Any = None,
    classes: ArrayLike | None = None,
    level: float = 0.95,
    n_resamples: int = 2000,
    groups: ArrayLike | None = None,
    random_state: int | None = 0,
) -> SavingsInterval:
    """Return what the decisions saved over the default, with a bootstrap interval.

    The models are fixed; what is uncertain is which rows arrived. So the interval
    resamples the scored rows [1]_ (five folds are too few for a bootstrap over
    folds), within each true class, so each resample keeps the test rows' class
    mix: it is an interval for rows of that mix. The saving is a difference of
    totals (the savings score of [2]_ times the default's total); the default, if
    not given, is chosen again in every resample.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels.
    action : array-like of shape (n_samples,)
        Each row's action (as :func:`decide` returns; for a
        :class:`~costsense.costs.Costs`, labels).
    costs : ActionCosts, Costs or array-like
        As in :func:`realised_costs`.
    default : hashable, default=None
        The action savings are measured against; None: the action of least
        realised total on the rows (the best constant prediction of [2]_).
    classes : array-like of shape (K,), default=None
        As in :func:`realised_costs`.
    level : float, default=0.95
        Confidence level of the percentile intervals.
    n_resamples : int, default=2000
        Bootstrap resamples; more for steadier interval ends.
    groups : array-like of shape (n_samples,), default=None
        Rows that are not independent (a period, a customer): whole groups are
        resampled (a cluster bootstrap), unstratified.
    random_state : int, default=0
        Seed of the resampling.

    Returns
    -------
    SavingsInterval

    References
    ----------
    .. [1] B. Efron, R. J. Tibshirani, An Introduction to the Bootstrap, Chapman
       & Hall, 1993 (ch. 13: percentile intervals).
    .. [2] A. Correa Bahnsen, A. Stojanovic, D. Aouada, B. Ottersten,
       "Improving credit card fraud detection with calibrated probabilities",
       SIAM SDM 2014 (savings).
    """
    realised, table, _, index = _scored(y, costs, classes)
    n = len(realised)
    chosen = _positions(table.actions, action, n)
    base = None if default is None else _find(table.actions, default, "default")
    _check(level, n_resamples)
    values = np.c_[realised, realised[np.arange(n), chosen]]
    method = "percentile bootstrap over rows, stratified by true class"
    if groups is not None:
        groups = np.asarray(groups)
        if groups.shape != (n,):
            raise ValueError(f"groups: give one group label per row ({n}).")
        labels, code = np.unique(groups, return_inverse=True)
        values = np.stack([np.bincount(code, v, len(labels)) for v in values.T], 1)
        index = np.zeros(len(values), np.intp)
        method = "percentile bootstrap over whole groups (cluster)"
    rng = np.random.default_rng(random_state)
    totals = _resampled_totals(values, index, n_resamples, rng)
    saving, share = _saving(np.r_[values.sum(axis=0)[None], totals], base)
    low, high = _interval(saving[1:], level)
    share_low, share_high = _interval(share[1:], level)
    point = float(saving[0]), float(share[0])
    return SavingsInterval(*point, low, high, share_low, share_high, level, method)


def _part_names(costs: Any, labels: NDArray[Any], actions: tuple[Any, ...]) -> dict:
    names = {
        (i, a): f"{_plain(labels[i])} x {_plain(actions[a])}"
        for i in range(len(labels))
        for a in range(len(actions))
    }
    if isinstance(costs, Costs) and costs.pos_index is not None and len(labels) == 2:
        pos = costs.pos_index
        neg = 1 - pos
        named = {(pos, neg): "fn", (neg, pos): "fp", (pos, pos): "tp", (neg, neg): "tn"}
        names.update(named)
    return names


def cost_sensitivity(
    proba: ArrayLike,
    y: ArrayLike,
    costs: Any,
    *,
    factors: Sequence[float] = (0.5, 0.8, 1.25, 2.0),
    default: Any = None,
    classes: ArrayLike | None = None,
    capacity: Mapping[Any, int | str] | None = None,
    per: ArrayLike | None = None,
) -> list[dict[str, Any]]:
    """Return the savings when each cost part is scaled, kept and re-made decisions.

    Costs are estimates; this says how far the savings move, and whether the
    decision would change, if one part of them were off by a factor.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities (columns in the order of the classes).
    y, costs, classes
        As in :func:`realised_costs`.
    factors : sequence of float, default=(0.5, 0.8, 1.25, 2.0)
        The scalings of each part, each > 0.
    default : hashable, default=None
        As in :func:`savings_interval` (chosen again at each scaling).
    capacity, per
        As in :func:`decide`, for both decisions.

    Returns
    -------
    list of dict
        First ``part="as given"``, ``factor=1.0``; then one per part (a cell,
        true class x action, not zero on every row: for a binary
        :class:`~costsense.costs.Costs`, ``"fn"``, ``"fp"``, ``"tp"``, ``"tn"``,
        else ``"<class> x <action>"``; scaled on every row) and factor:
        ``saving``, ``saving_share`` (the decision made at the given costs, scored
        at the scaled costs), ``saving_redecided``, ``saving_redecided_share``
        (re-made by :func:`decide` at the scaled costs), ``changed`` (share of rows
        whose action changes).
    """
    realised, table, labels, index = _scored(y, costs, classes)
    names = table.actions
    base = None if default is None else _find(names, default, "default")
    if not all(isinstance(f, Real) and 0 < f < np.inf for f in factors):
        raise ValueError(f"factors={factors!r}: give finite numbers > 0.")

    def made(values: FloatArray) -> NDArray[np.intp]:
        action, _ = decide(
            proba, ActionCosts(values, names), capacity=capacity, per=per
        )
        return _positions(names, action, len(action))

    kept = made(table.table)
    rows = []
    cells = [(i, a) for i in range(len(labels)) for a in range(len(names))]
    part_names = _part_names(costs, labels, names)
    for i, a in [(-1, -1)] + cells:
        if i >= 0 and not np.any(table.table[..., i, a]):
            continue
        for factor in [1.0] if i < 0 else factors:
            values, scored = table.table.copy(), realised.copy()
            if i >= 0:
                values[..., i, a] *= factor
                scored[index == i, a] *= factor
            new = kept if i < 0 else made(values)
            redecided = _money(scored, new, base)
            rows.append(
                {
                    "part": part_names.get((i, a), "as given"),
                    "factor": float(factor),
                    **_money(scored, kept, base),
                    "saving_redecided": redecided["saving"],
                    "saving_redecided_share": redecided["saving_share"],
                    "changed": float(np.mean(new != kept)),
                }
            )
    return rows


def capacity_curve(
    proba: ArrayLike,
    y: ArrayLike,
    costs: Any,
    *,
    action: Any = None,
    shares: Sequence[float] = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0),
    default: Any = None,
    per: ArrayLike | None = None,
    rank_by: ArrayLike | None = None,
    classes: ArrayLike | None = None,
) -> list[dict[str, Any]]:
    """Return the realised savings when a share of each period's rows can be acted on.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities.
    y, costs, classes
        As in :func:`realised_costs`.
    action : hashable, default=None
        The capacitated action (a review); None: for a binary
        :class:`~costsense.costs.Costs` its positive label, else with two
        actions the one that is not the default.
    shares : sequence of float, default=(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
        Capacities, each a share in (0, 1] of each period's rows (rounded down).
    default : hashable, default=None
        As in :func:`savings_interval`.
    per : array-like of shape (n_samples,), default=None
        Each row's period, as in :func:`decide`.
    rank_by : array-like of shape (n_samples,), default=None
        None: :func:`decide` fills the capacity by expected saving. Else a score
        (a probability): the action goes to the top rows by it in each period, as
        a peer ranking by probability would, and the others take their best other
        action; comparing the two measures what ranking by saving gains.

    Returns
    -------
    list of dict
        One per share: ``share``, ``acted`` (rows given the action), ``saving``
        and ``saving_share`` (realised, against the default).
    """
    realised, table, _, _ = _scored(y, costs, classes)
    names, n = table.actions, len(realised)
    base = None if default is None else _find(names, default, "default")
    if action is None and isinstance(costs, Costs) and costs.pos_label is not None:
        action = costs.pos_label
    elif action is None and len(names) == 2:
        other = np.argmin(realised.sum(axis=0)) if base is None else base
        action = names[1 - other]
    elif action is None:
        raise ValueError(f"action: name the capacitated action, one of {names}.")
    target = _find(names, action, "action")
    if not all(isinstance(s, Real) and 0 < s <= 1 for s in shares):
        raise ValueError(f"shares={shares!r}: give shares of rows in (0, 1].")
    if rank_by is not None:
        score = np.asarray(rank_by, dtype=np.float64)
        if score.shape != (n,) or not np.isfinite(score).all():
            raise ValueError(f"rank_by: give one finite score per row ({n}).")
        spare, _ = decide(proba, table, capacity={names[target]: 0}, per=per)
        _, code = np.unique(np.zeros(n) if per is None else per, return_inverse=True)
        periods = [np.flatnonzero(code == c) for c in range(code.max() + 1)]
    rows = []
    for share in shares:
        percent = Decimal(str(share)) * 100
        if rank_by is None:
            capacity = {names[target]: f"{percent:f}%"}
            chosen, _ = decide(proba, table, capacity=capacity, per=per)
            index = _positions(names, chosen, n)
        else:
            index = _positions(names, spare, n)
            for rows_of in periods:
                k = int(percent * rows_of.size // 100)
                top = np.argsort(-score[rows_of], kind="stable")[:k]
                index[rows_of[top]] = target
        acted = int(np.sum(index == target))
        rows.append(
            {"share": float(share), "acted": acted, **_money(realised, index, base)}
        )
    return rows
