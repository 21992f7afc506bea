"""What a report shows (:class:`ReportSpec`) and what it wrote (:class:`ReportFiles`).

Change it when a report gains an option: add the field here with its
documentation, and the section that reads it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from costsense.experiments._claims import ClaimCheck

__all__ = ["ReportFiles", "ReportSpec"]


@dataclass(frozen=True)
class ReportSpec:
    """What a report shows and how: everything but the results themselves.

    Attributes
    ----------
    title : str
        Report title.
    metrics : sequence of str
        Metric columns to tabulate, in order; the first is the main metric of the
        figure (a dot plot per dataset and cost). A single string names one metric.
    lower_is_better : collection of str, default=("cost_total", "mean_cost")
        Metrics where lower values are better; all others are higher-is-better.
    reference : str, default=None
        Algorithm to compare against every other one with significance tests.
        None skips the comparison.
    ratio_to : str, default=None
        An algorithm: adds a figure of every algorithm's mean of the main
        metric divided by this one's, per dataset and cost (paper 002, figure 1).
    notes : str, default=""
        Free text placed under the title (blank lines separate paragraphs).
    paper_notes : str, default=""
        Free text placed beside the paper's numbers ("Paper vs ours").
    alpha : float, default=0.05
        Significance level of the tests.
    paper : sequence of dict or DataFrame, default=()
        Published numbers, each with ``dataset``, ``cost``, ``algorithm``,
        ``metric`` and ``value`` (a study's ``paper`` rows). Adds a "paper vs
        ours" table.
    claims : sequence of ClaimCheck, default=()
        The paper's claims checked, from
        :func:`costsense.experiments._claims.check_claims`; a table when given.
    banner : str, default=""
        A warning placed first under the title (a partial or ``--quick`` run).
    paper_features : mapping of str to sequence of int, default={}
        The paper's features left after the last round of feature selection, per
        dataset (1-based; paper 003's Table 3), shown under "Features kept".
    noise_columns : mapping of str to int, default={}
        Datasets whose last columns are appended noise, and how many: the report
        says when feature selection dropped them.
    adaboost_algorithms : sequence of str, default=()
        Algorithms that are paper 001's AdaBoost (its rule from uniform weights
        at learning rate 1): with ``series``, the report states the chapter's
        theorems, checks Theorems 1-2's bounds on every fit of these algorithms
        and draws them per dataset.
    paper_datasets : sequence of str, default=()
        The datasets the paper itself reports: their rows are the like-for-like
        ones, marked "(paper's set)" in the results tables; with claims, a
        column gives each claim's tally on them.
    warnings : sequence of str, default=()
        Summary lines of the warnings the fits raised, one per (algorithm,
        kind) (:meth:`costsense.experiments._warnings.WarningTally.lines`);
        listed under "Warnings" when given.
    """

    title: str
    metrics: Sequence[str]
    lower_is_better: Collection[str] = ("cost_total", "mean_cost")
    reference: str | None = None
    ratio_to: str | None = None
    notes: str = ""
    paper_notes: str = ""
    alpha: float = 0.05
    paper: Sequence[Mapping[str, Any]] | pd.DataFrame = ()
    claims: Sequence[ClaimCheck] = ()
    banner: str = ""
    paper_features: Mapping[str, Sequence[int]] = field(default_factory=dict)
    noise_columns: Mapping[str, int] = field(default_factory=dict)
    adaboost_algorithms: Sequence[str] = ()
    warnings: Sequence[str] = ()
    paper_datasets: Sequence[str] = ()

    def __post_init__(self) -> None:
        metrics = [self.metrics] if isinstance(self.metrics, str) else self.metrics
        if not metrics:
            raise ValueError("metrics must name at least one metric column.")
        paper = self.paper
        rows = paper.to_dict("records") if isinstance(paper, pd.DataFrame) else paper
        # a frozen dataclass stores its normalised fields through object.__setattr__
        object.__setattr__(self, "metrics", tuple(metrics))
        object.__setattr__(self, "lower_is_better", tuple(self.lower_is_better))
        object.__setattr__(self, "paper", tuple(dict(row) for row in rows))
        object.__setattr__(self, "claims", tuple(self.claims))
        object.__setattr__(self, "paper_datasets", tuple(self.paper_datasets))
        object.__setattr__(self, "adaboost_algorithms", tuple(self.adaboost_algorithms))


@dataclass
class ReportFiles:
    """Paths written by :func:`write_report`.

    Attributes
    ----------
    markdown : Path
        ``report.md``.
    html : Path
        ``report.html`` (self-contained).
    figures : list of Path
        PNG files under ``figures/``, in the order they appear in the report.
    """

    markdown: Path
    html: Path
    figures: list[Path] = field(default_factory=list)
