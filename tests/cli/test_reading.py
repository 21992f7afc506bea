"""The CSV files a user gives: what is refused up front, by name (exit 2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.cli._model_io import load_model
from tests.cli._data import write_csv


def _run(capsys, *argv):
    status = cli.main(list(argv))
    err = capsys.readouterr().err
    return status, err


def _threshold(command, csv, *extra):
    """A ``command`` of threshold moving at cost 5 on ``csv`` (target label)."""
    return [command, "--csv", str(csv), "--target", "label", "--cost", "5",
            "--model", "threshold", *extra]  # fmt: skip


def _predict(model, csv, out, *extra):
    return ["predict", "--model", str(model), "--csv", str(csv), "--out", str(out),
            *extra]  # fmt: skip


def test_a_folder_given_as_csv_is_named(tmp_path, capsys):
    status, err = _run(capsys, "evaluate", "--csv", str(tmp_path), "--target",
                       "label", "--cost", "5")  # fmt: skip
    assert status == 2 and f"--csv {tmp_path} is a folder" in err
    assert err.count("\n") == 1


def test_a_header_naming_a_column_twice_is_refused_not_renamed(tmp_path, capsys):
    path = tmp_path / "d.csv"
    write_csv(path)
    text = path.read_text().splitlines()
    text[0] = text[0].replace("f2", "f1")  # pandas would read 'f1' and 'f1.1'
    path.write_text("\n".join(text) + "\n")
    status, err = _run(capsys, "evaluate", "--csv", str(path), "--target",
                       "label", "--cost", "5")  # fmt: skip
    assert status == 2 and "more than once: ['f1']" in err


def test_labels_that_differ_by_a_space_are_listed(tmp_path, capsys):
    path = tmp_path / "d.csv"
    frame = pd.read_csv(write_csv(path))
    frame["label"] = frame["label"].map({0: "no", 1: "yes"}).astype(object)
    frame.loc[:3, "label"] = "yes "
    frame.to_csv(path, index=False)
    status, err = _run(capsys, "evaluate", "--csv", str(path), "--target",
                       "label", "--cost", "5")  # fmt: skip
    assert status == 2 and "3 classes ('no', 'yes', 'yes ')" in err


def test_a_file_with_a_header_and_no_rows_gives_the_header_alone(tmp_path, capsys):
    path = tmp_path / "d.csv"
    write_csv(path)
    saved = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(path), "--target", "label", "--cost", "5",
                     "--model", "threshold", "--out", str(saved)]) == 0  # fmt: skip
    capsys.readouterr()
    empty = tmp_path / "empty.csv"
    empty.write_text("f1,f2,f3\n")
    status, err = _run(capsys, "predict", "--model", str(saved), "--csv",
                       str(empty), "--out", str(tmp_path / "p.csv"))  # fmt: skip
    assert status == 0 and "0 rows predicted" in err  # a quiet day: an empty file
    header = "row,prediction,proba_0,proba_1,expected_cost\n"
    assert (tmp_path / "p.csv").read_text() == header
    status, err = _run(capsys, "fit", "--csv", str(empty), "--target", "label",
                       "--cost", "5", "--out", str(tmp_path / "e.skops"))  # fmt: skip
    assert status == 2 and f"--csv {empty} has a header but no rows" in err


def test_infinite_features_are_one_error_naming_the_column_and_lines(tmp_path, capsys):
    path = tmp_path / "d.csv"
    frame = pd.read_csv(write_csv(path))
    frame.loc[[2, 7], "f2"] = [float("inf"), float("-inf")]
    frame.to_csv(path, index=False)
    status, err = _run(capsys, "evaluate", "--csv", str(path), "--target",
                       "label", "--cost", "5", "--model", "threshold")  # fmt: skip
    # data rows 2 and 7 are the file's lines 4 and 9 (the header is line 1)
    assert status == 2 and "column 'f2' holds infinite values (rows [4, 9])" in err
    clean = tmp_path / "clean.csv"
    frame.drop(index=[2, 7]).to_csv(clean, index=False)
    saved = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(clean), "--target", "label",
                     "--cost", "5", "--model", "threshold",
                     "--out", str(saved)]) == 0  # fmt: skip
    capsys.readouterr()
    status, err = _run(capsys, "predict", "--model", str(saved), "--csv", str(path),
                       "--out", str(tmp_path / "p.csv"))  # fmt: skip
    assert status == 2 and "column 'f2' holds infinite values (rows [4, 9])" in err


def test_a_cost_matrix_whose_errors_are_free_is_a_usage_error(tmp_path, capsys):
    path = write_csv(tmp_path / "d.csv")
    matrix = tmp_path / "costs.csv"
    # the true class 0's error costs what being right costs: its errors are free
    pd.DataFrame([[1, 1], [5, 0]], index=[0, 1], columns=[0, 1]).to_csv(matrix)
    status, err = _run(capsys, "evaluate", "--csv", str(path),
                       "--target", "label", "--cost-matrix", str(matrix),
                       "--model", "threshold")  # fmt: skip
    assert status == 2 and err.startswith(
        f"costsense evaluate: error: --cost-matrix {matrix}: in rows [0]"
    )


def _frame():
    return pd.DataFrame(
        {
            "amount": [1.5, -2.25, 3.0, 10.75],
            "country": ["España", "Österreich", "France", "España"],
            "label": ["yes", "no", "no", "yes"],
        }
    )


def _options(**given):
    from costsense.datasets import TableOptions

    return TableOptions(**given)


def test_semicolon_tab_and_pipe_files_are_read_as_the_comma_file(tmp_path):
    from costsense.utils._tables import read_frame

    expected = _frame()
    for sep in [";", "\t", "|"]:
        path = tmp_path / "d.csv"
        expected.to_csv(path, sep=sep, index=False)
        pd.testing.assert_frame_equal(read_frame(str(path), _options()), expected)
        given = "\\t" if sep == "\t" else sep
        frame = read_frame(str(path), _options(sep=given))
        pd.testing.assert_frame_equal(frame, expected)


def _read_features(path, **given):
    """Read a file as the commands do: the frame, then its written numbers read."""
    from costsense.utils._numbers import read_written_numbers
    from costsense.utils._tables import read_frame

    options = _options(**given)
    frame = read_frame(str(path), options)
    return read_written_numbers(frame, str(path), options.decimal)[0]


def test_decimal_comma_is_read_with_or_without_the_option(tmp_path):
    path = tmp_path / "d.csv"
    expected = _frame()
    expected.to_csv(path, sep=";", decimal=",", index=False)
    pd.testing.assert_frame_equal(_read_features(path), expected)
    pd.testing.assert_frame_equal(_read_features(path, decimal=","), expected)


def test_thousands_separators_are_read_and_ambiguous_marks_refused(tmp_path):
    from costsense.cli import UsageError

    path = tmp_path / "d.csv"
    path.write_text('amount,label\n"1,234.50",yes\n"12,000.00",no\n"3,100.25",no\n')
    np.testing.assert_array_equal(
        _read_features(path)["amount"], [1234.5, 12000.0, 3100.25]
    )
    path.write_text('amount,label\n"1,234",yes\n"2,500",no\n')  # either mark
    with pytest.raises(UsageError, match="'amount' holds numbers such as '1,234' "
                       "whose comma or point may be a decimal mark"):  # fmt: skip
        _read_features(path)
    np.testing.assert_array_equal(
        _read_features(path, decimal=".")["amount"], [1234.0, 2500.0]
    )
    np.testing.assert_array_equal(
        _read_features(path, decimal=",")["amount"], [1.234, 2.5]
    )


def test_text_in_another_encoding_is_named_with_the_fix(tmp_path, capsys):
    from costsense.cli import UsageError
    from costsense.utils._tables import read_frame

    path = tmp_path / "d.csv"
    expected = _frame()
    expected.to_csv(path, index=False, encoding="latin-1")
    with pytest.raises(UsageError, match="is not utf-8 text .*--encoding latin-1"):
        read_frame(str(path), _options())
    frame = read_frame(str(path), _options(encoding="latin-1"))
    pd.testing.assert_frame_equal(frame, expected)
    status, err = _run(capsys, "evaluate", "--csv", str(path), "--target", "label",
                       "--cost", "5", "--encoding", "klingon")  # fmt: skip
    assert status == 2 and "--encoding 'klingon' is not an encoding" in err


def test_fit_and_predict_on_a_semicolon_decimal_comma_file_match_the_comma_file(
    tmp_path, capsys
):
    plain = write_csv(tmp_path / "plain.csv")
    local = tmp_path / "local.csv"
    pd.read_csv(plain).to_csv(local, sep=";", decimal=",", index=False)
    predictions = {}
    for path, options in [(plain, []), (local, ["--decimal", ","])]:
        saved = tmp_path / f"{path.stem}.skops"
        out = tmp_path / f"{path.stem}-predictions.csv"
        assert cli.main(["fit", "--csv", str(path), "--target", "label",
                         "--cost", "5", "--model", "threshold", "--out", str(saved),
                         *options]) == 0  # fmt: skip
        assert cli.main(["predict", "--model", str(saved), "--csv", str(path),
                         "--out", str(out), *options]) == 0  # fmt: skip
        predictions[path.stem] = pd.read_csv(out)
    capsys.readouterr()
    pd.testing.assert_frame_equal(predictions["plain"], predictions["local"])


def _with_id_and_time(tmp_path):
    path = write_csv(tmp_path / "plain.csv")
    frame = pd.read_csv(path)
    frame.insert(0, "id", [f"tx-{i:04d}" for i in range(len(frame))])
    frame.insert(1, "ts", pd.date_range("2026-01-01", periods=len(frame), freq="h"))
    frame.to_csv(tmp_path / "full.csv", index=False)
    return path, tmp_path / "full.csv", frame


def test_dropped_and_id_columns_are_not_features_and_ids_reach_predictions(
    tmp_path, capsys
):
    from costsense.cli._model_io import load_model

    plain, full, frame = _with_id_and_time(tmp_path)
    (tmp_path / "ids").mkdir()  # one file name: the folds are seeded by it
    full = full.rename(tmp_path / "ids" / plain.name)
    results = {}
    for name, path, options in [
        ("plain", plain, []),
        ("full", full, ["--drop", "ts", "--id-column", "id"]),
    ]:
        out = tmp_path / f"{name}-folds.csv"
        assert cli.main(["evaluate", "--csv", str(path), "--target", "label",
                         "--cost", "5", "--model", "threshold", "--folds", "3",
                         "--output", str(out), "--quiet", *options]) == 0  # fmt: skip
        results[name] = pd.read_csv(out).drop(columns=["fit_time", "predict_time"])
    # the same folds and models: the two columns changed nothing
    pd.testing.assert_frame_equal(results["plain"], results["full"])
    saved = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(full), "--target", "label", "--cost", "5",
                     "--model", "threshold", "--drop", "ts", "--id-column", "id",
                     "--out", str(saved)]) == 0  # fmt: skip
    assert "not features: ts, id" in capsys.readouterr().err
    _, metadata, _ = load_model(str(saved))
    assert list(metadata["columns"]) == ["f1", "f2", "f3"]
    out = tmp_path / "p.csv"
    assert cli.main(["predict", "--model", str(saved), "--csv", str(full),
                     "--out", str(out)]) == 0  # fmt: skip
    written = pd.read_csv(out)
    assert list(written.columns[:3]) == ["row", "id", "prediction"]
    assert written["id"].tolist() == frame["id"].tolist()
    # another column named at predict time is passed through, not refused as extra
    frame.assign(ref=frame["id"].str.upper()).to_csv(tmp_path / "new.csv", index=False)
    out = tmp_path / "p2.csv"
    assert cli.main(["predict", "--model", str(saved), "--csv",
                     str(tmp_path / "new.csv"), "--out", str(out),
                     "--id-column", "ref"]) == 0  # fmt: skip
    again = pd.read_csv(out)
    assert again["ref"].tolist() == frame["id"].str.upper().tolist()
    assert again["prediction"].tolist() == written["prediction"].tolist()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--drop", "nope"], "['nope'] are not columns of --csv"),
        (["--drop", "label"], "names the column of --target"),
        (["--id-column", "label"], "names the column of --target"),
    ],
)
def test_leaving_out_an_unknown_or_the_target_column_is_a_usage_error(
    tmp_path, capsys, options, said
):
    _, full, _ = _with_id_and_time(tmp_path)
    status, err = _run(capsys, "evaluate", "--csv", str(full), "--target", "label",
                       "--cost", "5", *options)  # fmt: skip
    assert status == 2 and said in err


def test_a_dropped_column_is_not_checked_for_written_numbers(tmp_path, capsys):
    path = write_csv(tmp_path / "d.csv")
    frame = pd.read_csv(path)
    frame["amount_text"] = [f"{1000 + i:,}" for i in range(len(frame))]  # 1,000
    frame.to_csv(path, index=False)
    status, err = _run(capsys, "evaluate", "--csv", str(path), "--target", "label",
                       "--cost", "5", "--model", "threshold")  # fmt: skip
    assert status == 2 and "'amount_text' holds numbers such as '1,000'" in err
    assert cli.main(["evaluate", "--csv", str(path), "--target", "label", "--cost",
                     "5", "--model", "threshold", "--drop", "amount_text",
                     "--quiet"]) == 0  # fmt: skip


def test_many_categories_are_refused_by_name_not_one_hot_encoded(tmp_path, capsys):
    path = write_csv(tmp_path / "d.csv")
    frame = pd.read_csv(path)
    n = len(frame)
    frame["merchant"] = [f"m{i % 120}" for i in range(n)]  # 120 distinct values
    frame.to_csv(path, index=False)
    common = ["evaluate", "--csv", str(path), "--target", "label", "--cost", "5",
              "--model", "threshold", "--quiet"]  # fmt: skip
    status, err = _run(capsys, *common)
    assert status == 2 and "column 'merchant' has 120 categories" in err
    assert "over --max-categories 50" in err
    assert cli.main([*common, "--max-categories", "120"]) == 0
    assert cli.main([*common, "--id-column", "merchant"]) == 0


def test_an_identifier_feature_is_noted_on_stderr_with_the_fix(tmp_path, capsys):
    path = write_csv(tmp_path / "d.csv")
    frame = pd.read_csv(path)
    frame.insert(0, "client_id", np.arange(len(frame))[::-1] + 70_000)
    frame.to_csv(path, index=False)
    common = _threshold("evaluate", path, "--quiet")
    status, err = _run(capsys, *common)
    assert status == 0 and err.count("note: ") == 1
    assert (
        "note: column 'client_id' looks like an identifier (150 distinct whole "
        "numbers in 150 rows) and is a feature: if it names rows, give --id-column "
        "client_id (or --drop client_id)\n"
    ) in err
    status, err = _run(capsys, *common, "--id-column", "client_id")
    assert status == 0 and "note: " not in err
    fit = ["fit", *common[1:-1], "--out", str(tmp_path / "m.skops")]
    status, err = _run(capsys, *fit)
    assert status == 0 and "note: column 'client_id' looks like an identifier" in err


def _amounts(tmp_path):
    """A plain file and the same amounts written with currency signs."""
    plain = pd.read_csv(write_csv(tmp_path / "plain.csv", n=300))
    plain["price"] = np.round(np.abs(plain["f1"]) * 2_000 + 10)
    plain["fee"] = np.round(np.abs(plain["f2"]) * 300 + 1, 2)
    plain.to_csv(tmp_path / "plain.csv", index=False)
    written = plain.assign(
        price=[f"€{a:,.0f}" for a in plain["price"]],
        fee=[f"{a:,.2f} USD" for a in plain["fee"]],
    )
    written.to_csv(tmp_path / "written.csv", index=False)
    return written


def test_amounts_with_a_currency_sign_predict_as_the_plain_file(tmp_path, capsys):
    written = _amounts(tmp_path)
    out = {}
    for name in ("plain", "written"):
        model, csv = tmp_path / f"{name}.skops", str(tmp_path / f"{name}.csv")
        fit = ["fit", "--csv", csv, "--target", "label", "--fn-cost", "fee",
               "--model", "threshold", "--out", str(model)]  # fmt: skip
        assert cli.main(fit) == 0
        assert cli.main(_predict(model, csv, tmp_path / f"{name}.out")) == 0
        out[name] = pd.read_csv(tmp_path / f"{name}.out")
    pd.testing.assert_frame_equal(out["written"], out["plain"])
    # a cost column that is not a feature keeps its mark too
    only = tmp_path / "only.skops"
    assert cli.main([*fit[:-1], str(only), "--drop-cost-columns"]) == 0
    assert load_model(str(only))[1]["number_marks"] == {"price": ".€", "fee": ".USD"}
    assert cli.main(_predict(only, csv, tmp_path / "only.out")) == 0
    written.loc[7, "price"] = "$1,000"  # another currency than the model's
    written.to_csv(tmp_path / "dollars.csv", index=False)
    capsys.readouterr()
    status, err = _run(
        capsys,
        *_predict(
            tmp_path / "written.skops",
            tmp_path / "dollars.csv",
            tmp_path / "dollars.out",
        ),  # fmt: skip
    )
    assert status == 2
    assert "column 'price' holds numbers in €, but not in row [9] ('$1,000')" in err


def test_numbers_with_a_unit_are_refused_without_the_identifier_advice(
    tmp_path, capsys
):
    path = write_csv(tmp_path / "d.csv")
    frame = pd.read_csv(path)
    frame["weight"] = [f"{60 + i * 0.5} kg" for i in range(len(frame))]
    frame.to_csv(path, index=False)
    status, err = _run(capsys, *_threshold("evaluate", path))
    assert status == 2 and "column 'weight' holds numbers written with a unit" in err
    assert "--drop weight" in err and "--id-column" not in err
    assert "--max-categories" not in err


def _bad_cells(tmp_path, bad):
    path = write_csv(tmp_path / "d.csv", n=500)
    frame = pd.read_csv(path).astype({"f2": object})
    frame.loc[[100, 400], "f2"] = bad
    frame.to_csv(tmp_path / "bad.csv", index=False)
    return path, tmp_path / "bad.csv"


def test_a_few_bad_cells_in_a_numeric_column_are_named_at_fit(tmp_path, capsys):
    _, bad = _bad_cells(tmp_path, "unknown")
    fit = _threshold("fit", bad, "--out", str(tmp_path / "m.skops"))
    status, err = _run(capsys, *fit)
    assert status == 2
    assert (
        "column 'f2' holds numbers, but not in rows [102, 402] ('unknown'): "
        "correct or empty those cells (an empty cell is a missing value; see "
        "--missing), or --drop f2\n"
    ) in err
    _bad_cells(tmp_path, "n/a")  # a missing value, as --missing says
    status, err = _run(capsys, *fit)
    assert status == 2 and "2 rows have missing values" in err
    assert _run(capsys, *fit, "--missing", "drop")[0] == 0


def test_a_few_bad_cells_in_a_numeric_column_are_named_at_predict(tmp_path, capsys):
    good, bad = _bad_cells(tmp_path, "unknown")
    model = tmp_path / "m.skops"
    assert cli.main(_threshold("fit", good, "--out", str(model))) == 0
    capsys.readouterr()
    status, err = _run(
        capsys, *_predict(model, bad, tmp_path / "p.csv", "--chunk-rows", "150")
    )
    assert status == 2 and not (tmp_path / "p.csv").exists()
    assert (
        "column 'f2' holds numbers, but not in row [102] ('unknown'): correct or "
        "empty those cells (an empty cell is a missing value)\n"
    ) in err
    _bad_cells(tmp_path, "n/a")  # a missing value: its row left blank
    assert cli.main(_predict(model, bad, tmp_path / "p.csv")) == 0
    blank = pd.read_csv(tmp_path / "p.csv")["prediction"].isna()
    assert np.flatnonzero(blank).tolist() == [100, 400]
