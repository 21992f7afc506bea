"""The report's account of how the fits ended: stopping, convergence, degeneracy.

Built from the ``diagnostics`` column of the results (one dict per cell, see
:mod:`costsense.experiments._diagnostics`). Two tables: per algorithm, how its fits
ended (rounds kept, early stops, rounds with alpha <= 0 kept, solver convergence,
constant models); and every (algorithm, dataset, cost) with degenerate fits, and
why. When some algorithms keep rounds with alpha <= 0 while others stop at the
first one, :func:`stopping_note` says so, since their comparison then compares
two stopping rules.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import sort_rows
from costsense.experiments._report._blocks import Block, Cell, Heading, Paragraph, Table

__all__ = ["fit_blocks", "stopping_note"]


def _diagnostics(results: pd.DataFrame) -> pd.DataFrame | None:
    """Return one row per cell with its diagnostics, or None when unrecorded."""
    if "diagnostics" not in results.columns:
        return None
    recorded = results[results["diagnostics"].map(lambda d: bool(d))]
    if recorded.empty:
        return None
    frame = pd.DataFrame(list(recorded["diagnostics"]), index=recorded.index)
    frame.insert(0, "algorithm", recorded["algorithm"].astype(str))
    frame.insert(1, "dataset", recorded["dataset"].astype(str))
    frame.insert(2, "cost", recorded["cost"].astype(str))
    frame["reasons"] = [degenerate_reasons(d) for d in recorded["diagnostics"]]
    return frame


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    return frame[name] if name in frame.columns else pd.Series(np.nan, frame.index)


def _stopped_at_alpha(frame: pd.DataFrame) -> pd.Series:
    reasons = _column(frame, "stop_reason").fillna("").astype(str)
    return reasons.str.contains("alpha")


def stopping_note(results: pd.DataFrame) -> str:
    """Say which algorithms keep rounds with alpha <= 0 and which stop at one.

    Parameters
    ----------
    results : DataFrame
        Results with a ``diagnostics`` column.

    Returns
    -------
    str
        Empty when the algorithms share their stopping rule (or nothing is
        recorded).
    """
    frame = _diagnostics(results)
    if frame is None:
        return ""
    keeping, stopping = [], []
    for name, cells in frame.groupby("algorithm", sort=False):
        kept = int((_column(cells, "nonpositive_alpha").fillna(0) > 0).sum())
        stopped = int(_stopped_at_alpha(cells).sum())
        if kept:
            keeping.append(f"{name} ({kept} of {len(cells)} cells)")
        if stopped:
            stopping.append(f"{name} ({stopped} of {len(cells)})")
    if not keeping or not stopping:
        return ""
    return (
        "Unequal stopping rules: "
        + ", ".join(keeping)
        + " kept rounds with alpha <= 0 and went on boosting, while "
        + ", ".join(stopping)
        + " stopped at their first round with alpha <= 0 (scikit-learn's rule). "
        "A comparison between the two groups compares two stopping rules as well "
        "as two weightings."
    )


def _fits_table(frame: pd.DataFrame, order: list[str]) -> Table:
    rows = []
    for name in order:
        cells = frame[frame["algorithm"] == name]
        if cells.empty:
            continue
        rounds = _column(cells, "rounds").dropna()
        planned = _column(cells, "rounds_planned").dropna()
        if rounds.empty:
            kept = "-"
        else:
            kept = f"{np.median(rounds):g} (min {rounds.min():g})"
            if not planned.empty:
                kept += f" of {planned.max():g}"
        early = "-"
        if not rounds.empty and not planned.empty:
            short = _column(cells, "rounds") < _column(cells, "rounds_planned")
            early = str(int(short.sum()))
        nonpositive = _column(cells, "nonpositive_alpha").dropna()
        converged = _column(cells, "converged").dropna()
        rows.append(
            [
                Cell(name),
                Cell(str(len(cells))),
                Cell(kept),
                Cell(early),
                Cell(
                    f"{int((nonpositive > 0).sum())} (mean {nonpositive.mean():.1f})"
                    if not nonpositive.empty
                    else "-"
                ),
                Cell(
                    str(int((~converged.astype(bool)).sum()))
                    if not converged.empty
                    else "-"
                ),
                Cell(
                    str(
                        int(_column(cells, "constant").fillna(False).astype(bool).sum())
                    )
                ),
            ]
        )
    return Table(
        [
            "algorithm",
            "cells",
            "rounds kept: median (min) of planned",
            "stopped early",
            "cells keeping alpha <= 0 rounds (mean count)",
            "solver not converged",
            "one class predicted",
        ],
        rows,
    )


def _degenerate_table(frame: pd.DataFrame, order: list[str]) -> Table | None:
    rows: list[list[Cell]] = []
    bad = frame[frame["reasons"].map(bool)]
    if bad.empty:
        return None
    for name in order:
        mine = bad[bad["algorithm"] == name]
        every = frame[frame["algorithm"] == name]
        settings = {(d, c) for d, c in mine[["dataset", "cost"]].itertuples(False)}
        for dataset, cost in sort_rows(settings):
            here = mine[(mine["dataset"] == dataset) & (mine["cost"] == cost)]
            n = int(((every["dataset"] == dataset) & (every["cost"] == cost)).sum())
            reasons: dict[str, int] = {}
            for found in here["reasons"]:
                for reason in found:
                    reasons[reason] = reasons.get(reason, 0) + 1
            why = ", ".join(f"{r} ({k})" for r, k in reasons.items())
            stops = _column(here, "stop_reason").dropna().astype(str)
            example = f"; e.g. {stops.iloc[0]}" if not stops.empty else ""
            rows.append(
                [
                    Cell(name),
                    Cell(dataset),
                    Cell(cost),
                    Cell(f"{len(here)} of {n}"),
                    Cell(why + example),
                ]
            )
    return Table(["algorithm", "dataset", "cost", "cells", "why"], rows)


def fit_blocks(results: pd.DataFrame, order: list[str]) -> list[Block]:
    """Return the report's "How the fits ended" section (empty if unrecorded).

    Parameters
    ----------
    results : DataFrame
        Results with a ``diagnostics`` column.
    order : list of str
        Algorithms in table order.

    Returns
    -------
    list of Block
    """
    frame = _diagnostics(results)
    if frame is None:
        return []
    blocks: list[Block] = [
        Heading("How the fits ended", 2),
        Paragraph(
            "Per algorithm over all its cells: boosting rounds kept, fits that "
            "stopped before the planned rounds, fits that kept rounds with "
            "alpha <= 0, solvers that stopped at their iteration limit, and models "
            "that predicted one class on the whole test part."
        ),
        _fits_table(frame, order),
    ]
    note = stopping_note(results)
    if note:
        blocks.append(Paragraph(note))
    table = _degenerate_table(frame, order)
    blocks.append(Heading("Degenerate fits", 3))
    if table is None:
        blocks.append(
            Paragraph(
                "None: every fit kept more than one round, "
                "converged and predicted both classes."
            )
        )
    else:
        blocks.append(
            Paragraph(
                "Fits whose numbers say little about the method: a model that "
                "predicts one class, a booster that kept no round (its constant "
                "rule) or one round of several, a solver that did not converge. "
                "Claims resting on them are flagged in the claims table."
            )
        )
        blocks.append(table)
    return blocks
