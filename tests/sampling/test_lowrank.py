"""OBPD's single Gaussian in more columns than rows, kept as a factor.

The low-rank model must be the dense maximum-likelihood Gaussian (scikit-learn's
one-component mixture is the oracle: mean, covariance, density), its draws must
have that Gaussian's moments, and its Gibbs chains must make the dense sweep's
moves from the same random numbers.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.mixture import GaussianMixture

from costsense.sampling._gmm import MixtureFit, as_gaussian_mixture
from costsense.sampling._lowrank import (
    LowRankGaussian,
    low_rank_draws,
    low_rank_gibbs_draws,
)
from costsense.sampling._obpd import gibbs_draws


def _wide_rows(n: int = 6, d: int = 12, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)) * np.linspace(0.5, 2.0, d) + 1.0


@pytest.mark.parametrize("reg_covar", [1e-6, 1e-2])
def test_the_factor_is_the_one_component_mixture(reg_covar):
    Z = _wide_rows()
    model = LowRankGaussian(reg_covar=reg_covar).fit(Z)
    dense = GaussianMixture(1, reg_covar=reg_covar, random_state=0).fit(Z)
    assert model.n_components == 1 and model.covariance_factor_.shape == Z.shape
    assert_allclose(model.weights_, dense.weights_)
    assert_allclose(model.means_, dense.means_, atol=1e-12)
    assert_allclose(model.covariance(), dense.covariances_[0], atol=1e-12)
    # Woodbury and the determinant lemma: the same density, off the rows too
    points = np.vstack([Z, _wide_rows(seed=1)])
    assert_allclose(model.score_samples(points), dense.score_samples(points), rtol=1e-9)


def test_draws_have_the_gaussians_mean_and_covariance():
    model = LowRankGaussian(reg_covar=0.05).fit(_wide_rows(n=4, d=8))
    n = 200_000
    draws = low_rank_draws(model, n, np.random.default_rng(3))
    assert draws.shape == (n, 8)
    covariance = model.covariance()
    standard_error = np.sqrt(np.diag(covariance) / n)
    assert np.all(np.abs(draws.mean(axis=0) - model.means_[0]) < 4 * standard_error)
    # entry (a, b) of the sample covariance has variance (S_aa S_bb + S_ab^2) / n
    spread = np.sqrt(
        (np.outer(np.diag(covariance), np.diag(covariance)) + covariance**2) / n
    )
    assert np.all(np.abs(np.cov(draws.T, bias=True) - covariance) < 5 * spread)


@pytest.mark.parametrize("n_sweeps", [1, 15])
def test_gibbs_chains_make_the_dense_sweeps_moves(n_sweeps):
    Z = _wide_rows(n=5, d=9)
    model = LowRankGaussian(reg_covar=1e-3).fit(Z)
    dense = as_gaussian_mixture(
        MixtureFit(np.ones(1), model.means_, model.covariance()[None], 0.0), 1e-3, 5
    )
    starts = Z[[0, 2, 2, 4]]
    expected = gibbs_draws(dense, starts, n_sweeps, np.random.default_rng(7))
    found = low_rank_gibbs_draws(model, starts, n_sweeps, np.random.default_rng(7))
    assert_allclose(found, expected, atol=1e-9)
    assert not np.allclose(found, starts)
