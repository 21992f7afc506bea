"""Scorers of the metrics for scikit-learn's cross-validation and searches.

Change it when a metric needs a scorer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import make_scorer

from costsense.costs import _label_index
from costsense.metrics._auc import binary_roc_auc_score
from costsense.metrics._cost import misclassification_cost, savings_score
from costsense.metrics._rates import (
    balanced_accuracy_score,
    binary_f1_score,
    binary_precision_score,
    binary_recall_score,
    binary_specificity_score,
    cohen_kappa_score,
    g_mean_score,
)
from costsense.metrics._validation import (
    FloatArray,
    _positive,
    _refuse_balanced,
)


def _positive_score(estimator: Any, X: ArrayLike, positive: Any) -> FloatArray:
    """Score of ``positive`` from ``predict_proba``, else ``decision_function``."""
    classes = np.asarray(estimator.classes_)
    column = _label_index(classes, positive)
    if hasattr(estimator, "predict_proba"):
        return np.asarray(estimator.predict_proba(X), dtype=np.float64)[:, column]
    score = np.asarray(estimator.decision_function(X), dtype=np.float64)
    return score if column == 1 else -score


class _AUCScorer:
    """Scorer of the ROC AUC of the positive class resolved from ``y`` (minority).

    scikit-learn's ``make_scorer`` would score ``classes_[1]`` when None.
    """

    def __init__(self, pos_label: Any = None) -> None:
        self.pos_label = pos_label

    def __call__(
        self,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> float:
        y = np.asarray(y)
        positive = _positive(y, np.unique(y), self.pos_label)
        return binary_roc_auc_score(
            y,
            _positive_score(estimator, X, positive),
            pos_label=positive,
            sample_weight=sample_weight,
        )

    def __repr__(self) -> str:
        return f"make_scorers()['auc'](pos_label={self.pos_label!r})"


def make_cost_scorer(
    cost: Any = None, *, pos_label: Any = None, normalize: bool = True
) -> Callable[..., float]:
    """Scorer of the misclassification cost, for cross-validation and grid search.

    Parameters
    ----------
    cost : float, pair of floats or array-like of shape (K, K)
        Class-level costs, as in :func:`misclassification_cost`.
    pos_label : hashable, default=None
        Positive class; the minority class of each test fold's labels if None.
    normalize : bool, default=True
        Score the mean cost per sample (comparable across folds of unequal size);
        ``False`` scores the total cost of the fold.

    Returns
    -------
    callable
        A scikit-learn scorer. Its value is the *negated* cost (scikit-learn
        maximises scores), so ``-scores.mean()`` is the mean cost.

    Notes
    -----
    **Per-row costs in a search** travel with the rows by scikit-learn's metadata
    routing: enable it, request the costs with
    ``estimator.set_fit_request(sample_cost=True)`` (an estimator that uses them
    per row, :mod:`costsense.costs`) and ``scorer.set_score_request(
    sample_cost=True)``; each fold is then fitted and scored with its own rows'
    costs (``cost`` is used only when none are routed).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from costsense.metrics import make_cost_scorer
    >>> X, y = make_classification(weights=[0.8], random_state=0)
    >>> scores = cross_val_score(
    ...     LogisticRegression(), X, y, scoring=make_cost_scorer(cost=5)
    ... )
    >>> bool((scores <= 0).all())
    True

    A grid search on per-row costs (here a missed positive costs its amount, a
    false alarm 1), routed to every fold's fit and score:

    >>> import numpy as np
    >>> from sklearn import config_context
    >>> from sklearn.model_selection import GridSearchCV
    >>> from costsense.costs import example_costs
    >>> from costsense.rescale import CostWeighting
    >>> amount = np.random.RandomState(0).uniform(1, 10, size=len(y))
    >>> row_cost = example_costs(fn=amount, fp=1.0)
    >>> with config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(
    ...         CostWeighting(LogisticRegression()).set_fit_request(sample_cost=True),
    ...         {"estimator__C": [0.1, 1.0]},
    ...         scoring=make_cost_scorer(5).set_score_request(sample_cost=True),
    ...         cv=3,
    ...     ).fit(X, y, sample_cost=row_cost)
    >>> sorted(search.best_params_)
    ['estimator__C']
    >>> bool(search.best_score_ <= 0)
    True
    """
    _refuse_balanced(cost, "make_cost_scorer")
    return make_scorer(
        misclassification_cost,
        greater_is_better=False,
        cost=cost,
        pos_label=pos_label,
        normalize=normalize,
    )


def make_scorers(
    cost: Any, *, pos_label: Any = None
) -> dict[str, Callable[..., float]]:
    """Scorers of every binary metric, for ``cross_validate(scoring=...)``.

    Parameters
    ----------
    cost : float, pair of floats or array-like of shape (2, 2)
        Class-level costs for the ``cost`` and ``savings`` scorers.
    pos_label : hashable, default=None
        Positive class; the minority class of each fold's labels if None.

    Returns
    -------
    dict of str to callable
        ``cost`` (negated mean cost per sample), ``auc`` (from ``predict_proba``
        or ``decision_function``) and the other metrics by name.
    """
    by_label = {"pos_label": pos_label}
    return {
        "cost": make_cost_scorer(cost, pos_label=pos_label),
        "savings": make_scorer(savings_score, cost=cost, **by_label),
        "recall": make_scorer(binary_recall_score, **by_label),
        "precision": make_scorer(binary_precision_score, **by_label),
        "specificity": make_scorer(binary_specificity_score, **by_label),
        "g_mean": make_scorer(g_mean_score, **by_label),
        "f1": make_scorer(binary_f1_score, **by_label),
        "balanced_accuracy": make_scorer(balanced_accuracy_score),
        "kappa": make_scorer(cohen_kappa_score),
        "auc": _AUCScorer(pos_label),
    }
