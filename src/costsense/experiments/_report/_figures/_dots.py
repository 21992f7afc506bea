"""Dot charts: a metric's mean and std per group, and each mean over a baseline's.

One small panel per (dataset, cost) group, the algorithms down a shared y axis.
Change it when these charts' layout or marks change.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from costsense.experiments._report._figures._style import _plain, _save, group_label
from costsense.experiments._report._tables import Summary
from costsense.experiments._stats import best_mask

__all__ = ["dot_chart", "ratio_chart"]


def _panel_grid(n_panels: int) -> tuple[int, int]:
    """Return (rows, columns) of a grid of small panels.

    Parameters
    ----------
    n_panels : int
        Number of panels (at least 1).

    Returns
    -------
    tuple of int
        Up to 4 columns (6 beyond 12 panels), as many rows as needed.
    """
    ncols = min(n_panels, 4 if n_panels <= 12 else 6)
    return -(-n_panels // ncols), ncols


def _dot_grid(
    values: NDArray[np.float64],
    errors: NDArray[np.float64] | None,
    titles: Sequence[str],
    algorithms: Sequence[str],
    best: NDArray[np.bool_] | None,
    xlabel: str,
    suptitle: str,
    reference: float | None = None,
) -> Figure:
    """Draw one dot-plot panel per group, the algorithms down the shared y axis.

    Parameters
    ----------
    values : ndarray of shape (n_groups, n_algorithms)
        The dot of each algorithm in each group (NaN: written "n/a").
    errors : ndarray of shape (n_groups, n_algorithms) or None
        Half-width of each dot's horizontal error bar (NaN: no bar).
    titles : sequence of str
        Panel titles, one per group.
    algorithms : sequence of str
        The y tick labels, top to bottom.
    best : ndarray of bool of shape (n_groups, n_algorithms) or None
        Dots drawn filled and dark (the best of their group); the others are
        drawn open. None draws every dot filled.
    xlabel : str
        Label of every panel's x axis.
    suptitle : str
        Figure title.
    reference : float, default=None
        Draws a vertical line at this value in every panel.

    Returns
    -------
    Figure
        The figure; each panel's own x range fits its values, since groups
        (datasets) differ in scale.
    """
    n_groups, n_alg = values.shape
    nrows, ncols = _panel_grid(max(n_groups, 1))
    height = 0.9 + 0.2 * max(n_alg, 1)
    label_width = 0.1 * max((len(a) for a in algorithms), default=4)
    fig = Figure(
        figsize=(max(6.0, label_width + 2.6 * ncols), height * nrows + 0.7),
        layout="constrained",
    )
    axes = fig.subplots(nrows, ncols, squeeze=False, sharey=True).ravel()
    for ax in axes[n_groups:]:
        ax.set_visible(False)
    y = np.arange(n_alg)
    for i, (ax, title) in enumerate(zip(axes, titles, strict=False)):
        row = values[i]
        shown = ~np.isnan(row)
        err = None if errors is None else np.nan_to_num(errors[i])
        for j in np.flatnonzero(shown):
            filled = best is None or bool(best[i, j])
            ax.errorbar(
                row[j],
                y[j],
                xerr=None if err is None else err[j],
                fmt="o",
                markersize=5,
                capsize=2,
                color="#1f3b73" if filled else "#6b6b6b",
                markerfacecolor="#1f3b73" if filled else "white",
                elinewidth=1.0,
            )
        for j in np.flatnonzero(~shown):
            ax.text(
                0.02,
                y[j],
                "n/a",
                transform=ax.get_yaxis_transform(),
                va="center",
                fontsize="x-small",
                color="#6b6b6b",
            )
        if reference is not None:
            ax.axvline(reference, color="black", linewidth=0.8)
        ax.margins(x=0.08)  # no dot or bar end on the frame
        ax.grid(True, axis="y", linewidth=0.4, alpha=0.5)
        ax.grid(True, axis="x", linewidth=0.3, alpha=0.3)
        ax.set_title(_plain(title), fontsize="medium")
        ax.set_xlabel(_plain(xlabel), fontsize="small")
        ax.tick_params(axis="x", labelsize="small")
    axes[0].set_yticks(y, [_plain(a) for a in algorithms])
    axes[0].set_ylim(n_alg - 0.5, -0.5)  # first algorithm on top
    fig.suptitle(_plain(suptitle))
    return fig


def dot_chart(
    summary: Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    path: Path,
    *,
    lower_is_better: bool | None = None,
) -> Figure:
    """Draw one metric's mean and std as dot plots, one panel per group.

    Each (dataset, cost) group is a small panel with the algorithms down the y
    axis (named, so no colour has to be matched to a legend) and the metric
    along x, its range fitted to the group. Any number of algorithms and
    groups stays readable: panels wrap into a grid and grow with the number of
    algorithms.

    Parameters
    ----------
    summary : Summary
        The metric's summary.
    rows : sequence of (str, str)
        Groups (dataset, cost), one panel each.
    algorithms : sequence of str
        The algorithms, top to bottom.
    metric : str
        Metric name, for the axis label.
    path : Path
        Destination PNG.
    lower_is_better : bool, default=None
        When given, the best mean of each group is drawn filled and the others
        open; None draws them all filled.

    Returns
    -------
    Figure
        The figure, already saved to ``path``.
    """
    best = (
        None
        if lower_is_better is None
        else best_mask(summary.means, lower_is_better=lower_is_better)
    )
    how = (
        ""
        if lower_is_better is None
        else "\nfilled: the best of its panel "
        f"({'lower' if lower_is_better else 'higher'} is better)"
    )
    fig = _dot_grid(
        summary.means,
        summary.stds,
        [group_label(ds, cost) for ds, cost in rows],
        algorithms,
        best,
        metric,
        f"{metric}: mean (dot) and std (bar) over repeats x folds{how}",
    )
    _save(fig, path)
    return fig


def ratio_chart(
    summary: Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    baseline: str,
    path: Path,
) -> Figure:
    """Draw each algorithm's mean divided by the baseline's, one panel per group.

    Parameters
    ----------
    summary : Summary
        The metric's summary.
    rows : sequence of (str, str)
        Groups (dataset, cost), one panel each.
    algorithms : sequence of str
        The algorithms (the baseline is left out: it is 1).
    metric : str
        Metric name.
    baseline : str
        The algorithm every mean is divided by.
    path : Path
        Destination PNG.

    Returns
    -------
    Figure
        The figure, already saved to ``path``; a vertical line marks 1 (the
        baseline's value), and a ratio that is not finite (the baseline's mean
        is 0 or missing) reads "n/a".
    """
    base = summary.means[:, list(algorithms).index(baseline)]
    others = [a for a in algorithms if a != baseline]
    columns = [list(algorithms).index(a) for a in others]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = summary.means[:, columns] / base[:, None]
    ratio[~np.isfinite(ratio)] = np.nan
    fig = _dot_grid(
        ratio,
        None,
        [group_label(ds, cost) for ds, cost in rows],
        others,
        None,
        f"/ {baseline}",
        f"{metric} of each algorithm divided by {baseline}'s (line: 1, the same)",
        reference=1.0,
    )
    _save(fig, path)
    return fig
