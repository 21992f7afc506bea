"""``costsense evaluate`` over time, against today's decisions, with action tables."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.costs import Costs
from costsense.datasets import TableOptions, read_table
from costsense.decision import ActionCosts, decision_report
from costsense.experiments import (
    CURRENT,
    evaluate,
    forward_chaining,
    pooled_probabilities,
)


def _frame(n=240, seed=0):
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=(2, n))
    y = np.where(rng.random(n) < 1 / (1 + np.exp(2 - 2 * x1)), "fraud", "ok")
    return pd.DataFrame(
        {
            "x1": x1,
            "x2": x2,
            "week": np.repeat(np.arange(12), n // 12)[::-1],  # rows not in time order
            "rule": np.where(x1 > 1.0, "fraud", "ok"),
            "now": np.where(x1 > 1.0, "block", "allow"),
            "y": y,
        }
    )


def _run(tmp_path, frame, *extra):
    data, out = tmp_path / "data.csv", tmp_path / "folds.csv"
    frame.to_csv(data, index=False)
    args = ["evaluate", "--csv", str(data), "--target", "y", "--quiet"]
    status = cli.main([*args, "--output", str(out), *extra])
    with out.open() as handle:
        return status, list(csv.DictReader(handle))


def test_cli_time_folds_and_costs_agree_with_the_library(tmp_path, capsys):
    frame = _frame()
    extra = ["--cost", "5", "--model", "plain", "--folds", "3"]
    taken = ("week", "rule", "now")  # "now" a feature of neither
    status, rows = _run(
        tmp_path,
        frame,
        *extra,
        "--time-column",
        "week",
        "--current-decision",
        "rule",
        "--drop",
        "now",
    )
    assert status == 0
    printed = capsys.readouterr().out
    y, week = frame["y"].to_numpy(), frame["week"].to_numpy()
    read = read_table(tmp_path / "data.csv", "y", options=TableOptions(drop=taken))
    library = evaluate(
        read.X,
        y,
        ["plain"],
        cost=5,
        n_splits=3,
        time=week,
        current=rule,
        prepare=read.encoder,
    )
    for fold, (train, test) in enumerate(forward_chaining(week, 3, y)):
        line = f"trained up to {week[train].max()}, tested on {week[test].min()} to"
        assert f"fold {fold}: forward-chaining over week: {line}" in printed
        for name in ("plain", CURRENT):
            got = next(r for r in rows if r["model"] == name and r["fold"] == str(fold))
            want = next(
                r for r in library if r["algorithm"] == name and r["fold"] == fold
            )
            assert got["train_until"] == str(week[train].max())
            assert float(got["cost_total"]) == pytest.approx(
                want["metrics"]["cost_total"]
            )
        fn = np.sum((y[test] == "fraud") & (rule[test] == "ok"))
        fp = np.sum((y[test] == "ok") & (rule[test] == "fraud"))
        now = next(r for r in rows if r["model"] == CURRENT and r["fold"] == str(fold))
        assert float(now["cost_total"]) == pytest.approx(5 * fn + fp)


rule = _frame()["rule"].to_numpy()


def test_cli_action_costs_decide_actions_and_score_the_current_ones(tmp_path, capsys):
    frame = _frame()
    table = tmp_path / "actions.csv"
    table.write_text("class,allow,review,block\nfraud,50,12,0\nok,0,3,8\n")
    status, rows = _run(
        tmp_path,
        frame,
        "--action-costs",
        str(table),
        "--model",
        "plain",
        "--folds",
        "3",
        "--current-decision",
        "now",
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "cost-blind: its probabilities decide the actions" in printed
    assert "recall" not in rows[0]  # actions, not labels, are scored
    costs = ActionCosts([[50, 12, 0], [0, 3, 8]], ["allow", "review", "block"])
    y, now = frame["y"].to_numpy(), frame["now"].to_numpy()
    X = frame[["x1", "x2", "week"]].to_numpy()
    library = evaluate(X, y, ["plain"], actions=costs, n_splits=3, current=now)
    realised = costs.table[(y == "ok").astype(int)]  # classes fraud, ok
    for fold in range(3):
        got = {r["model"]: r for r in rows if r["fold"] == str(fold)}
        want = next(
            r for r in library if r["algorithm"] == CURRENT and r["fold"] == fold
        )
        test = want["test_index"]
        spent = realised[test, np.where(now[test] == "block", 2, 0)].sum()
        assert float(got[CURRENT]["cost_total"]) == pytest.approx(spent)
        gain = float(got["plain"]["gain_over_current"])
        assert gain == pytest.approx(spent - float(got["plain"]["cost_total"]))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--time-column", "when"], "--time-column 'when': not a column of --csv"),
        (["--folds", "12", "--time-column", "week"], "use 11 folds or fewer"),
        (
            ["--current-decision", "x1"],
            "--current-decision x1: give one decision per row",
        ),
    ],
)
def test_bad_time_and_current_columns_exit_2_naming_the_option(
    tmp_path, capsys, extra, message
):
    data = tmp_path / "data.csv"
    _frame().to_csv(data, index=False)
    args = ["evaluate", "--csv", str(data), "--target", "y", "--cost", "5", "--quiet"]
    assert cli.main([*args, *extra]) == 2
    assert message in capsys.readouterr().err


def test_cli_report_at_capacity_agrees_with_the_library_report(tmp_path, capsys):
    frame = _frame()
    taken = ("week", "rule", "now")
    status, _ = _run(
        tmp_path,
        frame,
        "--cost",
        "5",
        "--model",
        "plain",
        "--folds",
        "3",
        "--time-column",
        "week",
        "--per",
        "week",
        "--capacity",
        "10%",
        "--drop",
        "rule,now",
    )
    assert status == 0
    printed = capsys.readouterr().out
    options = TableOptions(drop=taken)
    read = read_table(tmp_path / "data.csv", "y", options=options)
    y, week = read.y, frame["week"].to_numpy()
    rows = evaluate(
        read.X, y, ["plain"], cost=5, n_splits=3, time=week, prepare=read.encoder
    )
    costs = Costs.resolve(5, y)
    pooled = pooled_probabilities(rows)
    report = decision_report(pooled, y, costs, capacity={"fraud": "10%"}, per=week)
    assert "within capacity fraud=10% per week" in printed
    report_part = printed.split("decisions re-made")[1]
    line = next(x for x in report_part.splitlines() if x.startswith("plain  "))
    assert line.split()[1:3] == [
        "180",
        f"{report.savings['plain'].saving:.1f}",
    ]  # 3 of 4 blocks
    with (tmp_path / "folds-capacity.csv").open() as handle:
        curve = list(csv.DictReader(handle))
    assert [float(r["share"]) for r in curve] == [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
    for got, want in zip(curve, report.curves["plain"], strict=True):
        assert float(got["saving"]) == pytest.approx(want["saving"])
    # at 10 % per week, the curve's point is the decision within that capacity
    assert float(curve[3]["saving"]) == pytest.approx(report.savings["plain"].saving)
    assert max(len(x) for x in report_part.splitlines()) <= 100  # a terminal's


def test_a_bare_capacity_with_an_action_table_exits_2_naming_the_fix(tmp_path, capsys):
    data, table = tmp_path / "data.csv", tmp_path / "actions.csv"
    _frame().to_csv(data, index=False)
    table.write_text("class,allow,review,block\nfraud,50,12,0\nok,0,3,8\n")
    args = ["evaluate", "--csv", str(data), "--target", "y", "--quiet"]
    assert cli.main([*args, "--action-costs", str(table), "--capacity", "20"]) == 2
    assert "--capacity 20: name the capacitated action" in capsys.readouterr().err
