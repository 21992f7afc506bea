"""The sections a study declares (``[[sections]]``): words from the study, numbers here.

``bounds`` checks and plots declared series (each at most the next at every
stage); ``features`` tabulates the ``features_kept`` diagnostic beside the paper's;
``noise`` the round (``drop_round``) that dropped each appended noise column.
Change it when a kind is added; change a section's words in its study.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._report import _figures as fig
from costsense.experiments._report._blocks import (
    Block,
    Heading,
    Image,
    Paragraph,
    Table,
)
from costsense.experiments._report._tables import KEYS, Report

#: Relative slack of a declared inequality when checked in floating point.
_SLACK = 1e-12


def paragraphs(text: str) -> list[Block]:
    """Split free text into paragraphs at blank lines."""
    return [Paragraph(p.strip()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def _check(wide: pd.DataFrame, names: list[str]) -> str:
    """Check each series <= the next on every stage; say where it fails."""
    values = wide.reindex(columns=names).to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        holds = np.all(values[:, :-1] <= values[:, 1:] * (1 + _SLACK), axis=1)
    failed = [
        f"{ds}, cost {cost}, {alg}, repeat {rep}, fold {fold}, round {stage}"
        for (ds, cost, alg, rep, fold, stage), ok in zip(wide.index, holds, strict=True)
        if not ok
    ]
    fits, rounds = len(wide.index.droplevel("stage").unique()), len(wide)
    if not failed:
        return (
            f"held at every round of every fit: {rounds} rounds of {fits} fits (each "
            f"inequality up to a relative {_SLACK:g}, the rounding of floats)."
        )
    more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
    return (
        f"FAILED at {len(failed)} of {rounds} rounds of {fits} fits: "
        f"{'; '.join(failed[:5])}{more}."
    )


def _bounds(r: Report, s: Mapping[str, Any]) -> list[Block]:
    """Check and plot the declared series of the declared algorithms."""
    if r.series is None or r.series.empty:
        return []
    data = r.series.assign(**{k: r.series[k].astype(str) for k in KEYS[:3]})
    data = data[data["algorithm"].isin(s["algorithms"])]
    if data.empty:
        return []
    names = [a for a in s["algorithms"] if a in set(data["algorithm"])]
    wide = data.set_index([*KEYS, "stage", "name"])["value"].unstack("name")
    check = (
        f"Checked on the training series this run saved for {', '.join(names)} "
        f"({s['setting']}): {s['inequality']} {_check(wide, list(s['series']))} "
        f"{s['after']}"
    )
    blocks = [*paragraphs(s["text"]), Paragraph(check)]
    lines = list(zip(s["series"], s["labels"], strict=True))
    for ds in sorted(set(data["dataset"])):
        path = r.figure(f"bounds_{ds}")
        fig.bound_plot(data[data["dataset"] == ds], ds, names, path, lines, s["ylabel"])
        blocks.append(Image(path, f"{ds}: {s['caption']}"))
    return blocks


def _kept_row(fits: list[Any], listed: Any) -> list[str]:
    n_features = len(fits[0].get("drop_round", [])) or None
    counts = np.array([len(d["features_kept"]) for d in fits], dtype=float)
    frequency = Counter(f for d in fits for f in d["features_kept"])
    usual = sorted(
        (f for f, k in frequency.items() if 2 * k >= len(fits)),
        key=lambda f: (-frequency[f], f),
    )
    return [
        "" if n_features is None else str(n_features),
        f"{counts.mean():.1f} ({counts.min():.0f}-{counts.max():.0f})",
        ", ".join(str(f + 1) for f in usual) or "none",
        "" if listed is None else f"{len(listed)}: " + ", ".join(map(str, listed)),
    ]


def _noise_rows(fits: list[Any], count: int, s: Mapping[str, Any]) -> list[list[str]]:
    n_features = len(fits[0]["drop_round"])
    used = sorted({str(d.get(s["column"], "")) for d in fits})
    label = ", ".join(s["values"].get(u, u) if u else "not recorded" for u in used)
    rows = []
    for offset in range(count, 0, -1):
        dropped = np.array([d["drop_round"][-offset] for d in fits])
        when = dropped[dropped > 0]
        early = int(np.sum((dropped > 0) & (dropped < s["early_round"])))
        spread = (
            f"{np.median(when):g} ({when.min()}-{when.max()})"
            if when.size
            else "never dropped"
        )
        kept = int(np.sum(dropped == -1))
        n = len(fits)
        rows.append(
            [str(n_features - offset + 1), spread, f"{early} of {n}", f"{kept} of {n}"]
            + [label]
        )
    return rows


def _per_fit(r: Report, s: Mapping[str, Any]) -> list[Block]:
    """Tabulate a feature diagnostic per algorithm and dataset."""
    if "diagnostics" not in r.data.columns:
        return []
    key = "features_kept" if s["kind"] == "features" else "drop_round"
    cells = r.data[
        r.data["diagnostics"].map(lambda d: isinstance(d, dict) and key in d)
    ]
    rows = []
    for name in [a for a in r.algorithms if a in set(cells["algorithm"])]:
        mine = cells[cells["algorithm"] == name]
        for dataset in sorted(set(mine["dataset"])):
            fits = list(mine.loc[mine["dataset"] == dataset, "diagnostics"])
            if s["kind"] == "features":
                found = [_kept_row(fits, r.spec.paper_features.get(dataset))]
            else:
                found = _noise_rows(fits, r.spec.noise_columns.get(dataset, 0), s)
            rows += [[name, dataset, *row] for row in found]
    if not rows:
        return []
    return [*paragraphs(s["text"]), Table(list(s["header"]), rows)]


_KINDS = {"bounds": _bounds, "features": _per_fit, "noise": _per_fit}


def declared(r: Report) -> list[Block]:
    """Return the study's declared sections, each left out when it has no data."""
    blocks: list[Block] = []
    for s in r.spec.sections:
        if s.get("kind") not in _KINDS:
            raise ValueError(f"A section's kind must be one of {sorted(_KINDS)}: {s}")
        body = _KINDS[s["kind"]](r, s)
        if body:
            blocks += [Heading(s["title"], int(s.get("level", 2))), *body]
    return blocks
