"""Staged curves: mean cost per sample against the boosting stage, test and train.

Change it when the curves' averaging, the flat-curve rule or their drawing changes.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from numpy.typing import NDArray

from costsense.experiments._report._figures._style import _plain, _save, group_label

__all__ = ["average_curves", "curve_plot", "is_flat"]

#: A curve is flat when its spread is at most this fraction of its largest value.
_FLAT_RTOL = 1e-6
_FLAT_ATOL = 1e-12
#: The y range of a curve plot spans at least this fraction of its largest value...
_MIN_Y_SPAN = 0.1
#: ...and at least this much (mean cost per sample).
_MIN_Y_SPAN_ABS = 1e-3
#: Markers that tell apart the curves of more than ten algorithms.
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


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
