"""Each claim checked: :class:`ClaimCheck` and :func:`check_claims`.

A claim goes to its kind's check; the result gets the degenerate fits it rests on
and, for a row kind, its tally on the paper's own datasets. Change it when a kind
is added or a verdict gains a field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from costsense.experiments._claims._change import _mean_change
from costsense.experiments._claims._row_kinds import _Compare, _rows_check
from costsense.experiments._claims._rows import _named, _row_name, _Rows, _rows
from costsense.experiments._claims._win_tie_loss import _win_tie_loss
from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import cost_order, sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER

__all__ = ["ClaimCheck", "check_claims"]


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
        # ties go to the reason seen first (a set's order varies per process)
        common = max(dict.fromkeys(reasons[key]), key=reasons[key].count)
        items.append(
            f"{key[0]} on {key[1]} at {key[2]} ({common}; "
            f"{degenerate[key]} of {totals[key]} cells)"
        )
    if not items:
        return ""
    shown = "; ".join(items[:4])
    return shown + (f"; and {len(items) - 4} more" if len(items) > 4 else "")


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
