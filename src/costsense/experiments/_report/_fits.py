"""The section read from the fits' diagnostics: how the fits ended.

Built from the ``diagnostics`` column of the results (one dict per cell, see
:mod:`costsense.experiments._diagnostics`), whatever the study: a section is shown
when some cell recorded what it reads. "How the fits ended" tabulates per
algorithm the rounds kept, early stops, rounds with alpha <= 0 kept, solver
convergence and constant models, then every degenerate setting and why. Change
it when the diagnostics recorded change.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import sort_rows
from costsense.experiments._report._blocks import Block, Heading, Paragraph, plain_table

__all__ = ["fit_blocks", "stopping_note"]

#: The diagnostics the fits table reads (absent ones read as NaN).
_READ = ["rounds", "rounds_planned", "nonpositive_alpha", "converged", "constant"]


def _diagnostics(results: pd.DataFrame) -> pd.DataFrame | None:
    """Return one row per cell with its diagnostics, or None when unrecorded."""
    if "diagnostics" not in results.columns:
        return None
    recorded = results[results["diagnostics"].map(bool)]
    if recorded.empty:
        return None
    frame = pd.DataFrame(list(recorded["diagnostics"]), index=recorded.index)
    frame = frame.reindex(
        columns=list(dict.fromkeys([*frame.columns, *_READ, "stop_reason"]))
    )
    for k, key in enumerate(("algorithm", "dataset", "cost")):
        frame.insert(k, key, recorded[key].astype(str))
    frame["reasons"] = [degenerate_reasons(d) for d in recorded["diagnostics"]]
    return frame


def stopping_note(results: pd.DataFrame) -> str:
    """Say which algorithms keep rounds with alpha <= 0 and which stop at one.

    Empty when the algorithms share their stopping rule (or nothing is recorded).
    """
    frame = _diagnostics(results)
    if frame is None:
        return ""
    keeping, stopping = [], []
    for name, cells in frame.groupby("algorithm", sort=False):
        kept = int((cells["nonpositive_alpha"].fillna(0) > 0).sum())
        stopped = int(
            cells["stop_reason"].fillna("").astype(str).str.contains("alpha").sum()
        )
        keeping += [f"{name} ({kept} of {len(cells)} cells)"] if kept else []
        stopping += [f"{name} ({stopped} of {len(cells)})"] if stopped else []
    if not keeping or not stopping:
        return ""
    return (
        f"Unequal stopping rules: {', '.join(keeping)} kept rounds with alpha <= 0 "
        f"and went on boosting, while {', '.join(stopping)} stopped at their first "
        "round with alpha <= 0 (scikit-learn's rule). A comparison between the two "
        "groups compares two stopping rules as well as two weightings."
    )


def _fits_row(name: str, cells: pd.DataFrame) -> list[str]:
    rounds, planned = cells["rounds"].dropna(), cells["rounds_planned"].dropna()
    kept = early = "-"
    if not rounds.empty:
        kept = f"{np.median(rounds):g} (min {rounds.min():g})"
        if not planned.empty:
            kept += f" of {planned.max():g}"
            early = str(int((cells["rounds"] < cells["rounds_planned"]).sum()))
    nonpositive, converged = (
        cells["nonpositive_alpha"].dropna(),
        cells["converged"].dropna(),
    )
    return [
        name,
        str(len(cells)),
        kept,
        early,
        f"{int((nonpositive > 0).sum())} (mean {nonpositive.mean():.1f})"
        if not nonpositive.empty
        else "-",
        str(int((~converged.astype(bool)).sum())) if not converged.empty else "-",
        str(int(cells["constant"].fillna(False).astype(bool).sum())),
    ]


def _degenerate_rows(frame: pd.DataFrame, order: list[str]) -> list[list[str]]:
    """One row per (algorithm, dataset, cost) with degenerate fits: how many, why."""
    rows = []
    for name in order:
        every = frame[frame["algorithm"] == name]
        mine = every[every["reasons"].map(bool)]
        for dataset, cost in sort_rows(
            set(zip(mine["dataset"], mine["cost"], strict=True))
        ):
            here = mine[(mine["dataset"] == dataset) & (mine["cost"] == cost)]
            n = int(((every["dataset"] == dataset) & (every["cost"] == cost)).sum())
            reasons = Counter(r for found in here["reasons"] for r in found)
            why = ", ".join(f"{r} ({k})" for r, k in reasons.items())
            stops = here["stop_reason"].dropna().astype(str)
            why += f"; e.g. {stops.iloc[0]}" if not stops.empty else ""
            rows.append([name, dataset, cost, f"{len(here)} of {n}", why])
    return rows


def fit_blocks(results: pd.DataFrame, order: list[str]) -> list[Block]:
    """Return the "How the fits ended" section (empty without diagnostics)."""
    frame = _diagnostics(results)
    if frame is None:
        return []
    fits = [
        _fits_row(name, frame[frame["algorithm"] == name])
        for name in order
        if (frame["algorithm"] == name).any()
    ]
    header = ["algorithm", "cells", "rounds kept: median (min) of planned"]
    header += ["stopped early", "cells keeping alpha <= 0 rounds (mean count)"]
    header += ["solver not converged", "one class predicted"]
    note = stopping_note(results)
    degenerate = _degenerate_rows(frame, order)
    return [
        Heading("How the fits ended", 2),
        Paragraph(
            "Per algorithm over all its cells: boosting rounds kept, fits that "
            "stopped before the planned rounds, fits that kept rounds with "
            "alpha <= 0, solvers that stopped at their iteration limit, and models "
            "that predicted one class on the whole test part."
        ),
        plain_table(header, fits),
        *([Paragraph(note)] if note else []),
        Heading("Degenerate fits", 3),
        Paragraph(
            "Fits whose numbers say little about the method: a model that "
            "predicts one class, a booster that kept no round (its constant "
            "rule) or one round of several, a solver that did not converge. "
            "Claims resting on them are flagged in the claims table."
            if degenerate
            else "None: every fit kept more than one round, "
            "converged and predicted both classes."
        ),
        *(
            [plain_table(["algorithm", "dataset", "cost", "cells", "why"], degenerate)]
            if degenerate
            else []
        ),
    ]
