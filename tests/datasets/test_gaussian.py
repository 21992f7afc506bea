from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import integrate
from scipy.stats import multivariate_normal, norm
from sklearn.linear_model import LogisticRegression

from costsense.costs import bayes_threshold
from costsense.datasets import GaussianProblem, make_gaussian_problem

PAPER_COSTS = (2, 5, 8, 10)


@pytest.fixture(scope="module")
def problem() -> GaussianProblem:
    return make_gaussian_problem()


def closed_form_equal_covariances(means, cov, priors, c1, c2):
    """Risk of the (linear) Bayes rule when both classes share one covariance.

    The log-likelihood ratio is N(+D^2/2, D^2) under the positive class and
    N(-D^2/2, D^2) under the negative one, D the Mahalanobis distance of the means.
    """
    means = np.asarray(means, dtype=float)
    diff = means[0] - means[1]
    dist = np.sqrt(diff @ np.linalg.solve(cov, diff))
    t = np.log(c2 * priors[1] / (c1 * priors[0]))
    fnr = norm.cdf((t - dist**2 / 2) / dist)
    fpr = norm.cdf((-t - dist**2 / 2) / dist)
    return c1 * priors[0] * fnr + c2 * priors[1] * fpr


def monte_carlo_cost(problem, rule, cost, n, seed):
    c1, c2 = cost
    X, y = problem.sample(n, random_state=seed)
    pred = rule(X)
    return (
        c1 * np.sum((y == 1) & (pred == -1)) + c2 * np.sum((y == -1) & (pred == 1))
    ) / n


# ----------------------------------------------------------------- defaults
def test_defaults_are_paper_000(problem):
    assert_array_equal(problem.means, [[-1, 1], [1, -1]])
    assert_array_equal(problem.covs, [[[5.2, 2], [2, 3.7]], [[3.3, 1.5], [1.5, 4.6]]])
    assert_array_equal(problem.priors, [0.5, 0.5])
    assert problem.n_features == 2
    assert "GaussianProblem" in repr(problem)


def test_docstring_examples_run():
    import costsense.datasets as module

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for name in ("make_gaussian_problem", "GaussianProblem"):
        for test in finder.find(getattr(module, name), name):
            runner.run(test)
    assert runner.failures == 0
    assert runner.tries > 0


# ------------------------------------------------------------ the Bayes rule
def test_log_likelihood_ratio_and_posterior_match_scipy(problem):
    X, _ = problem.sample(500, random_state=1)
    lp = multivariate_normal(problem.means[0], problem.covs[0]).logpdf(X)
    ln = multivariate_normal(problem.means[1], problem.covs[1]).logpdf(X)
    assert_allclose(problem.log_likelihood_ratio(X), lp - ln, rtol=1e-10, atol=1e-10)
    pp = 0.5 * np.exp(lp)
    pn = 0.5 * np.exp(ln)
    assert_allclose(problem.posterior(X), pp / (pp + pn), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("cost", [1, 5, (3.0, 2.0), (1.0, 4.0)])
def test_bayes_decision_is_posterior_threshold(problem, cost):
    X, _ = problem.sample(2000, random_state=2)
    expected = np.where(problem.posterior(X) > bayes_threshold(cost), 1, -1)
    assert_array_equal(problem.bayes_decision(X, cost=cost), expected)
    assert problem.bayes_decision(X, cost=cost).dtype.kind == "i"


def test_ratio_and_pair_are_the_same_cost(problem):
    X, _ = problem.sample(300, random_state=3)
    assert_array_equal(
        problem.bayes_decision(X, cost=5), problem.bayes_decision(X, cost=(5, 1))
    )
    assert problem.bayes_risk(5) == problem.bayes_risk((5.0, 1.0))


def test_boundary_grid_sign_is_the_decision(problem):
    xx, yy, g = problem.bayes_boundary_grid(5, resolution=50)
    assert xx.shape == yy.shape == g.shape == (50, 50)
    points = np.c_[xx.ravel(), yy.ravel()]
    assert_array_equal(
        np.where(g.ravel() > 0, 1, -1), problem.bayes_decision(points, cost=5)
    )
    assert (g > 0).any() and (g < 0).any()  # the boundary crosses the window
    xx, yy, _ = problem.bayes_boundary_grid(2, xlim=(0, 1), ylim=(2, 3), resolution=3)
    assert_allclose(xx[0], [0, 0.5, 1])
    assert_allclose(yy[:, 0], [2, 2.5, 3])


# --------------------------------------------------------------- Bayes risk
def test_bayes_risk_matches_a_million_samples(problem):
    """The acceptance test: 10**6 samples, C1/C2 = 5, within 1%."""
    risk = problem.bayes_risk(5)
    empirical = monte_carlo_cost(
        problem, lambda X: problem.bayes_decision(X, cost=5), (5, 1), 10**6, seed=0
    )
    assert abs(empirical - risk) / risk < 0.01


@pytest.mark.parametrize("cost", [1, 2, 5, (8, 3), (1, 6)])
@pytest.mark.parametrize("priors", [(0.5, 0.5), (0.1, 0.9), (0.8, 0.2)])
def test_bayes_risk_equal_covariances_closed_form(cost, priors):
    means = [[0.3, -1.0], [1.5, 0.5]]
    cov = np.array([[2.0, 0.7], [0.7, 1.2]])
    problem = make_gaussian_problem(means, [cov, cov], priors)
    c1, c2 = (cost, 1) if np.isscalar(cost) else cost
    expected = closed_form_equal_covariances(means, cov, priors, c1, c2)
    assert_allclose(problem.bayes_risk(cost), expected, rtol=1e-6)
    risk, error = problem.bayes_risk(cost, return_error=True)
    assert error < 1e-8


def test_bayes_risk_one_feature_is_exact():
    problem = make_gaussian_problem([[0.0], [2.0]], [[[1.5]], [[1.5]]], [0.3, 0.7])
    expected = closed_form_equal_covariances([[0.0], [2.0]], [[1.5]], [0.3, 0.7], 4, 1)
    assert_allclose(problem.bayes_risk(4), expected, rtol=1e-12)


def test_bayes_risk_three_features_quasi_monte_carlo():
    rng = np.random.default_rng(0)
    B = rng.normal(size=(3, 3))
    cov = B @ B.T + np.eye(3)
    means = rng.normal(size=(2, 3))
    problem = make_gaussian_problem(means, [cov, cov], [0.4, 0.6])
    risk, error = problem.bayes_risk(3, return_error=True)
    expected = closed_form_equal_covariances(means, cov, [0.4, 0.6], 3, 1)
    assert abs(risk - expected) < max(5 * error, 1e-6)
    assert abs(risk - expected) / expected < 1e-3


def test_bayes_risk_against_2d_adaptive_quadrature(problem):
    """Independent check: scipy.integrate.dblquad of min(C1 pi+ p+, C2 pi- p-)."""
    c1, c2 = 5.0, 1.0
    inv = [np.linalg.inv(c) for c in problem.covs]
    norms = [1 / (2 * np.pi * np.sqrt(np.linalg.det(c))) for c in problem.covs]

    def pdf(k, x, y):
        d = np.array([x, y]) - problem.means[k]
        return norms[k] * np.exp(-0.5 * d @ inv[k] @ d)

    def integrand(y, x):
        return min(c1 * 0.5 * pdf(0, x, y), c2 * 0.5 * pdf(1, x, y))

    value, err = integrate.dblquad(
        integrand, -12, 12, -12, 12, epsabs=1e-6, epsrel=1e-6
    )
    assert abs(problem.bayes_risk((c1, c2)) - value) < 1e-6 + err


def test_error_rates_recombine_to_the_risk(problem):
    fnr, fpr = problem.error_rates((5, 2))
    assert 0 < fnr < 1 and 0 < fpr < 1
    assert_allclose(
        5 * 0.5 * fnr + 2 * 0.5 * fpr, problem.bayes_risk((5, 2)), rtol=1e-12
    )
    # Raising the cost of false negatives trades them for false positives.
    fnr_high, fpr_high = problem.error_rates((10, 2))
    assert fnr_high < fnr and fpr_high > fpr


def test_bayes_risk_increases_with_c1(problem):
    risks = [problem.bayes_risk((c1, 1.0)) for c1 in np.geomspace(0.2, 20, 12)]
    assert np.all(np.diff(risks) > 0)


def test_bayes_risk_scales_with_the_costs(problem):
    assert_allclose(problem.bayes_risk((15, 3)), 3 * problem.bayes_risk(5), rtol=1e-10)


def test_bayes_risk_below_trivial_rules(problem):
    for c1 in (0.1, 1, 5, 50):
        trivial = min(0.5 * c1, 0.5 * 1.0)
        assert problem.bayes_risk(c1) < trivial


@pytest.mark.parametrize("cost", [0.3, 1, 2, 7])
@pytest.mark.parametrize("priors", [(0.5, 0.5), (0.2, 0.8)])
def test_coinciding_classes_risk_is_the_best_constant_rule(cost, priors):
    cov = [[2.0, 0.3], [0.3, 1.0]]
    c1, c2 = cost, 1.0
    same = make_gaussian_problem([[1.0, 2.0], [1.0, 2.0]], [cov, cov], priors)
    assert same.bayes_risk(cost) == pytest.approx(min(priors[0] * c1, priors[1] * c2))
    # and the limit: nearly coinciding classes approach it continuously
    close = make_gaussian_problem([[1.0, 2.0], [1.0, 2.001]], [cov, cov], priors)
    assert close.bayes_risk(cost) == pytest.approx(
        min(priors[0] * c1, priors[1] * c2), rel=2e-3
    )


def test_swapping_the_classes_and_costs_keeps_the_risk(problem):
    swapped = make_gaussian_problem(problem.means[::-1], problem.covs[::-1], [0.5, 0.5])
    for c1, c2 in [(5, 1), (2, 3), (10, 1)]:
        assert_allclose(
            swapped.bayes_risk((c2, c1)), problem.bayes_risk((c1, c2)), rtol=1e-9
        )


def test_well_separated_classes_have_tiny_risk():
    problem = make_gaussian_problem(
        [[0, 0], [30, 0]], [np.eye(2), np.eye(2)], [0.5, 0.5]
    )
    assert problem.bayes_risk(5) < 1e-20


spd = st.tuples(st.floats(0.2, 5), st.floats(0.2, 5), st.floats(-0.9, 0.9)).map(
    lambda t: np.array(
        [[t[0], t[2] * np.sqrt(t[0] * t[1])], [t[2] * np.sqrt(t[0] * t[1]), t[1]]]
    )
)


@settings(max_examples=25, deadline=None)
@given(
    mean=st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
    cov_pos=spd,
    cov_neg=spd,
    prior=st.floats(0.05, 0.95),
    c1=st.floats(0.05, 20),
    c2=st.floats(0.05, 20),
)
def test_bayes_risk_properties(mean, cov_pos, cov_neg, prior, c1, c2):
    problem = make_gaussian_problem(
        [mean, [0.0, 0.0]], [cov_pos, cov_neg], [prior, 1 - prior]
    )
    risk, error = problem.bayes_risk((c1, c2), return_error=True)
    assert np.isfinite(risk) and error < 1e-8
    assert 0 <= risk <= min(prior * c1, (1 - prior) * c2) * (1 + 1e-9)
    swapped = make_gaussian_problem(
        [[0.0, 0.0], mean], [cov_neg, cov_pos], [1 - prior, prior]
    )
    assert_allclose(swapped.bayes_risk((c2, c1)), risk, rtol=1e-7, atol=1e-12)


# ---------------------------------------------------------- expected cost
# make test: C1/C2 = 5; every paper cost in make test-all (8 million points each)
@pytest.mark.parametrize(
    "c1",
    [c if c == 5 else pytest.param(c, marks=pytest.mark.slow) for c in PAPER_COSTS],
)
def test_expected_cost_of_the_bayes_rule_is_the_bayes_risk(problem, c1):
    value = problem.expected_cost(lambda X: problem.bayes_decision(X, cost=c1), cost=c1)
    assert_allclose(value, problem.bayes_risk(c1), rtol=1e-4)


def test_expected_cost_of_other_rules_is_higher(problem):
    risk = problem.bayes_risk(5)
    blind = problem.expected_cost(lambda X: problem.bayes_decision(X, cost=1), cost=5)
    assert blind > risk * 1.05
    # constant rules: the grid puts all the probability in, so these are exact
    assert problem.expected_cost(lambda X: np.ones(len(X), int), cost=5) == 0.5
    assert problem.expected_cost(lambda X: -np.ones(len(X), int), cost=5) == 2.5


def test_expected_cost_of_a_fitted_estimator(problem):
    X, y = problem.sample(2000, random_state=4)
    model = LogisticRegression(class_weight={1: 5, -1: 1}).fit(X, y)
    value = problem.expected_cost(model, cost=5, resolution=512)
    assert value >= problem.bayes_risk(5) - 1e-3
    mc = monte_carlo_cost(problem, model.predict, (5, 1), 200_000, seed=5)
    assert value == pytest.approx(mc, rel=0.03)


def test_expected_cost_other_dimensions():
    problem = make_gaussian_problem(
        [[0, 0, 0], [1, 1, 0]], [np.eye(3), 2 * np.eye(3)], [0.5, 0.5]
    )
    value = problem.expected_cost(
        lambda X: problem.bayes_decision(X, cost=3), cost=3, resolution=512
    )
    assert value == pytest.approx(problem.bayes_risk(3), rel=2e-3)


def test_expected_cost_rejects_bad_classifiers(problem):
    with pytest.raises(ValueError, match=r"\{-1, \+1\}"):
        problem.expected_cost(lambda X: np.zeros(len(X), int), cost=5, resolution=8)
    with pytest.raises(ValueError, match="one label per point"):
        problem.expected_cost(lambda X: np.ones((len(X), 2)), cost=5, resolution=8)
    with pytest.raises(TypeError, match="predict"):
        problem.expected_cost("not a classifier", cost=5)
    with pytest.raises(ValueError, match="resolution"):
        problem.expected_cost(lambda X: np.ones(len(X)), cost=5, resolution=2)


# ---------------------------------------------------------------- sampling
def test_sample_is_deterministic_and_stratified(problem):
    X1, y1 = problem.sample(1001, random_state=7)
    X2, y2 = problem.sample(1001, random_state=7)
    assert_array_equal(X1, X2)
    assert_array_equal(y1, y2)
    assert X1.shape == (1001, 2) and X1.dtype == np.float64
    assert y1.dtype.kind == "i" and set(np.unique(y1)) == {-1, 1}
    assert np.sum(y1 == 1) == 501  # round(500.5) with halves up
    X3, _ = problem.sample(1001, random_state=8)
    assert not np.array_equal(X1, X3)
    # shuffled, not sorted by class
    assert np.any(np.diff(y1) > 0) and np.any(np.diff(y1) < 0)


@pytest.mark.parametrize(
    ("n", "prior", "n_pos"), [(10, 0.3, 3), (7, 0.5, 4), (2000, 0.5, 1000)]
)
def test_sample_class_counts(n, prior, n_pos):
    problem = make_gaussian_problem(priors=[prior, 1 - prior])
    _, y = problem.sample(n, random_state=0)
    assert np.sum(y == 1) == n_pos and np.sum(y == -1) == n - n_pos


def test_positives_come_from_the_first_gaussian(problem):
    X, y = problem.sample(40_000, random_state=9)
    assert_allclose(X[y == 1].mean(axis=0), problem.means[0], atol=0.06)
    assert_allclose(np.cov(X[y == 1].T), problem.covs[0], rtol=0.05)
    assert_allclose(X[y == -1].mean(axis=0), problem.means[1], atol=0.06)
    assert_allclose(np.cov(X[y == -1].T), problem.covs[1], rtol=0.05)


# -------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"means": [[0, 0, 0], [1, 1, 1]]}, "covs must have shape"),
        ({"means": [0, 1]}, "means must have shape"),
        ({"covs": [[[1, 0.5], [0, 1]], [[1, 0], [0, 1]]]}, r"covs\[0\].*not symmetric"),
        (
            {"covs": [[[1, 0], [0, 1]], [[1, 2], [2, 1]]]},
            r"covs\[1\].*positive definite",
        ),
        ({"covs": [[[1, 0], [0, 0]], [[1, 0], [0, 1]]]}, "positive definite"),
        ({"covs": [[1, 0], [0, 1]]}, "covs must have shape"),
        ({"priors": [0.6, 0.6]}, "priors"),
        ({"priors": [1.0, 0.0]}, "priors"),
        ({"priors": [-0.5, 1.5]}, "priors"),
        ({"priors": [1.0]}, "priors"),
        ({"means": [[np.nan, 0], [1, 1]]}, "means contains NaN"),
        ({"covs": [[[np.inf, 0], [0, 1]], [[1, 0], [0, 1]]]}, "covs contains NaN"),
    ],
)
def test_bad_parameters_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_gaussian_problem(**kwargs)


def test_non_numeric_parameters_raise():
    with pytest.raises(TypeError, match="means"):
        make_gaussian_problem(means=[["a", "b"], ["c", "d"]])


@pytest.mark.parametrize("n", [0, -3, 2.5, True, "10"])
def test_bad_sample_size_raises(problem, n):
    with pytest.raises(ValueError, match="n must be a positive integer"):
        problem.sample(n)


def test_bad_inputs_to_the_rule_raise(problem):
    with pytest.raises(ValueError, match=r"shape \(n_samples, 2\)"):
        problem.posterior([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="NaN"):
        problem.bayes_decision([[np.nan, 0.0]], cost=5)
    with pytest.raises(ValueError, match="C1"):
        problem.bayes_risk(-1)
    with pytest.raises(ValueError, match="binary cost"):
        problem.bayes_decision([[0.0, 0.0]], cost=[1, 2, 3])
    with pytest.raises(ValueError, match="2-D problem"):
        make_gaussian_problem(
            [[0.0], [1.0]], [[[1.0]], [[1.0]]], [0.5, 0.5]
        ).bayes_boundary_grid(1)
