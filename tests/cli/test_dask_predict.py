"""``costsense predict --scheduler``: a Dask cluster writes the one-machine file."""

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.cli import _dask_predict
from tests.cli._data import write_csv

distributed = pytest.importorskip("distributed")


def _predict(model, rows, out, *extra):
    return cli.main(["predict", "--model", str(model), "--csv", str(rows),
                     "--out", str(out), *extra])  # fmt: skip


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local.scheduler_address


def test_a_cluster_gives_the_predictions_of_one_machine(cluster, tmp_path, monkeypatch):
    train = write_csv(tmp_path / "train.csv", n=300, categorical=True)
    frame = pd.read_csv(write_csv(tmp_path / "new.csv", n=2_000, seed=5,
                                  categorical=True))  # fmt: skip
    frame.insert(0, "ref", [f"{i:05d}" for i in range(len(frame))])
    # an amount written for people ("1,234.50"), read as numbers on every worker
    frame["amount"] = [f"{a:,.2f}" for a in (np.abs(frame["f1"]) * 3_000)]
    frame.to_csv(tmp_path / "new.csv", index=False)
    pd.read_csv(train).assign(
        amount=lambda t: [f"{a:,.2f}" for a in np.abs(t["f1"]) * 3_000]
    ).to_csv(train, index=False)
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--model", "minimum-cost", "--out", str(model)]) == 0  # fmt: skip
    assert _predict(model, tmp_path / "new.csv", tmp_path / "one.csv",
                    "--id-column", "ref") == 0  # fmt: skip
    expected = pd.read_csv(tmp_path / "one.csv", dtype={"ref": str})
    parts = tmp_path / "parts"
    parts.mkdir()
    for k in range(4):
        frame.iloc[k * 500 : (k + 1) * 500].to_parquet(parts / f"part-{k}.parquet")
    monkeypatch.setattr(_dask_predict, "CSV_BLOCK_BYTES", 20_000)  # several blocks
    for source in ("new.csv", "parts"):
        out = tmp_path / f"dask-{source}.csv"
        assert _predict(model, tmp_path / source, out, "--id-column", "ref",
                        "--scheduler", cluster) == 0  # fmt: skip
        got = pd.read_csv(out, dtype={"ref": str})
        assert list(got.columns) == list(expected.columns)
        np.testing.assert_array_equal(got["row"], np.arange(2_000))
        assert got["ref"].tolist() == frame["ref"].tolist()
        np.testing.assert_array_equal(got["prediction"], expected["prediction"])
        numbers = ["proba_0", "proba_1", "expected_cost"]
        np.testing.assert_allclose(got[numbers], expected[numbers], rtol=1e-12)
    # a decision row by row (a known new rate) is the one machine's too
    shifted = ("--positive-rate", "0.1", "--id-column", "ref")
    assert _predict(model, tmp_path / "new.csv", tmp_path / "one-r.csv", *shifted) == 0
    out = tmp_path / "dask-r.csv"
    assert (
        _predict(model, tmp_path / "new.csv", out, *shifted, "--scheduler", cluster)
        == 0
    )
    got, expected = pd.read_csv(out), pd.read_csv(tmp_path / "one-r.csv")
    np.testing.assert_array_equal(got["action"], expected["action"])
    np.testing.assert_allclose(
        got[["proba_1", "saving"]], expected[["proba_1", "saving"]]
    )


@pytest.mark.parametrize(
    ("column", "row", "cell", "said", "where"),
    [
        ("f3", 700, np.inf, "column 'f3' holds infinite values", "within partition"),
        # a word in a numeric column: named as one machine names it, not a
        # worker's ValueError
        (
            "f2",
            10,
            "unknown",
            "column 'f2' holds numbers, but not in row [12] ('unknown')",
            "within partition 1 ",
        ),
    ],
)
def test_a_bad_row_on_a_worker_is_named_with_its_partition(
    cluster, tmp_path, capsys, monkeypatch, column, row, cell, said, where
):
    train = write_csv(tmp_path / "train.csv", n=200)
    frame = pd.read_csv(write_csv(tmp_path / "new.csv", n=1_000, seed=6))
    frame = frame.astype({column: object})
    frame.loc[row, column] = cell
    frame.to_csv(tmp_path / "bad.csv", index=False)
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--model", "threshold", "--out", str(model)]) == 0  # fmt: skip
    monkeypatch.setattr(_dask_predict, "CSV_BLOCK_BYTES", 20_000)
    out = tmp_path / "out.csv"
    assert _predict(model, tmp_path / "bad.csv", out, "--scheduler", cluster) == 2
    err = capsys.readouterr().err
    assert said in err and where in err
    assert not out.exists() and not (tmp_path / "out.csv.partial").exists()


def test_no_scheduler_at_the_address_is_a_usage_error(tmp_path, capsys, monkeypatch):
    train = write_csv(tmp_path / "train.csv", n=200)
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--model", "threshold", "--out", str(model)]) == 0  # fmt: skip
    monkeypatch.setattr(_dask_predict, "CONNECT_SECONDS", 1)
    status = _predict(model, train, tmp_path / "o.csv", "--scheduler",
                      "tcp://127.0.0.1:9")  # fmt: skip
    assert status == 2
    assert "--scheduler tcp://127.0.0.1:9: no Dask scheduler answers" in (
        capsys.readouterr().err
    )


def test_workers_dying_are_one_usage_error_naming_the_partition(
    tmp_path, capsys, monkeypatch
):
    import dask

    train = write_csv(tmp_path / "train.csv", n=200)
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--model", "threshold", "--out", str(model)]) == 0  # fmt: skip

    def die(scorer, part):  # sent by value: the worker runs it and dies
        import os

        os._exit(3)

    monkeypatch.setattr(_dask_predict, "_score", die)
    out = tmp_path / "out.csv"
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as local,
    ):
        status = _predict(model, train, out, "--scheduler", local.scheduler_address)
    err = capsys.readouterr().err
    assert status == 2, err[-3000:]
    line = [x for x in err.splitlines() if "error:" in x]
    assert len(line) == 1 and "Traceback" not in err
    assert (
        f"--scheduler {local.scheduler_address}: the cluster lost partition 1 of"
        in (line[0])
    )
    assert "KilledWorker" in line[0] and "give the workers more memory" in line[0]
    assert not out.exists() and not (tmp_path / "out.csv.partial").exists()


def test_unseen_categories_are_counted_across_partitions_and_no_rows_is_a_header(
    cluster, tmp_path, capsys, monkeypatch
):
    train = write_csv(tmp_path / "train.csv", n=200, categorical=True)
    frame = pd.read_csv(write_csv(tmp_path / "new.csv", n=1_000, seed=7,
                                  categorical=True))  # fmt: skip
    frame.loc[[5, 480, 990], "city"] = ["nort", "sout", "nort"]
    frame.to_csv(tmp_path / "new.csv", index=False)
    frame.iloc[:0].to_csv(tmp_path / "quiet.csv", index=False)
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--model", "threshold", "--out", str(model)]) == 0  # fmt: skip
    assert _predict(model, tmp_path / "new.csv", tmp_path / "one.csv") == 0
    header = (tmp_path / "one.csv").read_text().splitlines()[0]
    quiet = tmp_path / "quiet.out"
    assert _predict(model, tmp_path / "quiet.csv", quiet, "--scheduler", cluster) == 0
    assert quiet.read_text() == header + "\n"
    monkeypatch.setattr(_dask_predict, "CSV_BLOCK_BYTES", 20_000)  # 3 partitions
    said = "column 'city' in 3 rows (such as 'nort', 'sout')"
    for flag in ((), ("--flag-unseen",)):
        out = tmp_path / f"dask{flag}.csv"
        assert _predict(model, tmp_path / "new.csv", out, "--scheduler", cluster,
                        *flag) == 0  # fmt: skip
        assert said in capsys.readouterr().err
    flags = pd.read_csv(out)["unseen_categories"].fillna("")
    assert flags[flags != ""].to_dict() == {5: "city", 480: "city", 990: "city"}
