"""Hostile inputs and outputs of fit / predict / evaluate: refused in one line.

Every file is built here. Where a hang, a crash or unbounded memory is the
risk, the command runs in a subprocess limited to 2 GiB of address space and
given a generous timeout (a hang or a runaway shows as the timeout or a killed
process, never as a slow test): its exit status must be 2 (a usage error) with
one line naming the option and the fix.
"""

from __future__ import annotations

import fcntl
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import costsense
from costsense import cli
from costsense.cli import _predict
from costsense.cli._output import as_text_cell, text_cells
from tests.cli._data import write_csv

SOURCE = str(Path(costsense.__file__).resolve().parents[1])
#: The address space a subprocess may use: far below what the attacks reached.
MEMORY = 2 << 30
_MAIN = "import sys; from costsense.cli import main; sys.exit(main(sys.argv[1:]))"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _env() -> dict[str, str]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([SOURCE, env.get("PYTHONPATH", "")])
    return env


def _command(*argv, timeout: float = 120, script: str = _MAIN):
    """Run ``costsense`` in a subprocess under the memory limit and a timeout."""
    return subprocess.run(
        [sys.executable, "-c", script, *map(str, argv)],
        env=_env(), capture_output=True, text=True, timeout=timeout,
        preexec_fn=_limit_memory,
    )  # fmt: skip


def _one_line(done) -> str:
    """The one error line of a refused command (exit 2, no traceback)."""
    assert done.returncode == 2, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    return line


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A model on f1, f2, f3 and a file of new rows to decide."""
    folder = tmp_path_factory.mktemp("attacks")
    train = write_csv(folder / "train.csv", n=200)
    model = folder / "model.skops"
    argv = ["fit", "--csv", train, "--target", "label", "--cost", "5", "--model",
            "threshold", "--out", model]  # fmt: skip
    assert cli.main(list(map(str, argv))) == 0
    new = folder / "new.csv"
    pd.read_csv(train).drop(columns="label").iloc[:50].to_csv(new, index=False)
    return model, new


def _predict_argv(model, rows, out, *extra):
    return ["predict", "--model", model, "--csv", rows, "--out", out, *extra]


# --------------------------------------------------------------------- inputs
def test_a_pipe_as_csv_is_refused_at_once_not_waited_on(trained, tmp_path):
    model, _ = trained
    pipe = tmp_path / "rows.csv"
    os.mkfifo(pipe)  # no writer: opening it to read would block for ever
    for argv in (_predict_argv(model, pipe, tmp_path / "p.csv"),
                 ["fit", "--csv", pipe, "--target", "label", "--cost", "5",
                  "--out", tmp_path / "m.skops"]):  # fmt: skip
        line = _one_line(_command(*argv, timeout=60))
        assert f"--csv {pipe} is not a regular file (it is a pipe)" in line
    assert not (tmp_path / "p.csv").exists() and not (tmp_path / "m.skops").exists()


def test_dev_zero_is_refused_in_bounded_memory(trained, tmp_path):
    model, _ = trained
    done = _command(*_predict_argv(model, "/dev/zero", tmp_path / "p.csv"))
    assert "--csv /dev/zero is not a regular file (it is a device)" in _one_line(done)


def test_a_file_without_line_breaks_is_refused_by_the_line_limit(trained, tmp_path):
    model, _ = trained
    endless = tmp_path / "zeros.csv"
    with endless.open("wb") as handle:  # a regular file: 40 MiB, no line break
        handle.truncate(40 << 20)
    line = _one_line(_command(*_predict_argv(model, endless, tmp_path / "p.csv")))
    assert "holds NUL bytes" in line and "--encoding utf-16-le" in line
    text = tmp_path / "long.csv"
    text.write_bytes(b"f1," + b"9" * (40 << 20))  # text, one line of 40 MiB
    line = _one_line(_command(*_predict_argv(model, text, tmp_path / "p.csv")))
    assert "line 1 is longer than --max-line-mb 16 MiB" in line
    assert "raise --max-line-mb" in line
    assert not (tmp_path / "p.csv").exists()


def test_a_long_header_line_is_one_usage_error(trained, tmp_path):
    # the header alone is over the limit: refused before anything else is read
    path = tmp_path / "wide.csv"
    with path.open("w") as handle:
        handle.write(",".join(f"column_{i:08d}" for i in range(1_200_000)))
        handle.write(",label\n1,0\n")
    assert path.stat().st_size > 16 << 20
    done = _command("fit", "--csv", path, "--target", "label", "--cost", "5",
                    "--out", tmp_path / "m.skops")  # fmt: skip
    line = _one_line(done)
    assert f"--csv {path}: line 1 is longer than --max-line-mb 16 MiB" in line
    assert not (tmp_path / "m.skops").exists()


def test_a_long_row_names_its_line_and_a_raised_limit_reaches_the_cell_limit(
    trained, tmp_path, capsys
):
    model, new = trained
    lines = new.read_text().splitlines()
    lines[3] = lines[3].split(",")[0] + ",1," + "7" * (2 << 20)  # line 4: 2 MiB
    path = tmp_path / "long-row.csv"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "p.csv"
    argv = _predict_argv(str(model), str(path), str(out))
    assert cli.main([*argv, "--max-line-mb", "1"]) == 2
    err = capsys.readouterr().err
    assert "line 4 is longer than --max-line-mb 1 MiB" in err
    assert cli.main(argv) == 2  # under 16 MiB: the cell is read, and refused
    err = capsys.readouterr().err
    assert "column 'f3' holds a cell of 2,097,152 characters (row 4" in err
    assert "--max-cell-chars 10,000; raise --max-cell-chars" in err
    assert not out.exists() and not Path(f"{out}.partial").exists()


def test_utf16_without_a_byte_order_mark_names_the_encoding_fix(trained, tmp_path):
    model, new = trained
    path = tmp_path / "utf16.csv"
    path.write_bytes(new.read_text().encode("utf-16-le"))
    out = tmp_path / "p.csv"
    line = _one_line(_command(*_predict_argv(model, path, out)))
    assert f"--csv {path} holds NUL bytes" in line
    assert "give --encoding utf-16-le (or utf-16-be)" in line
    assert cli.main(_predict_argv(str(model), str(path), str(out),
                                  "--encoding", "utf-16-le")) == 0  # fmt: skip
    expected = tmp_path / "expected.csv"
    assert cli.main(_predict_argv(str(model), str(new), str(expected))) == 0
    pd.testing.assert_frame_equal(pd.read_csv(out), pd.read_csv(expected))


def test_a_symlinked_part_is_refused_and_its_target_never_shown(trained, tmp_path):
    model, new = trained
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-LINE-1,SECRET-LINE-2\n1,2\n")
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "a.csv").write_text(new.read_text())
    (parts / "b.csv").symlink_to(secret)
    done = _command(*_predict_argv(model, parts, tmp_path / "p.csv"))
    line = _one_line(done)
    assert f"--csv {parts}: part b.csv is a symbolic link" in line
    assert "SECRET" not in done.stderr + done.stdout
    assert not (tmp_path / "p.csv").exists()
    (parts / "b.csv").unlink()
    os.mkfifo(parts / "c.csv")
    line = _one_line(_command(*_predict_argv(model, parts, tmp_path / "p.csv"),
                              timeout=60))  # fmt: skip
    assert "part c.csv is not a regular file" in line


def test_one_long_value_on_every_parquet_row_is_refused_before_it_is_expanded(
    trained, tmp_path
):
    import pyarrow as pa
    import pyarrow.parquet as pq

    model, _ = trained
    n = 200_000
    long = pa.DictionaryArray.from_arrays(
        pa.array(np.zeros(n, dtype=np.int32)), pa.array(["x" * 50_000])
    )
    table = pa.table({"f1": np.zeros(n), "f2": np.zeros(n), "f3": np.zeros(n),
                      "ref": long})  # fmt: skip
    path = tmp_path / "small.parquet"
    # without the Arrow schema the column reads back as plain text, which
    # pyarrow would expand to 10 GB: costsense reads it dictionary-encoded
    pq.write_table(table, path, compression="zstd", store_schema=False)
    assert pq.read_schema(path).field("ref").type == pa.string()
    assert path.stat().st_size < 64 << 10  # 10 GB of text once expanded
    out = tmp_path / "p.csv"
    line = _one_line(_command(*_predict_argv(model, path, out, "--id-column", "ref")))
    assert f"--csv {path}: column 'ref' holds a cell of 50,000 characters" in line
    assert "over --max-cell-chars 10,000" in line
    assert not out.exists() and not Path(f"{out}.partial").exists()
    done = _command("fit", "--csv", path, "--target", "f1", "--cost", "5",
                    "--out", tmp_path / "m.skops")  # fmt: skip
    assert "column 'ref' holds a cell of 50,000 characters" in _one_line(done)


def test_a_million_column_header_naming_one_twice_is_refused_in_seconds(tmp_path):
    path = tmp_path / "wide.csv"
    names = [f"c{i}" for i in range(1_000_000)]
    names[-1] = "c5"
    path.write_text(",".join(names) + ",label\n" + ",".join("1" * len(names)) + ",0\n")
    done = _command("fit", "--csv", path, "--target", "label", "--cost", "5",
                    "--out", tmp_path / "m.skops", timeout=120)  # fmt: skip
    assert "names these columns more than once: ['c5']" in _one_line(done)


# -------------------------------------------------------------------- outputs
def test_a_file_created_at_out_while_predict_runs_is_kept(
    trained, tmp_path, capsys, monkeypatch
):
    model, new = trained
    out = tmp_path / "p.csv"
    score = _predict.Scorer.__call__

    def racing(self, frame, first_row):
        if not out.exists():
            out.write_text("someone else's file\n")
        return score(self, frame, first_row)

    monkeypatch.setattr(_predict.Scorer, "__call__", racing)
    assert cli.main(_predict_argv(str(model), str(new), str(out))) == 2
    err = capsys.readouterr().err
    assert f"--out {out} was created by something else while this command ran" in err
    assert out.read_text() == "someone else's file\n"  # not replaced
    kept = pd.read_csv(f"{out}.partial")  # the whole predictions, kept
    np.testing.assert_array_equal(kept["row"], np.arange(50))


def test_an_out_inside_the_input_folder_is_refused(trained, tmp_path, capsys):
    model, new = trained
    parts = tmp_path / "parts"
    (parts / "deeper").mkdir(parents=True)
    (parts / "a.csv").write_text(new.read_text())
    for out in (parts / "p.csv", parts / "deeper" / "p.csv"):
        assert cli.main(_predict_argv(str(model), str(parts), str(out))) == 2
        err = capsys.readouterr().err
        assert f"--out {out} is inside the input folder {parts}" in err
        assert "choose a path outside it" in err and err.count("\n") == 1
    assert sorted(p.name for p in parts.rglob("*")) == ["a.csv", "deeper"]


def test_a_dangling_symlink_at_out_is_refused_before_any_fit(
    trained, tmp_path, capsys, monkeypatch
):
    from costsense.cli import _fit

    _, new = trained
    train = write_csv(tmp_path / "train.csv", n=100)
    target = tmp_path / "nowhere" / "model.skops"
    link = tmp_path / "model.skops"
    link.symlink_to(target)

    def no_fit(*args, **kwargs):
        raise AssertionError("the output must be refused before any fit")

    monkeypatch.setattr(_fit, "read_data", no_fit)
    assert cli.main(["fit", "--csv", str(train), "--target", "label", "--cost", "5",
                     "--out", str(link)]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert f"--out {link} exists (a symbolic link); costsense never overwrites" in err
    assert not target.exists() and not target.parent.exists()
    out = tmp_path / "p.csv"
    out.symlink_to(tmp_path / "victim.csv")
    model, _ = trained
    assert cli.main(_predict_argv(str(model), str(new), str(out))) == 2
    assert "exists (a symbolic link)" in capsys.readouterr().err
    assert not (tmp_path / "victim.csv").exists()


_CRASH = r"""
import os, signal, sys
from costsense.cli import _predict, main
def crash(self, frame, first_row):
    os.kill(os.getpid(), signal.SIGKILL)  # as a segmentation fault would
_predict.Scorer.__call__ = crash
sys.exit(main(sys.argv[1:]))
"""


def test_a_crashed_predict_does_not_block_the_next_run(trained, tmp_path):
    model, new = trained
    out = tmp_path / "p.csv"
    done = _command(*_predict_argv(model, new, out), script=_CRASH)
    assert done.returncode == -signal.SIGKILL
    partial = Path(f"{out}.partial")
    assert partial.exists() and partial.stat().st_size == 0  # left by the crash
    done = _command(*_predict_argv(model, new, out))
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(pd.read_csv(out)) == 50 and not partial.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["p.csv"]  # nothing else left


def test_a_partial_file_being_written_is_refused_as_in_use(trained, tmp_path, capsys):
    model, new = trained
    out = tmp_path / "p.csv"
    partial = Path(f"{out}.partial")
    with partial.open("w") as handle:  # another run, alive, holding its lock
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        assert cli.main(_predict_argv(str(model), str(new), str(out))) == 2
        err = capsys.readouterr().err
        assert f"another costsense predict is writing {partial} now" in err
        assert partial.exists()  # not taken from its writer
    assert cli.main(_predict_argv(str(model), str(new), str(out))) == 0  # stale
    assert len(pd.read_csv(out)) == 50


def test_cells_a_spreadsheet_evaluates_are_written_as_text(tmp_path, capsys):
    frame = pd.read_csv(write_csv(tmp_path / "train.csv", n=200))
    frame["label"] = frame["label"].map({0: "-ok", 1: '=HYPERLINK("x")'})
    frame.to_csv(tmp_path / "train.csv", index=False)
    model = tmp_path / "m.skops"
    argv = ["fit", "--csv", tmp_path / "train.csv", "--target", "label", "--cost",
            "5", "--model", "threshold", "--out", model]  # fmt: skip
    assert cli.main(list(map(str, argv))) == 0
    ids = ["=HYPERLINK(\"http://x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
           "\tx", "-1.5", "+3", "1e5", "plain"]  # fmt: skip
    new = frame.drop(columns="label").iloc[: len(ids)].assign(ref=ids)
    new.to_csv(tmp_path / "new.csv", index=False)
    out, raw = tmp_path / "p.csv", tmp_path / "raw.csv"
    argv = ["predict", "--model", str(model), "--csv", str(tmp_path / "new.csv"),
            "--id-column", "ref"]  # fmt: skip
    assert cli.main([*argv, "--out", str(out)]) == 0
    assert cli.main([*argv, "--out", str(raw), "--raw-cells"]) == 0
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert written["ref"].tolist() == [
        "'=HYPERLINK(\"http://x\")", "'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1)",
        "'\tx", "-1.5", "+3", "1e5", "plain",
    ]  # fmt: skip
    assert set(written["prediction"]) <= {"'-ok", '\'=HYPERLINK("x")'}
    assert 'proba_=HYPERLINK("x")' in written.columns  # a name starting "proba_"
    as_read = pd.read_csv(raw, dtype=str, keep_default_na=False)
    assert as_read["ref"].tolist() == ids
    assert set(as_read["prediction"]) <= {"-ok", '=HYPERLINK("x")'}


def test_text_cells_leaves_numbers_and_names_other_columns_safely():
    assert as_text_cell(-1.5) == -1.5 and as_text_cell("-1.5") == "-1.5"
    assert as_text_cell("=1+1") == "'=1+1" and as_text_cell("\r=x") == "'\r=x"
    assert as_text_cell("a=1") == "a=1" and as_text_cell(None) is None
    frame = pd.DataFrame({"=id": ["@x", None, "y"], "n": [-1.0, 2.0, -3.0]})
    safe = text_cells(frame)
    assert list(safe.columns) == ["'=id", "n"]
    assert safe["'=id"].tolist() == ["'@x", None, "y"]
    assert safe["n"].tolist() == [-1.0, 2.0, -3.0]
    assert list(frame.columns) == ["=id", "n"]  # the input is not changed
    assert frame["=id"].tolist() == ["@x", None, "y"]


def test_evaluate_writes_formula_like_text_as_text(tmp_path, monkeypatch):
    from costsense.cli import _evaluate

    real = _evaluate._flat
    monkeypatch.setattr(_evaluate, "_flat", lambda *a: {**real(*a), "model": "=cmd"})
    data = write_csv(tmp_path / "d.csv", n=100)
    for raw, first in (([], "'=cmd,"), (["--raw-cells"], "=cmd,")):
        out = tmp_path / f"rows{len(raw)}.csv"
        argv = f"evaluate --csv {data} --target label --cost 5 --folds 2 --quiet"
        argv += f" --model threshold --output {out}"
        assert cli.main([*argv.split(), *raw]) == 0
        lines = out.read_text().splitlines()
        assert lines[0].startswith("model,base,fold") and len(lines) == 3
        assert lines[1].startswith(first) and lines[2].startswith(first)


def test_a_cost_matrix_that_is_a_pipe_or_too_large_is_refused(tmp_path):
    train = write_csv(tmp_path / "train.csv", n=100)
    pipe = tmp_path / "costs.csv"
    os.mkfifo(pipe)
    argv = ["fit", "--csv", train, "--target", "label", "--out", tmp_path / "m.skops"]
    line = _one_line(_command(*argv, "--cost-matrix", pipe, timeout=60))
    assert f"--cost-matrix {pipe} is not a regular file (it is a pipe)" in line
    big = tmp_path / "big.csv"
    big.write_text(",0,1\n0,0,1\n1,5," + "0" * (2 << 20) + "\n")
    line = _one_line(_command(*argv, "--cost-matrix", big))
    assert f"--cost-matrix {big} is over 1 MiB" in line
    assert not (tmp_path / "m.skops").exists()
