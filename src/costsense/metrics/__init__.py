"""Metrics of cost-sensitive and imbalanced classification, and their scorers.

Every metric is a plain function of ``(y_true, y_pred)`` (or of scores, for the AUC)
that returns a Python float. Costs are given as in :mod:`costsense.costs`: ``cost`` a
ratio, a pair ``(C1, C2)`` or a ``(K, K)`` matrix ``cost[true, predicted]``, or
``sample_cost`` for example-dependent costs. The positive class of a binary metric
is the minority class of ``y_true`` unless ``pos_label`` names it, the same rule as
everywhere in costsense.

Where scikit-learn or imbalanced-learn already computes a metric with the same
definition (precision, recall, F-beta, balanced accuracy, Cohen's kappa, ROC AUC),
costsense calls it and only adds the positive-class convention; the cost metrics,
savings, specificity, G-mean and excess cost are computed here from the confusion
counts.

Scorers for :func:`sklearn.model_selection.cross_validate` and
:class:`~sklearn.model_selection.GridSearchCV` come from :func:`make_cost_scorer`
(the cost, to be minimised) and :func:`make_scorers` (all metrics at once).

**Names.** A binary metric whose positive class follows costsense's rule carries
the ``binary_`` prefix (:func:`binary_recall_score`, :func:`binary_precision_score`,
:func:`binary_f1_score`, :func:`binary_fbeta_score`, :func:`binary_roc_auc_score`,
:func:`binary_specificity_score`), like :func:`binary_confusion` on which they
stand. The prefix keeps them apart from scikit-learn's (and imbalanced-learn's)
``recall_score``, ``precision_score``, ``f1_score`` ..., whose positive class is
``pos_label=1``: on labels ``{0, 1}`` with 0 the minority, a function of the same
name would give the score of the other class with no error and no warning. The
minority default is the convention of every costsense estimator, cost and scorer
(the costly class of an imbalanced problem is the rare one), and ``pos_label=1``
means nothing for string labels. :func:`balanced_accuracy_score` and
:func:`cohen_kappa_score` keep scikit-learn's names because they return
scikit-learn's numbers (they have no positive class).

The package has one module per job; change the one that matches:
``_validation`` (labels, the positive class, weights), ``_cost`` (cost metrics),
``_rates`` (ratios of confusion counts), ``_auc`` (the ROC AUC) and ``_scorers``
(scikit-learn scorers).

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   decision trees", Expert Systems with Applications 42(19), 2015 (savings).
.. [3] M. Kubat, S. Matwin, "Addressing the curse of imbalanced training sets:
   one-sided selection", ICML 1997 (G-mean).

Examples
--------
The positive class is the minority class of ``y_true`` (here 1, two of five):

>>> from costsense.metrics import binary_recall_score, misclassification_cost
>>> y_true = [0, 0, 0, 1, 1]
>>> y_pred = [0, 1, 0, 0, 1]
>>> binary_recall_score(y_true, y_pred)
0.5
>>> misclassification_cost(y_true, y_pred, cost=5)  # 1 FN x 5 + 1 FP x 1
6.0
"""

from __future__ import annotations

from costsense.metrics._auc import binary_roc_auc_score
from costsense.metrics._cost import excess_cost, misclassification_cost, savings_score
from costsense.metrics._rates import (
    balanced_accuracy_score,
    binary_confusion,
    binary_f1_score,
    binary_fbeta_score,
    binary_precision_score,
    binary_recall_score,
    binary_specificity_score,
    cohen_kappa_score,
    g_mean_score,
)
from costsense.metrics._scorers import make_cost_scorer, make_scorers

__all__ = [
    "balanced_accuracy_score",
    "binary_confusion",
    "binary_f1_score",
    "binary_fbeta_score",
    "binary_precision_score",
    "binary_recall_score",
    "binary_roc_auc_score",
    "binary_specificity_score",
    "cohen_kappa_score",
    "excess_cost",
    "g_mean_score",
    "make_cost_scorer",
    "make_scorers",
    "misclassification_cost",
    "savings_score",
]
