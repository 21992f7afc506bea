"""``costsense predict``: chunks, Parquet, parts, whole outputs, flat memory."""

import dataclasses
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.cli import _predict
from tests.cli._data import write_csv


def _fit(train, out, *extra):
    return cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--out", str(out), *extra])  # fmt: skip


def _predict_file(model, rows, out, *extra):
    return cli.main(["predict", "--model", str(model), "--csv", str(rows),
                     "--out", str(out), *extra])  # fmt: skip


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A logistic model with a categorical column, and 600 new rows to decide."""
    folder = tmp_path_factory.mktemp("predict")
    train = write_csv(folder / "train.csv", n=300, categorical=True)
    assert _fit(train, folder / "model.skops", "--model", "threshold") == 0
    new = write_csv(folder / "new.csv", n=600, seed=3, categorical=True)
    return folder / "model.skops", new


def _same_predictions(got, expected):
    """Same rows, ids and decisions; probabilities to floating-point rounding.

    A batched matrix product may round its last bit differently for another
    batch size, so probabilities are compared to 1e-12, decisions exactly.
    """
    assert list(got.columns) == list(expected.columns)
    np.testing.assert_array_equal(got["row"], expected["row"])
    np.testing.assert_array_equal(got["prediction"], expected["prediction"])
    numbers = [c for c in got.columns if c.startswith("proba_")] + ["expected_cost"]
    np.testing.assert_allclose(got[numbers], expected[numbers], rtol=1e-12, atol=0)


def test_small_chunks_give_the_predictions_of_one_chunk(trained, tmp_path):
    model, new = trained
    assert _predict_file(model, new, tmp_path / "one.csv") == 0
    assert _predict_file(model, new, tmp_path / "many.csv", "--chunk-rows", "7") == 0
    one, many = pd.read_csv(tmp_path / "one.csv"), pd.read_csv(tmp_path / "many.csv")
    assert one.shape[0] == 600
    np.testing.assert_array_equal(one["row"], np.arange(600))
    _same_predictions(many, one)


def test_parquet_and_a_folder_of_parts_give_the_csv_predictions(trained, tmp_path):
    model, new = trained
    frame = pd.read_csv(new)
    frame.to_parquet(tmp_path / "new.parquet")
    parts = tmp_path / "parts"
    parts.mkdir()
    # names sort in the rows' order; a file of another kind is not a part
    for k, start in enumerate((0, 250, 251, 600 - 1)):
        stop = (250, 251, 599, 600)[k]
        frame.iloc[start:stop].to_csv(parts / f"part-{k:03d}.csv", index=False)
    (parts / "README.txt").write_text("not a part")
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    frame.iloc[:300].to_parquet(mixed / "a.parquet")
    frame.iloc[300:].to_csv(mixed / "b.csv", index=False)
    assert _predict_file(model, new, tmp_path / "csv.csv") == 0
    expected = pd.read_csv(tmp_path / "csv.csv")
    for source in ("new.parquet", "parts", "mixed"):
        out = tmp_path / f"from-{source}.csv"
        assert _predict_file(model, tmp_path / source, out) == 0
        _same_predictions(pd.read_csv(out), expected)


def test_parts_with_other_columns_are_refused_by_name(trained, tmp_path, capsys):
    model, new = trained
    frame = pd.read_csv(new)
    parts = tmp_path / "parts"
    parts.mkdir()
    frame.iloc[:300].to_csv(parts / "p1.csv", index=False)
    frame.iloc[300:, ::-1].to_csv(parts / "p2.csv", index=False)
    assert _predict_file(model, parts, tmp_path / "out.csv") == 2
    err = capsys.readouterr().err
    assert "part p2.csv has the columns" in err and "same order" in err
    assert not (tmp_path / "out.csv").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _predict_file(model, empty, tmp_path / "out.csv") == 2
    assert "a folder without parts" in capsys.readouterr().err


def test_a_bad_row_in_a_later_chunk_is_named_by_its_line_and_writes_nothing(
    trained, tmp_path, capsys
):
    model, new = trained
    frame = pd.read_csv(new)
    frame.loc[150, "f2"] = np.inf  # line 152 of the file (the header is line 1)
    frame.to_csv(tmp_path / "bad.csv", index=False)
    out = tmp_path / "out.csv"
    assert _predict_file(model, tmp_path / "bad.csv", out, "--chunk-rows", "50") == 2
    err = capsys.readouterr().err
    assert "column 'f2' holds infinite values (row [152])" in err
    assert not out.exists() and not (tmp_path / "out.csv.partial").exists()


def test_an_interrupted_run_keeps_its_rows_under_another_name(
    trained, tmp_path, capsys, monkeypatch
):
    model, new = trained
    calls = []
    score = _predict.Scorer.__call__

    def interrupted(self, frame, first_row):
        calls.append(first_row)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return score(self, frame, first_row)

    monkeypatch.setattr(_predict.Scorer, "__call__", interrupted)
    out = tmp_path / "out.csv"
    assert _predict_file(model, new, out, "--chunk-rows", "100") == 130
    assert "stopped after 200 rows; they are in" in capsys.readouterr().err
    assert not out.exists()  # the name asked for only ever holds a whole file
    kept = pd.read_csv(tmp_path / "out.csv.partial")
    np.testing.assert_array_equal(kept["row"], np.arange(200))
    monkeypatch.undo()
    assert _predict_file(model, new, out) == 2  # the partial file is not overwritten
    assert "out.csv.partial exists" in capsys.readouterr().err
    assert len(pd.read_csv(tmp_path / "out.csv.partial")) == 200


class _CutShort:
    """A partial file's handle whose writes stop, half done, after ``limit`` chars.

    As Ctrl-C does: the operating system holds part of a chunk's lines.
    """

    def __init__(self, handle, limit):
        self.handle, self.limit = handle, limit

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()

    def write(self, text):
        room = self.limit
        self.limit -= len(text)
        if self.limit < 0:
            self.handle.write(text[: max(room, 0)])
            self.handle.flush()
            raise KeyboardInterrupt
        return self.handle.write(text)


def test_an_interruption_says_the_rows_the_partial_file_holds(
    trained, tmp_path, capsys, monkeypatch
):
    model, new = trained
    assert _predict_file(model, new, tmp_path / "full.csv") == 0
    lines = (tmp_path / "full.csv").read_text().splitlines(keepends=True)
    cut = sum(map(len, lines[:251])) + 10  # in row 250, of the third chunk of 100
    opened = _predict.open_partial
    monkeypatch.setattr(_predict, "open_partial", lambda *a: (
        lambda p, h: (p, _CutShort(h, cut)))(*opened(*a)))  # fmt: skip
    out = tmp_path / "out.csv"
    assert _predict_file(model, new, out, "--chunk-rows", "100") == 130
    err = capsys.readouterr().err
    text = (tmp_path / "out.csv.partial").read_text()
    kept = pd.read_csv(tmp_path / "out.csv.partial")
    assert f"stopped after {len(kept)} rows; they are in" in err, err
    assert len(kept) == 200 and text.endswith("\n")  # whole chunks, whole lines
    np.testing.assert_array_equal(kept["row"], np.arange(200))
    assert "(rows 0 to 199): to go on, predict from row 200 on into another" in err


def test_a_header_without_rows_gives_a_header_without_rows(trained, tmp_path, capsys):
    model, new = trained
    assert _predict_file(model, new, tmp_path / "full.csv") == 0
    header = (tmp_path / "full.csv").read_text().splitlines()[0]
    frame = pd.read_csv(new)
    frame.iloc[:0].to_csv(tmp_path / "quiet.csv", index=False)
    frame.iloc[:0].to_parquet(tmp_path / "quiet.parquet")
    for name, *flag in (
        ("quiet.csv",),
        ("quiet.parquet",),
        ("quiet.csv", "--flag-unseen"),
    ):
        out = tmp_path / f"{name}{flag}.out"
        assert _predict_file(model, tmp_path / name, out, *flag) == 0
        assert out.read_text() == header + ",unseen_categories" * bool(flag) + "\n"
        assert "0 rows predicted with threshold" in capsys.readouterr().err


def test_unseen_categories_are_counted_by_column_and_flagged_on_request(
    trained, tmp_path, capsys, monkeypatch
):
    model, new = trained
    frame = pd.read_csv(new)
    frame.loc[[3, 7, 9, 20], "city"] = ["nort", "nort", "West ", None]  # 20: blank
    frame.to_csv(tmp_path / "typos.csv", index=False)
    said = (
        "categories not seen in training, read as none of the known ones: column "
        "'city' in 3 rows"
    )
    out = tmp_path / "plain.csv"
    assert _predict_file(model, tmp_path / "typos.csv", out) == 0
    err = capsys.readouterr().err
    assert f"{said} (such as 'nort', 'West '); check them for typos" in err
    assert "(--flag-unseen marks each row)" in err
    assert "unseen_categories" not in pd.read_csv(out).columns
    assert pd.read_csv(out)["prediction"].isna().tolist() == [
        i == 20 for i in range(600)
    ]
    flagged = tmp_path / "flagged.csv"
    # row 3 in one chunk, 7 and 9 in the next
    assert _predict_file(model, tmp_path / "typos.csv", flagged, "--flag-unseen",
                         "--chunk-rows", "5") == 0  # fmt: skip
    assert f"{said} (such as 'nort', 'West ')" in capsys.readouterr().err
    got = pd.read_csv(flagged)
    assert got["unseen_categories"].fillna("").tolist() == [
        "city" if i in (3, 7, 9) else "" for i in range(600)
    ]
    _same_predictions(got.drop(columns="unseen_categories"), pd.read_csv(out))
    options = _predict.table_options  # a policy not to show cells: counts only
    monkeypatch.setattr(_predict, "table_options", lambda args: dataclasses.replace(
        options(args), show_cells=False))  # fmt: skip
    assert _predict_file(model, tmp_path / "typos.csv", tmp_path / "hidden.csv") == 0
    err = capsys.readouterr().err
    assert f"{said}; check them" in err and "nort" not in err


def test_an_id_column_is_written_as_it_reads_in_every_chunk(tmp_path):
    train = write_csv(tmp_path / "train.csv", n=200)
    frame = pd.read_csv(train)
    frame.insert(0, "ref", [f"{i:05d}" for i in range(200)])
    frame.loc[150:, "ref"] = [f"A{i}" for i in range(50)]  # text after 150 numbers
    frame.to_csv(tmp_path / "with_ids.csv", index=False)
    model = tmp_path / "m.skops"
    assert _fit(tmp_path / "with_ids.csv", model, "--id-column", "ref") == 0
    out = tmp_path / "p.csv"
    assert (
        _predict_file(model, tmp_path / "with_ids.csv", out, "--chunk-rows", "40") == 0
    )
    written = pd.read_csv(out, dtype={"ref": str})
    assert written["ref"].tolist() == frame["ref"].tolist()  # "00007", not 7


def test_fit_reads_parquet_as_it_reads_csv(tmp_path):
    train = write_csv(tmp_path / "train.csv", n=200, categorical=True)
    pd.read_csv(train).to_parquet(tmp_path / "train.parquet")
    new = write_csv(tmp_path / "new.csv", n=50, seed=4, categorical=True)
    for name in ("train.csv", "train.parquet"):
        assert _fit(tmp_path / name, tmp_path / f"{name}.skops") == 0
        assert (
            _predict_file(tmp_path / f"{name}.skops", new, tmp_path / f"{name}.out")
            == 0
        )
    _same_predictions(
        pd.read_csv(tmp_path / "train.parquet.out"),
        pd.read_csv(tmp_path / "train.csv.out"),
    )


def test_a_damaged_parquet_file_is_refused_by_name(trained, tmp_path, capsys):
    model, new = trained
    pd.read_csv(new).to_parquet(tmp_path / "new.parquet")
    data = (tmp_path / "new.parquet").read_bytes()
    (tmp_path / "cut.parquet").write_bytes(data[: len(data) // 2])
    assert _predict_file(model, tmp_path / "cut.parquet", tmp_path / "o.csv") == 2
    assert "is not a readable Parquet file" in capsys.readouterr().err


class _Planted:
    """Unpickling this creates a file: the proof that a file ran code."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_parquet_file_declaring_a_pickled_type_runs_no_code(tmp_path):
    import pickle

    import pyarrow as pa
    import pyarrow.parquet as pq

    marker = tmp_path / "ran"
    frame = pd.read_csv(write_csv(tmp_path / "train.csv", n=120))
    table = pa.Table.from_pandas(frame, preserve_index=False)
    payload = pickle.dumps(_Planted(str(marker)))
    # the field metadata by which pyarrow < 14.0.1 unpickled a Python extension type
    field = pa.field(
        "f1",
        pa.binary(),
        metadata={b"ARROW:extension:name": b"arrow.py_extension_type",
                  b"ARROW:extension:metadata": payload},
    )  # fmt: skip
    column = pa.array([payload] * table.num_rows, type=pa.binary())
    table = table.set_column(0, field, column)
    pq.write_table(table, tmp_path / "hostile.parquet")
    hostile, model = tmp_path / "hostile.parquet", tmp_path / "m.skops"
    status = cli.main(["fit", "--csv", str(hostile), "--target", "label",
                       "--cost", "5", "--out", str(model), "--drop", "f1"])  # fmt: skip
    assert not marker.exists()
    assert status == 0  # the column is bytes, dropped; nothing was unpickled


def _peak_kib(log, *argv):
    """Run the command line in a new process; its peak resident memory in KiB."""
    code = "import sys; from costsense.cli import main; sys.exit(main())"
    with log.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-c", code, *argv], stdout=subprocess.DEVNULL, stderr=err
        )
        _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, log.read_text()
    return usage.ru_maxrss  # KiB on Linux


@pytest.mark.slow  # a 200,000-row file and two predict processes: make test-all
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB on Linux")
def test_peak_memory_does_not_grow_with_the_input(tmp_path):
    rng = np.random.default_rng(0)

    def table(n):
        y = (rng.random(n) < 0.1).astype(int)
        frame = pd.DataFrame(
            np.round(rng.normal(size=(n, 30)) + 0.5 * y[:, None], 3),
            columns=[f"x{i}" for i in range(30)],
        )
        frame["shop"] = rng.choice(["grocery", "travel", "online", "fuel"], n)
        frame["id"] = [f"t{i:07d}" for i in range(n)]
        frame["label"] = y
        return frame

    table(2_000).to_csv(tmp_path / "train.csv", index=False)
    assert _fit(tmp_path / "train.csv", tmp_path / "m.skops", "--id-column", "id",
                "--model", "threshold") == 0  # fmt: skip
    big = table(200_000)
    big.iloc[:20_000].to_csv(tmp_path / "small.csv", index=False)
    big.to_csv(tmp_path / "big.csv", index=False)
    del big
    peaks = {
        name: _peak_kib(
            tmp_path / "log",
            "predict",
            "--model",
            str(tmp_path / "m.skops"),
            "--csv",
            str(tmp_path / f"{name}.csv"),
            "--out",
            str(tmp_path / f"{name}.out.csv"),
        )  # fmt: skip
        for name in ("small", "big")
    }
    # ten times the rows: the whole file held at once is about 1.9 times the peak
    assert peaks["big"] <= 1.3 * peaks["small"], peaks
    written = pd.read_csv(tmp_path / "big.out.csv", usecols=["row", "id"])
    np.testing.assert_array_equal(written["row"], np.arange(200_000))
    assert written["id"].iloc[-1] == "t0199999"
