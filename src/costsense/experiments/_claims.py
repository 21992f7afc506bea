"""A paper's claims, stated as data (a study's ``[[claims]]``) and checked on results.

Each kind's keys and verdicts are in the README's table of claim kinds; a kind is
one row of ``_KINDS``: its keys and its judge. The row kinds judge each
comparison as held (+1), tied (0) or failed (-1) with a note; ``mean_change``
and ``win_tie_loss`` have their own tally.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import cost_label, cost_order, sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER
from costsense.experiments._stats import paired_interval, paired_t_test

__all__ = ["ClaimCheck", "bootstrap_interval", "check_claims", "claim_problem"]

_SHOWN = 6  # failing rows named in the evidence
Judged = Iterator[tuple[int, str]]  # +1 held, 0 tied, -1 failed, and a note


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
    means: pd.DataFrame  # index (dataset, cost) of present rows; columns algorithms
    data: pd.DataFrame  # the cells of the claimed rows
    missing: list[str]  # one entry per claimed row without every algorithm

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
        test = paired_t_test(pairs.iloc[:, 0], pairs.iloc[:, 1], alpha=self.alpha)
        return test.outcome(self.lower), f"p = {test.pvalue:.2g}"


def claim_rows(
    results: pd.DataFrame,
    claim: dict[str, Any],
    rows: Sequence[tuple[str, str]],
    how: tuple[bool, float, bool],
) -> Rows:
    """Select a claim's study rows and average their cells (``how``: see Rows)."""
    metric, names = claim["metric"], named(claim)
    claimed = [
        r
        for r in rows
        if r[0] in claim.get("datasets", [r[0]])
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
        tests = {a: r.test(ours, a, row) for a in r.claim["among"] if a not in group}
        worse = [a for a, (k, _) in tests.items() if k < 0]
        level = [a for a, (k, _) in tests.items() if k == 0]
        listed = ", ".join(
            f"{a} ({values[a] if worse else values[ours]:.4g} vs "
            f"{values[ours] if worse else values[a]:.4g}, {tests[a][1]})"
            for a in worse or level
        )
        if worse:
            yield -1, f"{row_name(row)}: {ours} significantly worse than {listed}"
        elif level:
            yield 0, f"{row_name(row)}: {ours} not significantly better than {listed}"
        else:
            yield 1, ""
        return
    winners = {a for a, s in scores.items() if np.isclose(s, scores.min(), rtol=1e-12)}
    if winners <= set(group):
        yield 1, ""
    elif winners & set(group):
        others = ", ".join(sorted(winners - set(group)))
        yield 0, f"{row_name(row)}: tied best with {others}"
    else:
        rank = int((scores < min(scores[a] for a in group)).sum()) + 1
        best = ", ".join(sorted(winners))
        yield -1, f"{row_name(row)}: rank {rank} of {len(scores)}, best {best}"


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
        yield outcome, f"{row_name(row)}: {word} ({means})" if word else ""


def _close(r: Rows, row: Any, values: pd.Series) -> Judged:
    name, margin = r.claim["algorithm"], float(r.claim["value"])
    for rival in r.claim["than"]:
        if r.paired:
            pairs = r.matched(name, rival, row)
            if len(pairs) < 2:
                yield 0, f"{row_name(row)}: {len(pairs)} matched split(s)"
                continue
            mean, low, high = paired_interval(
                pairs.iloc[:, 0], pairs.iloc[:, 1], alpha=r.alpha
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


def _bound(r: Rows, row: Any, values: pd.Series) -> Judged:
    bound = float(r.claim["value"])
    for name in r.claim["algorithms"]:
        value = values[name]
        held = value >= bound if r.claim["kind"] == "at_least" else value <= bound
        yield (1, "") if held else (-1, f"{name} {value:.4g} on {row_name(row)}")


def _unit(claim: dict[str, Any]) -> str:
    """Name what a row kind counts: rows, row x rival comparisons, or cases."""
    unit, rivals = "rows", claim.get("than", claim.get("algorithms", []))
    if claim["kind"] != "best" and len(rivals) > 1:
        unit = "comparisons" if "than" in claim else "cases"
    relation = {"close": "within", "at_least": ">=", "at_most": "<="}.get(claim["kind"])
    return f"{unit} ({relation} {float(claim['value']):g})" if relation else unit


def judge(r: Rows) -> tuple[str, str, int]:
    """Check a claim on its rows: (verdict, evidence, comparisons failed)."""
    if r.present == 0:
        verdict, parts, failing = "not run", ["no claimed row has results"], 0
    else:
        kinds = {"mean_change": _mean_change, "win_tie_loss": _win_tie_loss}
        verdict, parts, failing = kinds.get(r.claim["kind"], _row_kind)(r)
    if r.missing:
        if r.present:
            verdict = f"incomplete ({r.present} of {r.present + len(r.missing)} rows)"
        more = f" and {len(r.missing) - _SHOWN} more" if len(r.missing) > _SHOWN else ""
        parts.append(f"missing: {', '.join(r.missing[:_SHOWN])}{more}")
    return verdict, "; ".join(parts), failing


def _row_kind(r: Rows) -> tuple[str, list[str], int]:
    """Tally a row kind's comparisons into a verdict."""
    kind = r.claim["kind"]
    judged = [j for row, v in r.means.iterrows() for j in _KINDS[kind][2](r, row, v)]
    outcomes, notes = [k for k, _ in judged], [note for _, note in judged if note]
    held, tied, failed = (outcomes.count(k) for k in (1, 0, -1))
    total = len(judged)
    holds_on = r.claim.get("holds_on", "every")
    if total == 0:
        verdict = "not run"
    elif held == total if holds_on == "every" else 2 * held > total:
        verdict = "reproduced"
    else:
        verdict = "not reproduced" if held == tied == 0 else "partly"
    evidence = f"holds in {held} of {total} {_unit(r.claim)}"
    if tied:
        evidence += f", {'undecided' if kind == 'close' else 'tied'} in {tied}"
    if r.paired and kind in ("best", "better", "close"):
        evidence += f" (paired t-test at {r.alpha:g} over the matched splits)"
    if holds_on == "most":
        evidence += " (claimed: most)"
    more = [f"and {len(notes) - _SHOWN} more"] if len(notes) > _SHOWN else []
    return verdict, [evidence, *notes[:_SHOWN], *more], failed


def bootstrap_interval(
    a: np.ndarray, b: np.ndarray, average: str, alpha: float, seed: int = 0
) -> tuple[float, float, float]:
    """Change of ``a`` over ``b`` (mean ratio - 1, or ratio of the means - 1).

    Returns (change, low, high), the interval by a seeded bootstrap of the rows.
    """

    def change(index: np.ndarray) -> np.ndarray:
        if average == "ratios":
            return np.mean(a[index] / b[index] - 1.0, axis=-1)
        return np.mean(a[index], axis=-1) / np.mean(b[index], axis=-1) - 1.0

    n = a.shape[0]
    draws = np.random.default_rng(seed).integers(0, n, (4000, n))
    low, high = np.quantile(change(draws), [alpha / 2, 1 - alpha / 2])
    return float(change(np.arange(n))), float(low), float(high)


def _mean_change(r: Rows) -> tuple[str, list[str], int]:
    """Check a claimed average change by its bootstrap interval and the rows' signs."""
    name, base = r.claim["algorithm"], r.claim["baseline"]
    claimed = float(r.claim["value"])
    average = r.claim.get("average", "ratios")
    direction = np.sign(claimed)
    a, b = r.means[name].to_numpy(float), r.means[base].to_numpy(float)
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
    ]
    if int(usable.sum()) < 2:
        evidence = f"too few rows with a ratio ({int(usable.sum())})"
        return "not shown", [evidence, *notes], against
    if average == "totals" and np.mean(b) == 0:
        return "not shown", [f"{base}'s mean is 0"], against
    point, low, high = bootstrap_interval(a[usable], b[usable], average, r.alpha)
    what = "change of the mean" if average == "totals" else "mean change"
    evidence = (
        f"{what} {100 * point:+.1f} % [{100 * low:+.1f}, {100 * high:+.1f}] "
        f"over {int(usable.sum())} rows (claimed {100 * claimed:+.1f} %)"
    )
    reaches = high >= claimed if claimed > 0 else low <= claimed
    shown = low > 0 if claimed > 0 else high < 0
    if reaches and shown and 2 * agree > r.present:
        verdict = "reproduced"
    else:
        verdict = (
            "contradicted" if (high < 0 if claimed > 0 else low > 0) else "not shown"
        )
    return verdict, [evidence, *notes], against


def _win_tie_loss(r: Rows) -> tuple[str, list[str], int]:
    """Compare the paper's win/tie/loss counts per rival with our paired tests."""
    outcomes, parts, beyond = set(), [], 0
    name = r.claim["algorithm"]
    for rival, (c_win, c_tie, c_loss) in zip(
        r.claim["than"], r.claim["counts"], strict=True
    ):
        tests = [r.test(name, rival, row)[0] for row in r.means.index]
        wins, ties, losses = (tests.count(k) for k in (1, 0, -1))
        beyond += max(0, losses - c_loss)
        if wins >= c_win and losses <= c_loss:
            outcomes.add("reproduced")
        else:
            outcomes.add(
                "not reproduced" if wins < c_win and losses > c_loss else "partly"
            )
        parts.append(
            f"vs {rival} {wins}/{ties}/{losses} (paper {c_win}/{c_tie}/{c_loss})"
        )
    verdict = outcomes.pop() if len(outcomes) == 1 else "partly"
    return (
        verdict,
        [f"win/tie/loss, paired t-test at {r.alpha:g}: " + "; ".join(parts)],
        beyond,
    )


_COMMON = {"text", "source", "kind", "metric"}
_OPTIONAL = {"datasets", "costs", "inconsistency"}
#: kind -> (its keys, its optional keys, its judge of a row; None: its own tally)
_KINDS: dict[str, tuple[str, str, Any]] = {
    "best": ("algorithm among", "holds_on", _best),
    "better": ("algorithm than", "holds_on", _better),
    "close": ("algorithm than value", "holds_on", _close),
    "at_least": ("algorithms value", "holds_on", _bound),
    "at_most": ("algorithms value", "holds_on", _bound),
    "mean_change": ("algorithm baseline value", "average", None),
    "win_tie_loss": ("algorithm than counts", "", None),
}
_CHOICES = {"holds_on": ("every", "most"), "average": ("ratios", "totals")}


def claim_problem(claim: dict[str, Any], datasets: Sequence[str] | None = None) -> str:
    """Say what is wrong with a claim ("" if nothing): its kind, keys, datasets."""
    kind = claim.get("kind")
    if kind not in _KINDS:
        return f"claim kind must be one of {sorted(_KINDS)}: {claim}"
    needed = _COMMON | set(_KINDS[kind][0].split())
    allowed = needed | _OPTIONAL | set(_KINDS[kind][1].split())
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
    stray = sorted(set(claim.get("datasets", [])) - set(datasets or []))
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
    "not shown", "incomplete (k of n rows)" or "not run", ``evidence`` the numbers
    behind it; ``failing`` counts the comparisons where the statement fails
    (``mean_change``: rows changing against the claim; ``win_tie_loss``: losses
    beyond the claimed ones); ``degenerate`` names the degenerate fits it rests
    on, ``inconsistency`` is the claim file's note that the paper's numbers
    disagree, ``like_for_like`` a row claim's tally on the paper's own datasets.
    """

    text: str
    source: str
    verdict: str
    evidence: str
    failing: int = 0
    degenerate: str = ""
    inconsistency: str = ""
    like_for_like: str = ""


def _degenerate(r: Rows) -> str:
    """Summarise the degenerate fits among a claim's cells, the first four named."""
    if "diagnostics" not in r.data.columns:
        return ""
    cells: dict[tuple[str, str, str], list[list[str]]] = {}
    columns = ["algorithm", "dataset", "cost", "diagnostics"]
    for algorithm, dataset, cost, diagnostics in r.data[columns].itertuples(False):
        key = (str(algorithm), str(dataset), str(cost))
        cells.setdefault(key, []).append(degenerate_reasons(diagnostics or {}))
    order = named(r.claim)
    items = []
    for key in sorted(
        (k for k, found in cells.items() if any(found)),
        key=lambda k: (order.index(k[0]), k[1], cost_order(k[2])),
    ):
        reasons = [reason for found in cells[key] for reason in found]
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
    like_for_like: Sequence[str] = (),
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
    like_for_like : sequence of str, default=()
        The paper's own datasets, on which each row claim is tallied apart.

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
        how = (claim["metric"] in LOWER_IS_BETTER, alpha, paired)
        r = claim_rows(results, claim, rows, how)
        same = [d for d in like_for_like if d in claim.get("datasets", like_for_like)]
        own = ""
        if same and _KINDS[claim["kind"]][2] is not None:
            sub = claim_rows(results, {**claim, "datasets": same}, rows, how)
            if sub.present:
                tally = judge(sub)[1].split("; ")[0]
                own = f"{', '.join(row_name(row) for row in sub.means.index)}: {tally}"
        checks.append(
            ClaimCheck(
                claim["text"],
                claim["source"],
                *judge(r),
                _degenerate(r),
                claim.get("inconsistency", ""),
                own,
            )
        )
    return checks
