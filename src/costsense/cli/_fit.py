"""``costsense fit``: fit a named model on a table and save it for ``predict``."""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from datetime import UTC, datetime
from typing import Any

import numpy as np

from costsense import __version__
from costsense._base import learns_row_costs
from costsense.cli._data import (
    describe_columns,
    read_data,
    resolve_costs,
)
from costsense.cli._model_io import FORMAT, action_columns, action_metadata
from costsense.cli._options import UsageError
from costsense.cli._output import new_output
from costsense.cli._preflight import preflight
from costsense.cli._progress import heartbeat
from costsense.experiments import CATALOG, default_base
from costsense.persist import read_key, save_model
from costsense.utils._tables import part_columns


def run_fit(args: argparse.Namespace) -> int:
    from costsense.experiments import WarningTally, collect_warnings, make_model

    output = new_output(
        args.out, "--out", args.csv, args.cost_matrix, args.action_costs
    )
    signer = args.sign_key_file
    key = read_key(signer, "--sign-key-file") if signer else None
    data = read_data(args)
    given = resolve_costs(args, data)
    costs = given.costs
    preflight(
        [args.model],
        args.base,
        data,
        missing=args.missing,
        row_costs=costs.example_dependent,
    )
    spec = CATALOG[args.model]
    base = args.base or default_base(args.model)
    model = make_model(
        args.model,
        base=base,
        cost=costs.mean_matrix,  # the rows' mean for per-row costs
        seed=args.seed,
        pos_label=costs.pos_label,
        prepare=data.encoder,
    )
    print(
        f"{data.source}: {data.y.shape[0]} rows, {len(data.kinds)} feature "
        f"columns; {given.describe}; model {args.model}"
        + (f" on {base}" if spec.uses_base else ""),
        file=sys.stderr,
    )
    describe_columns(data, sys.stderr)
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
        else heartbeat(f"fitting {args.model} on {data.y.shape[0]:,} rows")
    )
    per_row = (
        {"model__sample_cost": costs}
        if costs.example_dependent and learns_row_costs(model[-1])
        else {}
    )
    if per_row:
        model.set_params(model__cost=None)  # the rows' own costs replace it
    with collect_warnings() as caught, beat:
        model.fit(data.X, data.y, **per_row)
    if talks:
        model[-1].set_params(verbose=0)
    tally.add(args.model, caught)
    classes = np.asarray(model.classes_).tolist()  # Python labels, for JSON
    actions = action_metadata(given.actions, classes)
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
        "columns": data.kinds,
        "ignored": data.ignored,
        "id_column": data.id_column,
        "number_marks": data.number_marks,
        "missing": args.missing,
        "classes": classes,
        "pos_label": np.asarray(costs.pos_label).item(),
        "class_counts": np.unique(data.y, return_counts=True)[1].tolist(),
        "actions": actions,
        "cost": {
            "kind": given.kind,
            "matrix": costs.mean_matrix.tolist(),
            "parts": given.parts,
            "columns": part_columns(given.parts) + action_columns(actions),
            "columns_are_features": bool(data.cost_features),
        },
    }
    try:
        save_model(model, output, metadata=metadata, key=key)
    except UsageError as error:
        raise UsageError(f"--out {error}") from None
    for line in tally.lines():
        print(f"warning: {line}", file=sys.stderr)
    from costsense.recommend import choice_text

    choice = choice_text(model[-1])  # what a model choosing among options chose
    if choice is not None and not talks:  # a model that talks has said it
        print(choice, file=sys.stderr)
    print(f"model saved to {output}", file=sys.stderr)
    return 0
