"""The two decision rules of an option: the Bayes rule and the tuned threshold.

The Bayes rule decides the class of least expected cost (Elkan 2001); for two
classes the tuned threshold moves its log-odds boundary by the offset of least
cost on the rows it is tuned on.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from costsense.costs import bayes_decision

__all__ = [
    "BAYES",
    "THRESHOLD",
    "decide",
    "log_odds_score",
    "probability_threshold",
    "tune_offset",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Names of the two rules.
BAYES, THRESHOLD = "bayes", "threshold"


def log_odds_score(proba: FloatArray, matrices: FloatArray, pos: int) -> FloatArray:
    """``log(p+ a) - log(p- b)``: positive iff the Bayes rule predicts ``pos``.

    ``a = M[pos, neg] - M[pos, pos]`` is what predicting ``pos`` saves on a
    positive, ``b = M[neg, pos] - M[neg, neg]`` what it costs on a negative, so
    the Bayes rule (Elkan 2001) predicts ``pos`` iff ``p+ a > p- b``. ``matrices``
    is one ``(2, 2)`` matrix or one per row. NaN where both ``a`` and ``b`` are
    not positive (the decision is then the Bayes rule's).
    """
    neg = 1 - pos
    a = np.maximum(matrices[..., pos, neg] - matrices[..., pos, pos], 0.0)
    b = np.maximum(matrices[..., neg, pos] - matrices[..., neg, neg], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(
            np.log(proba[:, pos]) - np.log(proba[:, neg]) + np.log(a) - np.log(b),
            dtype=np.float64,
        )


def decide(
    proba: FloatArray,
    matrices: FloatArray,
    rule: str,
    offset: float,
    pos: int | None,
) -> IntArray:
    """Class indices: the Bayes rule, or for two classes the offset threshold.

    ``threshold``: predict ``pos`` iff :func:`log_odds_score` ``> offset``; an
    offset of 0 is the Bayes rule up to exact ties.
    """
    bayes = bayes_decision(proba, matrices)
    if rule == BAYES or pos is None:
        return bayes
    score = log_odds_score(proba, matrices, pos)
    decided = np.where(score > offset, pos, 1 - pos)
    return np.where(np.isnan(score), bayes, decided).astype(np.intp)


def tune_offset(score: FloatArray, cost_pos: FloatArray, cost_neg: FloatArray) -> float:
    """Return the log-odds offset of least total cost nearest the Bayes threshold.

    The rule "positive iff ``score > offset``" costs ``cost_pos[i]`` or
    ``cost_neg[i]`` on row ``i``. Its cost is a step function of the offset,
    constant on the intervals between consecutive distinct scores; among the
    intervals of least cost, the one containing 0 (the Bayes rule) wins, else the
    one nearest 0, and the offset is its midpoint (one unit beyond the extreme
    score for the two unbounded intervals). Rows with an infinite score are
    decided whatever the offset and do not move it.
    """
    finite = np.isfinite(score)
    s, cp, cn = score[finite], cost_pos[finite], cost_neg[finite]
    if s.size == 0:
        return 0.0
    order = np.argsort(s, kind="stable")
    s, cp, cn = s[order], cp[order], cn[order]
    # k = number of (lowest-score) rows predicted negative, 0..n
    total = np.concatenate([[0.0], np.cumsum(cn)]) + (
        cp.sum() - np.concatenate([[0.0], np.cumsum(cp)])
    )
    lower = np.concatenate([[-np.inf], s])
    upper = np.concatenate([s, [np.inf]])
    valid = lower < upper  # an interval between equal scores is empty
    best = total[valid].min()
    tied = valid & (total <= best + 1e-9 * max(1.0, abs(best)))
    if np.any(tied & (lower <= 0) & (upper > 0)):
        return 0.0
    distance = np.where(lower > 0, lower, -upper)
    k = int(np.flatnonzero(tied)[np.argmin(distance[tied])])
    if np.isinf(lower[k]):
        return float(upper[k] - 1.0)
    if np.isinf(upper[k]):
        return float(lower[k] + 1.0)
    return float(0.5 * (lower[k] + upper[k]))


def probability_threshold(matrix: FloatArray, pos: int, offset: float) -> float:
    """``P(+|x)`` above which the rule of ``offset`` is positive under ``matrix``.

    The Bayes rule (offset 0) is positive iff ``p+ a > p- b`` (:func:`log_odds_score`),
    that is iff ``P(+|x) > b / (a + b)``; an offset moves the log-odds boundary
    ``log(b / a)`` by ``offset``. 1 when a positive decision saves nothing on a
    positive, 0 when it costs nothing on a negative.
    """
    neg = 1 - pos
    a = matrix[pos, neg] - matrix[pos, pos]
    b = matrix[neg, pos] - matrix[neg, neg]
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    log_odds = np.log(b / a) + offset
    return float(1.0 / (1.0 + np.exp(-log_odds)))
