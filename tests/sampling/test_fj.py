"""OBPD's automatic component counts: Figueiredo & Jain, and the fast AIC/BIC search.

Formulas are checked against values worked out by hand from the paper's equations;
the searches against scikit-learn's one-fit-per-count search and against data whose
number of components is known.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.mixture import GaussianMixture
from sklearn.preprocessing import StandardScaler

from costsense.sampling import OBPDSampler
from costsense.sampling._fj import (
    annihilating_weights,
    figueiredo_jain,
    message_length,
)
from costsense.sampling._gmm import as_gaussian_mixture, criterion
from costsense.sampling._quadratic import (
    QuadraticFeatures,
    density_coefficients,
    moments,
)
from costsense.sampling._split import split_search

CENTRES = np.array([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]])


def _blobs(seed: int, per: int = 300, scale: float = 1.0) -> np.ndarray:
    rng = np.random.default_rng(200 + seed)
    rows = np.vstack([c + rng.normal(scale=scale, size=(per, 2)) for c in CENTRES])
    return StandardScaler().fit_transform(rows)


# ------------------------------------------------------------ the formulas
def test_annihilating_weights_are_eq17():
    # N = 4: each component pays N/2 = 2 rows; 1.5 rows cannot pay and dies
    weights = annihilating_weights(np.array([10.0, 1.5, 5.0]), 4)
    np.testing.assert_allclose(weights, [8 / 11, 0.0, 3 / 11])
    # nobody can pay: all zero (the caller keeps its last component alive)
    np.testing.assert_array_equal(annihilating_weights(np.array([1.0, 2.0]), 4), 0)


def test_message_length_is_eq15():
    # two live components of N = 5 parameters on n = 120 rows, a dead third
    n, N, log_likelihood = 120, 5, -100.0
    expected = (
        N / 2 * (np.log(120 * 0.25 / 12) + np.log(120 * 0.75 / 12))
        + 2 / 2 * np.log(120 / 12)
        + 2 * (N + 1) / 2
        + 100.0
    )
    got = message_length(log_likelihood, np.array([0.25, 0.75, 0.0]), n, N)
    assert got == pytest.approx(expected, rel=1e-12)


def test_the_quadratic_design_gives_gaussian_densities_and_moments():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(60, 3))
    means = rng.normal(size=(2, 3))
    A = rng.normal(size=(2, 3, 3))
    covariances = A @ A.transpose(0, 2, 1) + np.eye(3)
    features = QuadraticFeatures(Z)
    log_density = features.dot(density_coefficients(means, covariances))
    for k in range(2):
        expected = stats.multivariate_normal(means[k], covariances[k]).logpdf(Z)
        np.testing.assert_allclose(log_density[:, k], expected, rtol=1e-10)
    r = rng.uniform(size=(60, 2))
    totals, mu, sigma = moments(features.weighted_sums(r), features, 0.0)
    for k in range(2):
        np.testing.assert_allclose(totals[k], r[:, k].sum())
        np.testing.assert_allclose(mu[k], np.average(Z, axis=0, weights=r[:, k]))
        centred = Z - mu[k]
        direct = (r[:, k, None] * centred).T @ centred / r[:, k].sum()
        np.testing.assert_allclose(sigma[k], direct, atol=1e-12)


# ------------------------------------------------------------ Figueiredo & Jain
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fj_recovers_three_separated_components(seed):
    Z = _blobs(seed)
    found = figueiredo_jain(Z, 10, rng=np.random.default_rng(seed))
    fit = found.fit
    assert fit.n_components == 3
    # every blob's mean (standardised) has a component within 0.1
    blob_means = Z.reshape(3, 300, 2).mean(axis=1)
    distances = np.linalg.norm(fit.means[:, None] - blob_means[None], axis=2)
    assert np.all(distances.min(axis=0) < 0.1)
    np.testing.assert_allclose(np.sort(fit.weights), 1 / 3, atol=0.02)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fj_does_not_split_one_gaussian(seed):
    rng = np.random.default_rng(100 + seed)
    rows = rng.multivariate_normal([1.0, -2.0], [[2.0, 0.8], [0.8, 1.0]], 900)
    found = figueiredo_jain(
        StandardScaler().fit_transform(rows), 10, rng=np.random.default_rng(seed)
    )
    assert found.fit.n_components == 1


def test_fj_annihilates_a_component_that_cannot_pay_for_its_parameters():
    # 2-D: N = 2 + 3 = 5, so a component needs more than N/2 = 2.5 rows. Start one
    # component on a far pair of rows (2 < 2.5: dies in the first sweep by eq. 17)
    # and one on a far group of 4 (4 > 2.5: survives that sweep).
    rng = np.random.default_rng(3)
    bulk = rng.normal(size=(200, 2))
    pair = np.array([[40.0, 40.0], [40.5, 40.0]])
    group = np.array([[-40.0, 40.0], [-40.5, 40.3], [-39.6, 40.4], [-40.2, 39.5]])
    Z = np.vstack([bulk, pair, group])
    found = figueiredo_jain(
        Z,
        3,
        means_init=np.array([[0.0, 0.0], [40.2, 40.0], [-40.0, 40.0]]),
        rng=np.random.default_rng(0),
    )
    first_sweep = [(m, how) for sweep, m, how in found.deaths if sweep == 1]
    assert first_sweep == [(1, "eq17")]
    assert found.history[0][0] == 2  # two live components after the first sweep
    # the search then goes down to one component; the far group is worth keeping
    assert sorted(found.message_lengths) == [1, 2]
    assert found.message_lengths[2] < found.message_lengths[1]
    assert found.fit.n_components == 2


def test_fj_message_length_never_increases_between_deaths_and_the_least_is_kept():
    for seed in range(3):
        found = figueiredo_jain(
            _blobs(seed, per=150, scale=0.7), 10, rng=np.random.default_rng(seed)
        )
        with_deaths = {sweep for sweep, _, _ in found.deaths}
        history = found.history
        compared = 0
        for t in range(1, len(history)):
            same_count = history[t][0] == history[t - 1][0]
            if same_count and (t + 1) not in with_deaths:  # sweep t + 1: no death
                compared += 1
                assert history[t][1] <= history[t - 1][1] + 1e-9 * abs(
                    history[t - 1][1]
                )
        assert compared > 5
        lengths = found.message_lengths
        least = min(lengths.values())
        assert found.fit.n_components == min(
            k for k, v in lengths.items() if v == least
        )


def test_fj_mixture_is_a_valid_fitted_gaussian_mixture():
    Z = _blobs(4, per=100)
    fit = figueiredo_jain(Z, 8, rng=np.random.default_rng(4)).fit
    assert fit.weights.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(fit.weights > 0)
    assert np.all(np.linalg.eigvalsh(fit.covariances) > 0)
    np.testing.assert_allclose(fit.covariances, fit.covariances.transpose(0, 2, 1))
    mixture = as_gaussian_mixture(fit, 1e-6, Z.shape[0])
    # scikit-learn computes the same log-likelihood from the returned parameters
    assert mixture.score(Z) * Z.shape[0] == pytest.approx(fit.log_likelihood, rel=1e-9)


def test_fj_with_non_full_covariances_is_refused_by_name():
    X = np.vstack([np.random.default_rng(5).normal(size=(80, 2)), np.ones((20, 2))])
    y = np.r_[np.zeros(80, int), np.ones(20, int)]
    X[80:] += np.random.default_rng(6).normal(scale=0.3, size=(20, 2))
    sampler = OBPDSampler(n_components="fj", covariance_type="diag")
    with pytest.raises(ValueError, match="fj.*covariance_type='full'"):
        sampler.fit_resample(X, y)


# ------------------------------------------------------- the AIC / BIC search
def _separated(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-10, 10, size=(4, 3))
    rows = np.vstack(
        [c + rng.normal(size=(150, 3)) @ rng.normal(size=(3, 3)) * 0.4 for c in centres]
    )
    return StandardScaler().fit_transform(rows)


@pytest.mark.parametrize("seed", [0, 1])
def test_split_search_agrees_with_one_scikit_learn_fit_per_count(seed):
    Z = _separated(seed)
    n, d = Z.shape
    naive = [GaussianMixture(k, random_state=0).fit(Z) for k in range(1, 7)]
    for kind in ("aic", "bic"):
        ours, scores = split_search(Z, 6, kind, reg_covar=1e-6)
        best = min(naive, key=lambda m: m.aic(Z) if kind == "aic" else m.bic(Z))
        assert ours.n_components == best.n_components == 4
        # the chosen model fits at least as well, up to EM's tolerance
        assert ours.log_likelihood >= best.score(Z) * n - 1e-3 * n
        # the criterion reported is scikit-learn's for the returned parameters
        mixture = as_gaussian_mixture(ours, 1e-6, n)
        expected = mixture.aic(Z) if kind == "aic" else mixture.bic(Z)
        assert scores[4] == pytest.approx(expected, rel=1e-9)
        assert criterion(ours, n, d, kind) == pytest.approx(expected, rel=1e-9)
        assert min(scores, key=scores.__getitem__) == 4


def test_split_search_splits_the_merged_pair_not_the_big_gaussian():
    # a heavy single Gaussian beside two small clusters: splitting the heaviest
    # component would cut the big Gaussian; the best split separates the pair
    rng = np.random.default_rng(7)
    rows = np.vstack(
        [
            rng.normal(size=(600, 2)) * 1.5,
            rng.normal(size=(80, 2)) * 0.3 + [9.0, 9.0],
            rng.normal(size=(80, 2)) * 0.3 + [9.0, 12.0],
        ]
    )
    Z = StandardScaler().fit_transform(rows)
    fit, scores = split_search(Z, 6, "bic", reg_covar=1e-6)
    assert fit.n_components == 3
    assert scores[3] < scores[2] and scores[3] < scores[4]


@pytest.mark.parametrize("kind", ["aic", "bic", "fj"])
def test_the_sampler_uses_each_automatic_count(kind):
    rows = _blobs(0) * 3.0 + 1.0
    X = np.vstack([np.random.default_rng(8).normal(size=(1000, 2)) + 30.0, rows])
    y = np.r_[np.zeros(1000, int), np.ones(900, int)]
    sampler = OBPDSampler(n_components=kind, random_state=0)
    X_res, y_res = sampler.fit_resample(X, y)
    assert X_res.shape == (2000, 2)
    assert sampler.models_[1]["mixture"].n_components == 3
