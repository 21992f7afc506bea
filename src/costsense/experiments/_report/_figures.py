"""The report's figures: bar and ratio charts, staged curves, decision regions.

The staged curves are the cost per sample against the boosting stage and, for
AdaBoost, paper 001's training error against its two bounds.

Figures are drawn on :class:`matplotlib.figure.Figure` objects directly, which need
no GUI backend and leave pyplot's global state alone; each is saved as a PNG at a
fixed resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.colors
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from numpy.typing import NDArray

from costsense.experiments._report._tables import Summary

__all__ = [
    "Boundary",
    "average_curves",
    "bar_chart",
    "bound_plot",
    "boundary_plot",
    "assign_colours",
    "curve_plot",
    "ratio_chart",
]

_DPI = 100
_REGION_COLOURS = ("#d6e4f0", "#f6d5d0")  # negative, positive
_POINT_COLOURS = ("#1f4e79", "#a3271a")


@dataclass
class Boundary:
    """Decision regions of several algorithms on a 2-D grid, for one setting.

    Attributes
    ----------
    dataset : str
        Dataset name.
    cost : str
        Cost label, as in the results' ``cost`` column.
    xx, yy : ndarray of shape (r, r)
        Grid coordinates, as returned by ``np.meshgrid``.
    predictions : dict of str to ndarray of shape (r, r)
        Predicted label of each algorithm at the grid points, in {0, 1}
        (1 = positive class).
    reference : ndarray of shape (r, r) or None
        Bayes discriminant on the grid; its zero level set is drawn as the
        reference boundary.
    X : ndarray of shape (n_samples, 2)
        Training points, drawn as a light scatter.
    y : ndarray of shape (n_samples,)
        Training labels in {0, 1}.
    """

    dataset: str
    cost: str
    xx: NDArray[np.float64]
    yy: NDArray[np.float64]
    predictions: dict[str, NDArray[np.int_]]
    reference: NDArray[np.float64] | None
    X: NDArray[np.float64]
    y: NDArray[np.int_]


def _plain(text: str) -> str:
    """Escape ``$`` so matplotlib does not parse text as mathtext.

    Parameters
    ----------
    text : str
        Label text.

    Returns
    -------
    str
        The text with ``$`` escaped.
    """
    return text.replace("$", r"\$")


def _save(fig: Figure, path: Path) -> Path:
    """Write a figure as PNG.

    Parameters
    ----------
    fig : Figure
        The figure.
    path : Path
        Destination.

    Returns
    -------
    Path
        ``path``.
    """
    fig.savefig(path, format="png", dpi=_DPI)
    return path


def assign_colours(names: Sequence[str]) -> dict[str, str]:
    """Assign matplotlib's cycle colours to algorithms, in order.

    Parameters
    ----------
    names : sequence of str
        Algorithms.

    Returns
    -------
    dict of str to str
        Colour of each algorithm: matplotlib's ten cycle colours, or the twenty
        of ``tab20`` when there are more than ten algorithms.
    """
    if len(names) <= 10:
        return {name: f"C{k}" for k, name in enumerate(names)}
    palette = matplotlib.colormaps["tab20"]  # a listed map: palette(k) is colour k
    return {
        name: matplotlib.colors.to_hex(palette(k % palette.N))
        for k, name in enumerate(names)
    }


def bar_chart(
    summary: Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    path: Path,
) -> Path:
    """Draw a grouped bar chart of one metric with std error bars.

    Parameters
    ----------
    summary : Summary
        The metric's summary.
    rows : sequence of (str, str)
        Groups (dataset, cost).
    algorithms : sequence of str
        Bars within a group.
    metric : str
        Metric name, for the axis label.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    n_rows, n_alg = summary.means.shape
    fig = Figure(figsize=(max(6.0, 0.5 + 0.3 * n_rows * n_alg), 4.0), layout="tight")
    ax = fig.add_subplot()
    x = np.arange(n_rows)
    width = 0.8 / max(n_alg, 1)
    colours = assign_colours(algorithms)
    for j, alg in enumerate(algorithms):
        means = summary.means[:, j]
        shown = ~np.isnan(means)
        ax.bar(
            x[shown] + (j - (n_alg - 1) / 2) * width,
            means[shown],
            width,
            yerr=np.nan_to_num(summary.stds[shown, j]),
            capsize=2,
            color=colours[alg],
            label=_plain(alg),
        )
    ax.set_xticks(x, [_plain(f"{ds}\n{cost}") for ds, cost in rows])
    if n_rows > 8:
        ax.tick_params(axis="x", labelrotation=60)
    ax.set_ylabel(_plain(metric))
    ax.set_title(_plain(f"{metric}: mean and std over repeats x folds"))
    ax.legend(fontsize="small")
    return _save(fig, path)


def ratio_chart(
    summary: Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    baseline: str,
    path: Path,
) -> Path:
    """Draw each algorithm's mean divided by the baseline's, per row.

    Parameters
    ----------
    summary : Summary
        The metric's summary.
    rows : sequence of (str, str)
        Groups (dataset, cost).
    algorithms : sequence of str
        Bars within a group (the baseline is left out: it is 1).
    metric : str
        Metric name.
    baseline : str
        The algorithm every mean is divided by.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    base = summary.means[:, list(algorithms).index(baseline)]
    others = [a for a in algorithms if a != baseline]
    costs = list(dict.fromkeys(cost for _, cost in rows))  # one panel per cost
    datasets = list(dict.fromkeys(ds for ds, _ in rows))
    width_in = max(6.0, 1.0 + 0.22 * len(datasets) * len(others))
    fig = Figure(figsize=(min(width_in, 16.0), 2.6 * len(costs) + 0.6), layout="tight")
    axes = fig.subplots(len(costs), 1, squeeze=False)[:, 0]
    width = 0.8 / max(len(others), 1)
    colours = assign_colours(algorithms)
    for ax, cost in zip(axes, costs, strict=True):
        index = [k for k, (_, c) in enumerate(rows) if c == cost]
        names = [rows[k][0] for k in index]
        x = np.arange(len(index))
        with np.errstate(divide="ignore", invalid="ignore"):
            for j, alg in enumerate(others):
                ratio = summary.means[index, list(algorithms).index(alg)] / base[index]
                shown = np.isfinite(ratio)
                ax.bar(
                    x[shown] + (j - (len(others) - 1) / 2) * width,
                    ratio[shown],
                    width,
                    color=colours[alg],
                    label=_plain(alg),
                )
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(x, [_plain(name) for name in names])
        if len(index) > 8:
            ax.tick_params(axis="x", labelrotation=45)
        ax.set_ylabel(_plain(f"/ {baseline}"))
        ax.set_title(_plain(f"{metric} relative to {baseline}, cost {cost}"))
    axes[0].legend(fontsize="small")
    return _save(fig, path)


def average_curves(curves: pd.DataFrame) -> pd.DataFrame:
    """Average the staged curves over repeats and folds.

    Parameters
    ----------
    curves : DataFrame
        Columns dataset, cost, algorithm, repeat, fold, stage, split, value.

    Returns
    -------
    DataFrame
        Columns dataset, cost, algorithm, split, stage, value (the mean over
        repeats and folds, NaN ignored), sorted by stage within each group;
        ``dataset`` and ``cost`` as strings.
    """
    data = curves.assign(
        dataset=curves["dataset"].astype(str), cost=curves["cost"].astype(str)
    )
    keys = ["dataset", "cost", "algorithm", "split", "stage"]
    return data.groupby(keys, sort=True)["value"].mean().reset_index()


def curve_plot(
    frame: pd.DataFrame, dataset: str, cost: str, colours: dict[str, str], path: Path
) -> Path:
    """Plot mean cost per sample against the boosting stage for one setting.

    Parameters
    ----------
    frame : DataFrame
        Rows of :func:`average_curves` for one (dataset, cost).
    dataset, cost : str
        The setting, for the title.
    colours : dict of str to str
        Colour of each algorithm, in legend order; must cover every algorithm
        of ``frame``.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    present = {str(a) for a in frame["algorithm"]}
    for ax, split, style in zip(axes, ("test", "train"), ("-", "--"), strict=True):
        for alg in [a for a in colours if a in present]:
            part = frame[(frame["algorithm"] == alg) & (frame["split"] == split)]
            if part.empty:
                continue
            ax.plot(
                part["stage"],
                part["value"],
                linestyle=style,
                color=colours.get(str(alg), "k"),
                label=_plain(str(alg)),
            )
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("stage")
        ax.set_title(_plain(f"{dataset}, cost {cost}: {split}"))
    axes[0].set_ylabel("mean cost per sample")
    handles, labels = axes[0].get_legend_handles_labels()
    if not handles:
        handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize="small")
    return _save(fig, path)


#: Paper 001's series, in drawing order: name, legend label, colour, line style.
_BOUND_SERIES = (
    ("train_error", r"training error of sign$(f_m)$", "C3", "-"),
    ("normaliser_product", r"$\Pi_{k\leq m}\,Z_k$ (Theorem 1)", "C0", "--"),
    ("edge_bound", r"$\exp(-2\,\Sigma_{k\leq m}\,\gamma_k^2)$ (Theorem 2)", "C2", ":"),
)


def bound_plot(
    series: pd.DataFrame, dataset: str, algorithms: Sequence[str], path: Path
) -> Path:
    """Plot paper 001's training error and its two bounds against the round.

    One panel per algorithm, log scale: each fit's series as a thin line, their
    mean over the fits that reached a round as a thick one. Theorems 1-2 put
    the three in order at every round: training error <= prod Z <= the edge
    bound. A training error of 0 has no place on a log scale and is not drawn.

    Parameters
    ----------
    series : DataFrame
        One dataset's rows of the results store's ``series`` table: columns
        algorithm, cost, repeat, fold, stage, name, value.
    dataset : str
        The dataset, for the title.
    algorithms : sequence of str
        The panels, in order (algorithms without rows are left out).
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    present = [a for a in algorithms if a in set(series["algorithm"].astype(str))]
    panels = present or list(algorithms[:1])
    fig = Figure(figsize=(6.4 * len(panels) + 0.4, 4.8), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    fit_keys = ["cost", "repeat", "fold"]
    for ax, alg in zip(axes, panels, strict=True):
        mine = series[series["algorithm"].astype(str) == alg]
        n_fits = len(mine.groupby(fit_keys)) if not mine.empty else 0
        for name, label, colour, style in _BOUND_SERIES:
            part = mine[mine["name"] == name]
            for _, fit in part.groupby(fit_keys):
                ax.plot(
                    fit["stage"],
                    fit["value"],
                    color=colour,
                    linestyle=style,
                    linewidth=0.6,
                    alpha=0.35,
                )
            mean = part.groupby("stage")["value"].mean()
            ax.plot(
                mean.index,
                mean.to_numpy(),
                color=colour,
                linestyle=style,
                linewidth=2.0,
                label=label,
            )
        ax.set_yscale("log", nonpositive="mask")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("round m")
        ax.set_ylabel("training error and its bounds (log scale)")
        ax.set_title(
            _plain(f"{dataset}: {alg}, {n_fits} fits (thin) and their mean (thick)")
        )
        ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize="small")
    return _save(fig, path)


def boundary_plot(boundary: Boundary, path: Path) -> Path:
    """Draw each algorithm's decision regions with the data and the Bayes boundary.

    Parameters
    ----------
    boundary : Boundary
        Grid, predictions, reference and training points.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    xx, yy = np.asarray(boundary.xx), np.asarray(boundary.yy)
    X, y = np.asarray(boundary.X), np.asarray(boundary.y)
    n = max(len(boundary.predictions), 1)
    ncols = min(n, 5)
    nrows = -(-n // ncols)
    fig = Figure(figsize=(3.2 * ncols, 3.2 * nrows + 0.3), layout="tight")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    reference = None if boundary.reference is None else np.asarray(boundary.reference)
    for ax, (alg, pred) in zip(axes, boundary.predictions.items(), strict=False):
        pred = np.asarray(pred, dtype=np.float64)
        if pred.shape != xx.shape:
            raise ValueError(
                f"Predictions of {alg!r} have shape {pred.shape}; the grid has "
                f"shape {xx.shape}."
            )
        ax.contourf(xx, yy, pred, levels=[-0.5, 0.5, 1.5], colors=_REGION_COLOURS)
        for label, colour in enumerate(_POINT_COLOURS):
            points = X[y == label]
            ax.scatter(points[:, 0], points[:, 1], s=6, alpha=0.4, color=colour)
        if reference is not None and reference.min() < 0 < reference.max():
            ax.contour(xx, yy, reference, levels=[0.0], colors="k", linewidths=1.5)
        ax.set_xlim(float(xx.min()), float(xx.max()))
        ax.set_ylim(float(yy.min()), float(yy.max()))
        ax.set_title(_plain(str(alg)), fontsize="medium")
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle(_plain(f"{boundary.dataset}, cost {boundary.cost}"))
    return _save(fig, path)
