"""OBPD's single Gaussian in more columns than rows, kept in low-rank form.

With ``n`` rows in ``D > n`` columns OBPD's model is the maximum-likelihood
Gaussian of the (standardised) rows ``z_i`` (the M-step of one component), with
``Sigma = F'F + r I``, ``F = (Z - mu) / sqrt(n)`` and ``r = reg_covar``.
:class:`LowRankGaussian` keeps ``mu`` and ``F`` only, and every use of ``Sigma``
goes through ``n x n`` matrices: exact draws ``mu + F'g + sqrt(r) h``; densities by
Woodbury's identity ``Sigma^-1 = (I - F' M^-1 F) / r`` with ``M = r I_n + F F'``
and the determinant lemma ``det Sigma = r^(D - n) det M``; the paper's Gibbs
sampling with the precision's diagonal and products in ``O(n)`` per coordinate.

References
----------
.. [1] Paper 003 of this project (OBPD-EFSBoost), algorithm 1, step 2.
.. [2] A. P. Dempster, N. M. Laird, D. B. Rubin, "Maximum likelihood from
   incomplete data via the EM algorithm", JRSS B 39(1), 1977 (the M-step).
.. [3] M. A. Woodbury, "Inverting modified matrices", Memorandum report 42,
   Statistical Research Group, Princeton University, 1950.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray
from scipy import linalg
from sklearn.base import BaseEstimator

from costsense.utils._memory import check_allocation

FloatArray = NDArray[np.float64]

__all__ = ["LowRankGaussian", "low_rank_draws", "low_rank_gibbs_draws"]

LOG_2PI = float(np.log(2.0 * np.pi))


class LowRankGaussian(BaseEstimator):
    """The maximum-likelihood Gaussian of some rows, covariance ``F'F + reg I``.

    See :mod:`costsense.sampling._lowrank`. Read like a one-component
    :class:`~sklearn.mixture.GaussianMixture` (``n_components``, ``weights_``,
    ``means_``), without its ``D x D`` arrays.

    Parameters
    ----------
    reg_covar : float, default=1e-6
        Added to the covariance's diagonal.

    Attributes
    ----------
    weights_ : ndarray of shape (1,)
        The single component's weight, 1.
    means_ : ndarray of shape (1, n_features)
        The mean of the rows.
    covariance_factor_ : ndarray of shape (n_samples, n_features)
        ``F``, the centred rows over ``sqrt(n_samples)``: the covariance is
        ``F'F + reg_covar I``.
    n_features_in_ : int
        Number of columns.
    """

    #: One component, as a fitted GaussianMixture's ``n_components`` says it.
    n_components = 1

    def __init__(self, *, reg_covar: float = 1e-6) -> None:
        self.reg_covar = reg_covar

    def fit(self, Z: FloatArray, y: Any = None) -> LowRankGaussian:
        """Fit the mean and the covariance factor."""
        Z = np.asarray(Z, dtype=np.float64)
        n, D = Z.shape
        mean = Z.mean(axis=0)
        self.weights_ = np.ones(1)
        self.means_ = mean[None, :]
        factor = Z - mean
        factor /= np.sqrt(n)
        self.covariance_factor_ = factor
        self.n_features_in_ = D
        return self

    def _small(self) -> FloatArray:
        """``M = reg I_n + F F'`` (``n x n``)."""
        F = self.covariance_factor_
        M = F @ F.T
        M[np.diag_indices_from(M)] += self.reg_covar
        return M

    def covariance(self) -> FloatArray:
        """Return the dense covariance ``F'F + reg I`` (``D x D``: small ``D`` only).

        Raises
        ------
        MemoryBudgetError
            When ``D x D`` floats exceed the machine's memory.
        """
        D = self.n_features_in_
        check_allocation(
            (D, D),
            owner=type(self).__name__,
            what="the dense covariance",
            fix="Use the low-rank form: means_, covariance_factor_ and reg_covar.",
        )
        F = self.covariance_factor_
        covariance = F.T @ F
        covariance[np.diag_indices_from(covariance)] += self.reg_covar
        return covariance

    def score_samples(self, Z: FloatArray) -> FloatArray:
        """Log density of each row (Woodbury's identity, the determinant lemma)."""
        F, r = self.covariance_factor_, self.reg_covar
        n, D = F.shape
        centred = np.asarray(Z, dtype=np.float64) - self.means_[0]
        cholesky = linalg.cholesky(self._small(), lower=True)
        # e' Sigma^-1 e = (|e|^2 - |L^-1 F e|^2) / r with M = L L'
        projected = linalg.solve_triangular(cholesky, F @ centred.T, lower=True)
        quadratic = (np.sum(centred**2, axis=1) - np.sum(projected**2, axis=0)) / r
        log_det = (D - n) * np.log(r) + 2.0 * np.sum(np.log(np.diag(cholesky)))
        return np.asarray(-0.5 * (D * LOG_2PI + log_det + quadratic))


def low_rank_draws(
    model: LowRankGaussian, n_draws: int, rng: np.random.Generator
) -> FloatArray:
    """Exact draws ``mu + F'g + sqrt(reg) h``: covariance ``F'F + reg I``."""
    F = model.covariance_factor_
    g = rng.standard_normal((n_draws, F.shape[0]))
    draws = rng.standard_normal((n_draws, F.shape[1]))
    draws *= np.sqrt(model.reg_covar)
    draws += g @ F
    draws += model.means_[0]
    return draws


def low_rank_gibbs_draws(
    model: LowRankGaussian,
    starts: FloatArray,
    n_sweeps: int,
    rng: np.random.Generator,
) -> FloatArray:
    """Run the paper's coordinate-wise Gibbs sampling of the Gaussian, a chain a row.

    The same moves as :func:`costsense.sampling._obpd.gibbs_draws` on the dense
    one-component mixture, from the same random numbers (each sweep draws one
    uniform, for the component, which one component never needs, and one normal
    per chain and coordinate, in the same order), in ``O(n D)`` per sweep and
    chain (see :mod:`costsense.sampling._lowrank`).
    """
    F = np.ascontiguousarray(model.covariance_factor_)
    W = np.ascontiguousarray(linalg.solve(model._small(), F, assume_a="pos"))
    r = float(model.reg_covar)
    precision_diagonal = (1.0 - np.einsum("ki,ki->i", F, W)) / r
    mean = np.ascontiguousarray(model.means_[0])
    x = np.array(starts, dtype=np.float64, copy=True, order="C")
    for _ in range(n_sweeps):
        rng.random(x.shape)  # the component's uniforms of the dense sweep: unused
        normals = rng.standard_normal(x.shape)
        _low_rank_sweep(x, mean, F, W, precision_diagonal, r, normals)
    return x


@njit(cache=True, nogil=True)
def _low_rank_sweep(
    x: FloatArray,
    mean: FloatArray,
    F: FloatArray,
    W: FloatArray,
    precision_diagonal: FloatArray,
    reg: float,
    normals: FloatArray,
) -> None:
    """One Gibbs sweep of every chain, in place; ``t = F (x - mu)`` kept current.

    Coordinate ``i`` given the others is ``N(x_i - (P e)_i / P_ii, 1 / P_ii)``
    with ``e = x - mu``, ``(P e)_i = (e_i - W_i't) / reg``; moving ``x_i`` by
    ``delta`` adds ``delta F_i`` to ``t``, recomputed at every sweep's start.
    """
    n_chains, D = x.shape
    k = F.shape[0]
    t = np.empty(k)
    for c in range(n_chains):
        t[:] = 0.0
        for j in range(D):
            e = x[c, j] - mean[j]
            for a in range(k):
                t[a] += F[a, j] * e
        for i in range(D):
            e = x[c, i] - mean[i]
            projected = 0.0
            for a in range(k):
                projected += W[a, i] * t[a]
            p_ii = precision_diagonal[i]
            residual = (e - projected) / reg
            new = x[c, i] - residual / p_ii + normals[c, i] / np.sqrt(p_ii)
            delta = new - x[c, i]
            for a in range(k):
                t[a] += delta * F[a, i]
            x[c, i] = new
