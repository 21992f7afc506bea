"""Costs as users have them: four parts, each a number or a column of the CSV.

``--fn-cost``, ``--fp-cost``, ``--tp-cost`` and ``--tn-cost`` become each row's true
2 x 2 matrix; a cost column stays a feature unless ``--drop-cost-columns``; a cost
column that is not a cost is refused naming its rows; evaluate prints costs and
savings on the true costs; the model file records the parts and refuses lies.
"""

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.cli import UsageError, build_parser
from costsense.cli._data import read_data, resolve_costs
from costsense.cli._model_io import check_metadata, load_model
from costsense.costs import example_costs
from costsense.experiments import Protocol, Study
from costsense.experiments._plan import splits


def _frame(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    y[:2] = [0, 1]
    return pd.DataFrame(
        {
            "f1": rng.normal(size=n) + y,
            "f2": rng.normal(size=n) - y,
            "amount": rng.uniform(1, 50, size=n).round(2),
            "fee": rng.uniform(0, 2, size=n).round(2),
            "label": y,
        }
    )


def _resolved(path, *options):
    args = build_parser().parse_args(
        ["evaluate", "--csv", str(path), "--target", "label", *options]
    )
    data = read_data(args)
    return data, resolve_costs(args, data)


def test_four_parts_give_each_rows_matrix_as_built_by_hand(tmp_path):
    frame = _frame()
    frame.to_csv(tmp_path / "d.csv", index=False)
    data, costs = _resolved(tmp_path / "d.csv", "--fn-cost", "amount", "--fp-cost",
                            "5", "--tp-cost", "fee")  # fmt: skip
    n = len(frame)
    expected = np.zeros((n, 2, 2))  # classes [0, 1], positive 1; rows = truth
    expected[:, 0, 1] = 5.0  # a false alarm
    expected[:, 1, 0] = frame["amount"]  # a missed positive
    expected[:, 1, 1] = frame["fee"]  # a caught positive
    assert costs.kind == "parts" and costs.costs.pos_label == 1
    assert costs.costs.example_dependent
    np.testing.assert_array_equal(costs.costs.per_row, expected)
    np.testing.assert_allclose(costs.costs.mean_matrix, expected.mean(axis=0))
    assert costs.parts == {"fp": 5.0, "fn": "amount", "tp": "fee", "tn": 0.0}
    assert "amount" in data.kinds and "fee" in data.kinds  # still features
    assert "also features" in costs.describe


def test_four_constants_are_a_class_level_matrix_with_its_diagonal(tmp_path):
    _frame().to_csv(tmp_path / "d.csv", index=False)
    options = ["--fn-cost", "8", "--fp-cost", "2", "--tp-cost", "1", "--tn-cost",
               "0.5", "--pos-label", "1"]  # fmt: skip
    _, costs = _resolved(tmp_path / "d.csv", *options)
    assert not costs.costs.example_dependent and costs.costs.per_row is None
    np.testing.assert_array_equal(costs.costs.matrix, [[0.5, 2.0], [8.0, 1.0]])


def test_a_column_named_like_a_number_is_read_with_col(tmp_path):
    frame = _frame().rename(columns={"fee": "3"})
    frame.to_csv(tmp_path / "d.csv", index=False)
    with pytest.raises(UsageError, match=r"both a number and a column.*col:3"):
        _resolved(tmp_path / "d.csv", "--fn-cost", "amount", "--tp-cost", "3")
    _, costs = _resolved(tmp_path / "d.csv", "--fn-cost", "amount", "--tp-cost",
                         "col:3")  # fmt: skip
    assert costs.parts["tp"] == "3"
    np.testing.assert_array_equal(costs.costs.per_row[:, 1, 1], frame["3"])


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--cost", "5", "--fn-cost", "amount"], "--cost and --fn-cost are two ways"),
        (["--fn-cost", "amout"], "neither a number nor a column"),
        (["--fp-cost", "-1"], "finite number >= 0"),
        (["--fn-cost", "label"], "is the --target column"),
    ],
)
def test_cost_options_that_cannot_be_read_are_refused(tmp_path, options, words):
    _frame().to_csv(tmp_path / "d.csv", index=False)
    with pytest.raises(UsageError, match=words):
        _resolved(tmp_path / "d.csv", *options)


def test_three_classes_refuse_the_four_parts(tmp_path):
    frame = _frame()
    frame.loc[frame.index[-10:], "label"] = 2
    frame.to_csv(tmp_path / "d.csv", index=False)
    with pytest.raises(UsageError, match="3 classes.*--cost-matrix"):
        _resolved(tmp_path / "d.csv", "--fn-cost", "amount")


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ({3: "", 7: ""}, "missing costs in rows [5, 9]"),
        ({4: "abc"}, "row [6] hold text such as 'abc'"),
        ({0: "-2", 9: "inf"}, "finite costs >= 0; rows [2, 11]"),
    ],
)
def test_a_cost_column_that_is_not_costs_is_refused_naming_its_rows(
    tmp_path, capsys, cells, words
):
    frame = _frame().astype({"amount": object})
    for index, value in cells.items():
        frame.loc[index, "amount"] = value
    frame.to_csv(tmp_path / "d.csv", index=False)
    status = cli.main(["evaluate", "--csv", str(tmp_path / "d.csv"), "--target",
                       "label", "--fn-cost", "amount"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1, err
    assert "cost column 'amount'" in err and words in err, err


def test_missing_costs_are_dropped_with_their_rows_when_asked(tmp_path):
    frame = _frame()
    frame.loc[[3, 7], "amount"] = np.nan
    frame.to_csv(tmp_path / "d.csv", index=False)
    data, costs = _resolved(tmp_path / "d.csv", "--fn-cost", "amount", "--missing",
                            "drop")  # fmt: skip
    assert data.n_dropped == 2 and len(costs.costs) == len(frame) - 2
    np.testing.assert_array_equal(
        costs.costs.per_row[:, 1, 0], frame["amount"].dropna().to_numpy()
    )


@pytest.mark.parametrize("drop", [False, True])
def test_a_cost_column_stays_a_feature_unless_dropped(tmp_path, drop):
    frame = _frame()
    frame.to_csv(tmp_path / "d.csv", index=False)
    saved = tmp_path / "m.skops"
    argv = ["fit", "--csv", str(tmp_path / "d.csv"), "--target", "label",
            "--fn-cost", "amount", "--fp-cost", "5", "--model", "threshold",
            "--out", str(saved)] + ["--drop-cost-columns"] * drop  # fmt: skip
    assert cli.main(argv) == 0
    model, metadata, _ = load_model(str(saved))
    fitted = list(model.steps[0][1].feature_names_in_)
    assert ("amount" in fitted) is not drop
    assert fitted == list(metadata["columns"])
    assert metadata["cost"]["columns"] == ["amount"]
    assert metadata["cost"]["columns_are_features"] is not drop
    # predict needs the cost column either way, and reads each row's own cost
    frame.drop(columns="label").to_csv(tmp_path / "new.csv", index=False)
    out = tmp_path / "p.csv"
    assert cli.main(["predict", "--model", str(saved), "--csv",
                     str(tmp_path / "new.csv"), "--out", str(out)]) == 0  # fmt: skip
    written = pd.read_csv(out)
    p = written["proba_1"].to_numpy()
    expected = np.where(written["prediction"] == 1, (1 - p) * 5, p * frame["amount"])
    np.testing.assert_allclose(written["expected_cost"], expected)


@pytest.mark.parametrize("given", ["columns", "constants"])
def test_evaluate_prints_the_true_total_cost_and_savings(tmp_path, capsys, given):
    """A model that is always right costs the TP and TN costs, not nothing."""
    rng = np.random.default_rng(3)
    n = 60
    y = np.repeat([0, 1], [40, 20])
    frame = pd.DataFrame({"x": 10.0 * y + rng.normal(scale=0.1, size=n),
                          "amount": rng.uniform(5, 20, n).round(2),
                          "fee": rng.uniform(0, 1, n).round(2),
                          "label": y})  # fmt: skip
    frame.to_csv(tmp_path / "d.csv", index=False)
    fn, tp = ("amount", "fee") if given == "columns" else ("12", "0.5")
    out = tmp_path / "folds.csv"
    status = cli.main(["evaluate", "--csv", str(tmp_path / "d.csv"), "--target",
                       "label", "--fn-cost", fn, "--fp-cost", "4", "--tp-cost", tp,
                       "--tn-cost", "0.25", "--model", "threshold", "--folds", "2",
                       "--drop-cost-columns", "--output", str(out),
                       "--quiet"])  # fmt: skip
    printed = capsys.readouterr().out
    assert status == 0, printed
    folds = pd.read_csv(out)
    assert (folds["recall"] == 1).all() and (folds["specificity"] == 1).all()
    fns = frame["amount"] if given == "columns" else pd.Series(12.0, index=frame.index)
    tps = frame["fee"] if given == "columns" else pd.Series(0.5, index=frame.index)
    total = tps[y == 1].sum() + 0.25 * (y == 0).sum()
    assert folds["cost_total"].sum() == pytest.approx(total)
    # savings: 1 - cost / cost of the best constant prediction, on the true costs
    # of each test fold (evaluate's split: a one-dataset study's, seed 0, the
    # dataset named by the file's stem)
    study = Study("evaluate", 0, ("d",), ("rows",), (), Protocol(n_splits=2))
    for fold, (_, test) in enumerate(splits(study, "d", np.asarray(y), 0)):
        pos, neg = test[y[test] == 1], test[y[test] == 0]
        spent = tps[pos].sum() + 0.25 * neg.size
        all_negative = fns[pos].sum() + 0.25 * neg.size
        all_positive = tps[pos].sum() + 4.0 * neg.size
        assert folds["cost_total"][fold] == pytest.approx(spent)
        assert folds["savings"][fold] == pytest.approx(
            1 - spent / min(all_negative, all_positive)
        )
    row = next(line for line in printed.splitlines() if line.startswith("threshold"))
    assert f"{folds['cost_total'].mean():.1f}" in row
    assert f"{folds['savings'].mean():.3f}" in row


def test_minimum_cost_runs_on_three_classes_end_to_end(tmp_path, capsys):
    rng = np.random.default_rng(4)
    y = rng.choice(["a", "b", "c"], size=150, p=[0.5, 0.3, 0.2])
    shift = {"a": 0.0, "b": 1.5, "c": 3.0}
    frame = pd.DataFrame({"x": [shift[v] for v in y] + rng.normal(size=150),
                          "z": rng.normal(size=150), "label": y})  # fmt: skip
    frame.to_csv(tmp_path / "d.csv", index=False)
    matrix = pd.DataFrame([[0, 1, 1], [5, 0, 1], [20, 5, 0]], index=list("abc"),
                          columns=list("abc"))  # fmt: skip
    matrix.to_csv(tmp_path / "costs.csv")
    common = ["--csv", str(tmp_path / "d.csv"), "--target", "label",
              "--cost-matrix", str(tmp_path / "costs.csv")]  # fmt: skip
    assert cli.main(["evaluate", *common, "--model", "minimum-cost", "--folds",
                     "3", "--quiet"]) == 0  # fmt: skip
    assert "minimum-cost" in capsys.readouterr().out
    saved = tmp_path / "m.skops"
    assert cli.main(["fit", *common, "--out", str(saved)]) == 0  # the default model
    model, metadata, _ = load_model(str(saved))
    assert metadata["model"] == "minimum-cost" and metadata["classes"] == list("abc")
    # fit ends with what it chose and the runner-up with the spread, as recorded
    said, fitted = capsys.readouterr().err, model[-1]
    results = pd.DataFrame(fitted.cv_results_)
    picked = results[results["chosen"]].iloc[0]
    assert (f"chose {fitted.chosen_} with the {fitted.rule_} rule: out-of-fold cost "
            f"{picked['mean_cost']:.4g} per row") in said  # fmt: skip
    others = results[~results["chosen"] & np.isfinite(results["mean_cost"])]
    runner = others.loc[others["mean_cost"].idxmin()]
    spread = runner["difference_std_error"]
    assert (f"runner-up {runner['candidate']} with the {runner['rule']} rule: "
            f"{runner['mean_cost']:.4g} ({runner['difference']:+.2g} +- "
            f"{spread:.2g} per row, paired)") in said  # fmt: skip
    frame.drop(columns="label").to_csv(tmp_path / "new.csv", index=False)
    out = tmp_path / "p.csv"
    assert cli.main(["predict", "--model", str(saved), "--csv",
                     str(tmp_path / "new.csv"), "--out", str(out)]) == 0  # fmt: skip
    written = pd.read_csv(out)
    np.testing.assert_array_equal(
        written["prediction"], model.predict(frame.drop(columns="label"))
    )
    proba = written[["proba_a", "proba_b", "proba_c"]].to_numpy()
    chosen = np.searchsorted(list("abc"), written["prediction"])
    np.testing.assert_allclose(
        written["expected_cost"], (proba @ matrix.to_numpy())[np.arange(150), chosen]
    )


def _fitted(tmp_path, *options):
    frame = _frame()
    frame.to_csv(tmp_path / "d.csv", index=False)
    saved = tmp_path / "m.skops"
    argv = ["fit", "--csv", str(tmp_path / "d.csv"), "--target", "label",
            "--model", "threshold", "--out", str(saved), *options]  # fmt: skip
    assert cli.main(argv) == 0
    return saved, *load_model(str(saved))[:2]


def test_a_model_file_with_cost_parts_round_trips(tmp_path):
    saved, model, metadata = _fitted(tmp_path, "--fn-cost", "amount", "--fp-cost",
                                     "5", "--tn-cost", "0.5")  # fmt: skip
    assert metadata["format"] == "costsense-model/2"
    assert metadata["cost"]["parts"] == {"fp": 5.0, "fn": "amount", "tp": 0.0,
                                         "tn": 0.5}  # fmt: skip
    check_metadata(metadata, str(saved))
    np.testing.assert_array_equal(
        np.asarray(model.steps[-1][1].cost), metadata["cost"]["matrix"]
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"parts": {"fp": 1.0, "fn": "amount", "tp": 0.0, "tn": 0.0}},
         "does not match the stored model: cost"),
        ({"parts": {"fp": 5.0, "fn": "amount", "tp": 0.0}}, "cost parts are not"),
        ({"parts": {"fp": 5.0, "fn": "amount", "tp": -1.0, "tn": 0.0}},
         "cost parts are not"),
        ({"columns": ["fee"]}, "cost columns are not those of its parts"),
        ({"columns_are_features": False}, "not features, but lists them"),
        ({"parts": None}, "cost kind"),
        ({"kind": "ratio"}, "cost kind"),
    ],
)  # fmt: skip
def test_a_model_file_whose_cost_metadata_lies_is_refused(tmp_path, change, words):
    from costsense.persist import save_model

    saved, model, metadata = _fitted(tmp_path, "--fn-cost", "amount", "--fp-cost",
                                     "5")  # fmt: skip
    lying = {**metadata, "cost": {**metadata["cost"], **change}}
    save_model(model, tmp_path / "lying.skops", metadata=lying)
    with pytest.raises(UsageError, match="cost") as caught:
        load_model(str(tmp_path / "lying.skops"))
    assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("name", ["adac1", "gcsrf", "weighting"])
def test_predict_decides_each_row_by_its_own_costs_as_the_api_does(tmp_path, name):
    # the CLI's decision is the model's predict(X, sample_cost=) with the rows'
    # costs read from the file, and those costs change decisions
    frame = _frame(n=200)
    frame.to_csv(tmp_path / "d.csv", index=False)
    saved, out = tmp_path / "m.skops", tmp_path / "p.csv"
    costs = ["--fn-cost", "amount", "--fp-cost", "fee", "--tp-cost", "0.5"]
    fit = ["fit", "--csv", str(tmp_path / "d.csv"), "--target", "label",
           "--model", name, "--out", str(saved), *costs]  # fmt: skip
    assert cli.main(fit) == 0
    predict = [
        "predict",
        "--model",
        str(saved),
        "--csv",
        str(tmp_path / "d.csv"),
        "--out",
        str(out),
    ]  # the model file names its cost columns
    assert cli.main(predict) == 0
    model, _, _ = load_model(str(saved))
    X = frame.drop(columns="label")
    rows = example_costs(fp=frame["fee"], fn=frame["amount"], tp=0.5, tn=0.0)
    by_api = model.predict(X, sample_cost=rows)
    written = pd.read_csv(out)["prediction"].to_numpy()
    np.testing.assert_array_equal(written, by_api)
    assert np.any(by_api != model.predict(X))  # the rows' own costs mattered


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--fn-cost", "zero"], "--fn-cost column 'zero': a missed positive costs no "
         "more than a caught one (--tp-cost 0) on any of the {n1} rows of class '1' "
         "(lines {ones} more of {csv}), so errors on that class would be free"),
        (["--fp-cost", "zero", "--fn-cost", "amount"], "--fp-cost column 'zero': a "
         "false alarm costs no more than a true negative (--tn-cost 0) on any of the "
         "{n0} rows of class '0' (lines {zeros} more of {csv}), so errors on that "
         "class would be free"),
        (["--fn-cost", "0"], "--fn-cost 0: a missed positive costs no more than a "
         "caught one (--tp-cost 0) on any of the {n1} rows of class '1', so errors "
         "on that class would be free; give --fn-cost"),
    ],
)  # fmt: skip
def test_free_errors_are_refused_naming_the_option_column_and_lines(
    tmp_path, capsys, options, said
):
    frame = _frame().assign(zero=0.0)
    frame.to_csv(tmp_path / "d.csv", index=False)
    lines = {c: (np.flatnonzero(frame["label"] == c) + 2).tolist() for c in (0, 1)}
    said = said.format(
        n0=len(lines[0]), n1=len(lines[1]), csv=tmp_path / "d.csv",
        zeros=f"{lines[0][:5]} and {len(lines[0]) - 5}",
        ones=f"{lines[1][:5]} and {len(lines[1]) - 5}",
    )  # fmt: skip
    model = tmp_path / "m.skops"
    status = cli.main(["fit", "--csv", str(tmp_path / "d.csv"), "--target", "label",
                       "--out", str(model), *options])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1, err
    assert said in err and "rows [1]" not in err, err
    assert not model.exists()
