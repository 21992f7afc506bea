"""The report's figures: bar and ratio charts, staged curves, decision regions.

The staged curves are the cost per sample against the boosting stage and, for
AdaBoost, paper 001's training error against its two bounds.

Figures are drawn on :class:`matplotlib.figure.Figure` objects directly, which need
no GUI backend and leave pyplot's global state alone; each is saved as a PNG at a
fixed resolution.

The parts, one figure kind each, on shared helpers:

- ``_style``: the resolution, text escaping, colours and group labels every
  figure shares;
- ``_dots``: the dot charts of a metric's means and of their ratios to a baseline;
- ``_curves``: the staged cost curves (and their averaging over the splits);
- ``_bounds``: paper 001's training error and its two bounds by round;
- ``_boundary``: decision regions on a 2-D grid (and :class:`Boundary`).

Change a figure in its module; a new kind gets a module of its own.
"""

from __future__ import annotations

from costsense.experiments._report._figures._boundary import Boundary, boundary_plot
from costsense.experiments._report._figures._bounds import bound_plot
from costsense.experiments._report._figures._curves import (
    average_curves,
    curve_plot,
    is_flat,
)
from costsense.experiments._report._figures._dots import dot_chart, ratio_chart
from costsense.experiments._report._figures._style import assign_colours, group_label

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
