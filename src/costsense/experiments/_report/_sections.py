"""The report's text sections: results, claims, paper vs ours, tests, warnings.

Each function returns the blocks of one section (none when the spec does not ask
for it); change the section's wording or tables here.
"""

from __future__ import annotations

import re

import pandas as pd

from costsense.experiments._claims import ClaimCheck
from costsense.experiments._report._blocks import (
    Block,
    Cell,
    Heading,
    Paragraph,
    Table,
)
from costsense.experiments._report._fits import stopping_note
from costsense.experiments._report._spec import ReportSpec
from costsense.experiments._report._tables import (
    comparison_table,
    paper_table,
    results_table,
)
from costsense.experiments._report._tabulated import _Tabulated


def _introduction(spec: ReportSpec, tab: _Tabulated) -> list[Block]:
    """Return the title, the notes and the size of the study."""
    notes = [p.strip() for p in re.split(r"\n\s*\n", spec.notes) if p.strip()]
    data = tab.data
    return [
        Heading(spec.title, 1),
        *([Paragraph(spec.banner)] if spec.banner else []),
        *[Paragraph(p) for p in notes],
        Paragraph(
            f"{len(data)} cells, {data['dataset'].nunique()} datasets, "
            f"{data['cost'].nunique()} costs, {len(tab.algorithms)} algorithms."
        ),
    ]


def _results(spec: ReportSpec, tab: _Tabulated) -> list[Block]:
    """Return one mean (std) table per metric."""
    blocks: list[Block] = [Heading("Results", 2)]
    if spec.paper_datasets:
        blocks.append(
            Paragraph(
                "Rows marked (paper's set) are on the paper's own data ("
                + ", ".join(spec.paper_datasets)
                + "): the only like-for-like comparisons with its tables; the "
                "other datasets stand in for sets we cannot get."
            )
        )
    for metric in spec.metrics:
        summary = tab.summary_of[metric]
        lower = metric in spec.lower_is_better
        blocks.append(Heading(metric, 3))
        blocks.append(
            Paragraph(
                f"Mean (std) over repeats x folds; "
                f"{'lower' if lower else 'higher'} is better; "
                f"the best of each row is bold; {summary.decimals} decimals."
            )
        )
        blocks.append(
            results_table(summary, tab.rows, tab.algorithms, lower, spec.paper_datasets)
        )
    return blocks


def _claims(spec: ReportSpec, results: pd.DataFrame) -> list[Block]:
    """Return the paper's claims and their verdicts, if any."""
    if not spec.claims:
        return []
    blocks: list[Block] = [
        Heading("The paper's claims", 2),
        Paragraph(
            "Each claim in the paper's words, with where it says it, checked on our "
            "results (the claim kinds and their verdicts are defined in the "
            "README's table). Row claims count the dataset x cost rows where the "
            "statement holds; ties are not wins. A 'best' or 'better' claim counts "
            "a row as a win only when a two-sided paired t-test at level "
            f"{spec.alpha:g} over the splits, matched by repeat and fold, finds "
            "the algorithm better, as a loss when it finds it worse, and as a tie "
            "otherwise: a lead of the means inside the fold-to-fold noise is a "
            "tie. A 'close' claim holds on a row when the "
            f"{100 * (1 - spec.alpha):g} % t interval of the mean paired "
            "difference lies within its margin, fails when it lies beyond, and is "
            "undecided otherwise. A change claim gives our mean "
            f"change with its {100 * (1 - spec.alpha):g} % bootstrap interval over "
            "rows. A verdict is 'incomplete' while any claimed row lacks a cell. "
            "Flags: fits the verdict rests on that are degenerate (see 'How the "
            "fits ended'), and claims the paper's own numbers do not support."
            + (
                " 'Like for like' gives the tally on the rows of the paper's own "
                f"data ({', '.join(spec.paper_datasets)}) alone."
                if spec.paper_datasets
                else ""
            )
        ),
        Table(
            [
                "claim",
                "source",
                "verdict",
                "evidence",
                *(["like for like"] if spec.paper_datasets else []),
                "flags",
            ],
            [
                [
                    Cell(check.text),
                    Cell(check.source),
                    Cell(check.verdict, bold=True),
                    Cell(check.evidence),
                    *([Cell(check.like_for_like)] if spec.paper_datasets else []),
                    Cell(_flags(check)),
                ]
                for check in spec.claims
            ],
        ),
    ]
    note = stopping_note(results)
    if note:
        blocks.append(Paragraph(note))
    return blocks


def _flags(check: ClaimCheck) -> str:
    flags = []
    if check.degenerate:
        flags.append(f"rests on degenerate fits: {check.degenerate}")
    if check.inconsistency:
        flags.append(f"the paper's own numbers disagree: {check.inconsistency}")
    return "; ".join(flags)


def _paper(spec: ReportSpec, tab: _Tabulated) -> list[Block]:
    """Return the paper's published values beside ours, if any."""
    if not spec.paper:
        return []
    return [
        Heading("Paper vs ours", 2),
        Paragraph(
            "Published value, our mean over repeats x folds, and the "
            "difference (ours - paper)."
        ),
        *[
            Paragraph(p.strip())
            for p in re.split(r"\n\s*\n", spec.paper_notes)
            if p.strip()
        ],
        paper_table(spec.paper, tab.summary_of, tab.rows, tab.algorithms),
    ]


def _comparison(spec: ReportSpec, tab: _Tabulated) -> list[Block]:
    """Return the reference's significance tests against each algorithm, if any."""
    if spec.reference is None:
        return []
    return [
        Heading("Statistical comparison", 2),
        Paragraph(
            f"Wins, ties and losses of {spec.reference} against each algorithm: "
            f"two-sided paired t-test at level {spec.alpha:g} over the folds of "
            "each dataset x cost row, pairs matched by repeat and fold. "
            "Wilcoxon signed-rank test (two-sided) across rows on the row "
            "means."
        ),
        comparison_table(
            tab.summary_of,
            spec.metrics,
            tab.rows,
            tab.algorithms,
            spec.reference,
            spec.lower_is_better,
            spec.alpha,
        ),
    ]


def _warnings(spec: ReportSpec) -> list[Block]:
    """Return the "Warnings" section: a paragraph per summary line (none without)."""
    if not spec.warnings:
        return []
    intro = (
        "Warnings the fits raised, counted per algorithm and kind over every fit "
        "of a cell, the candidates of an inner grid search included (so a count "
        "can exceed the cells, and a constant candidate need not be the chosen "
        "model: the fit diagnostics say which final models are constant); "
        "numbers in the messages are written N; with what to change:"
    )
    return [
        Heading("Warnings", 2),
        Paragraph(intro),
        *(Paragraph(line) for line in spec.warnings),
    ]
