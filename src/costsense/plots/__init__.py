"""Pictures of cost-sensitive decisions, in the style of scikit-learn's displays.

Each display computes its arrays in ``from_predictions`` (or ``from_estimator``),
keeps them as attributes and draws them with ``plot(ax=None, ...)``, which returns
the display with ``ax_``, ``figure_`` and ``line_`` (or ``bars_``). matplotlib
(the ``experiments`` extra) is imported only when a display is drawn.

- :class:`CostCurveDisplay`: Drummond and Holte's cost curves (binary, class costs).
- :class:`SavingsCurveDisplay`: the money saved against the threshold, or against
  the share of rows acted on (a capacity).
- :class:`CostBreakdownDisplay`: a decision's cost by outcome, per model.
"""

from __future__ import annotations

from ._breakdown import CostBreakdownDisplay
from ._cost_curve import CostCurveDisplay
from ._savings import SavingsCurveDisplay

__all__ = ["CostBreakdownDisplay", "CostCurveDisplay", "SavingsCurveDisplay"]
