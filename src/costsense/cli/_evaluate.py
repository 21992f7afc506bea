"""``costsense evaluate``: cross-validation of named models, stratified or over time."""

from __future__ import annotations

import argparse
import csv
import sys
import textwrap
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
        ACTION_METRICS,
        CURRENT,
        FOLD_COLUMNS,
        MULTICLASS_METRICS,
        TIME_COLUMNS,
        WarningTally,
        evaluate,
        forward_chaining,
        summarise,
    )

    models = [m.strip() for m in args.model.split(",") if m.strip()]
    output = new_output(args.output, "--output", args.csv) if args.output else None
    curve_file = (
        new_output(str(output.with_name(f"{output.stem}-capacity.csv")), "--output")
        if output
        else None
    )
    data = read_data(args)
    given = resolve_costs(args, data)
    costs = given.costs
    binary = costs.classes.size == 2
    columns = take_columns(args, data)
    capacity = _capacity(args.capacity, given)
    preflight(
        models,
        args.base,
        data,
        missing=args.missing,
        row_costs=costs.example_dependent,
        jobs=args.jobs,
        scored=True,
    )
    time_of = columns.get("--time-column")
    try:
        if time_of is None:
            check_folds(data.y, args.folds, option="--folds ")
            periods = None
        else:
            found = forward_chaining(time_of, args.folds, data.y)
            periods = [_periods(time_of, train, test) for train, test in found]
    except ValueError as error:
        message = (
            str(error)
            .rstrip(".")
            .replace("time: ", "")
            .replace("n_splits=", "--folds ")
        )
        option = (
            "--folds " if time_of is None else f"--time-column {args.time_column}: "
        )
        raise UsageError(option * (time_of is not None) + message) from None
    _say_what_runs(args, data, given.describe, periods)
    metric_names = (
        ACTION_METRICS
        if given.actions is not None
        else FOLD_COLUMNS
        if binary
        else MULTICLASS_METRICS
    ) + ("gain_over_current",) * ("--current-decision" in columns)
    identity = ["model", "base", "fold", "seed", "costs", "error", "constant"]
    identity += ["train_until", "test_period"] * (periods is not None)
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
        bar.update(row["algorithm"] != CURRENT)
        if writer is not None and handle is not None:  # flushed: kept if interrupted
            flat = _flat(row, args.base, args.seed, given.describe)
            if periods is not None:
                flat["train_until"], flat["test_period"] = periods[row["fold"]]
            writer.writerow({name: cell(value) for name, value in flat.items()})
            handle.flush()

    report_dir = _new_folder(args.report) if args.report else None
    started = time.perf_counter()
    interrupted = False
    try:
        evaluate(
            data.X,
            data.y,
            models,
            cost=costs,
            actions=given.actions,
            time=time_of,
            current=columns.get("--current-decision"),
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
    except ValueError as error:  # refused before any fit (a fold's is its row's)
        said = f"--current-decision {args.current_decision}:"
        raise UsageError(str(error).replace("current:", said).rstrip(".")) from None
    finally:
        bar.close()
        if handle is not None:
            handle.close()
    elapsed = time.perf_counter() - started
    if rows:
        print()
        notes = {m: _notes(m, args.base, given.actions is not None) for m in models}
        shown = models + [CURRENT] * ("--current-decision" in columns)
        table = summarise(rows, shown, notes)
        table[0].insert(1, "base")
        for line in table[1:]:
            line.insert(1, _base_shown(line[0], args.base))
        print_table(narrow(table))
        lower = "cost_total = total cost of a test fold" + (
            "; savings = 1 - cost_total / that of the best "
            + ("single action" if given.actions is not None else "constant prediction")
        ) * (binary or given.actions is not None)
        best = "; * = best of the models that ran the same folds" * (len(models) > 1)
        gain = (
            "; gain_over_current = money saved per test fold over the current "
            f"decision ({args.current_decision})"
        ) * ("--current-decision" in columns)
        wide = "; every metric: --output, --report" * (output is None)
        said = f"mean (std) over the folds that ran; {lower}{best}{gain}{wide}"
        print("\n" + textwrap.fill(said, 100))
        for line in [r for r in table[1:] if r[-1]]:
            print(
                textwrap.fill(
                    f"{line[0]}: {line[-1]}",
                    100,
                    subsequent_indent="  ",
                    break_long_words=False,
                )
            )
        cheapest = best_in_money(rows, models, args.current_decision)
        if cheapest:
            print(textwrap.fill(cheapest, 100))
        if not interrupted:
            report_decisions(args, given, data.y, rows, capacity, columns, curve_file)
        if report_dir is not None and not interrupted:
            limits = [[_json(a), k] for a, k in (capacity or {}).items()]
            write_page(args, given, data, rows, table, report_dir, limits, columns)
    fits = [r for r in rows if r["algorithm"] != CURRENT]
    done = sum(not r.get("error") for r in fits)
    failed = len(fits) - done
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


#: The columns of the terminal table, the first found of each group.
SHOWN = (
    ("cost_total",),
    ("savings",),
    ("gain_over_current",),
    ("auc", "balanced_accuracy"),
)


def narrow(table: list[list[str]]) -> list[list[str]]:
    """Keep the columns a manager reads: model, money, one ranking metric, folds."""
    header = table[0]
    keep = [0] + [
        header.index(found[0])
        for group in SHOWN
        if (found := [name for name in group if name in header])
    ]
    keep.append(header.index("folds"))
    return [[line[i] for i in keep] for line in table]


def best_in_money(
    rows: list[dict[str, Any]], models: list[str], current: str | None
) -> str:
    """Name the model of least mean cost per fold, and what it saves over today."""
    from costsense.experiments import CURRENT

    def mean(name: str) -> float:
        found = [
            r["metrics"]["cost_total"]
            for r in rows
            if r["algorithm"] == name and not r.get("error")
        ]
        return float(np.mean(found)) if found else np.inf

    costs = {m: mean(m) for m in models}
    best = min(costs, key=costs.__getitem__)
    if not np.isfinite(costs[best]):
        return ""
    said = f"{best} costs {costs[best]:,.0f} per fold"
    today = mean(CURRENT)
    if current is not None and np.isfinite(today):
        gain = today - costs[best]
        said += (
            f", {abs(gain):,.0f} {'less' if gain >= 0 else 'more'} than the current "
            f"decision ({current})"
        )
    others = sorted(v for m, v in costs.items() if m != best and np.isfinite(v))
    if others:
        said += f"; the next model costs {others[0]:,.0f}"
    return said + "."


def _new_folder(name: str) -> Path:
    """Refuse an existing ``--report`` folder before any fit."""
    folder = Path(name)
    if folder.exists():
        raise UsageError(f"--report {name}: exists; name a new folder")
    if not folder.absolute().parent.is_dir():
        raise UsageError(f"--report {name}: its parent folder does not exist")
    return folder


def write_page(
    args: argparse.Namespace,
    given: Any,
    data: Any,
    rows: list[dict[str, Any]],
    table: list[list[str]],
    folder: Path,
    limits: list[list[Any]],
    columns: dict[str, Any],
) -> None:
    """Save the evaluation and its report in ``folder``, whole or not at all."""
    import platform
    import shutil
    import tempfile

    import costsense
    from costsense.decision import ActionCosts
    from costsense.experiments import (
        pooled_probabilities,
        save_evaluation,
        write_evaluation_report,
    )

    costs = given.costs
    if given.actions is not None:
        cost_table, names = given.actions.table, list(given.actions.actions)
    else:
        cost_table = ActionCosts(costs.decision_matrices, costs.classes).table
        names = [_json(c) for c in costs.classes]
    from costsense.decision import no_action

    arrays: dict[str, Any] = {"y": data.y, "table": cost_table}
    for model, (index, proba) in pooled_probabilities(rows).items():
        arrays[f"index/{model}"], arrays[f"proba/{model}"] = index, proba
    extra = _side_columns(args, len(data.y))
    arrays.update(extra)
    if "--per" in columns:
        arrays["per"] = columns["--per"]
    if args.current_decision:
        arrays["current"] = _side_columns(args, len(data.y), [args.current_decision])[
            f"segment/{args.current_decision}"
        ]
    meta = {
        "models": [m.strip() for m in args.model.split(",") if m.strip()],
        "classes": [_json(c) for c in costs.classes],
        "actions": names,
        "default": _json(no_action(given.actions or costs)),
        "pos_label": _json(costs.pos_label),
        "class_costs": given.actions is None and not costs.example_dependent,
        "fold_table": table,
        "summary": [f"{data.source}: {len(data.y)} rows; costs: {given.describe}"],
        "run": [
            f"costsense {costsense.__version__}, Python {platform.python_version()}",
            "command: `costsense " + " ".join(sys.argv[1:]) + "`",
        ],
        "segments": [k.split("/", 1)[1] for k in extra if k.startswith("segment/")],
        "id_column": args.id_column,
        "current": args.current_decision,
        "capacity_share": _share(args, len(data.y)),
        "limits": limits,
        "folds": _fold_rows(rows),
        "capacity": args.capacity
        and ", ".join(
            f"{k}" if a is None else f"{a}={k}" for a, k in args.capacity.items()
        ),
    }
    work = Path(tempfile.mkdtemp(prefix=".report-", dir=folder.absolute().parent))
    try:
        save_evaluation(work, meta, arrays)
        write_evaluation_report(work)
        work.rename(folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    print(f"report written to {folder / 'report.html'}", file=sys.stderr)


def _fold_rows(rows: list[dict[str, Any]]) -> list[list[Any]]:
    """Return each fold's row for the report: its money, or its error."""
    keys = [
        k
        for k in ("cost_total", "savings", "gain_over_current")
        if any(k in r.get("metrics", {}) for r in rows)
    ]
    table: list[list[Any]] = [["model", "fold", "test rows", *keys, "error"]]
    for r in rows:
        found = r.get("metrics", {})
        table.append(
            [r["algorithm"], r["fold"], r.get("n_test", "")]
            + [float(found[k]) if k in found else "" for k in keys]
            + [r.get("error", "")]
        )
    return table


def _share(args: argparse.Namespace, n: int) -> float | None:
    """Return the share of each period's rows the stated capacity allows."""
    if not args.capacity or len(args.capacity) != 1:
        return None
    limit = str(next(iter(args.capacity.values())))
    if limit.endswith("%"):
        return float(limit[:-1]) / 100
    periods = 1
    if args.per:
        periods = len(set(_side_columns(args, n, [args.per])[f"segment/{args.per}"]))
    return min(1.0, int(limit) * periods / n)


def _json(value: Any) -> Any:
    """Return a label as a JSON value (a numpy scalar as its Python one)."""
    return value.item() if hasattr(value, "item") else value


def _side_columns(
    args: argparse.Namespace, n: int, names: list[str] | None = None
) -> dict[str, Any]:
    """Read ``--segment`` and ``--id-column`` columns of ``--csv`` for the report."""
    import pandas as pd

    asked = (
        names
        if names is not None
        else [s.strip() for s in (args.segment or "").split(",") if s.strip()]
        + [args.id_column] * bool(args.id_column)
    )
    if not asked or args.csv is None:
        return {}
    try:
        found = pd.read_csv(
            args.csv,
            sep=args.sep or ",",
            usecols=asked,
            encoding=args.encoding or "utf-8",
        )
    except ValueError as error:
        raise UsageError(f"--segment/--id-column: {error}") from None
    if len(found) != n:
        raise UsageError(
            "--segment/--id-column: rows with missing values were dropped; "
            "give --missing impute or clean the file"
        )
    out = {f"segment/{c}": found[c].to_numpy() for c in asked if c != args.id_column}
    if args.id_column and names is None:
        out["ids"] = found[args.id_column].astype(str).to_numpy()
    return out


def _capacity(limits: Any, given: Any) -> dict[Any, Any] | None:
    """Name the action of a bare ``--capacity K`` (two classes: the positive)."""
    if limits is None or None not in limits:
        return limits
    if given.actions is not None or given.costs.pos_label is None:
        raise UsageError(
            f"--capacity {limits[None]}: name the capacitated action or label, "
            "such as review=200 (a bare count is for two classes)"
        )
    return {given.costs.pos_label: limits[None]}


def report_decisions(
    args: argparse.Namespace,
    given: Any,
    y: Any,
    rows: list[dict[str, Any]],
    capacity: dict[Any, Any] | None,
    columns: dict[str, Any],
    curve_file: Path | None,
) -> None:
    """Print the decision report below the table; the curve also to ``curve_file``."""
    import warnings

    from costsense.decision import decision_report
    from costsense.experiments import pooled_probabilities

    costs = given.actions if given.actions is not None else given.costs
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = decision_report(
            pooled_probabilities(rows),
            y,
            costs,
            capacity=capacity,
            per=columns.get("--per"),
        )
    if not report.savings:
        return
    per = f" per {args.per}" if args.per else ""
    limits = ", ".join(f"{a}={k}" for a, k in (capacity or {}).items())
    within = f" within capacity {limits}{per}" if capacity else ""
    level = report.savings[report.best or ""].level
    print(
        f"\ndecisions re-made over the out-of-fold probabilities{within}\n"
        "(each model's test rows pooled, no refit): saving over "
        f"{_baseline(report.default)},\n{level:.0%} interval by bootstrap over the "
        "test rows, "
        "stratified by class:"
    )
    table = [["model", "rows", "saving", "interval", "share", "interval"]]
    for model, found in report.savings.items():
        table.append(
            [model[:24], str(report.rows[model]), f"{found.saving:.1f}"]
            + [f"{found.low:.1f} to {found.high:.1f}", f"{found.share:.1%}"]
            + [f"{found.share_low:.1%} to {found.share_high:.1%}"]
        )
    print_table(table)
    if report.curves:
        print(f"\nsaving at capacity (share of each period's rows acted on{per}):")
        first = next(iter(report.curves.values()))
        shares = [f"{point['share']:.0%}" for point in first]
        curve = [["model", *shares]] + [
            [model[:24], *(f"{point['saving']:.1f}" for point in points)]
            for model, points in report.curves.items()
        ]
        print_table(curve)
        if curve_file is not None:
            with curve_file.open("x", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(["model", "share", "acted", "saving", "saving_share"])
                for model, points in report.curves.items():
                    for point in points:
                        keys = ("share", "acted", "saving", "saving_share")
                        writer.writerow([model, *(point[k] for k in keys)])
            print(f"capacity curve saved to {curve_file}", file=sys.stderr)
    print(
        f"\nsensitivity of {report.best}'s saving to each cost part scaled:\n"
        "the decision kept, re-made at the scaled costs, the rows whose action changes"
    )
    table = [["part", "factor", "saving", "re-decided", "changed"]]
    for line in report.sensitivity:
        table.append(
            [str(line["part"]), f"{line['factor']:g}", f"{line['saving']:.1f}"]
            + [f"{line['saving_redecided']:.1f}", f"{line['changed']:.1%}"]
        )
    print_table(table)
    print("\ncalibration (cost of the Bayes decision, as given vs recalibrated):")
    for model, check in report.calibration.items():
        print(
            f"  {model}: {check.cost_as_given:.1f} vs {check.cost_recalibrated:.1f}, "
            f"difference {check.difference:.1f} ({check.low:.1f} to {check.high:.1f})"
        )
    for warning in caught:
        said = f"{warning.category.__name__}: {warning.message}"
        print(textwrap.fill(said, 100, subsequent_indent="  "), file=sys.stderr)


def _baseline(default: Any) -> str:
    """Name the policy the report's savings are measured against."""
    return (
        "the best single action"
        if default is None
        else f"deciding {default!r} for every row"
    )


#: The evaluate options naming a column that is not a feature.
COLUMN_OPTIONS = ("--time-column", "--current-decision", "--per")


def take_columns(args: argparse.Namespace, data: Any) -> dict[str, Any]:
    """Take the columns of :data:`COLUMN_OPTIONS` out of the features.

    Each is read as the table reader reads a feature (numbers, dates, text),
    then removed from ``data.X`` and its encoder; returns ``{option: values}``.
    """
    from costsense.utils._reading import make_encoder

    asked = {o: getattr(args, o[2:].replace("-", "_"), None) for o in COLUMN_OPTIONS}
    asked = {option: name for option, name in asked.items() if name is not None}
    if not asked:
        return {}
    if args.dataset is not None:
        raise UsageError(
            f"{', '.join(asked)} name columns of --csv; a KEEL set (--dataset) "
            "has no such column"
        )
    features = list(data.kinds)
    unknown = [f"{o} {n!r}" for o, n in asked.items() if n not in features]
    if unknown:
        raise UsageError(
            f"{', '.join(unknown)}: not a column of --csv besides the target and "
            f"--drop/--id-column; the feature columns are {features[:20]}"
        )
    found = {o: data.X[n].to_numpy() for o, n in asked.items()}
    kept = [c for c in features if c not in asked.values()]
    if not kept:
        raise UsageError(f"{', '.join(asked)}: no feature column is left")
    data.X = data.X[kept]
    data.kinds = {c: data.kinds[c] for c in kept}
    marks = {c: m for c, m in data.number_marks.items() if c not in asked.values()}
    data.encoder = make_encoder(data.kinds, args.missing, marks, data.parts)
    return found


def _periods(time: Any, train: Any, test: Any) -> tuple[str, str]:
    """Name a forward-chaining fold: its last training period, its test periods."""
    shown = [str(np.unique(time[part])[i]) for part, i in ((train, -1), (test, 0))]
    last = str(np.unique(time[test])[-1])
    return shown[0], shown[1] if last == shown[1] else f"{shown[1]} to {last}"


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


def _say_what_runs(
    args: argparse.Namespace, data: Any, costs: str, periods: list[Any] | None
) -> None:
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
        f"{args.folds}-fold "
        + ("stratified CV" if periods is None else "forward chaining")
        + f", {bases}, seed {args.seed}"
    )
    for fold, (until, tested) in enumerate(periods or []):
        print(
            f"fold {fold}: forward-chaining over {args.time_column}: trained up to "
            f"{until}, tested on {tested}"
        )
    describe_columns(data)


def _notes(name: str, base: str | None, actions: bool) -> list[str]:
    """Say what a model does with ``--base`` and the costs, for its row."""
    spec = CATALOG[name]
    ignores = not spec.uses_base and base is not None
    blind = (
        "its probabilities decide the actions" if actions else "decides by its labels"
    )
    return ["ignores --base (no base learner)"] * ignores + [f"cost-blind: {blind}"] * (
        not spec.cost_sensitive
    )


def _base_shown(model: str, base: str | None) -> str:
    """Name the base learner a model's row ran on ("-": it uses none)."""
    if model not in CATALOG or not CATALOG[model].uses_base:
        return "-"
    return base if base is not None else default_base(model)
