"""Platt scaling: ``P(+|x) = sigmoid(a f(x) + b)`` fitted on out-of-fold scores.

The one calibration of a score (Platt 1999). Change it when the calibration changes.

References
----------
.. [1] J. Platt, "Probabilistic outputs for support vector machines and comparisons
   to regularized likelihood methods", Advances in Large Margin Classifiers, 1999.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, check_cv

from costsense.utils._random import draw_seed

from ._degenerate import inner_fits

__all__ = ["platt_scaling"]

FloatArray = NDArray[np.float64]


def platt_scaling(
    estimator: Any,
    X: FloatArray,
    y: NDArray[Any],
    *,
    pos_label: Any,
    cv: Any = 5,
    sample_weight: FloatArray | None = None,
    fit_params: dict[str, Any] | None = None,
    random_state: Any = None,
) -> tuple[float, float]:
    """Fit ``P(y = pos_label | x) = sigmoid(a f(x) + b)`` on out-of-fold scores.

    Each fold's clone of ``estimator`` scores the fold's rows with
    ``decision_function``; a practically unregularised logistic regression of the
    labels on those scores gives ``(a, b)`` (Platt 1999). ``cv``: a number of
    shuffled stratified folds (seeded from ``random_state``) or a splitter.
    ``sample_weight`` and ``fit_params`` (such as ``sample_cost``) are sliced.
    """
    target = (np.asarray(y) == pos_label).astype(int)
    if isinstance(cv, Integral):
        seed = draw_seed(random_state)
        folds: Any = StratifiedKFold(int(cv), shuffle=True, random_state=seed)
    else:
        folds = check_cv(cv, target, classifier=True)
    scores = np.full(X.shape[0], np.nan)
    for train, test in folds.split(X, target):
        params = {name: value[train] for name, value in (fit_params or {}).items()}
        if sample_weight is not None:
            params["sample_weight"] = sample_weight[train]
        with inner_fits():
            model = clone(estimator).fit(X[train], y[train], **params)
        score = np.asarray(model.decision_function(X[test]), dtype=np.float64)
        scores[test] = score if model.classes_[1] == pos_label else -score
    scored = ~np.isnan(scores)
    platt = LogisticRegression(C=1e6).fit(
        scores[scored, None],
        target[scored],
        sample_weight=None if sample_weight is None else sample_weight[scored],
    )
    return float(platt.coef_[0, 0]), float(platt.intercept_[0])
