"""Studies on a user's CSV or Parquet file: read as the command line reads it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from costsense.experiments import ResultsStore, run_study, study_from_dict
from costsense.experiments._files import load_file_dataset

VOLATILE = ["fit_time", "predict_time", "finished"]


def _table(n=160, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.25
    return pd.DataFrame({
        "ref": [f"r{i}" for i in range(n)],
        "amount": [f"{a:,.2f}" for a in rng.uniform(10, 5_000, n) * (1 + y)],
        "shop": np.where(rng.random(n) < 0.3 + 0.4 * y, "online", "store"),
        "when": pd.date_range("2026-01-01", periods=n, freq="7h").strftime(
            "%Y-%m-%d %H:%M"),
        "label": np.where(y, "fraud", "ok"),
    })  # fmt: skip


def _study(folder, name="t.csv", **spec):
    data = {
        "name": "files",
        "seed": 1,
        "datasets": ["mine"],
        "costs": [5],
        "algorithms": [{"name": "threshold", "method": "threshold"}],
        "protocol": {"kind": "kfold", "n_splits": 2, "n_repeats": 1},
        "reference": None,
        "files": {"mine": {"path": str(folder / name), "target": "label",
                           "drop": ["ref"], **spec}},
    }  # fmt: skip
    return study_from_dict(data, source=str(folder / "study.toml"))


def test_a_file_is_encoded_as_the_command_line_encodes_it(tmp_path):
    frame = _table()
    frame.to_csv(tmp_path / "t.csv", index=False)
    study = _study(tmp_path)
    X, y, positive = load_file_dataset("mine", study.derived["mine"])
    amounts = frame["amount"].str.replace(",", "").astype(float)
    stamps = pd.to_datetime(frame["when"])
    expected = np.column_stack([
        frame["shop"] == "online", frame["shop"] == "store",  # one indicator each
        amounts,
        stamps.dt.hour + stamps.dt.minute / 60, stamps.dt.weekday, stamps.dt.day,
        stamps.dt.month,
    ]).astype(float)  # fmt: skip
    np.testing.assert_allclose(X, expected)
    assert positive == "fraud"  # the rarer class, by default
    np.testing.assert_array_equal(y, frame["label"].to_numpy())


def test_csv_and_parquet_copies_give_the_same_results(tmp_path):
    frame = _table()
    frame.to_csv(tmp_path / "t.csv", index=False)
    frame.to_parquet(tmp_path / "t.parquet")
    tables = {}
    for name in ("t.csv", "t.parquet"):
        study = _study(tmp_path, name)
        run_study(study, tmp_path / name.replace(".", "-"))
        results = ResultsStore(tmp_path / name.replace(".", "-")).results()
        tables[name] = results.drop(columns=[*VOLATILE, "key", "seed"], errors="ignore")
    assert len(tables["t.csv"]) == 2
    assert_frame_equal(tables["t.parquet"], tables["t.csv"])


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"path": "nope.csv"}, "nope.csv is missing"),
        ({"target": "missing"}, "target 'missing' is not a column"),
        ({"drop": ["ghost"]}, "['ghost'] are not columns"),
        ({"positive": "maybe"}, "positive 'maybe' is not a class"),
        ({"colour": "red"}, "unknown keys ['colour']"),
        ({"drop": []}, "column 'ref' has 160 categories"),
    ],
)
def test_a_bad_file_dataset_is_refused_when_the_study_loads(tmp_path, spec, said):
    _table().to_csv(tmp_path / "t.csv", index=False)
    with pytest.raises(ValueError, match=said.replace("[", r"\[").replace("]", r"\]")):
        _study(tmp_path, **spec)


def test_missing_values_and_three_classes_are_refused_by_name(tmp_path):
    frame = _table()
    frame.loc[3, "shop"] = None
    frame.to_csv(tmp_path / "t.csv", index=False)
    with pytest.raises(ValueError, match=r"1 rows have missing values .*'shop': 1"):
        _study(tmp_path)
    frame = _table()
    frame.loc[:9, "label"] = "unsure"
    frame.to_csv(tmp_path / "t.csv", index=False)
    with pytest.raises(ValueError, match="has 3 classes"):
        _study(tmp_path)


def test_a_changed_file_is_a_different_study(tmp_path):
    _table().to_csv(tmp_path / "t.csv", index=False)
    before = _study(tmp_path)
    _table(seed=1).to_csv(tmp_path / "t.csv", index=False)
    after = _study(tmp_path)
    assert before.fingerprint() != after.fingerprint()
    with pytest.raises(ValueError, match="changed since the study loaded"):
        load_file_dataset("mine", before.derived["mine"])


def test_a_study_file_names_its_data_relative_to_itself(tmp_path, monkeypatch):
    from costsense.experiments import load_study

    (tmp_path / "data").mkdir()
    _table().to_csv(tmp_path / "data" / "t.csv", index=False)
    (tmp_path / "study.toml").write_text(
        'name = "files"\ndatasets = ["mine"]\ncosts = [5]\nreference = "threshold"\n'
        '[[algorithms]]\nname = "threshold"\nmethod = "threshold"\n'
        '[files.mine]\npath = "data/t.csv"\ntarget = "label"\ndrop = ["ref"]\n'
    )
    monkeypatch.chdir(tmp_path / "data")  # not where the study is
    study = load_study(tmp_path / "study.toml")
    assert study.derived["mine"]["path"] == str((tmp_path / "data" / "t.csv").resolve())


def _money_table(n=240, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    amount = np.round(rng.uniform(5, 500, n), 2)
    return pd.DataFrame({
        "x": rng.normal(size=n) + 1.5 * y + amount / 500,
        "amount": amount,
        "label": y.astype(int),
    })  # fmt: skip


def test_a_file_with_cost_columns_runs_at_its_rows_own_costs(tmp_path):
    from costsense.costs import Costs, example_costs
    from costsense.experiments import make_model
    from costsense.experiments._datasets import dataset_spec
    from costsense.experiments._plan import splits
    from costsense.metrics import misclassification_cost

    frame = _money_table()
    frame.to_csv(tmp_path / "m.csv", index=False)
    data = {
        "name": "money", "seed": 2, "datasets": ["money"], "costs": [5],
        "algorithms": [{"name": "threshold", "method": "threshold"},
                       {"name": "weighting", "method": "weighting"}],
        "protocol": {"kind": "kfold", "n_splits": 2, "n_repeats": 1},
        "reference": None,
        "files": {"money": {"path": str(tmp_path / "m.csv"), "target": "label",
                            "positive": "1", "fn_cost": "amount", "fp_cost": 4}},
    }  # fmt: skip
    study = study_from_dict(data)
    assert study.costs_for("money") == ("rows",)  # not the study's 5
    run_study(study, tmp_path / "run")
    results = ResultsStore(tmp_path / "run").results()
    assert set(results["cost"]) == {"rows"} and len(results) == 4
    # the fold's cost by hand: a missed positive costs its amount, a false alarm 4
    X, y, pos, _ = dataset_spec(study, "money").load()
    rows = example_costs(fp=4.0, fn=frame["amount"].to_numpy(), n_samples=len(y))
    for _, row in results[results["algorithm"] == "threshold"].iterrows():
        train, test = splits(study, "money", y, int(row["repeat"]))[int(row["fold"])]
        model = make_model("threshold", base="logistic", cost=np.eye(2)[::-1],
                           pos_label=pos, seed=int(row["seed"]),
                           scaler=study.protocol.scale)  # fmt: skip
        own = Costs.resolve(None, y, pos_label=pos, sample_cost=rows)
        model.set_params(model__cost=own.mean_matrix)  # the rows' mean matrix
        model.fit(X[train], y[train])  # threshold moving learns no per-row costs
        # each test row decided by its own costs, as costsense evaluate does
        predicted = model.predict(X[test], sample_cost=own.take(test))
        missed = (y[test] == "1") & (predicted == "0")
        alarms = (y[test] == "0") & (predicted == "1")
        by_hand = frame["amount"].to_numpy()[test][missed].sum() + 4 * alarms.sum()
        assert row["cost_total"] == pytest.approx(by_hand)
        expected = misclassification_cost(
            y[test], predicted, sample_cost=own.take(test), pos_label=pos
        )
        assert row["cost_total"] == pytest.approx(expected)
    assert run_study(study, tmp_path / "run").ran == 0  # resumed: nothing left


def test_per_row_costs_refuse_methods_and_grids_that_cannot_take_them(tmp_path):
    _money_table().to_csv(tmp_path / "m.csv", index=False)
    data = {
        "name": "money", "datasets": ["money"], "costs": [5],
        "algorithms": [{"name": "plain", "method": "plain"},
                       {"name": "tuned", "method": "threshold",
                        "grid": {"calibration": ["sigmoid", "isotonic"]}}],
        "reference": None,
        "files": {"money": {"path": str(tmp_path / "m.csv"), "target": "label",
                            "fn_cost": "amount"}},
    }  # fmt: skip
    with pytest.raises(ValueError, match=r"algorithms \['plain', 'tuned'\] cannot run"):
        study_from_dict(data)
    data["files"]["money"]["fn_cost"] = "nope"
    with pytest.raises(ValueError, match="fn_cost 'nope' is neither a number nor a"):
        study_from_dict(data)
    frame = _money_table()
    frame.loc[7, "amount"] = -1.0
    frame.to_csv(tmp_path / "m.csv", index=False)
    data["files"]["money"]["fn_cost"] = "amount"
    data["algorithms"] = [{"name": "threshold", "method": "threshold"}]
    with pytest.raises(ValueError, match=r"cost column 'amount' .*row \[9\]"):
        study_from_dict(data)
