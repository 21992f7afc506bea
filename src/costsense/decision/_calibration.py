"""Whether miscalibrated probabilities cost money at the Bayes decision."""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from costsense.costs import Costs

from ._actions import decide
from ._money import _check, _interval, _positions, _resampled_totals, _scored

__all__ = ["CalibrationCheck", "calibration_check"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class CalibrationCheck:
    """Reliability of the probabilities and the money recalibration would save.

    Attributes
    ----------
    bins : list of dict
        Non-empty bins of the predicted probability: ``lower``, ``upper``,
        ``rows``, ``mean_predicted``, ``observed`` (of the positive class for two
        classes, else of the top label: its confidence and its accuracy).
    cost_as_given : float
        Realised total cost of the Bayes decision on the probabilities as given.
    cost_recalibrated : float
        The same with the probabilities recalibrated out of fold.
    difference : float
        ``cost_as_given - cost_recalibrated``.
    low, high : float
        Paired bootstrap interval of ``difference`` over rows.
    costs_money : bool
        Whether the interval lies above 0: recalibrating would have saved money.
    """

    bins: list[dict[str, float]]
    cost_as_given: float
    cost_recalibrated: float
    difference: float
    low: float
    high: float
    costs_money: bool


def _logit(p: FloatArray) -> FloatArray:
    q = np.clip(p, 1e-12, 1 - 1e-12)
    return np.asarray(np.log(q) - np.log1p(-q))[:, None]


def _recalibrated(
    p: FloatArray, index: NDArray[np.intp], method: str, n_splits: int, seed: Any
) -> FloatArray:
    """Each fold's probabilities mapped by a map fitted on the other folds."""
    out = np.empty_like(p)
    folds = StratifiedKFold(n_splits, shuffle=True, random_state=seed)
    for train, test in folds.split(p, index):
        for k in range(p.shape[1]):
            hit = index[train] == k
            if method == "isotonic":
                iso = IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip")
                out[test, k] = iso.fit(p[train, k], hit).predict(p[test, k])
            else:
                fit = LogisticRegression().fit(_logit(p[train, k]), hit)
                out[test, k] = fit.predict_proba(_logit(p[test, k]))[:, 1]
    total = out.sum(axis=1, keepdims=True)
    return np.where(total > 0, out / np.where(total > 0, total, 1), p)


def calibration_check(
    proba: ArrayLike,
    y: ArrayLike,
    costs: Any,
    *,
    classes: ArrayLike | None = None,
    n_bins: int = 10,
    method: str = "isotonic",
    n_splits: int = 5,
    level: float = 0.95,
    random_state: int | None = 0,
    n_resamples: int = 2000,
) -> CalibrationCheck:
    """Check the probabilities' reliability and what recalibrating them would save.

    The Bayes decision is only as good as the probabilities. They are recalibrated
    out of fold: rows are split into ``n_splits`` stratified folds, and each
    fold's probabilities go through a map fitted on the other folds, one vs rest
    per class (isotonic regression [1]_ or a sigmoid [2]_, as compared in [3]_),
    then renormalised. Both sets of probabilities are decided by :func:`decide`
    and scored at the true costs; the difference gets a paired bootstrap interval
    over rows, stratified by class (as in :func:`savings_interval`).

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities, columns in the order of the classes.
    y, costs, classes
        As in :func:`realised_costs`.
    n_bins : int, default=10
        Equal-width bins of the reliability table.
    method : {"isotonic", "sigmoid"}, default="isotonic"
        The recalibration map; "sigmoid" for few rows (a two-parameter map).
    n_splits : int, default=5
        Folds of the out-of-fold recalibration; every class needs that many rows.
    level : float, default=0.95
        Confidence level of the interval.
    random_state : int, default=0
        Seed of the folds and of the bootstrap.
    n_resamples : int, default=2000
        Bootstrap resamples.

    Returns
    -------
    CalibrationCheck

    References
    ----------
    .. [1] B. Zadrozny, C. Elkan, "Transforming classifier scores into accurate
       multiclass probability estimates", KDD 2002.
    .. [2] J. Platt, "Probabilistic outputs for support vector machines", 1999.
    .. [3] A. Niculescu-Mizil, R. Caruana, "Predicting good probabilities with
       supervised learning", ICML 2005.
    """
    realised, table, labels, index = _scored(y, costs, classes)
    given, _ = decide(proba, table)  # checks proba against the table
    p = np.asarray(proba, dtype=np.float64)
    if method not in ("isotonic", "sigmoid"):
        raise ValueError(f"method={method!r}: give 'isotonic' or 'sigmoid'.")
    if not isinstance(n_bins, Integral) or n_bins < 1:
        raise ValueError(f"n_bins={n_bins!r}: give a count >= 1.")
    fewest = np.bincount(index, minlength=p.shape[1]).min()
    if not isinstance(n_splits, Integral) or not 2 <= n_splits <= fewest:
        raise ValueError(
            f"n_splits={n_splits!r}: give 2 to {fewest} (every class needs a row "
            "in each fold), or score more rows."
        )
    _check(level, n_resamples)
    recalibrated, _ = decide(
        _recalibrated(p, index, method, n_splits, random_state), table
    )
    n, rows = len(p), np.arange(len(p))
    given_cost = realised[rows, _positions(table.actions, given, n)]
    recalibrated_cost = realised[rows, _positions(table.actions, recalibrated, n)]
    difference = (given_cost - recalibrated_cost)[:, None]
    rng = np.random.default_rng(random_state)
    low, high = _interval(
        _resampled_totals(difference, index, n_resamples, rng)[:, 0], level
    )
    if p.shape[1] == 2:
        pos = (
            costs.pos_index
            if isinstance(costs, Costs) and costs.pos_label is not None
            else 1
        )
        score, hit = p[:, pos], index == pos
    else:
        score, hit = p.max(axis=1), p.argmax(axis=1) == index
    edges = np.linspace(0, 1, n_bins + 1)
    where = np.clip(np.searchsorted(edges, score, side="right") - 1, 0, n_bins - 1)
    bins = [
        {
            "lower": float(edges[b]),
            "upper": float(edges[b + 1]),
            "rows": int(np.sum(where == b)),
            "mean_predicted": float(score[where == b].mean()),
            "observed": float(hit[where == b].mean()),
        }
        for b in np.unique(where)
    ]
    as_given, after = float(given_cost.sum()), float(recalibrated_cost.sum())
    total = float(difference.sum())
    return CalibrationCheck(bins, as_given, after, total, low, high, bool(low > 0))
