import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from costsense import cli
from costsense.experiments import ResultsStore
from tests._processes import PATIENCE, until

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
    totals = ResultsStore(out).results().groupby("algorithm")["cost_total"]
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
    assert (out / "study.json").is_file()
    assert any(p.is_dir() and p != out / "figures" for p in out.iterdir())


def test_report_of_a_folder_without_results_is_an_error(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "no study.json" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        cli.main(["reproduce", "rescaling", "--jobs", "0"])
    assert refused.value.code == 2
    assert "--jobs: 0 is not a count >= 1" in capsys.readouterr().err
    assert cli.main(["reproduce", "no-such-study"]) == 2
    assert "no study" in capsys.readouterr().err


def test_reproduce_help_names_the_built_in_studies(capsys):
    with pytest.raises(SystemExit):
        cli.main(["reproduce", "--help"])
    text = capsys.readouterr().out
    names = ("boosting", "boosting-gaussian", "margin", "oversampling", "forest")
    for name in (*names, "rescaling", "recommended"):
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


# ---- a run owns its folder: real processes --------------------------------------

#: Liveness bounds (seconds): how long a run may take to get somewhere, and how
#: long a killed run's processes may take to end (without the watch: minutes).
ENDING = 30.0

# the command line in a process of its own (the package has no __main__)
COSTSENSE = [sys.executable, "-c", "import sys; from costsense.cli import main; "
             "sys.exit(main(sys.argv[1:]))"]  # fmt: skip

# many cells (gaussian x 200 repeats x 5 folds): still running when it is killed
BUSY_STUDY = (
    TINY_STUDY.replace('name = "tiny"', 'name = "busy"')
    .replace("gaussian_samples = 200", "gaussian_samples = 2000")
    .replace("n_splits = 3", "n_splits = 5\nn_repeats = 200")
)

posix_only = pytest.mark.skipif(
    not Path("/proc/self/stat").is_file(), reason="processes are watched in /proc"
)


def _start(*args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [*COSTSENSE, *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _workers(pid: int) -> list[int]:
    found = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"LokyProcess" in command:
            found.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def _holder(out: Path) -> dict | None:
    try:
        return json.loads((out / ".lock").read_text())
    except (OSError, ValueError):
        return None


def _holds(out: Path, pid: int) -> bool:
    holder = _holder(out)
    return holder is not None and holder["pid"] == pid


@posix_only
def test_a_second_run_is_refused_and_the_first_keeps_its_store(tmp_path, capsys):
    first, second = tmp_path / "tiny.toml", tmp_path / "other.toml"
    first.write_text(TINY_STUDY)
    second.write_text(
        TINY_STUDY.replace('name = "tiny"', 'name = "other"').replace(
            'name = "plain"', 'name = "other-plain"'
        )
    )
    out = tmp_path / "out"
    running = _start("reproduce", first, "--out", out, "--quiet")
    try:
        until(lambda: _holds(out, running.pid), running)
        # paused while it holds the folder: it cannot finish before the others try
        running.send_signal(signal.SIGSTOP)
        for args in (
            [second, "--out", out],
            [first, "--out", out, "--restart"],
        ):
            assert cli.main(["reproduce", *map(str, args), "--quiet"]) == 2
            (line,) = capsys.readouterr().err.strip().splitlines()
            assert "is in use by another run" in line
            assert f"study 'tiny', pid {running.pid}" in line and "since" in line
            assert "wait for it to finish, or write to another folder (--out)" in line
        assert not list(out.glob("previous-*"))  # --restart moved nothing aside
        running.send_signal(signal.SIGCONT)
        assert running.wait(timeout=PATIENCE) == 0, running.communicate()[1]
    finally:
        running.send_signal(signal.SIGCONT)
        running.kill()
        running.communicate()
    algorithms = ResultsStore(out).results()["algorithm"].tolist()
    assert sorted(set(algorithms)) == ["plain", "threshold"] and len(algorithms) == 6
    assert ResultsStore(out).study()["name"] == "tiny"
    assert _holder(out) is None  # released when it ended


@posix_only
def test_a_killed_runs_folder_is_free_for_the_next_run(tmp_path, capsys):
    study = tmp_path / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from costsense.experiments import "
         "hold_run_lock\nwith hold_run_lock(sys.argv[1], 'tiny'): time.sleep(600)",
         out]
    )  # fmt: skip
    until(lambda: _holds(out, holder.pid), holder)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert cli.main(["reproduce", str(study), "--out", str(out), "--quiet"]) == 0
    assert len(ResultsStore(out).done_keys()) == 6 and _holder(out) is None


@posix_only
def test_a_run_killed_mid_way_resumes_to_the_uninterrupted_rows(tmp_path):
    study = tmp_path / "many.toml"
    study.write_text(TINY_STUDY.replace("n_splits = 3", "n_splits = 3\nn_repeats = 40"))
    out = tmp_path / "out"
    running = _start("reproduce", study, "--out", out, "--jobs", 2, "--quiet")
    try:
        until(lambda: len(list(out.glob("cells-*/*.json"))) >= 10, running)
        running.send_signal(signal.SIGKILL)  # mid-way: no clean-up of any kind
        running.wait()
    finally:
        running.kill()
        running.communicate()
    saved = len(ResultsStore(out).done_keys())
    assert 10 <= saved < 240  # whole cells only: each is renamed into place
    assert cli.main(["reproduce", str(study), "--out", str(out), "--quiet"]) == 0
    assert cli.main(["reproduce", str(study), "--out", str(tmp_path / "whole"),
                     "--quiet"]) == 0  # fmt: skip
    volatile = ["fit_time", "predict_time", "finished"]
    resumed, whole = (
        ResultsStore(folder).results().drop(columns=volatile)
        for folder in (out, tmp_path / "whole")
    )
    pd.testing.assert_frame_equal(resumed, whole)


@posix_only
def test_the_workers_of_a_killed_run_end(tmp_path):
    study = tmp_path / "busy.toml"
    study.write_text(BUSY_STUDY)
    out = tmp_path / "out"
    running = _start("reproduce", study, "--out", out, "--jobs", 2, "--quiet")
    children: list[int] = []
    try:
        # two workers (beside loky's and multiprocessing's resource trackers)
        until(lambda: len(_workers(running.pid)) == 2, running)
        children = _children(running.pid)  # the trackers started before them
        assert running.poll() is None  # killed mid-run, its workers busy
        running.send_signal(signal.SIGKILL)
        running.wait()
        deadline = time.monotonic() + ENDING
        while any(map(_alive, children)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if _alive(pid)]
    finally:
        running.kill()
        for pid in children:  # first: they hold the run's stderr open
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        running.communicate()


@pytest.mark.parametrize("content", [b"", b"not a record" * 100])
def test_a_broken_store_is_one_line_with_the_fix(tmp_path, capsys, content):
    study = tmp_path / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = tmp_path / "out"
    out.mkdir()
    (out / "study.json").write_bytes(content)
    reproduce = ["reproduce", str(study), "--out", str(out), "--quiet"]
    for command in (reproduce, ["report", str(out)]):
        assert cli.main(command) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line.startswith(f"costsense {command[0]}: error: {out}")
        assert "damaged" in line and "--restart" in line
    assert (out / "study.json").read_bytes() == content
    args = ["reproduce", str(study), "--out", str(out), "--restart", "--quiet"]
    assert cli.main(args) == 0
    (moved,) = out.glob("previous-*")
    assert (moved / "study.json").read_bytes() == content
