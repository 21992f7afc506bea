"""The report's figures, in one style: small panels on a grid, saved as PNG.

Drawn without pyplot state, written atomically; a new kind gets its own function.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator
from numpy.typing import NDArray

from costsense.experiments._outputs import write_atomically
from costsense.experiments._report._tables import Summary
from costsense.experiments._stats import best_mask

#: Draws text as written: a ``$`` in a name is a dollar sign, not mathtext.
_PLAIN = matplotlib.rc_context({"text.parse_math": False})
#: A dot chart's dots and bars, and its n/a where a value is missing.
_DOT = {"fmt": "o", "markersize": 5, "capsize": 2, "elinewidth": 1.0}
_NA = {"va": "center", "fontsize": "x-small", "color": "#6b6b6b"}
#: Markers that tell apart the curves of more than ten algorithms.
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_REGION_COLOURS = ("#d6e4f0", "#f6d5d0")  # negative, positive
_POINT_COLOURS = ("#1f4e79", "#a3271a")


def _save(fig: Figure, path: Path) -> Figure:
    """Write a figure as PNG under a temporary name renamed to ``path`` (no link)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    write_atomically(path, buffer.getvalue(), root=path.parent)
    return fig


def _grid(
    n: int, ncols: int, size: tuple[float, float], **share: Any
) -> tuple[Figure, NDArray[Any]]:
    """Make a figure of ``n`` panels in rows of ``ncols`` (the spare ones hidden)."""
    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(-(-n // ncols), ncols, squeeze=False, **share)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes


def group_label(dataset: str, cost: str) -> str:
    """Label a (dataset, cost) group: ``"pima, cost 5"`` (the cost is named)."""
    return f"{dataset}, cost {cost}"


@_PLAIN
def dot_chart(
    summary: Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    path: Path,
    *,
    lower_is_better: bool | None = None,
    baseline: str | None = None,
) -> Figure:
    """Draw a metric's mean and std per (dataset, cost), or its ratio to a baseline."""
    values, best, xlabel = summary.means, None, metric
    errors: NDArray[np.float64] | None = summary.stds
    title = f"{metric}: mean (dot) and std (bar) over repeats x folds"
    if baseline is not None:
        keep = [j for j, a in enumerate(algorithms) if a != baseline]
        base = summary.means[:, list(algorithms).index(baseline)]
        with np.errstate(divide="ignore", invalid="ignore"):
            values = summary.means[:, keep] / base[:, None]
        values[~np.isfinite(values)] = np.nan
        errors, algorithms = None, [algorithms[j] for j in keep]
        xlabel = f"/ {baseline}"
        title = (
            f"{metric} of each algorithm divided by {baseline}'s (line: 1, the same)"
        )
    elif lower_is_better is not None:
        best = best_mask(values, lower_is_better=lower_is_better)
        how = "lower" if lower_is_better else "higher"
        title += f"\nfilled: the best of its panel ({how} is better)"
    n_groups, n_alg = values.shape
    ncols = min(n_groups, 4 if n_groups <= 12 else 6)
    nrows = -(-n_groups // ncols)
    width = max(6.0, 0.1 * max(map(len, algorithms), default=4) + 2.6 * ncols)
    size = (width, (0.9 + 0.2 * max(n_alg, 1)) * nrows + 0.7)
    fig, grid = _grid(n_groups, ncols, size, sharey=True)
    axes = grid.ravel()
    for i, (ax, (ds, cost)) in enumerate(zip(axes, rows, strict=False)):
        for j in range(n_alg):
            if np.isnan(values[i, j]):
                ax.text(0.02, j, "n/a", transform=ax.get_yaxis_transform(), **_NA)
                continue
            filled = best is None or bool(best[i, j])
            colour = "#1f3b73" if filled else "#6b6b6b"
            face = colour if filled else "white"
            xerr = None if errors is None else np.nan_to_num(errors[i])[j]
            ax.errorbar(
                values[i, j], j, xerr=xerr, color=colour, markerfacecolor=face, **_DOT
            )
        if baseline is not None:
            ax.axvline(1.0, color="black", linewidth=0.8)
        ax.margins(x=0.08)  # no dot or bar end on the frame
        ax.grid(True, axis="y", linewidth=0.4, alpha=0.5)
        ax.grid(True, axis="x", linewidth=0.3, alpha=0.3)
        ax.set_title(group_label(ds, cost), fontsize="medium")
        ax.set_xlabel(xlabel, fontsize="small")
        ax.tick_params(axis="x", labelsize="small")
    axes[0].set_yticks(np.arange(n_alg), list(algorithms))
    axes[0].set_ylim(n_alg - 0.5, -0.5)  # first algorithm on top
    fig.suptitle(title)
    return _save(fig, path)


@_PLAIN
def curve_plot(
    curves: pd.DataFrame,
    dataset: str,
    cost: str,
    algorithms: Sequence[str],
    path: Path,
    *,
    why_constant: Mapping[str, str] | None = None,
) -> Figure:
    """Plot one setting's cost per sample by stage, mean over the fits, test | train."""
    why = why_constant or {}
    # each algorithm its colour of the cycle, of tab20 beyond ten: the same in all
    tab20 = matplotlib.colormaps["tab20"]
    colours = {
        name: f"C{k}" if len(algorithms) <= 10 else to_hex(tab20(k % tab20.N))
        for k, name in enumerate(algorithms)
    }
    keys = ["algorithm", "split", "stage"]
    frame = curves.groupby(keys, sort=True)["value"].mean().reset_index()
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
            finite = values[np.isfinite(values)]
            drawn.append(finite)
            one = len(values) == 1  # a point: invisible without a marker
            ax.plot(
                part["stage"],
                values,
                linestyle=style,
                color=colours[alg],
                label=str(alg),
                marker=_MARKERS[k % len(_MARKERS)] if many or one else None,
                markevery=max(1, len(values) // 6),
                markersize=4,
            )
            reason = why.get(alg, "")
            # flat: a spread far below one changed prediction, far above rounding
            flat = finite.size and np.ptp(finite) <= 1e-6 * np.abs(finite).max() + 1e-12
            if one or flat:
                kind = "one stage" if one else "constant"
                still.append(f"{alg} ({kind}" + (f", {reason})" if reason else ")"))
            elif reason and split == "test":
                ending.append(f"{alg} {reason}")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        notes = ["stage"]
        if still:
            notes.append("no change over the stages: " + "; ".join(still))
        if ending:
            notes.append("at the last stage, " + "; ".join(ending))
        ax.set_xlabel("\n".join(textwrap.fill(n, width=60) for n in notes))
        ax.set_title(f"{group_label(dataset, cost)}: {split}")
    # a y range of at least a tenth of the largest value and 1e-3: noise draws flat
    axes[0].ticklabel_format(axis="y", style="plain", useOffset=False)
    if drawn and (v := np.concatenate(drawn)).size:
        lo, hi = float(v.min()), float(v.max())
        floor = max(0.1 * max(abs(lo), abs(hi)), 1e-3)
        if hi - lo < floor:
            bottom = 0.5 * (lo + hi) - 0.5 * floor
            bottom = max(bottom, 0.0) if lo >= 0.0 else bottom
            axes[0].set_ylim(bottom, bottom + floor)
    axes[0].set_ylabel("mean cost per sample")
    handles, labels = axes[0].get_legend_handles_labels()
    if not handles:
        handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize="small")
    return _save(fig, path)


def bound_plot(
    series: pd.DataFrame,
    dataset: str,
    algorithms: Sequence[str],
    path: Path,
    section: Mapping[str, Any],
) -> Figure:
    """Plot a section's series (mathtext labels) by round: fits thin, mean thick."""
    panels = [a for a in algorithms if a in set(series["algorithm"])]
    fig, grid = _grid(len(panels), len(panels), (6.4 * len(panels) + 0.4, 4.8))
    fit_keys = ["cost", "repeat", "fold"]
    for ax, alg in zip(grid[0], panels, strict=True):
        mine = series[series["algorithm"] == alg]
        n_fits = mine.groupby(fit_keys).ngroups
        lines = zip(section["series"], section["labels"], strict=True)
        for k, (name, label) in enumerate(lines):
            style = ("C3-", "C0--", "C2:")[k % 3]  # colour and line style
            part = mine[mine["name"] == name]
            for _, fit in part.groupby(fit_keys):
                ax.plot(fit["stage"], fit["value"], style, linewidth=0.6, alpha=0.35)
            mean = part.groupby("stage")["value"].mean()
            ax.plot(mean.index, mean.to_numpy(), style, linewidth=2.0, label=label)
        ax.set_yscale("log", nonpositive="mask")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("round m")
        ax.set_ylabel(section["ylabel"])
        title = f"{dataset}: {alg}, {n_fits} fits (thin) and their mean (thick)"
        ax.set_title(title, parse_math=False)
        ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
    handles, labels = grid[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize="small")
    return _save(fig, path)


@dataclass
class Boundary:
    """Decision regions of several algorithms on a 2-D grid, for one setting.

    ``xx``, ``yy`` are the grid (``np.meshgrid``); ``predictions`` each
    algorithm's label in {0, 1} at the grid points (1 = positive); ``reference``
    the Bayes discriminant on the grid (its zero level is drawn) or None; ``X``,
    ``y`` the training points and labels in {0, 1}; ``cost`` the cost label.
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


@_PLAIN
def boundary_plot(boundary: Boundary, path: Path) -> Figure:
    """Draw each algorithm's decision regions, the data and the Bayes boundary."""
    xx, yy = np.asarray(boundary.xx), np.asarray(boundary.yy)
    X, y = np.asarray(boundary.X), np.asarray(boundary.y)
    n = max(len(boundary.predictions), 1)
    ncols = min(n, 5)
    size = (3.2 * ncols + 0.4, 3.2 * -(-n // ncols) + 1.0)
    fig, axes = _grid(n, ncols, size, sharex=True, sharey=True)
    reference = None if boundary.reference is None else np.asarray(boundary.reference)
    crosses = reference is not None and reference.min() < 0 < reference.max()
    for k, (alg, pred) in enumerate(boundary.predictions.items()):
        ax = axes.ravel()[k]
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
        ax.set_title(str(alg), fontsize="medium")
        if k % ncols == 0:
            ax.set_ylabel(str(boundary.feature_names[1]))
        if k + ncols >= n:  # no panel below
            ax.set_xlabel(str(boundary.feature_names[0]))
            ax.xaxis.set_tick_params(labelbottom=True)
    classes = [str(name) for name in boundary.class_names]
    handles: list[Artist] = [
        Patch(facecolor=c, edgecolor="#999999", label=f"predicted {n}")
        for c, n in zip(_REGION_COLOURS, classes, strict=True)
    ] + [
        Line2D([], [], ls="", marker="o", color=c, label=f"{n} class (training point)")
        for c, n in zip(_POINT_COLOURS, classes, strict=True)
    ]
    if crosses:
        handles.append(Line2D([], [], color="k", linewidth=1.5, label="Bayes boundary"))
    ncol = len(handles) if ncols >= 4 else (2 if ncols >= 2 else 1)
    fig.legend(
        handles=handles, loc="outside lower center", ncols=ncol, fontsize="small"
    )
    fig.suptitle(group_label(boundary.dataset, boundary.cost))
    return _save(fig, path)
