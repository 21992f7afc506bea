import argparse
import subprocess
import sys

import pytest

from costsense import cli


def test_parse_cost_reads_a_ratio_or_a_pair():
    assert cli.parse_cost("5") == 5.0
    assert cli.parse_cost("5, 2") == (5.0, 2.0)
    for bad in ["five", "1,2,3"]:
        with pytest.raises(argparse.ArgumentTypeError, match="--cost"):
            cli.parse_cost(bad)


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
