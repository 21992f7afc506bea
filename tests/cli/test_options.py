import argparse
import subprocess
import sys

import pytest

from costsense import cli
from costsense.cli import _options


def test_parse_cost_reads_a_ratio_or_a_pair():
    assert _options.parse_cost("5") == 5.0
    assert _options.parse_cost("5, 2") == (5.0, 2.0)
    for bad in ["five", "1,2,3"]:
        with pytest.raises(argparse.ArgumentTypeError, match="--cost"):
            _options.parse_cost(bad)


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "5,0", "5,-1", "inf,1"])
def test_costs_that_are_not_finite_and_positive_are_usage_errors(bad, capsys):
    with pytest.raises(argparse.ArgumentTypeError, match="finite numbers > 0"):
        _options.parse_cost(bad)
    with pytest.raises(SystemExit) as parse_error:
        cli.main(["evaluate", "--dataset", "pima", "--cost", bad])
    assert parse_error.value.code == 2
    err = capsys.readouterr().err
    assert f"--cost {bad!r}" in err and "Traceback" not in err


def test_help_imports_no_heavy_module():
    code = (
        "import sys\n"
        "from costsense.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('numpy', 'pandas', 'sklearn', 'scipy', 'numba', 'matplotlib',"
        " 'imblearn', 'skops', 'dask')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip().splitlines()[-1] == "[]"
    assert "evaluate" in found.stdout and "predict" in found.stdout


def test_usage_errors_exit_2_in_one_line(capsys):
    with pytest.raises(SystemExit) as parse_error:  # argparse's own usage errors
        cli.main(["evaluate", "--dataset", "pima", "--folds", "five"])
    assert parse_error.value.code == 2
    capsys.readouterr()
    assert cli.main(["evaluate", "--dataset", "pima"]) == 2  # no cost
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "give the costs: --cost" in err
    status = cli.main(["evaluate", "--dataset", "pima", "--cost", "5", "--model", "x"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown models ['x']" in err
    assert "Traceback" not in err


def test_a_closed_standard_output_ends_quietly_with_status_141(monkeypatch, capsys):
    class ClosedPipe:  # the reader left, as `costsense datasets | head` does
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self):
            raise ValueError("no descriptor")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert cli.main(["datasets"]) == 141
    assert "Traceback" not in capsys.readouterr().err


def test_a_missing_module_of_the_experiments_extra_names_the_extra(monkeypatch, capsys):
    # a core install (`pip install costsense`) has no tqdm, pandas, skops...
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert cli.main(["evaluate", "--dataset", "pima", "--cost", "5"]) == 2
    err = capsys.readouterr().err
    assert "needs the experiments extra (tqdm is not installed)" in err
    assert 'pip install "costsense[experiments]"' in err and "Traceback" not in err


def test_the_light_options_module_repeats_the_category_limit_it_documents():
    from costsense.cli._options import MAX_CATEGORIES
    from costsense.utils import _columns

    assert MAX_CATEGORIES == _columns.MAX_CATEGORIES


def test_the_light_options_module_repeats_the_read_limits_it_documents():
    from costsense.cli import _options
    from costsense.utils import _cells, _table_files

    assert _options.MAX_LINE_MB == _table_files.MAX_LINE_MB
    assert _options.MAX_CELL_CHARS == _cells.MAX_CELL_CHARS


@pytest.mark.parametrize("option", ["--max-cells", "--max-estimators", "--max-rows"])
def test_a_study_limit_below_one_is_a_usage_error(option, capsys):
    with pytest.raises(SystemExit) as parse_error:
        cli.main(["reproduce", "rescaling", option, "0"])
    assert parse_error.value.code == 2
    assert f"{option}: 0 is not a count >= 1" in capsys.readouterr().err


def test_an_argparse_error_is_one_line_with_a_help_hint(capsys):
    with pytest.raises(SystemExit) as parse_error:
        cli.main(["fit", "--csv", "data.csv", "--target", "y", "--cost", "5"])
    assert parse_error.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "costsense fit: error: the following arguments are required: --out "
        "(see costsense fit --help)\n"
    )
    with pytest.raises(SystemExit) as parse_error:
        cli.main(["evalute"])  # the top-level parser, too
    assert parse_error.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err
    assert err.startswith("costsense: error: argument command: invalid choice")


def test_a_target_typo_is_refused_before_scikit_learn_is_imported(tmp_path):
    data = tmp_path / "data.csv"
    data.write_text("\ufeffamount;label\n1,5;0\n2,5;1\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from costsense.cli import main\n"
        f"status = main(['fit', '--csv', {str(data)!r}, '--target', 'lable',"
        " '--cost', '5', '--out', 'never.skops'])\n"
        "print(status, sorted(m for m in ('sklearn', 'scipy') if m in sys.modules))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip().splitlines()[-1] == "2 []"
    assert found.stderr == (
        "costsense fit: error: --target 'lable' is not a column; the columns are "
        "['amount', 'label']\n"
    )
