"""The quadratic design of a set of rows, and Gaussian densities and moments on it.

Every density and moment of :mod:`costsense.sampling._gmm` goes through one
*quadratic design* ``F = [z_a z_b (a <= b), z, 1]`` of the rows
(:class:`QuadraticFeatures`): a Gaussian's log density is linear in ``F``
(:func:`density_coefficients`), and so are an M-step's weighted sums (``R' F``:
each component's weight, first and second moments; :func:`moments`). An E-step
over all components is one matrix product ``F C`` and an M-step one ``R' F``. The
second moments come out as ``E_r[z z'] - mu mu'``; a covariance that is not
positive definite is recomputed from centred rows.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

__all__: list[str] = []

#: blocks of rows at each product (the same arithmetic, more time).
DESIGN_BYTES = 1 << 27
LOG_2PI = float(np.log(2.0 * np.pi))


# ------------------------------------------------------------------ the design
class QuadraticFeatures:
    """The quadratic design ``F = [z_a z_b for a <= b, z, 1]`` of a set of rows.

    A Gaussian log density is ``F c`` for the ``c`` of
    :func:`density_coefficients`; the weighted sums an M-step needs are ``r' F``.
    The design is kept when it takes at most :data:`DESIGN_BYTES`; otherwise each
    product rebuilds it block by block.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        The rows.
    """

    def __init__(self, Z: FloatArray, design: FloatArray | None = None) -> None:
        self.Z = np.ascontiguousarray(Z, dtype=np.float64)
        n, d = self.Z.shape
        self.upper = np.triu_indices(d)
        self.n_quadratic = self.upper[0].size
        self.n_columns = self.n_quadratic + d + 1
        self.block = max(1, DESIGN_BYTES // (8 * self.n_columns))
        if design is None and n <= self.block:
            design = self._design(0, n)
        self._cached = design

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.Z.shape[0])

    def _design(self, start: int, stop: int) -> FloatArray:
        z = self.Z[start:stop]
        design = np.empty((z.shape[0], self.n_columns))
        np.multiply(
            z[:, self.upper[0]], z[:, self.upper[1]], out=design[:, : self.n_quadratic]
        )
        design[:, self.n_quadratic : -1] = z
        design[:, -1] = 1.0
        return design

    def _blocks(self) -> list[tuple[int, int]]:
        n = self.n_samples
        return [(i, min(i + self.block, n)) for i in range(0, n, self.block)]

    def dot(self, coefficients: FloatArray) -> FloatArray:
        """``F @ coefficients``: shape (n_samples,) or (n_samples, k)."""
        if self._cached is not None:
            return np.asarray(self._cached @ coefficients)
        return np.concatenate(
            [self._design(a, b) @ coefficients for a, b in self._blocks()]
        )

    def weighted_sums(self, weights: FloatArray) -> FloatArray:
        """``weights' @ F``: shape (n_columns,) or (k, n_columns).

        ``weights`` has shape (n_samples,) or (n_samples, k).
        """
        if self._cached is not None:
            return np.asarray(weights.T @ self._cached)
        total = np.zeros((*weights.shape[1:], self.n_columns))
        for a, b in self._blocks():
            total += weights[a:b].T @ self._design(a, b)
        return total

    def subset(self, rows: NDArray[np.intp]) -> QuadraticFeatures:
        """Return the design of some of the rows."""
        design = None if self._cached is None else self._cached[rows]
        return QuadraticFeatures(self.Z[rows], design)


# ----------------------------------------------------- densities and moments
def density_coefficients(means: FloatArray, covariances: FloatArray) -> FloatArray:
    """Coefficients ``C`` with ``(F C)[i, k] = log N(z_i | mu_k, Sigma_k)``.

    ``log N(z) = -1/2 z' P z + z' P mu - 1/2 mu' P mu - 1/2 log det Sigma -
    d/2 log 2 pi`` with ``P = Sigma^-1``: the quadratic part weighs ``z_a z_b`` by
    ``-P_ab`` off the diagonal (both ``ab`` and ``ba``) and ``-P_aa / 2`` on it.

    Raises
    ------
    numpy.linalg.LinAlgError
        When a covariance is not positive definite.
    """
    k, d = means.shape
    chol = np.linalg.cholesky(covariances)
    inverse_chol = np.linalg.inv(chol)
    precisions = np.einsum("kba,kbc->kac", inverse_chol, inverse_chol)
    log_det = 2.0 * np.log(np.einsum("kaa->ka", chol)).sum(axis=1)
    upper = np.triu_indices(d)
    off_diagonal = np.where(upper[0] == upper[1], 0.5, 1.0)
    quadratic = -precisions[:, upper[0], upper[1]] * off_diagonal
    linear = np.einsum("kab,kb->ka", precisions, means)
    constant = -0.5 * (np.einsum("ka,ka->k", means, linear) + log_det + d * LOG_2PI)
    return np.concatenate([quadratic, linear, constant[:, None]], axis=1).T


def moments(
    sums: FloatArray,
    features: QuadraticFeatures,
    reg_covar: float,
    responsibilities: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Run a weighted M-step: each component's weight total, mean and covariance.

    With ``r`` a component's responsibilities, ``n_k = sum_i r_i``, ``mu = sum_i
    r_i z_i / n_k`` and ``Sigma = sum_i r_i z_i z_i' / n_k - mu mu' + reg I`` (the
    maximum-likelihood step of EM, Dempster, Laird & Rubin 1977; ``reg`` as
    scikit-learn's ``reg_covar``).
    """
    q, d = features.n_quadratic, features.Z.shape[1]
    totals = sums[:, -1] + 10 * np.finfo(np.float64).eps
    means = sums[:, q:-1] / totals[:, None]
    second = np.empty((sums.shape[0], d, d))
    upper = features.upper
    second[:, upper[0], upper[1]] = sums[:, :q]
    second[:, upper[1], upper[0]] = sums[:, :q]
    covariances = second / totals[:, None, None] - np.einsum("ka,kb->kab", means, means)
    covariances[:, np.arange(d), np.arange(d)] += reg_covar
    if responsibilities is not None:
        for k in range(sums.shape[0]):
            try:
                np.linalg.cholesky(covariances[k])
            except np.linalg.LinAlgError:
                centred = features.Z - means[k]
                r = responsibilities[:, k]
                covariances[k] = (r[:, None] * centred).T @ centred / totals[k]
                covariances[k] += reg_covar * np.eye(d)
    return totals, means, covariances


def log_normalise(log_joint: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Row-wise ``log sum exp`` and the responsibilities ``exp(log_joint - it)``."""
    top = log_joint.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    shifted = np.exp(log_joint - top)
    total = shifted.sum(axis=1, keepdims=True)
    return np.log(total[:, 0]) + top[:, 0], shifted / total
