"""The sections read from the fits' diagnostics: how the fits ended, features kept.

Built from the ``diagnostics`` column of the results (one dict per cell, see
:mod:`costsense.experiments._diagnostics`), whatever the study: a section is shown
when some cell recorded what it reads. "How the fits ended" tabulates per
algorithm the rounds kept, early stops, rounds with alpha <= 0 kept, solver
convergence and constant models, then every degenerate setting and why.
"Features kept" reads ``features_kept`` and ``drop_round`` (models with per-round
feature selection) and, for datasets with appended noise columns, the round that
dropped each one. Change it when the diagnostics recorded change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import sort_rows
from costsense.experiments._report._blocks import Block, Cell, Heading, Paragraph, Table

__all__ = ["feature_blocks", "fit_blocks", "stopping_note"]

#: Paper 003: the appended noise feature "is filtered out before round 4".
_EARLY_ROUND = 4
#: Equation 14's updates (EFSBoost's ``feature_update``), as the report names them.
_UPDATES = {"literal": "printed (unweighted)", "weighted": "weighted (our deviation)"}


def _diagnostics(results: pd.DataFrame) -> pd.DataFrame | None:
    """Return one row per cell with its diagnostics, or None when unrecorded."""
    if "diagnostics" not in results.columns:
        return None
    recorded = results[results["diagnostics"].map(bool)]
    if recorded.empty:
        return None
    frame = pd.DataFrame(list(recorded["diagnostics"]), index=recorded.index)
    for k, key in enumerate(("algorithm", "dataset", "cost")):
        frame.insert(k, key, recorded[key].astype(str))
    frame["reasons"] = [degenerate_reasons(d) for d in recorded["diagnostics"]]
    return frame


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    return frame[name] if name in frame.columns else pd.Series(np.nan, frame.index)


def stopping_note(results: pd.DataFrame) -> str:
    """Say which algorithms keep rounds with alpha <= 0 and which stop at one.

    Empty when the algorithms share their stopping rule (or nothing is recorded).
    """
    frame = _diagnostics(results)
    if frame is None:
        return ""
    keeping, stopping = [], []
    for name, cells in frame.groupby("algorithm", sort=False):
        kept = int((_column(cells, "nonpositive_alpha").fillna(0) > 0).sum())
        reasons = _column(cells, "stop_reason").fillna("").astype(str)
        stopped = int(reasons.str.contains("alpha").sum())
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


def _fits_row(name: str, cells: pd.DataFrame) -> list[Cell]:
    rounds = _column(cells, "rounds").dropna()
    planned = _column(cells, "rounds_planned").dropna()
    kept = early = "-"
    if not rounds.empty:
        kept = f"{np.median(rounds):g} (min {rounds.min():g})"
        if not planned.empty:
            kept += f" of {planned.max():g}"
            short = _column(cells, "rounds") < _column(cells, "rounds_planned")
            early = str(int(short.sum()))
    nonpositive = _column(cells, "nonpositive_alpha").dropna()
    converged = _column(cells, "converged").dropna()
    texts = [
        name,
        str(len(cells)),
        kept,
        early,
        f"{int((nonpositive > 0).sum())} (mean {nonpositive.mean():.1f})"
        if not nonpositive.empty
        else "-",
        str(int((~converged.astype(bool)).sum())) if not converged.empty else "-",
        str(int(_column(cells, "constant").fillna(False).astype(bool).sum())),
    ]
    return [Cell(t) for t in texts]


def _degenerate_rows(frame: pd.DataFrame, order: list[str]) -> list[list[Cell]]:
    bad = frame[frame["reasons"].map(bool)]
    rows = []
    for name in order:
        mine = bad[bad["algorithm"] == name]
        every = frame[frame["algorithm"] == name]
        settings = set(mine[["dataset", "cost"]].itertuples(index=False, name=None))
        for dataset, cost in sort_rows(settings):
            here = mine[(mine["dataset"] == dataset) & (mine["cost"] == cost)]
            n = int(((every["dataset"] == dataset) & (every["cost"] == cost)).sum())
            reasons: dict[str, int] = {}
            for reason in (r for found in here["reasons"] for r in found):
                reasons[reason] = reasons.get(reason, 0) + 1
            why = ", ".join(f"{r} ({k})" for r, k in reasons.items())
            stops = _column(here, "stop_reason").dropna().astype(str)
            example = f"; e.g. {stops.iloc[0]}" if not stops.empty else ""
            texts = [name, dataset, cost, f"{len(here)} of {n}", why + example]
            rows.append([Cell(t) for t in texts])
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
    header = [
        "algorithm",
        "cells",
        "rounds kept: median (min) of planned",
        "stopped early",
        "cells keeping alpha <= 0 rounds (mean count)",
        "solver not converged",
        "one class predicted",
    ]
    blocks: list[Block] = [
        Heading("How the fits ended", 2),
        Paragraph(
            "Per algorithm over all its cells: boosting rounds kept, fits that "
            "stopped before the planned rounds, fits that kept rounds with "
            "alpha <= 0, solvers that stopped at their iteration limit, and models "
            "that predicted one class on the whole test part."
        ),
        Table(header, fits),
    ]
    note = stopping_note(results)
    if note:
        blocks.append(Paragraph(note))
    blocks.append(Heading("Degenerate fits", 3))
    degenerate = _degenerate_rows(frame, order)
    if not degenerate:
        blocks.append(
            Paragraph(
                "None: every fit kept more than one round, "
                "converged and predicted both classes."
            )
        )
        return blocks
    blocks.append(
        Paragraph(
            "Fits whose numbers say little about the method: a model that "
            "predicts one class, a booster that kept no round (its constant "
            "rule) or one round of several, a solver that did not converge. "
            "Claims resting on them are flagged in the claims table."
        )
    )
    header = ["algorithm", "dataset", "cost", "cells", "why"]
    return [*blocks, Table(header, degenerate)]


def _kept_row(name: str, dataset: str, fits: list[Any], listed: Any) -> list[Cell]:
    n_features = len(fits[0].get("drop_round", [])) or None
    counts = np.array([len(d["features_kept"]) for d in fits], dtype=float)
    frequency: dict[int, int] = {}
    for feature in (f for d in fits for f in d["features_kept"]):
        frequency[feature] = frequency.get(feature, 0) + 1
    usual = sorted(
        (f for f, k in frequency.items() if 2 * k >= len(fits)),
        key=lambda f: (-frequency[f], f),
    )
    texts = [
        name,
        dataset,
        "" if n_features is None else str(n_features),
        f"{counts.mean():.1f} ({counts.min():.0f}-{counts.max():.0f})",
        ", ".join(str(f + 1) for f in usual) or "none",
        "" if listed is None else f"{len(listed)}: " + ", ".join(map(str, listed)),
    ]
    return [Cell(t) for t in texts]


def _noise_rows(
    name: str, dataset: str, fits: list[Any], count: int
) -> list[list[Cell]]:
    n_features = len(fits[0]["drop_round"])
    used = sorted({str(d.get("feature_update", "")) for d in fits})
    update = ", ".join(_UPDATES.get(u, u) if u else "not recorded" for u in used)
    rows = []
    for offset in range(count, 0, -1):
        dropped = np.array([d["drop_round"][-offset] for d in fits])
        when = dropped[dropped > 0]
        early = int(np.sum((dropped > 0) & (dropped < _EARLY_ROUND)))
        spread = (
            f"{np.median(when):g} ({when.min()}-{when.max()})"
            if when.size
            else "never dropped"
        )
        texts = [
            name,
            dataset,
            str(n_features - offset + 1),
            spread,
            f"{early} of {len(fits)}",
            f"{int(np.sum(dropped == -1))} of {len(fits)}",
            update,
        ]
        rows.append([Cell(t) for t in texts])
    return rows


def feature_blocks(
    results: pd.DataFrame,
    order: list[str],
    paper: Mapping[str, Sequence[int]],
    noise: Mapping[str, int],
) -> list[Block]:
    """Return the "Features kept" section (empty without feature-selecting fits).

    ``paper`` gives the paper's features left after the last round per dataset
    (1-based), ``noise`` the datasets with appended noise columns (the last
    ones) and how many.
    """
    if "diagnostics" not in results.columns:
        return []
    cells = results[
        results["diagnostics"].map(
            lambda d: isinstance(d, dict) and "features_kept" in d
        )
    ]
    if cells.empty:
        return []
    kept, dropped = [], []
    for name in [a for a in order if a in set(cells["algorithm"])]:
        mine = cells[cells["algorithm"] == name]
        for dataset in sorted(set(mine["dataset"])):
            fits = list(mine.loc[mine["dataset"] == dataset, "diagnostics"])
            kept.append(_kept_row(name, dataset, fits, paper.get(dataset)))
        for dataset, count in sorted(noise.items()):
            fits = [
                d
                for d in mine.loc[mine["dataset"] == dataset, "diagnostics"]
                if "drop_round" in d
            ]
            if fits and count > 0:
                dropped += _noise_rows(name, dataset, fits, count)
    header = ["algorithm", "dataset", "features", "kept: mean (range)"]
    blocks: list[Block] = [
        Heading("Features kept", 2),
        Paragraph(
            "The features left after the last boosting round, over all fits of each "
            "algorithm on each dataset. Feature numbers are 1-based and number our "
            "columns (KEEL's; a categorical column is one column of codes, or its "
            "one-hot columns, as the study encodes it), which need not be the "
            "paper's; compare the counts."
        ),
        Table([*header, "kept in at least half the fits", "paper (Table 3)"], kept),
    ]
    if not dropped:
        return blocks
    header = [
        "algorithm",
        "dataset",
        "noise feature",
        "dropped by round: median (range)",
    ]
    header += ["dropped before round 4", "kept to the end", "equation 14's update"]
    return [
        *blocks,
        Heading("When the appended noise was dropped", 3),
        Paragraph(
            "The round whose errors dropped each appended noise column (it is "
            "absent from the next round on); paper 003 reports it filtered out "
            "before round 4. The round depends on the update of equation 14 "
            "(last column): the printed update adds every misclassified row's "
            "term unweighted; the weighted one, our deviation, multiplies each "
            "term by the row's boosting weight, so the terms of a round sum to "
            "at most its weighted error and features leave far later."
        ),
        Table(header, dropped),
    ]
