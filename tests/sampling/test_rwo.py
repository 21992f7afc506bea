"""RWO-Sampling (Zhang & Li 2014): random steps of the standard error of the mean."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from costsense.sampling import RWOSampler


def _imbalanced(minority: np.ndarray, n_majority: int):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(n_majority, minority.shape[1])) + 5.0, minority])
    y = np.r_[np.zeros(n_majority, dtype=int), np.ones(len(minority), dtype=int)]
    return X, y


def test_synthetic_rows_keep_the_class_mean_and_add_one_nth_of_its_variance():
    # x_new = x_parent - r sigma / sqrt(n): with every parent used equally often,
    # E x_new = class mean and Var x_new = sigma^2 (1 + 1/n)
    rng = np.random.default_rng(1)
    n_class, rounds = 8, 5000
    minority = rng.normal(size=(n_class, 3)) * [1.0, 3.0, 0.2] + [1.0, -2.0, 4.0]
    X, y = _imbalanced(minority, n_majority=n_class * (rounds + 1))
    X_res, _ = RWOSampler(random_state=0).fit_resample(X, y)
    synthetic = X_res[len(y) :]
    assert synthetic.shape == (n_class * rounds, 3)
    sigma2 = minority.var(axis=0)
    n = synthetic.shape[0]
    # the parents are exactly balanced, so only the steps vary: their mean has
    # variance sigma^2 / n_class / n
    step_se = np.sqrt(sigma2 / n_class / n)
    assert np.all(np.abs(synthetic.mean(axis=0) - minority.mean(axis=0)) < 5 * step_se)
    expected = sigma2 * (1.0 + 1.0 / n_class)
    np.testing.assert_allclose(synthetic.var(axis=0), expected, rtol=0.03)


class _NoSteps:
    """A generator whose normal steps are zero, to read off the parents."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def standard_normal(self, size):
        return np.zeros(size)

    def __getattr__(self, name):
        return getattr(self.rng, name)


@pytest.mark.parametrize(("n_class", "n_new"), [(5, 15), (5, 17), (7, 3), (4, 4)])
def test_every_row_of_the_class_is_a_parent_floor_or_ceil_times(n_class, n_new):
    minority = np.arange(n_class * 2, dtype=float).reshape(n_class, 2)
    (mean, step), draws = RWOSampler()._draw_continuous(minority, n_new, _NoSteps(0))
    np.testing.assert_allclose(mean, minority.mean(axis=0))
    np.testing.assert_allclose(step, minority.std(axis=0) / np.sqrt(n_class))
    parents = [int(np.flatnonzero(np.all(minority == row, axis=1))[0]) for row in draws]
    counts = np.bincount(parents, minlength=n_class)
    assert counts.sum() == n_new
    assert set(counts) <= {n_new // n_class, -(-n_new // n_class)}


def test_a_class_of_one_row_is_copied():
    X, y = _imbalanced(np.array([[1.5, -0.5]]), n_majority=6)
    X_res, y_res = RWOSampler(random_state=0).fit_resample(X, y)
    assert Counter(y_res.tolist()) == {0: 6, 1: 6}
    np.testing.assert_array_equal(X_res[len(y) :], np.tile([1.5, -0.5], (5, 1)))


def test_categorical_columns_are_drawn_from_the_class_values():
    rng = np.random.default_rng(2)
    minority = np.column_stack([rng.normal(size=30), rng.choice([3.0, 7.0], size=30)])
    X, y = _imbalanced(minority, n_majority=3000)
    X_res, _ = RWOSampler(categorical_features=[1], random_state=0).fit_resample(X, y)
    synthetic = X_res[len(y) :, 1]
    assert set(np.unique(synthetic)) <= {3.0, 7.0}  # no step on a category
    share = np.mean(synthetic == 7.0)
    expected = np.mean(minority[:, 1] == 7.0)
    assert abs(share - expected) < 4 * np.sqrt(
        expected * (1 - expected) / synthetic.size
    )
