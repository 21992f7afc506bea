"""The Gibbs sweep of OBPD-Sampling, compiled (paper 003, algorithm 1, step 2a).

One sweep updates every coordinate of every chain from its conditional given the
others, chain by chain with each chain's ``L x D`` residuals in a small buffer;
an array version in the tests is its reference. The caller draws the random
numbers, so both make the same moves.

For a chain at ``x`` and component ``l`` (weight ``pi_l``, mean ``mu_l``, precision
``P_l``), with ``r_l = P_l (x - mu_l)`` and ``q_l = (x - mu_l)' r_l``, coordinate ``i``
given the others is the mixture ``sum_l w_l N(x_i - r_l,i / P_l,ii, 1 / P_l,ii)`` with
``log w_l = log pi_l - 1/2 log det Sigma_l - 1/2 q_l + 1/2 r_l,i^2 / P_l,ii - 1/2 log
P_l,ii`` up to a constant. Moving ``x_i`` by ``delta`` adds ``delta P_l[:, i]`` to
``r_l`` and ``2 delta r_l,i + delta^2 P_l,ii`` to ``q_l``; the residuals are
recomputed exactly at the start of every sweep.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

__all__ = ["gibbs_sweep_compiled", "pick_component"]


@njit(cache=True, nogil=True)
def pick_component(log_weight: FloatArray, uniform: float) -> int:
    """Return the first ``l`` whose cumulative normalised weight reaches ``uniform``."""
    top = log_weight.max()
    total = 0.0
    for value in log_weight:
        total += np.exp(value - top)
    target = uniform * total
    running = 0.0
    for l in range(log_weight.shape[0]):  # noqa: E741 - the papers' component index
        running += np.exp(log_weight[l] - top)
        if running >= target:
            return l
    return log_weight.shape[0] - 1  # rounding: the last component


@njit(cache=True, nogil=True)
def gibbs_sweep_compiled(
    x: FloatArray,
    means: FloatArray,
    precisions: FloatArray,
    log_prior: FloatArray,
    uniforms: FloatArray,
    normals: FloatArray,
) -> None:
    """Run one Gibbs sweep over every coordinate of every chain, in place."""
    n_chains, D = x.shape
    L = means.shape[0]
    r = np.empty((L, D))
    q = np.empty(L)
    log_weight = np.empty(L)
    centred = np.empty(D)
    for n in range(n_chains):
        for l in range(L):  # noqa: E741
            for j in range(D):
                centred[j] = x[n, j] - means[l, j]
            quadratic = 0.0
            for a in range(D):
                total = 0.0
                for b in range(D):
                    total += precisions[l, a, b] * centred[b]
                r[l, a] = total
                quadratic += centred[a] * total
            q[l] = quadratic
        for i in range(D):
            for l in range(L):  # noqa: E741
                p_ii = precisions[l, i, i]
                log_weight[l] = (
                    log_prior[l]
                    - 0.5 * q[l]
                    + 0.5 * r[l, i] ** 2 / p_ii
                    - 0.5 * np.log(p_ii)
                )
            chosen = pick_component(log_weight, uniforms[n, i])
            p_chosen = precisions[chosen, i, i]
            mean = x[n, i] - r[chosen, i] / p_chosen
            new = mean + normals[n, i] / np.sqrt(p_chosen)
            delta = new - x[n, i]
            for l in range(L):  # noqa: E741
                q[l] += 2.0 * delta * r[l, i] + delta * delta * precisions[l, i, i]
                for j in range(D):
                    r[l, j] += delta * precisions[l, j, i]
            x[n, i] = new
