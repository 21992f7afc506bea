import sqlite3

import pandas as pd
import pytest

from costsense import cli

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

# the logistic regression stopped after one iteration warns in every fit
WARNING_STUDY = TINY_STUDY.replace(
    'method = "threshold"', 'method = "threshold"\nparams = { max_iter = 1 }'
)


def test_reproduce_a_study_file_writes_a_report_with_every_mean(tmp_path, capsys):
    study = tmp_path / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = tmp_path / "out"
    status = cli.main(["reproduce", str(study), "--out", str(out), "--quiet"])
    assert status == 0
    assert study.read_text() == TINY_STUDY  # the input is never written
    printed = capsys.readouterr().out
    assert str(out / "report.md") in printed
    report = (out / "report.md").read_text()
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
    assert cli.main(args[:-1]) == 0
    assert "3 cells run" in capsys.readouterr().err


def test_warnings_are_one_line_per_algorithm_and_quiet_is_quiet(tmp_path, capsys):
    study = tmp_path / "warns.toml"
    study.write_text(WARNING_STUDY)
    assert cli.main(["reproduce", str(study), "--out", str(tmp_path / "a")]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "ConvergenceWarning" in line]
    assert len(lines) == 1 and lines[0].strip().startswith("threshold: 3 ")
    assert "in 3 cells" in lines[0]
    report = (tmp_path / "a" / "report.md").read_text()
    assert "ConvergenceWarning" in report
    status = cli.main(
        ["reproduce", str(study), "--out", str(tmp_path / "b"), "--quiet"]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "Warning" not in captured.err + captured.out
    assert captured.err == ""
    assert len(captured.out.strip().splitlines()) == 2  # where the report is


def test_restart_starts_afresh_and_keeps_the_old_results(tmp_path, capsys):
    study = tmp_path / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = tmp_path / "out"
    assert cli.main(["reproduce", str(study), "--out", str(out), "--quiet"]) == 0
    assert cli.main(["reproduce", str(study), "--out", str(out), "--restart"]) == 0
    err = capsys.readouterr().err
    assert "6 cells run" in err and "the previous results moved to" in err
    assert (out / "results.sqlite").is_file()
    assert any(p.is_dir() and p != out / "figures" for p in out.iterdir())


def test_report_of_a_folder_without_results_is_an_error(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "results.sqlite" in capsys.readouterr().err
    assert cli.main(["reproduce", "rescaling", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
    assert cli.main(["reproduce", "no-such-study"]) == 2
    assert "no study" in capsys.readouterr().err


def test_reproduce_help_names_the_built_in_studies(capsys):
    with pytest.raises(SystemExit):
        cli.main(["reproduce", "--help"])
    text = capsys.readouterr().out
    for name in ("boosting", "margin", "oversampling", "forest", "rescaling"):
        assert name in text


def test_another_study_into_a_folder_is_refused_and_its_cells_kept(tmp_path, capsys):
    first, second = tmp_path / "tiny.toml", tmp_path / "other.toml"
    first.write_text(TINY_STUDY)
    second.write_text(TINY_STUDY.replace('name = "tiny"', 'name = "other"'))
    out = tmp_path / "out"
    assert cli.main(["reproduce", str(first), "--out", str(out), "--quiet"]) == 0
    before = (out / "report.md").read_text()
    assert cli.main(["reproduce", str(second), "--out", str(out), "--quiet"]) == 2
    assert "holds results of study 'tiny', not 'other'" in capsys.readouterr().err
    assert cli.main(["report", str(out)]) == 0
    assert (out / "report.md").read_text() == before
