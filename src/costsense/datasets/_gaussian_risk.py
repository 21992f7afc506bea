"""The standard-normal mass of a quadratic region, for the Bayes risk.

For :meth:`~costsense.datasets.GaussianProblem.bayes_risk`: the probability that a
class's whitened ``z`` falls where ``z'Qz + b'z + c > 0``. Along a ray ``z = r u``
the region is exact (the roots of a scalar quadratic and the chi distribution of
``|z|``); the average over directions is exact for one feature, adaptive
quadrature over the angle for two (split where the boundary is tangent to a ray),
and randomised quasi-Monte Carlo over the sphere for more.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy import integrate, special
from scipy.stats import norm, qmc

FloatArray = NDArray[np.float64]

__all__: list[str] = []

#: Radius (in whitened units) beyond which a standard normal has no mass in double
#: precision for any practical dimension: gammaincc(d/2, 1e3**2/2) == 0.
_MAX_RADIUS = 1e3


def ray_mass(Q: FloatArray, b: FloatArray, c: float, U: FloatArray) -> FloatArray:
    """Standard-normal mass of ``{r >= 0: q r^2 + beta r + c > 0}`` on rays ``U``.

    ``U`` has unit rows; the radius of a standard normal in ``d`` dimensions
    (``d = U.shape[1]``) is chi-distributed, with survival function
    ``gammaincc(d/2, r^2/2)``.
    """
    d = U.shape[1]
    q = np.einsum("ij,jk,ik->i", U, Q, U)
    beta = U @ b
    disc = beta * beta - 4.0 * q * c
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        # Numerically stable roots (Press et al., Numerical Recipes, 5.6).
        half = -0.5 * (beta + np.where(beta >= 0, root, -root))
        r1 = half / q
        r2 = c / half
    real = disc >= 0
    bps = [np.zeros_like(q)]
    for r in (r1, r2):
        # Roots beyond _MAX_RADIUS bound no mass (the chi survival is 0 there
        # in double precision) and, kept, make the sign test below evaluate g
        # at a huge radius where it rounds to zero.
        ok = real & np.isfinite(r) & (r > 0) & (r < _MAX_RADIUS)
        bps.append(np.where(ok, r, np.inf))
    bps.append(np.full_like(q, np.inf))
    bp = np.sort(np.stack(bps, axis=1), axis=1)
    surv = special.gammaincc(0.5 * d, 0.5 * bp * bp)  # S(inf) = 0, S(0) = 1
    mass = np.zeros_like(q)
    for j in range(3):
        a, e = bp[:, j], bp[:, j + 1]
        with np.errstate(invalid="ignore"):
            s = 0.5 * (a + np.where(np.isinf(e), _MAX_RADIUS, e))
            positive = q * s * s + beta * s + c > 0
        width = surv[:, j] - surv[:, j + 1]
        mass += np.where(positive & np.isfinite(a), width, 0.0)
    return mass


def prob_positive(Q: FloatArray, b: FloatArray, c: float) -> tuple[float, float]:
    """Standard-normal mass of ``{z: z'Qz + b'z + c > 0}`` and its error estimate.

    Exact for one dimension (two rays), adaptive quadrature over the angle for two,
    randomised quasi-Monte Carlo over the sphere beyond (see
    :class:`~costsense.datasets.GaussianProblem`).
    """
    d = b.shape[0]
    if d == 1:
        U = np.array([[1.0], [-1.0]])
        return float(ray_mass(Q, b, c, U).mean()), 0.0
    if d == 2:
        return _prob_positive_2d(Q, b, c)
    return _prob_positive_rqmc(Q, b, c)


def _prob_positive_2d(Q: FloatArray, b: FloatArray, c: float) -> tuple[float, float]:
    def f(theta: float) -> float:
        u = np.array([[np.cos(theta), np.sin(theta)]])
        return float(ray_mass(Q, b, c, u)[0])

    # The ray integrand is analytic in the angle except where a ray is tangent to
    # the boundary (the discriminant beta^2 - 4qc, a quadratic form u'Mu, is 0)
    # or where a root passes through infinity (q = u'Qu = 0): split there.
    breaks = [0.0, 2 * np.pi]
    for M in (np.outer(b, b) - 4.0 * c * Q, Q):
        breaks.extend(_circle_zeros(M))
    edges = np.unique(np.mod(np.asarray(breaks), 2 * np.pi).tolist() + [2 * np.pi])
    total, error = 0.0, 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        if hi - lo <= 1e-15:
            continue
        value, err = integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-12, limit=200)
        total += value
        error += err
    return total / (2 * np.pi), error / (2 * np.pi)


def _prob_positive_rqmc(Q: FloatArray, b: FloatArray, c: float) -> tuple[float, float]:
    d = b.shape[0]
    estimates = []
    for seed in range(16):
        points = qmc.Sobol(d, scramble=True, seed=seed).random_base2(16)
        Z = norm.ppf(np.clip(points, 1e-16, 1 - 1e-16))
        U = Z / np.linalg.norm(Z, axis=1, keepdims=True)
        estimates.append(ray_mass(Q, b, c, U).mean())
    values = np.asarray(estimates)
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(values.size))


def _circle_zeros(M: FloatArray) -> list[float]:
    """Angles ``theta`` where ``u'Mu = 0`` for ``u = (cos theta, sin theta)``."""
    # u'Mu = A + B cos(2 theta) + C sin(2 theta)
    A = 0.5 * (M[0, 0] + M[1, 1])
    B = 0.5 * (M[0, 0] - M[1, 1])
    C = M[0, 1]
    R = float(np.hypot(B, C))
    if R == 0 or abs(A) >= R:
        return []
    phi = float(np.arctan2(C, B))
    delta = float(np.arccos(-A / R))
    angles = []
    for two_theta in (phi + delta, phi - delta):
        angles.extend([0.5 * two_theta, 0.5 * two_theta + np.pi])
    return angles
