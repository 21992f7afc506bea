"""CS-SVM: scikit-learn's SVMs with cost-weighted slacks, under costsense's cost API.

The cost-sensitive SVM of Brefeld et al. (2003), paper 002's baseline,
``min 1/2 |w|^2 + C sum_i c_i xi_i``, is scikit-learn's LinearSVC or SVC fitted with
``sample_weight = c``.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.svm import SVC, LinearSVC

from costsense._base import PlattClassifier
from costsense.utils._compat import Interval, StrOptions, _fit_context
from costsense.utils._docstrings import shared

FloatArray = NDArray[np.float64]

__all__ = ["CSSVMClassifier"]


@shared
class CSSVMClassifier(PlattClassifier):
    """Cost-sensitive SVM: scikit-learn's LinearSVC or SVC with cost weights.

    Parameters
    ----------
    C : float, default=1.0
        Weight of the hinge losses; sample ``i``'s is ``C c_i``.
    kernel : {"linear", "rbf", "poly", "sigmoid"}, default="linear"
        "linear" uses LinearSVC (liblinear, hinge loss, dual coordinate descent);
        the others SVC (libsvm).
    gamma : "scale" or float, default="scale"
        SVC's kernel coefficient.
    degree : int, default=3
        Degree of the poly kernel.
    coef0 : float, default=0.0
        Constant of the poly and sigmoid kernels.
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`); None or "balanced": balanced
        costs; "unit": every error costs 1. Each row's hinge loss weighs ``C``
        times its cost (see ``cost_unit``).
    {cost_unit}
    fit_intercept : bool, default=True
        LinearSVC's intercept (SVC always has one).
    tol : float, default=1e-3
        Stopping tolerance of the solver.
    max_iter : int, default=100_000
        Iteration cap of LinearSVC (epochs) and SVC (a ConvergenceWarning when
        reached). Higher than scikit-learn's 1000, which overlapping classes
        exceed at ``C=1``; lower it only to bound the time of a fit.
    {platt}
    random_state : int, RandomState instance or None, default=None
        Seeds the solver and the Platt folds.

    Attributes
    ----------
    {classes_}
    {pos_label_}
    {cost_matrix_}
    costs_ : tuple of float
        ``(C1, C2)``.
    estimator_ : LinearSVC or SVC
        The fitted scikit-learn model (trained on labels -1 / +1, +1 positive).
    n_iter_ : int
        Iterations the solver ran.
    platt_ : tuple of float
        ``(a, b)`` of ``P(+|x) = sigmoid(a f(x) + b)`` (``probability=True``).
    {fitted}

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.margin import CSSVMClassifier
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = CSSVMClassifier(cost=10, random_state=0).fit(X, y)
    >>> type(model.estimator_).__name__
    'LinearSVC'
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "kernel": [StrOptions({"linear", "rbf", "poly", "sigmoid"})],
        "gamma": [
            StrOptions({"scale", "auto"}),
            Interval(Real, 0, None, closed="neither"),
        ],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef0": [Real],
        "cost": "no_validation",
        "pos_label": "no_validation",
        "cost_unit": [StrOptions({"given", "cheaper"})],
        "fit_intercept": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "probability": ["boolean"],
        "cv": ["cv_object"],
        "random_state": ["random_state"],
    }
    _degenerate_advice = (
        "try a larger C (fewer margin violations allowed), standardised "
        "features, a nonlinear kernel (kernel='rbf'), or a smaller cost"
    )

    def __init__(
        self,
        *,
        C: float = 1.0,
        kernel: str = "linear",
        gamma: Any = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        cost: Any = None,
        pos_label: Any = None,
        cost_unit: str = "given",
        fit_intercept: bool = True,
        tol: float = 1e-3,
        max_iter: int = 100_000,
        probability: bool = False,
        cv: Any = 5,
        random_state: Any = None,
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.cost = cost
        self.pos_label = pos_label
        self.cost_unit = cost_unit
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.probability = probability
        self.cv = cv
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> CSSVMClassifier:
        """Fit the SVM with ``sample_weight = c_i`` (times ``sample_weight``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies the cost weights.
        sample_cost : array-like or ExampleCosts, default=None
            Per-row costs in any layout of :mod:`costsense.costs`, used per row
            (each row's reduction weights its hinge loss); replace ``cost``.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, signs, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        if self.kernel == "linear":
            model: Any = LinearSVC(
                C=self.C,
                loss="hinge",
                dual=True,
                tol=self.tol,
                max_iter=self.max_iter,
                fit_intercept=self.fit_intercept,
                random_state=self.random_state,
            )
        else:
            model = SVC(
                C=self.C,
                kernel=self.kernel,
                gamma=self.gamma,
                degree=self.degree,
                coef0=self.coef0,
                tol=self.tol,
                max_iter=self.max_iter,
                random_state=self.random_state,
            )
        weights = c if weight is None else c * weight
        self.estimator_ = model.fit(X, signs, sample_weight=weights)
        if self.probability:
            # our own Platt scaling: SVC's ``probability`` is deprecated in
            # scikit-learn 1.9
            self.platt_ = self._fit_platt(X, signs, c, weight)
        self.n_iter_ = int(np.max(self.estimator_.n_iter_))
        self._check_degenerate(self._to_labels(self._score(X)))
        return self

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: the solver's iterations, below ``max_iter``."""
        return {"n_iter": self.n_iter_, "converged": self.n_iter_ < self.max_iter}

    def _score(self, X: FloatArray) -> FloatArray:
        return np.asarray(self.estimator_.decision_function(X), dtype=np.float64)
