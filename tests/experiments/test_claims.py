"""A paper's claims checked on results: each kind against hand-built means."""

from __future__ import annotations

import pandas as pd
import pytest

from costsense.experiments._claims import check_claims, validate_claims


def results():
    # two folds per (dataset, cost, algorithm); means in the comments
    rows = []
    values = {
        ("a", "5"): {"X": (1.0, 3.0), "Y": (4.0, 4.0), "Z": (2.0, 2.0)},  # 2, 4, 2
        ("b", "5"): {"X": (1.0, 1.0), "Y": (3.0, 5.0), "Z": (6.0, 6.0)},  # 1, 4, 6
    }
    for (dataset, cost), algs in values.items():
        for alg, folds in algs.items():
            for fold, value in enumerate(folds):
                rows.append(
                    {
                        "dataset": dataset,
                        "cost": cost,
                        "algorithm": alg,
                        "repeat": 0,
                        "fold": fold,
                        "cost_total": value,
                        "recall": value / 10,
                    }
                )
    return pd.DataFrame(rows)


def verdict(claim):
    ((_, outcome, evidence),) = check_claims(results(), [claim])
    return outcome, evidence


def test_best_counts_rows_where_the_algorithm_has_the_lowest_cost():
    claim = {"text": "t", "kind": "best", "metric": "cost_total", "algorithm": "X",
             "among": ["X", "Y", "Z"]}  # fmt: skip
    # row a: X 2 ties Z 2 (both rank 1), row b: X 1 best
    assert verdict(claim)[0] == "reproduced"
    claim["algorithm"] = "Z"  # best on a (tie), third on b
    outcome, evidence = verdict(claim)
    assert outcome == "partly" and "1 of 2" in evidence
    claim["algorithm"] = "Y"
    assert verdict(claim)[0] == "not reproduced"


def test_higher_is_better_for_rates():
    claim = {"text": "t", "kind": "best", "metric": "recall", "algorithm": "Y",
             "among": ["X", "Y", "Z"]}  # fmt: skip
    # recall means a: X .2 Y .4 Z .2 -> Y best; b: X .1 Y .4 Z .6 -> Z best
    assert verdict(claim)[0] == "partly"


def test_better_and_bounds_and_mean_change():
    better = {"text": "t", "kind": "better", "metric": "cost_total",
              "algorithm": "X", "than": ["Y", "Z"]}  # fmt: skip
    # X < Y on both rows, X < Z on b only (tie 2 = 2 on a is not better)
    outcome, evidence = verdict(better)
    assert outcome == "partly" and "3 of 4" in evidence
    bound = {"text": "t", "kind": "at_most", "metric": "cost_total",
             "algorithms": ["X", "Z"], "value": 2.0}  # fmt: skip
    assert verdict(bound)[0] == "partly"  # X 2, 1 ok; Z 2 ok, 6 not
    change = {"text": "t", "kind": "mean_change", "metric": "cost_total",
              "algorithm": "X", "baseline": "Y", "value": -0.6}  # fmt: skip
    # ratios X/Y - 1: a 2/4 - 1 = -0.5, b 1/4 - 1 = -0.75: average -0.625
    outcome, evidence = verdict(change)
    assert outcome == "reproduced" and "-62.5 %" in evidence
    change["value"] = -0.7
    assert verdict(change)[0] == "partly"
    change["baseline"], change["algorithm"] = "X", "Y"
    assert verdict(change)[0] == "not reproduced"


def test_rows_can_be_restricted_and_missing_ones_are_not_run():
    claim = {"text": "t", "kind": "best", "metric": "cost_total", "algorithm": "Z",
             "among": ["X", "Y", "Z"], "datasets": ["a"]}  # fmt: skip
    assert verdict(claim)[0] == "reproduced"
    claim["datasets"] = ["nowhere"]
    assert verdict(claim)[0] == "not run"


def test_malformed_claims_are_refused():
    with pytest.raises(ValueError, match="kind"):
        validate_claims([{"text": "t", "kind": "magic"}], "s")
    with pytest.raises(ValueError, match="needs the keys"):
        validate_claims([{"text": "t", "kind": "better", "metric": "m"}], "s")


def test_the_report_shows_the_claims_and_the_ratio_chart(tmp_path):
    from costsense.experiments import ReportSpec, write_report

    claim = {"text": "X is best", "kind": "best", "metric": "cost_total",
             "algorithm": "X", "among": ["X", "Y", "Z"]}  # fmt: skip
    checked = check_claims(results(), [claim])
    files = write_report(
        results(),
        tmp_path,
        ReportSpec(title="t", metrics=["cost_total"], claims=checked, ratio_to="Y"),
    )
    text = files.markdown.read_text()
    assert "The paper's claims" in text and "| X is best | **reproduced** |" in text
    ratio = [f for f in files.figures if f.name.startswith("ratio_")]
    assert len(ratio) == 1 and ratio[0].read_bytes().startswith(b"\x89PNG")
    assert f"figures/{ratio[0].name}" in text
    with pytest.raises(ValueError, match="ratio_to"):
        spec = ReportSpec(title="t", metrics=["cost_total"], ratio_to="nope")
        write_report(results(), tmp_path, spec)
