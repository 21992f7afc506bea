"""``costsense evaluate``: stratified k-fold cross-validation of named models."""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from costsense.cli._data import describe_columns, read_data, resolve_costs
from costsense.cli._options import UsageError
from costsense.cli._output import as_text_cell, new_output, print_table
from costsense.cli._preflight import preflight
from costsense.cli._progress import bar_of, print_warnings
from costsense.experiments import CATALOG, check_folds, default_base


def run(args: argparse.Namespace) -> int:
    from costsense.experiments import (
        FOLD_COLUMNS,
        MULTICLASS_METRICS,
        TIME_COLUMNS,
        WarningTally,
        evaluate,
        summarise,
    )

    models = [m.strip() for m in args.model.split(",") if m.strip()]
    output = new_output(args.output, "--output", args.csv) if args.output else None
    data = read_data(args)
    given = resolve_costs(args, data)
    costs = given.costs
    binary = costs.classes.size == 2
    preflight(
        models,
        args.base,
        data,
        missing=args.missing,
        row_costs=costs.example_dependent,
        jobs=args.jobs,
    )
    try:
        check_folds(data.y, args.folds, option="--folds ")
    except ValueError as error:
        raise UsageError(str(error).rstrip(".")) from None
    _say_what_runs(args, data, given.describe)
    metric_names = FOLD_COLUMNS if binary else MULTICLASS_METRICS
    identity = ["model", "base", "fold", "seed", "costs", "error", "constant"]
    fields = [*identity, *metric_names, *TIME_COLUMNS]
    handle = output.open("x", newline="") if output else None
    writer = csv.DictWriter(handle, fields) if handle is not None else None
    cell = (lambda value: value) if args.raw_cells else as_text_cell
    if writer is not None:
        writer.writeheader()
    rows: list[dict[str, Any]] = []
    tally = WarningTally()

    bar = bar_of("folds", "fit", quiet=args.quiet)(len(models) * args.folds, 0)

    def keep(row: dict[str, Any]) -> None:
        rows.append(row)
        tally.add_row(row)
        bar.update(1)
        if writer is not None and handle is not None:  # flushed: kept if interrupted
            flat = _flat(row, args.base, args.seed, given.describe)
            writer.writerow({name: cell(value) for name, value in flat.items()})
            handle.flush()

    started = time.perf_counter()
    interrupted = False
    try:
        evaluate(
            data.X,
            data.y,
            models,
            cost=costs,
            base=args.base,
            n_splits=args.folds,
            seed=args.seed,
            prepare=data.encoder,
            on_row=keep,
            n_jobs=args.jobs,
            name=args.dataset or Path(args.csv).stem,  # a study's name of it
        )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if handle is not None:
            handle.close()
    elapsed = time.perf_counter() - started
    if rows:
        print()
        notes = {m: _notes(m, args.base) for m in models}
        table = summarise(rows, models, notes)
        table[0].insert(1, "base")
        for line in table[1:]:
            line.insert(1, _base_shown(line[0], args.base))
        print_table(table)
        lower = "cost_total = total cost of a test fold, mean_cost per test row" + (
            "; savings = 1 - cost_total / that of the best constant prediction" * binary
        )
        best = "; * = best of the models that ran the same folds" * (len(models) > 1)
        print(f"\nmean (std) over the folds that ran; {lower}{best}")
    done = sum(not r.get("error") for r in rows)
    failed = len(rows) - done
    total = len(models) * args.folds
    print(
        f"{done} of {total} fits done, {failed} failed, in {elapsed:.1f} s",
        file=sys.stderr,
    )
    if not args.quiet:
        print_warnings(tally.lines(), "one line per model and kind")
    if output is not None:
        print(f"fold results saved to {output}", file=sys.stderr)
    if interrupted:
        print("interrupted: the table shows the finished folds only", file=sys.stderr)
        return 130
    return 1 if failed else 0


def _flat(
    row: dict[str, Any], base: str | None, seed: int, costs: str
) -> dict[str, Any]:
    ran = not row.get("error")
    return {
        "model": row["algorithm"],
        "base": _base_shown(row["algorithm"], base),
        "fold": row["fold"],
        "seed": seed,
        "costs": costs,
        "error": row.get("error", ""),
        "constant": row["diagnostics"]["constant"] if ran else "",
        **(row["metrics"] if ran else {}),
        **({k: row[k] for k in ("fit_time", "predict_time")} if ran else {}),
    }


def _say_what_runs(args: argparse.Namespace, data: Any, costs: str) -> None:
    classes, counts = np.unique(data.y, return_counts=True)
    shown = {str(c): int(n) for c, n in zip(classes[:10], counts[:10], strict=True)}
    more = f" and {classes.size - 10} more" if classes.size > 10 else ""
    bases = (
        f"base learner {args.base}"
        if args.base
        else "each model on its own default base learner (column 'base')"
    )
    dropped = f" ({data.n_dropped} rows with missing values dropped)" * bool(
        data.n_dropped
    )
    print(
        f"{data.source}: {data.y.shape[0]} samples{dropped}, "
        f"{np.shape(data.X)[1]} features, classes {shown}{more}; {costs}; "
        f"{args.folds}-fold stratified CV, {bases}, seed {args.seed}"
    )
    describe_columns(data)


def _notes(name: str, base: str | None) -> list[str]:
    """Say what a model does with ``--base`` and ``--cost``, for its row."""
    spec = CATALOG[name]
    ignores = not spec.uses_base and base is not None
    return ["ignores --base (no base learner)"] * ignores + [
        "cost-blind: the costs do not shape its model"
    ] * (not spec.cost_sensitive)


def _base_shown(model: str, base: str | None) -> str:
    """Name the base learner a model's row ran on ("-": it uses none)."""
    if not CATALOG[model].uses_base:
        return "-"
    return base if base is not None else default_base(model)
