from __future__ import annotations

import argparse
import csv

import numpy as np
import pytest

from costsense import cli
from costsense.experiments import _evaluate


def _write_csv(path, n=150, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(int)
    X = rng.normal(size=(n, 3)) + y[:, None]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["f1", "f2", "f3", "label"])
        for row, label in zip(X, y, strict=True):
            writer.writerow([*row, label])
    return path


def test_parse_cost_reads_a_ratio_or_a_pair():
    assert cli.parse_cost("5") == 5.0
    assert cli.parse_cost("5, 2") == (5.0, 2.0)
    for bad in ["five", "1,2,3"]:
        with pytest.raises(argparse.ArgumentTypeError, match="--cost"):
            cli.parse_cost(bad)


def test_evaluate_csv_prints_one_row_per_model_and_saves_every_fold(tmp_path, capsys):
    data = _write_csv(tmp_path / "data.csv")
    out = tmp_path / "folds.csv"
    status = cli.main(
        [
            "evaluate", "--csv", str(data), "--target", "label", "--cost", "5",
            "--model", "plain,threshold", "--folds", "3", "--output", str(out),
            "--quiet",
        ]
    )  # fmt: skip
    assert status == 0
    printed = capsys.readouterr().out
    table_lines = [
        line for line in printed.splitlines() if line.startswith(("plain", "threshold"))
    ]
    assert len(table_lines) == 2
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert sorted((r["model"], r["fold"]) for r in rows) == sorted(
        (m, str(f)) for m in ("plain", "threshold") for f in range(3)
    )
    # positive class is the minority label "1"
    assert "positive class 1" in printed


def test_evaluate_never_overwrites_a_file(tmp_path):
    data = _write_csv(tmp_path / "data.csv")
    before = data.read_bytes()
    existing = tmp_path / "taken.csv"
    existing.write_text("keep me")
    base = ["evaluate", "--csv", str(data), "--target", "label", "--cost", "5"]
    with pytest.raises(SystemExit, match="exists"):
        cli.main([*base, "--output", str(existing)])
    with pytest.raises(SystemExit, match="input"):
        cli.main([*base, "--output", str(data)])
    assert existing.read_text() == "keep me"
    assert data.read_bytes() == before


def test_interrupted_evaluation_keeps_finished_folds(tmp_path, monkeypatch, capsys):
    data = _write_csv(tmp_path / "data.csv")
    out = tmp_path / "folds.csv"
    real = _evaluate.fold_metrics
    calls = {"n": 0}

    def interrupt_on_third_fold(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(_evaluate, "fold_metrics", interrupt_on_third_fold)
    status = cli.main(
        [
            "evaluate", "--csv", str(data), "--target", "label", "--cost", "5",
            "--model", "plain", "--folds", "5", "--output", str(out), "--quiet",
        ]
    )  # fmt: skip
    assert status == 130
    with out.open() as handle:
        assert len(list(csv.DictReader(handle))) == 2
    captured = capsys.readouterr()
    assert "interrupted" in captured.err
    assert "2 of 5 fits" in captured.err


def test_usage_errors_are_reported_not_raised(tmp_path, capsys):
    data = _write_csv(tmp_path / "data.csv")
    with pytest.raises(SystemExit):
        cli.main(["evaluate", "--csv", str(data), "--cost", "5"])  # no --target
    with pytest.raises(SystemExit):
        cli.main(["evaluate", "--dataset", "pima", "--cost", "5", "--model", "magic"])
    with pytest.raises(SystemExit, match="pos-label"):
        cli.main(
            ["evaluate", "--csv", str(data), "--target", "label", "--cost", "5",
             "--pos-label", "7"]
        )  # fmt: skip
    status = cli.main(
        ["evaluate", "--csv", str(data), "--target", "nope", "--cost", "5"]
    )
    assert status == 2
    assert "nope" in capsys.readouterr().err


TINY_STUDY = """
name = "tiny"
title = "A tiny study"
seed = 1
datasets = ["gaussian"]
gaussian_samples = 200
costs = [5]
metrics = ["cost_total", "recall"]
reference = "threshold"

[protocol]
n_splits = 3

[[algorithms]]
name = "plain"
method = "plain"

[[algorithms]]
name = "threshold"
method = "threshold"
"""


def test_reproduce_a_study_file_writes_a_report_with_every_mean(tmp_path, capsys):
    pd = pytest.importorskip("pandas")
    study = tmp_path / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = tmp_path / "out"
    status = cli.main(["reproduce", str(study), "--out", str(out), "--quiet"])
    assert status == 0
    assert study.read_text() == TINY_STUDY  # the input is never written
    printed = capsys.readouterr().out
    assert str(out / "report.md") in printed
    report = (out / "report.md").read_text()
    import sqlite3

    with sqlite3.connect(out / "results.sqlite") as db:
        cells = pd.read_sql_query("SELECT algorithm, metrics FROM cells", db)
    totals = cells.assign(
        total=[float(m.split('"cost_total": ')[1].split(",")[0]) for m in cells.metrics]
    ).groupby("algorithm")["total"]
    for algorithm, values in totals:
        cell = f"{values.mean():.2f} ({values.std(ddof=1):.2f})"
        assert cell in report, (algorithm, cell)
    assert (out / "figures" / "boundary_gaussian_5.png").is_file()
    # report rebuilds the same file from the store alone
    (out / "report.md").unlink()
    assert cli.main(["report", str(out)]) == 0
    assert (out / "report.md").read_text() == report


def test_reproduce_interrupted_then_resumed(tmp_path, monkeypatch, capsys):
    from costsense.experiments import _runner

    study = tmp_path / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = tmp_path / "out"
    real = _runner.run_cell
    calls = {"n": 0}

    def interrupt_on_fourth_cell(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(_runner, "run_cell", interrupt_on_fourth_cell)
    args = ["reproduce", str(study), "--out", str(out), "--quiet"]
    assert cli.main(args) == 130
    assert "3 of 6 cells are saved" in capsys.readouterr().err
    monkeypatch.setattr(_runner, "run_cell", real)
    assert cli.main(args) == 0
    assert "3 cells run" in capsys.readouterr().err


def test_report_of_a_folder_without_results_is_an_error(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "results.sqlite" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["reproduce", "rescaling", "--jobs", "0"])
    assert cli.main(["reproduce", "no-such-study"]) == 2
    assert "no study" in capsys.readouterr().err
