"""``costsense fit``: fit a named model on a table and save it with its metadata.

The file is written by :mod:`costsense.cli._model_io`, which ``costsense
predict`` reads it back through.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from datetime import UTC, datetime
from typing import Any

import numpy as np

from costsense import __version__
from costsense.cli._cost_options import part_columns
from costsense.cli._costs import CommandCosts, resolve_costs
from costsense.cli._data import describe_columns, read_data
from costsense.cli._model_checks import model_cost
from costsense.cli._model_file import (
    read_key,
)
from costsense.cli._model_io import FORMAT, save_model
from costsense.cli._models import check_models
from costsense.cli._output import new_output
from costsense.cli._preflight import preflight
from costsense.cli._progress import Heartbeat
from costsense.experiments import CATALOG, default_base

__all__ = ["choice_line", "run_fit"]


def cost_metadata(given: CommandCosts, data: Any) -> dict[str, Any]:
    """Describe the costs for a model file's metadata (its ``cost`` field).

    ``kind`` and ``matrix`` (the class-level matrix the model is built with:
    :func:`costsense.cli._model_checks.model_cost` reads it back, for ``fit`` and
    for the check of a loaded file alike), ``parts`` (each of "fp", "fn", "tp",
    "tn" a number or a column name, or None for class-level costs), ``columns``
    (the cost columns) and ``columns_are_features``. For per-row costs the
    matrix is the mean of the rows' matrices (:attr:`Costs.mean_matrix`).
    """
    return {
        "kind": given.kind,
        "matrix": given.costs.mean_matrix.tolist(),
        "parts": given.parts,
        "columns": part_columns(given.parts),
        "columns_are_features": bool(data.cost_features),
    }


def run_fit(args: argparse.Namespace) -> int:
    """Run ``costsense fit``; the exit status."""
    from costsense.experiments import WarningTally, collect_warnings, make_model

    output = new_output(args.out, "--out", args.csv, args.cost_matrix)
    assert output is not None
    key = None
    if args.sign_key_file:
        key = read_key(args.sign_key_file, "--sign-key-file")
    data = read_data(args)
    given = resolve_costs(args, data)
    costs = given.costs
    check_models(
        [args.model],
        args.base,
        n_classes=np.unique(data.y).size,
        row_costs=costs.example_dependent,
    )
    preflight([args.model], args.base, data, missing=args.missing)
    spec = CATALOG[args.model]
    base = args.base or default_base(args.model)
    cost = cost_metadata(given, data)
    model = make_model(
        args.model,
        base=base,
        cost=model_cost(cost),
        pos_label=costs.pos_label,
        seed=args.seed,
        prepare=data.prepare,
    )
    print(
        f"{data.source}: {data.y.shape[0]} rows, {len(data.columns)} feature "
        f"columns; {given.describe}; model {args.model}"
        + (f" on {base}" if spec.uses_base else ""),
        file=sys.stderr,
    )
    columns_line = describe_columns(data)
    if columns_line:
        print(columns_line, file=sys.stderr)
    tally = WarningTally()
    # a model that can report its progress does so (on stderr); the setting is not
    # part of the model, so it is reset before the model is saved
    talks = "verbose" in model[-1].get_params(deep=False)
    if talks:
        model[-1].set_params(verbose=1)
    # a model that does not talk shows it is alive on a long fit
    beat: Any = (
        nullcontext()
        if talks
        else Heartbeat(f"fitting {args.model} on {data.y.shape[0]:,} rows")
    )
    with collect_warnings() as caught, beat:
        if costs.example_dependent:
            model.fit(data.X, data.y, model__sample_cost=costs)
        else:
            model.fit(data.X, data.y)
    if talks:
        model[-1].set_params(verbose=0)
    tally.add(args.model, caught)
    metadata = {
        "format": FORMAT,
        "costsense_version": __version__,
        "trained": datetime.now(UTC).isoformat(timespec="seconds"),
        "source": data.source,
        "rows": int(data.y.shape[0]),
        "model": args.model,
        "base": base if spec.uses_base else None,
        "seed": args.seed,
        "target": args.target,
        "columns": data.columns,
        "ignored": data.ignored,
        "id_column": data.id_column,
        "number_marks": data.number_marks,
        "missing": args.missing,
        "classes": [_plain(c) for c in model.classes_],
        "pos_label": _plain(costs.pos_label),
        "cost": cost,
    }
    save_model(model, metadata, output, key)
    for line in tally.lines():
        print(f"warning: {line}", file=sys.stderr)
    choice = choice_line(model[-1])
    if choice is not None and not talks:  # a model that talks has said it
        print(choice, file=sys.stderr)
    print(f"model saved to {output}", file=sys.stderr)
    return 0


def choice_line(model: Any) -> str | None:
    """Say what a model that chooses among options chose, beside the next option.

    :func:`costsense.recommend.choice_text` for a
    :class:`costsense.MinimumCostClassifier`; None for other models.
    """
    from costsense.recommend import choice_text

    return choice_text(model)


def _plain(value: Any) -> Any:
    """Turn a label into what JSON holds (numpy scalars become Python numbers)."""
    return value.item() if isinstance(value, np.generic) else value
