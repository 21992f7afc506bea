"""The row kinds: ``best``, ``better``, ``close``, ``at_least`` and ``at_most``.

Each counts the rows (or row x rival comparisons) where its statement holds, ties
and fails, by the paired t-test over matched splits or by the means; the verdict
follows from the tally and ``holds_on``. Change it when a row kind's test changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from costsense.experiments._claims._rows import _SHOWN, _matched, _row_name, _Rows
from costsense.experiments._stats import paired_interval, paired_t_test


def _count_verdict(held: int, tied: int, total: int, holds_on: str) -> str:
    if total == 0:
        return "not run"
    enough = held == total if holds_on == "every" else 2 * held > total
    if enough:
        return "reproduced"
    if held == 0 and tied == 0:
        return "not reproduced"
    return "partly"


def _tally(held: int, tied: int, failed: int, unit: str, tie: str = "tied") -> str:
    total = held + tied + failed
    text = f"holds in {held} of {total} {unit}"
    if tied:
        text += f", {tie} in {tied}"
    return text


@dataclass(frozen=True)
class _Compare:
    """How a row claim compares two algorithms: by paired test, or by means."""

    metric: str
    lower: bool  # the metric is better when lower
    alpha: float
    paired: bool


def _test(r: _Rows, a: str, b: str, row: Any, how: _Compare) -> tuple[int, str]:
    """Paired t-test of ``a`` against ``b`` on a row: (+1, 0 or -1, p-value text).

    Fewer than two matched splits cannot be tested: a tie.
    """
    pairs = _matched(r, a, b, row, how.metric)
    if len(pairs) < 2:
        return 0, f"{len(pairs)} matched split(s), no test"
    test = paired_t_test(pairs.iloc[:, 0], pairs.iloc[:, 1], alpha=how.alpha)
    return test.outcome(how.lower), f"p = {test.pvalue:.2g}"


def _against(
    rivals: list[str],
    ours: str,
    values: dict[str, float],
    tests: dict[str, tuple[int, str]],
    *,
    rival_first: bool,
) -> str:
    """List rivals with both means (the rival's first or ours) and their test."""
    said = []
    for rival in rivals:
        x, y = (
            (values[rival], values[ours])
            if rival_first
            else (values[ours], values[rival])
        )
        said.append(f"{rival} ({x:.4g} vs {y:.4g}, {tests[rival][1]})")
    return ", ".join(said)


def _check_best(r: _Rows, claim: dict[str, Any], how: _Compare) -> dict[str, Any]:
    group = claim["algorithm"]
    group = [group] if isinstance(group, str) else list(group)
    sign = 1.0 if how.lower else -1.0  # compare sign * value: smaller is better
    held = tied = failed = 0
    notes = []
    for row, values in r.means[claim["among"]].iterrows():
        scores = sign * values
        if how.paired:
            ours = min(group, key=lambda a: scores[a])
            tests = {
                rival: _test(r, ours, rival, row, how)
                for rival in claim["among"]
                if rival not in group
            }
            worse = [a for a, (k, _) in tests.items() if k < 0]
            level = [a for a, (k, _) in tests.items() if k == 0]

            if worse:
                failed += 1
                listed = _against(worse, ours, values, tests, rival_first=True)
                notes.append(
                    f"{_row_name(row)}: {ours} significantly worse than {listed}"
                )
            elif level:
                tied += 1
                listed = _against(level, ours, values, tests, rival_first=False)
                notes.append(
                    f"{_row_name(row)}: {ours} not significantly better than {listed}"
                )
            else:
                held += 1
            continue
        top = scores.min()
        winners = {a for a, s in scores.items() if np.isclose(s, top, rtol=1e-12)}
        if winners <= set(group):
            held += 1
        elif winners & set(group):
            tied += 1
            others = ", ".join(sorted(winners - set(group)))
            notes.append(f"{_row_name(row)}: tied best with {others}")
        else:
            failed += 1
            best_ours = min(scores[a] for a in group)
            rank = int((scores < best_ours).sum()) + 1
            notes.append(
                f"{_row_name(row)}: rank {rank} of {len(scores)}, best "
                f"{', '.join(sorted(winners))}"
            )
    return {
        "held": held,
        "tied": tied,
        "failed": failed,
        "unit": "rows",
        "notes": notes,
    }


def _check_better(r: _Rows, claim: dict[str, Any], how: _Compare) -> dict[str, Any]:
    name = claim["algorithm"]
    sign = 1.0 if how.lower else -1.0
    held = tied = failed = 0
    notes = []
    for row, values in r.means.iterrows():
        for rival in claim["than"]:
            means = f"{name} {values[name]:.4g} vs {rival} {values[rival]:.4g}"
            if how.paired:
                outcome, p = _test(r, name, rival, row, how)
                means += f", {p}"
            else:
                ours, theirs = sign * values[name], sign * values[rival]
                outcome = (
                    0
                    if np.isclose(ours, theirs, rtol=1e-12)
                    else (1 if ours < theirs else -1)
                )
            if outcome > 0:
                held += 1
            elif outcome == 0:
                tied += 1
                notes.append(f"{_row_name(row)}: tie ({means})")
            else:
                failed += 1
                notes.append(f"{_row_name(row)}: worse ({means})")
    unit = "comparisons" if len(claim["than"]) > 1 else "rows"
    return {"held": held, "tied": tied, "failed": failed, "unit": unit, "notes": notes}


def _check_close(r: _Rows, claim: dict[str, Any], how: _Compare) -> dict[str, Any]:
    name, margin = claim["algorithm"], float(claim["value"])
    held = tied = failed = 0
    notes = []
    for row, values in r.means.iterrows():
        for rival in claim["than"]:
            if how.paired:
                pairs = _matched(r, name, rival, row, how.metric)
                if len(pairs) < 2:
                    tied += 1
                    notes.append(f"{_row_name(row)}: {len(pairs)} matched split(s)")
                    continue
                mean, low, high = paired_interval(
                    pairs.iloc[:, 0], pairs.iloc[:, 1], alpha=how.alpha
                )
                text = f"{name} - {rival} {mean:+.3g} [{low:+.3g}, {high:+.3g}]"
            else:
                mean = low = high = float(values[name] - values[rival])
                text = f"{name} - {rival} {mean:+.3g}"
            if -margin <= low and high <= margin:
                held += 1
            elif low > margin or high < -margin:
                failed += 1
                notes.append(f"{_row_name(row)}: apart ({text})")
            else:
                tied += 1
                notes.append(f"{_row_name(row)}: undecided ({text})")
    unit = "comparisons" if len(claim["than"]) > 1 else "rows"
    return {
        "held": held,
        "tied": tied,
        "failed": failed,
        "unit": f"{unit} (within {margin:g})",
        "notes": notes,
        "tie": "undecided",
    }


def _check_bound(r: _Rows, claim: dict[str, Any]) -> dict[str, Any]:
    bound = float(claim["value"])
    at_least = claim["kind"] == "at_least"
    held = failed = 0
    notes = []
    for row, values in r.means.iterrows():
        for name in claim["algorithms"]:
            value = values[name]
            if value >= bound if at_least else value <= bound:
                held += 1
            else:
                failed += 1
                notes.append(f"{name} {value:.4g} on {_row_name(row)}")
    unit = "cases" if len(claim["algorithms"]) > 1 else "rows"
    relation = ">=" if at_least else "<="
    return {
        "held": held,
        "tied": 0,
        "failed": failed,
        "unit": f"{unit} ({relation} {bound:g})",
        "notes": notes,
    }


def _rows_check(r: _Rows, claim: dict[str, Any], how: _Compare) -> tuple[str, str, int]:
    kind = claim["kind"]
    if kind == "best":
        found = _check_best(r, claim, how)
    elif kind == "better":
        found = _check_better(r, claim, how)
    elif kind == "close":
        found = _check_close(r, claim, how)
    else:
        found = _check_bound(r, claim)
    held, tied, failed = found["held"], found["tied"], found["failed"]
    holds_on = claim.get("holds_on", "every")
    verdict = r.incomplete() or _count_verdict(
        held, tied, held + tied + failed, holds_on
    )
    evidence = _tally(held, tied, failed, found["unit"], found.get("tie", "tied"))
    if how.paired and kind in ("best", "better", "close"):
        evidence += f" (paired t-test at {how.alpha:g} over the matched splits)"
    if holds_on == "most":
        evidence += " (claimed: most)"
    notes = found["notes"]
    parts = [evidence, *notes[:_SHOWN]]
    if len(notes) > _SHOWN:
        parts.append(f"and {len(notes) - _SHOWN} more")
    return verdict, "; ".join([*parts, *r.missing_note()]), failed
