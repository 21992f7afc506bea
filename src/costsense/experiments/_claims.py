"""A paper's claims, stated as data and checked against our results.

A study may list claims (TOML ``[[claims]]``); each is checked on the mean of a
metric over repeats and folds, per (dataset, cost) row:

``kind = "best"``
    ``algorithm`` has the best mean among ``among`` on every row.
``kind = "better"``
    ``algorithm`` has a better mean than each algorithm of ``than`` on every row.
``kind = "at_least"`` / ``"at_most"``
    each algorithm of ``algorithms`` has a mean >= / <= ``value`` on every row.
``kind = "mean_change"``
    the average over rows of ``mean(algorithm) / mean(baseline) - 1`` is at least
    as favourable as ``value`` (e.g. ``-0.24``: 24 % lower cost). "partly" when our
    change has the claimed sign but not its size.

Optional ``datasets`` and ``costs`` restrict the rows. The verdict is
"reproduced" when the statement holds on every checked row (or pair), "partly"
when it holds on some, "not reproduced" when on none, and "not run" when the results
hold no row to check. The evidence says on how many, and where it fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from costsense.experiments._evaluate import LOWER_IS_BETTER
from costsense.experiments._labels import cost_label, sort_rows

__all__ = ["check_claims", "validate_claims"]

_KINDS = {
    "best": {"text", "kind", "metric", "algorithm", "among"},
    "better": {"text", "kind", "metric", "algorithm", "than"},
    "at_least": {"text", "kind", "metric", "algorithms", "value"},
    "at_most": {"text", "kind", "metric", "algorithms", "value"},
    "mean_change": {"text", "kind", "metric", "algorithm", "baseline", "value"},
}
_OPTIONAL = {"datasets", "costs"}


def validate_claims(claims: Sequence[dict[str, Any]], source: str) -> None:
    """Check that every claim has a known kind and exactly its keys.

    Parameters
    ----------
    claims : sequence of dict
        The study's ``[[claims]]``.
    source : str
        Where they came from, for error messages.
    """
    for claim in claims:
        kind = claim.get("kind")
        if kind not in _KINDS:
            raise ValueError(
                f"study {source}: claim kind must be one of {sorted(_KINDS)}: {claim}"
            )
        needed = _KINDS[kind]
        keys = set(claim)
        if not needed <= keys or not keys <= needed | _OPTIONAL:
            raise ValueError(
                f"study {source}: a {kind!r} claim needs the keys {sorted(needed)} "
                f"(optional {sorted(_OPTIONAL)}), got {sorted(keys)}"
            )


def _means(results: Any, claim: dict[str, Any]) -> Any:
    """Mean of the claim's metric per (dataset, cost) row and algorithm."""
    data = results
    if "datasets" in claim:
        data = data[data["dataset"].isin(claim["datasets"])]
    if "costs" in claim:
        data = data[data["cost"].isin([cost_label(c) for c in claim["costs"]])]
    if claim["metric"] not in data.columns:
        return None
    table = data.pivot_table(
        index=["dataset", "cost"],
        columns="algorithm",
        values=claim["metric"],
        aggfunc="mean",
    )
    table = table.dropna(how="all")
    return table.loc[sort_rows(table.index)]


def _verdict(held: int, total: int) -> str:
    if total == 0:
        return "not run"
    if held == total:
        return "reproduced"
    return "partly" if held > 0 else "not reproduced"


def _row_name(row: Any) -> str:
    return f"{row[0]} at {row[1]}"


def _check(results: Any, claim: dict[str, Any]) -> tuple[str, str]:
    table = _means(results, claim)
    kind = claim["kind"]
    lower = claim["metric"] in LOWER_IS_BETTER
    sign = 1.0 if lower else -1.0  # compare sign * value: smaller is better
    if table is None or table.empty:
        return "not run", "no results for this metric and rows"
    if kind == "best":
        among = [a for a in claim["among"] if a in table.columns]
        name = claim["algorithm"]
        if name not in table.columns or len(among) < 2:
            return "not run", f"{name} or its rivals were not run"
        held, notes = 0, []
        for row, values in table[among].iterrows():
            values = values.dropna()
            ranks = (sign * values).rank(method="min")
            rank = int(ranks[name])
            held += rank == 1
            if rank != 1:
                winner = (sign * values).idxmin()
                notes.append(
                    f"{_row_name(row)}: rank {rank} of {len(values)}, best {winner}"
                )
        total = len(table)
        evidence = f"best on {held} of {total} rows"
        return _verdict(held, total), "; ".join([evidence, *notes])
    if kind == "better":
        name = claim["algorithm"]
        rivals = [a for a in claim["than"] if a in table.columns]
        if name not in table.columns or not rivals:
            return "not run", f"{name} or its rivals were not run"
        held, total, notes = 0, 0, []
        for row, values in table.iterrows():
            for rival in rivals:
                total += 1
                if sign * values[name] < sign * values[rival]:
                    held += 1
                else:
                    notes.append(
                        f"{_row_name(row)}: {rival} {values[rival]:.3g} vs "
                        f"{values[name]:.3g}"
                    )
        evidence = f"better in {held} of {total} comparisons"
        return _verdict(held, total), "; ".join([evidence, *notes[:8]])
    if kind == "mean_change":
        return _mean_change(table, claim, sign)
    names = [a for a in claim["algorithms"] if a in table.columns]
    bound = float(claim["value"])
    cells = [
        (row, a, values[a])
        for row, values in table.iterrows()
        for a in names
        if not np.isnan(values[a])
    ]
    ok = [v >= bound if kind == "at_least" else v <= bound for _, _, v in cells]
    relation = ">=" if kind == "at_least" else "<="
    misses = [
        f"{a} {v:.3g} on {_row_name(row)}"
        for (row, a, v), good in zip(cells, ok, strict=True)
        if not good
    ]
    evidence = f"{relation} {bound:g} in {sum(ok)} of {len(ok)} cases"
    return _verdict(sum(ok), len(ok)), "; ".join([evidence, *misses[:8]])


def _mean_change(table: Any, claim: dict[str, Any], sign: float) -> tuple[str, str]:
    name, base = claim["algorithm"], claim["baseline"]
    if name not in table.columns or base not in table.columns:
        return "not run", f"{name} or {base} was not run"
    rows = table[[name, base]].dropna()
    rows = rows[rows[base] != 0]
    if rows.empty:
        return "not run", "no row with both algorithms"
    change = float(np.mean(rows[name] / rows[base] - 1.0))
    claimed = float(claim["value"])
    evidence = (
        f"average change {100 * change:+.1f} % over {len(rows)} rows "
        f"(claimed {100 * claimed:+.1f} %)"
    )
    if sign * change <= sign * claimed:
        return "reproduced", evidence
    if np.sign(change) == np.sign(claimed) and change != 0:
        return "partly", evidence
    return "not reproduced", evidence


def check_claims(
    results: Any, claims: Iterable[dict[str, Any]]
) -> list[tuple[str, str, str]]:
    """Check each claim; return ``(claim text, verdict, evidence)`` triples.

    Parameters
    ----------
    results : pandas.DataFrame
        One row per cell (dataset, cost, algorithm, metrics), as from
        :meth:`costsense.experiments.ResultsStore.results`.
    claims : iterable of dict
        Claims as described in the module docstring.

    Returns
    -------
    list of (str, str, str)
    """
    return [(claim["text"], *_check(results, claim)) for claim in claims]
