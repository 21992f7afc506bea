"""Dual coordinate descent for box-constrained quadratic duals (liblinear's method).

Two solvers share one update rule: for a coordinate ``i`` with gradient ``G_i`` and
curvature ``Q_ii``, ``beta_i <- clip(beta_i - G_i / Q_ii, 0, upper_i)`` (Hsieh et al.
2008, Algorithm 1), coordinates visited in a fresh random order each epoch, and the
stopping rule on the spread of the projected gradient, ``max PG - min PG < tol``
(liblinear's rule). Inactive coordinates are shrunk as in liblinear: a coordinate at
a bound whose gradient points out of the box by more than the previous epoch's
extreme projected gradient is skipped until the next full check.

- :func:`solve_linear`: the dual of ``min_w 1/2 |w|^2 - p'w + sum U_i hinge(y_i w'x_i)``
  in the (already transformed) features ``Z``; it keeps ``u = p + Z' Y beta`` so an
  update costs ``O(d)`` and no ``n x n`` matrix is formed. Starting from
  ``beta = 0`` gives ``u = p``: the linear term (LDM's margin mean) is in the
  starting point.
- :func:`solve_dense`: the same dual with an explicit ``(n, n)`` matrix ``H`` and
  linear term ``g``, for the exact kernel solver.

References
----------
.. [1] C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan, "A dual
   coordinate descent method for large-scale linear SVM", ICML 2008.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

__all__ = ["solve_dense", "solve_linear"]

# Let LLVM reorder sums (so the dot products and axpy loops vectorise); no other
# fast-math liberty (infinities and NaNs keep their meaning: the shrinking bounds
# start at +-inf).
_REASSOCIATE = {"reassoc", "contract"}


@njit(cache=True, fastmath=_REASSOCIATE)
def _linear_epochs(
    Z: FloatArray,
    y: FloatArray,
    upper: FloatArray,
    beta: FloatArray,
    u: FloatArray,
    tol: float,
    max_iter: int,
    seed: int,
    objective: FloatArray,
) -> tuple[int, bool]:
    n, d = Z.shape
    diag = np.empty(n)
    for i in range(n):
        s = 0.0
        for k in range(d):
            s += Z[i, k] * Z[i, k]
        diag[i] = s
    np.random.seed(seed)  # noqa: NPY002 - numba's own per-thread generator
    index = np.arange(n)
    n_active = n
    pg_max_old, pg_min_old = np.inf, -np.inf
    converged = False
    epoch = 0
    while epoch < max_iter:
        for s_ in range(n_active - 1, 0, -1):  # shuffle the active coordinates
            t = np.random.randint(0, s_ + 1)  # noqa: NPY002
            index[s_], index[t] = index[t], index[s_]
        pg_max, pg_min = -np.inf, np.inf
        s_ = 0
        while s_ < n_active:
            i = index[s_]
            g = 0.0
            for k in range(d):
                g += u[k] * Z[i, k]
            g = y[i] * g - 1.0
            pg = 0.0
            shrink = False
            if beta[i] <= 0.0:
                if g > pg_max_old:
                    shrink = True
                elif g < 0.0:
                    pg = g
            elif beta[i] >= upper[i]:
                if g < pg_min_old:
                    shrink = True
                elif g > 0.0:
                    pg = g
            else:
                pg = g
            if shrink:  # liblinear: move i past the active end, look at s_ again
                n_active -= 1
                index[s_], index[n_active] = index[n_active], index[s_]
                continue
            if pg > pg_max:
                pg_max = pg
            if pg < pg_min:
                pg_min = pg
            if pg != 0.0 and diag[i] > 0.0:
                old = beta[i]
                new = old - g / diag[i]
                if new < 0.0:
                    new = 0.0
                elif new > upper[i]:
                    new = upper[i]
                delta = (new - old) * y[i]
                if delta != 0.0:
                    beta[i] = new
                    for k in range(d):
                        u[k] += delta * Z[i, k]
            s_ += 1
        # dual objective (minimisation form, up to the constant -|p|^2 / 2)
        value = 0.0
        for k in range(d):
            value += u[k] * u[k]
        objective[epoch] = 0.5 * value - beta.sum()
        epoch += 1
        if pg_max - pg_min < tol:
            if n_active == n:
                converged = True
                break
            # unshrink and check once more on every coordinate (liblinear)
            n_active = n
            pg_max_old, pg_min_old = np.inf, -np.inf
            continue
        pg_max_old = pg_max if pg_max > 0 else np.inf
        pg_min_old = pg_min if pg_min < 0 else -np.inf
    return epoch, converged


def solve_linear(
    Z: FloatArray,
    y: FloatArray,
    upper: FloatArray,
    p: FloatArray,
    *,
    tol: float = 1e-3,
    max_iter: int = 1000,
    seed: int = 0,
) -> tuple[FloatArray, FloatArray, int, bool, FloatArray]:
    """Solve ``min_beta 1/2 |p + Z'Y beta|^2 - sum beta`` s.t. ``0 <= beta <= upper``.

    This is the dual of ``min_u 1/2 |u|^2 - p'u + sum_i upper_i max(0, 1 - y_i u'z_i)``
    whose solution is ``u = p + sum_i beta_i y_i z_i``.
    """
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    beta = np.zeros(Z.shape[0])
    u = np.array(p, dtype=np.float64, copy=True)
    objective = np.empty(max_iter)
    n_iter, converged = _linear_epochs(
        Z,
        np.asarray(y, dtype=np.float64),
        np.asarray(upper, dtype=np.float64),
        beta,
        u,
        float(tol),
        int(max_iter),
        int(seed),
        objective,
    )
    offset = 0.5 * float(np.dot(p, p))
    return beta, u, int(n_iter), bool(converged), objective[:n_iter] - offset


@njit(cache=True, fastmath=_REASSOCIATE)
def _dense_epochs(
    H: FloatArray,
    g0: FloatArray,
    upper: FloatArray,
    beta: FloatArray,
    grad: FloatArray,
    tol: float,
    max_iter: int,
    seed: int,
    objective: FloatArray,
) -> tuple[int, bool]:
    n = H.shape[0]
    np.random.seed(seed)  # noqa: NPY002 - numba's own per-thread generator
    converged = False
    epoch = 0
    while epoch < max_iter:
        order = np.random.permutation(n)  # noqa: NPY002
        pg_max, pg_min = -np.inf, np.inf
        for s_ in range(n):
            i = order[s_]
            g = grad[i]
            if beta[i] <= 0.0:
                pg = g if g < 0.0 else 0.0
            elif beta[i] >= upper[i]:
                pg = g if g > 0.0 else 0.0
            else:
                pg = g
            if pg > pg_max:
                pg_max = pg
            if pg < pg_min:
                pg_min = pg
            if pg != 0.0 and H[i, i] > 0.0:
                old = beta[i]
                new = old - g / H[i, i]
                if new < 0.0:
                    new = 0.0
                elif new > upper[i]:
                    new = upper[i]
                delta = new - old
                if delta != 0.0:
                    beta[i] = new
                    for k in range(n):  # H is symmetric: read row i, in order
                        grad[k] += delta * H[i, k]
        value = 0.0
        for i in range(n):
            value += beta[i] * (0.5 * (grad[i] - g0[i]) + g0[i])
        objective[epoch] = value
        epoch += 1
        if pg_max - pg_min < tol:
            converged = True
            break
    return epoch, converged


def solve_dense(
    H: FloatArray,
    g: FloatArray,
    upper: FloatArray,
    *,
    tol: float = 1e-3,
    max_iter: int = 1000,
    seed: int = 0,
) -> tuple[FloatArray, int, bool, FloatArray]:
    """Solve ``min_beta 1/2 beta'H beta + g'beta`` s.t. ``0 <= beta <= upper``."""
    H = np.ascontiguousarray(H, dtype=np.float64)
    g = np.asarray(g, dtype=np.float64)
    beta = np.zeros(H.shape[0])
    grad = g.copy()
    objective = np.empty(max_iter)
    n_iter, converged = _dense_epochs(
        H,
        g,
        np.asarray(upper, dtype=np.float64),
        beta,
        grad,
        float(tol),
        int(max_iter),
        int(seed),
        objective,
    )
    return beta, int(n_iter), bool(converged), objective[:n_iter]
