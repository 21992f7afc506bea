"""The claim kinds: a claim's rows, one engine for the row kinds, and the two tallies.

Every kind reads its numbers through :class:`Rows` (the claimed rows' means and
their splits matched by repeat and fold). The row kinds (``best``, ``better``,
``close``, ``at_least``, ``at_most``) each judge one comparison at a time as
held (+1), tied (0) or failed (-1), with a note; :func:`rows_check` tallies
them into a verdict. ``mean_change`` and ``win_tie_loss`` aggregate otherwise.
Change a kind's judge here; a new kind also needs its keys in the schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._labels import cost_label, sort_rows
from costsense.experiments._stats import paired_interval, paired_t_test

_SHOWN = 6  # failing rows named in the evidence
_BOOTSTRAP_RESAMPLES = 4000


def named(claim: dict[str, Any]) -> list[str]:
    """List every algorithm a claim needs, in its order."""
    names: list[str] = []
    for key in ("algorithm", "algorithms", "among", "than", "baseline"):
        value = claim.get(key, [])
        for name in [value] if isinstance(value, str) else value:
            if name not in names:
                names.append(name)
    return names


def row_name(row: Any) -> str:
    return f"{row[0]} at {row[1]}"


@dataclass
class Rows:
    """A claim's rows: means per present row and algorithm, and what is missing."""

    means: pd.DataFrame  # index (dataset, cost) of present rows; columns algorithms
    data: pd.DataFrame  # the cells of the claimed rows
    expected: int
    missing: list[str]
    metric: str

    @property
    def present(self) -> int:
        return len(self.means)

    def incomplete(self) -> str | None:
        if self.present == 0:
            return "not run"
        if self.missing:
            return f"incomplete ({self.present} of {self.expected} rows)"
        return None

    def missing_note(self) -> list[str]:
        if not self.missing:
            return []
        more = len(self.missing) - _SHOWN
        return [
            f"missing: {', '.join(self.missing[:_SHOWN])}"
            + (f" and {more} more" if more > 0 else "")
        ]

    def matched(self, a: str, b: str, row: Any) -> pd.DataFrame:
        """Split values of ``a`` and ``b`` on a row, matched by (repeat, fold)."""
        here = self.data[
            (self.data["dataset"].astype(str) == row[0])
            & (self.data["cost"].astype(str) == row[1])
        ]
        split = [
            here[here["algorithm"] == name].groupby(["repeat", "fold"])[self.metric]
            for name in (a, b)
        ]
        return pd.concat([s.mean() for s in split], axis=1, join="inner").dropna()


def claim_rows(
    results: pd.DataFrame, claim: dict[str, Any], rows: Sequence[tuple[str, str]]
) -> Rows:
    """Select the study rows a claim speaks about and average their cells."""
    metric, names = claim["metric"], named(claim)
    claimed = list(rows)
    if "datasets" in claim:
        claimed = [r for r in claimed if r[0] in set(claim["datasets"])]
    if "costs" in claim:
        labels = {cost_label(c) for c in claim["costs"]}
        claimed = [r for r in claimed if r[1] in labels]
    empty = pd.DataFrame(columns=names, dtype=float)
    if metric not in results.columns:
        return Rows(empty, results.iloc[:0], len(claimed), [f"metric {metric}"], metric)
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
            missing.append(f"{row[0]} at {row[1]}")
            continue
        absent = [n for n in names if np.isnan(means.loc[row, n])]
        if absent:
            missing.append(f"{', '.join(absent)} on {row[0]} at {row[1]}")
        else:
            present.append(row)
    ordered = sort_rows(present)
    return Rows(
        means.loc[ordered] if ordered else empty, data, len(claimed), missing, metric
    )


@dataclass(frozen=True)
class Compare:
    """How a row claim compares two algorithms: by paired test, or by means."""

    lower: bool  # the metric is better when lower
    alpha: float
    paired: bool

    def test(self, r: Rows, a: str, b: str, row: Any) -> tuple[int, str]:
        """Paired t-test of ``a`` against ``b`` on a row (under 2 splits: a tie)."""
        pairs = r.matched(a, b, row)
        if len(pairs) < 2:
            return 0, f"{len(pairs)} matched split(s), no test"
        test = paired_t_test(pairs.iloc[:, 0], pairs.iloc[:, 1], alpha=self.alpha)
        return test.outcome(self.lower), f"p = {test.pvalue:.2g}"


#: One judged comparison: +1 held, 0 tied, -1 failed, and its note ("" for none).
Judged = Iterator[tuple[int, str]]


def _best(
    r: Rows, claim: dict[str, Any], how: Compare, row: Any, values: Any
) -> Judged:
    group = claim["algorithm"]
    group = [group] if isinstance(group, str) else list(group)
    values = values[claim["among"]]
    scores = values if how.lower else -values  # smaller is better
    if how.paired:
        ours = min(group, key=lambda a: scores[a])
        tests = {a: how.test(r, ours, a, row) for a in claim["among"] if a not in group}
        worse = [a for a, (k, _) in tests.items() if k < 0]
        level = [a for a, (k, _) in tests.items() if k == 0]
        rivals = worse or level
        listed = ", ".join(
            f"{a} ({values[a] if worse else values[ours]:.4g} vs "
            f"{values[ours] if worse else values[a]:.4g}, {tests[a][1]})"
            for a in rivals
        )
        if worse:
            yield -1, f"{row_name(row)}: {ours} significantly worse than {listed}"
        elif level:
            yield 0, f"{row_name(row)}: {ours} not significantly better than {listed}"
        else:
            yield 1, ""
        return
    top = scores.min()
    winners = {a for a, s in scores.items() if np.isclose(s, top, rtol=1e-12)}
    if winners <= set(group):
        yield 1, ""
    elif winners & set(group):
        others = ", ".join(sorted(winners - set(group)))
        yield 0, f"{row_name(row)}: tied best with {others}"
    else:
        rank = int((scores < min(scores[a] for a in group)).sum()) + 1
        yield (
            -1,
            (
                f"{row_name(row)}: rank {rank} of {len(scores)}, best "
                f"{', '.join(sorted(winners))}"
            ),
        )


def _better(
    r: Rows, claim: dict[str, Any], how: Compare, row: Any, values: Any
) -> Judged:
    name = claim["algorithm"]
    for rival in claim["than"]:
        means = f"{name} {values[name]:.4g} vs {rival} {values[rival]:.4g}"
        if how.paired:
            outcome, p = how.test(r, name, rival, row)
            means += f", {p}"
        else:
            ours, theirs = values[name], values[rival]
            outcome = (
                0
                if np.isclose(ours, theirs, rtol=1e-12)
                else (1 if (ours < theirs) == how.lower else -1)
            )
        word = {1: "", 0: "tie", -1: "worse"}[outcome]
        yield outcome, f"{row_name(row)}: {word} ({means})" if word else ""


def _close(
    r: Rows, claim: dict[str, Any], how: Compare, row: Any, values: Any
) -> Judged:
    name, margin = claim["algorithm"], float(claim["value"])
    for rival in claim["than"]:
        if how.paired:
            pairs = r.matched(name, rival, row)
            if len(pairs) < 2:
                yield 0, f"{row_name(row)}: {len(pairs)} matched split(s)"
                continue
            mean, low, high = paired_interval(
                pairs.iloc[:, 0], pairs.iloc[:, 1], alpha=how.alpha
            )
            text = f"{name} - {rival} {mean:+.3g} [{low:+.3g}, {high:+.3g}]"
        else:
            mean = low = high = float(values[name] - values[rival])
            text = f"{name} - {rival} {mean:+.3g}"
        if -margin <= low and high <= margin:
            yield 1, ""
        elif low > margin or high < -margin:
            yield -1, f"{row_name(row)}: apart ({text})"
        else:
            yield 0, f"{row_name(row)}: undecided ({text})"


def _bound(
    r: Rows, claim: dict[str, Any], how: Compare, row: Any, values: Any
) -> Judged:
    bound = float(claim["value"])
    for name in claim["algorithms"]:
        value = values[name]
        if value >= bound if claim["kind"] == "at_least" else value <= bound:
            yield 1, ""
        else:
            yield -1, f"{name} {value:.4g} on {row_name(row)}"


_JUDGES: dict[str, Callable[..., Judged]] = {
    "best": _best,
    "better": _better,
    "close": _close,
    "at_least": _bound,
    "at_most": _bound,
}


def _unit(claim: dict[str, Any]) -> str:
    """Name what a row kind counts: rows, row x rival comparisons, or cases."""
    kind = claim["kind"]
    subjects = claim.get("than", claim.get("algorithms", []))
    unit = "rows"
    if kind != "best" and len(subjects) > 1:
        unit = "cases" if kind in ("at_least", "at_most") else "comparisons"
    if kind == "close":
        return f"{unit} (within {float(claim['value']):g})"
    if kind in ("at_least", "at_most"):
        relation = ">=" if kind == "at_least" else "<="
        return f"{unit} ({relation} {float(claim['value']):g})"
    return unit


def rows_check(r: Rows, claim: dict[str, Any], how: Compare) -> tuple[str, str, int]:
    """Judge a row claim on every row: (verdict, evidence, comparisons failed).

    ``holds_on = "every"`` reproduces when every comparison holds, ``"most"``
    when more than half do; none held and none tied is "not reproduced".
    """
    kind = claim["kind"]
    counts = {1: 0, 0: 0, -1: 0}
    notes = []
    for row, values in r.means.iterrows():
        for outcome, note in _JUDGES[kind](r, claim, how, row, values):
            counts[outcome] += 1
            notes += [note] if note else []
    held, tied, failed = counts[1], counts[0], counts[-1]
    total = held + tied + failed
    holds_on = claim.get("holds_on", "every")
    verdict = r.incomplete()
    if verdict is None:
        if total == 0:
            verdict = "not run"
        elif held == total if holds_on == "every" else 2 * held > total:
            verdict = "reproduced"
        else:
            verdict = "not reproduced" if held == tied == 0 else "partly"
    evidence = f"holds in {held} of {total} {_unit(claim)}"
    if tied:
        evidence += f", {'undecided' if kind == 'close' else 'tied'} in {tied}"
    if how.paired and kind in ("best", "better", "close"):
        evidence += f" (paired t-test at {how.alpha:g} over the matched splits)"
    if holds_on == "most":
        evidence += " (claimed: most)"
    parts = [evidence, *notes[:_SHOWN]]
    if len(notes) > _SHOWN:
        parts.append(f"and {len(notes) - _SHOWN} more")
    return verdict, "; ".join([*parts, *r.missing_note()]), failed


def bootstrap_interval(
    a: np.ndarray, b: np.ndarray, average: str, alpha: float, seed: int = 0
) -> tuple[float, float, float]:
    """Relative change of ``a`` over ``b`` across rows, and its bootstrap interval.

    ``average="ratios"`` is the mean of the per-row changes ``a / b - 1``,
    ``"totals"`` the change of the means; the percentile interval (level
    ``1 - alpha``) resamples the rows with a fixed seed, so it is reproducible.
    Returns (change, low, high).
    """

    def change(index: np.ndarray) -> np.ndarray:
        if average == "ratios":
            return np.mean(a[index] / b[index] - 1.0, axis=-1)
        return np.mean(a[index], axis=-1) / np.mean(b[index], axis=-1) - 1.0

    n = a.shape[0]
    point = float(change(np.arange(n)))
    draws = np.random.default_rng(seed).integers(0, n, (_BOOTSTRAP_RESAMPLES, n))
    low, high = np.quantile(change(draws), [alpha / 2, 1 - alpha / 2])
    return point, float(low), float(high)


def mean_change(r: Rows, claim: dict[str, Any], alpha: float) -> tuple[str, str, int]:
    """Check a claimed average change: (verdict, evidence, rows against it)."""
    name, base = claim["algorithm"], claim["baseline"]
    claimed = float(claim["value"])
    average = claim.get("average", "ratios")
    direction = np.sign(claimed)
    a = r.means[name].to_numpy(float)
    b = r.means[base].to_numpy(float)
    agree = int(np.sum(np.sign(a - b) == direction)) if direction else 0
    against = int(np.sum(np.sign(a - b) == -direction)) if direction else 0
    usable = b != 0 if average == "ratios" else np.ones_like(b, dtype=bool)
    zero = [
        row_name(row) for row, ok in zip(r.means.index, usable, strict=True) if not ok
    ]
    notes = [
        f"{'better' if direction else 'changed'} in the claimed direction on "
        f"{agree} of {r.present} rows",
        *([f"no ratio where {base} is 0: {', '.join(zero)}"] if zero else []),
        *r.missing_note(),
    ]
    verdict = r.incomplete()
    if int(usable.sum()) < 2:
        evidence = f"too few rows with a ratio ({int(usable.sum())})"
        return verdict or "not shown", "; ".join([evidence, *notes]), against
    if average == "totals" and np.mean(b) == 0:
        return verdict or "not shown", f"{base}'s mean is 0", against
    point, low, high = bootstrap_interval(a[usable], b[usable], average, alpha)
    what = "change of the mean" if average == "totals" else "mean change"
    evidence = (
        f"{what} {100 * point:+.1f} % [{100 * low:+.1f}, {100 * high:+.1f}] "
        f"over {int(usable.sum())} rows (claimed {100 * claimed:+.1f} %)"
    )
    if verdict is None:
        reaches = high >= claimed if claimed > 0 else low <= claimed
        shown = low > 0 if claimed > 0 else high < 0
        if reaches and shown and 2 * agree > r.present:
            verdict = "reproduced"
        elif high < 0 if claimed > 0 else low > 0:
            verdict = "contradicted"
        else:
            verdict = "not shown"
    return verdict, "; ".join([evidence, *notes]), against


def win_tie_loss(r: Rows, claim: dict[str, Any], how: Compare) -> tuple[str, str, int]:
    """Compare a paper's win/tie/loss counts with ours.

    Returns (verdict, evidence, losses beyond the claimed ones).
    """
    outcomes, parts = [], []
    beyond = 0
    name = claim["algorithm"]
    for rival, (c_win, c_tie, c_loss) in zip(
        claim["than"], claim["counts"], strict=True
    ):
        counts = {1: 0, 0: 0, -1: 0}
        for row in r.means.index:
            counts[how.test(r, name, rival, row)[0]] += 1
        wins, ties, losses = counts[1], counts[0], counts[-1]
        beyond += max(0, losses - c_loss)
        if wins >= c_win and losses <= c_loss:
            outcomes.append("reproduced")
        elif wins < c_win and losses > c_loss:
            outcomes.append("not reproduced")
        else:
            outcomes.append("partly")
        parts.append(
            f"vs {rival} {wins}/{ties}/{losses} (paper {c_win}/{c_tie}/{c_loss})"
        )
    verdict = r.incomplete() or (outcomes[0] if len(set(outcomes)) == 1 else "partly")
    evidence = f"win/tie/loss, paired t-test at {how.alpha:g}: " + "; ".join(parts)
    return verdict, "; ".join([evidence, *r.missing_note()]), beyond
