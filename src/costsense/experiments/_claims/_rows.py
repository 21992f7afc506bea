"""A claim's rows: the study rows it speaks about, their means and matched splits.

Every kind reads its numbers through :class:`_Rows`; change it when what a claim
may select (datasets, costs) or how a missing cell is reported changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._labels import cost_label, sort_rows

_SHOWN = 6  # failing rows named in the evidence


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


def _split_values(r: _Rows, name: str, row: Any, metric: str) -> pd.Series:
    data = r.data
    here = data[
        (data["dataset"].astype(str) == row[0])
        & (data["cost"].astype(str) == row[1])
        & (data["algorithm"] == name)
    ]
    return here.groupby(["repeat", "fold"])[metric].mean()


def _matched(r: _Rows, a: str, b: str, row: Any, metric: str) -> pd.DataFrame:
    """Split values of ``a`` and ``b`` on a row, matched by (repeat, fold)."""
    ours = _split_values(r, a, row, metric)
    theirs = _split_values(r, b, row, metric)
    return pd.concat([ours, theirs], axis=1, join="inner").dropna()
