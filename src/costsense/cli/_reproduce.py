"""``costsense reproduce`` and ``costsense report``: studies and their reports."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from costsense.cli._options import UsageError
from costsense.cli._progress import bar_of, print_warnings, say

if TYPE_CHECKING:
    from costsense.experiments import Study


def run_reproduce(args: argparse.Namespace) -> int:
    """Run a study holding its folder's lock until the report is written."""
    from costsense.experiments import (
        StoreError,
        StudyLimits,
        hold_run_lock,
        load_study,
    )

    limits = StudyLimits(
        max_cells=args.max_cells,
        max_estimators=args.max_estimators,
        max_rows=args.max_rows,
    )
    try:
        study = load_study(args.study, quick=args.quick, limits=limits)
    except (ValueError, FileNotFoundError) as error:
        message = str(error)  # a study file's errors already start "study <path>:"
        if not message.startswith(("study ", "no study ")):
            message = f"study {args.study}: {message}"
        raise UsageError(message) from None
    out = Path(
        args.out or Path("results") / (study.name + ("-quick" if args.quick else ""))
    )
    try:
        # the run and its report hold the folder: a second run is refused here
        with hold_run_lock(out, study.name):
            return _run_and_report(args, study, out)
    except StoreError as error:
        raise UsageError(str(error)) from None


def _run_and_report(args: argparse.Namespace, study: Study, out: Path) -> int:
    from costsense.experiments import run_study

    where = (
        f"Dask scheduler {args.scheduler}" if args.scheduler else f"{args.jobs} job(s)"
    )
    if not args.quiet:
        say(
            f"study {study.name}: {study.report.title or study.name}\n"
            f"{len(study.datasets)} datasets x "
            f"{len({c for d in study.datasets for c in study.costs_for(d)})} "
            f"costs x {len(study.algorithms)} algorithms x "
            f"{study.protocol.n_repeats * study.protocol.folds_per_repeat} splits = "
            f"{study.n_cells} cells, on {where}; results in {out}"
        )

    summary = run_study(
        study,
        out,
        jobs=args.jobs,
        scheduler=args.scheduler,
        progress=bar_of("cells", "cell", quiet=args.quiet),
        restart=args.restart,
    )
    if not args.quiet:
        if summary.moved_to is not None:
            say(f"--restart: the previous results moved to {summary.moved_to}")
        say(
            f"{summary.ran} cells run in {summary.seconds:.1f} s, {summary.skipped} "
            f"already done, {summary.total} in the study"
        )
        header = (
            "one line per algorithm and kind; a degenerate fit, such as a model that "
            "predicts one class, is a result of the method on that data, not a "
            "failure of the run; the report lists them"
        )
        print_warnings(summary.warnings, header)
    if summary.interrupted:
        say(
            f"interrupted: {summary.skipped + summary.ran} of {summary.total} cells "
            f"are saved in {out}; run the same command again to resume"
        )
        return 130
    return write_report(out, quiet=args.quiet)


def write_report(out: Path, *, quiet: bool = False) -> int:
    """Write a results folder's report and print its main table."""
    from costsense.experiments import ResultsStore, report_study, sort_rows

    files = report_study(out)
    store = ResultsStore(out)
    results = store.results()
    study = store.study()
    main = study["metrics"][0]
    order = [a["name"] for a in study["algorithms"]]
    table = results.pivot_table(
        index=["dataset", "cost"], columns="algorithm", values=main, aggfunc="mean"
    )
    table = table[[name for name in order if name in table.columns]]
    table = table.loc[sort_rows(table.index)]
    if not quiet:
        print(f"\nmean {main} over repeats and folds\n")
        print(table.round(3).to_string())
    print(f"\nreport: {files.markdown}\n        {files.html}")
    if not quiet:
        print(f"figures: {len(files.figures)} in {files.markdown.parent / 'figures'}")
    return 0


def run_report(args: argparse.Namespace) -> int:
    """Report a folder without its lock (a running study's finished cells)."""
    from costsense.experiments import StoreError, write_evaluation_report

    try:
        if (Path(args.folder) / "evaluation.json").exists():
            print(write_evaluation_report(Path(args.folder)))
            return 0
        return write_report(Path(args.folder))
    except (StoreError, ValueError) as error:  # no store, or its record, refused
        raise UsageError(str(error)) from None
