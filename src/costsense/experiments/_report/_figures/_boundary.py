"""Decision regions of several algorithms on a 2-D grid, with the Bayes boundary.

Change it when :class:`Boundary` (the runner fills it) or the regions' drawing
changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from numpy.typing import NDArray

from costsense.experiments._report._figures._style import _plain, _save, group_label

__all__ = ["Boundary", "boundary_plot"]

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
