"""The report's numbers: mean (std) summaries, their formats, and the tables.

Every table cell is ``mean (std)`` over the repeats x folds of one (dataset, cost,
algorithm); a metric whose finite values all lie in [0, 1] is a rate, printed with
3 decimals, any other with 2. The tables are document blocks
(:mod:`costsense.experiments._report._blocks`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from costsense.experiments._labels import normalise_label
from costsense.experiments._report._blocks import Cell, Table
from costsense.experiments._stats import (
    best_mask,
    describe,
    mean_ranks,
    wilcoxon_test,
    win_tie_loss,
)

__all__ = [
    "Summary",
    "comparison_table",
    "choose_decimals",
    "fmt",
    "paper_table",
    "results_table",
    "summarise",
]


def choose_decimals(values: Iterable[float]) -> int:
    """Choose the number of decimals of a metric.

    Parameters
    ----------
    values : iterable of float
        All fold values of the metric.

    Returns
    -------
    int
        3 for rates (every finite value within [0, 1]), else 2.
    """
    x = np.asarray(list(values), dtype=np.float64)
    x = x[np.isfinite(x)]
    return 3 if x.size and bool(np.all((x >= 0) & (x <= 1))) else 2


def fmt(value: float, decimals: int, *, sign: bool = False) -> str:
    """Format a number with fixed decimals; NaN as ``n/a``.

    Parameters
    ----------
    value : float
        The number.
    decimals : int
        Digits after the point.
    sign : bool, default=False
        Always show the sign.

    Returns
    -------
    str
        The formatted number.
    """
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"


@dataclass
class Summary:
    """Mean and std of one metric per (row, algorithm), and its fold values."""

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
        Means and sample stds (NaN where an algorithm has no finite value in a
        row; NaN fold values are ignored), the metric's decimals, and per row a
        frame indexed by (repeat, fold) with one column per algorithm.
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
        frame = blocks[row]
        for j, alg in enumerate(algorithms):
            if alg not in frame.columns:
                continue
            values = frame[alg].dropna().to_numpy(dtype=np.float64)
            if values.size:
                means[i, j], stds[i, j] = describe(values)
    return Summary(means, stds, choose_decimals(data[metric]), blocks)


def results_table(
    summary: Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    lower: bool,
    marked: Collection[str] = (),
) -> Table:
    """Build the mean (std) table of one metric, best per row in bold.

    Parameters
    ----------
    summary : Summary
        The metric's summary.
    rows : sequence of (str, str)
        Row labels (dataset, cost).
    algorithms : sequence of str
        Column labels.
    lower : bool
        Whether lower is better.
    marked : collection of str, default=()
        Datasets the paper itself reports: their name is followed by
        "(paper's set)", the like-for-like rows.

    Returns
    -------
    Table
        One row per (dataset, cost) and a final "mean rank" row.
    """
    d = summary.decimals
    best = best_mask(summary.means, lower_is_better=lower)
    body = []
    for i, (ds, cost) in enumerate(rows):
        cells = [Cell(f"{ds} (paper's set)" if ds in marked else ds), Cell(cost)]
        for j in range(summary.means.shape[1]):
            mean, std = summary.means[i, j], summary.stds[i, j]
            text = "n/a" if np.isnan(mean) else f"{fmt(mean, d)} ({fmt(std, d)})"
            cells.append(Cell(text, bool(best[i, j])))
        body.append(cells)
    ranks = mean_ranks(summary.means, lower_is_better=lower)
    body.append([Cell("mean rank"), Cell("")] + [Cell(f"{r:.2f}") for r in ranks])
    return Table(["dataset", "cost", *algorithms], body)


def paper_table(
    paper: Sequence[Mapping[str, Any]],
    summary_of: Mapping[str, Summary],
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
) -> Table:
    """Compare the paper's published values with ours.

    Parameters
    ----------
    paper : sequence of dict
        Published values, each with the keys dataset, cost, algorithm, metric,
        value.
    summary_of : dict of str to Summary
        Summaries of the metrics present both in the paper and in the results.
    rows : sequence of (str, str)
        Our rows, in table order.
    algorithms : sequence of str
        Our algorithms, in table order.

    Returns
    -------
    Table
        One row per paper entry, in the paper's order: its value, ours and
        ``ours - paper``.
    """
    row_index = {(ds, normalise_label(cost)): i for i, (ds, cost) in enumerate(rows)}
    alg_index = {alg: j for j, alg in enumerate(algorithms)}
    body = []
    for entry in paper:
        ds, cost = str(entry["dataset"]), str(entry["cost"])
        metric, alg = str(entry["metric"]), str(entry["algorithm"])
        value = float(entry["value"])
        summary = summary_of.get(metric)
        i = row_index.get((ds, normalise_label(cost)))
        j = alg_index.get(alg)
        ours = np.nan
        if summary is not None and i is not None and j is not None:
            ours = float(summary.means[i, j])
        d = summary.decimals if summary is not None else choose_decimals([value])
        body.append(
            [
                Cell(ds),
                Cell(cost),
                Cell(alg),
                Cell(metric),
                Cell(fmt(value, d)),
                Cell(fmt(ours, d)),
                Cell(fmt(ours - value, d, sign=True)),
            ]
        )
    header = ["dataset", "cost", "algorithm", "metric", "paper", "ours", "difference"]
    return Table(header, body)


def comparison_table(
    summary_of: Mapping[str, Summary],
    metrics: Sequence[str],
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    reference: str,
    lower_is_better: Collection[str],
    alpha: float,
) -> Table:
    """Build the win/tie/loss and Wilcoxon table of the reference algorithm.

    Parameters
    ----------
    summary_of : dict of str to Summary
        Summaries of ``metrics``.
    metrics : sequence of str
        Compared metrics.
    rows : sequence of (str, str)
        Rows (dataset, cost).
    algorithms : sequence of str
        All algorithms, the reference included.
    reference : str
        Reference algorithm.
    lower_is_better : collection of str
        Metrics where lower is better.
    alpha : float
        Significance level.

    Returns
    -------
    Table
        Per metric and other algorithm: rows tested, wins/ties/losses of the
        reference (paired t-test per row over folds matched by repeat and
        fold; rows with fewer than 2 complete pairs are skipped), and the
        Wilcoxon signed-rank test across rows on the row means.
    """
    ref = list(algorithms).index(reference)
    body = []
    for metric in metrics:
        summary = summary_of[metric]
        lower = metric in lower_is_better
        for j, other in enumerate(algorithms):
            if other == reference:
                continue
            pairs = []
            for row in rows:
                frame = summary.blocks[row]
                if reference not in frame.columns or other not in frame.columns:
                    continue
                paired = frame[[reference, other]].dropna()
                if len(paired) >= 2:
                    pairs.append((paired[reference], paired[other]))
            wins, ties, losses = win_tie_loss(
                pairs, test="t", alpha=alpha, lower_is_better=lower
            )
            a, b = summary.means[:, ref], summary.means[:, j]
            keep = ~(np.isnan(a) | np.isnan(b))
            statistic = pvalue = "n/a"
            if keep.sum() >= 2:
                result = wilcoxon_test(a[keep], b[keep], alpha=alpha)
                if math.isfinite(result.pvalue):
                    statistic = f"{result.statistic:g}"
                    pvalue = f"{result.pvalue:.3g}"
            body.append(
                [
                    Cell(metric),
                    Cell(other),
                    Cell(str(len(pairs))),
                    Cell(str(wins)),
                    Cell(str(ties)),
                    Cell(str(losses)),
                    Cell(statistic),
                    Cell(pvalue),
                ]
            )
    header = [
        "metric",
        "algorithm",
        "rows",
        "wins",
        "ties",
        "losses",
        "Wilcoxon statistic",
        "Wilcoxon p-value",
    ]
    return Table(header, body)
