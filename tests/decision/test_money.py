"""Tests of savings_interval, cost_sensitivity and capacity_curve."""

from __future__ import annotations

import re

import numpy as np
import pytest

from costsense.costs import Costs
from costsense.decision import (
    ActionCosts,
    capacity_curve,
    cost_sensitivity,
    decide,
    expected_costs,
    realised_costs,
    savings_interval,
)

ALLOW_BLOCK = ("allow", "block")


def test_savings_point_estimate_by_hand():
    table = ActionCosts([[0, 5], [10, 2]], ALLOW_BLOCK)
    y = [0, 0, 1, 1]
    action = ["allow", "block", "block", "allow"]
    # decision: 0 + 5 + 2 + 10 = 17; allow everything 20, block everything 14
    best = savings_interval(y, action, table, n_resamples=50)
    assert (best.saving, best.share) == pytest.approx((14 - 17, -3 / 14))
    allow = savings_interval(y, action, table, default="allow", n_resamples=50)
    assert (allow.saving, allow.share) == pytest.approx((3, 3 / 20))
    assert allow.low <= allow.saving <= allow.high
    assert allow.level == 0.95 and "stratified by true class" in allow.method


def _population(rng, n):
    """Rows of a fraud-like problem: 20 % positive, per-row amounts, a noisy rule."""
    y = np.r_[np.ones(n // 5, int), np.zeros(n - n // 5, int)]
    amount = rng.uniform(1, 10, n)
    score = y + rng.normal(0, 0.8, n)
    block = score > 0.6
    # allow costs the amount of a positive; block costs 1 on a negative, 0.5 else
    table = np.zeros((n, 2, 2))
    table[:, 1, 0] = amount
    table[:, 0, 1] = 1.0
    table[:, 1, 1] = 0.5
    realised = table[np.arange(n), y]
    saving = realised[:, 0] - realised[np.arange(n), block.astype(int)]
    return y, table, block, saving


def test_savings_interval_covers_the_population_saving_at_its_level():
    rng = np.random.default_rng(7)
    y, table, block, saving = _population(rng, 10**6)
    n, draws = 400, 300
    target = saving.mean() * n  # class shares exact: n x the mean per row
    positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    covered = 0
    for draw in range(draws):
        rows = np.r_[
            rng.choice(positives, n // 5, replace=False),
            rng.choice(negatives, n - n // 5, replace=False),
        ]
        action = np.where(block[rows], "block", "allow")
        interval = savings_interval(
            y[rows],
            action,
            ActionCosts(table[rows], ALLOW_BLOCK),
            default="allow",
            n_resamples=1000,
            random_state=draw,
        )
        covered += interval.low <= target <= interval.high
    band = 3 * np.sqrt(0.95 * 0.05 / draws)
    assert abs(covered / draws - 0.95) <= band


def test_savings_interval_resamples_whole_groups():
    rng = np.random.default_rng(3)
    groups, size = 30, 4
    table = rng.uniform(0, 10, (groups, 2, 2))
    y = np.r_[np.zeros(15, int), np.ones(15, int)]
    action = rng.choice(ALLOW_BLOCK, groups)
    # groups of identical rows give the interval of one row per group weighing 4
    rows = np.repeat(np.arange(groups), size)
    repeated = ActionCosts(table[rows], ALLOW_BLOCK)
    clustered = savings_interval(y[rows], action[rows], repeated, groups=rows)
    weighed = ActionCosts(size * table, ALLOW_BLOCK)
    single = savings_interval(y, action, weighed, groups=np.arange(groups))
    for field in ("saving", "share", "low", "high", "share_low", "share_high"):
        assert getattr(clustered, field) == pytest.approx(getattr(single, field))
    assert "groups" in clustered.method
    # treating the copies as independent rows understates the spread (by about 2)
    rowwise = savings_interval(y[rows], action[rows], repeated)
    assert rowwise.high - rowwise.low < 0.75 * (clustered.high - clustered.low)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": 1.5}, "level=1.5: give a confidence level in (0, 1)."),
        ({"n_resamples": 0}, "n_resamples=0: give a count >= 1."),
        ({"groups": [1, 2]}, "groups: give one group label per row (4)."),
        ({"default": "review"}, "default: 'review' is not an action"),
        ({"action": ["allow"] * 3}, "action: give one action per row (4)"),
        ({"action": ["allow", "x"] * 2}, "action: 'x' is not an action"),
    ],
)
def test_savings_interval_bad_input(kwargs, message):
    arguments = {"action": ["allow", "block"] * 2, **kwargs}
    action = arguments.pop("action")
    table = ActionCosts([[0, 5], [10, 2]], ALLOW_BLOCK)
    with pytest.raises(ValueError, match=re.escape(message)):
        savings_interval([0, 1, 0, 1], action, table, **arguments)


def _totals(realised, index):
    rows = np.arange(len(index))
    return realised.sum(axis=0), realised[rows, index].sum()


def test_sensitivity_as_given_row_is_a_direct_computation():
    rng = np.random.default_rng(1)
    proba = rng.dirichlet(np.ones(3), 40)
    y = rng.integers(0, 3, 40)
    table = ActionCosts(rng.uniform(0, 10, (40, 3, 2)), ALLOW_BLOCK)
    first = cost_sensitivity(proba, y, table)[0]
    action, _ = decide(proba, table)
    each, chosen = _totals(realised_costs(y, table), (action == "block").astype(int))
    assert first["part"] == "as given" and first["factor"] == 1.0
    assert first["saving"] == pytest.approx(each.min() - chosen)
    assert first["saving_share"] == pytest.approx((each.min() - chosen) / each.min())
    assert first["saving_redecided"] == first["saving"] and first["changed"] == 0


def test_sensitivity_to_a_part_no_decision_depends_on():
    rng = np.random.default_rng(2)
    proba = np.c_[rng.dirichlet(np.ones(2), 30), np.zeros(30)]  # class 2: never
    y = rng.integers(0, 3, 30)
    table = ActionCosts(rng.uniform(1, 10, (3, 2)), ALLOW_BLOCK)
    rows = cost_sensitivity(proba, y, table, factors=(0.5, 2.0))
    parts = [row for row in rows if row["part"].startswith("2 x ")]
    assert {row["part"] for row in parts} == {"2 x allow", "2 x block"}
    assert len(rows) == 1 + 6 * 2
    for row in parts:
        assert row["changed"] == 0
        assert row["saving_redecided"] == row["saving"]


def test_doubling_the_false_alarm_flips_the_rows_between_the_thresholds():
    # fn = 4, fp = 1: flag when p > 1 / 5; fp doubled: when p > 2 / 6
    p = np.array([0.1, 0.21, 0.25, 0.3, 0.34, 0.5, 0.9, 0.15])
    y = np.array([0, 1, 0, 0, 1, 1, 1, 0])
    costs = Costs.resolve((4, 1), y, pos_label=1)
    rows = cost_sensitivity(np.c_[1 - p, p], y, costs, factors=(2.0,))
    assert [row["part"] for row in rows] == ["as given", "fp", "fn"]
    fp = rows[1]
    assert fp["changed"] == 3 / 8  # 0.21, 0.25, 0.3
    # allow all: 4 x 4 = 16; kept decision at fp = 2: 2 (0.25, 0.3) + 2 x 0
    # misses; block all at fp = 2: 4 x 2 = 8 -> default, saving 8 - 4 = 4
    assert fp["saving"] == pytest.approx(8 - 4)
    # re-made: flags 0.34, 0.5, 0.9; misses 0.21 (fn 4); costs 4
    assert fp["saving_redecided"] == pytest.approx(8 - 4)


def test_redecided_is_never_worse_on_expected_costs():
    # each row copied once per class, weighed by its probability: the realised
    # total is then K x the expected total, and the Bayes decision its minimum
    rng = np.random.default_rng(4)
    n, k = 25, 3
    proba = rng.dirichlet(np.ones(k), n)
    table = rng.uniform(-1, 10, (k, 3))
    rows, y = np.repeat(np.arange(n), k), np.tile(np.arange(k), n)
    weighed = table * (k * proba[rows, y])[:, None, None]
    costs = ActionCosts(weighed, ("allow", "review", "block"))
    result = cost_sensitivity(proba[rows], y, costs)
    assert len(result) == 1 + 9 * 4
    expected = expected_costs(proba, table).min(axis=1).sum() * k
    each = realised_costs(y, costs).sum(axis=0)
    assert result[0]["saving"] == pytest.approx(each.min() - expected)
    for row in result[1:]:
        assert row["saving_redecided"] >= row["saving"] - 1e-9


def test_sensitivity_bad_factors():
    with pytest.raises(ValueError, match=re.escape("factors=(0,): give finite")):
        cost_sensitivity(
            [[0.5, 0.5]], [0], [[0, 1], [1, 0]], factors=(0,), classes=[0, 1]
        )


def _fraud(seed, n=120):
    rng = np.random.default_rng(seed)
    p = rng.beta(1, 4, n)
    y = (rng.random(n) < p).astype(int)
    table = np.zeros((n, 2, 2))
    table[:, 1, 0] = rng.uniform(1, 20, n)  # a missed fraud's amount
    table[:, :, 1] = 2.0  # a review costs 2 whatever the truth
    return np.c_[1 - p, p], y, ActionCosts(table, ALLOW_BLOCK), np.arange(n) % 3


def test_capacity_one_is_the_unlimited_decision():
    proba, y, costs, per = _fraud(5)
    last = capacity_curve(proba, y, costs, per=per, default="allow")[-1]
    action, _ = decide(proba, costs)
    each, chosen = _totals(realised_costs(y, costs), (action == "block").astype(int))
    assert last["share"] == 1.0 and last["acted"] == np.sum(action == "block")
    assert last["saving"] == pytest.approx(each[0] - chosen)


def test_capacity_is_kept_in_every_period():
    proba, y, costs, per = _fraud(6)
    shares = (0.05, 0.1, 0.25, 0.5)
    by_saving = capacity_curve(proba, y, costs, per=per, shares=shares)
    by_score = capacity_curve(proba, y, costs, per=per, shares=shares, rank_by=y)
    for share, saving, score in zip(shares, by_saving, by_score, strict=True):
        room = sum(int(share * np.sum(per == p)) for p in range(3))
        assert saving["acted"] <= room
        assert score["acted"] == room  # a peer fills its room whatever it costs


def test_ranking_by_expected_saving_equals_decide_where_saving_is_positive():
    proba, y, costs, per = _fraud(8)
    expected = expected_costs(proba, costs)
    gain = expected[:, 0] - expected[:, 1]
    shares = (0.05, 0.1, 0.2, 0.5, 0.8)
    by_saving = capacity_curve(proba, y, costs, per=per, shares=shares)
    by_gain = capacity_curve(proba, y, costs, per=per, shares=shares, rank_by=gain)
    for share, ours, theirs in zip(shares, by_saving, by_gain, strict=True):
        positive = [np.sum(gain[per == p] > 0) for p in range(3)]
        room = [int(share * np.sum(per == p)) for p in range(3)]
        assert ours["acted"] == sum(map(min, positive, room))
        if all(r <= q for r, q in zip(room, positive, strict=True)):
            assert ours == theirs


def test_ranking_by_probability_loses_a_large_amount_to_a_small_one():
    # row 0: p = 0.9, amount 10 (expected saving 0.9 x 10 - 1 = 8);
    # row 1: p = 0.5, amount 100 (49); both frauds; one review for four rows
    p = np.array([0.9, 0.5, 0.05, 0.05])
    table = np.array([[[0, 1], [a, 1]] for a in (10, 100, 5, 5)], float)
    costs = ActionCosts(table, ALLOW_BLOCK)
    y, proba = np.array([1, 1, 0, 0]), np.c_[1 - p, p]
    shares = (0.25,)
    ours = capacity_curve(proba, y, costs, shares=shares, default="allow")[0]
    peer = capacity_curve(proba, y, costs, shares=shares, default="allow", rank_by=p)[0]
    assert ours["saving"] == 100 - 1 and peer["saving"] == 10 - 1
    assert ours["saving_share"] == pytest.approx(99 / 110)


def test_capacity_curve_finds_the_action_of_a_binary_problem():
    p = np.array([0.9, 0.2, 0.6, 0.1])
    y = np.array([1, 0, 1, 0])
    costs = Costs.resolve((5, 1), y, pos_label=1)
    (row,) = capacity_curve(np.c_[1 - p, p], y, costs, shares=(0.25,), default=0)
    assert row["acted"] == 1 and row["saving"] == 5  # flags row 0 only


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "action: name the capacitated action, one of ('allow', 'review', 'b')"),
        ({"action": "review", "shares": (0,)}, "shares=(0,): give shares of rows"),
        ({"action": "review", "rank_by": [1]}, "rank_by: give one finite score"),
    ],
)
def test_capacity_curve_bad_input(kwargs, message):
    costs = ActionCosts([[0, 1, 3], [9, 2, 0]], ("allow", "review", "b"))
    with pytest.raises(ValueError, match=re.escape(message)):
        capacity_curve([[0.5, 0.5], [0.2, 0.8]], [0, 1], costs, **kwargs)
