"""Choosing an option by its cross-fitted cost, and saying what was chosen.

Each option (a source and a rule) is a procedure run on the candidates'
out-of-fold probabilities, so its cost is estimated by cross-fitting: every part
decided by the option fitted on the other parts (:func:`cross_fitted_costs`). The
stack with the Bayes rule is the default; another option replaces it only when
cheaper by more than ``z`` standard errors of the paired per-row differences, the
one-standard-error rule of Breiman et al. (1984, section 3.4.3) made to hold for
``m`` alternatives at once (Bonferroni): :func:`guarded_choice`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.recommend._candidates import Fitted, stratified
from costsense.recommend._combination import AVERAGE, STACK, Combination
from costsense.recommend._decision import (
    BAYES,
    THRESHOLD,
    decide,
    log_odds_score,
    tune_offset,
)

__all__ = [
    "MIN_ROWS_FOR_THRESHOLD",
    "Choice",
    "Option",
    "choice_text",
    "choose",
    "cv_results",
    "guarded_choice",
    "paired_differences",
    "rows_of",
    "switch_standard_errors",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: The tuned threshold is considered only when each of the two classes has at
#: least this many rows with out-of-fold probabilities (see the class Notes).
MIN_ROWS_FOR_THRESHOLD = 30
#: Parts of the cross-fitting when the candidates were scored on one held-out
#: split (``cv="auto"`` on large sets): its rows are split this many ways.
SINGLE_SPLIT_PARTS = 5
#: One-sided level of the one-standard-error rule, P(Z > 1) (Breiman et al.
#: 1984), shared among the alternatives to the default (Bonferroni).
SWITCH_LEVEL = 1.0 - NormalDist().cdf(1.0)


@dataclass
class Option:
    """One (source, rule) pair: its cross-fitted per-row costs, and it fitted."""

    source: str
    rule: str
    costs: FloatArray
    combination: Combination
    offset: float


def cross_fitted_costs(
    fitted: list[Combination],
    rule: str,
    proba: FloatArray,
    matrices: FloatArray,
    rows: FloatArray,
    pos: int | None,
    folds: list[tuple[IntArray, IntArray]],
) -> FloatArray:
    """Per-row cost of an option: each part decided by it fitted on the others.

    ``fitted[i]`` is the option's combination fitted on ``folds[i]``'s training
    parts (shared by the rules, which differ only in the offset).
    """
    costs = np.empty(rows.shape[0])
    for combination, (train, test) in zip(fitted, folds, strict=True):
        offset = rule_offset(
            combination,
            rule,
            proba[:, train],
            rows_of(matrices, train),
            rows[train],
            pos,
        )
        predicted = decide(
            combination.combine(proba[:, test]),
            rows_of(matrices, test),
            rule,
            offset,
            pos,
        )
        costs[test] = rows[test, predicted]
    return costs


def rows_of(matrices: FloatArray, index: IntArray) -> FloatArray:
    """Return the decision matrices of some rows (a shared matrix as it is)."""
    return matrices if matrices.ndim == 2 else matrices[index]


def rule_offset(
    combination: Combination,
    rule: str,
    proba: FloatArray,
    matrices: FloatArray,
    rows: FloatArray,
    pos: int | None,
) -> float:
    """Return the rule's offset (0 for Bayes), tuned on the rows given."""
    if rule == BAYES or pos is None:
        return 0.0
    score = log_odds_score(combination.combine(proba), matrices, pos)
    return tune_offset(score, rows[:, pos], rows[:, 1 - pos])


def switch_standard_errors(n_alternatives: int) -> float:
    """Return ``z = Phi^-1(1 - 0.159 / m)``: the bar of ``m`` alternatives, in SEs.

    One alternative gives the one-standard-error rule (``z = 1``).
    """
    return NormalDist().inv_cdf(1.0 - SWITCH_LEVEL / max(n_alternatives, 1))


def guarded_choice(options: list[Option], default: int) -> int:
    """Index of the chosen option: the default unless another is clearly cheaper.

    The default stays unless another option's mean cost is lower by more than
    :func:`switch_standard_errors` standard errors of the per-row differences
    (:func:`paired_differences`); among those that are, the cheapest wins, ties
    going to the first listed.
    """
    difference, errors = paired_differences(options, default)
    z = switch_standard_errors(len(options) - 1)
    better = difference + z * errors < 0
    if not np.any(better):
        return default
    qualified = np.flatnonzero(better)
    return int(qualified[np.argmin(difference[qualified])])


def paired_differences(
    options: list[Option], reference: int
) -> tuple[FloatArray, FloatArray]:
    """Each option's mean cost minus the reference's, and the paired standard error.

    The standard error is that of the mean of the per-row differences (infinite
    with fewer than two rows).
    """
    base = options[reference].costs
    n = base.size
    difference = np.array([option.costs.mean() - base.mean() for option in options])
    if n < 2:
        return difference, np.full(len(options), np.inf)
    errors = np.array(
        [np.std(option.costs - base, ddof=1) / np.sqrt(n) for option in options]
    )
    return difference, errors


@dataclass(frozen=True)
class Choice:
    """The options scored, the index of the chosen one, and the paired differences.

    ``difference`` and ``errors`` hold each option's mean cost minus the chosen
    option's and the standard error of the per-row differences.
    """

    options: list[Option]
    chosen: int
    difference: FloatArray
    errors: FloatArray

    @property
    def option(self) -> Option:
        """The chosen option."""
        return self.options[self.chosen]


def choose(
    working: list[Fitted],
    proba: FloatArray,
    y: IntArray,
    matrices: FloatArray,
    rows: FloatArray,
    n_folds: int,
    rng: np.random.RandomState,
    n_classes: int,
    pos: int | None,
) -> Choice:
    """Score every option by cross-fitting; choose one by the guarded rule.

    ``pos`` is the positive class index (None for more classes); each option's
    combination is also fitted on every row, as it would be used. The rows are
    split into ``n_folds`` parts, :data:`SINGLE_SPLIT_PARTS` for one split.
    """
    eps = 0.5 / y.size
    counts = np.bincount(y, minlength=n_classes)
    rules = [BAYES]
    if pos is not None and counts.min() >= MIN_ROWS_FOR_THRESHOLD:
        rules.append(THRESHOLD)
    sources = [(r.name, "single", i) for i, r in enumerate(working)]
    if len(working) > 1:
        sources.append((AVERAGE, AVERAGE, 0))
    sources.append((STACK, STACK, 0))
    parts = stratified(n_folds if n_folds > 1 else SINGLE_SPLIT_PARTS, y, rng)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The least populated class")
        folds = [(np.asarray(a), np.asarray(b)) for a, b in parts.split(y, y)]
    options: list[Option] = []
    for name, kind, index in sources:
        # each source's combination fitted once per part and once on every
        # row (the option as it would be used), whatever the rule
        fitted = [
            Combination(kind, index, n_classes, eps).fit(proba[:, t], y[t])
            for t, _ in folds
        ]
        combination = Combination(kind, index, n_classes, eps).fit(proba, y)
        combination.models = (
            [working[index].model] if kind == "single" else [r.model for r in working]
        )
        for rule in rules:
            costs = cross_fitted_costs(fitted, rule, proba, matrices, rows, pos, folds)
            offset = rule_offset(combination, rule, proba, matrices, rows, pos)
            options.append(Option(name, rule, costs, combination, offset))
    default = next(
        i for i, o in enumerate(options) if o.source == STACK and o.rule == BAYES
    )
    chosen = guarded_choice(options, default)
    return Choice(options, chosen, *paired_differences(options, chosen))


#: The columns of ``cv_results_`` and their dtypes.
_CV_COLUMNS: dict[str, Any] = {
    "candidate": object,
    "rule": object,
    "mean_cost": np.float64,
    "std_error": np.float64,
    "difference": np.float64,
    "difference_std_error": np.float64,
    "threshold": np.float64,
    "chosen": bool,
    "fit_time": np.float64,
    "error": object,
}


def cv_results(
    fitted: list[Fitted],
    choice: Choice,
    threshold_of: Callable[[float], float] | None,
) -> dict[str, NDArray[Any]]:
    """Return ``cv_results_``: a row per option and per failed candidate.

    ``threshold_of`` gives an option's probability threshold from its offset
    (None for more classes: the column is NaN).
    """
    options, chosen = choice.options, choice.chosen
    difference, errors = choice.difference, choice.errors
    seconds = {r.name: r.seconds for r in fitted}
    columns: dict[str, list[Any]] = {key: [] for key in _CV_COLUMNS}

    def add(**row: Any) -> None:
        for key, values in columns.items():
            values.append(row[key])

    listed = [r.name for r in fitted] + [AVERAGE, STACK]
    for name in listed:
        failed = next((r for r in fitted if r.name == name and r.error), None)
        if failed is not None:
            add(
                candidate=name,
                rule="",
                mean_cost=np.nan,
                std_error=np.nan,
                difference=np.nan,
                difference_std_error=np.nan,
                threshold=np.nan,
                chosen=False,
                fit_time=failed.seconds,
                error=failed.error,
            )
            continue
        for i, option in enumerate(options):
            if option.source != name:
                continue
            n = option.costs.size
            add(
                candidate=name,
                rule=option.rule,
                mean_cost=float(option.costs.mean()),
                std_error=float(np.std(option.costs, ddof=1) / np.sqrt(n))
                if n > 1
                else np.inf,
                difference=float(difference[i]),
                difference_std_error=float(errors[i]),
                threshold=np.nan
                if threshold_of is None
                else threshold_of(option.offset),
                chosen=i == chosen,
                fit_time=seconds.get(name, np.nan),
                error="",
            )
    return {
        key: np.array(columns[key], dtype=dtype) for key, dtype in _CV_COLUMNS.items()
    }


def choice_text(model: Any) -> str | None:
    """Say what a fitted :class:`MinimumCostClassifier` chose, beside the runner-up.

    The chosen source and rule with its out-of-fold mean cost per training row;
    the runner-up (the cheapest other option) with its cost and the paired
    difference to the chosen one, plus or minus one standard error; and how the
    guarded choice (Notes of the class) settled it: a cheaper runner-up that is
    not clearly cheaper than the default (by how many standard errors, and how
    many a switch needs), or a chosen option that cleared that bar. None for a
    model without ``cv_results_``.
    """
    results = getattr(model, "cv_results_", None)
    if results is None or not hasattr(model, "chosen_"):
        return None
    cost = np.asarray(results["mean_cost"], dtype=np.float64)
    chosen = np.asarray(results["chosen"], dtype=bool)
    difference = np.asarray(results["difference"], dtype=np.float64)
    error = np.asarray(results["difference_std_error"], dtype=np.float64)
    names, rules = results["candidate"], results["rule"]
    line = (
        f"chose {model.chosen_} with the {model.rule_} rule: out-of-fold cost "
        f"{cost[chosen][0]:.4g} per row"
    )
    scored = np.isfinite(cost)
    others = np.flatnonzero(~chosen & scored)
    if not others.size:
        return line
    best = others[np.argmin(cost[others])]
    line += (
        f"; runner-up {names[best]} with the {rules[best]} rule: {cost[best]:.4g} "
        f"({difference[best]:+.2g} +- {error[best]:.2g} per row, paired)"
    )
    needed = switch_standard_errors(int(scored.sum()) - 1)
    default = np.flatnonzero((names == STACK) & (rules == BAYES) & scored)
    if chosen[default].all() and difference[best] < 0 and error[best] > 0:
        line += (
            f"; not chosen: {-difference[best] / error[best]:.2g} standard errors "
            f"cheaper than the default, a switch needs {needed:.2g}"
        )
    elif default.size and not chosen[default].any() and error[default[0]] > 0:
        line += (
            f"; it replaced the default (stack with the bayes rule), "
            f"{difference[default[0]] / error[default[0]]:.2g} standard errors "
            f"dearer; a switch needs {needed:.2g}"
        )
    return line
