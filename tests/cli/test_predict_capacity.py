"""``predict`` deciding from a saved model's probabilities: capacity, actions, prior.

Each decision is recomputed here from the written ``proba_`` columns and the
costs: the rows of largest expected saving per period, the action of least
expected cost, Bayes' rule for a new positive rate, the EM estimate.
"""

import numpy as np
import pandas as pd
import pytest

from costsense.cli import main
from costsense.decision import ActionCosts, decide, estimate_prior_shift

TABLE = [[0.0, 1.0, 5.0], [20.0, 4.0, 0.0]]  # allow, review, block


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    """Two models fit on a tiny CSV (labels at cost 5; an action table), its rows."""
    folder = tmp_path_factory.mktemp("capacity")
    rng = np.random.default_rng(3)
    n = 90
    y = (rng.random(n) < 0.3).astype(int)
    frame = pd.DataFrame(
        {
            "f1": rng.normal(size=n) + 1.5 * y,
            "f2": rng.normal(size=n),
            "day": np.repeat(["mon", "tue", "wed"], n // 3),
            "label": y,
            "cost_0_allow": 0.0,
            "cost_0_block": rng.uniform(2, 8, n).round(2),
            "cost_1_allow": rng.uniform(10, 90, n).round(2),
            "cost_1_block": 0.0,
        }
    )
    frame.to_csv(folder / "rows.csv", index=False)
    plain = frame.drop(columns=[c for c in frame if c.startswith("cost_")])
    plain.to_csv(folder / "train.csv", index=False)
    (folder / "actions.csv").write_text(
        "class,allow,review,block\n"
        + "".join(f"{k},{','.join(map(str, row))}\n" for k, row in enumerate(TABLE))
    )
    common = ["--target", "label", "--drop", "day", "--model", "threshold"]
    for name, costs, csv in (
        ("labels", ["--cost", "5"], "train.csv"),
        ("actions", ["--action-costs", str(folder / "actions.csv")], "train.csv"),
        ("columns", ["--action-costs", "columns"], "rows.csv"),
    ):
        argv = [
            "fit",
            "--csv",
            str(folder / csv),
            *common,
            *costs,
            "--out",
            str(folder / f"{name}.skops"),
        ]
        assert main(argv) == 0
    return folder, frame


def _predict(fitted, model, *options, csv="train.csv", capsys=None):
    folder, _ = fitted
    out = folder / f"p{len(list(folder.glob('p*.csv')))}.csv"
    argv = [
        "predict",
        "--model",
        str(folder / f"{model}.skops"),
        "--csv",
        str(folder / csv),
        "--out",
        str(out),
        *options,
    ]
    assert main(argv) == 0
    return pd.read_csv(out)


def _proba(lines):
    return lines[["proba_0", "proba_1"]].to_numpy()


def test_capacity_per_day_takes_the_rows_of_largest_expected_saving(fitted):
    lines = _predict(fitted, "labels", "--capacity", "3", "--per", "day")
    _, frame = fitted
    p = _proba(lines)
    saving = 5 * p[:, 1] - 1 * p[:, 0]  # C1 = 5 (a missed positive), C2 = 1
    assert (saving > 0).sum() > 9  # the capacity binds
    for day in ("mon", "tue", "wed"):
        rows = np.flatnonzero(frame["day"].to_numpy() == day)
        acted = set(rows[lines["action"].to_numpy()[rows] == 1])
        best = rows[np.argsort(-saving[rows])[:3]]
        assert len(acted) <= 3
        assert acted == {r for r in best if saving[r] > 0}
    np.testing.assert_allclose(
        lines["saving"], np.where(lines["action"] == 1, saving, 0)
    )


def test_capacity_of_every_row_is_the_bayes_decision(fitted):
    lines = _predict(fitted, "labels", "--capacity", "100%", "--per", "day")
    p = _proba(lines)
    np.testing.assert_array_equal(lines["action"], (5 * p[:, 1] > p[:, 0]).astype(int))
    unlimited = _predict(fitted, "labels", "--default-action", "0")
    np.testing.assert_array_equal(lines["action"], unlimited["action"])


def test_action_table_decisions_are_those_of_decide_on_the_written_proba(fitted):
    lines = _predict(fitted, "actions")
    costs = ActionCosts(TABLE, ["allow", "review", "block"])
    action, saving = decide(_proba(lines), costs, default="allow")
    np.testing.assert_array_equal(lines["action"], action)
    np.testing.assert_allclose(lines["saving"], saving)
    spent = _proba(lines) @ np.asarray(TABLE)
    np.testing.assert_allclose(lines["expected_cost"], spent.min(axis=1))
    capped = _predict(
        fitted, "actions", "--capacity", "review=2,block=10%", "--per", "day"
    )
    _, frame = fitted
    action, _ = decide(
        _proba(capped),
        costs,
        default="allow",
        capacity={"review": 2, "block": "10%"},
        per=frame["day"],
    )
    np.testing.assert_array_equal(capped["action"], action)
    assert (
        capped.groupby(frame["day"])["action"]
        .apply(lambda a: (a == "block").sum())
        .max()
        <= 3
    )


def test_per_row_action_columns_decide_each_row_by_its_own_table(fitted):
    _, frame = fitted
    lines = _predict(fitted, "columns", csv="rows.csv")
    table = np.stack(
        [frame[[f"cost_{k}_allow", f"cost_{k}_block"]].to_numpy() for k in (0, 1)], 1
    )
    action, saving = decide(
        _proba(lines), ActionCosts(table, ["allow", "block"]), default="allow"
    )
    np.testing.assert_array_equal(lines["action"], action)
    np.testing.assert_allclose(lines["saving"], saving)


def test_a_known_positive_rate_is_bayes_rule_from_the_training_prior(fitted, capsys):
    _, frame = fitted
    before = _proba(_predict(fitted, "labels"))
    capsys.readouterr()
    after = _predict(fitted, "labels", "--positive-rate", "0.05")
    train = frame["label"].mean()
    w1, w0 = before[:, 1] * 0.05 / train, before[:, 0] * 0.95 / (1 - train)
    np.testing.assert_allclose(after["proba_1"], w1 / (w1 + w0))
    np.testing.assert_array_equal(
        after["action"], (5 * after["proba_1"] > after["proba_0"]).astype(int)
    )
    assert f"positive rate 0.05 (trained at {train:.4g})" in capsys.readouterr().err


def test_an_estimated_positive_rate_is_the_em_estimate_printed(fitted, capsys):
    _, frame = fitted
    before = _proba(_predict(fitted, "labels"))
    capsys.readouterr()
    after = _predict(fitted, "labels", "--positive-rate", "auto")
    counts = np.bincount(frame["label"])
    prior, adjusted = estimate_prior_shift(before, counts)
    np.testing.assert_allclose(_proba(after), adjusted, atol=1e-12)
    said = capsys.readouterr().err
    assert f"positive rate estimated by EM at {prior[1]:.4g}" in said


@pytest.mark.parametrize(
    ("model", "options", "expected"),
    [
        ("labels", ["--capacity", "5x"], "argument --capacity: --capacity '5x'"),
        ("labels", ["--capacity", "101%"], "argument --capacity: --capacity '101%'"),
        ("actions", ["--capacity", "hold=3"], "--capacity: 'hold' is not an action"),
        ("actions", ["--capacity", "3"], "--capacity 3: name the action it limits"),
        (
            "actions",
            ["--default-action", "x"],
            "--default-action: 'x' is not an action",
        ),
        (
            "labels",
            ["--capacity", "3", "--per", "week"],
            "--per 'week' is not a column",
        ),
        ("labels", ["--per", "day"], "--per names the periods of --capacity"),
        ("labels", ["--positive-rate", "1.5"], "argument --positive-rate"),
        ("labels", ["--positive-rate", "0"], "argument --positive-rate"),
        (
            "labels",
            ["--capacity", "3", "--scheduler", "tcp://127.0.0.1:1"],
            "drop --scheduler",
        ),
    ],
)
def test_bad_decision_options_are_one_line_naming_the_option(
    fitted, capsys, model, options, expected
):
    folder, _ = fitted
    out = folder / "refused.csv"
    argv = [
        "predict",
        "--model",
        str(folder / f"{model}.skops"),
        "--csv",
        str(folder / "train.csv"),
        "--out",
        str(out),
        *options,
    ]
    try:
        status = main(argv)
    except SystemExit as exit:  # argparse: the option's own type refused it
        status = exit.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert not out.exists()


def test_a_model_without_probabilities_cannot_decide_actions(fitted, capsys):
    folder, _ = fitted
    model = folder / "svm.skops"
    argv = [
        "fit",
        "--csv",
        str(folder / "train.csv"),
        "--target",
        "label",
        "--drop",
        "day",
        "--cost",
        "5",
        "--model",
        "svm",
        "--out",
        str(model),
    ]
    assert main(argv) == 0
    capsys.readouterr()
    argv = [
        "predict",
        "--model",
        str(model),
        "--csv",
        str(folder / "train.csv"),
        "--out",
        str(folder / "svm.csv"),
        "--capacity",
        "3",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gives no probabilities" in err
    assert "--capacity" in err
