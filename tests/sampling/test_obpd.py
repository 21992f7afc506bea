"""OBPD-Sampling (paper 003, algorithm 1): the class models and the draws.

Each property is checked against the mixture that was fitted (read from ``models_``)
or against a distribution the test builds itself; tolerances are a few standard
errors of the statistic at the sample sizes used.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from imblearn.pipeline import Pipeline
from scipy import stats
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import NotFittedError
from sklearn.mixture import GaussianMixture

from costsense.exceptions import MemoryBudgetError
from costsense.sampling import OBPDSampler
from costsense.sampling._gibbs import gibbs_sweep_compiled
from costsense.sampling._lowrank import LowRankGaussian
from costsense.sampling._obpd import (
    ancestral_draws,
    component_covariances,
    gibbs_draws,
)


def residuals(x, means, precisions):
    """``r[n, l] = P_l (x_n - mu_l)`` and ``q[n, l] = (x_n - mu_l)' r[n, l]``."""
    centred = x[:, None, :] - means[None]
    r = np.einsum("lij,nlj->nli", precisions, centred)
    return r, np.einsum("nli,nli->nl", centred, r)


def gibbs_sweep(x, r, q, precisions, log_prior, uniforms, normals):
    """The reference Gibbs sweep in arrays, in place; ``r`` and ``q`` kept current.

    The compiled sweep must make the same moves from the same random numbers.
    """
    n_chains, D = x.shape
    chains = np.arange(n_chains)
    diagonal = np.einsum("lii->li", precisions)  # (L, D)
    for i in range(D):
        r_i, p_ii = r[:, :, i], diagonal[:, i]  # a view: q is updated before r
        # log pi_l + log N_l(x_-i) = log pi_l + log N_l(x) - log N_l(x_i | x_-i)
        log_weight = log_prior - 0.5 * q + 0.5 * r_i**2 / p_ii - 0.5 * np.log(p_ii)
        weight = np.exp(log_weight - log_weight.max(axis=1, keepdims=True))
        cumulative = np.cumsum(weight, axis=1)
        target = uniforms[:, i] * cumulative[:, -1]
        component = np.minimum(
            (cumulative < target[:, None]).sum(axis=1), log_weight.shape[1] - 1
        )
        p_chosen = p_ii[component]
        mean = x[:, i] - r_i[chains, component] / p_chosen
        new = mean + normals[:, i] / np.sqrt(p_chosen)
        delta = new - x[:, i]
        q += 2.0 * delta[:, None] * r_i + delta[:, None] ** 2 * p_ii
        r += delta[:, None, None] * precisions[None, :, :, i]
        x[:, i] = new


def _imbalanced(minority: np.ndarray, n_majority: int = 400, seed: int = 0):
    """The minority rows as class 1 beside a Gaussian majority as class 0."""
    rng = np.random.default_rng(seed)
    majority = rng.normal(size=(n_majority, minority.shape[1])) + 10.0
    X = np.vstack([majority, minority])
    y = np.r_[np.zeros(n_majority, dtype=int), np.ones(len(minority), dtype=int)]
    return X, y


def _mixture_moments(mixture: GaussianMixture) -> tuple[np.ndarray, np.ndarray]:
    weights, means = mixture.weights_, mixture.means_
    covariances = component_covariances(mixture)
    mean = weights @ means
    second = np.einsum(
        "l,lij->ij", weights, covariances + np.einsum("li,lj->lij", means, means)
    )
    return mean, second - np.outer(mean, mean)


# ------------------------------------------------------------------ the model
def test_aic_takes_one_component_for_one_gaussian():
    rng = np.random.default_rng(1)
    minority = rng.multivariate_normal(
        [1.0, -2.0, 0.5], [[2, 0.8, 0], [0.8, 1, 0.3], [0, 0.3, 0.5]], 300
    )
    X, y = _imbalanced(minority)
    sampler = OBPDSampler(n_components="aic", random_state=0).fit(X, y)
    sampler.fit_resample(X, y)
    assert sampler.models_[1]["mixture"].n_components == 1


def test_aic_finds_well_separated_clusters():
    rng = np.random.default_rng(2)
    centres = np.array([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]])
    minority = np.vstack([c + rng.normal(scale=0.5, size=(100, 2)) for c in centres])
    X, y = _imbalanced(minority, n_majority=800)
    sampler = OBPDSampler(n_components="aic", random_state=0)
    sampler.fit_resample(X, y)
    mixture = sampler.models_[1]["mixture"]
    assert mixture.n_components == 3
    found = sampler.models_[1]["scale"].inverse_transform(mixture.means_)
    distances = np.linalg.norm(found[:, None, :] - centres[None], axis=2)
    assert np.all(distances.min(axis=0) < 0.3)  # every true centre is found


@pytest.mark.parametrize(("n_minority", "n_columns"), [(20, 4), (33, 10), (5, 6)])
def test_aic_never_takes_more_components_than_the_rows_support(n_minority, n_columns):
    # uniform noise: AIC alone would happily fit degenerate components
    rng = np.random.default_rng(3)
    X, y = _imbalanced(rng.uniform(size=(n_minority, n_columns)), n_majority=60)
    sampler = OBPDSampler(n_components="aic", max_components=10, random_state=0)
    sampler.fit_resample(X, y)
    cap = max(1, n_minority // (n_columns + 1))
    assert sampler.models_[1]["mixture"].n_components <= cap


def test_the_default_count_is_figueiredo_and_jains_as_in_the_paper():
    # paper 003 chooses the components by Figueiredo & Jain: the default is that
    # count, the same mixture as n_components="fj" with the same seed
    rng = np.random.default_rng(2)
    centres = np.array([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]])
    minority = np.vstack([c + rng.normal(scale=0.5, size=(100, 2)) for c in centres])
    X, y = _imbalanced(minority, n_majority=800)
    assert OBPDSampler().get_params()["n_components"] == "fj"
    default = OBPDSampler(random_state=0)
    X_default, _ = default.fit_resample(X, y)
    fj = OBPDSampler(n_components="fj", random_state=0)
    X_fj, _ = fj.fit_resample(X, y)
    np.testing.assert_array_equal(X_default, X_fj)
    assert default.models_[1]["mixture"].n_components == 3  # the three clusters


def test_a_fixed_number_of_components_is_used():
    rng = np.random.default_rng(4)
    X, y = _imbalanced(rng.normal(size=(60, 2)))
    sampler = OBPDSampler(n_components=4, random_state=0)
    sampler.fit_resample(X, y)
    assert sampler.models_[1]["mixture"].n_components == 4


# ------------------------------------------------------------------ the draws
def test_ancestral_draws_have_the_mixtures_moments_and_weights():
    mixture = GaussianMixture(2, random_state=0)
    rng = np.random.default_rng(5)
    data = np.vstack(
        [rng.normal([0, 0], 1.0, (300, 2)), rng.normal([6, 3], 0.5, (100, 2))]
    )
    mixture.fit(data)
    n = 40_000
    draws = ancestral_draws(mixture, n, np.random.default_rng(6))
    mean, covariance = _mixture_moments(mixture)
    standard_error = np.sqrt(np.diag(covariance) / n)
    assert np.all(np.abs(draws.mean(axis=0) - mean) < 5 * standard_error)
    np.testing.assert_allclose(np.cov(draws.T), covariance, rtol=0.05, atol=0.02)
    labels = mixture.predict(draws)  # separated components: labels are exact
    share = np.bincount(labels, minlength=2) / n
    np.testing.assert_allclose(share, mixture.weights_, atol=4 * np.sqrt(0.25 / n))


def test_ancestral_draws_are_not_grouped_by_component():
    # scikit-learn's GaussianMixture.sample returns component 0's draws first
    mixture = GaussianMixture(2, random_state=0)
    rng = np.random.default_rng(7)
    mixture.fit(np.vstack([rng.normal(0, 1, (200, 1)), rng.normal(20, 1, (200, 1))]))
    labels = mixture.predict(ancestral_draws(mixture, 400, np.random.default_rng(8)))
    first_half = labels[:200].mean()
    assert 0.35 < first_half < 0.65


def test_gibbs_on_one_gaussian_reaches_its_covariance():
    # a correlated Gaussian: Gibbs mixes slowly along the ridge yet converges
    covariance = np.array([[1.0, 0.9], [0.9, 1.0]])
    rng = np.random.default_rng(9)
    mixture = GaussianMixture(1, random_state=0).fit(
        rng.multivariate_normal([0, 0], covariance, 5000)
    )
    starts = np.full((4000, 2), 3.0)  # far from the mode
    draws = gibbs_draws(mixture, starts, 60, np.random.default_rng(10))
    _, expected = _mixture_moments(mixture)
    np.testing.assert_allclose(draws.mean(axis=0), mixture.means_[0], atol=0.08)
    np.testing.assert_allclose(np.cov(draws.T), expected, atol=0.08)


def test_gibbs_and_ancestral_agree_in_distribution_on_overlapping_components():
    rng = np.random.default_rng(11)
    minority = np.vstack(
        [
            rng.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 150),
            rng.multivariate_normal([1.5, 1.0], [[1, -0.3], [-0.3, 0.8]], 150),
        ]
    )
    X, y = _imbalanced(minority, n_majority=3300)
    results = {}
    for sampler in ("ancestral", "gibbs"):
        obpd = OBPDSampler(
            n_components=2, sampler=sampler, gibbs_steps=40, random_state=0
        )
        X_res, _ = obpd.fit_resample(X, y)
        results[sampler] = (X_res[len(y) :], obpd.models_[1]["mixture"])
    (exact, m1), (gibbs, m2) = results["ancestral"], results["gibbs"]
    np.testing.assert_array_equal(m1.means_, m2.means_)  # the same model
    assert exact.shape == gibbs.shape == (3000, 2)
    for direction in ([1, 0], [0, 1], [1, 1], [1, -1]):
        projection = np.asarray(direction, dtype=float)
        result = stats.ks_2samp(exact @ projection, gibbs @ projection)
        assert result.pvalue > 1e-3, direction


def _mixture(weights, means, covariances) -> GaussianMixture:
    """A 'fitted' full-covariance mixture with the given parameters."""
    mixture = GaussianMixture(len(weights), covariance_type="full")
    mixture.weights_ = np.asarray(weights, dtype=float)
    mixture.means_ = np.asarray(means, dtype=float)
    mixture.covariances_ = np.asarray(covariances, dtype=float)
    return mixture


def test_gibbs_from_one_point_reaches_an_unequal_mixture():
    # unequal weights and shapes, overlapping enough for the chains to mix; every
    # chain starts at the same point, so the law of the draws is the kernel's alone
    mixture = _mixture(
        [0.75, 0.25],
        [[0.0, 0.0], [2.0, 1.0]],
        [[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.3], [0.3, 2.5]]],
    )
    n = 6000
    exact = ancestral_draws(mixture, n, np.random.default_rng(18))
    gibbs = gibbs_draws(mixture, np.zeros((n, 2)), 40, np.random.default_rng(19))
    for direction in ([1, 0], [0, 1], [1, 1], [1, -1], [2, -1]):
        projection = np.asarray(direction, dtype=float)
        result = stats.ks_2samp(exact @ projection, gibbs @ projection)
        assert result.pvalue > 1e-3, direction
    mean, covariance = _mixture_moments(mixture)
    standard_error = np.sqrt(covariance.diagonal() / n)
    assert np.all(np.abs(gibbs.mean(axis=0) - mean) < 5 * standard_error)


@pytest.mark.parametrize("covariance_type", ["full", "diag", "tied", "spherical"])
def test_a_gibbs_sweep_keeps_its_residuals_exact(covariance_type):
    rng = np.random.default_rng(20)
    data = np.vstack([rng.normal(0, 1, (100, 3)), rng.normal(2, 0.7, (100, 3))])
    mixture = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(
        data
    )
    covariances = component_covariances(mixture)
    precisions = np.linalg.inv(covariances)
    log_prior = np.log(mixture.weights_) - 0.5 * np.linalg.slogdet(covariances)[1]
    x = data[:50].copy()
    compiled = x.copy()
    r, q = residuals(x, mixture.means_, precisions)
    for _ in range(3):
        uniforms, normals = rng.random(x.shape), rng.standard_normal(x.shape)
        gibbs_sweep(x, r, q, precisions, log_prior, uniforms, normals)
        fresh_r, fresh_q = residuals(x, mixture.means_, precisions)
        np.testing.assert_allclose(r, fresh_r, atol=1e-9)
        np.testing.assert_allclose(q, fresh_q, atol=1e-9)
        # the compiled sweep makes the same moves from the same random numbers
        gibbs_sweep_compiled(
            compiled,
            np.ascontiguousarray(mixture.means_),
            np.ascontiguousarray(precisions),
            log_prior,
            uniforms,
            normals,
        )
        np.testing.assert_allclose(compiled, x, rtol=1e-9, atol=1e-9)
        r, q = fresh_r, fresh_q  # each compiled sweep starts from exact residuals
    assert not np.allclose(x, data[:50])  # the chains moved


def test_a_component_is_drawn_with_its_conditional_weight():
    from costsense.sampling._gibbs import pick_component

    log_weight = np.log(np.array([0.2, 0.5, 0.3])) + 7.0  # any shift
    # the uniform's quantiles land on the cumulative weights 0.2, 0.7, 1.0
    assert [pick_component(log_weight, u) for u in (0.1, 0.19, 0.21, 0.69, 0.71)] == [
        0,
        0,
        1,
        1,
        2,
    ]
    draws = np.array(
        [pick_component(log_weight, u) for u in np.random.default_rng(0).random(20000)]
    )
    np.testing.assert_allclose(
        np.bincount(draws) / draws.size, [0.2, 0.5, 0.3], atol=0.015
    )


def test_component_covariances_rebuild_every_covariance_type():
    rng = np.random.default_rng(21)
    data = rng.normal(size=(200, 3)) * [1.0, 2.0, 0.5]
    for kind in ("full", "diag", "tied", "spherical"):
        mixture = GaussianMixture(2, covariance_type=kind, random_state=0).fit(data)
        full = component_covariances(mixture)
        assert full.shape == (2, 3, 3)
        # the precision Cholesky factors scikit-learn keeps invert them
        for k in range(2):
            chol = (
                mixture.precisions_cholesky_
                if kind == "tied"
                else mixture.precisions_cholesky_[k]
            )
            chol = np.diag(chol) if kind == "diag" else chol
            chol = chol * np.eye(3) if kind == "spherical" else chol
            np.testing.assert_allclose(full[k] @ (chol @ chol.T), np.eye(3), atol=1e-8)


@pytest.mark.parametrize("kind", ["diag", "spherical"])
def test_diagonal_draws_are_the_cholesky_draws(kind):
    # no D x D matrix for diagonal covariances: the same numbers as the root of the
    # dense covariance (the Cholesky factor of a diagonal matrix is its square root)
    data = np.random.default_rng(22).normal(size=(300, 4)) * [1.0, 2.0, 0.5, 3.0]
    mixture = GaussianMixture(3, covariance_type=kind, random_state=0).fit(data)
    rng = np.random.default_rng(23)
    component = rng.choice(3, size=500, p=mixture.weights_)
    normals = rng.standard_normal((500, 4))
    roots = np.linalg.cholesky(component_covariances(mixture))
    expected = np.einsum("nij,nj->ni", roots[component], normals)
    expected += mixture.means_[component]
    draws = ancestral_draws(mixture, 500, np.random.default_rng(23))
    np.testing.assert_allclose(draws, expected, rtol=1e-14, atol=1e-14)


# ----------------------------------------------------------------- wide data
@pytest.mark.parametrize(
    ("n_components", "covariance_type", "sampler"),
    [
        ("aic", "full", "ancestral"),
        ("bic", "tied", "ancestral"),
        ("fj", "full", "gibbs"),
        (1, "full", "gibbs"),
    ],
)
def test_more_columns_than_rows_keep_the_one_gaussian_as_a_factor(
    n_components, covariance_type, sampler
):
    # 5 minority rows in 40 columns: the count is 1 (capped at 5 / 41), and the
    # maximum-likelihood Gaussian is kept as its factor, equal to scikit-learn's
    # one-component mixture of the standardised rows (the dense route's model)
    rng = np.random.default_rng(30)
    X, y = _imbalanced(rng.normal(size=(5, 40)) * 2.0 + 1.0, n_majority=9)
    obpd = OBPDSampler(
        n_components=n_components,
        covariance_type=covariance_type,
        sampler=sampler,
        gibbs_steps=5,
        random_state=0,
    )
    X_res, y_res = obpd.fit_resample(X, y)
    assert X_res.shape == (18, 40) and np.all(y_res[14:] == 1)
    scaler, model = obpd.models_[1]["scale"], obpd.models_[1]["mixture"]
    assert isinstance(model, LowRankGaussian)
    Z = scaler.transform(X[y == 1])
    dense = GaussianMixture(1, reg_covar=obpd.reg_covar, random_state=0).fit(Z)
    np.testing.assert_allclose(model.means_, dense.means_, atol=1e-12)
    np.testing.assert_allclose(model.covariance(), dense.covariances_[0], atol=1e-12)
    new, _ = obpd.redraw(random_state=1)
    assert new.shape == (4, 40) and np.all(np.isfinite(new))


def test_a_million_columns_fit_and_impossible_matrices_are_refused():
    # 6 rows x 1,000,000 columns (48 MB), 2 minority rows: the default sampler
    # keeps its Gaussian as a 2 x 1,000,000 factor; a fixed 2 full components, or
    # Gibbs on diagonal ones, would need terabytes and are refused before any
    # allocation, naming the size and the way out
    X = np.random.default_rng(31).standard_normal((6, 1_000_000))
    y = np.array([0, 0, 0, 0, 1, 1])
    X_res, _ = OBPDSampler(random_state=0).fit_resample(X, y)
    assert X_res.shape == (8, 1_000_000)
    with pytest.raises(MemoryBudgetError, match="n_components=2") as refused:
        OBPDSampler(n_components=2).fit_resample(X, y)
    assert "14.6 TiB" in str(refused.value)
    assert "2 x 1,000,000 x 1,000,000" in str(refused.value)
    assert "n_components='aic'" in str(refused.value)
    with pytest.raises(MemoryBudgetError, match="sampler='ancestral'") as refused:
        OBPDSampler(
            n_components="aic", covariance_type="diag", sampler="gibbs"
        ).fit_resample(X, y)
    assert "7.28 TiB" in str(refused.value)


# ----------------------------------------------------------- the output rows
def test_originals_first_unchanged_and_every_class_balanced():
    rng = np.random.default_rng(12)
    X = rng.normal(size=(300, 3))
    y = np.r_[np.zeros(200, int), np.ones(70, int), np.full(30, 2)]
    X_res, y_res = OBPDSampler(random_state=0).fit_resample(X, y)
    np.testing.assert_array_equal(X_res[:300], X)
    np.testing.assert_array_equal(y_res[:300], y)
    assert Counter(y_res.tolist()) == {0: 200, 1: 200, 2: 200}


def test_same_seed_same_rows_and_another_seed_other_rows():
    rng = np.random.default_rng(13)
    X, y = _imbalanced(rng.normal(size=(40, 3)))
    for sampler in ("ancestral", "gibbs"):
        a = OBPDSampler(sampler=sampler, gibbs_steps=5, random_state=1).fit_resample(
            X, y
        )[0]
        b = OBPDSampler(sampler=sampler, gibbs_steps=5, random_state=1).fit_resample(
            X, y
        )[0]
        c = OBPDSampler(sampler=sampler, gibbs_steps=5, random_state=2).fit_resample(
            X, y
        )[0]
        np.testing.assert_array_equal(a, b)
        assert not np.allclose(a[len(y) :], c[len(y) :])


def test_categorical_columns_follow_the_class_frequencies():
    rng = np.random.default_rng(14)
    n_min = 100
    minority = np.column_stack(
        [
            rng.normal(size=n_min),
            rng.choice([0.0, 1.0, 2.0], size=n_min, p=[0.6, 0.3, 0.1]),
            rng.normal(size=n_min),
        ]
    )
    majority = np.column_stack(
        [
            rng.normal(size=5100) + 3,
            rng.choice([2.0, 3.0], size=5100),
            rng.normal(size=5100),
        ]
    )
    X = np.vstack([majority, minority])
    y = np.r_[np.zeros(5100, int), np.ones(n_min, int)]
    sampler = OBPDSampler(categorical_features=[1], random_state=0)
    X_res, _ = sampler.fit_resample(X, y)
    synthetic = X_res[len(y) :, 1]
    assert set(np.unique(synthetic)) <= set(np.unique(minority[:, 1]))
    values, counts = np.unique(minority[:, 1], return_counts=True)
    expected = counts / counts.sum()
    observed = np.array([np.mean(synthetic == v) for v in values])
    n = synthetic.size
    assert np.all(
        np.abs(observed - expected) < 4 * np.sqrt(expected * (1 - expected) / n)
    )
    assert sampler.models_[1]["mixture"].means_.shape[1] == 2  # continuous columns only
    np.testing.assert_array_equal(sampler.categorical_features_, [1])


def test_a_mask_and_indices_name_the_same_categorical_columns():
    rng = np.random.default_rng(15)
    X, y = _imbalanced(np.column_stack([rng.normal(size=30), rng.integers(0, 3, 30)]))
    by_index = OBPDSampler(categorical_features=[1], random_state=0).fit_resample(X, y)[
        0
    ]
    by_mask = OBPDSampler(
        categorical_features=[False, True], random_state=0
    ).fit_resample(X, y)[0]
    np.testing.assert_array_equal(by_index, by_mask)


@pytest.mark.parametrize(
    ("categorical_features", "message"),
    [([5], "outside"), ([True, False, True], "mask"), ([0.5], "indices")],
)
def test_bad_categorical_features_are_refused_by_name(categorical_features, message):
    X, y = _imbalanced(np.random.default_rng(16).normal(size=(30, 2)))
    with pytest.raises(
        ValueError, match=f"categorical_features.*{message}|{message}.*categorical"
    ):
        OBPDSampler(categorical_features=categorical_features).fit_resample(X, y)


def test_a_class_of_one_row_is_refused_with_the_way_out():
    X, y = _imbalanced(np.array([[0.5, 1.0]]), n_majority=10)
    with pytest.raises(ValueError, match="at least 2 rows.*sampling_strategy"):
        OBPDSampler(random_state=0).fit_resample(X, y)


@pytest.mark.parametrize("sampler", ["ancestral", "gibbs"])
def test_a_class_of_two_rows_is_grown_near_its_rows(sampler):
    minority = np.array([[3.0, 3.0, 3.0], [4.0, 2.0, 3.5]])
    X, y = _imbalanced(minority, n_majority=12)
    X_res, _ = OBPDSampler(sampler=sampler, gibbs_steps=5, random_state=0).fit_resample(
        X, y
    )
    synthetic = X_res[len(y) :]
    assert synthetic.shape == (10, 3)
    # two rows support one component, whose law is concentrated on their line
    low, high = minority.min(axis=0) - 3.0, minority.max(axis=0) + 3.0
    assert np.all((synthetic > low) & (synthetic < high))


def test_in_a_pipeline_the_classifier_sees_balanced_classes():
    rng = np.random.default_rng(17)
    X, y = _imbalanced(rng.normal(size=(40, 3)), n_majority=360)
    pipe = Pipeline([("obpd", OBPDSampler(random_state=0)), ("clf", DummyClassifier())])
    pipe.fit(X, y)
    np.testing.assert_allclose(pipe[-1].class_prior_, [0.5, 0.5])
    assert pipe.predict(X).shape == (len(y),)  # no resampling at predict time


# ----------------------------------------------------- fit once, draw many times
def _two_clusters(seed: int = 22):
    rng = np.random.default_rng(seed)
    minority = np.vstack(
        [
            rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], 120),
            rng.multivariate_normal([6, 2], [[0.5, 0], [0, 0.3]], 80),
        ]
    )
    return _imbalanced(minority, n_majority=500, seed=seed)


def test_redraws_follow_the_fitted_mixture():
    X, y = _two_clusters()
    sampler = OBPDSampler(n_components=2, random_state=0)
    sampler.fit_resample(X, y)
    scaler, mixture = sampler.models_[1]["scale"], sampler.models_[1]["mixture"]
    draws = np.vstack([sampler.redraw(random_state=s)[0] for s in range(40)])
    Z = scaler.transform(draws)
    n = Z.shape[0]  # 40 rounds of 300 rows
    mean, covariance = _mixture_moments(mixture)
    standard_error = np.sqrt(np.diag(covariance) / n)
    assert np.all(np.abs(Z.mean(axis=0) - mean) < 5 * standard_error)
    np.testing.assert_allclose(np.cov(Z.T), covariance, rtol=0.05, atol=0.02)
    share = np.bincount(mixture.predict(Z), minlength=2) / n
    np.testing.assert_allclose(share, mixture.weights_, atol=4 * np.sqrt(0.25 / n))


def test_redraws_differ_between_rounds_and_repeat_for_a_seed():
    X, y = _two_clusters()
    a = OBPDSampler(random_state=3)
    b = OBPDSampler(random_state=3)
    a.fit_resample(X, y)
    b.fit_resample(X, y)
    first, second = a.redraw(), a.redraw()  # the sampler's own stream goes on
    assert not np.allclose(first[0], second[0])
    np.testing.assert_array_equal(b.redraw()[0], first[0])  # same seed, same stream
    np.testing.assert_array_equal(a.redraw(7)[0], b.redraw(7)[0])
    assert not np.allclose(a.redraw(7)[0], a.redraw(8)[0])
    X_new, y_new = a.redraw(7)
    assert X_new.shape == (300, 2)
    np.testing.assert_array_equal(y_new, np.ones(300, dtype=y.dtype))


@pytest.mark.parametrize("sampler", ["ancestral", "gibbs"])
def test_a_redraw_with_a_seed_is_what_fit_resample_with_that_seed_appends(sampler):
    # the split search has no random start: the mixtures do not depend on the seed,
    # so redraw(s) must repeat fit_resample(random_state=s)'s rows exactly
    rng = np.random.default_rng(23)
    minority = np.column_stack(
        [rng.normal(size=(90, 2)), rng.choice([0.0, 1.0, 5.0], size=90)]
    )
    X, y = _imbalanced(minority, n_majority=300)
    params = {"categorical_features": [2], "sampler": sampler, "gibbs_steps": 3}
    fitted = OBPDSampler(**params, random_state=0)
    fitted.fit_resample(X, y)
    direct, _ = OBPDSampler(**params, random_state=11).fit_resample(X, y)
    np.testing.assert_array_equal(fitted.redraw(11)[0], direct[len(y) :])


def test_redraw_before_fit_resample_is_refused():
    with pytest.raises(NotFittedError):
        OBPDSampler().redraw()
