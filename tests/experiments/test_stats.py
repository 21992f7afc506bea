from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from costsense.experiments import (
    PairedTest,
    mean_ranks,
    paired_t_test,
    win_tie_loss,
)
from costsense.experiments._stats import (
    best_mask,
    describe,
    paired_interval,
    welch_interval,
    wilcoxon_test,
)

SEEDS = range(6)


def _paired(seed: int, n: int = 10) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    b = rng.normal(50.0, 10.0, size=n)
    a = b + rng.normal(rng.uniform(-3, 3), 2.0, size=n)
    return a, b


# describe -------------------------------------------------------------------


def test_describe_is_mean_and_sample_std():
    x = np.random.default_rng(0).normal(size=7)
    mean, std = describe(x)
    assert mean == pytest.approx(x.sum() / 7)
    assert std == pytest.approx(np.sqrt(np.sum((x - x.mean()) ** 2) / 6))
    assert describe([2.0, 4.0]) == (3.0, pytest.approx(np.sqrt(2.0)))


def test_describe_does_not_depend_on_the_order():
    x = np.random.default_rng(1).uniform(size=101)
    assert describe(x)[0] == describe(x[::-1])[0] == describe(np.sort(x))[0]


def test_describe_of_one_value_has_zero_std():
    assert describe([4.5]) == (4.5, 0.0)


# paired t-test ---------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_paired_t_test_equals_scipy(seed):
    a, b = _paired(seed, n=5 + seed)
    expected = stats.ttest_rel(a, b)
    result = paired_t_test(a, b, alpha=0.05)
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
    assert result.significant == (expected.pvalue < 0.05)
    assert result.mean_difference == pytest.approx(np.mean(a) - np.mean(b))


def test_paired_t_test_by_hand():
    # d = [2, 2, 1, 3]: mean 2, var 2/3, t = 2 / sqrt(2/3 / 4) = sqrt(24)
    result = paired_t_test([3.0, 4.0, 5.0, 7.0], [1.0, 2.0, 4.0, 4.0])
    assert result.statistic == pytest.approx(np.sqrt(24.0))
    assert result.pvalue == pytest.approx(2 * stats.t.sf(np.sqrt(24.0), df=3))
    assert result.mean_difference == 2.0


def test_alpha_decides_significance():
    a, b = [1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.5, 2.0, 4.1, 3.9]
    p = stats.ttest_rel(a, b).pvalue
    assert 0.01 < p < 0.2
    assert paired_t_test(a, b, alpha=0.2).significant
    assert not paired_t_test(a, b, alpha=0.01).significant


@pytest.mark.parametrize(
    "test",
    [
        paired_t_test,
        lambda a, b: paired_t_test(a, b, test_train_ratio=0.25),
    ],
    ids=["t", "corrected"],
)
def test_zero_variance_differences_are_defined(test):
    x = np.array([1.0, 5.0, 2.0, 7.5])
    same = test(x, x)
    assert (same.statistic, same.pvalue, same.significant) == (0.0, 1.0, False)
    assert same.mean_difference == 0.0
    up = test(x + 2.0, x)
    assert (up.statistic, up.pvalue, up.significant) == (np.inf, 0.0, True)
    assert up.mean_difference == pytest.approx(2.0)
    down = test(x - 2.0, x)
    assert (down.statistic, down.pvalue, down.significant) == (-np.inf, 0.0, True)
    # (x + 0.1) - x differs from 0.1 by rounding only: still a constant shift,
    # where scipy's ttest_rel returns a huge finite t instead.
    x = np.array([1.0, 2.0, 3.0, 4.0])
    assert np.ptp((x + 0.1) - x) > 0
    assert test(x + 0.1, x).statistic == np.inf


@pytest.mark.parametrize(
    "test",
    [
        paired_t_test,
        lambda a, b: paired_t_test(a, b, test_train_ratio=0.25),
        wilcoxon_test,
    ],
    ids=["t", "corrected", "wilcoxon"],
)
def test_invalid_samples_raise(test):
    with pytest.raises(ValueError, match="same length"):
        test([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="at least 2 pairs"):
        test([1.0], [2.0])
    with pytest.raises(ValueError, match="NaN"):
        test([1.0, np.nan, 3.0], [1.0, 2.0, 4.0])


# corrected t-test --------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ratio", [0.1, 1 / 9, 0.5])
def test_corrected_t_test_by_hand(seed, ratio):
    a, b = _paired(seed, n=10)
    d = a - b
    J = d.size
    var = np.sum((d - d.mean()) ** 2) / (J - 1)
    t = d.mean() / np.sqrt((1 / J + ratio) * var)
    p = 2 * stats.t.sf(abs(t), df=J - 1)
    result = paired_t_test(a, b, test_train_ratio=ratio, alpha=0.05)
    assert result.statistic == pytest.approx(t, rel=1e-12)
    assert result.pvalue == pytest.approx(p, rel=1e-10)
    assert result.significant == (p < 0.05)
    assert result.mean_difference == pytest.approx(d.mean())


def test_corrected_t_test_hand_value():
    # d = [2, 2, 1, 3], ratio 1/4: t = 2 / sqrt((1/4 + 1/4) * 2/3) = 2 sqrt(3)
    result = paired_t_test(
        [3.0, 4.0, 5.0, 7.0], [1.0, 2.0, 4.0, 4.0], test_train_ratio=0.25
    )
    assert result.statistic == pytest.approx(2 * np.sqrt(3.0))
    assert result.pvalue == pytest.approx(2 * stats.t.sf(2 * np.sqrt(3.0), df=3))


@pytest.mark.parametrize("seed", SEEDS)
def test_corrected_is_never_more_significant_than_plain(seed):
    a, b = _paired(seed, n=4 + seed)
    plain = paired_t_test(a, b)
    for ratio in (1e-3, 0.2, 0.5, 2.0):
        corrected = paired_t_test(a, b, test_train_ratio=ratio)
        assert abs(corrected.statistic) < abs(plain.statistic)
        assert corrected.pvalue > plain.pvalue
        assert np.sign(corrected.statistic) == np.sign(plain.statistic)


def test_corrected_with_zero_ratio_is_the_plain_test():
    a, b = _paired(3)
    expected = stats.ttest_rel(a, b)
    result = paired_t_test(a, b, test_train_ratio=0.0)
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-10)


@pytest.mark.parametrize("ratio", [-0.1, np.nan, np.inf])
def test_corrected_rejects_bad_ratio(ratio):
    with pytest.raises(ValueError, match="test_train_ratio"):
        paired_t_test([1.0, 2.0, 3.0], [0.0, 2.0, 1.0], test_train_ratio=ratio)


# Wilcoxon --------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_wilcoxon_equals_scipy(seed):
    a, b = _paired(seed, n=6 + 3 * seed)
    expected = stats.wilcoxon(a, b)
    result = wilcoxon_test(a, b, alpha=0.05)
    assert result.statistic == expected.statistic
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
    assert result.significant == (expected.pvalue < 0.05)
    assert result.mean_difference == pytest.approx(np.mean(a - b))


def test_wilcoxon_by_hand():
    # all six differences positive: W = 0, exact two-sided p = 2 / 2**6
    result = wilcoxon_test(np.arange(6.0) + 1.0, np.zeros(6))
    assert result.statistic == 0.0
    assert result.pvalue == pytest.approx(2 / 64)
    assert result.significant


def test_wilcoxon_all_zero_differences_is_a_tie():
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    result = wilcoxon_test(x, x)
    assert result.pvalue == 1.0
    assert not result.significant
    assert result.outcome(True) == 0


# outcome and win/tie/loss ------------------------------------------------------


@pytest.mark.parametrize(
    ("significant", "diff", "lower", "expected"),
    [
        (True, -1.0, True, 1),
        (True, -1.0, False, -1),
        (True, 1.0, True, -1),
        (True, 1.0, False, 1),
        (False, -1.0, True, 0),
        (False, 1.0, False, 0),
    ],
)
def test_outcome(significant, diff, lower, expected):
    result = PairedTest(
        statistic=diff, pvalue=0.01, significant=significant, mean_difference=diff
    )
    assert result.outcome(lower) == expected


def _rows(n_folds: int = 8) -> list[tuple[np.ndarray, np.ndarray]]:
    """3 rows where a is clearly lower, 2 where a == b, 1 where a is higher."""
    rng = np.random.default_rng(7)
    rows = []
    for shift in (-5.0, -5.0, -8.0, 0.0, 0.0, 6.0):
        b = rng.uniform(20.0, 40.0, size=n_folds)
        if shift == 0.0:
            rows.append((b.copy(), b))
        else:
            rows.append((b + shift + rng.normal(0.0, 0.5, size=n_folds), b))
    return rows


@pytest.mark.parametrize("ratio", [0.0, 0.2])
def test_win_tie_loss_on_constructed_rows(ratio):
    rows = _rows()
    assert win_tie_loss(rows, test_train_ratio=ratio) == (3, 2, 1)
    assert win_tie_loss(rows, test_train_ratio=ratio, lower_is_better=False) == (
        1,
        2,
        3,
    )
    assert win_tie_loss(iter(rows[:0]), test_train_ratio=ratio) == (0, 0, 0)


def test_win_tie_loss_counts_every_row_once_and_uses_alpha():
    a, b = [1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.5, 2.0, 4.1, 3.9]
    assert 0.01 < stats.ttest_rel(a, b).pvalue < 0.2
    # a is higher: a loss when lower is better, at a lenient level only
    assert win_tie_loss([(a, b)] * 4, alpha=0.2) == (0, 0, 4)
    assert win_tie_loss([(a, b)] * 4, alpha=0.01) == (0, 4, 0)


# best_mask and mean_ranks ------------------------------------------------------


def test_best_mask_marks_ties_and_ignores_nan():
    means = np.array(
        [
            [3.0, 1.0, 2.0],
            [1.0, 1.0, 2.0],
            [np.nan, 5.0, 4.0],
            [np.nan, np.nan, np.nan],
            [2.0, 2.0 * (1 + 1e-12), 2.001],
        ]
    )
    lower = best_mask(means, lower_is_better=True)
    np.testing.assert_array_equal(
        lower,
        [
            [False, True, False],
            [True, True, False],
            [False, False, True],
            [False, False, False],
            [True, True, False],
        ],
    )
    higher = best_mask(means, lower_is_better=False)
    np.testing.assert_array_equal(
        higher,
        [
            [True, False, False],
            [False, False, True],
            [False, True, False],
            [False, False, False],
            [False, False, True],
        ],
    )
    assert best_mask(means, lower_is_better=True).dtype == bool


def test_mean_ranks_by_hand():
    means = np.array(
        [
            [0.1, 0.3, 0.2],  # lower ranks 1 3 2
            [0.5, 0.5, 0.4],  # lower ranks 2.5 2.5 1
            [0.9, 0.1, 0.1],  # lower ranks 3 1.5 1.5
        ]
    )
    np.testing.assert_allclose(
        mean_ranks(means, lower_is_better=True), [6.5 / 3, 7 / 3, 4.5 / 3]
    )
    # higher is better: ranks 3 1 2 / 1.5 1.5 3 / 1 2.5 2.5
    np.testing.assert_allclose(
        mean_ranks(means, lower_is_better=False), [5.5 / 3, 5 / 3, 7.5 / 3]
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_mean_ranks_sum_and_agree_with_rankdata(seed):
    rng = np.random.default_rng(seed)
    means = rng.integers(0, 4, size=(5, 4)).astype(float)  # many ties
    ranks = mean_ranks(means, lower_is_better=True)
    assert ranks.sum() == pytest.approx(4 * 5 / 2)
    expected = np.mean([stats.rankdata(row) for row in means], axis=0)
    np.testing.assert_allclose(ranks, expected)
    flipped = mean_ranks(means, lower_is_better=False)
    np.testing.assert_allclose(ranks + flipped, 5.0)


def test_mean_ranks_put_nan_last():
    means = np.array([[np.nan, 1.0, 2.0], [3.0, 1.0, 2.0]])
    np.testing.assert_allclose(mean_ranks(means, lower_is_better=True), [3, 1, 2])
    np.testing.assert_allclose(
        mean_ranks(means, lower_is_better=False), [2.0, 2.5, 1.5]
    )


def test_paired_interval_is_the_t_interval_the_paired_test_inverts():
    rng = np.random.default_rng(7)
    for shift in (0.0, 0.3, 1.0):
        a = rng.normal(size=12)
        b = a - shift + rng.normal(scale=0.5, size=12)
        d = a - b
        mean, low, high = paired_interval(a, b, alpha=0.05)
        expected = stats.t.interval(
            0.95, d.size - 1, loc=d.mean(), scale=d.std(ddof=1) / np.sqrt(d.size)
        )
        assert mean == pytest.approx(d.mean())
        assert (low, high) == pytest.approx(expected)
        # zero lies outside the interval exactly when the test rejects
        assert (low > 0 or high < 0) == paired_t_test(a, b, alpha=0.05).significant
    # equal differences leave no spread: the point interval
    assert paired_interval([1.0, 2.0, 3.0], [0.5, 1.5, 2.5]) == (0.5, 0.5, 0.5)


def test_the_corrected_interval_and_statistic_widen_by_the_same_factor():
    a, b = _paired(0)
    d = a - b
    ratio = 1 / 4  # five-fold
    test = paired_t_test(a, b, test_train_ratio=ratio)
    by_hand = d.mean() / np.sqrt((1 / d.size + ratio) * d.var(ddof=1))
    assert test.statistic == pytest.approx(by_hand)
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(by_hand), d.size - 1))
    mean, low, high = paired_interval(a, b, test_train_ratio=ratio)
    _, plain_low, plain_high = paired_interval(a, b)
    widening = np.sqrt((1 / d.size + ratio) * d.size)
    assert (high - low) == pytest.approx(widening * (plain_high - plain_low))
    # the interval excludes 0 exactly when the corrected test is significant
    assert (low > 0 or high < 0) == test.significant


def test_welch_interval_against_a_hand_computation():
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.65, 0.05, 10), rng.normal(0.89, 0.02, 7)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = stats.t.ppf(0.975, df) * np.sqrt(va + vb)
    point, low, high = welch_interval(a, b)
    assert point == pytest.approx(a.mean() - b.mean())
    assert (low, high) == pytest.approx((point - half, point + half))
    # scipy's Welch test rejects at 5 % exactly when the interval excludes 0
    p = stats.ttest_ind(a, b, equal_var=False).pvalue
    assert (p < 0.05) == (high < 0 or low > 0)
    with pytest.raises(ValueError, match="2 values a side"):
        welch_interval([1.0], [1.0, 2.0])
