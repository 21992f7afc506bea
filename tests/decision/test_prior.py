"""Tests of costsense.decision._prior: Bayes adjustment to a new prior, EM estimate."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.stats import norm

from costsense.decision import adjust_to_prior, estimate_prior_shift

MEANS = np.array([-1.0, 0.5, 2.0])


def _posterior(x, prior):
    """Exact posterior of three unit Gaussians at ``x`` under ``prior``."""
    joint = norm.pdf(np.asarray(x)[:, None], loc=MEANS) * prior
    return joint / joint.sum(axis=1, keepdims=True)


def _sample(prior, n, seed):
    rng = np.random.default_rng(seed)
    labels = rng.choice(MEANS.size, size=n, p=prior)
    return rng.normal(MEANS[labels], 1.0), labels


def test_adjusting_exact_posteriors_gives_the_posteriors_under_the_new_prior():
    x = np.linspace(-4, 5, 41)
    train, new = np.array([0.6, 0.3, 0.1]), np.array([0.2, 0.2, 0.6])
    assert_allclose(
        adjust_to_prior(_posterior(x, train), train, new), _posterior(x, new)
    )


def test_counts_and_shares_give_the_same_adjustment_and_equal_priors_change_nothing():
    proba = np.random.default_rng(0).dirichlet(np.ones(3), size=20)
    assert_allclose(
        adjust_to_prior(proba, [2, 1, 1], [1, 1, 2]),
        adjust_to_prior(proba, [0.5, 0.25, 0.25], [0.25, 0.25, 0.5]),
    )
    assert_allclose(adjust_to_prior(proba, [3, 2, 5], [30, 20, 50]), proba)


@pytest.mark.parametrize("new", [[0.2, 0.3, 0.5], [0.05, 0.15, 0.8], [0.7, 0.25, 0.05]])
def test_em_recovers_a_shifted_prior_within_two_points(new):
    train = np.array([0.5, 0.3, 0.2])
    x, labels = _sample(new, 5000, seed=1)
    prior, adjusted = estimate_prior_shift(_posterior(x, train), train)
    assert np.abs(prior - new).max() < 0.02
    # the rows' adjusted probabilities are the posteriors under the estimate
    assert_allclose(adjusted, _posterior(x, prior), atol=1e-9)


def test_em_keeps_the_training_prior_when_nothing_shifted():
    train = np.array([0.5, 0.3, 0.2])
    x, _ = _sample(train, 5000, seed=2)
    prior, _ = estimate_prior_shift(_posterior(x, train), train)
    assert np.abs(prior - train).max() < 0.02


def test_em_prior_is_a_fixed_point_of_its_update():
    proba = np.random.default_rng(3).dirichlet([1, 2], size=200)
    prior, adjusted = estimate_prior_shift(proba, [1, 1], tol=1e-12)
    assert_allclose(adjusted.mean(axis=0), prior, atol=1e-9)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: adjust_to_prior([[0.5, 0.5]], [1, 0], [1, 1]), "train_prior: give 2"),
        (lambda: adjust_to_prior([[0.5, 0.5]], [1, 1], [1, -1]), "new_prior: give 2"),
        (lambda: adjust_to_prior([[0.5, 0.5]], [1, 1], [0, 0]), "new_prior: give at"),
        (lambda: adjust_to_prior([[1.0, 0.0]], [1, 1], [0, 1]), "zero weight"),
        (lambda: adjust_to_prior([[0.5, 0.6]], [1, 1], [1, 1]), "sum to 1"),
        (lambda: adjust_to_prior([[0.5, 0.5]], [1, 1, 1], [1, 1]), "train_prior"),
        (lambda: estimate_prior_shift(np.empty((0, 2)), [1, 1]), "at least one row"),
        (lambda: estimate_prior_shift([[0.5, 0.5]], [1, 1], tol=0), "tol must"),
    ],
)
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()
