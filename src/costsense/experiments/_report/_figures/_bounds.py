"""Paper 001's training error and its two bounds (Theorems 1-2) against the round.

Change it when the series saved for the theorems or their drawing change.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from costsense.experiments._report._figures._style import _plain, _save

__all__ = ["bound_plot"]

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
