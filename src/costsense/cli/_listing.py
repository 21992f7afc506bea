"""``costsense datasets`` and ``costsense models``: what there is to run."""

from __future__ import annotations

import argparse
import sys

from costsense.cli._output import print_table
from costsense.experiments import BASE_NAMES, CATALOG, CLASSIFIER_BASES, DEFAULT_MODEL


def run_datasets(args: argparse.Namespace) -> int:
    import pandas as pd

    from costsense.datasets import list_keel

    table = list_keel(collection=args.collection)
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(table.to_string(index=False))
    print(f"\n{len(table)} sets", file=sys.stderr)
    return 0


def run_models(args: argparse.Namespace) -> int:
    rows = [
        ["model", "costs", "default base", "bases", "classes", "row costs", "source"]
    ]
    for spec in CATALOG.values():
        left_out = sorted(set(CLASSIFIER_BASES) - set(spec.bases))
        if not spec.uses_base:
            shown = "none (ignores --base)"
        elif not left_out:
            shown = "any classifier"
        elif len(left_out) < len(CLASSIFIER_BASES):
            shown = f"any classifier but {', '.join(left_out)}"
        else:
            shown = ", ".join(spec.bases)
        rows.append(
            [
                spec.name,
                "sensitive" if spec.cost_sensitive else "blind",
                spec.default_base or "-",
                shown,
                "K" if spec.multiclass else "2",
                "yes" if spec.row_costs else "no",
                spec.source + " [recommended, default]" * (spec.name == DEFAULT_MODEL),
            ]
        )
    print_table(rows)
    print(
        f"\n{DEFAULT_MODEL}: the model costsense recommends, what fit and evaluate "
        "run without --model. costs: blind = the costs do not shape the model (at "
        "most they name the positive class); classes: K = any number (with "
        "--cost-matrix); row costs: takes a cost column "
        "(--fn-cost, --fp-cost, --tp-cost or --tn-cost naming a column). "
        f"Bases: {', '.join(BASE_NAMES)}.",
    )
    return 0
