"""Hostile studies: each attack built here, refused before any cell runs.

Every test writes what an attacker would (a study file, a symlink, a forged lock)
into ``tmp_path`` and asserts the refusal, that nothing was written outside the
output folder, and that no cell ran.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from costsense import cli
from costsense.experiments import StudyLimits, load_study, study_from_dict
from tests._processes import until

TINY = """
name = "tiny"
seed = 1
datasets = ["gaussian"]
gaussian_samples = 200
costs = [5]
metrics = ["cost_total", "recall"]

[protocol]
n_splits = 3

[[algorithms]]
name = "plain"
method = "plain"
"""


def _study(**changes: object) -> dict:
    data: dict = {
        "name": "tiny",
        "seed": 1,
        "datasets": ["gaussian"],
        "gaussian_samples": 200,
        "costs": [5],
        "metrics": ["cost_total", "recall"],
        "protocol": {"n_splits": 3},
        "algorithms": [{"name": "plain", "method": "plain"}],
    }
    data.update(changes)
    return data


@pytest.fixture
def no_cell(monkeypatch):
    """Fail the test if any cell runs."""
    from costsense.experiments import _runner

    def refuse(*args, **kwargs):
        raise AssertionError("a cell ran")

    monkeypatch.setattr(_runner, "run_cell", refuse)


def _reproduce(tmp_path, text: str, *options: str) -> int:
    study = tmp_path / "study.toml"
    study.write_text(text)
    return cli.main(["reproduce", str(study), "--quiet", *options])


# names --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["../x", "/tmp/evil", "..", ".", "", "a/b", "-rf", "a\\b", "x" * 65, 7]
)
def test_a_study_name_that_is_not_an_identifier_is_refused(name):
    with pytest.raises(ValueError, match=r"name .* is not an identifier") as caught:
        study_from_dict(_study(name=name), source="s.toml")
    assert "\n" not in str(caught.value) and "no '/', no '..'" in str(caught.value)


@pytest.mark.parametrize("dataset", ["../../x", "/abs", "..", "a/../../b", "a\x1bb"])
def test_a_dataset_name_that_is_not_an_identifier_is_refused(dataset):
    with pytest.raises(ValueError, match=r"datasets\[1\] .* is not an identifier"):
        study_from_dict(_study(datasets=["gaussian", dataset]), source="s.toml")


def test_the_quick_overrides_names_are_checked_too():
    with pytest.raises(ValueError, match=r"quick: datasets\[0\]"):
        study_from_dict(_study(quick={"datasets": ["../q"]}), source="s.toml")


def test_every_built_in_study_name_and_dataset_name_is_accepted():
    from costsense.experiments import builtin_studies

    for name in builtin_studies():
        for quick in (False, True):
            study = load_study(name, quick=quick)
            assert study.name == name


def test_a_traversing_name_writes_nothing_outside(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    text = TINY.replace('name = "tiny"', 'name = "../../escaped"')
    assert _reproduce(tmp_path, text) == 2
    assert "is not an identifier" in capsys.readouterr().err
    assert not (tmp_path / "escaped").exists()
    assert list((tmp_path / "work").iterdir()) == []


# metrics ------------------------------------------------------------------------


@pytest.mark.parametrize("metrics", [[], "cost_total", [1], ["nope"], {}])
def test_bad_metrics_are_refused_at_load(metrics):
    with pytest.raises(ValueError, match="metric"):
        study_from_dict(_study(metrics=metrics), source="s.toml")


def test_empty_metrics_are_refused_before_any_cell_runs(tmp_path, capsys, no_cell):
    text = TINY.replace('metrics = ["cost_total", "recall"]', "metrics = []")
    assert _reproduce(tmp_path, text, "--out", str(tmp_path / "out")) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "metrics must be a non-empty list" in line
    assert not (tmp_path / "out").exists()


# sizes --------------------------------------------------------------------------


def test_a_study_of_too_many_cells_is_refused_naming_the_limit(tmp_path, capsys):
    text = TINY.replace("n_splits = 3", "n_splits = 3\nn_repeats = 100000000")
    assert _reproduce(tmp_path, text, "--out", str(tmp_path / "out")) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "cells planned is 300,000,000, over the limit of 100,000" in line
    assert "--max-cells 300000000" in line
    assert not (tmp_path / "out").exists()


def test_the_cell_limit_counts_every_factor():
    data = _study(
        costs=[1, 2, 3, 4],
        protocol={"n_splits": 5, "n_repeats": 10},
    )
    # 4 costs x 1 algorithm x 10 repeats x 5 folds = 200 cells
    assert study_from_dict(data, limits=StudyLimits(max_cells=200)).n_cells == 200
    with pytest.raises(ValueError, match="cells planned is 200, over the limit of 199"):
        study_from_dict(data, limits=StudyLimits(max_cells=199))


def test_a_user_raises_the_cell_limit_with_an_option(tmp_path, capsys):
    from costsense.experiments import ResultsStore

    text = TINY.replace("n_splits = 3", "n_splits = 3\nn_repeats = 2")
    out = tmp_path / "out"
    assert _reproduce(tmp_path, text, "--out", str(out), "--max-cells", "5") == 2
    assert "cells planned is 6, over the limit of 5" in capsys.readouterr().err
    assert not out.exists()
    assert _reproduce(tmp_path, text, "--out", str(out), "--max-cells", "6") == 0
    assert len(ResultsStore(out).done_keys()) == 6


@pytest.mark.parametrize(
    ("algorithm", "field"),
    [
        ({"params": {"n_estimators": 10**9}}, "params n_estimators"),
        ({"grid": {"n_estimators": [10, 10**9]}}, "grid n_estimators"),
    ],
)
def test_too_many_estimators_are_refused_naming_the_field(algorithm, field):
    entry = {"name": "boost", "method": "adaboost", **algorithm}
    with pytest.raises(ValueError) as caught:
        study_from_dict(_study(algorithms=[entry]), source="s.toml")
    message = str(caught.value)
    assert f"algorithm 'boost': {field} is 1,000,000,000" in message
    assert "over the limit of 10,000" in message and "--max-estimators" in message
    raised = StudyLimits(max_estimators=10**9)
    assert study_from_dict(_study(algorithms=[entry]), limits=raised).algorithms


def test_too_many_estimators_on_the_command_line_is_exit_2(tmp_path, capsys, no_cell):
    text = TINY.replace('method = "plain"', 'method = "adaboost"\n'
                        "params = { n_estimators = 1000000000 }")  # fmt: skip
    assert _reproduce(tmp_path, text, "--out", str(tmp_path / "out")) == 2
    assert "n_estimators is 1,000,000,000" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("protocol", "match"),
    [
        ({"n_repeats": 0}, "protocol.n_repeats must be a whole number >= 1"),
        ({"n_repeats": "10"}, "protocol.n_repeats must be a whole number"),
        ({"n_repeats": True}, "protocol.n_repeats must be a whole number"),
        ({"n_splits": 2.5}, "protocol.n_splits must be a whole number >= 2"),
        ({"inner_splits": -1}, "protocol.inner_splits must be a whole number"),
        ({"test_size": "half"}, r"protocol.test_size must be in \(0, 1\)"),
        ({"kind": 3}, "protocol.kind must be"),
    ],
)
def test_a_protocol_of_the_wrong_type_is_one_clear_error(protocol, match):
    with pytest.raises(ValueError, match=match):
        study_from_dict(_study(protocol=protocol), source="s.toml")


def test_too_many_gaussian_rows_are_refused():
    with pytest.raises(ValueError, match="gaussian_samples is 10,000,000,000"):
        study_from_dict(_study(gaussian_samples=10**10))
    with pytest.raises(ValueError, match="gaussian_samples must be a whole number"):
        study_from_dict(_study(gaussian_samples="many"))
    assert (
        study_from_dict(
            _study(gaussian_samples=3000), limits=StudyLimits(max_rows=3000)
        ).gaussian_samples
        == 3000
    )


def test_a_grid_of_too_many_combinations_is_refused():
    grid = {"C": list(range(40)), "max_iter": list(range(40))}
    entry = {"name": "lr", "method": "plain", "grid": grid}
    with pytest.raises(ValueError, match="grid has 1,600 combinations"):
        study_from_dict(_study(algorithms=[entry]), source="s.toml")


# outputs ------------------------------------------------------------------------


@pytest.fixture
def finished(tmp_path):
    """A results folder of the tiny study, run once (its report written)."""
    out = tmp_path / "out"
    assert _reproduce(tmp_path, TINY, "--out", str(out)) == 0
    return out


@pytest.mark.parametrize("name", ["report.md", "report.html"])
def test_report_replaces_a_symlinked_report_never_writing_through(finished, name):
    victim = finished.parent / "victim.txt"
    victim.write_text("precious")
    (finished / name).unlink()
    (finished / name).symlink_to(victim)
    assert cli.main(["report", str(finished)]) == 0
    assert victim.read_text() == "precious"
    assert not (finished / name).is_symlink() and (finished / name).stat().st_size
    assert not list(finished.glob(".*.part"))


def test_report_refuses_a_symlinked_figures_folder(finished, capsys):
    elsewhere = finished.parent / "elsewhere"
    elsewhere.mkdir()
    for figure in (finished / "figures").iterdir():
        figure.unlink()
    (finished / "figures").rmdir()
    (finished / "figures").symlink_to(elsewhere)
    assert cli.main(["report", str(finished)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "figures is a symbolic link" in line and "--out" in line
    assert list(elsewhere.iterdir()) == []


def test_a_symlinked_figure_is_replaced_not_written_through(finished):
    victim = finished.parent / "victim.png"
    victim.write_bytes(b"precious")
    figure = next((finished / "figures").glob("*.png"))
    figure.unlink()
    figure.symlink_to(victim)
    assert cli.main(["report", str(finished)]) == 0
    assert victim.read_bytes() == b"precious" and not figure.is_symlink()


@pytest.mark.parametrize("name", ["study.json", ".lock", "artifacts"])
def test_a_run_refuses_a_symlink_planted_in_its_folder(tmp_path, capsys, name):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (out / name).symlink_to(victim)
    assert _reproduce(tmp_path, TINY, "--out", str(out)) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "symbolic link" in line and name in line
    assert victim.read_text() == "precious"


def test_a_boundary_grid_goes_only_into_its_folder(tmp_path):
    from costsense.experiments import StoreFileError
    from costsense.experiments._outputs import write_atomically

    with pytest.raises(StoreFileError, match="outside the output folder"):
        write_atomically(tmp_path / "out" / ".." / "x.npz", b"", root=tmp_path / "out")
    assert not (tmp_path / "x.npz").exists()


# the lock -----------------------------------------------------------------------

posix_only = pytest.mark.skipif(
    not Path("/proc/self/stat").is_file(), reason="processes are found in /proc"
)

# the command line in a process of its own (the package has no __main__)
COSTSENSE = [sys.executable, "-c", "import sys; from costsense.cli import main; "
             "sys.exit(main(sys.argv[1:]))"]  # fmt: skip

# many cells: still running when it is stopped
BUSY = TINY.replace('name = "tiny"', 'name = "busy"').replace(
    "n_splits = 3", "n_splits = 5\nn_repeats = 200"
)


def _alive(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def _forge(out: Path, **record: object) -> None:
    out.mkdir(exist_ok=True)
    base = {"pid": 1, "host": socket.gethostname(), "study": "tiny",
            "started": "then", "command": "costsense reproduce"}  # fmt: skip
    (out / ".lock").write_text(json.dumps({**base, **record}))


def test_a_forged_lock_record_that_no_run_holds_is_overwritten(tmp_path, capsys):
    out = tmp_path / "out"
    _forge(out, pid=os.getppid())  # names a live process: still not a holder
    assert _reproduce(tmp_path, TINY, "--out", str(out)) == 0
    assert (out / ".lock").read_text() == ""  # released: it names no one


def test_a_forged_record_of_a_held_lock_is_shown_escaped(tmp_path, capsys):
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from costsense.experiments import "
         "hold_run_lock\nwith hold_run_lock(sys.argv[1], 'x'): print(flush=True); "
         "sys.stdin.read()", str(out)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        holder.stdout.readline()
        _forge(out, study="x\x1b[2J\rsigned", host="h\x07")
        assert _reproduce(tmp_path, TINY, "--out", str(out)) == 2
        err = capsys.readouterr().err
        assert "\x1b" not in err and "\x07" not in err and "\r" not in err
        assert "x\\x1b[2J\\rsigned" in err and "in use by another run" in err
    finally:
        holder.communicate("")


def _loky_children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and b"LokyProcess" in command and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _wait_gone(pids: list[int]) -> list[int]:
    """Return the processes of ``pids`` still alive after 30 seconds at most."""
    deadline = time.monotonic() + 30
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if _alive(pid)]


@posix_only
def test_the_stuck_workers_of_a_killed_run_end_with_it(tmp_path):
    """Workers stopped in the middle of a cell end when their run is killed.

    The kernel ends a worker once its initializer ran (it precedes its first
    cell); one still starting when stopped ends by itself when it resumes.
    """
    study = tmp_path / "busy.toml"
    study.write_text(BUSY)
    running = subprocess.Popen(
        [*COSTSENSE, "reproduce", str(study), "--out", str(tmp_path / "out"),
         "--jobs", "2", "--quiet"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    workers: list[int] = []
    try:
        cells = tmp_path / "out"
        until(lambda: len(list(cells.glob("cells-*/*.json"))) >= 4, running)
        workers = _loky_children(running.pid)
        assert len(workers) == 2
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)  # stuck: no Python code of theirs runs
        running.send_signal(signal.SIGKILL)
        running.wait()
        starting = _wait_gone(workers)
        assert len(starting) < 2  # at least the one that ran cells, stopped
        for pid in starting:
            os.kill(pid, signal.SIGCONT)
        assert _wait_gone(starting) == []
    finally:
        running.kill()
        running.wait()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


# [files] paths: read as data, never echoed ---------------------------------------

SECRET = "SECRET-7f3a"


def _file_study(folder: Path, path: object, **spec: object) -> dict:
    table = {"path": str(path), "target": "label", **spec}
    return _study(
        datasets=["mine"], files={"mine": table}, protocol={"n_splits": 2},
        algorithms=[{"name": "t", "method": "threshold"}],
    )  # fmt: skip


def _numbers(i: int) -> str:
    # '1,234': a decimal comma or a thousands separator? The reader quotes a cell
    return f'{i},"1,234",{"a" if i % 2 else "b"}\n'


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (f"x,label\n1,{SECRET}a\n2,{SECRET}b\n3,{SECRET}c\n", "has 3 classes"),
        ("x,label\n1,a\n2,b\n3,a\n", "positive"),
        (f"x,label\n1,a\n2,b,{SECRET},more\n3,a\n", "at line 3"),
        (f'x,label\n1,a\n"{SECRET},b\n3,a\n', "at row 2"),
        ("x,amount,label\n" + "".join(map(_numbers, range(1, 9))), "column 'amount'"),
        ((f"\xff{SECRET}\n").encode("latin-1"), "encoding"),
    ],
    ids=["classes", "positive", "extra-field", "open-quote", "numbers", "encoding"],
)
def test_a_files_error_names_the_place_never_the_content(tmp_path, content, said):
    path = tmp_path / "secret.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    spec = {"positive": SECRET} if said == "positive" else {}
    with pytest.raises(ValueError) as caught:
        study_from_dict(_file_study(tmp_path, path, **spec), source=str(tmp_path / "s"))
    message = str(caught.value)
    assert said in message and str(path) in message and "\n" not in message
    shown = message.replace(f"positive {SECRET!r}", "")  # the study's own value
    assert SECRET not in shown and "1,234" not in shown


def test_a_files_column_names_are_shown_escaped(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x,la\x1b[2Jbel\n1,a\n2,b\n")
    with pytest.raises(ValueError, match="is not a column") as caught:
        study_from_dict(_file_study(tmp_path, path), source=str(tmp_path / "s"))
    assert "\x1b" not in str(caught.value) and "\\x1b[2J" in str(caught.value)


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_files_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "pipe.csv"
        os.mkfifo(path)  # opened for reading, it would wait for a writer for ever
    elif kind == "device":
        path = Path("/dev/zero")  # read, it would grow memory without bound
    else:
        path = tmp_path / "folder.csv"
        path.mkdir()
    started = time.monotonic()
    with pytest.raises(ValueError, match="is not a regular file"):
        study_from_dict(_file_study(tmp_path, path), source=str(tmp_path / "s"))
    assert time.monotonic() - started < 5


def test_an_oversized_study_file_is_refused_unread(tmp_path):
    path = tmp_path / "big.toml"
    with path.open("w") as file:
        file.write(TINY)
        file.write("#" * (5 << 20))
    with pytest.raises(ValueError, match="over the 4,194,304 a study file may be"):
        load_study(path)


# the report reads a record anyone can change ------------------------------------


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"metrics": []}, "metrics must be a non-empty list"),
        ({"metrics": ["cost_total", "stolen"]}, "unknown metrics ['stolen']"),
        ({"datasets": ["../../x"]}, "datasets[0] '../../x' is not an identifier"),
        ({"name": "/tmp/x"}, "name '/tmp/x' is not an identifier"),
        # the corrected test divides by n_splits - 1 and by 1 - test_size
        ({"protocol": {"kind": "kfold", "n_splits": 1}}, "n_splits must be a whole"),
        ({"protocol": {"kind": "holdout", "test_size": 1.0}}, "test_size must be in"),
        ({"fold_test": "lenient"}, "fold_test must be one of"),
    ],
    ids=[
        "no-metrics",
        "unknown-metric",
        "dataset",
        "name",
        "folds",
        "test",
        "test-kind",
    ],
)
def test_report_refuses_a_forged_record_in_one_line(finished, capsys, change, said):
    before = (finished / "report.md").read_text()
    record = json.loads((finished / "study.json").read_text())
    record["study"].update(change)
    (finished / "study.json").write_text(json.dumps(record))
    assert cli.main(["report", str(finished)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert said in line
    assert (finished / "report.md").read_text() == before


def test_a_derived_set_of_too_many_noise_columns_is_refused():
    derived = {"noisy": {"from": "pima", "append_uniform": 10**9}}
    with pytest.raises(ValueError, match="'append_uniform' is 1,000,000,000, over"):
        study_from_dict(_study(datasets=["noisy"], derived=derived), source="s")


# bounded memory and time: the whole command line in a limited process -----------

#: Address space a refused study's process may use (imports included).
MEMORY = 1536 << 20


def _limited() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@posix_only
@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("n_splits = 3", "n_splits = 3\nn_repeats = 100000000"), "cells planned"),
        (('method = "plain"', 'method = "adaboost"\nparams = { n_estimators = '
          "1000000000 }"), "n_estimators is"),
        (("gaussian_samples = 200", "gaussian_samples = 10000000000"),
         "gaussian_samples is"),
        (("[protocol]", '[files.gaussian2]\npath = "/dev/zero"\ntarget = "y"\n'
          "[protocol]"), "is not a regular file"),
        (('name = "tiny"', 'name = "../../../tmp/escaped"'), "is not an identifier"),
    ],
    ids=["cells", "estimators", "rows", "device", "name"],
)  # fmt: skip
def test_a_hostile_study_is_refused_in_bounded_memory_and_time(tmp_path, change, said):
    text = TINY.replace(*change)
    if "gaussian2" in text:
        text = text.replace('datasets = ["gaussian"]', 'datasets = ["gaussian2"]')
    study = tmp_path / "study.toml"
    study.write_text(text)
    out = tmp_path / "out"
    done = subprocess.run(
        [*COSTSENSE, "reproduce", str(study), "--out", str(out)],
        capture_output=True, text=True, timeout=120, preexec_fn=_limited,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert said in line and line.startswith("costsense reproduce: error: study ")
    assert not out.exists()


def test_report_refuses_a_planted_grid_that_would_fill_memory(finished, capsys):
    import zipfile

    (grid,) = (finished / "artifacts").glob("boundary_*.npz")
    grid.unlink()
    with zipfile.ZipFile(grid, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xx.npy", b"\0" * (300 << 20))  # 300 MiB of zeros: ~300 KiB
    assert grid.stat().st_size < 2 << 20
    assert cli.main(["report", str(finished)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "would unpack to 314,572,800 bytes" in line and str(grid) in line
