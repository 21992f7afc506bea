"""Tests of costsense.decision: expected costs of actions, decisions within capacity."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import Costs, bayes_decision
from costsense.decision import (
    ActionCosts,
    decide,
    expected_costs,
    no_action,
    realised_costs,
)

ACTIONS = ("allow", "review", "block", "call")


def _problem(seed, n_periods=3, per_row=False, k=3, a=4):
    """Random probabilities, a class x action table and period labels."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(3, 7, size=n_periods)
    n = int(sizes.sum())
    proba = rng.dirichlet(np.ones(k), size=n)
    shape = (n, k, a) if per_row else (k, a)
    table = rng.uniform(-2, 10, size=shape)  # negative entries: benefits
    per = np.repeat([f"day{i}" for i in range(n_periods)], sizes)
    return proba, ActionCosts(table, ACTIONS[:a]), per


def _brute_force(expected, per, capacity):
    """Least total expected cost over every assignment within the capacities."""
    total = 0.0
    for period in np.unique(per):
        cost = expected[per == period]
        m, a = cost.shape
        every = np.array(list(itertools.product(range(a), repeat=m)))
        fits = np.ones(len(every), dtype=bool)
        for action, k in capacity.items():
            fits &= (every == ACTIONS.index(action)).sum(axis=1) <= k
        total += cost[np.arange(m), every[fits]].sum(axis=1).min()
    return total


def _check_optimal(proba, table, per, capacity):
    action, saving = decide(proba, table, capacity=capacity, per=per)
    expected = expected_costs(proba, table)
    index = np.array([ACTIONS.index(a) for a in action])
    chosen = expected[np.arange(len(index)), index]
    # within capacity in every period
    for period in np.unique(per):
        for name, k in capacity.items():
            assert np.sum(action[per == period] == name) <= k
    # a capacitated action only where it saves over the best unlimited action
    free = [ACTIONS.index(a) for a in table.actions if a not in capacity]
    if free:
        moved = np.isin(action, list(capacity))
        assert np.all(chosen[moved] < expected[moved][:, free].min(axis=1))
    optimum = _brute_force(expected, per, capacity)
    assert chosen.sum() == pytest.approx(optimum, abs=1e-9)
    default = np.argmin(expected.sum(axis=0))
    assert_allclose(saving, expected[:, default] - chosen)


@pytest.mark.parametrize("per_row", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_two_capacitated_actions_reach_the_brute_force_optimum(seed, per_row):
    proba, table, per = _problem(seed, per_row=per_row)
    rng = np.random.default_rng(100 + seed)
    capacity = {"review": int(rng.integers(0, 3)), "block": int(rng.integers(0, 3))}
    _check_optimal(proba, table, per, capacity)


@pytest.mark.parametrize("seed", range(8))
def test_one_capacitated_action_greedy_reaches_the_brute_force_optimum(seed):
    proba, table, per = _problem(seed)
    _check_optimal(proba, table, per, {"review": int(seed % 3)})


@pytest.mark.parametrize("seed", range(6))
def test_every_action_capacitated_reaches_the_brute_force_optimum(seed):
    proba, table, per = _problem(seed, a=3)
    capacity = {"allow": 2, "review": 2, "block": 3}  # room for 7 >= 6 rows
    _check_optimal(proba, table, per, capacity)


@pytest.mark.parametrize("seed", range(4))
def test_unlimited_capacity_is_the_bayes_decision(seed):
    proba, table, per = _problem(seed, per_row=bool(seed % 2))
    bayes = np.argmin(expected_costs(proba, table), axis=1)
    names = np.array(ACTIONS)[bayes]
    assert_array_equal(decide(proba, table)[0], names)
    everything = {a: len(proba) for a in ACTIONS}
    assert_array_equal(decide(proba, table, capacity=everything, per=per)[0], names)
    shares = {"review": "100%", "block": "100%"}
    assert_array_equal(decide(proba, table, capacity=shares, per=per)[0], names)


def test_expected_costs_by_hand():
    table = [[0, 1, 5], [20, 4, 0]]  # legit, fraud x allow, review, block
    proba = [[0.9, 0.1], [0.5, 0.5]]
    assert_allclose(expected_costs(proba, table), [[2.0, 1.3, 4.5], [10, 2.5, 2.5]])
    per_row = np.stack([table, np.multiply(table, 2)])
    assert_allclose(expected_costs(proba, per_row), [[2.0, 1.3, 4.5], [20, 5, 5]])


@pytest.mark.parametrize("per_row", [False, True])
def test_square_costs_give_the_label_decision_of_costsense_costs(per_row):
    rng = np.random.default_rng(7)
    n, labels = 300, np.array(["a", "b", "c"])
    proba = rng.dirichlet(np.ones(3), size=n)
    y = rng.choice(labels, size=n)
    matrix = rng.uniform(1, 10, size=(3, 3)) * (1 - np.eye(3))
    sample_cost = rng.uniform(0, 10, size=(n, 3, 3)) if per_row else None
    costs = Costs.resolve(matrix, y, sample_cost=sample_cost)
    action, _ = decide(proba, costs)
    assert_array_equal(action, labels[costs.decide(proba)])
    assert_array_equal(
        decide(proba, costs.decision_matrices)[0],
        bayes_decision(proba, costs.decision_matrices),
    )


def test_default_action_and_savings():
    table = ActionCosts([[0, 1, 5], [20, 4, 0]], ["allow", "review", "block"])
    proba = [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]]
    # expected: allow 2, 8, 16; review 1.3, 2.2, 3.4; block 4.5, 3, 1
    # totals: allow 26, review 6.9, block 8.5: the best single action is review
    action, saving = decide(proba, table)
    assert action.tolist() == ["review", "review", "block"]
    assert_allclose(saving, [0.0, 0.0, 2.4])
    action, saving = decide(proba, table, default="allow")
    assert_allclose(saving, [0.7, 5.8, 15.0])


@pytest.mark.parametrize(
    ("share", "sizes", "expected"),
    [
        ("5%", (30, 50, 100), (1, 2, 5)),  # rounded down: 1.5 -> 1, 2.5 -> 2
        ("29%", (100,), (29,)),  # exact: 0.29 * 100 is 28.999... in floats
        ("0.5%", (1000, 399), (5, 1)),
        ("0%", (20,), (0,)),
    ],
)
def test_a_share_is_rounded_down_in_each_period(share, sizes, expected):
    n = sum(sizes)
    proba = np.tile([0.5, 0.5], (n, 1))
    table = ActionCosts([[0, 1], [10, 1]], ["allow", "review"])  # review saves 4.5
    per = np.repeat(np.arange(len(sizes)), sizes)
    action, _ = decide(proba, table, capacity={"review": share}, per=per)
    counts = [int(np.sum(action[per == p] == "review")) for p in range(len(sizes))]
    assert counts == list(expected)


def test_capacity_takes_the_rows_of_largest_saving():
    table = ActionCosts([[0, 1], [10, 1]], ["allow", "review"])
    p = np.array([0.05, 0.5, 0.3, 0.9, 0.2])
    action, _ = decide(np.column_stack([1 - p, p]), table, capacity={"review": 2})
    assert action.tolist() == ["allow", "review", "allow", "review", "allow"]


def test_names_from_a_dataframe_and_nan_periods_are_one_period():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([[0, 1], [10, 1]], index=[0, 1], columns=["allow", "review"])
    proba = np.tile([0.5, 0.5], (4, 1))
    per = [np.nan, np.nan, 1.0, 1.0]
    action, _ = decide(proba, ActionCosts(frame), capacity={"review": 1}, per=per)
    assert action.tolist() == ["review", "allow", "review", "allow"]


GOOD_PROBA = [[0.5, 0.5], [0.2, 0.8]]
GOOD = ActionCosts([[0, 1, 5], [20, 4, 0]], ["allow", "review", "block"])


@pytest.mark.parametrize(
    ("proba", "costs", "kwargs", "error", "message"),
    [
        ([0.5, 0.5], GOOD, {}, ValueError, r"^proba: give \(n_samples, K\)"),
        ([[0.5, 0.6]], GOOD, {}, ValueError, r"^proba: each row must sum to 1"),
        ([[1.5, -0.5]], GOOD, {}, ValueError, r"^proba: .*in \[0, 1\]"),
        ([["a", "b"]], GOOD, {}, TypeError, r"^proba must be numeric"),
        (GOOD_PROBA, np.ones((3, 3)), {}, ValueError, r"^costs has shape \(3, 3\)"),
        (GOOD_PROBA, np.ones((3, 2, 3)), {}, ValueError, r"^costs has shape"),
        (GOOD_PROBA, np.ones(3), {}, ValueError, r"^costs: give a \(K, A\)"),
        (GOOD_PROBA, [[0, np.nan], [1, 0]], {}, ValueError, r"^costs: .*NaN"),
        (GOOD_PROBA, [["x", "y"]], {}, TypeError, r"^costs: the table"),
        (GOOD_PROBA, GOOD, {"capacity": {"review": -1}}, ValueError, r"^capacity\["),
        (GOOD_PROBA, GOOD, {"capacity": {"review": 1.5}}, ValueError, r"^capacity\["),
        (GOOD_PROBA, GOOD, {"capacity": {"review": True}}, ValueError, "^capacity"),
        (GOOD_PROBA, GOOD, {"capacity": {"review": "150%"}}, ValueError, "^capacity"),
        (GOOD_PROBA, GOOD, {"capacity": {"review": "5 pc"}}, ValueError, "^capacity"),
        (GOOD_PROBA, GOOD, {"capacity": {"reveiw": 1}}, ValueError, r"'reveiw' is"),
        (GOOD_PROBA, GOOD, {"capacity": [("review", 1)]}, TypeError, "^capacity"),
        (GOOD_PROBA, GOOD, {"default": "deny"}, ValueError, r"^default: 'deny' is"),
        (GOOD_PROBA, GOOD, {"per": [1, 2, 3]}, ValueError, r"^per: give one"),
        (
            GOOD_PROBA,
            GOOD,
            {"capacity": {"allow": 0, "review": 0, "block": 1}},
            ValueError,
            r"^capacity: no assignment of period 0.0 \(2 rows, room for 1\)",
        ),
    ],
)
def test_bad_input_is_refused_in_one_line_naming_the_parameter(
    proba, costs, kwargs, error, message
):
    with pytest.raises(error, match=message) as caught:
        decide(proba, costs, **kwargs)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("actions", [["a", "b"], ["a", "a", "b"]])
def test_action_names_must_match_the_columns(actions):
    with pytest.raises(ValueError, match=re.escape("actions: give 3 distinct names")):
        ActionCosts([[0, 1, 5], [20, 4, 0]], actions)


@pytest.mark.parametrize("per_row", [False, True])
def test_realised_costs_read_each_row_at_its_true_class(per_row):
    rng = np.random.default_rng(3)
    y = rng.choice(["a", "b", "c"], size=9)
    table = rng.uniform(0, 5, size=(9, 3, 4) if per_row else (3, 4))
    found = realised_costs(y, ActionCosts(table))
    for r, label in enumerate(y):  # row r pays its true class's row of the table
        k = "abc".index(label)
        assert_allclose(found[r], table[r, k] if per_row else table[k])


def test_realised_costs_of_resolved_costs_are_their_cost_rows():
    y = np.array([0, 1, 1, 0, 1])
    parts = {"fn": [0, 7, 2, 0, 3], "fp": [1] * 5}
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=parts)
    expected = [[0, 1], [7, 0], [2, 0], [0, 1], [3, 0]]  # [predict 0, predict 1]
    assert_allclose(realised_costs(y, costs), expected)


def test_realised_costs_refuse_labels_outside_the_classes():
    with pytest.raises(ValueError, match="not among the classes"):
        realised_costs([0, 3], [[0, 1], [1, 0]], classes=[0, 1])
    with pytest.raises(ValueError, match="give classes"):
        realised_costs([0, 1, 2], [[0, 1], [1, 0]])


def test_label_costs_map_each_label_to_its_best_action():
    table = ActionCosts([[0, 1, 5], [20, 4, 0]], ["allow", "review", "block"])
    # label 0 stands for allow (cheapest for class 0), label 1 for block
    assert_allclose(table.label_costs(), [[0, 5], [20, 0]])
    square = np.array([[0.0, 3.0], [7.0, 0.0]])
    assert_allclose(ActionCosts(square).label_costs(), square)
    swapped = np.array([[0, 5, 1], [20, 0, 4]])  # block, now second, still best for 1
    rows = ActionCosts(np.stack([table.table, swapped, swapped[::-1]]))
    expected = [[[0, 5], [20, 0]], [[0, 5], [20, 0]], [[0, 20], [5, 0]]]
    assert_allclose(rows.label_costs(), expected)


def test_no_action_is_the_first_action_or_the_negative_label():
    assert (
        no_action(ActionCosts([[0, 1, 5], [20, 4, 0]], ["allow", "review", "block"]))
        == "allow"
    )
    y = np.array(["ok", "fraud", "ok", "ok"])
    assert no_action(Costs.resolve((5, 1), y)) == "ok"  # the minority is positive
    assert no_action(Costs.resolve((5, 1), y, pos_label="ok")) == "fraud"
    assert no_action(Costs.resolve(np.ones((3, 3)) - np.eye(3), [0, 1, 2])) is None
