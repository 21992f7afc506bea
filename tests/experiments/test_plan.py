"""Forward-chaining folds: the past trains, the next block of whole periods tests."""

from __future__ import annotations

import numpy as np
import pytest

from costsense.experiments import forward_chaining


def _periods(kind, rng, n):
    days = rng.integers(0, rng.integers(6, 30), size=n)
    if kind == "number":
        return days * 1.5
    if kind == "date":
        return np.datetime64("2024-01-01") + days.astype("timedelta64[D]")
    return np.array([f"w{d:02d}" for d in days])  # zero-padded: text order is time


@pytest.mark.parametrize("kind", ["number", "date", "text"])
@pytest.mark.parametrize("seed", range(8))
def test_no_fold_tests_a_period_at_or_before_one_it_trained_on(kind, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 200))
    time = _periods(kind, rng, n)
    folds = int(rng.integers(1, min(5, np.unique(time).size - 1) + 1))
    found = forward_chaining(time, folds)
    assert len(found) == folds
    block0 = set(found[0][0].tolist())
    for f, (train, test) in enumerate(found):
        assert train.size and test.size
        assert max(time[train].tolist()) < min(time[test].tolist())  # strictly later
        # whole periods: no period is on both sides, or left out of the test
        assert not set(time[train].tolist()) & set(time[test].tolist())
        assert np.isin(time, time[test]).sum() == test.size
        # fold f + 1 trains on fold f's training rows and its test block
        if f + 1 < folds:
            later = set(found[f + 1][0].tolist())
            assert later == set(train.tolist()) | set(test.tolist())
    # every row after the first block is tested exactly once
    tested = np.concatenate([test for _, test in found])
    assert np.array_equal(np.sort(tested), np.setdiff1d(np.arange(n), list(block0)))


def test_blocks_of_single_row_periods_hold_equal_rows():
    time = np.arange(100)[::-1]  # one row a period, rows in reverse time
    found = forward_chaining(time, 4)
    assert [test.size for _, test in found] == [20, 20, 20, 20]
    assert [train.size for train, _ in found] == [20, 40, 60, 80]
    assert set(time[found[0][1]].tolist()) == set(range(20, 40))


def test_text_periods_are_ordered_as_written():
    time = np.array(["b", "a", "10", "9"])  # "10" < "9" < "a" < "b"
    found = forward_chaining(time, 3)
    assert [time[test].tolist() for _, test in found] == [["9"], ["a"], ["b"]]


def test_too_few_periods_one_class_first_and_missing_periods_are_refused():
    with pytest.raises(ValueError, match=r"3 distinct periods cannot make 3 .*use 2"):
        forward_chaining([1, 1, 2, 3], 3)
    y = np.array([0, 0, 0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"first training block .* class 0 only"):
        forward_chaining([1, 1, 1, 2, 3, 3], 2, y)
    with pytest.raises(ValueError, match="some rows have no period"):
        forward_chaining([1.0, np.nan, 2.0, 3.0], 2)
