"""Actions of least expected cost from any model's probabilities, within capacities.

The cost-sensitive Bayes rule of :mod:`costsense.costs` decides labels; this
package decides actions (allow / review / block) from a true class x action cost
table, within capacities per period, and measures the money the decisions save.
Every function takes probabilities, so it works with any classifier.
"""

from ._actions import ActionCosts, decide, expected_costs, no_action, realised_costs
from ._calibration import CalibrationCheck, calibration_check
from ._money import SavingsInterval, capacity_curve, cost_sensitivity, savings_interval
from ._prior import adjust_to_prior, estimate_prior_shift
from ._report import DecisionReport, decision_report

__all__ = [
    "ActionCosts",
    "CalibrationCheck",
    "DecisionReport",
    "SavingsInterval",
    "adjust_to_prior",
    "calibration_check",
    "capacity_curve",
    "cost_sensitivity",
    "decide",
    "decision_report",
    "estimate_prior_shift",
    "expected_costs",
    "no_action",
    "realised_costs",
    "savings_interval",
]
