"""Checks made once before any fit, so a run fails in one line, not in every fold.

What the catalog says cannot run, ``--missing keep`` for a model that cannot take
missing values, and a table whose encoded form cannot fit in memory are usage
errors naming the model or the columns, and the fix.
"""

from __future__ import annotations

import numpy as np

from costsense.cli._options import UsageError
from costsense.datasets import Table

#: Copies of the encoded matrix a fit holds at once (the table, the model's float
#: copy, a fold's split, a resampled copy): a rough upper estimate.
WORKING_COPIES = 4


def preflight(
    models: list[str],
    base: str | None,
    data: Table,
    *,
    missing: str,
    row_costs: bool,
    jobs: int = 1,
    scored: bool = False,
) -> None:
    """Refuse, before any fit, what would fail in every fit."""
    from costsense.experiments import refusals

    classes = np.unique(data.y)
    problems = refusals(
        models, base, n_classes=classes.size, row_costs=row_costs, scored=scored
    )
    if problems:
        raise UsageError("; ".join(f"{option}: {text}" for option, text in problems))
    if missing == "keep":
        _refuse_missing_kept(models, base, data, classes)
    refuse_oversized(data, jobs=jobs)


def _refuse_missing_kept(
    models: list[str], base: str | None, data: Table, classes: np.ndarray
) -> None:
    """Refuse ``--missing keep`` for models whose tags say they reject NaN."""
    import pandas as pd
    from sklearn.utils import get_tags

    from costsense.experiments import default_base, make_model

    frame = pd.DataFrame(data.X)
    holes = [str(c) for c in frame.columns if frame[c].isna().any()]
    if not holes:
        return
    cost = np.ones((classes.size, classes.size)) - np.eye(classes.size)
    refusing = []
    for name in models:
        model = make_model(
            name,
            base=base or default_base(name),
            cost=cost,
            pos_label=classes[-1],
            seed=0,
            prepare=None,
        )
        last = model[-1] if hasattr(model, "steps") else model
        if not get_tags(last).input_tags.allow_nan:
            refusing.append(name)
    if refusing:
        raise UsageError(
            f"--missing keep: {', '.join(refusing)} cannot take missing values "
            f"(columns {holes[:10]} have some); choose --missing impute or --missing "
            "drop, or a model that takes them (random-forest, "
            "balanced-random-forest)"
        )


def encoded_width(data: Table) -> dict[str, int]:
    """Each feature column's encoded columns (a category: one per category)."""
    from costsense.utils._dates import PARTS

    def width(name: str, kind: str) -> int:
        if kind != "categorical":
            return len(PARTS) if kind == "date-time" else 1
        return int(data.X[name].nunique()) + int(data.X[name].isna().any())

    return {name: width(name, kind) for name, kind in data.kinds.items()}


def refuse_oversized(
    data: Table, *, jobs: int = 1, available: int | None = None
) -> None:
    """Refuse a table whose encoded copies would not fit in memory, naming the fix.

    ``available`` bytes default to the machine's memory (``check_allocation``).
    """
    from costsense.exceptions import MemoryBudgetError
    from costsense.utils._memory import check_allocation

    if not data.kinds:
        return
    widths = encoded_width(data)
    widest = sorted(widths.items(), key=lambda item: -item[1])[:3]
    named = ", ".join(f"{name!r} ({width} columns)" for name, width in widest)
    shape = (np.shape(data.X)[0], sum(widths.values()), WORKING_COPIES * jobs)
    try:
        check_allocation(
            shape,
            owner="the encoded table (rows x columns x copies)",
            what="fitting",
            fix=f"The widest columns are {named}: --drop them, lower "
            "--max-categories, use fewer --jobs or a sample of the rows",
            budget=available,
        )
    except MemoryBudgetError as error:
        raise UsageError(str(error)) from None
