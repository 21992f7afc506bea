"""Cost labels: one way to write them, one order, and one resolved setting."""

from __future__ import annotations

import numpy as np
import pytest

from costsense.costs import Costs
from costsense.experiments import TIME_COLUMNS, cost_order, evaluate, sort_rows
from costsense.experiments._labels import cost_label, costs_label, normalise_label


def test_a_ratio_and_a_pair_have_short_labels():
    assert cost_label(5) == "5"
    assert cost_label(5.0) == "5"
    assert cost_label(2.5) == "2.5"
    assert cost_label((5, 2)) == "5:2"
    assert cost_label([10.0, 1]) == "10:1"


def test_equal_costs_written_differently_normalise_to_one_label():
    assert normalise_label(5) == normalise_label(5.0) == normalise_label("5") == "5"
    assert normalise_label(" 5.0 ") == "5"
    assert normalise_label("5.0:2") == normalise_label((5, 2)) == "5:2"
    assert normalise_label("2.50") == "2.5"
    assert normalise_label("high") == "high"
    assert normalise_label("5") != normalise_label("5:1")


def test_costs_sort_as_numbers_pairs_included():
    assert cost_order("2") < cost_order("10")
    assert cost_order("2:1") < cost_order("10:1")
    assert cost_order("10:1") < cost_order("10:2")
    assert cost_order("5")[:2] == cost_order("5.0")[:2]  # the same number
    assert cost_order("5") < cost_order("5.0")  # ties broken by the text
    assert cost_order("5") < cost_order("5:1") < cost_order("6")
    assert cost_order("20") < cost_order("high")  # text labels come last
    labels = ["10:1", "2:1", "10", "high", "2", "5:2"]
    assert sorted(labels, key=cost_order) == ["2", "2:1", "5:2", "10", "10:1", "high"]


def test_rows_sort_by_dataset_then_cost():
    rows = [("b", "2"), ("a", "10:1"), ("a", "2:1"), ("a", "10"), ("a", "2")]
    assert sort_rows(rows) == [
        ("a", "2"),
        ("a", "2:1"),
        ("a", "10"),
        ("a", "10:1"),
        ("b", "2"),
    ]


def test_a_setting_holds_every_form_of_one_cost():
    y = np.array(["neg"] * 8 + ["pos"] * 2)
    setting = Costs.resolve(5, y)
    assert costs_label(setting) == "5"
    assert setting.pos_label == "pos" and setting.pos_index == 1
    assert setting.pair == (5.0, 1.0)
    np.testing.assert_array_equal(setting.matrix, [[0.0, 1.0], [5.0, 0.0]])
    pair = Costs.resolve((5, 2), y, pos_label="neg")
    assert costs_label(pair) == "5:2" and pair.pos_index == 0
    np.testing.assert_array_equal(pair.matrix, [[0.0, 5.0], [2.0, 0.0]])
    matrix = Costs.resolve(np.array([[0, 3], [4, 0]]), y)
    assert (costs_label(matrix), matrix.pair) == ("4:3", (4.0, 3.0))
    with pytest.raises(ValueError, match="C1"):
        Costs.resolve(-5, y)


def test_evaluate_takes_a_resolved_setting_that_fits_the_labels():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(60) < 0.3, 1, 0)
    X = rng.normal(size=(60, 2)) + y[:, None]
    setting = Costs.resolve(5, y)

    def results(**given):  # the rows without their seconds, which vary
        rows = evaluate(X, y, ["plain"], n_splits=3, **given)
        kept = (*TIME_COLUMNS, "test_index", "proba")  # arrays: compared by cost
        return [{k: v for k, v in r.items() if k not in kept} for r in rows]

    assert results(cost=setting) == results(cost=5)
    with pytest.raises(ValueError, match="classes"):
        evaluate(X, y + 1, ["plain"], cost=setting, n_splits=3)
    with pytest.raises(ValueError, match="disagrees"):
        evaluate(X, y, ["plain"], cost=setting, pos_label=0, n_splits=3)
