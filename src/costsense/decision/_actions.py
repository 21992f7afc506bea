"""Actions of least expected cost, and the assignment of rows to capacitated actions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import Costs, _plain

__all__ = ["ActionCosts", "decide", "expected_costs", "no_action", "realised_costs"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class ActionCosts:
    """A cost table of true class x action, its actions named.

    Parameters
    ----------
    table : array-like of shape (K, A) or (n_samples, K, A)
        ``table[..., i, a]``: cost of action ``a`` when the truth is class ``i`` of
        the probabilities' columns, one table or one per row; finite, a benefit a
        negative cost (as in :mod:`costsense.costs`). Kept as a float array.
    actions : sequence of hashable, default=None
        One name per column, kept as a tuple; None: a DataFrame's columns (its
        rows the classes, in order), else ``0, ..., A - 1``.
    """

    table: Any
    actions: Any = None

    def __post_init__(self) -> None:
        try:
            values = np.array(self.table, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("costs: the table must hold numbers.") from None
        shape = values.shape
        if values.ndim not in (2, 3) or 0 in shape or not np.isfinite(values).all():
            raise ValueError(
                f"costs: give a (K, A) or (n_samples, K, A) table of finite costs "
                f"(true class x action); got shape {shape} or NaN/inf."
            )
        names = self.actions
        if names is None:
            names = getattr(self.table, "columns", range(shape[-1]))
        names = tuple(_plain(a) for a in names)
        if len(names) != shape[-1] or len(set(names)) != len(names):
            raise ValueError(f"actions: give {shape[-1]} distinct names, not {names}.")
        object.__setattr__(self, "table", values)
        object.__setattr__(self, "actions", names)

    def label_costs(self) -> FloatArray:
        """Return the label cost matrices that map each label to its best action.

        Predicting class ``j`` stands for the action cheapest when the truth is
        ``j`` (ties to the first); ``out[..., i, j]`` is that action's cost when the
        truth is ``i``. A learner that needs label costs trains on these; the
        decision is then made among all actions from its probabilities.

        Returns
        -------
        ndarray of shape (K, K) or (n_samples, K, K)
            Diagonal: each class's least cost. A ``(K, K)`` table whose actions are
            the labels, least cost on the diagonal, comes back unchanged.
        """
        best = np.argmin(self.table, axis=-1)  # (..., K): the action standing for j
        return np.take_along_axis(self.table, best[..., None, :], axis=-1)


def expected_costs(proba: ArrayLike, costs: Any) -> FloatArray:
    """Return each row's expected cost of each action, ``sum_i p_i cost[i, a]``.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities (rows summing to 1), columns in the order of the classes.
    costs : ActionCosts, Costs or array-like of shape (K, A) or (n_samples, K, A)
        The true class x action table (:class:`ActionCosts`); a ``(K, K)`` matrix
        or a :class:`~costsense.costs.Costs` decides among the labels.

    Returns
    -------
    ndarray of shape (n_samples, A)
    """
    return _expected(proba, costs)[0]


def no_action(costs: Any) -> Any:
    """Return the action of doing nothing, which savings are first measured against.

    The first action of an :class:`ActionCosts` (name it first: allow, skip), the
    negative label of a two-class :class:`~costsense.costs.Costs` (acting on
    nobody); None for more labels (no label means inaction), which the functions
    of this package read as the best single action.
    """
    if isinstance(costs, ActionCosts):
        return costs.actions[0]
    if isinstance(costs, Costs) and costs.pos_index is not None:
        return _plain(costs.classes[1 - costs.pos_index])
    return None


def realised_costs(
    y: ArrayLike, costs: Any, classes: ArrayLike | None = None
) -> FloatArray:
    """Return what each action costs on each row, given the row's true class.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels.
    costs : ActionCosts, Costs or array-like of shape (K, A) or (n_samples, K, A)
        As in :func:`expected_costs`; a :class:`~costsense.costs.Costs` prices the
        labels (its own classes, per-row costs by row).
    classes : array-like of shape (K,), default=None
        The labels of the table's rows, in order; None: the classes of a
        :class:`~costsense.costs.Costs`, else the sorted labels of ``y``.

    Returns
    -------
    ndarray of shape (n_samples, A)
        ``out[r, a]``: the cost of action ``a`` on row ``r``. A decision's total
        cost is ``out[np.arange(n), action_index].sum()``.
    """
    y = np.asarray(y)
    if isinstance(costs, Costs):
        if costs.rows is not None and len(costs.rows) == len(y):  # known classes
            return np.asarray(costs.rows, dtype=np.float64)
        classes = costs.classes if classes is None else classes
        costs = ActionCosts(costs.decision_matrices, costs.classes)
    table = costs if isinstance(costs, ActionCosts) else ActionCosts(costs)
    labels = np.unique(y) if classes is None else np.asarray(classes)
    values = table.table
    if (
        labels.shape != (values.shape[-2],)
        or values.ndim == 3
        and len(values) != len(y)
    ):
        raise ValueError(
            f"costs has shape {values.shape} for {len(y)} rows of classes "
            f"{labels.tolist()[:10]}: give classes, one per row of the table."
        )
    index = np.searchsorted(labels, y) if labels.size else np.zeros(len(y), int)
    index = np.minimum(index, labels.size - 1)
    if not np.array_equal(labels[index], y):
        raise ValueError(
            f"y holds labels not among the classes {labels.tolist()[:10]}."
        )
    if values.ndim == 2:
        return np.asarray(values[index], dtype=np.float64)
    return np.asarray(values[np.arange(len(y)), index], dtype=np.float64)


def _expected(proba: ArrayLike, costs: Any) -> tuple[FloatArray, tuple[Any, ...]]:
    if isinstance(costs, Costs):  # actions are the labels
        costs = ActionCosts(costs.decision_matrices, costs.classes)
    table = costs if isinstance(costs, ActionCosts) else ActionCosts(costs)
    try:
        p = np.array(proba, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("proba must be numeric class probabilities.") from None
    if p.ndim != 2 or not np.all(np.isfinite(p) & (p >= 0) & (p <= 1)):
        raise ValueError("proba: give (n_samples, K) probabilities in [0, 1].")
    if not np.allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-6):
        raise ValueError("proba: each row must sum to 1 (give predict_proba's rows).")
    values = table.table
    if values.shape[-2] != p.shape[1] or values.ndim == 3 and len(values) != len(p):
        raise ValueError(
            f"costs has shape {values.shape} for proba of shape {p.shape}: give a "
            "(K, A) table or (n_samples, K, A), K = proba's columns."
        )
    return np.asarray((p[:, None, :] @ values)[:, 0], dtype=np.float64), table.actions


def decide(
    proba: ArrayLike,
    costs: Any,
    *,
    default: Any = None,
    capacity: Mapping[Any, int | str] | None = None,
    per: ArrayLike | None = None,
) -> tuple[NDArray[Any], FloatArray]:
    """Choose each row's action: least expected cost, within capacities per period.

    Parameters
    ----------
    proba, costs
        As in :func:`expected_costs`.
    default : hashable, default=None
        The action savings are measured against; None: the action of least
        expected cost summed over all rows (the best single action).
    capacity : dict, default=None
        ``{action: k}``: at most ``k`` rows of each period get that action, ``k`` a
        count or a share of the period's rows such as ``"5%"``, rounded down (5 %
        of 30 rows is 1). Actions not named are unlimited. None: no limit.
    per : array-like of shape (n_samples,), default=None
        Each row's period (a day, a week); None: one period.

    Returns
    -------
    action : ndarray of shape (n_samples,)
        Each row's action (a name); without capacity, that of
        :func:`~costsense.costs.bayes_decision` (ties to the first action).
    saving : ndarray of shape (n_samples,)
        The default action's expected cost minus the chosen one's.

    Notes
    -----
    Per period, rows go to actions at least total expected cost, a transportation
    problem [1]_; a row not given a capacitated action takes its best unlimited one.
    With one capacitated action and others unlimited, the total is the rows' best
    unlimited costs minus the savings of those moved to it, so moving the ``k`` of
    largest positive saving is optimal (greedy). Otherwise HiGHS's dual simplex
    [3]_ solves the linear program; its constraints form a bipartite incidence
    matrix, totally unimodular, so the vertex found is a 0/1 assignment [2]_
    (checked). With no unlimited action every row needs a place.

    References
    ----------
    .. [1] F. L. Hitchcock, "The distribution of a product from several sources
       to numerous localities", J. Math. Phys. 20, 1941.
    .. [2] A. J. Hoffman, J. B. Kruskal, "Integral boundary points of convex
       polyhedra", Linear Inequalities and Related Systems, 1956.
    .. [3] Q. Huangfu, J. A. J. Hall, "Parallelizing the dual revised simplex
       method", Math. Prog. Comp. 10, 2018 (HiGHS, scipy's ``linprog``).

    Examples
    --------
    >>> from costsense.decision import ActionCosts, decide
    >>> table = ActionCosts([[0, 1, 5], [20, 4, 0]], ["allow", "review", "block"])
    >>> proba = [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]]
    >>> capacity = {"review": 1, "block": 0}
    >>> action, saving = decide(proba, table, default="allow", capacity=capacity)
    >>> action.tolist(), saving.round(1).tolist()
    (['allow', 'allow', 'review'], [0.0, 0.0, 12.6])
    """
    expected, names = _expected(proba, costs)
    n = len(expected)
    total = expected.sum(axis=0)
    base = np.argmin(total) if default is None else _find(names, default, "default")
    if not isinstance(capacity or {}, Mapping):
        raise TypeError("capacity: give a dict {action: count or 'p%'}.")
    limits = {_find(names, a, "capacity"): k for a, k in (capacity or {}).items()}
    periods = np.zeros(n) if per is None else np.asarray(per)
    if periods.shape != (n,):
        raise ValueError(f"per: give one period label per row ({n}).")
    index = np.argmin(expected, axis=1)
    labels, code = np.unique(periods, return_inverse=True)  # NaN: one period
    for code_of, period in enumerate(labels):
        rows = np.flatnonzero(code == code_of)
        caps = {a: _count(k, rows.size, names[a]) for a, k in limits.items()}
        caps = {a: k for a, k in caps.items() if k < rows.size}
        if caps:
            index[rows] = _assign(expected[rows], caps, period)
    saving = expected[:, base] - expected[np.arange(n), index]
    return np.asarray(names)[index], saving


def _find(names: tuple[Any, ...], action: Any, parameter: str) -> int:
    value = _plain(action)
    for i, name in enumerate(names):
        if isinstance(name, str) == isinstance(value, str) and name == value:
            return i
    raise ValueError(f"{parameter}: {action!r} is not an action; give one of {names}.")


def _count(limit: Any, rows: int, name: Any) -> int:
    if isinstance(limit, str) and re.fullmatch(r"\d+(\.\d+)?%", limit):
        if Fraction(limit[:-1]) <= 100:
            return int(Fraction(limit[:-1]) * rows // 100)
    elif isinstance(limit, Integral) and type(limit) is not bool and int(limit) >= 0:
        return int(limit)
    raise ValueError(f"capacity[{name!r}]={limit!r}: give a count >= 0 or '5%'.")


def _assign(cost: FloatArray, caps: dict[int, int], period: Any) -> NDArray[np.intp]:
    from scipy.optimize import linprog
    from scipy.sparse import coo_array

    m, capped = len(cost), np.array(sorted(caps))
    limit, free = np.array([caps[a] for a in capped]), cost.shape[1] > capped.size
    best = np.argmin(np.where(np.isin(range(cost.shape[1]), capped), np.inf, cost), 1)
    regret = cost[:, capped] - (cost[np.arange(m), best][:, None] if free else 0)
    if free and capped.size == 1:  # greedy: optimal, see decide's Notes
        top = np.argsort(regret[:, 0], kind="stable")[: limit[0]]
        best[top[regret[top, 0] < 0]] = capped[0]
        return best
    rows, cols = np.nonzero((regret < 0) | (not free))
    if free:  # one more column per row: staying on its best unlimited action
        rows, cols = np.r_[rows, np.arange(m)], np.r_[cols, np.full(m, capped.size)]
    one, var = np.ones(rows.size), np.arange(rows.size)
    by_row = coo_array((one, (rows, var)), shape=(m, rows.size))
    by_action = coo_array((one, (cols, var)), shape=(capped.size + 1, rows.size))
    price = np.c_[regret, np.zeros(m)][rows, cols]
    upper, one = np.r_[limit, m], np.ones(m)
    result = linprog(price, by_action, upper, by_row, one, (0, 1), "highs-ds")
    if result.status or np.abs(result.x - (result.x > 0.5)).max(initial=0) > 1e-6:
        raise ValueError(
            f"capacity: no assignment of period {_plain(period)!r} ({m} rows, room "
            f"for {limit.sum()}) was found ({result.message}); leave an action "
            "unlimited or raise a capacity."
        )
    moved = (result.x > 0.5) & (cols < capped.size)
    best[rows[moved]] = capped[cols[moved]]
    return best
