"""The report's sections: each a function of the :class:`Report`, returning blocks.

A section is left out when nothing is declared or recorded for it. The sections a
study declares (``[[sections]]``: ``bounds``, ``features``, ``noise``) take their
words from the study. Change a section's wording or table here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy import stats

from costsense.experiments._claims import row_verdict
from costsense.experiments._diagnostics import one_class_rows
from costsense.experiments._labels import normalise_label, sort_rows
from costsense.experiments._report import _figures as fig
from costsense.experiments._report._blocks import (
    Block,
    Heading,
    Image,
    Paragraph,
    Table,
)
from costsense.experiments._report._tables import KEYS, Report, choose_decimals, fmt
from costsense.experiments._stats import (
    best_mask,
    mean_ranks,
    wilcoxon_test,
    win_tie_loss,
)

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
    for ds in sorted(set(data["dataset"])):
        path = r.figure(f"bounds_{ds}")
        fig.bound_plot(data[data["dataset"] == ds], ds, names, path, s)
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
        "" if listed is None else count_verdict(counts, len(listed)),
    ]


def count_verdict(counts: NDArray[np.float64], paper: int) -> str:
    """Compare the features our fits kept with the paper's count, with a tally.

    "as the paper" when the paper's count lies in the 95 % t interval of our
    mean count over the fits (or within half a feature of it), else "fewer
    kept" or "more kept".
    """
    mean = float(counts.mean())
    half = 0.5
    if counts.size > 1 and counts.std() > 0:
        se = float(counts.std(ddof=1)) / np.sqrt(counts.size)
        half = max(half, float(stats.t.ppf(0.975, counts.size - 1)) * se)
    if abs(mean - paper) <= half:
        verdict = "as the paper"
    else:
        verdict = "fewer kept" if mean < paper else "more kept"
    same = int(np.sum(counts == paper))
    return f"{verdict} ({same} of {counts.size} fits keep {paper})"


def _noise_rows(fits: list[Any], count: int, s: Mapping[str, Any]) -> list[list[str]]:
    n, n_features = len(fits), len(fits[0]["drop_round"])
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
        counts = [f"{early} of {n}", f"{int(np.sum(dropped == -1))} of {n}"]
        # each fit is a case of the paper's claim: dropped before early_round
        verdict = row_verdict(early, 0, n - early)
        held = f"{verdict} (held in {early}, lost in {n - early} of {n} fits)"
        rows.append([str(n_features - offset + 1), spread, *counts, label, held])
    return rows


def _per_fit(r: Report, s: Mapping[str, Any]) -> list[Block]:
    """Tabulate a feature diagnostic per algorithm and dataset."""
    if "diagnostics" not in r.data.columns:
        return []
    key = "features_kept" if s["kind"] == "features" else "drop_round"
    has = r.data["diagnostics"].map(lambda d: isinstance(d, dict) and key in d)
    cells = r.data[has]
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
    header = [*s["header"], "verdict"]
    return [*paragraphs(s["text"]), Table(header, rows)] if rows else []


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


def introduction(r: Report) -> list[Block]:
    """Return the title, the banner, the notes and the size of the study."""
    data = r.data
    return [
        Heading(r.spec.title, 1),
        *([Paragraph(r.spec.banner)] if r.spec.banner else []),
        *paragraphs(r.spec.notes),
        Paragraph(
            f"{len(data)} cells, {data['dataset'].nunique()} datasets, "
            f"{data['cost'].nunique()} costs, {len(r.algorithms)} algorithms."
        ),
    ]


def results(r: Report) -> list[Block]:
    """Return one mean (std) table per metric, the best bold, then mean ranks."""
    marked = r.spec.paper_datasets
    note = (
        f"Rows marked (paper's set) are on the paper's own data ({', '.join(marked)})"
        ": the only like-for-like comparisons with its tables; the other datasets "
        "stand in for sets we cannot get."
    )
    blocks: list[Block] = [Heading("Results", 2)]
    blocks += [Paragraph(note)] if marked else []
    for metric in r.spec.metrics:
        summary = r.summary_of[metric]
        lower, d = metric in r.spec.lower_is_better, summary.decimals
        body = [
            [f"{ds} (paper's set)" if ds in marked else ds, cost]
            + [
                "n/a" if np.isnan(mean) else f"{fmt(mean, d)} ({fmt(std, d)})"
                for mean, std in zip(summary.means[i], summary.stds[i], strict=True)
            ]
            for i, (ds, cost) in enumerate(r.rows)
        ]
        ranks = mean_ranks(summary.means, lower_is_better=lower)
        body.append(["mean rank", "", *(f"{x:.2f}" for x in ranks)])
        best = np.argwhere(best_mask(summary.means, lower_is_better=lower))
        blocks += [
            Heading(metric, 3),
            Paragraph(
                f"Mean (std) over repeats x folds; "
                f"{'lower' if lower else 'higher'} is better; the best of each row "
                f"is bold; {d} decimals."
            ),
            Table(
                ["dataset", "cost", *r.algorithms],
                body,
                {(int(i), int(j) + 2) for i, j in best},
            ),
        ]
    return blocks


def claims(r: Report) -> list[Block]:
    """Return the paper's claims and their verdicts, if any."""
    if not r.spec.claims:
        return []
    alpha, own = r.spec.alpha, r.spec.paper_datasets
    level = f"{100 * (1 - alpha):g} %"
    intro = (
        "Each claim in the paper's words and place, checked on our results by "
        "the kinds of the README's claims table, its verdict beside the tally it "
        "rests on. Row claims count the dataset x cost comparisons that held, "
        f"tied or were lost: 'best' and 'better' by the {r.spec.fold_test} at "
        f"level {alpha:g} over the splits matched by repeat and fold (a lead "
        "inside the noise is a tie), 'close' by the "
        f"{level} interval of that test; 'contradicted' when the losses "
        "outnumber the holds, 'not reproduced' when nothing held. A change claim "
        f"gives its {level} bootstrap interval, drawing whole data sets; "
        "'reproduced' needs the claimed value inside it and the estimate within "
        "its half-width of the claim. 'incomplete': a claimed row lacks a cell. "
        "Flags: our choices that decide the verdict, degenerate fits it rests on "
        "(a model predicting one class, or near one class: recall or "
        "specificity at most 0.05; see 'How the fits ended'), and claims the "
        "paper's own numbers do not support."
    )
    if own:
        intro += (
            " 'Like for like' gives the tally on the rows of the paper's own "
            f"data ({', '.join(own)}) alone."
        )
    rows = []
    for check in r.spec.claims:
        flags = {
            "decided by our choice": check.choices,
            "rests on degenerate fits": check.degenerate,
            "the paper's own numbers disagree": check.inconsistency,
        }
        rows.append(
            [check.text, check.source, check.verdict, check.tally, check.evidence]
        )
        rows[-1] += [check.like_for_like] if own else []
        rows[-1].append("; ".join(f"{k}: {v}" for k, v in flags.items() if v))
    header = ["claim", "source", "verdict", "tally", "evidence"]
    header += [*(["like for like"] if own else []), "flags"]
    note = stopping_note(r.fits)
    return [
        Heading("The paper's claims", 2),
        Paragraph(intro),
        Table(header, rows, {(i, 2) for i in range(len(rows))}),
        *([Paragraph(note)] if note else []),
    ]


def paper(r: Report) -> list[Block]:
    """Return each published value (in the paper's order), our mean, the difference."""
    if not r.spec.paper:
        return []
    row_index = {(ds, normalise_label(c)): i for i, (ds, c) in enumerate(r.rows)}
    body = []
    for entry in r.spec.paper:
        ds, cost = str(entry["dataset"]), str(entry["cost"])
        metric, alg = str(entry["metric"]), str(entry["algorithm"])
        value = float(entry["value"])
        summary = r.summary_of.get(metric)
        i = row_index.get((ds, normalise_label(cost)))
        ours = np.nan
        if summary is not None and i is not None and alg in r.algorithms:
            ours = float(summary.means[i, r.algorithms.index(alg)])
        d = summary.decimals if summary is not None else choose_decimals([value])
        texts = [fmt(value, d), fmt(ours, d), fmt(ours - value, d, sign=True)]
        body.append([ds, cost, alg, metric, *texts])
    header = ["dataset", "cost", "algorithm", "metric", "paper", "ours", "difference"]
    return [
        Heading("Paper vs ours", 2),
        Paragraph(
            "Published value, our mean over repeats x folds, and the "
            "difference (ours - paper)."
        ),
        *paragraphs(r.spec.paper_notes),
        Table(header, body),
    ]


def comparison(r: Report) -> list[Block]:
    """Return the reference's wins, ties and losses and the Wilcoxon tests."""
    reference, alpha = r.spec.reference, r.spec.alpha
    if reference is None:
        return []
    ref = r.algorithms.index(reference)
    one_class = one_class_rows(r.data)
    body = []
    for metric in r.spec.metrics:
        summary = r.summary_of[metric]
        for j, other in enumerate(r.algorithms):
            if other == reference:
                continue
            pairs, apart = [], []
            for row in r.rows:
                paired = summary.blocks[row][[reference, other]].dropna()
                if len(paired) >= 2:
                    pairs.append((paired[reference], paired[other]))
                    apart.append((other, *row) in one_class)
            lower = metric in r.spec.lower_is_better
            counts = win_tie_loss(
                pairs,
                alpha=alpha,
                lower_is_better=lower,
                test_train_ratio=r.spec.test_train_ratio,
            )
            degenerate_wins = win_tie_loss(
                [p for p, bad in zip(pairs, apart, strict=True) if bad],
                alpha=alpha,
                lower_is_better=lower,
                test_train_ratio=r.spec.test_train_ratio,
            )[0]
            a, b = summary.means[:, ref], summary.means[:, j]
            keep = ~(np.isnan(a) | np.isnan(b))
            wilcoxon = ["n/a", "n/a"]
            if keep.sum() >= 2:
                test = wilcoxon_test(a[keep], b[keep], alpha=alpha)
                if math.isfinite(test.pvalue):
                    wilcoxon = [f"{test.statistic:g}", f"{test.pvalue:.3g}"]
            wins = f"{counts[0]}" + (
                f" ({degenerate_wins} vs one class)" if degenerate_wins else ""
            )
            body.append(
                [metric, other, str(len(pairs)), wins, *map(str, counts[1:])] + wilcoxon
            )
    header = ["metric", "algorithm", "rows", "wins", "ties", "losses"]
    return [
        Heading("Statistical comparison", 2),
        Paragraph(
            f"Wins, ties and losses of {reference} against each algorithm: "
            f"{r.spec.fold_test} at level {alpha:g} over the folds of "
            "each dataset x cost row, pairs matched by repeat and fold; wins "
            "against an algorithm that predicts one class, or nearly, on some "
            "fit of the row are also counted apart. "
            "Wilcoxon signed-rank test (two-sided) across rows on the row "
            "means."
        ),
        Table([*header, "Wilcoxon statistic", "Wilcoxon p-value"], body),
    ]


def stopping_note(fits: pd.DataFrame | None) -> str:
    """Say which algorithms keep rounds with alpha <= 0 and which stop ("" if alike)."""
    if fits is None:
        return ""
    keeping, stopping = [], []
    for name, cells in fits.groupby("algorithm", sort=False):
        kept = int((cells["nonpositive_alpha"].fillna(0) > 0).sum())
        stops = cells["stop_reason"].fillna("").astype(str)
        stopped = int(stops.str.contains("alpha").sum())
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
    nonpositive = cells["nonpositive_alpha"].dropna()
    converged = cells["converged"].dropna()
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


def _degenerate_rows(fits: pd.DataFrame, order: list[str]) -> list[list[str]]:
    """One row per (algorithm, dataset, cost) with degenerate fits: how many, why."""
    rows = []
    for name in order:
        every = fits[fits["algorithm"] == name]
        mine = every[every["reasons"].map(bool)]
        settings = set(zip(mine["dataset"], mine["cost"], strict=True))
        for dataset, cost in sort_rows(settings):
            here = mine[(mine["dataset"] == dataset) & (mine["cost"] == cost)]
            n = int(((every["dataset"] == dataset) & (every["cost"] == cost)).sum())
            reasons = Counter(r for found in here["reasons"] for r in found)
            why = ", ".join(f"{r} ({k})" for r, k in reasons.items())
            stops = here["stop_reason"].dropna().astype(str)
            why += f"; e.g. {stops.iloc[0]}" if not stops.empty else ""
            rows.append([name, dataset, cost, f"{len(here)} of {n}", why])
    return rows


def fits(r: Report) -> list[Block]:
    """Return "How the fits ended", read from the cells' diagnostics (if any)."""
    if r.fits is None:
        return []
    names = [a for a in r.algorithms if (r.fits["algorithm"] == a).any()]
    table = [_fits_row(a, r.fits[r.fits["algorithm"] == a]) for a in names]
    header = ["algorithm", "cells", "rounds kept: median (min) of planned"]
    header += ["stopped early", "cells keeping alpha <= 0 rounds (mean count)"]
    header += ["solver not converged", "one class predicted"]
    note = stopping_note(r.fits)
    degenerate = _degenerate_rows(r.fits, r.algorithms)
    listed = (
        "Fits whose numbers say little about the method: a model that predicts one "
        "class, a booster that kept no round (its constant rule) or one round of "
        "several, a solver that did not converge. Claims resting on them are "
        "flagged in the claims table."
        if degenerate
        else "None: every fit kept more than one round, converged and predicted "
        "both classes."
    )
    blocks: list[Block] = [
        Heading("How the fits ended", 2),
        Paragraph(
            "Per algorithm over all its cells: boosting rounds kept, fits that "
            "stopped before the planned rounds, fits that kept rounds with "
            "alpha <= 0, solvers that stopped at their iteration limit, and models "
            "that predicted one class on the whole test part."
        ),
        Table(header, table),
        *([Paragraph(note)] if note else []),
        Heading("Degenerate fits", 3),
        Paragraph(listed),
    ]
    if degenerate:
        blocks.append(
            Table(["algorithm", "dataset", "cost", "cells", "why"], degenerate)
        )
    return blocks


def warnings(r: Report) -> list[Block]:
    """Return the "Warnings" section: a paragraph per summary line (none without)."""
    if not r.spec.warnings:
        return []
    intro = (
        "Warnings the fits raised, counted per algorithm and kind over every fit "
        "of a cell, the candidates of an inner grid search included (so a count "
        "can exceed the cells, and a constant candidate need not be the chosen "
        "model: the fit diagnostics say which final models are constant); "
        "numbers in the messages are written N; with what to change:"
    )
    return [Heading("Warnings", 2), Paragraph(intro), *map(Paragraph, r.spec.warnings)]


def constant_fits(fits: pd.DataFrame | None, dataset: str, cost: str) -> dict[str, str]:
    """Say per algorithm how many fits of a setting predict one class (k > 0 only)."""
    if fits is None:
        return {}
    mine = fits[(fits["dataset"] == dataset) & (fits["cost"] == cost)]
    flags = mine["constant"].fillna(False).astype(bool).groupby(mine["algorithm"])
    return {
        str(alg): f"predicts one class in {k} of {n} fits"
        for alg, (k, n) in flags.agg(["sum", "size"]).iterrows()
        if k
    }


def figures(r: Report) -> list[Block]:
    """Draw the main metric's dots (and ratios), the curves and the boundaries."""
    main, ratio_to = r.spec.metrics[0], r.spec.ratio_to
    lower = main in r.spec.lower_is_better
    summary = r.summary_of[main]
    path = r.figure(f"means_{main}")
    fig.dot_chart(summary, r.rows, r.algorithms, main, path, lower_is_better=lower)
    blocks: list[Block] = [
        Heading("Figures", 2),
        Image(
            path,
            f"{main}: mean (dot) and one std (bar) per dataset and cost, one panel "
            f"each; the filled dot is the panel's {'lowest' if lower else 'highest'}",
        ),
    ]
    if ratio_to is not None:
        path = r.figure(f"ratio_{main}_to_{ratio_to}")
        fig.dot_chart(summary, r.rows, r.algorithms, main, path, baseline=ratio_to)
        caption = f"{main} of each algorithm divided by {ratio_to}'s (1 = same)"
        blocks.append(Image(path, caption))
    if r.curves is not None and not r.curves.empty:
        curves = r.curves.astype({"dataset": str, "cost": str})
        extra = sorted(set(curves["algorithm"].astype(str)) - set(r.algorithms))
        settings = set(curves[["dataset", "cost"]].itertuples(index=False, name=None))
        for ds, cost in sort_rows(settings):
            frame = curves[(curves["dataset"] == ds) & (curves["cost"] == cost)]
            path = r.figure(f"curve_{ds}_{cost}")
            why = constant_fits(r.fits, ds, cost)
            fig.curve_plot(
                frame, ds, cost, r.algorithms + extra, path, why_constant=why
            )
            caption = (
                f"{ds}, cost {cost}: mean cost per sample by stage (left test, right "
                "train), averaged over repeats x folds; a curve flat over every "
                "stage is named in its panel"
            )
            blocks.append(Image(path, caption))
    for boundary in r.boundaries:
        path = r.figure(f"boundary_{boundary.dataset}_{boundary.cost}")
        fig.boundary_plot(boundary, path)
        caption = f"{boundary.dataset}, cost {boundary.cost}: decision regions"
        if boundary.reference is not None:
            caption += " and the Bayes boundary (black)"
        blocks.append(Image(path, caption))
    return blocks


#: The sections in report order.
SECTIONS = (
    introduction,
    results,
    claims,
    paper,
    comparison,
    fits,
    warnings,
    declared,
    figures,
)
