import json

import numpy as np
import pandas as pd
import pytest

from costsense import __version__, cli
from costsense.cli import UsageError
from costsense.cli._model_io import load_model
from costsense.datasets import read_table
from costsense.experiments import make_model
from tests.cli._data import write_csv


def _fit(train, out, *extra):
    return cli.main(["fit", "--csv", str(train), "--target", "label",
                     "--out", str(out), *extra])  # fmt: skip


def _predict(model, rows, out):
    return cli.main(["predict", "--model", str(model), "--csv", str(rows),
                     "--out", str(out)])  # fmt: skip


@pytest.mark.parametrize("model", ["threshold", "asybl", "minimum-cost"])
def test_fit_then_predict_gives_the_in_memory_models_decisions(model, tmp_path):
    train = write_csv(tmp_path / "train.csv", n=200, categorical=True)
    new = write_csv(tmp_path / "new.csv", n=80, seed=1, categorical=True)
    saved, out = tmp_path / "model.skops", tmp_path / "pred.csv"
    assert _fit(train, saved, "--cost", "5", "--model", model) == 0
    assert _predict(saved, new, out) == 0
    written = pd.read_csv(out)
    table = read_table(train, "label")
    base = {
        "threshold": "logistic",
        "asybl": "regression-tree",
        "minimum-cost": "logistic",
    }
    reference = make_model(
        model, base=base[model], cost=np.array([[0, 1], [5, 0]]), pos_label=1, seed=0,
        prepare=table.encoder,
    ).fit(table.X, table.y)  # fmt: skip
    X_new = pd.read_csv(new).drop(columns="label")
    np.testing.assert_array_equal(written["prediction"], reference.predict(X_new))
    proba = reference.predict_proba(X_new)
    np.testing.assert_allclose(written[["proba_0", "proba_1"]], proba, rtol=1e-12)
    # the expected cost of each decision: sum over true classes of P(k|x) C[k, d]
    matrix = np.array([[0.0, 1.0], [5.0, 0.0]])
    decided = written["prediction"].to_numpy()
    np.testing.assert_allclose(
        written["expected_cost"], np.sum(proba * matrix[:, decided].T, axis=1)
    )
    _, metadata, _ = load_model(str(saved))
    assert metadata["columns"] == {
        "f1": "numeric", "f2": "numeric", "f3": "numeric", "city": "categorical"
    }  # fmt: skip
    assert metadata["classes"] == [0, 1] and metadata["pos_label"] == 1
    assert metadata["cost"]["matrix"] == [[0.0, 1.0], [5.0, 0.0]]
    assert metadata["costsense_version"] == __version__


def test_predict_names_missing_extra_and_retyped_columns(tmp_path, capsys):
    train = write_csv(tmp_path / "train.csv", categorical=True)
    saved = tmp_path / "model.skops"
    assert _fit(train, saved, "--cost", "5", "--model", "threshold") == 0
    frame = pd.read_csv(train)
    frame.drop(columns=["f2"]).to_csv(tmp_path / "missing.csv", index=False)
    assert _predict(saved, tmp_path / "missing.csv", tmp_path / "a.csv") == 2
    assert "missing columns ['f2']" in capsys.readouterr().err
    frame.assign(f3=["x"] * len(frame)).to_csv(tmp_path / "retyped.csv", index=False)
    assert _predict(saved, tmp_path / "retyped.csv", tmp_path / "b.csv") == 2
    assert "retyped columns ['f3 (numeric when trained, categorical here)']" in (
        capsys.readouterr().err
    )
    frame.assign(extra=1.0).to_csv(tmp_path / "extra.csv", index=False)
    assert _predict(saved, tmp_path / "extra.csv", tmp_path / "c.csv") == 2
    assert "extra columns ['extra']" in capsys.readouterr().err
    assert not any((tmp_path / name).exists() for name in ("a.csv", "b.csv", "c.csv"))


def test_no_command_overwrites_a_file(tmp_path, capsys):
    train = write_csv(tmp_path / "train.csv")
    before = train.read_bytes()
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    assert _fit(train, taken, "--cost", "5") == 2
    assert "exists" in capsys.readouterr().err
    assert _fit(train, train, "--cost", "5") == 2
    saved = tmp_path / "model.skops"
    assert _fit(train, saved, "--cost", "5", "--model", "threshold") == 0
    model_bytes = saved.read_bytes()
    assert _fit(train, saved, "--cost", "5", "--model", "threshold") == 2
    assert _predict(saved, train, taken) == 2
    assert _predict(saved, train, train) == 2
    assert _predict(saved, train, saved) == 2
    assert taken.read_text() == "keep me"
    assert train.read_bytes() == before and saved.read_bytes() == model_bytes


def test_a_cost_matrix_with_unknown_classes_is_refused_by_name(tmp_path, capsys):
    train = write_csv(tmp_path / "train.csv")
    costs = tmp_path / "costs.csv"
    costs.write_text(",0,fraud\n0,0,1\nfraud,5,0\n")
    assert _fit(train, tmp_path / "m.skops", "--cost-matrix", str(costs)) == 2
    err = capsys.readouterr().err
    assert "unknown classes ['fraud']" in err and "missing classes ['1']" in err
    status = cli.main(["evaluate", "--csv", str(train), "--target", "label",
                       "--cost-matrix", str(costs)])  # fmt: skip
    assert status == 2 and "unknown classes ['fraud']" in capsys.readouterr().err


def test_a_three_class_cost_matrix_in_evaluate_fit_and_predict(tmp_path, capsys):
    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b", "c"], size=240, p=[0.6, 0.3, 0.1])
    X = rng.normal(size=(240, 2)) + (y == "b")[:, None] * 1.5 - (y == "c")[:, None] * 2
    data = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "label": y})
    data.to_csv(tmp_path / "three.csv", index=False)
    matrix = pd.DataFrame(
        [[0, 1, 1], [2, 0, 1], [10, 10, 0]],
        index=["a", "b", "c"],
        columns=["a", "b", "c"],
    )
    matrix.iloc[::-1, ::-1].to_csv(tmp_path / "costs.csv")  # any order of the names
    status = cli.main(["evaluate", "--csv", str(tmp_path / "three.csv"), "--target",
                       "label", "--cost-matrix", str(tmp_path / "costs.csv"), "--quiet",
                       "--model", "threshold,weighting", "--folds", "3"])  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "balanced_accuracy" in out and "auc" not in out
    saved = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(tmp_path / "three.csv"), "--target", "label",
                     "--cost-matrix", str(tmp_path / "costs.csv"), "--model",
                     "threshold", "--out", str(saved)]) == 0  # fmt: skip
    assert _predict(saved, tmp_path / "three.csv", tmp_path / "p.csv") == 0
    written = pd.read_csv(tmp_path / "p.csv")
    proba = written[["proba_a", "proba_b", "proba_c"]].to_numpy()
    best = np.array(["a", "b", "c"])[np.argmin(proba @ matrix.to_numpy(), axis=1)]
    np.testing.assert_array_equal(written["prediction"], best)  # the Bayes decision
    status = cli.main(["evaluate", "--csv", str(tmp_path / "three.csv"), "--target",
                       "label", "--cost-matrix", str(tmp_path / "costs.csv"),
                       "--model", "asyb"])  # fmt: skip
    assert status == 2 and "handle two classes only" in capsys.readouterr().err


def test_cost_column_moves_each_rows_decision_with_its_amount(tmp_path, capsys):
    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    x = rng.normal(size=n) + y
    amount = rng.uniform(1, 50, size=n)
    pd.DataFrame({"x": x, "amount": amount, "label": y}).to_csv(
        tmp_path / "train.csv", index=False
    )
    saved = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(tmp_path / "train.csv"), "--target", "label",
                     "--fn-cost", "amount", "--fp-cost", "2", "--model",
                     "threshold", "--out", str(saved)]) == 0  # fmt: skip
    model, metadata, _ = load_model(str(saved))
    assert metadata["columns"] == {"x": "numeric", "amount": "numeric"}  # a feature
    assert metadata["cost"]["parts"] == {"fp": 2.0, "fn": "amount", "tp": 0.0,
                                         "tn": 0.0}  # fmt: skip
    grid = np.linspace(-2, 3, 11)
    new = pd.DataFrame({"x": np.tile(grid, 2), "amount": np.repeat([1.0, 40.0], 11)})
    new.to_csv(tmp_path / "new.csv", index=False)
    assert _predict(saved, tmp_path / "new.csv", tmp_path / "p.csv") == 0
    written = pd.read_csv(tmp_path / "p.csv")
    p = written["proba_1"].to_numpy()
    # positive iff the expected cost of a miss exceeds that of a false alarm
    expected = (p * new["amount"] > (1 - p) * 2).astype(int)
    np.testing.assert_array_equal(written["prediction"], expected)
    cheap, dear = written["prediction"][:11], written["prediction"][11:]
    assert dear.sum() > cheap.sum()  # the same rows, decided by their own amount
    np.testing.assert_allclose(
        written["expected_cost"],
        np.where(expected == 1, (1 - p) * 2, p * new["amount"]),
    )
    new.drop(columns="amount").to_csv(tmp_path / "no_amount.csv", index=False)
    capsys.readouterr()
    assert _predict(saved, tmp_path / "no_amount.csv", tmp_path / "q.csv") == 2
    assert "no cost columns ['amount']" in capsys.readouterr().err
    assert not (tmp_path / "q.csv").exists()
    assert not (tmp_path / "q.csv.partial").exists()


class Foreign:
    pass


def test_a_model_file_with_foreign_types_is_refused(tmp_path):
    import skops.io

    path = tmp_path / "bad.skops"
    skops.io.dump({"metadata": json.dumps({}), "model": Foreign()}, path)
    with pytest.raises(UsageError, match="holds type tests.cli.test_fit.Foreign,"):
        load_model(str(path))
    (tmp_path / "text.skops").write_text("not a model")
    with pytest.raises(UsageError, match="is not a model file"):
        load_model(str(tmp_path / "text.skops"))


def test_fit_says_once_that_a_model_is_constant(tmp_path, capsys):
    rng = np.random.default_rng(1)
    noise = pd.DataFrame(
        {"f": rng.normal(size=120), "label": np.repeat([1, 0], [30, 90])}
    )
    noise.to_csv(tmp_path / "noise.csv", index=False)
    assert _fit(tmp_path / "noise.csv", tmp_path / "m.skops", "--cost", "1000",
                "--model", "threshold") == 0  # fmt: skip
    err = capsys.readouterr().err
    warned = [line for line in err.splitlines() if "DegenerateModelWarning" in line]
    assert len(warned) == 1 and warned[0].startswith("warning: threshold: 1 ")
    assert "ThresholdMoving predicts only class" in warned[0]


def test_a_file_from_another_version_that_does_not_match_says_fit_again(tmp_path):
    from costsense.persist import save_model

    train = write_csv(tmp_path / "train.csv")
    assert _fit(train, tmp_path / "m.skops", "--cost", "5", "--model", "threshold") == 0
    model, metadata, _ = load_model(str(tmp_path / "m.skops"))
    lying = {**metadata, "cost": {**metadata["cost"], "matrix": [[0, 1], [1, 0]]}}
    save_model(model, tmp_path / "same.skops", metadata=lying)
    older = {**lying, "costsense_version": "0.0.1"}
    save_model(model, tmp_path / "older.skops", metadata=older)
    with pytest.raises(UsageError) as same:
        load_model(str(tmp_path / "same.skops"))
    assert "cost" in str(same.value) and "fit the model again" not in str(same.value)
    with pytest.raises(UsageError) as other:
        load_model(str(tmp_path / "older.skops"))
    message = str(other.value)
    assert "costsense 0.0.1" in message and __version__ in message
    assert "fit the model again" in message
