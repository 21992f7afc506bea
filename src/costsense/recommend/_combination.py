"""The sources of an option's probabilities: one candidate, the average, the stack.

The stack is a logistic regression on the candidates' out-of-fold log-odds (more
classes: log probabilities), Wolpert (1992) and Breiman (1996); it weights the
candidates by how well they predict out of fold and calibrates the result, as
Platt scaling calibrates one model.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.linear_model import LogisticRegression

__all__ = ["AVERAGE", "STACK", "Combination", "log_features", "proba_columns"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Names of the two combinations of several candidates.
AVERAGE, STACK = "average", "stack"


def proba_columns(model: Any, X: FloatArray, n_classes: int) -> FloatArray:
    """``predict_proba`` with one column per class index ``0..n_classes-1``.

    Candidates are fitted on class indices; one fitted without some class (a fold
    that missed it) gives it probability 0.
    """
    own = np.asarray(model.predict_proba(X), dtype=np.float64)
    proba = np.zeros((own.shape[0], n_classes))
    proba[:, np.asarray(model.classes_, dtype=np.intp)] = own
    return proba


def log_features(proba: FloatArray, eps: float) -> FloatArray:
    """Stacking features of ``(m, n, K)`` candidate probabilities.

    Two classes: each candidate's log-odds of class 1; more: each candidate's log
    probabilities. Probabilities are clipped to ``[eps, 1 - eps]``.
    """
    clipped = np.clip(proba, eps, 1.0 - eps)
    if proba.shape[2] == 2:
        return (np.log(clipped[:, :, 1]) - np.log(clipped[:, :, 0])).T
    return np.log(clipped).transpose(1, 0, 2).reshape(proba.shape[1], -1)


class Combination:
    """Probabilities of one option's source: a candidate, the average, the stack.

    ``kind`` is "single" (the candidate ``index``), "average" or "stack"
    (a logistic regression on :func:`log_features`; with one class in its
    training rows, that class's probability is 1). :meth:`fit` and :meth:`combine`
    work on ``(m, n, K)`` arrays of the candidates' probabilities; once ``models``
    are set, :meth:`predict_proba` works on samples.
    """

    def __init__(self, kind: str, index: int, n_classes: int, eps: float) -> None:
        self.kind = kind
        self.index = index
        self.n_classes = n_classes
        self.eps = eps
        self.stacker: Any = None
        self.constant: FloatArray | None = None
        self.models: list[Any] = []

    def __repr__(self) -> str:
        if self.kind == "single":
            return repr(self.models[0]) if self.models else "candidate"
        names = ", ".join(type(m).__name__ for m in self.models)
        return f"{self.kind}({names})"

    def fit(self, proba: FloatArray, y: IntArray) -> Combination:
        """Fit the stacker (only ``kind="stack"`` learns anything)."""
        if self.kind != STACK:
            return self
        present = np.unique(y)
        if present.size < 2:
            self.constant = np.zeros(self.n_classes)
            self.constant[present[0]] = 1.0
            return self
        # few features (one or K per candidate): a few Newton steps converge
        self.stacker = LogisticRegression(solver="newton-cholesky", max_iter=100).fit(
            log_features(proba, self.eps), y
        )
        return self

    def combine(self, proba: FloatArray) -> FloatArray:
        """Class probabilities ``(n, K)`` from the candidates' ``(m, n, K)``."""
        if self.kind == "single":
            return proba[self.index]
        if self.kind == AVERAGE:
            return proba.mean(axis=0)
        if self.constant is not None:
            return np.tile(self.constant, (proba.shape[1], 1))
        own = self.stacker.predict_proba(log_features(proba, self.eps))
        out = np.zeros((proba.shape[1], self.n_classes))
        out[:, np.asarray(self.stacker.classes_, dtype=np.intp)] = own
        return out

    def predict_proba(self, X: FloatArray) -> FloatArray:
        """Class probabilities of samples, from the fitted ``models``."""
        if self.kind == "single":
            return proba_columns(self.models[0], X, self.n_classes)
        proba = np.stack([proba_columns(m, X, self.n_classes) for m in self.models])
        return self.combine(proba)
