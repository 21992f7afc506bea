"""The report's numbers: the results checked and summarised once, and every table.

Every results cell is ``mean (std)`` over the repeats x folds of one (dataset,
cost, algorithm), with the sample std; a metric whose finite values all lie in
[0, 1] is a rate, printed with 3 decimals, any other with 2. Change it when a
table's numbers or format change.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from costsense.experiments._labels import normalise_label, sort_rows
from costsense.experiments._report._blocks import Cell, Table
from costsense.experiments._stats import (
    best_mask,
    describe,
    mean_ranks,
    wilcoxon_test,
    win_tie_loss,
)

__all__ = ["Summary", "Tabulated", "check_columns", "summarise", "tabulate"]

KEYS = ("dataset", "cost", "algorithm", "repeat", "fold")
_PAPER_COLUMNS = ("dataset", "cost", "algorithm", "metric", "value")


def choose_decimals(values: Iterable[float]) -> int:
    """Return 3 for a rate (every finite value within [0, 1]), else 2."""
    x = np.asarray(list(values), dtype=np.float64)
    x = x[np.isfinite(x)]
    return 3 if x.size and bool(np.all((x >= 0) & (x <= 1))) else 2


def fmt(value: float, decimals: int, *, sign: bool = False) -> str:
    """Format a number with fixed decimals (and its sign); NaN as ``n/a``."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"


@dataclass
class Summary:
    """Mean and std of one metric per (row, algorithm), and its fold values per row."""

    means: NDArray[np.float64]
    stds: NDArray[np.float64]
    decimals: int
    blocks: dict[tuple[str, str], pd.DataFrame]


def summarise(
    data: pd.DataFrame,
    metric: str,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
) -> Summary:
    """Compute the mean (std) table of one metric.

    Parameters
    ----------
    data : DataFrame
        Results with string ``dataset`` and ``cost`` columns.
    metric : str
        Metric column.
    rows : sequence of (str, str)
        Table rows (dataset, cost).
    algorithms : sequence of str
        Table columns.

    Returns
    -------
    Summary
        Means and sample stds (NaN fold values ignored; NaN without a value),
        the metric's decimals, and per row a frame indexed by (repeat, fold)
        with one column per algorithm.
    """
    wide = data.pivot(
        index=["dataset", "cost", "repeat", "fold"], columns="algorithm", values=metric
    )
    blocks = {
        (str(ds), str(cost)): frame.droplevel(["dataset", "cost"])
        for (ds, cost), frame in wide.groupby(level=["dataset", "cost"], sort=False)
    }
    means = np.full((len(rows), len(algorithms)), np.nan)
    stds = np.full_like(means, np.nan)
    for i, row in enumerate(rows):
        for j, alg in enumerate(algorithms):
            if alg in blocks[row].columns:
                values = blocks[row][alg].dropna().to_numpy(dtype=np.float64)
                if values.size:
                    means[i, j], stds[i, j] = describe(values)
    return Summary(means, stds, choose_decimals(data[metric]), blocks)


@dataclass(frozen=True)
class Tabulated:
    """The results as the report's sections see them.

    ``data`` has string ``dataset``, ``cost`` and ``algorithm``; ``algorithms``
    are in order of first appearance, ``rows`` (dataset, cost) in
    :func:`sort_rows` order; ``summary_of`` holds the tabulated metrics and the
    paper's (when measured).
    """

    data: pd.DataFrame
    algorithms: list[str]
    rows: list[tuple[str, str]]
    summary_of: dict[str, Summary]


def check_columns(frame: pd.DataFrame, required: Iterable[str], name: str) -> None:
    """Raise if a frame lacks any of the required columns."""
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing the columns {missing}.")


def tabulate(
    results: pd.DataFrame,
    metrics: Sequence[str],
    paper: Sequence[Mapping[str, Any]],
    named: Mapping[str, str | None],
) -> Tabulated:
    """Check the results, the paper rows and the named algorithms; summarise."""
    check_columns(results, [*KEYS, *metrics], "results")
    if results.empty:
        raise ValueError("results has no rows.")
    data = results.assign(**{k: results[k].astype(str) for k in KEYS[:3]})
    duplicated = data.duplicated(list(KEYS))
    if duplicated.any():
        first = data.loc[duplicated, list(KEYS)].iloc[0].tolist()
        raise ValueError(
            f"results has {int(duplicated.sum())} duplicated cells "
            f"(dataset, cost, algorithm, repeat, fold), e.g. {first}."
        )
    algorithms = [str(a) for a in pd.unique(data["algorithm"])]
    for option, name in named.items():
        if name is not None and name not in algorithms:
            raise ValueError(
                f"{option} {name!r} is not among the algorithms {algorithms}."
            )
    missing = [c for c in _PAPER_COLUMNS if any(c not in row for row in paper)]
    if missing:
        raise ValueError(f"paper is missing the columns {missing}.")
    rows = sort_rows(set(data[["dataset", "cost"]].itertuples(index=False, name=None)))
    measured = [
        m
        for m in dict.fromkeys(str(row["metric"]) for row in paper)
        if m not in metrics and m in data.columns
    ]
    summary_of = {
        m: summarise(data, m, rows, algorithms) for m in [*metrics, *measured]
    }
    return Tabulated(data, algorithms, rows, summary_of)


def results_table(
    tab: Tabulated, metric: str, lower: bool, marked: Collection[str]
) -> Table:
    """Mean (std) per row and algorithm, the best bold, then the mean rank row.

    A dataset in ``marked`` (the paper's own) is named "(paper's set)".
    """
    summary = tab.summary_of[metric]
    d = summary.decimals
    best = best_mask(summary.means, lower_is_better=lower)
    body = []
    for i, (ds, cost) in enumerate(tab.rows):
        cells = [Cell(f"{ds} (paper's set)" if ds in marked else ds), Cell(cost)]
        for j, (mean, std) in enumerate(zip(summary.means[i], summary.stds[i])):
            text = "n/a" if np.isnan(mean) else f"{fmt(mean, d)} ({fmt(std, d)})"
            cells.append(Cell(text, bool(best[i, j])))
        body.append(cells)
    ranks = mean_ranks(summary.means, lower_is_better=lower)
    body.append([Cell("mean rank"), Cell("")] + [Cell(f"{r:.2f}") for r in ranks])
    return Table(["dataset", "cost", *tab.algorithms], body)


def paper_table(tab: Tabulated, paper: Sequence[Mapping[str, Any]]) -> Table:
    """Each published value (in the paper's order), our mean and ``ours - paper``."""
    row_index = {(ds, normalise_label(c)): i for i, (ds, c) in enumerate(tab.rows)}
    body = []
    for entry in paper:
        ds, cost = str(entry["dataset"]), str(entry["cost"])
        metric, alg = str(entry["metric"]), str(entry["algorithm"])
        value = float(entry["value"])
        summary = tab.summary_of.get(metric)
        i = row_index.get((ds, normalise_label(cost)))
        ours = np.nan
        if summary is not None and i is not None and alg in tab.algorithms:
            ours = float(summary.means[i, tab.algorithms.index(alg)])
        d = summary.decimals if summary is not None else choose_decimals([value])
        texts = [fmt(value, d), fmt(ours, d), fmt(ours - value, d, sign=True)]
        body.append([Cell(t) for t in (ds, cost, alg, metric, *texts)])
    header = ["dataset", "cost", "algorithm", "metric", "paper", "ours", "difference"]
    return Table(header, body)


def comparison_table(
    tab: Tabulated,
    metrics: Sequence[str],
    reference: str,
    lower_is_better: Collection[str],
    alpha: float,
) -> Table:
    """Wins, ties and losses of the reference against each algorithm, and Wilcoxon.

    Per metric and other algorithm: the rows tested (a paired t-test per row
    over the folds matched by repeat and fold; rows with fewer than 2 complete
    pairs are skipped), the reference's wins/ties/losses, and the Wilcoxon
    signed-rank test across rows on the row means ("n/a" under 2 rows).
    """
    ref = tab.algorithms.index(reference)
    body = []
    for metric in metrics:
        summary = tab.summary_of[metric]
        for j, other in enumerate(tab.algorithms):
            if other == reference:
                continue
            pairs = []
            for row in tab.rows:
                frame = summary.blocks[row]
                if reference in frame.columns and other in frame.columns:
                    paired = frame[[reference, other]].dropna()
                    if len(paired) >= 2:
                        pairs.append((paired[reference], paired[other]))
            counts = win_tie_loss(
                pairs, alpha=alpha, lower_is_better=metric in lower_is_better
            )
            a, b = summary.means[:, ref], summary.means[:, j]
            keep = ~(np.isnan(a) | np.isnan(b))
            wilcoxon = ["n/a", "n/a"]
            if keep.sum() >= 2:
                result = wilcoxon_test(a[keep], b[keep], alpha=alpha)
                if math.isfinite(result.pvalue):
                    wilcoxon = [f"{result.statistic:g}", f"{result.pvalue:.3g}"]
            texts = [metric, other, str(len(pairs)), *map(str, counts), *wilcoxon]
            body.append([Cell(t) for t in texts])
    header = ["metric", "algorithm", "rows", "wins", "ties", "losses"]
    return Table([*header, "Wilcoxon statistic", "Wilcoxon p-value"], body)
