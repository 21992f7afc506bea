"""A paper's claims, stated as data and checked against our results.

A study lists claims (TOML ``[[claims]]``). Each names the paper's words
(``text``), where they stand (``source``: a sentence, table or figure), a
``kind``, a ``metric``, and optionally the rows it speaks about (``datasets``,
``costs``; by default every row of the full study). A row is a (dataset, cost)
setting; values are means over repeats and folds unless the kind says otherwise.

Kinds and what "reproduced" means:

``best`` (``algorithm``, ``among``)
    On a row, ``algorithm`` is better than every other of ``among``: its win is
    a row where the two-sided paired t-test at level ``alpha`` over the splits
    (matched by repeat and fold) finds it better than each of them; a row where
    one of them is significantly better is a loss; any other row is a tie (a
    lead of the means inside the noise is not a win). ``algorithm`` may be a
    list ("AsyB or AsyBL has the lowest cost"): its member of best mean is
    tested against the algorithms outside the list.
``better`` (``algorithm``, ``than``)
    On a row, ``algorithm`` is better than each of ``than``: one paired t-test
    per row and rival, as for ``best``; a win when it finds ``algorithm``
    better, a loss when it finds it worse, a tie otherwise.
``close`` (``algorithm``, ``than``, ``value``)
    On a row, ``algorithm``'s mean is within ``value`` of each of ``than`` (in
    the metric's unit): it holds when the ``1 - alpha`` t confidence interval of
    the mean paired difference lies inside ``[-value, value]`` (closeness is
    shown, an equivalence test), fails when it lies wholly outside (a
    difference beyond ``value`` is shown), and is undecided (a tie) otherwise.
``at_least`` / ``at_most`` (``algorithms``, ``value``)
    On a row, each of ``algorithms`` has a mean >= / <= ``value``.
``mean_change`` (``algorithm``, ``baseline``, ``value``)
    The average relative change of ``algorithm`` over ``baseline``, claimed to be
    ``value`` (``-0.24``: 24 % lower). ``average = "ratios"`` (default) averages
    the per-row changes ``mean(a) / mean(b) - 1``; ``average = "totals"`` is the
    change of the averages, ``mean_rows(a) / mean_rows(b) - 1``. The interval is
    a percentile bootstrap over rows (level ``1 - alpha``). "reproduced" when the
    interval lies on the claimed side of zero (the change is shown), contains
    ``value`` or lies beyond it in its direction, *and* more than half of the
    rows change in that direction; "contradicted" when the
    interval lies on the other side of zero; otherwise "not shown". A row whose
    baseline is 0 has no ratio: it is reported, and counts in the direction tally.
``win_tie_loss`` (``algorithm``, ``than``, ``counts``)
    Per row, the two-sided paired t-test at level ``alpha`` over the splits
    (matched by repeat and fold) scores ``algorithm`` against each rival as a
    win, tie or loss; ``counts`` holds the paper's ``[wins, ties, losses]`` per
    rival. "reproduced" when we have at least the claimed wins and at most the
    claimed losses against every rival, "not reproduced" when fewer wins and
    more losses against every rival, "partly" otherwise.

The row kinds (``best``, ``better``, ``close``, ``at_least``, ``at_most``) count
rows (or row x rival comparisons) where the statement holds, ties, and fails.
``best``, ``better`` and ``close`` compare the splits as above; with
``paired=False`` (:func:`check_claims`) they compare the means instead, for
results without splits such as a paper's printed means: ``best`` and
``better`` count a strictly better mean as a win and equal means as a tie,
``close`` holds when the means differ by at most ``value``. With
``holds_on = "every"`` (default) the claim is "reproduced" when it holds on
every one, with ``holds_on = "most"`` (the paper says "often", "generally") on
more than half; "not reproduced" when it holds on none; otherwise "partly".

Whatever the kind, every claimed row must be present: a row without a cell of
each named algorithm makes the verdict "incomplete (k of n rows)", and the
evidence names the missing cells. "not run" means no claimed row has results.

``inconsistency`` (optional) states that the paper's own numbers do not support
the claim (shown beside the verdict); the claims' test runs every claim on its
study's ``[[paper]]`` rows and requires this note exactly when a paper row
contradicts the claim.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import cost_label, cost_order, sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER
from costsense.experiments._stats import paired_interval, paired_t_test

__all__ = ["ClaimCheck", "check_claims", "validate_claims"]

_COMMON = {"text", "source", "kind", "metric"}
_KINDS = {
    "best": {"algorithm", "among"},
    "better": {"algorithm", "than"},
    "close": {"algorithm", "than", "value"},
    "at_least": {"algorithms", "value"},
    "at_most": {"algorithms", "value"},
    "mean_change": {"algorithm", "baseline", "value"},
    "win_tie_loss": {"algorithm", "than", "counts"},
}
_OPTIONAL = {"datasets", "costs", "inconsistency"}
_KIND_OPTIONAL = {
    "best": {"holds_on"},
    "better": {"holds_on"},
    "close": {"holds_on"},
    "at_least": {"holds_on"},
    "at_most": {"holds_on"},
    "mean_change": {"average"},
    "win_tie_loss": set(),
}
_BOOTSTRAP_RESAMPLES = 4000
_SHOWN = 6  # failing rows named in the evidence


@dataclass(frozen=True)
class ClaimCheck:
    """One claim checked against results.

    Attributes
    ----------
    text, source : str
        The claim and where the paper makes it.
    verdict : str
        "reproduced", "partly", "not reproduced", "contradicted", "not shown",
        "incomplete (k of n rows)" or "not run".
    evidence : str
        The counts and numbers behind the verdict.
    rows_expected, rows_present : int
        Claimed rows, and those with every named algorithm's cells.
    failing : int
        Rows (or comparisons) where the statement fails: for ``mean_change`` the
        rows changing against the claimed direction, for ``win_tie_loss`` the
        losses beyond the claimed ones.
    degenerate : str
        The degenerate fits the verdict rests on (empty when none).
    inconsistency : str
        The claim file's note that the paper's own numbers do not support it.
    like_for_like : str
        The tally on the rows of the paper's own datasets (``like_for_like`` of
        :func:`check_claims`); empty when none is given or claimed.
    """

    text: str
    source: str
    verdict: str
    evidence: str
    rows_expected: int = 0
    rows_present: int = 0
    failing: int = 0
    degenerate: str = ""
    inconsistency: str = ""
    like_for_like: str = ""


def validate_claims(
    claims: Sequence[dict[str, Any]],
    source: str,
    datasets: Sequence[str] | None = None,
) -> None:
    """Check that every claim has a known kind and exactly its keys.

    Parameters
    ----------
    claims : sequence of dict
        The study's ``[[claims]]``.
    source : str
        Where they came from, for error messages.
    datasets : sequence of str, default=None
        The study's datasets; a claim naming another is refused.
    """
    for claim in claims:
        kind = claim.get("kind")
        if kind not in _KINDS:
            raise ValueError(
                f"study {source}: claim kind must be one of {sorted(_KINDS)}: {claim}"
            )
        needed = _COMMON | _KINDS[kind]
        allowed = needed | _OPTIONAL | _KIND_OPTIONAL[kind]
        keys = set(claim)
        if not needed <= keys or not keys <= allowed:
            raise ValueError(
                f"study {source}: a {kind!r} claim needs the keys {sorted(needed)} "
                f"(optional {sorted(allowed - needed)}), got {sorted(keys)}: "
                f"{claim.get('text', '')!r}"
            )
        if claim.get("holds_on", "every") not in ("every", "most"):
            raise ValueError(
                f"study {source}: holds_on must be 'every' or 'most', got "
                f"{claim['holds_on']!r}"
            )
        if claim.get("average", "ratios") not in ("ratios", "totals"):
            raise ValueError(
                f"study {source}: average must be 'ratios' or 'totals', got "
                f"{claim['average']!r}"
            )
        if kind == "win_tie_loss":
            counts = claim["counts"]
            if len(counts) != len(claim["than"]) or any(len(c) != 3 for c in counts):
                raise ValueError(
                    f"study {source}: a win_tie_loss claim needs one [wins, ties, "
                    f"losses] in counts per algorithm of than: {claim['text']!r}"
                )
        stray = sorted(set(claim.get("datasets", [])) - set(datasets or []))
        if datasets is not None and stray:
            raise ValueError(
                f"study {source}: claim {claim['text']!r} names datasets {stray} "
                "the study does not run; list only the study's datasets."
            )


# ------------------------------------------------------------------ rows


def _named(claim: dict[str, Any]) -> list[str]:
    """List every algorithm a claim needs, in its order."""
    names: list[str] = []
    for key in ("algorithm", "algorithms", "among", "than", "baseline"):
        value = claim.get(key, [])
        for name in [value] if isinstance(value, str) else value:
            if name not in names:
                names.append(name)
    return names


def _claimed_rows(
    claim: dict[str, Any], rows: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Select the study rows a claim speaks about."""
    chosen = list(rows)
    if "datasets" in claim:
        chosen = [r for r in chosen if r[0] in set(claim["datasets"])]
    if "costs" in claim:
        labels = {cost_label(c) for c in claim["costs"]}
        chosen = [r for r in chosen if r[1] in labels]
    return chosen


@dataclass
class _Rows:
    """A claim's rows: means per row and algorithm, and what is missing."""

    means: pd.DataFrame  # index (dataset, cost) of present rows; columns algorithms
    data: pd.DataFrame  # the cells of the claimed rows
    expected: int
    missing: list[str]

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
        shown = ", ".join(self.missing[:_SHOWN])
        more = len(self.missing) - _SHOWN
        return [f"missing: {shown}" + (f" and {more} more" if more > 0 else "")]


def _rows(results: pd.DataFrame, claim: dict[str, Any], rows: Sequence[Any]) -> _Rows:
    metric, names = claim["metric"], _named(claim)
    claimed = _claimed_rows(claim, rows)
    empty = pd.DataFrame(columns=names, dtype=float)
    if metric not in results.columns:
        return _Rows(empty, results.iloc[:0], len(claimed), [f"metric {metric}"])
    keys = pd.MultiIndex.from_frame(results[["dataset", "cost"]].astype(str))
    data = results[keys.isin(claimed) & results["algorithm"].isin(names)]
    data = data[data[metric].notna()]
    means = data.pivot_table(
        index=["dataset", "cost"], columns="algorithm", values=metric, aggfunc="mean"
    )
    means = means.reindex(columns=names)
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
    return _Rows(means.loc[ordered] if ordered else empty, data, len(claimed), missing)


def _row_name(row: Any) -> str:
    return f"{row[0]} at {row[1]}"


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


def _matched(r: _Rows, a: str, b: str, row: Any, metric: str) -> pd.DataFrame:
    """Split values of ``a`` and ``b`` on a row, matched by (repeat, fold)."""
    ours = _split_values(r, a, row, metric)
    theirs = _split_values(r, b, row, metric)
    return pd.concat([ours, theirs], axis=1, join="inner").dropna()


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


def bootstrap_interval(
    a: np.ndarray, b: np.ndarray, average: str, alpha: float, seed: int = 0
) -> tuple[float, float, float]:
    """Relative change of ``a`` over ``b`` across rows, and its bootstrap interval.

    Parameters
    ----------
    a, b : ndarray of shape (n_rows,)
        Row means of the algorithm and the baseline (``b`` nonzero for
        ``average="ratios"``).
    average : {"ratios", "totals"}
        Mean of the per-row changes, or change of the means.
    alpha : float
        One minus the interval's level.
    seed : int, default=0
        Seed of the resampling (the interval is reproducible).

    Returns
    -------
    change, low, high : float
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


def _mean_change(r: _Rows, claim: dict[str, Any], alpha: float) -> tuple[str, str, int]:
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
        _row_name(row) for row, ok in zip(r.means.index, usable, strict=True) if not ok
    ]
    notes = [
        f"{'better' if direction else 'changed'} in the claimed direction on "
        f"{agree} of {r.present} rows"
    ]
    if zero:
        notes.append(f"no ratio where {base} is 0: {', '.join(zero)}")
    verdict = r.incomplete()
    if int(usable.sum()) < 2:
        evidence = f"too few rows with a ratio ({int(usable.sum())})"
        return (
            verdict or "not shown",
            "; ".join([evidence, *notes, *r.missing_note()]),
            against,
        )
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
        opposite = high < 0 if claimed > 0 else low > 0
        if reaches and shown and 2 * agree > r.present:
            verdict = "reproduced"
        elif opposite:
            verdict = "contradicted"
        else:
            verdict = "not shown"
    return verdict, "; ".join([evidence, *notes, *r.missing_note()]), against


def _split_values(r: _Rows, name: str, row: Any, metric: str) -> pd.Series:
    data = r.data
    here = data[
        (data["dataset"].astype(str) == row[0])
        & (data["cost"].astype(str) == row[1])
        & (data["algorithm"] == name)
    ]
    return here.groupby(["repeat", "fold"])[metric].mean()


def _win_tie_loss(
    r: _Rows, claim: dict[str, Any], lower: bool, alpha: float
) -> tuple[str, str, int]:
    name, metric = claim["algorithm"], claim["metric"]
    outcomes = []
    parts = []
    beyond = 0
    for rival, (c_win, c_tie, c_loss) in zip(
        claim["than"], claim["counts"], strict=True
    ):
        counts = [0, 0, 0]
        for row in r.means.index:
            ours = _split_values(r, name, row, metric)
            theirs = _split_values(r, rival, row, metric)
            paired = pd.concat([ours, theirs], axis=1, join="inner").dropna()
            if len(paired) < 2:
                counts[1] += 1
                continue
            test = paired_t_test(paired.iloc[:, 0], paired.iloc[:, 1], alpha=alpha)
            counts[{1: 0, 0: 1, -1: 2}[test.outcome(lower)]] += 1
        wins, ties, losses = counts
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
    if len(set(outcomes)) == 1:
        verdict = outcomes[0]
    else:
        verdict = "partly"
    verdict = r.incomplete() or verdict
    evidence = f"win/tie/loss, paired t-test at {alpha:g}: " + "; ".join(parts)
    return verdict, "; ".join([evidence, *r.missing_note()]), beyond


# ------------------------------------------------------------------ degenerate


def _degenerate(r: _Rows, claim: dict[str, Any]) -> str:
    """Summarise the degenerate fits among a claim's cells."""
    if "diagnostics" not in r.data.columns or r.data.empty:
        return ""
    reasons: dict[tuple[str, str, str], list[str]] = {}
    degenerate: dict[tuple[str, str, str], int] = {}
    totals: dict[tuple[str, str, str], int] = {}
    for algorithm, dataset, cost, diagnostics in r.data[
        ["algorithm", "dataset", "cost", "diagnostics"]
    ].itertuples(index=False):
        key = (str(algorithm), str(dataset), str(cost))
        totals[key] = totals.get(key, 0) + 1
        found = degenerate_reasons(diagnostics or {})
        if found:
            degenerate[key] = degenerate.get(key, 0) + 1
            reasons.setdefault(key, []).extend(found)
    order = _named(claim)
    items = []

    def place(key: tuple[str, str, str]) -> tuple[Any, ...]:
        return (order.index(key[0]), key[1], cost_order(key[2]))

    for key in sorted(degenerate, key=place):
        common = max(set(reasons[key]), key=reasons[key].count)
        items.append(
            f"{key[0]} on {key[1]} at {key[2]} ({common}; "
            f"{degenerate[key]} of {totals[key]} cells)"
        )
    if not items:
        return ""
    shown = "; ".join(items[:4])
    return shown + (f"; and {len(items) - 4} more" if len(items) > 4 else "")


# ------------------------------------------------------------------ entry point


def _check(
    results: pd.DataFrame,
    claim: dict[str, Any],
    rows: Sequence[tuple[str, str]],
    alpha: float,
    paired: bool = True,
    like_for_like: Sequence[str] = (),
) -> ClaimCheck:
    lower = claim["metric"] in LOWER_IS_BETTER
    r = _rows(results, claim, rows)
    kind = claim["kind"]
    if r.present == 0:
        verdict, evidence, failing = (
            "not run",
            "; ".join(["no claimed row has results", *r.missing_note()]),
            0,
        )
    elif kind == "mean_change":
        verdict, evidence, failing = _mean_change(r, claim, alpha)
    elif kind == "win_tie_loss":
        verdict, evidence, failing = _win_tie_loss(r, claim, lower, alpha)
    else:
        how = _Compare(claim["metric"], lower, alpha, paired)
        verdict, evidence, failing = _rows_check(r, claim, how)
    same = [d for d in like_for_like if d in claim.get("datasets", like_for_like)]
    own = ""
    if same and kind not in ("mean_change", "win_tie_loss"):
        sub = _rows(results, {**claim, "datasets": same}, rows)
        if sub.present:
            how = _Compare(claim["metric"], lower, alpha, paired)
            tally = _rows_check(sub, claim, how)[1].split("; ")[0]
            rows_named = ", ".join(_row_name(row) for row in sub.means.index)
            own = f"{rows_named}: {tally}"
    return ClaimCheck(
        text=claim["text"],
        source=claim.get("source", ""),  # stores written before sources
        verdict=verdict,
        evidence=evidence,
        rows_expected=r.expected,
        rows_present=r.present,
        failing=failing,
        degenerate=_degenerate(r, claim),
        inconsistency=claim.get("inconsistency", ""),
        like_for_like=own,
    )


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
        One row per cell: ``dataset, cost, algorithm, repeat, fold``, the metrics
        and optionally ``diagnostics`` (as from
        :meth:`costsense.experiments.ResultsStore.results`).
    claims : iterable of dict
        Claims as described in the module docstring.
    rows : sequence of (str, str), default=None
        The (dataset, cost label) rows of the full study: the rows a claim
        without ``datasets`` or ``costs`` speaks about. None takes the rows of
        ``results``, so a partial run cannot then be told from a full one.
    alpha : float, default=0.05
        Level of the intervals and tests.
    paired : bool, default=True
        Compare ``best``, ``better`` and ``close`` claims by the paired t-test
        over the splits matched by repeat and fold (a win only where the test
        finds one, a tie otherwise). False compares the means, for results
        without splits (a paper's printed means).
    like_for_like : sequence of str, default=()
        The paper's own datasets: each row claim also gets its tally on their
        rows alone (``ClaimCheck.like_for_like``).

    Returns
    -------
    list of ClaimCheck
    """
    if rows is None:
        found = results[["dataset", "cost"]].astype(str).drop_duplicates()
        rows = sort_rows([tuple(r) for r in found.itertuples(index=False)])
    rows = [(str(d), str(c)) for d, c in rows]
    return [
        _check(results, claim, rows, alpha, paired, list(like_for_like))
        for claim in claims
    ]
