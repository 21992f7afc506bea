"""The report's figures: bar and ratio charts, staged curves, decision regions.

The staged curves are the cost per sample against the boosting stage and, for
AdaBoost, paper 001's training error against its two bounds.

Figures are drawn on :class:`matplotlib.figure.Figure` objects directly, which need
no GUI backend and leave pyplot's global state alone; each is saved as a PNG at a
fixed resolution.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.colors
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator
from numpy.typing import NDArray

from costsense.experiments._report._tables import Summary
from costsense.experiments._stats import best_mask

__all__ = [
    "Boundary",
    "average_curves",
    "assign_colours",
    "bound_plot",
    "boundary_plot",
    "curve_plot",
    "dot_chart",
    "group_label",
    "is_flat",
    "ratio_chart",
]

_DPI = 100
_REGION_COLOURS = ("#d6e4f0", "#f6d5d0")  # negative, positive
_POINT_COLOURS = ("#1f4e79", "#a3271a")
#: A curve is flat when its spread is at most this fraction of its largest value.
_FLAT_RTOL = 1e-6
_FLAT_ATOL = 1e-12
#: The y range of a curve plot spans at least this fraction of its largest value...
_MIN_Y_SPAN = 0.1
#: ...and at least this much (mean cost per sample).
_MIN_Y_SPAN_ABS = 1e-3
#: Markers that tell apart the curves of more than ten algorithms.
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


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
    class_names : (str, str), default=("negative", "positive")
        Names of class 0 and class 1, for the legend.
    feature_names : (str, str), default=("x1", "x2")
        Names of the two features, for the axis labels.
    """

    dataset: str
    cost: str
    xx: NDArray[np.float64]
    yy: NDArray[np.float64]
    predictions: dict[str, NDArray[np.int_]]
    reference: NDArray[np.float64] | None
    X: NDArray[np.float64]
    y: NDArray[np.int_]
    class_names: tuple[str, str] = ("negative", "positive")
    feature_names: tuple[str, str] = ("x1", "x2")


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


def group_label(dataset: str, cost: str) -> str:
    """Return the label of a (dataset, cost) group in the figures.

    Parameters
    ----------
    dataset : str
        Dataset name.
    cost : str
        Cost label, as in the results' ``cost`` column.

    Returns
    -------
    str
        ``"pima, cost 5"``: the cost is named, so a bare number is never left
        to be guessed.
    """
    return f"{dataset}, cost {cost}"


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


def is_flat(values: NDArray[np.float64] | pd.Series) -> bool:
    """Tell whether a curve is constant up to rounding.

    Parameters
    ----------
    values : array-like of float
        The curve's values (NaN ignored).

    Returns
    -------
    bool
        True when the spread of the finite values is at most
        ``_FLAT_RTOL * max|value|`` (plus a tiny absolute term, for a curve at
        0): far below the change one prediction makes on any test part, far
        above the rounding of an average.
    """
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return False
    return bool(np.ptp(v) <= _FLAT_RTOL * float(np.max(np.abs(v))) + _FLAT_ATOL)


def _floor_y_range(ax: Axes, values: NDArray[np.float64]) -> None:
    """Widen the y range to a floor, so that rounding noise draws as a flat line.

    Parameters
    ----------
    ax : Axes
        The axes (and those sharing its y axis).
    values : ndarray of float
        Every value drawn on the axes.

    Notes
    -----
    The floor is ``_MIN_Y_SPAN`` times the largest absolute value, and at least
    ``_MIN_Y_SPAN_ABS``; a range below it is widened around its middle, never
    below 0 when every value is nonnegative. Offset and scientific tick labels
    are turned off, so a tick never reads "1e-7 + 5.62e-2".
    """
    v = values[np.isfinite(values)]
    ax.ticklabel_format(axis="y", style="plain", useOffset=False)
    if v.size == 0:
        return
    lo, hi = float(v.min()), float(v.max())
    floor = max(_MIN_Y_SPAN * max(abs(lo), abs(hi)), _MIN_Y_SPAN_ABS)
    if hi - lo >= floor:
        return
    bottom = 0.5 * (lo + hi) - 0.5 * floor
    if lo >= 0.0:
        bottom = max(bottom, 0.0)
    ax.set_ylim(bottom, bottom + floor)


def curve_plot(
    frame: pd.DataFrame,
    dataset: str,
    cost: str,
    colours: dict[str, str],
    path: Path,
    *,
    why_constant: Mapping[str, str] | None = None,
) -> Figure:
    """Plot mean cost per sample against the boosting stage for one setting.

    A curve flat over every stage (up to rounding, :func:`is_flat`) says the
    stages change nothing, most often because the model predicts one class: it
    is still drawn, and named under its panel's x axis, with the reason when
    ``why_constant`` gives one; so is a curve of a single stage (drawn as a
    point). The y range never shrinks below a floor, so
    rounding noise cannot look like a signal.

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
    why_constant : mapping of str to str, default=None
        Per algorithm whose fitted (last-stage) models predict one class on the
        test part, how often (for example "predicts one class in 5 of 5
        fits"): added to its note if its curve is flat, else noted under the
        test panel, since the tail of its curve is the cost of that one class.

    Returns
    -------
    Figure
        The figure, already saved to ``path``.
    """
    why = dict(why_constant or {})
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    present = {str(a) for a in frame["algorithm"]}
    order = [a for a in colours if a in present]
    many = len(order) > 10  # tab20's pairs differ in lightness only: add markers
    drawn: list[NDArray[np.float64]] = []
    for ax, split, style in zip(axes, ("test", "train"), ("-", "--"), strict=True):
        still: list[str] = []  # curves that show no change over the stages
        ending: list[str] = []  # other curves whose last models predict one class
        for k, alg in enumerate(order):
            part = frame[(frame["algorithm"] == alg) & (frame["split"] == split)]
            if part.empty:
                continue
            values = part["value"].to_numpy(dtype=np.float64)
            drawn.append(values)
            ax.plot(
                part["stage"],
                values,
                linestyle=style,
                color=colours.get(str(alg), "k"),
                label=_plain(str(alg)),
                # a one-stage curve is a point: without a marker it is invisible
                marker=_MARKERS[k % len(_MARKERS)]
                if many or len(values) == 1
                else None,
                markevery=max(1, len(values) // 6),
                markersize=4,
            )
            reason = why.get(alg, "")
            if len(values) == 1 or is_flat(values):
                kind = "one stage" if len(values) == 1 else "constant"
                still.append(f"{alg} ({kind}" + (f", {reason})" if reason else ")"))
            elif reason and split == "test":
                ending.append(f"{alg} {reason}")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        notes = ["stage"]
        if still:
            notes.append("no change over the stages: " + "; ".join(still))
        if ending:
            notes.append("at the last stage, " + "; ".join(ending))
        ax.set_xlabel(_plain("\n".join(textwrap.fill(n, width=60) for n in notes)))
        ax.set_title(_plain(f"{group_label(dataset, cost)}: {split}"))
    _floor_y_range(axes[0], np.concatenate(drawn) if drawn else np.array([]))
    axes[0].set_ylabel("mean cost per sample")
    handles, labels = axes[0].get_legend_handles_labels()
    if not handles:
        handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize="small")
    _save(fig, path)
    return fig


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


def boundary_plot(boundary: Boundary, path: Path) -> Figure:
    """Draw each algorithm's decision regions with the data and the Bayes boundary.

    One panel per algorithm, on shared axes: the predicted class as a shaded
    region, the training points coloured by their class, and the Bayes boundary
    (when the reference changes sign on the grid) as a black line. One legend
    under the panels explains the regions, the classes and the line; the axes
    are labelled on the outer panels.

    Parameters
    ----------
    boundary : Boundary
        Grid, predictions, reference and training points.
    path : Path
        Destination PNG.

    Returns
    -------
    Figure
        The figure, already saved to ``path``.
    """
    xx, yy = np.asarray(boundary.xx), np.asarray(boundary.yy)
    X, y = np.asarray(boundary.X), np.asarray(boundary.y)
    n = max(len(boundary.predictions), 1)
    ncols = min(n, 5)
    nrows = -(-n // ncols)
    fig = Figure(figsize=(3.2 * ncols + 0.4, 3.2 * nrows + 1.0), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    reference = None if boundary.reference is None else np.asarray(boundary.reference)
    crosses = reference is not None and reference.min() < 0 < reference.max()
    negative, positive = (_plain(str(name)) for name in boundary.class_names)
    xname, yname = (_plain(str(name)) for name in boundary.feature_names)
    for k, (alg, pred) in enumerate(boundary.predictions.items()):
        row, col = divmod(k, ncols)
        ax = axes[row, col]
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
        if crosses:
            ax.contour(xx, yy, reference, levels=[0.0], colors="k", linewidths=1.5)
        ax.set_xlim(float(xx.min()), float(xx.max()))
        ax.set_ylim(float(yy.min()), float(yy.max()))
        ax.set_title(_plain(str(alg)), fontsize="medium")
        # label the outer panels: the left column, and any panel with none below
        if col == 0:
            ax.set_ylabel(yname)
        if k + ncols >= n:
            ax.set_xlabel(xname)
            ax.xaxis.set_tick_params(labelbottom=True)
    handles: list[Artist] = [
        Patch(
            facecolor=_REGION_COLOURS[0],
            edgecolor="#999999",
            label=f"predicted {negative}",
        ),
        Patch(
            facecolor=_REGION_COLOURS[1],
            edgecolor="#999999",
            label=f"predicted {positive}",
        ),
        Line2D(
            [],
            [],
            linestyle="",
            marker="o",
            color=_POINT_COLOURS[0],
            label=f"{negative} class (training point)",
        ),
        Line2D(
            [],
            [],
            linestyle="",
            marker="o",
            color=_POINT_COLOURS[1],
            label=f"{positive} class (training point)",
        ),
    ]
    if crosses:
        handles.append(Line2D([], [], color="k", linewidth=1.5, label="Bayes boundary"))
    # one row of entries when four panels or more give it room, else a block
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=len(handles) if ncols >= 4 else (2 if ncols >= 2 else 1),
        fontsize="small",
    )
    fig.suptitle(_plain(group_label(boundary.dataset, boundary.cost)))
    _save(fig, path)
    return fig
