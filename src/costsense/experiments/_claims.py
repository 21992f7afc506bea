"""A paper's claims, stated as data (a study's ``[[claims]]``) and checked on results.

Each kind's keys and verdicts are in the README's table of claim kinds; a kind is
one row of ``_KINDS``: its keys and its judge. The row kinds judge each
comparison as held (+1), tied (0) or lost (-1) with a note; a verdict is never
printed without its tally. Two algorithms' splits are compared by the paired
t-test, corrected for overlapping training sets (Nadeau and Bengio 2003) unless
the study says the paper used the plain one. ``mean_change``, ``win_tie_loss``
and ``shift`` have their own tally.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import cell_reasons, one_class_rows
from costsense.experiments._labels import cost_label, cost_order, sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER
from costsense.experiments._stats import (
    paired_interval,
    paired_t_test,
    welch_interval,
)

__all__ = ["ClaimCheck", "bootstrap_interval", "check_claims", "claim_problem"]

_SHOWN = 6  # failing rows named in the evidence
#: +1 held, 0 tied, -1 lost; a note; whether held against a model near one class
Judged = Iterator[tuple[int, str, bool]]


def named(claim: dict[str, Any]) -> list[str]:
    """List every algorithm a claim needs, in its order."""
    keys = ("algorithm", "algorithms", "among", "than", "baseline")
    values = [claim.get(key, []) for key in keys]
    return list(dict.fromkeys(n for v in values for n in _listed(v)))


def _listed(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def row_name(row: Any) -> str:
    return f"{row[0]} at {row[1]}"


@dataclass
class Rows:
    """A claim, how it compares, and its rows: means of present rows, cells, gaps."""

    claim: dict[str, Any]
    lower: bool  # the metric is better when lower
    alpha: float
    paired: bool
    ratio: float  # n_test / n_train of the corrected t-test; 0: the plain test
    means: pd.DataFrame  # index (dataset, cost) of present rows; columns algorithms
    data: pd.DataFrame  # the cells of the claimed rows
    missing: list[str]  # one entry per claimed row without every algorithm
    curves: pd.DataFrame | None = None  # staged costs per cell (``falls``)

    @property
    def present(self) -> int:
        return len(self.means)

    def matched(self, a: str, b: str, row: Any) -> pd.DataFrame:
        """Split values of ``a`` and ``b`` on a row, matched by (repeat, fold)."""
        data = self.data
        here = data[
            (data["dataset"].astype(str) == row[0])
            & (data["cost"].astype(str) == row[1])
        ]
        split = [
            here[here["algorithm"] == name]
            .groupby(["repeat", "fold"])[self.claim["metric"]]
            .mean()
            for name in (a, b)
        ]
        return pd.concat(split, axis=1, join="inner").dropna()

    def test(self, a: str, b: str, row: Any) -> tuple[int, str]:
        """Paired t-test of ``a`` against ``b`` on a row (under 2 splits: a tie)."""
        pairs = self.matched(a, b, row)
        if len(pairs) < 2:
            return 0, f"{len(pairs)} matched split(s), no test"
        test = paired_t_test(
            pairs.iloc[:, 0],
            pairs.iloc[:, 1],
            alpha=self.alpha,
            test_train_ratio=self.ratio,
        )
        return test.outcome(self.lower), f"p = {test.pvalue:.2g}"

    @cached_property
    def one_class(self) -> set[tuple[str, str, str]]:
        """The (algorithm, dataset, cost) rows with a fit predicting one class."""
        return one_class_rows(self.data)


def claim_rows(
    results: pd.DataFrame,
    claim: dict[str, Any],
    rows: Sequence[tuple[str, str]],
    how: tuple[bool, float, bool, float],
) -> Rows:
    """Select a claim's study rows and average their cells (``how``: see Rows)."""
    metric, names = claim["metric"], named(claim)
    sets = [claim["from"], claim["to"]] if claim["kind"] == "shift" else None
    claimed = [
        r
        for r in rows
        if r[0] in (sets or claim.get("datasets", [r[0]]))
        and r[1] in {cost_label(c) for c in claim.get("costs", [r[1]])}
    ]
    empty = pd.DataFrame(columns=names, dtype=float)
    if metric not in results.columns:
        return Rows(claim, *how, empty, results.iloc[:0], [f"metric {metric}"])
    keys = pd.MultiIndex.from_frame(results[["dataset", "cost"]].astype(str))
    data = results[keys.isin(claimed) & results["algorithm"].isin(names)]
    data = data[data[metric].notna()]
    means = data.pivot_table(
        index=["dataset", "cost"], columns="algorithm", values=metric, aggfunc="mean"
    ).reindex(columns=names)
    missing: list[str] = []
    present = []
    for row in claimed:
        if row not in means.index:
            missing.append(row_name(row))
        elif absent := [n for n in names if np.isnan(means.loc[row, n])]:
            missing.append(f"{', '.join(absent)} on {row_name(row)}")
        else:
            present.append(row)
    ordered = sort_rows(present)
    chosen = means.loc[ordered] if ordered else empty
    return Rows(claim, *how, chosen, data, missing)


def _best(r: Rows, row: Any, values: pd.Series) -> Judged:
    group = _listed(r.claim["algorithm"])
    values = values[r.claim["among"]]
    scores = values if r.lower else -values  # smaller is better
    if r.paired:
        ours = min(group, key=lambda a: scores[a])
        rivals = [a for a in r.claim["among"] if a not in group]
        tests = {a: r.test(ours, a, row) for a in rivals}
        worse = [a for a, (k, _) in tests.items() if k < 0]
        level = [a for a, (k, _) in tests.items() if k == 0]
        listed = ", ".join(
            f"{a} ({values[a] if worse else values[ours]:.4g} vs "
            f"{values[ours] if worse else values[a]:.4g}, {tests[a][1]})"
            for a in worse or level
        )
        if worse:
            yield (
                -1,
                f"{row_name(row)}: {ours} significantly worse than {listed}",
                False,
            )
        elif level:
            note = f"{row_name(row)}: {ours} not significantly better than {listed}"
            yield 0, note, False
        else:
            yield 1, "", any((a, *row) in r.one_class for a in rivals)
        return
    winners = {a for a, s in scores.items() if np.isclose(s, scores.min(), rtol=1e-12)}
    if winners <= set(group):
        yield 1, "", False
    elif winners & set(group):
        others = ", ".join(sorted(winners - set(group)))
        yield 0, f"{row_name(row)}: tied best with {others}", False
    else:
        rank = int((scores < min(scores[a] for a in group)).sum()) + 1
        best = ", ".join(sorted(winners))
        yield -1, f"{row_name(row)}: rank {rank} of {len(scores)}, best {best}", False


def _better(r: Rows, row: Any, values: pd.Series) -> Judged:
    name = r.claim["algorithm"]
    for rival in r.claim["than"]:
        means = f"{name} {values[name]:.4g} vs {rival} {values[rival]:.4g}"
        if r.paired:
            outcome, p = r.test(name, rival, row)
            means += f", {p}"
        elif np.isclose(values[name], values[rival], rtol=1e-12):
            outcome = 0
        else:
            outcome = 1 if (values[name] < values[rival]) == r.lower else -1
        word = {1: "", 0: "tie", -1: "worse"}[outcome]
        apart = outcome == 1 and r.paired and (rival, *row) in r.one_class
        yield outcome, f"{row_name(row)}: {word} ({means})" if word else "", apart


def _close(r: Rows, row: Any, values: pd.Series) -> Judged:
    name, margin = r.claim["algorithm"], float(r.claim["value"])
    for rival in r.claim["than"]:
        if r.paired:
            pairs = r.matched(name, rival, row)
            if len(pairs) < 2:
                yield 0, f"{row_name(row)}: {len(pairs)} matched split(s)", False
                continue
            mean, low, high = paired_interval(
                pairs.iloc[:, 0],
                pairs.iloc[:, 1],
                alpha=r.alpha,
                test_train_ratio=r.ratio,
            )
            text = f"{name} - {rival} {mean:+.3g} [{low:+.3g}, {high:+.3g}]"
        else:
            mean = low = high = float(values[name] - values[rival])
            text = f"{name} - {rival} {mean:+.3g}"
        if -margin <= low and high <= margin:
            yield 1, "", False
        elif low > margin or high < -margin:
            yield -1, f"{row_name(row)}: apart ({text})", False
        else:
            yield 0, f"{row_name(row)}: undecided ({text})", False


def _bound(r: Rows, row: Any, values: pd.Series) -> Judged:
    bound = float(r.claim["value"])
    for name in r.claim["algorithms"]:
        value = values[name]
        held = value >= bound if r.claim["kind"] == "at_least" else value <= bound
        note = "" if held else f"{name} {value:.4g} on {row_name(row)}"
        yield (1 if held else -1), note, False


def _falls(r: Rows, row: Any, values: pd.Series) -> Judged:
    """Compare each algorithm's cost per row after its last round with its first."""
    split = r.claim["split"]
    curves = r.curves
    for name in r.claim["algorithms"]:
        if curves is None or curves.empty:
            yield 0, f"{name} on {row_name(row)}: no staged costs recorded", False
            continue
        here = curves[
            (curves["algorithm"] == name)
            & (curves["dataset"].astype(str) == row[0])
            & (curves["cost"].astype(str) == row[1])
            & (curves["split"] == split)
        ]
        if here.empty:
            yield 0, f"{name} on {row_name(row)}: no staged costs recorded", False
            continue
        ends = here.sort_values("stage").groupby(["repeat", "fold"])["value"]
        first, last = ends.first(), ends.last()
        if len(first) < 2:
            yield 0, f"{name} on {row_name(row)}: {len(first)} split(s), no test", False
            continue
        test = paired_t_test(last, first, alpha=r.alpha, test_train_ratio=r.ratio)
        outcome = test.outcome(lower_is_better=True)
        text = (
            f"{name} on {row_name(row)}: {split} cost per row {first.mean():.4g} "
            f"after round 1, {last.mean():.4g} after the last (p = {test.pvalue:.2g})"
        )
        yield outcome, "" if outcome == 1 else text, False


def _unit(claim: dict[str, Any]) -> str:
    """Name what a row kind counts: rows, row x rival comparisons, or cases."""
    unit, rivals = "rows", claim.get("than", claim.get("algorithms", []))
    if claim["kind"] == "falls":
        return "curves" if len(rivals) > 1 else "rows"
    if claim["kind"] != "best" and len(rivals) > 1:
        unit = "comparisons" if "than" in claim else "cases"
    relation = {"close": "within", "at_least": ">=", "at_most": "<="}.get(claim["kind"])
    return f"{unit} ({relation} {float(claim['value']):g})" if relation else unit


def row_verdict(held: int, tied: int, lost: int, holds_on: str = "every") -> str:
    """Turn a row kind's tally into a verdict.

    "contradicted" when the losses outnumber the holds, "not reproduced" when
    nothing held, "reproduced" when every comparison held (``holds_on="most"``:
    more than half), "partly" otherwise; "not run" with nothing to count.

    Examples
    --------
    >>> row_verdict(0, 1, 3), row_verdict(0, 5, 0), row_verdict(27, 20, 3)
    ('contradicted', 'not reproduced', 'partly')
    """
    total = held + tied + lost
    if total == 0:
        return "not run"
    if lost > held:
        return "contradicted"
    if held == 0:
        return "not reproduced"
    if held == total if holds_on == "every" else 2 * held > total:
        return "reproduced"
    return "partly"


def judge(r: Rows) -> tuple[str, str, str, int]:
    """Check a claim on its rows: (verdict, tally, evidence, comparisons lost)."""
    if r.present == 0:
        verdict, tally, failing = "not run", "no row", 0
        parts = ["no claimed row has results"]
    else:
        kinds = {
            "mean_change": _mean_change,
            "win_tie_loss": _win_tie_loss,
            "shift": _shift,
        }
        verdict, tally, parts, failing = kinds.get(r.claim["kind"], _row_kind)(r)
    if r.missing:
        if r.present:
            verdict = f"incomplete ({r.present} of {r.present + len(r.missing)} rows)"
        more = f" and {len(r.missing) - _SHOWN} more" if len(r.missing) > _SHOWN else ""
        parts.append(f"missing: {', '.join(r.missing[:_SHOWN])}{more}")
    return verdict, tally, "; ".join(parts), failing


def _test_name(r: Rows) -> str:
    if r.ratio:
        return (
            f"corrected resampled t-test (n_test/n_train {r.ratio:.3g}) at {r.alpha:g}"
        )
    return f"paired t-test at {r.alpha:g}"


def _row_kind(r: Rows) -> tuple[str, str, list[str], int]:
    """Tally a row kind's comparisons into a verdict."""
    kind = r.claim["kind"]
    judged = [j for row, v in r.means.iterrows() for j in _KINDS[kind][2](r, row, v)]
    outcomes, notes = [k for k, _, _ in judged], [n for _, n, _ in judged if n]
    held, tied, lost = (outcomes.count(k) for k in (1, 0, -1))
    one_class = sum(apart for _, _, apart in judged)
    holds_on = r.claim.get("holds_on", "every")
    verdict = row_verdict(held, tied, lost, holds_on)
    tie = "undecided" if kind == "close" else "tied"
    tally = f"held {held}, {tie} {tied}, lost {lost} of {len(judged)} {_unit(r.claim)}"
    if one_class:
        tally += f"; {one_class} of the holds against a model near one class"
    if holds_on == "most":
        tally += " (claimed: most)"
    evidence = []
    if r.paired and kind in ("best", "better", "close"):
        evidence.append(f"by the {_test_name(r)} over the matched splits")
    more = [f"and {len(notes) - _SHOWN} more"] if len(notes) > _SHOWN else []
    return verdict, tally, [*evidence, *notes[:_SHOWN], *more], lost


def bootstrap_interval(
    a: np.ndarray,
    b: np.ndarray,
    average: str,
    alpha: float,
    seed: int = 0,
    groups: Sequence[Any] | None = None,
) -> tuple[float, float, float]:
    """Change of ``a`` over ``b`` (mean ratio - 1, or ratio of the means - 1).

    Returns (change, low, high), the interval by a seeded bootstrap that draws
    whole ``groups`` (a row's data set: its rows at several costs are not
    independent) with replacement; None draws single rows.
    """
    keys = np.arange(a.shape[0]) if groups is None else np.asarray(groups)
    _, group = np.unique(keys, return_inverse=True)
    n_groups = int(group.max()) + 1
    ratio = a / b - 1.0 if average == "ratios" else np.zeros_like(a)
    # per group: its sum of ratios, of a, of b, and its number of rows
    sums = np.stack(
        [np.bincount(group, weights=w, minlength=n_groups) for w in (ratio, a, b)]
        + [np.bincount(group, minlength=n_groups).astype(float)]
    )

    def change(counts: np.ndarray) -> np.ndarray:
        """Return the change per draw; ``counts`` is (groups, draws)."""
        ratios, total_a, total_b, rows = sums @ counts
        if average == "ratios":
            return np.asarray(ratios / rows)
        return np.asarray(total_a / total_b - 1.0)

    draws = np.random.default_rng(seed).integers(0, n_groups, (4000, n_groups))
    counts = np.stack([np.bincount(d, minlength=n_groups) for d in draws], axis=1)
    low, high = np.quantile(change(counts), [alpha / 2, 1 - alpha / 2])
    return float(change(np.ones((n_groups, 1)))[0]), float(low), float(high)


def size_verdict(point: float, low: float, high: float, claimed: float) -> str:
    """Compare a measured change (and its interval) with a claimed one.

    "reproduced" when the interval excludes 0 on the claimed side, holds the
    claimed value and the point estimate is within the interval's half-width of
    it; "smaller than claimed" or "larger than claimed" when the interval only
    excludes 0 on the claimed side; "contradicted" when it lies on the other
    side of 0; "not shown" otherwise.

    Examples
    --------
    >>> size_verdict(0.06, 0.02, 0.10, 0.0668)
    'reproduced'
    >>> size_verdict(0.005, 0.001, 0.009, 0.0668)
    'smaller than claimed'
    >>> size_verdict(0.005, -0.03, 0.08, 0.0668)
    'not shown'
    """
    shown = low > 0 if claimed > 0 else high < 0
    against = high < 0 if claimed > 0 else low > 0
    if against:
        return "contradicted"
    if not shown:
        return "not shown"
    slack = 1e-9 * max(1.0, abs(claimed))  # rounding of equal changes on every row
    inside = low - slack <= claimed <= high + slack
    if inside and abs(point - claimed) <= (high - low) / 2 + slack:
        return "reproduced"
    return (
        "smaller than claimed" if abs(point) < abs(claimed) else "larger than claimed"
    )


def _mean_change(r: Rows) -> tuple[str, str, list[str], int]:
    """Check a claimed average change by its data-set bootstrap and the rows' signs."""
    name, base = r.claim["algorithm"], r.claim["baseline"]
    claimed = float(r.claim["value"])
    average = r.claim.get("average", "ratios")
    direction = np.sign(claimed)
    a, b = r.means[name].to_numpy(float), r.means[base].to_numpy(float)
    agree = int(np.sum(np.sign(a - b) == direction)) if direction else 0
    against = int(np.sum(np.sign(a - b) == -direction)) if direction else 0
    tally = (
        f"{'better' if direction else 'changed'} on {agree}, against on {against} "
        f"of {r.present} rows"
    )
    usable = b != 0 if average == "ratios" else np.ones_like(b, dtype=bool)
    zero = [
        row_name(row) for row, ok in zip(r.means.index, usable, strict=True) if not ok
    ]
    notes = [f"no ratio where {base} is 0: {', '.join(zero)}"] if zero else []
    if int(usable.sum()) < 2:
        evidence = f"too few rows with a ratio ({int(usable.sum())})"
        return "not shown", tally, [evidence, *notes], against
    if average == "totals" and np.mean(b) == 0:
        return "not shown", tally, [f"{base}'s mean is 0"], against
    sets = [row[0] for row in r.means.index[usable]]
    point, low, high = bootstrap_interval(
        a[usable], b[usable], average, r.alpha, groups=sets
    )
    what = "change of the mean" if average == "totals" else "mean change"
    evidence = (
        f"{what} {100 * point:+.1f} % [{100 * low:+.1f}, {100 * high:+.1f}] "
        f"over {int(usable.sum())} rows of {len(set(sets))} data sets, resampled by "
        f"data set (claimed {100 * claimed:+.1f} %)"
    )
    verdict = size_verdict(point, low, high, claimed)
    if verdict == "reproduced" and 2 * agree <= r.present:
        verdict = "not shown"
        notes.append("the rows do not mostly change in the claimed direction")
    return verdict, tally, [evidence, *notes], against


def combined(verdicts: list[str]) -> str:
    """Combine the verdicts of a claim's parts (its costs, its rivals).

    One verdict shared by every part is the claim's; otherwise the parts count
    as a row kind's comparisons: reproduced ones held, contradicted ones lost.
    """
    if len(set(verdicts)) == 1:
        return verdicts[0]
    held, lost = verdicts.count("reproduced"), verdicts.count("contradicted")
    return row_verdict(held, len(verdicts) - held - lost, lost)


def _shift(r: Rows) -> tuple[str, str, list[str], int]:
    """Check one algorithm's claimed change from one data set to another, per cost."""
    name, claimed = r.claim["algorithm"], float(r.claim["value"])
    source, target = r.claim["from"], r.claim["to"]
    metric, data = r.claim["metric"], r.data
    verdicts, tallies, parts = [], [], []
    costs = sort_rows({(source, str(c)) for c in r.means.index.get_level_values(1)})
    for _, cost in costs:
        after, before = (
            data[
                (data["algorithm"] == name)
                & (data["dataset"].astype(str) == d)
                & (data["cost"].astype(str) == cost)
            ][metric].to_numpy(float)
            for d in (target, source)
        )
        if min(after.size, before.size) == 0:
            continue  # a set without this cost: the claim's missing rows say so
        if not r.paired:  # printed means: the change of the means, no interval
            point = low = high = float(after.mean() - before.mean())
            how = "printed means"
        elif min(after.size, before.size) < 2:
            verdicts.append("not shown")
            tallies.append(f"at {cost}: under 2 splits on a set")
            continue
        else:
            point, low, high = welch_interval(after, before, alpha=r.alpha)
            how = f"Welch, {before.size} and {after.size} splits"
        verdicts.append(size_verdict(point, low, high, claimed))
        tallies.append(
            f"at {cost}: {point:+.4g} [{low:+.4g}, {high:+.4g}], claimed {claimed:+.4g}"
        )
        parts.append(
            f"at {cost}: {name} {before.mean():.4g} on {source} -> "
            f"{after.mean():.4g} on {target} ({how}): {verdicts[-1]}"
        )
    return combined(verdicts), "; ".join(tallies), parts, verdicts.count("contradicted")


def _wtl_verdict(wins: int, losses: int, claimed: tuple[int, int, int]) -> str:
    """One rival's verdict: the claimed wins reached and losses not exceeded."""
    c_win, _, c_loss = claimed
    if wins >= c_win and losses <= c_loss:
        return "reproduced"
    if losses > wins and c_win >= c_loss:
        return "contradicted"
    return "not reproduced"


def _win_tie_loss(r: Rows) -> tuple[str, str, list[str], int]:
    """Compare the paper's win/tie/loss counts per rival with our paired tests."""
    verdicts, parts, beyond = [], [], 0
    name = r.claim["algorithm"]
    for rival, counts in zip(r.claim["than"], r.claim["counts"], strict=True):
        tests = [r.test(name, rival, row)[0] for row in r.means.index]
        wins, ties, losses = (tests.count(k) for k in (1, 0, -1))
        beyond += max(0, losses - counts[2])
        verdicts.append(_wtl_verdict(wins, losses, tuple(counts)))
        parts.append(
            f"vs {rival} {wins}/{ties}/{losses} (paper "
            f"{'/'.join(map(str, counts))}): {verdicts[-1]}"
        )
    evidence = f"wins/ties/losses by the {_test_name(r)} per row"
    return combined(verdicts), "; ".join(parts), [evidence], beyond


_COMMON = {"text", "source", "kind", "metric"}
_OPTIONAL = {"datasets", "costs", "inconsistency", "choices"}
#: kind -> (its keys, its optional keys, its judge of a row; None: its own tally)
_KINDS: dict[str, tuple[str, str, Any]] = {
    "best": ("algorithm among", "holds_on", _best),
    "better": ("algorithm than", "holds_on", _better),
    "close": ("algorithm than value", "holds_on", _close),
    "at_least": ("algorithms value", "holds_on", _bound),
    "at_most": ("algorithms value", "holds_on", _bound),
    "mean_change": ("algorithm baseline value", "average", None),
    "win_tie_loss": ("algorithm than counts", "", None),
    "shift": ("algorithm from to value", "", None),
    "falls": ("algorithms split", "holds_on", _falls),
}
_CHOICES = {"holds_on": ("every", "most"), "average": ("ratios", "totals")}


def claim_problem(claim: dict[str, Any], datasets: Sequence[str] | None = None) -> str:
    """Say what is wrong with a claim ("" if nothing): its kind, keys, datasets."""
    kind = claim.get("kind")
    if kind not in _KINDS:
        return f"claim kind must be one of {sorted(_KINDS)}: {claim}"
    needed = _COMMON | set(_KINDS[kind][0].split())
    allowed = needed | _OPTIONAL | set(_KINDS[kind][1].split())
    if kind == "shift":
        allowed -= {"datasets"}
    if not needed <= set(claim) <= allowed:
        return (
            f"a {kind!r} claim needs the keys {sorted(needed)} (optional "
            f"{sorted(allowed - needed)}), got {sorted(claim)}: "
            f"{claim.get('text', '')!r}"
        )
    for key, choices in _CHOICES.items():
        if claim.get(key, choices[0]) not in choices:
            return f"{key} must be {choices[0]!r} or {choices[1]!r}, got {claim[key]!r}"
    counts = claim.get("counts", [])
    if kind == "win_tie_loss" and (
        len(counts) != len(claim["than"]) or any(len(c) != 3 for c in counts)
    ):
        return (
            "a win_tie_loss claim needs one [wins, ties, losses] in counts per "
            f"algorithm of than: {claim['text']!r}"
        )
    if kind == "falls" and (claim["metric"], claim["split"]) not in {
        ("mean_cost", "train"),
        ("mean_cost", "test"),
    }:
        return (
            'a falls claim reads the staged cost curves: metric = "mean_cost" and '
            f'split = "train" or "test": {claim["text"]!r}'
        )
    if kind == "shift" and claim["from"] == claim["to"]:
        return f"a shift claim compares two data sets; from = to: {claim['text']!r}"
    named_sets = [claim["from"], claim["to"]] if kind == "shift" else []
    stray = sorted(set(claim.get("datasets", named_sets)) - set(datasets or []))
    if datasets is not None and stray:
        return (
            f"claim {claim['text']!r} names datasets {stray} the study does not "
            "run; list only the study's datasets."
        )
    return ""


@dataclass(frozen=True)
class ClaimCheck:
    """One claim checked against results.

    ``verdict`` is "reproduced", "partly", "not reproduced", "contradicted",
    "smaller than claimed", "larger than claimed", "not shown", "incomplete (k
    of n rows)" or "not run", ``tally`` the count it rests on (printed beside
    it), ``evidence`` the numbers behind it; ``failing`` counts the comparisons
    lost (``mean_change``: rows changing against the claim; ``win_tie_loss``:
    losses beyond the claimed ones); ``degenerate`` names the degenerate fits it
    rests on, ``inconsistency`` is the claim file's note that the paper's
    numbers disagree, ``choices`` its note on our choices that decide the
    verdict, ``like_for_like`` a row claim's tally on the paper's own datasets.
    """

    text: str
    source: str
    verdict: str
    tally: str
    evidence: str
    failing: int = 0
    degenerate: str = ""
    inconsistency: str = ""
    like_for_like: str = ""
    choices: str = ""


def _degenerate(r: Rows) -> str:
    """Summarise the degenerate fits among a claim's cells, the first four named."""
    if "diagnostics" not in r.data.columns:
        return ""
    cells: dict[tuple[str, str, str], list[list[str]]] = {}
    columns = ["algorithm", "dataset", "cost"]
    keys = r.data[columns].itertuples(False)
    for (algorithm, dataset, cost), reasons in zip(
        keys, cell_reasons(r.data), strict=True
    ):
        key = (str(algorithm), str(dataset), str(cost))
        cells.setdefault(key, []).append(reasons)
    order = named(r.claim)
    items = []
    for key in sorted(
        (k for k, found in cells.items() if any(found)),
        key=lambda k: (order.index(k[0]), k[1], cost_order(k[2])),
    ):
        reasons = [reason.split(" (")[0] for found in cells[key] for reason in found]
        # ties go to the reason seen first (a set's order varies per process)
        common = max(dict.fromkeys(reasons), key=reasons.count)
        bad = sum(map(bool, cells[key]))
        items.append(
            f"{key[0]} on {key[1]} at {key[2]} ({common}; {bad} of "
            f"{len(cells[key])} cells)"
        )
    more = f"; and {len(items) - 4} more" if len(items) > 4 else ""
    return "; ".join(items[:4]) + more


def check_claims(
    results: pd.DataFrame,
    claims: Iterable[dict[str, Any]],
    rows: Sequence[tuple[str, str]] | None = None,
    *,
    alpha: float = 0.05,
    paired: bool = True,
    test_train_ratio: float = 0.0,
    like_for_like: Sequence[str] = (),
    curves: pd.DataFrame | None = None,
) -> list[ClaimCheck]:
    """Check each claim against results.

    Parameters
    ----------
    results : pandas.DataFrame
        One row per cell: ``dataset, cost, algorithm, repeat, fold``, the
        metrics and optionally ``diagnostics`` (as
        :meth:`costsense.experiments.ResultsStore.results` gives them).
    claims : iterable of dict
        Claims as ``docs/guide/study_format.rst`` describes them.
    rows : sequence of (str, str), default=None
        The (dataset, cost label) rows of the full study, which a claim
        without ``datasets`` or ``costs`` speaks about. None takes the rows of
        ``results`` (a partial run then looks complete).
    alpha : float, default=0.05
        Level of the intervals and tests.
    paired : bool, default=True
        Compare by paired t-tests over the matched splits; False compares the
        means (a paper's printed means have no splits).
    test_train_ratio : float, default=0.0
        ``n_test / n_train`` of the splits for the corrected resampled t-test
        (:attr:`costsense.experiments.Protocol.test_train_ratio`); 0 is the
        plain paired t-test.
    like_for_like : sequence of str, default=()
        The paper's own datasets, on which each row claim is tallied apart.
    curves : pandas.DataFrame, default=None
        The staged cost curves (:meth:`costsense.experiments.ResultsStore.curves`)
        that ``falls`` claims read.

    Returns
    -------
    list of ClaimCheck
    """
    if rows is None:
        found = results[["dataset", "cost"]].astype(str).drop_duplicates()
        rows = sort_rows([tuple(r) for r in found.itertuples(index=False)])
    rows = [(str(d), str(c)) for d, c in rows]
    checks = []
    for claim in claims:
        how = (claim["metric"] in LOWER_IS_BETTER, alpha, paired, test_train_ratio)
        r = claim_rows(results, claim, rows, how)
        r.curves = curves
        same = [d for d in like_for_like if d in claim.get("datasets", like_for_like)]
        own = ""
        if same and _KINDS[claim["kind"]][2] is not None:
            sub = claim_rows(results, {**claim, "datasets": same}, rows, how)
            sub.curves = curves
            if sub.present:
                verdict, tally = judge(sub)[:2]
                rows_named = ", ".join(row_name(row) for row in sub.means.index)
                own = f"{rows_named}: {verdict} ({tally})"
        verdict, tally, evidence, failing = judge(r)
        checks.append(
            ClaimCheck(
                claim["text"],
                claim["source"],
                verdict,
                tally,
                evidence,
                failing,
                _degenerate(r),
                claim.get("inconsistency", ""),
                own,
                claim.get("choices", ""),
            )
        )
    return checks
