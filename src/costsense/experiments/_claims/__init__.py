"""A paper's claims, stated as data (a study's ``[[claims]]``) and checked on results.

Each kind's keys and verdicts are in the README's table of claim kinds; the kinds
are judged in :mod:`._kinds`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from costsense.experiments._claims._kinds import (
    Rows,
    bootstrap_interval,
    claim_rows,
    judge,
    named,
    row_name,
)
from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import cost_order, sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER

__all__ = ["ClaimCheck", "bootstrap_interval", "check_claims", "validate_claims"]

_COMMON = {"text", "source", "kind", "metric"}
_OPTIONAL = {"datasets", "costs", "inconsistency"}
#: kind -> (its keys, its optional keys)
_KINDS = {
    "best": ("algorithm among", "holds_on"),
    "better": ("algorithm than", "holds_on"),
    "close": ("algorithm than value", "holds_on"),
    "at_least": ("algorithms value", "holds_on"),
    "at_most": ("algorithms value", "holds_on"),
    "mean_change": ("algorithm baseline value", "average"),
    "win_tie_loss": ("algorithm than counts", ""),
}
_CHOICES = {"holds_on": ("every", "most"), "average": ("ratios", "totals")}


def validate_claims(
    claims: Sequence[dict[str, Any]], source: str, datasets: Sequence[str] | None = None
) -> None:
    """Refuse a claim of unknown kind, with other keys, or of datasets not run."""
    for claim in claims:
        if problem := _problem(claim, datasets):
            raise ValueError(f"study {source}: {problem}")


def _problem(claim: dict[str, Any], datasets: Sequence[str] | None) -> str:
    """Say what is wrong with a claim ("" if nothing)."""
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
        if same and claim["kind"] not in ("mean_change", "win_tie_loss"):
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
