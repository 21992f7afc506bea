"""The objective of LDM and CS-LDM and the base class that solves it.

Primal (Zhang & Zhou 2014; paper 002 weighs the slacks by the costs): with margins
``gamma_i = y_i w'phi(x_i)``,

    min_w  1/2 |w|^2 + lambda1 * var(gamma) - lambda2 * mean(gamma)
           + C sum_i c_i max(0, 1 - gamma_i)

where ``mean(gamma) = (1/n) sum gamma_i`` and ``var(gamma)`` is the LDM paper's
pairwise margin variance ``(1/n^2) sum_{i,j} (gamma_i - gamma_j)^2
= (2/n^2) (n sum gamma_i^2 - (sum gamma_i)^2)`` (twice the population variance;
*erratum*: paper 002's printed ``Q`` lost the minus sign of this difference).
``c_i = 1`` for LDM; ``C1`` for positives and ``C2`` for negatives (or each sample's
own cost) for CS-LDM, so CS-LDM with ``C1 = C2 = 1`` is LDM.

In ``w`` this is ``1/2 w'Aw - p'w + C sum c_i hinge`` with
``A = I + 4 lambda1 (n X'X - X'y y'X) / n^2`` and ``p = lambda2 X'y / n``.

``lambda2`` here is the weight of ``mean(gamma)`` in this primal. Paper 002's kernel
dual has the linear term ``q = -2 lambda2 K y / n`` where this primal gives
``-lambda2 K y / n``: the paper's ``lambda2`` weighs the margin mean twice as much
as ours, so the paper's ``lambda2 = v`` is ``lambda2 = 2 v`` here (its grid
``{0.1, 1, 10}`` is ``{0.2, 2, 20}``).

Linear solver (``solver="linear"``). With ``A = L L'`` and ``z_i = L^-1 x_i``,
``u = L'w`` turns the problem into a linear SVM without the margin terms,
``1/2 |u|^2 - (L^-1 p)'u + C sum c_i hinge(y_i u'z_i)``, solved by dual coordinate
descent (:func:`costsense.margin._dcd.solve_linear`); set-up ``O(n d^2 + d^3)``,
``O(n d)`` per epoch, no ``n x n`` matrix. The dual starts at ``beta = 0``, where
``u = L^-1 p``: the margin-mean term is in the starting point.

Exact kernel solver (``solver="exact"``). By the representer theorem
``w = sum a_i phi(x_i)``; the dual is
``min_beta 1/2 beta' Y G Y beta + (lambda2 Y G y / n - 1)' beta``,
``0 <= beta_i <= C c_i``, with ``G = K P^-1`` (``= K Q^+ K`` of the papers, by the
push-through identity) and ``a = P^-1 u``, ``u = lambda2 y / n + Y beta``,
``P = I + 4 lambda1 (n I - y y') K / n^2`` (eigenvalues at least 1): one LU
factorisation of ``P``, no inverse of the singular ``Q``. Dense ``n x n``,
``O(n^3)``: for moderate ``n``.

Nystroem solver (``solver="nystroem"``): ``m = n_components`` landmarks (sampled
rows or k-means centres) and ``f(x) = b(x)'v + v0`` on the kernel columns
``b(x) = K(x, landmarks)``, regularised by ``v'K_mm v`` (Williams & Seeger 2001):
scikit-learn's :class:`~sklearn.kernel_approximation.Nystroem` map followed by the
linear problem, without the SVD of ``K_mm``; then the linear solver.

Wide data (the linear kernel, ``d + 1 > n``, where ``solver="auto"`` picks
"exact"): the exact solver with ``K = XX' + 1`` solves the same problem with
``n x n`` matrices (by the push-through identity ``A^-1 Xa' = Xa' P^-1`` with
``Xa = [X, 1]``) and also sets ``coef_ = X' a`` and ``intercept_ = sum(a)``.

The intercept is a constant feature of value 1 (regularised, as liblinear's
``intercept_scaling = 1``); for kernels, a constant 1 added to the kernel.

References
----------
.. [1] T. Zhang, Z.-H. Zhou, "Large margin distribution machine", KDD 2014.
.. [2] Paper 002 of this project (cost-sensitive LDM).
.. [3] C.-J. Hsieh et al., "A dual coordinate descent method for large-scale linear
   SVM", ICML 2008.
.. [4] C. K. I. Williams, M. Seeger, "Using the Nystroem method to speed up kernel
   machines", NIPS 2001.
.. [5] K. Zhang, I. W. Tsang, J. T. Kwok, "Improved Nystroem low-rank approximation
   and error analysis", ICML 2008 (k-means landmarks).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import linalg
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import pairwise_kernels

from costsense._base import PlattClassifier
from costsense.margin._dcd import solve_dense, solve_linear
from costsense.utils._compat import Interval, StrOptions
from costsense.utils._memory import check_allocation
from costsense.utils._random import draw_seed
from costsense.utils._stack import caller_level

FloatArray = NDArray[np.float64]

__all__: list[str] = []


class _Factor:
    """``A = F F'`` for the change of variables ``u = F'w`` (``A`` symmetric PSD).

    Cholesky's ``F = L`` when ``A`` is positive definite (always for the linear
    solver, where ``A >= I``); otherwise ``F = U S^-1/2`` from the eigenvalues
    above ``sqrt(eps) max(S)``, so ``F'AF = I`` on the range of ``A`` (a Nystroem
    regulariser ``K_mm`` can be singular, and then so are the kernel columns in
    the same directions: restricting ``w`` to the range loses nothing).
    """

    def __init__(self, A: FloatArray) -> None:
        self.cholesky: FloatArray | None = None
        self.whitening: FloatArray = np.empty((0, 0))  # used without Cholesky
        try:
            self.cholesky = linalg.cholesky(A, lower=True)
        except linalg.LinAlgError:
            values, vectors = linalg.eigh(A)
            # numerically zero below sqrt(eps) of the largest (MASS::ginv's rule)
            keep = values > np.sqrt(np.finfo(float).eps) * max(values.max(), 0.0)
            self.whitening = vectors[:, keep] / np.sqrt(values[keep])

    def rows(self, B: FloatArray, intercept: bool) -> FloatArray:
        """``Z = [B, 1] F^-T``, C-contiguous (the solver's rows)."""
        k = B.shape[1]
        if self.cholesky is None:
            Z = B @ self.whitening[:k]
            if intercept:
                Z += self.whitening[k]
            return np.ascontiguousarray(Z)
        # solve in place on [B, 1]' held in Fortran order, whose transpose is Z
        Zt = np.empty((self.cholesky.shape[0], B.shape[0]), order="F")
        Zt[:k] = B.T
        if intercept:
            Zt[k] = 1.0
        Zt = linalg.solve_triangular(
            self.cholesky, Zt, lower=True, overwrite_b=True, check_finite=False
        )
        return Zt.T

    def forward(self, p: FloatArray) -> FloatArray:
        """``F^-1 p`` (``F' p`` on the range for the eigen-decomposition)."""
        if self.cholesky is None:
            return self.whitening.T @ p
        return linalg.solve_triangular(self.cholesky, p, lower=True)

    def back(self, u: FloatArray) -> FloatArray:
        """``w = F^-T u``."""
        if self.cholesky is None:
            return self.whitening @ u
        return linalg.solve_triangular(self.cholesky, u, lower=True, trans="T")


class _BaseLDM(PlattClassifier):
    """Shared fit and prediction of LDM and CS-LDM."""

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "lambda1": [Interval(Real, 0, None, closed="left")],
        "lambda2": [Interval(Real, 0, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "kernel": [StrOptions({"linear", "rbf", "poly", "sigmoid"}), callable],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef0": [Real],
        "solver": [StrOptions({"auto", "linear", "exact", "nystroem"})],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "landmarks": [StrOptions({"random", "kmeans"})],
        "exact_max_samples": [Interval(Integral, 1, None, closed="left")],
        "fit_intercept": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "probability": ["boolean"],
        "cv": ["cv_object"],
        "random_state": ["random_state"],
    }
    _degenerate_advice = (
        "try a larger C (the hinge losses weigh more against the margin "
        "variance), standardised features, a nonlinear kernel (kernel='rbf'), or "
        "a smaller cost"
    )

    def _fit_all(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
        sample_cost: ArrayLike | None,
    ) -> _BaseLDM:
        X, signs, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        ones = np.ones(X.shape[0])
        self._fit_solver(X, signs, c, ones if weight is None else weight)
        if self.probability:
            self.platt_ = self._fit_platt(X, signs, c, weight)
        self._check_degenerate(
            self._to_labels(self._score(X)),
            reason=None
            if self.converged_
            else f"the solver did not converge in {self.max_iter} epochs",
        )
        return self

    # ----------------------------------------------------------------- solvers
    def _chosen_solver(self, n: int, d: int) -> str:
        """Return the solver for ``n`` rows of ``d`` features (``solver="auto"``).

        For the linear kernel, the smaller of the two matrices of the same problem:
        the linear solver's ``(d + 1) x (d + 1)`` ``A`` while ``d + 1 <= n`` (``d``
        without an intercept), else the exact solver's ``n x n`` kernel matrix.
        """
        if self.solver == "linear" and self.kernel != "linear":
            raise ValueError(
                f"solver='linear' solves the linear kernel only, got "
                f"kernel={self.kernel!r}; use solver='exact' or 'nystroem' (or "
                "'auto')."
            )
        if self.solver != "auto":
            return self.solver
        if self.kernel == "linear":
            columns = d + 1 if self.fit_intercept else d
            return "linear" if columns <= n else "exact"
        return "exact" if n <= self.exact_max_samples else "nystroem"

    def _seed(self) -> int:
        return draw_seed(self.random_state)

    def _fit_solver(
        self, X: FloatArray, y: FloatArray, c: FloatArray, weight: FloatArray
    ) -> None:
        """Solve with hinge weights ``C c_i w_i``; ``w`` weighs the margins too.

        Samples whose hinge weight is 0 (zero weight or zero cost) cannot affect
        the solution and would stall the stopping rule: they are left out.
        """
        upper = self.C * c * weight
        if np.any(upper <= 0):
            keep = upper > 0
            X, y, c, weight, upper = (a[keep] for a in (X, y, c, weight, upper))
        n = X.shape[0]
        stale_names = (
            "coef_",
            "intercept_",
            "alpha_",
            "X_fit_",
            "gamma_",
            "landmarks_",
        )
        for stale in stale_names:
            self.__dict__.pop(stale, None)  # a refit with another solver sets others
        self.solver_ = self._chosen_solver(n, X.shape[1])
        seed = self._seed()
        if self.solver_ == "exact":
            self._fit_exact(X, y, upper, weight, seed)
        elif self.solver_ == "nystroem":
            check_allocation(
                (n, min(self.n_components, n)),
                owner=type(self).__name__,
                what="solver='nystroem' (the kernel columns K(X, landmarks), one "
                "row per sample, one column per landmark)",
                fix="Lower n_components.",
            )
            self.gamma_ = self._gamma(X)
            self.landmarks_ = self._choose_landmarks(X, weight, seed)
            self._fit_linear(
                self._raw_kernel(X, self.landmarks_),
                y,
                upper,
                weight,
                seed,
                regulariser=self._raw_kernel(self.landmarks_, self.landmarks_),
            )
        else:
            self._fit_linear(X, y, upper, weight, seed)
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} did not converge in {self.max_iter} epochs "
                f"(tol={self.tol}); raise max_iter, or tol, and compare baselines "
                "at the same settings.",
                ConvergenceWarning,
                stacklevel=caller_level(),
            )

    def _fit_linear(
        self,
        B: FloatArray,
        y: FloatArray,
        upper: FloatArray,
        weight: FloatArray,
        seed: int,
        regulariser: FloatArray | None = None,
    ) -> None:
        """Solve ``1/2 v'Rv + margin terms + hinge`` on the columns ``B`` by DCD.

        ``R`` is the identity (linear solver, ``B = X``) or ``K_mm`` (Nystroem
        solver, ``B = K(X, landmarks)``). The intercept is one more column of ones
        with regulariser 1. Sample weights weigh the margin mean and variance as
        repeated rows would. Work: one symmetric ``n d^2`` product for the Gram
        matrix, one triangular solve for the rows ``Z``, the rest ``O(d^3)``.
        """
        k = B.shape[1]
        d = k + 1 if self.fit_intercept else k
        if regulariser is None:
            n = B.shape[0]
            check_allocation(
                (d, d),
                owner=type(self).__name__,
                what="solver='linear' (the matrix A of the change of variables, one "
                "row and column per feature and the intercept)",
                fix=f"Use solver='auto' or 'exact': for the linear kernel they solve "
                f"the same problem with the {n:,} x {n:,} kernel matrix; or fewer "
                "features.",
            )
        # B'WB as (W^1/2 B)'(W^1/2 B): numpy's symmetric rank-k update (syrk); no
        # copy of B when the weights are all 1
        scaled = B if np.all(weight == 1.0) else B * np.sqrt(weight)[:, None]
        gram = np.empty((d, d))
        gram[:k, :k] = scaled.T @ scaled
        del scaled
        Xy = np.empty(d)
        Xy[:k] = B.T @ (weight * y)
        if self.fit_intercept:
            gram[:k, k] = gram[k, :k] = B.T @ weight
            gram[k, k] = weight.sum()
            Xy[k] = weight @ y
        n = float(weight.sum())
        A = (4.0 * self.lambda1 / n**2) * (n * gram - np.outer(Xy, Xy))
        if regulariser is None:
            A[np.diag_indices(d)] += 1.0
        else:
            A[:k, :k] += regulariser
            if self.fit_intercept:
                A[k, k] += 1.0
        p = (self.lambda2 / n) * Xy
        factor = _Factor(A)
        Z = factor.rows(B, self.fit_intercept)
        beta, u, n_iter, converged, objective = solve_linear(
            Z,
            y,
            upper,
            factor.forward(p),
            tol=self.tol,
            max_iter=self.max_iter,
            seed=seed,
        )
        w = factor.back(u)
        self.dual_coef_ = beta
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.dual_objective_ = objective
        self.coef_ = w[:k]
        self.intercept_ = float(w[k]) if self.fit_intercept else 0.0
        # w'Aw = |u|^2 and [B, 1] w = Z u
        margins = y * (Z @ u)
        self.objective_ = float(
            0.5 * u @ u - p @ w + np.sum(upper * np.maximum(0.0, 1.0 - margins))
        )

    def _choose_landmarks(
        self, X: FloatArray, weight: FloatArray, seed: int
    ) -> FloatArray:
        """Nystroem landmarks: distinct rows sampled uniformly, or k-means centres.

        ``landmarks="kmeans"`` (Zhang, Tsang & Kwok 2008): Lloyd's k-means
        (scikit-learn's KMeans, one run, weighted by ``sample_weight``) started
        from the uniform sample, so it refines the "random" landmarks.
        """
        n = X.shape[0]
        m = min(self.n_components, n)
        rng = np.random.default_rng(seed)
        sample = np.unique(X[rng.choice(n, size=m, replace=False)], axis=0)
        if self.landmarks == "random" or sample.shape[0] == n:
            return sample
        kmeans = KMeans(n_clusters=sample.shape[0], init=sample, n_init=1)
        return kmeans.fit(X, sample_weight=weight).cluster_centers_

    def _gamma(self, X: FloatArray) -> float:
        if self.gamma == "scale":
            variance = X.var()
            return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        return float(self.gamma)

    def _raw_kernel(self, X: FloatArray, Y: FloatArray) -> FloatArray:
        if callable(self.kernel):
            return np.asarray(self.kernel(X, Y), dtype=np.float64)
        params: dict[str, Any] = {}
        if self.kernel in ("rbf", "poly", "sigmoid"):
            params["gamma"] = self.gamma_
        if self.kernel in ("poly", "sigmoid"):
            params["coef0"] = self.coef0
        if self.kernel == "poly":
            params["degree"] = self.degree
        return pairwise_kernels(X, Y, metric=self.kernel, **params)

    def _kernel(self, X: FloatArray, Y: FloatArray) -> FloatArray:
        """Return the kernel plus 1 for the intercept (exact solver)."""
        K = self._raw_kernel(X, Y)
        return K + 1.0 if self.fit_intercept else K

    def _fit_exact(
        self,
        X: FloatArray,
        y: FloatArray,
        upper: FloatArray,
        weight: FloatArray,
        seed: int,
    ) -> None:
        rows, columns = X.shape
        linear = self.kernel == "linear"
        if not linear:
            fix = "Use solver='nystroem' (n_components landmarks), or fewer samples."
        elif columns + 1 <= rows:
            fix = (
                "Use solver='linear' (or 'auto'): for the linear kernel it solves the "
                f"same problem with a {columns + 1:,} x {columns + 1:,} matrix."
            )
        else:
            fix = (
                "Use fewer samples or features: solver='linear' would need a "
                f"{columns + 1:,} x {columns + 1:,} matrix, larger still."
            )
        check_allocation(
            (rows, rows),
            owner=type(self).__name__,
            what="solver='exact' (the kernel matrix, one row and column per sample)",
            fix=fix,
        )
        n = float(weight.sum())
        wy = weight * y
        c = 4.0 * self.lambda1 / n**2
        if not linear:  # the linear kernel has no coefficient (and X.var() copies X)
            self.gamma_ = self._gamma(X)
        K = self._kernel(X, X)
        K = 0.5 * (K + K.T)
        Kwy = K @ wy
        # P = I + c C K with the weighted centring C = n diag(w) - wy wy', built
        # without forming C; G = K P^-1 = P^-T K (G is symmetric)
        P = c * (n * weight[:, None] * K - np.outer(wy, Kwy))
        P[np.diag_indices_from(P)] += 1.0
        lu = linalg.lu_factor(P, overwrite_a=True, check_finite=False)
        G = linalg.lu_solve(lu, K, trans=1, check_finite=False)
        G = 0.5 * (G + G.T)
        H = (y[:, None] * G) * y[None, :]
        g = (self.lambda2 / n) * y * (G @ wy) - 1.0
        del G
        beta, n_iter, converged, objective = solve_dense(
            H, g, upper, tol=self.tol, max_iter=self.max_iter, seed=seed
        )
        u = (self.lambda2 / n) * wy + y * beta
        # Any a with Q a = K u gives the same function; a = P^-1 u is one
        # (Q = K P), with no pseudo-inverse of the possibly singular K.
        a = linalg.lu_solve(lu, u, check_finite=False)
        self.X_fit_ = X
        self.dual_coef_ = beta
        self.alpha_ = a
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.dual_objective_ = objective
        Ka = K @ a
        # a'Qa = a'Ka + c (Ka)'C(Ka), in O(n^2)
        quadratic = a @ Ka + c * (n * np.sum(weight * Ka**2) - (wy @ Ka) ** 2)
        self.objective_ = float(
            0.5 * quadratic
            - (self.lambda2 / n) * (wy @ Ka)
            + np.sum(upper * np.maximum(0.0, 1.0 - y * Ka))
        )
        if self.kernel == "linear" and not callable(self.kernel):
            w = X.T @ a
            self.coef_ = w
            self.intercept_ = float(a.sum()) if self.fit_intercept else 0.0

    # --------------------------------------------------------------- predicting
    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: the solver's iterations and convergence."""
        return {"n_iter": int(np.max(self.n_iter_)), "converged": bool(self.converged_)}

    def _score(self, X: FloatArray) -> FloatArray:
        if self.solver_ == "exact":
            return self._kernel(X, self.X_fit_) @ self.alpha_
        if self.solver_ == "nystroem":
            return self._raw_kernel(X, self.landmarks_) @ self.coef_ + self.intercept_
        return X @ self.coef_ + self.intercept_
