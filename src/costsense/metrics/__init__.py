"""Metrics of cost-sensitive and imbalanced classification, and their scorers.

Every metric is a plain function of ``(y_true, y_pred)`` (or of scores, for the AUC)
returning a Python float. Costs are given as in :mod:`costsense.costs` (``cost`` or
``sample_cost``); the positive class of a binary metric is the minority class of
``y_true`` unless ``pos_label`` names it, as everywhere in costsense. Where
scikit-learn computes a metric with the same definition, it is called.

**Names.** A binary metric with costsense's positive class carries the ``binary_``
prefix (:func:`binary_recall_score` ...): scikit-learn's ``recall_score`` of the same
name scores ``pos_label=1``, which on labels ``{0, 1}`` with 0 the minority would
silently give the other class's score. :func:`balanced_accuracy_score` and
:func:`cohen_kappa_score` have no positive class and keep scikit-learn's names.

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   decision trees", Expert Systems with Applications 42(19), 2015 (savings).
.. [3] M. Kubat, S. Matwin, "Addressing the curse of imbalanced training sets:
   one-sided selection", ICML 1997 (G-mean).

Examples
--------
>>> from costsense.metrics import binary_recall_score, misclassification_cost
>>> y_true = [0, 0, 0, 1, 1]
>>> y_pred = [0, 1, 0, 0, 1]
>>> binary_recall_score(y_true, y_pred)  # positive: 1, the minority
0.5
>>> misclassification_cost(y_true, y_pred, cost=5)  # 1 FN x 5 + 1 FP x 1
6.0
"""

from __future__ import annotations

import dis
import sys
from difflib import get_close_matches
from typing import Any

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


def __getattr__(name: str) -> Any:
    """Refuse an unknown name, naming the metrics close to it.

    ``from costsense.metrics import name`` gets an ImportError (Python would
    replace an AttributeError's text by its own, the hint lost); ``getattr``
    and ``hasattr`` an AttributeError, as for any module.
    """
    public = not name.startswith("_")
    close = [n for n in __all__ if public and name in n]
    close = close or get_close_matches(name, __all__, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    message = f"costsense.metrics has no {name!r}{hint}"
    caller = sys._getframe(1)
    if close and caller.f_code.co_code[caller.f_lasti] == dis.opmap["IMPORT_FROM"]:
        raise ImportError(message, name=__name__)
    raise AttributeError(message)
