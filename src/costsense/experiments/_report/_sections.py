"""The report's sections: each a function of the :class:`Report`, returning blocks.

A section returns no block when the study declares nothing for it or the results
carry no column it reads. Change a section's wording or table here.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from costsense.experiments._labels import normalise_label, sort_rows
from costsense.experiments._outputs import make_folder
from costsense.experiments._report import _figures as fig
from costsense.experiments._report._blocks import (
    Block,
    Cell,
    Heading,
    Image,
    Paragraph,
    Table,
    plain_table,
)
from costsense.experiments._report._declared import paragraphs
from costsense.experiments._report._fits import stopping_note
from costsense.experiments._report._tables import Report, choose_decimals, fmt
from costsense.experiments._stats import (
    best_mask,
    mean_ranks,
    wilcoxon_test,
    win_tie_loss,
)


class FigureFiles:
    """Unique PNG paths under the figure folder, in the order they are made."""

    def __init__(self, folder: Path) -> None:
        make_folder(folder.parent, folder)  # never a link planted at figures/
        self.folder = folder
        self.paths: list[Path] = []

    def new(self, name: str) -> Path:
        """Return a new path named after ``name`` (other characters as ``_``)."""
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "figure"
        used = {p.stem for p in self.paths}
        candidate, k = stem, 1
        while candidate in used:
            k += 1
            candidate = f"{stem}_{k}"
        self.paths.append(self.folder / f"{candidate}.png")
        return self.paths[-1]


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
    blocks: list[Block] = [Heading("Results", 2)]
    if marked:
        blocks.append(
            Paragraph(
                "Rows marked (paper's set) are on the paper's own data ("
                + ", ".join(marked)
                + "): the only like-for-like comparisons with its tables; the "
                "other datasets stand in for sets we cannot get."
            )
        )
    for metric in r.spec.metrics:
        summary = r.summary_of[metric]
        lower, d = metric in r.spec.lower_is_better, summary.decimals
        best = best_mask(summary.means, lower_is_better=lower)
        body = []
        for i, (ds, cost) in enumerate(r.rows):
            cells = [Cell(f"{ds} (paper's set)" if ds in marked else ds), Cell(cost)]
            for j, (mean, std) in enumerate(
                zip(summary.means[i], summary.stds[i], strict=True)
            ):
                text = "n/a" if np.isnan(mean) else f"{fmt(mean, d)} ({fmt(std, d)})"
                cells.append(Cell(text, bool(best[i, j])))
            body.append(cells)
        ranks = mean_ranks(summary.means, lower_is_better=lower)
        body.append([Cell("mean rank"), Cell("")] + [Cell(f"{x:.2f}") for x in ranks])
        blocks += [
            Heading(metric, 3),
            Paragraph(
                f"Mean (std) over repeats x folds; "
                f"{'lower' if lower else 'higher'} is better; the best of each row "
                f"is bold; {d} decimals."
            ),
            Table(["dataset", "cost", *r.algorithms], body),
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
        "the kinds of the README's claims table. Row claims count the dataset x "
        f"cost rows where they hold: 'best' and 'better' by a two-sided paired "
        f"t-test at level {alpha:g} over the splits matched by repeat and fold "
        "(a lead inside the noise is a tie), 'close' by the "
        f"{level} t interval of the paired difference; a change claim gives its "
        f"{level} bootstrap interval over rows. 'incomplete': a claimed row lacks "
        "a cell. Flags: degenerate fits the verdict rests on (see 'How the fits "
        "ended'), and claims the paper's own numbers do not support."
    )
    if own:
        intro += (
            " 'Like for like' gives the tally on the rows of the paper's own "
            f"data ({', '.join(own)}) alone."
        )
    rows = []
    for check in r.spec.claims:
        flags = [
            f"rests on degenerate fits: {check.degenerate}" * bool(check.degenerate),
            f"the paper's own numbers disagree: {check.inconsistency}"
            * bool(check.inconsistency),
        ]
        rows.append(
            [
                Cell(check.text),
                Cell(check.source),
                Cell(check.verdict, bold=True),
                Cell(check.evidence),
                *([Cell(check.like_for_like)] if own else []),
                Cell("; ".join(f for f in flags if f)),
            ]
        )
    header = ["claim", "source", "verdict", "evidence"]
    header += [*(["like for like"] if own else []), "flags"]
    note = stopping_note(r.data)
    return [
        Heading("The paper's claims", 2),
        Paragraph(intro),
        Table(header, rows),
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
        plain_table(header, body),
    ]


def comparison(r: Report) -> list[Block]:
    """Return the reference's wins, ties and losses and the Wilcoxon tests.

    Per metric and other algorithm: the rows tested (a paired t-test per row
    over the folds matched by repeat and fold; rows with fewer than 2 complete
    pairs are skipped), the reference's wins/ties/losses, and the Wilcoxon
    signed-rank test across rows on the row means ("n/a" under 2 rows).
    """
    reference, alpha = r.spec.reference, r.spec.alpha
    if reference is None:
        return []
    ref = r.algorithms.index(reference)
    body = []
    for metric in r.spec.metrics:
        summary = r.summary_of[metric]
        for j, other in enumerate(r.algorithms):
            if other == reference:
                continue
            pairs = []
            for row in r.rows:
                frame = summary.blocks[row]
                if reference in frame.columns and other in frame.columns:
                    paired = frame[[reference, other]].dropna()
                    if len(paired) >= 2:
                        pairs.append((paired[reference], paired[other]))
            lower = metric in r.spec.lower_is_better
            counts = win_tie_loss(pairs, alpha=alpha, lower_is_better=lower)
            a, b = summary.means[:, ref], summary.means[:, j]
            keep = ~(np.isnan(a) | np.isnan(b))
            wilcoxon = ["n/a", "n/a"]
            if keep.sum() >= 2:
                test = wilcoxon_test(a[keep], b[keep], alpha=alpha)
                if math.isfinite(test.pvalue):
                    wilcoxon = [f"{test.statistic:g}", f"{test.pvalue:.3g}"]
            body.append([metric, other, str(len(pairs)), *map(str, counts), *wilcoxon])
    header = ["metric", "algorithm", "rows", "wins", "ties", "losses"]
    return [
        Heading("Statistical comparison", 2),
        Paragraph(
            f"Wins, ties and losses of {reference} against each algorithm: "
            f"two-sided paired t-test at level {alpha:g} over the folds of "
            "each dataset x cost row, pairs matched by repeat and fold. "
            "Wilcoxon signed-rank test (two-sided) across rows on the row "
            "means."
        ),
        plain_table([*header, "Wilcoxon statistic", "Wilcoxon p-value"], body),
    ]


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


def constant_fits(data: pd.DataFrame, dataset: str, cost: str) -> dict[str, str]:
    """Say per algorithm how many fits of a setting predict one class (k > 0 only)."""
    if "diagnostics" not in data.columns:
        return {}
    mine = data[(data["dataset"] == dataset) & (data["cost"] == cost)]
    out = {}
    for alg, part in mine.groupby("algorithm", sort=False):
        flags = [
            isinstance(d, dict) and bool(d.get("constant")) for d in part["diagnostics"]
        ]
        if any(flags):
            out[str(alg)] = f"predicts one class in {sum(flags)} of {len(flags)} fits"
    return out


def figures(r: Report) -> list[Block]:
    """Draw the main metric's dots (and ratios), the curves and the boundaries."""
    main, ratio_to, files = r.spec.metrics[0], r.spec.ratio_to, r.figures
    lower = main in r.spec.lower_is_better
    summary = r.summary_of[main]
    path = files.new(f"means_{main}")
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
        path = files.new(f"ratio_{main}_to_{ratio_to}")
        fig.ratio_chart(summary, r.rows, r.algorithms, main, ratio_to, path)
        caption = f"{main} of each algorithm divided by {ratio_to}'s (1 = same)"
        blocks.append(Image(path, caption))
    if r.curves is not None and not r.curves.empty:
        averaged = fig.average_curves(r.curves)
        extra = [str(a) for a in pd.unique(averaged["algorithm"])]
        palette = fig.assign_colours(
            r.algorithms + [a for a in extra if a not in r.algorithms]
        )
        settings = set(averaged[["dataset", "cost"]].itertuples(index=False, name=None))
        for ds, cost in sort_rows(settings):
            frame = averaged[(averaged["dataset"] == ds) & (averaged["cost"] == cost)]
            path = files.new(f"curve_{ds}_{cost}")
            why = constant_fits(r.data, ds, cost)
            fig.curve_plot(frame, ds, cost, palette, path, why_constant=why)
            caption = (
                f"{ds}, cost {cost}: mean cost per sample by stage (left test, right "
                "train), averaged over repeats x folds; a curve flat over every "
                "stage is named in its panel"
            )
            blocks.append(Image(path, caption))
    for boundary in r.boundaries:
        path = files.new(f"boundary_{boundary.dataset}_{boundary.cost}")
        fig.boundary_plot(boundary, path)
        caption = f"{boundary.dataset}, cost {boundary.cost}: decision regions"
        if boundary.reference is not None:
            caption += " and the Bayes boundary (black)"
        blocks.append(Image(path, caption))
    return blocks
