"""Full-covariance Gaussian mixtures in numpy, for OBPD's component searches.

EM runs started from given parameters and stopped early, for many component counts
on the same rows (:func:`costsense.sampling._split.split_search`) or one component
at a time (Figueiredo & Jain's CEM^2, :mod:`costsense.sampling._fj`): the fitted
mixture (:class:`MixtureFit`), EM, the information criteria and the conversion to
scikit-learn's :class:`~sklearn.mixture.GaussianMixture`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sklearn.mixture import GaussianMixture

from costsense.sampling._quadratic import (
    QuadraticFeatures,
    density_coefficients,
    log_normalise,
    moments,
)

FloatArray = NDArray[np.float64]

__all__: list[str] = []


# ------------------------------------------------------------------ EM
@dataclass(frozen=True)
class MixtureFit:
    """A fitted full-covariance Gaussian mixture.

    Attributes
    ----------
    weights : ndarray of shape (k,)
    means : ndarray of shape (k, d)
    covariances : ndarray of shape (k, d, d)
    log_likelihood : float
        ``sum_i log sum_k pi_k N(z_i | mu_k, Sigma_k)`` on the rows it was fitted to.
    n_iter : int
        EM iterations run (for the last count of a search).
    converged : bool
        Whether the last EM run met its tolerance.
    """

    weights: FloatArray
    means: FloatArray
    covariances: FloatArray
    log_likelihood: float
    n_iter: int = 0
    converged: bool = True

    @property
    def n_components(self) -> int:
        """Number of components."""
        return int(self.weights.size)


def n_parameters(n_components: int, n_features: int) -> int:
    """Free parameters of a full-covariance mixture: ``k - 1 + k (d + d(d+1)/2)``."""
    d = n_features
    return n_components - 1 + n_components * (d + d * (d + 1) // 2)


def criterion(fit: MixtureFit, n_samples: int, n_features: int, kind: str) -> float:
    """Return AIC, ``-2 log L + 2 p`` (Akaike 1974), or BIC, ``-2 log L + p log n``.

    BIC is Schwarz's (1978).

    ``p`` is :func:`n_parameters`; the same values as scikit-learn's
    :meth:`~sklearn.mixture.GaussianMixture.aic` and ``bic``.
    """
    p = n_parameters(fit.n_components, n_features)
    penalty = 2.0 * p if kind == "aic" else p * np.log(n_samples)
    return float(-2.0 * fit.log_likelihood + penalty)


def expectation_maximisation(
    features: QuadraticFeatures,
    weights: FloatArray,
    means: FloatArray,
    covariances: FloatArray,
    *,
    reg_covar: float,
    tol: float = 1e-3,
    max_iter: int = 100,
) -> MixtureFit:
    """EM for a full-covariance Gaussian mixture from given parameters.

    Each iteration is an E-step, ``r_ik = pi_k N(z_i | theta_k) / sum_j pi_j
    N(z_i | theta_j)``, and the M-step of :func:`moments` with ``pi_k = n_k / n``
    (Dempster, Laird & Rubin 1977). It stops, as scikit-learn's does, when the mean
    log-likelihood per row changes by less than ``tol``, or after ``max_iter``
    M-steps; the parameters returned are those whose log-likelihood is returned.
    """
    n = features.n_samples
    previous = -np.inf
    n_iter, converged = 0, False
    while True:
        log_joint = features.dot(density_coefficients(means, covariances))
        log_norm, responsibilities = log_normalise(log_joint + np.log(weights))
        log_likelihood = float(log_norm.sum())
        if abs(log_likelihood - previous) < tol * n:
            converged = True
            break
        if n_iter == max_iter:
            break
        previous = log_likelihood
        sums = features.weighted_sums(responsibilities)
        totals, means, covariances = moments(
            sums, features, reg_covar, responsibilities
        )
        weights = totals / totals.sum()
        n_iter += 1
    return MixtureFit(weights, means, covariances, log_likelihood, n_iter, converged)


def one_gaussian(features: QuadraticFeatures, reg_covar: float) -> MixtureFit:
    """Fit the maximum-likelihood single Gaussian (covariance ``ddof=0``, + reg)."""
    Z = features.Z
    n, d = Z.shape
    mean = Z.mean(axis=0)
    centred = Z - mean
    covariance = centred.T @ centred / n + reg_covar * np.eye(d)
    log_density = features.dot(density_coefficients(mean[None], covariance[None]))
    return MixtureFit(
        np.ones(1), mean[None], covariance[None], float(log_density.sum()), 0, True
    )


# ----------------------------------------------------- scikit-learn's object
def as_gaussian_mixture(
    fit: MixtureFit, reg_covar: float, n_samples: int
) -> GaussianMixture:
    """Return ``fit`` as a fitted :class:`~sklearn.mixture.GaussianMixture`.

    ``covariance_type="full"``; its ``predict``, ``score_samples``, ``sample``,
    ``aic`` and ``bic`` work as after its own ``fit``. ``n_samples`` (the rows fitted)
    turns the log-likelihood into scikit-learn's per-row ``lower_bound_``.
    """
    mixture = GaussianMixture(
        n_components=fit.n_components, covariance_type="full", reg_covar=reg_covar
    )
    mixture.weights_ = np.array(fit.weights, dtype=np.float64)
    mixture.means_ = np.array(fit.means, dtype=np.float64)
    mixture.covariances_ = np.array(fit.covariances, dtype=np.float64)
    chol = np.linalg.cholesky(mixture.covariances_)
    precisions_cholesky = np.transpose(np.linalg.inv(chol), (0, 2, 1))
    mixture.precisions_cholesky_ = precisions_cholesky
    mixture.precisions_ = np.einsum(
        "kab,kcb->kac", precisions_cholesky, precisions_cholesky
    )
    mixture.converged_ = fit.converged
    mixture.n_iter_ = fit.n_iter
    mixture.lower_bound_ = fit.log_likelihood / n_samples
    mixture.n_features_in_ = fit.means.shape[1]
    return mixture
