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

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._diagnostics import degenerate_reasons
from costsense.experiments._labels import sort_rows
from costsense.experiments._report._blocks import Block, Heading, Paragraph, plain_table

__all__ = ["feature_blocks", "fit_blocks", "stopping_note"]

#: Paper 003: the appended noise feature "is filtered out before round 4".
_EARLY_ROUND = 4
#: Equation 14's updates (EFSBoost's ``feature_update``), as the report names them.
_UPDATES = {"literal": "printed (unweighted)", "weighted": "weighted (our deviation)"}
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


def _kept_row(name: str, dataset: str, fits: list[Any], listed: Any) -> list[str]:
    n_features = len(fits[0].get("drop_round", [])) or None
    counts = np.array([len(d["features_kept"]) for d in fits], dtype=float)
    frequency = Counter(f for d in fits for f in d["features_kept"])
    usual = sorted(
        (f for f, k in frequency.items() if 2 * k >= len(fits)),
        key=lambda f: (-frequency[f], f),
    )
    return [
        name,
        dataset,
        "" if n_features is None else str(n_features),
        f"{counts.mean():.1f} ({counts.min():.0f}-{counts.max():.0f})",
        ", ".join(str(f + 1) for f in usual) or "none",
        "" if listed is None else f"{len(listed)}: " + ", ".join(map(str, listed)),
    ]


def _noise_rows(
    name: str, dataset: str, fits: list[Any], count: int
) -> list[list[str]]:
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
        kept = int(np.sum(dropped == -1))
        rows.append(
            [
                name,
                dataset,
                str(n_features - offset + 1),
                spread,
                f"{early} of {len(fits)}",
                f"{kept} of {len(fits)}",
                update,
            ]
        )
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
    selecting = results["diagnostics"].map(
        lambda d: isinstance(d, dict) and "features_kept" in d
    )
    cells = results[selecting]
    kept, dropped = [], []
    for name in [a for a in order if a in set(cells["algorithm"])]:
        mine = cells[cells["algorithm"] == name]
        for dataset in sorted(set(mine["dataset"])):
            fits = list(mine.loc[mine["dataset"] == dataset, "diagnostics"])
            kept.append(_kept_row(name, dataset, fits, paper.get(dataset)))
        for dataset, count in sorted(noise.items()):
            here = mine.loc[mine["dataset"] == dataset, "diagnostics"]
            fits = [d for d in here if "drop_round" in d]
            dropped += (
                _noise_rows(name, dataset, fits, count) if fits and count > 0 else []
            )
    if not kept:
        return []
    header = ["algorithm", "dataset", "features", "kept: mean (range)"]
    header += ["kept in at least half the fits", "paper (Table 3)"]
    noise_header = ["algorithm", "dataset", "noise feature"]
    noise_header += ["dropped by round: median (range)", "dropped before round 4"]
    noise_header += ["kept to the end", "equation 14's update"]
    blocks: list[Block] = [
        Heading("Features kept", 2),
        Paragraph(
            "The features left after the last boosting round, over all fits of each "
            "algorithm on each dataset. Feature numbers are 1-based and number our "
            "columns (KEEL's; a categorical column is one column of codes, or its "
            "one-hot columns, as the study encodes it), which need not be the "
            "paper's; compare the counts."
        ),
        plain_table(header, kept),
    ]
    if not dropped:
        return blocks
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
        plain_table(noise_header, dropped),
    ]
