"""``costsense fit`` and ``costsense predict``: a model saved with skops, applied later.

The model file holds the fitted pipeline (column encoder, scaling, model) and its
metadata (costsense version, the feature columns and their kinds, the classes, the
costs, the training date) as JSON, optionally signed under a user's key.
:func:`load_model` reads it in three stages, and nothing in the file runs code:
:mod:`costsense.cli._model_file` checks the archive, the signature and every node
of the schema against an exact list of types before skops constructs anything;
:mod:`costsense.cli._model_checks` checks the metadata alone, then the constructed
pipeline against it (the same model, parameters, classes and columns; tree indices
in range) before it predicts.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from costsense import __version__
from costsense.cli._common import (
    CommandCosts,
    UsageError,
    describe_columns,
    new_output,
    part_columns,
    read_data,
    resolve_costs,
)
from costsense.cli._evaluate import check_models
from costsense.cli._model_checks import check_metadata, check_model, model_cost
from costsense.cli._model_file import (
    DEFAULT_MAX_BYTES,
    read_key,
    read_model_file,
    write_model_file,
)
from costsense.cli._preflight import preflight
from costsense.cli._progress import Heartbeat
from costsense.experiments import CATALOG, default_base

__all__ = ["choice_line", "load_model", "run_fit", "save_model"]

#: The metadata format written by this version.
FORMAT = "costsense-model/2"
#: The format before the four cost parts: a cost column (the false-negative cost,
#: never a feature) and a constant false-positive cost; read as parts.
FORMAT_1 = "costsense-model/1"


def save_model(
    model: Any, metadata: dict[str, Any], path: Path, key: bytes | None = None
) -> None:
    """Write a fitted model and its metadata to a new skops file (signed if keyed)."""
    write_model_file(model, metadata, path, key)


def load_model(
    path: str, *, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Any, dict[str, Any]]:
    """Load a model file written by ``costsense fit``: (pipeline, metadata).

    Parameters
    ----------
    path : str
        The model file.
    key : bytes, optional
        Refuse the file unless it is signed under this key.
    max_bytes : int
        Refuse a larger file.

    Raises
    ------
    UsageError
        The file is missing, too large, not a costsense model, unsigned or
        signed under another key, holds a type no ``costsense fit`` model holds
        (named), declares arrays it does not hold, or its metadata does not
        describe its model (the field named).
    """
    model, metadata, _ = _load(path, key, max_bytes)
    return model, metadata


def _load(
    path: str, key: bytes | None, max_bytes: int
) -> tuple[Any, dict[str, Any], bool]:
    """:func:`load_model`, and whether the file is signed."""
    stored = read_model_file(path, key=key, max_bytes=max_bytes)
    if stored.metadata.get("format") == FORMAT_1:
        _upgrade(stored.metadata)
    check_metadata(stored.metadata, path, FORMAT)
    try:
        model = stored.construct(path)
        check_model(model, stored.metadata, path)
    except UsageError as error:
        written = stored.metadata["costsense_version"]
        if written == __version__:
            raise
        # another version's classes or defaults differ: say so, and the fix
        raise UsageError(
            f"{error} (the file was written by costsense {written[:40]}, this is "
            f"{__version__}: fit the model again with this version)"
        ) from None
    return model, stored.metadata, stored.signed


def _upgrade(metadata: dict[str, Any]) -> None:
    """Read a format-1 file's costs as parts (in place): same model, same costs."""
    cost = metadata.get("cost")
    if isinstance(cost, dict) and "parts" not in cost:
        column = cost.pop("column", None)
        fp_cost = cost.pop("fp_cost", None)
        if column is not None:
            cost["kind"] = "parts"
            cost["parts"] = {"fp": fp_cost, "fn": column, "tp": 0.0, "tn": 0.0}
        else:
            cost["parts"] = None
        cost["columns"] = [] if column is None else [column]
        cost["columns_are_features"] = False
    metadata["format"] = FORMAT


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
