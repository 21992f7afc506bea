"""Figueiredo & Jain's unsupervised mixture learning (TPAMI 24(3), 2002).

Paper 003 chooses the number of components of its Gaussian mixture by Figueiredo
& Jain's method (``OBPDSampler(n_components="fj")``). One mixture is fitted whose
components die during EM, and the count of least message length (MML) is kept.
For ``n`` rows and components of ``N`` free parameters each, the message length
with ``k_nz`` live components (weights ``alpha_m > 0``) is their eq. (15)::

    L(theta, Y) = N/2 sum_{m: alpha_m > 0} log(n alpha_m / 12)
                  + k_nz/2 log(n / 12) + k_nz (N + 1) / 2 - log p(Y | theta)

and the M-step for the weights (eq. 17)::

    alpha_m = max(0, sum_i w_im - N/2) / sum_j max(0, sum_i w_ij - N/2)

annihilates any component whose rows weigh no more than ``N/2``. The M-step runs
component by component (CEM^2, Celeux et al. 2001); one sweep over the components
is one iteration. From ``k_max`` components, iterations run until the relative
change of ``L`` is below ``epsilon``, the model is recorded if its ``L`` is the
least so far, the component of least weight is annihilated, and so on down to
``k_min``.

Choices the paper leaves open: every starting covariance is ``sigma^2 I`` with
``sigma^2`` the largest column variance (the authors take a tenth of it: a wider
start leaves more components alive after the first sweep); convergence is
``|L_{t-1} - L_t| < epsilon |L_{t-1}|`` (the absolute value, since a sweep in
which a component dies can raise ``L``), ``epsilon = 1e-4`` as the authors'
demonstration, at most ``max_sweeps`` sweeps per count; ``reg_covar`` is added to
each covariance's diagonal (as scikit-learn); the last live component is never
annihilated; ``k_max`` is capped by the caller. On small samples MML can keep a
flat component on a handful of rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from costsense.sampling._gmm import MixtureFit
from costsense.sampling._quadratic import (
    QuadraticFeatures,
    density_coefficients,
    moments,
)

FloatArray = NDArray[np.float64]

__all__: list[str] = []


def annihilating_weights(totals: FloatArray, n_parameters: int) -> FloatArray:
    """Figueiredo & Jain's M-step for the weights, eq. (17).

    ``alpha_m = max(0, n_m - N/2) / sum_j max(0, n_j - N/2)`` with ``n_m = sum_i
    w_im`` the rows' weight on component ``m`` and ``N`` the free parameters of a
    component.
    """
    excess = np.maximum(0.0, np.asarray(totals, dtype=np.float64) - n_parameters / 2)
    total = excess.sum()
    return excess / total if total > 0 else excess


def message_length(
    log_likelihood: float, weights: FloatArray, n_samples: int, n_parameters: int
) -> float:
    """Figueiredo & Jain's message length of a mixture, eq. (15).

    ``N/2 sum_{m: alpha_m > 0} log(n alpha_m / 12) + k_nz/2 log(n/12) + k_nz (N+1)/2
    - log p(Y | theta)``.
    """
    alive = weights[weights > 0]
    k_nz, n, N = alive.size, n_samples, n_parameters
    return float(
        N / 2 * np.log(n * alive / 12.0).sum()
        + k_nz / 2 * np.log(n / 12.0)
        + k_nz * (N + 1) / 2
        - log_likelihood
    )


@dataclass
class FJResult:
    """What :func:`figueiredo_jain` found.

    Attributes
    ----------
    fit : MixtureFit
        The mixture of least message length (live components only).
    message_lengths : dict
        Number of live components -> message length after its iterations
        converged (one entry per count the search went through).
    history : list of (int, float)
        ``(k_nz, L)`` after every sweep, in order: within a count, ``L`` does not
        increase except in a sweep where a component dies.
    deaths : list of (int, int, str)
        ``(sweep, component, how)`` of each annihilation, ``component`` indexing
        the ``k_max`` starting components: ``"eq17"`` by the weight M-step,
        ``"smallest"`` by the search's forced removal after convergence.
    n_sweeps : int
        Sweeps run in all.
    """

    fit: MixtureFit
    message_lengths: dict[int, float] = field(default_factory=dict)
    history: list[tuple[int, float]] = field(default_factory=list)
    deaths: list[tuple[int, int, str]] = field(default_factory=list)
    n_sweeps: int = 0


class _Components:
    """The CEM^2 state: every component's parameters and densities on the rows.

    Densities are kept as ``P[i, m] = exp(log N(z_i | theta_m) - s_i)`` with a row
    shift ``s_i`` (the row's largest log density when last refreshed), so a
    posterior is ``alpha_m P_im / (P_i . alpha)`` without a log-sum-exp over the
    components at each update; the shifts are refreshed at every sweep and
    whenever a row's densities all underflow.
    """

    def __init__(
        self,
        features: QuadraticFeatures,
        weights: FloatArray,
        means: FloatArray,
        covariances: FloatArray,
    ) -> None:
        self.features = features
        self.weights = weights
        self.means = means
        self.covariances = covariances
        self.log_density = features.dot(density_coefficients(means, covariances))
        self.refresh()

    @property
    def alive(self) -> NDArray[np.bool_]:
        return np.asarray(self.weights > 0)

    def refresh(self) -> None:
        """Recompute the row shifts and the scaled densities of live components."""
        alive = self.alive
        self.shift = self.log_density[:, alive].max(axis=1)
        self.scaled = np.zeros_like(self.log_density)
        self.scaled[:, alive] = np.exp(self.log_density[:, alive] - self.shift[:, None])

    def mixture_density(self) -> FloatArray:
        """``sum_m alpha_m P_im`` for every row (refreshing on underflow)."""
        density = self.scaled @ self.weights
        if not np.all(density > 1e-250):
            self.refresh()
            density = self.scaled @ self.weights
        return np.asarray(density)

    def log_likelihood(self) -> float:
        """``log p(Y | theta) = sum_i log sum_m alpha_m N(z_i | theta_m)``."""
        return float((np.log(self.mixture_density()) + self.shift).sum())

    def update(self, m: int, posterior: FloatArray, reg_covar: float) -> None:
        """Component ``m``'s weighted ML mean and covariance, and its densities."""
        sums = self.features.weighted_sums(posterior[:, None])
        _, mean, covariance = moments(
            sums.reshape(1, -1), self.features, reg_covar, posterior[:, None]
        )
        self.means[m], self.covariances[m] = mean[0], covariance[0]
        self.log_density[:, m] = self.features.dot(
            density_coefficients(mean, covariance)[:, 0]
        )
        with np.errstate(over="ignore"):
            self.scaled[:, m] = np.exp(self.log_density[:, m] - self.shift)
        if not np.all(np.isfinite(self.scaled[:, m])):  # far above the old shifts
            self.refresh()

    def kill(self, m: int) -> None:
        """Annihilate component ``m`` and renormalise the live weights."""
        self.weights[m] = 0.0
        self.scaled[:, m] = 0.0
        self.weights /= self.weights.sum()

    def fit(self, log_likelihood: float, n_sweeps: int, converged: bool) -> MixtureFit:
        alive = self.alive
        return MixtureFit(
            self.weights[alive].copy(),
            self.means[alive].copy(),
            self.covariances[alive].copy(),
            log_likelihood,
            n_sweeps,
            converged,
        )


def cem2_sweep(
    state: _Components, totals: FloatArray, n_parameters: int, reg_covar: float
) -> list[int]:
    """One CEM^2 sweep over the live components, in place (the article's pseudo-code).

    For each live ``m`` in turn: its posteriors ``w_im``, its weight by eq. (17)
    with the other components' latest ``sum_i w_ij`` (``totals``), all weights
    renormalised; then either its death (weight 0) or its mean and covariance
    update and fresh densities, which the next component's posteriors use.
    """
    deaths = []
    state.refresh()
    for m in range(state.weights.size):
        if state.weights[m] == 0:
            continue
        density = state.mixture_density()  # may refresh the shifts
        posterior = state.weights[m] * state.scaled[:, m] / density
        totals[m] = posterior.sum()
        alive = state.alive
        if alive.sum() == 1:
            weight = 1.0  # the last component is never annihilated
        else:
            position = int(np.searchsorted(np.flatnonzero(alive), m))
            weight = annihilating_weights(totals[alive], n_parameters)[position]
        if weight == 0.0:
            state.kill(m)
            deaths.append(m)
            continue
        state.weights[m] = weight
        state.weights /= state.weights.sum()
        state.update(m, posterior, reg_covar)
    return deaths


def figueiredo_jain(
    Z: FloatArray,
    k_max: int,
    *,
    k_min: int = 1,
    reg_covar: float = 1e-6,
    tol: float = 1e-4,
    max_sweeps: int = 500,
    rng: np.random.Generator,
    means_init: FloatArray | None = None,
) -> FJResult:
    """Fit a full-covariance Gaussian mixture by Figueiredo & Jain's algorithm.

    Component-wise EM (CEM^2) with the annihilating weight M-step (eq. 17), from
    ``k_max`` components down to ``k_min`` live ones, keeping the mixture of least
    message length (eq. 15); see :mod:`costsense.sampling._fj`.
    """
    n, d = Z.shape
    N = d + d * (d + 1) // 2
    features = QuadraticFeatures(Z)
    k_max = max(1, min(k_max, n))
    k_min = max(1, min(k_min, k_max))
    if means_init is None:
        means = features.Z[rng.choice(n, size=k_max, replace=False)].copy()
    else:
        means = np.array(means_init, dtype=np.float64)
    k_max = means.shape[0]
    variance = float(features.Z.var(axis=0).max())
    variance = variance if variance > 0 else 1.0
    covariances = np.repeat((variance + reg_covar) * np.eye(d)[None], k_max, axis=0)
    weights = np.full(k_max, 1.0 / k_max)
    state = _Components(features, weights, means, covariances)
    # the rows' weight on each component: the first sweep's eq. (17) denominators
    density = state.mixture_density()
    totals = (state.scaled * state.weights / density[:, None]).sum(axis=0)

    result = FJResult(fit=state.fit(state.log_likelihood(), 0, False))
    best_length = np.inf
    sweep = 0
    while state.alive.sum() >= k_min:
        previous = message_length(state.log_likelihood(), state.weights, n, N)
        sweeps_here, converged = 0, False
        while not converged and sweeps_here < max_sweeps:
            sweep += 1
            sweeps_here += 1
            for m in cem2_sweep(state, totals, N, reg_covar):
                result.deaths.append((sweep, m, "eq17"))
            log_likelihood = state.log_likelihood()
            length = message_length(log_likelihood, state.weights, n, N)
            k_nz = int(state.alive.sum())
            result.history.append((k_nz, length))
            converged = abs(previous - length) < tol * abs(previous)
            previous = length
        result.message_lengths[k_nz] = length
        if length <= best_length:
            best_length = length
            result.fit = state.fit(log_likelihood, sweeps_here, converged)
        if k_nz == 1:
            break
        weakest = int(np.argmin(np.where(state.alive, state.weights, np.inf)))
        state.kill(weakest)
        result.deaths.append((sweep, weakest, "smallest"))
    result.n_sweeps = sweep
    return result
