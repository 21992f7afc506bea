"""The report writer: results and a :class:`ReportSpec` in, Markdown and HTML out.

:func:`write_report` checks its input once, builds the report's sections as document
blocks (title and notes, the results tables, the paper's claims, paper vs ours, the
statistical comparison, how the fits ended, their warnings, the features kept, paper
001's theorems on AdaBoost's training error, the figures), and renders them to
``report.md`` and a self-contained ``report.html``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._claims import ClaimCheck
from costsense.experiments._labels import sort_rows
from costsense.experiments._report._blocks import (
    Block,
    Cell,
    Heading,
    Image,
    Paragraph,
    Table,
    to_html,
    to_markdown,
)
from costsense.experiments._report._features import feature_blocks
from costsense.experiments._report._figures import (
    Boundary,
    assign_colours,
    average_curves,
    bound_plot,
    boundary_plot,
    curve_plot,
    dot_chart,
    ratio_chart,
)
from costsense.experiments._report._fits import fit_blocks, stopping_note
from costsense.experiments._report._tables import (
    Summary,
    comparison_table,
    paper_table,
    results_table,
    summarise,
)

__all__ = ["ReportFiles", "ReportSpec", "write_report"]

_KEYS = ("dataset", "cost", "algorithm", "repeat", "fold")
_CURVE_COLUMNS = (*_KEYS, "stage", "split", "value")
_SERIES_COLUMNS = (*_KEYS, "stage", "name", "value")
#: Relative slack of paper 001's inequalities when checked in floating point.
_BOUND_SLACK = 1e-12
_PAPER_COLUMNS = ("dataset", "cost", "algorithm", "metric", "value")


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


@dataclass(frozen=True)
class _Tabulated:
    """The results as the report's tables see them.

    Attributes
    ----------
    data : DataFrame
        The results, with ``dataset``, ``cost`` and ``algorithm`` as strings.
    algorithms : list of str
        Table columns, in order of first appearance.
    rows : list of (str, str)
        Table rows (dataset, cost), in :func:`sort_rows` order.
    summary_of : dict of str to Summary
        Summaries of the tabulated metrics and of the paper's (when measured).
    """

    data: pd.DataFrame
    algorithms: list[str]
    rows: list[tuple[str, str]]
    summary_of: dict[str, Summary]


class _FigureFiles:
    """Unique PNG paths under the figure folder, kept in the order they are made."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.paths: list[Path] = []
        self._used: set[str] = set()

    def new(self, name: str) -> Path:
        """Return the path of a new figure named after ``name``.

        Parameters
        ----------
        name : str
            Any text; runs of characters other than letters, digits, ``.``,
            ``-`` and ``_`` become ``_``.

        Returns
        -------
        Path
            ``folder / stem.png``, suffixed ``_2``, ``_3``... if the stem is taken.
        """
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "figure"
        candidate, k = stem, 1
        while candidate in self._used:
            k += 1
            candidate = f"{stem}_{k}"
        self._used.add(candidate)
        path = self.folder / f"{candidate}.png"
        self.paths.append(path)
        return path


def _check_columns(frame: pd.DataFrame, required: Iterable[str], name: str) -> None:
    """Raise if a frame lacks columns.

    Parameters
    ----------
    frame : DataFrame
        The frame.
    required : iterable of str
        Column names it must have.
    name : str
        The frame's name, for the message.
    """
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing the columns {missing}.")


def _tabulate(results: pd.DataFrame, spec: ReportSpec) -> _Tabulated:
    """Check the results against the spec and summarise every needed metric."""
    _check_columns(results, [*_KEYS, *spec.metrics], "results")
    if results.empty:
        raise ValueError("results has no rows.")
    data = results.assign(
        dataset=results["dataset"].astype(str),
        cost=results["cost"].astype(str),
        algorithm=results["algorithm"].astype(str),
    )
    duplicated = data.duplicated(list(_KEYS))
    if duplicated.any():
        first = data.loc[duplicated, list(_KEYS)].iloc[0].tolist()
        raise ValueError(
            f"results has {int(duplicated.sum())} duplicated cells "
            f"(dataset, cost, algorithm, repeat, fold), e.g. {first}."
        )
    algorithms = [str(a) for a in pd.unique(data["algorithm"])]
    if spec.reference is not None and spec.reference not in algorithms:
        raise ValueError(
            f"reference {spec.reference!r} is not among the algorithms {algorithms}."
        )
    if spec.ratio_to is not None and spec.ratio_to not in algorithms:
        raise ValueError(f"ratio_to={spec.ratio_to!r} is not one of {algorithms}.")
    missing = [c for c in _PAPER_COLUMNS if any(c not in row for row in spec.paper)]
    if missing:
        raise ValueError(f"paper is missing the columns {missing}.")
    rows = sort_rows(
        {(str(d), str(c)) for d, c in data[["dataset", "cost"]].itertuples(False)}
    )
    paper_metrics = dict.fromkeys(str(row["metric"]) for row in spec.paper)
    measured = [m for m in paper_metrics if m not in spec.metrics and m in data.columns]
    summary_of = {
        m: summarise(data, m, rows, algorithms) for m in [*spec.metrics, *measured]
    }
    return _Tabulated(data, algorithms, rows, summary_of)


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


_THEOREMS = (
    "Paper 001 (the AdaBoost chapter) proves three theorems about AdaBoost's "
    "training error. With f_m = sum_{k <= m} alpha_k G_k the score after round m, "
    "Z_k the normaliser of round k's weight update (equation (3)), e_k its "
    "weighted error (equation (1)) and gamma_k = 1/2 - e_k its edge: "
    "Theorem 1, the training error of sign(f_m) is at most "
    "(1/N) sum_i exp(-y_i f_m(x_i)) = prod_{k <= m} Z_k; "
    "Theorem 2, prod Z_k = prod 2 sqrt(e_k (1 - e_k)) = prod sqrt(1 - 4 gamma_k^2) "
    "<= exp(-2 sum gamma_k^2), so the training error falls exponentially while "
    "the edges stay away from 0 (Corollary 1); Theorem 3, AdaBoost is forward "
    "stagewise additive modelling with the exponential loss: alpha_m minimises "
    "sum_i exp(-y_i (f_{m-1}(x_i) + alpha G_m(x_i))), and a learner of least "
    "weighted error minimises it over the learners."
)


def _bound_violations(series: pd.DataFrame) -> tuple[int, int, list[str]]:
    """Check training error <= prod Z <= edge bound on every saved round.

    Parameters
    ----------
    series : DataFrame
        Rows of the ``series`` table (columns of ``_SERIES_COLUMNS``).

    Returns
    -------
    fits : int
        Fits checked.
    rounds : int
        Rounds checked, over all fits.
    violations : list of str
        One text per round where an inequality fails or a series is missing.
    """
    wide = series.set_index([*_KEYS, "stage", "name"])["value"].unstack("name")
    wide = wide.reindex(columns=["train_error", "normaliser_product", "edge_bound"])
    error, product, bound = (wide[c].to_numpy(dtype=float) for c in wide.columns)
    with np.errstate(invalid="ignore"):
        holds = (error <= product * (1 + _BOUND_SLACK)) & (
            product <= bound * (1 + _BOUND_SLACK)
        )
    violations = [
        f"{ds}, cost {cost}, {alg}, repeat {rep}, fold {fold}, round {stage}"
        for (ds, cost, alg, rep, fold, stage), ok in zip(wide.index, holds, strict=True)
        if not ok
    ]
    fits = len(wide.index.droplevel("stage").unique())
    return fits, len(wide), violations


def _theorems(
    spec: ReportSpec, series: pd.DataFrame | None, files: _FigureFiles
) -> list[Block]:
    """Return paper 001's theorems, their check on the saved series and figures."""
    if series is None or series.empty or not spec.adaboost_algorithms:
        return []
    data = series.assign(
        dataset=series["dataset"].astype(str),
        cost=series["cost"].astype(str),
        algorithm=series["algorithm"].astype(str),
    )
    data = data[data["algorithm"].isin(spec.adaboost_algorithms)]
    if data.empty:
        return []
    names = [a for a in spec.adaboost_algorithms if a in set(data["algorithm"])]
    fits, rounds, violations = _bound_violations(data)
    checked = (
        f"Checked on the training series this run saved for {', '.join(names)} "
        "(AdaBoost from uniform weights at learning rate 1, the theorems' "
        "setting): training error <= prod Z <= exp(-2 sum gamma^2) "
    )
    if violations:
        shown = "; ".join(violations[:5])
        more = f" and {len(violations) - 5} more" if len(violations) > 5 else ""
        verdict = (
            f"{checked}FAILED at {len(violations)} of {rounds} rounds of {fits} "
            f"fits: {shown}{more}."
        )
    else:
        verdict = (
            f"{checked}held at every round of every fit: {rounds} rounds of "
            f"{fits} fits (each inequality up to a relative {_BOUND_SLACK:g}, the "
            "rounding of floats)."
        )
    blocks: list[Block] = [
        Heading("Paper 001's theorems: AdaBoost's training error", 2),
        Paragraph(_THEOREMS),
        Paragraph(
            f"{verdict} Theorems 1-2's equalities and Theorem 3 are checked by "
            "costsense's tests on several data sets and weak learners "
            "(tests/boosting/test_theorems.py), not from these series."
        ),
    ]
    for ds in sorted(set(data["dataset"])):
        path = files.new(f"bounds_{ds}")
        bound_plot(data[data["dataset"] == ds], ds, names, path)
        blocks.append(
            Image(
                path,
                f"{ds}: training error of sign(f_m), prod Z_k (Theorem 1) and "
                "exp(-2 sum gamma_k^2) (Theorem 2) by round, log scale; thin lines "
                "one fit each (cost x repeat x fold), thick lines their mean over "
                "the fits that reached the round; a training error of 0 is not "
                "drawn",
            )
        )
    return blocks


def _constant_fits(data: pd.DataFrame, dataset: str, cost: str) -> dict[str, str]:
    """Say, per algorithm, how many fits of one setting predict one class.

    Parameters
    ----------
    data : DataFrame
        The tabulated results (string ``dataset``, ``cost`` and ``algorithm``),
        with a ``diagnostics`` column of dicts when the run recorded them.
    dataset, cost : str
        The setting.

    Returns
    -------
    dict of str to str
        ``"predicts one class in k of n fits"`` for each algorithm with k > 0
        (the ``constant`` flag of :func:`costsense.experiments._diagnostics.
        fit_diagnostics`); empty without diagnostics.
    """
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


def _figures(
    spec: ReportSpec,
    tab: _Tabulated,
    files: _FigureFiles,
    curves: pd.DataFrame | None,
    boundaries: Iterable[Boundary],
) -> list[Block]:
    """Draw every figure into ``files`` and return their blocks."""
    main = spec.metrics[0]
    summary = tab.summary_of[main]
    blocks: list[Block] = [Heading("Figures", 2)]
    path = files.new(f"means_{main}")
    lower = main in spec.lower_is_better
    dot_chart(summary, tab.rows, tab.algorithms, main, path, lower_is_better=lower)
    blocks.append(
        Image(
            path,
            f"{main}: mean (dot) and one std (bar) per dataset and cost, one panel "
            f"each; the filled dot is the panel's {'lowest' if lower else 'highest'}",
        )
    )

    if spec.ratio_to is not None:
        base = spec.ratio_to
        path = files.new(f"ratio_{main}_to_{base}")
        ratio_chart(summary, tab.rows, tab.algorithms, main, base, path)
        blocks.append(
            Image(path, f"{main} of each algorithm divided by {base}'s (1 = same)")
        )

    if curves is not None and not curves.empty:
        averaged = average_curves(curves)
        names = tab.algorithms + [
            str(a)
            for a in pd.unique(averaged["algorithm"])
            if str(a) not in tab.algorithms
        ]
        palette = assign_colours(names)
        settings = {(d, c) for d, c in averaged[["dataset", "cost"]].itertuples(False)}
        for ds, cost in sort_rows(settings):
            frame = averaged[(averaged["dataset"] == ds) & (averaged["cost"] == cost)]
            path = files.new(f"curve_{ds}_{cost}")
            why = _constant_fits(tab.data, ds, cost)
            curve_plot(frame, ds, cost, palette, path, why_constant=why)
            blocks.append(
                Image(
                    path,
                    f"{ds}, cost {cost}: mean cost per sample by stage "
                    "(left test, right train), averaged over repeats x folds; "
                    "a curve flat over every stage is named in its panel",
                )
            )

    for boundary in boundaries:
        path = files.new(f"boundary_{boundary.dataset}_{boundary.cost}")
        boundary_plot(boundary, path)
        caption = f"{boundary.dataset}, cost {boundary.cost}: decision regions"
        if boundary.reference is not None:
            caption += " and the Bayes boundary (black)"
        blocks.append(Image(path, caption))
    return blocks


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


def write_report(
    results: pd.DataFrame,
    out_dir: str | os.PathLike[str],
    spec: ReportSpec,
    *,
    curves: pd.DataFrame | None = None,
    boundaries: Iterable[Boundary] = (),
    series: pd.DataFrame | None = None,
) -> ReportFiles:
    """Write ``report.md``, ``report.html`` and PNG figures for a study.

    Parameters
    ----------
    results : DataFrame
        One row per finished cell: columns ``dataset``, ``cost``, ``algorithm``,
        ``repeat``, ``fold`` and one float column per metric. Cells with the same
        (dataset, cost, repeat, fold) are paired across algorithms; each
        (dataset, cost, algorithm, repeat, fold) must appear once.
    out_dir : str or path-like
        Output directory, created if needed. Figures go to ``out_dir/figures``.
    spec : ReportSpec
        Title, metrics, reference, paper values, claims and the other settings.
    curves : DataFrame, default=None
        Staged curves: columns ``dataset``, ``cost``, ``algorithm``, ``repeat``,
        ``fold``, ``stage`` (1-based), ``split`` ("train" or "test") and
        ``value`` (mean cost per sample). One figure per (dataset, cost).
    boundaries : iterable of Boundary, default=()
        Decision-boundary figures, one per item.
    series : DataFrame, default=None
        Per-round training series: columns ``dataset``, ``cost``,
        ``algorithm``, ``repeat``, ``fold``, ``stage`` (the round, from 1),
        ``name`` and ``value``. The series ``train_error``,
        ``normaliser_product`` and ``edge_bound`` of ``spec.adaboost_algorithms``
        make the section on paper 001's theorems, one figure per dataset.

    Returns
    -------
    ReportFiles
        Paths of the Markdown file, the HTML file and the figures.

    See Also
    --------
    costsense.experiments._stats.win_tie_loss : Counting of the comparison.

    Notes
    -----
    Each table cell is ``mean (std)`` over all repeats x folds of a (dataset,
    cost, algorithm), with the sample std (``ddof=1``, 0 for one value); NaN
    fold values are ignored and a cell without values reads ``n/a``. A metric
    whose finite values all lie in [0, 1] is a rate and is printed with 3
    decimals; any other metric with 2. The std and the paper comparison use
    the metric's precision; mean ranks use 2 decimals. The best mean of each
    row is bold (ties all bold, see :func:`best_mask`), and the last row holds
    the mean rank of each algorithm (1 = best). Rows are sorted by dataset,
    then by cost (:func:`costsense.experiments._labels.cost_order`: numerically,
    part by part for pairs, text labels last). Algorithms keep their order of
    first appearance in ``results``.

    The comparison counts, per metric and other algorithm, the (dataset, cost)
    rows where the reference is significantly better (win), not significantly
    different (tie) or significantly worse (loss) by the two-sided paired
    t-test over the folds, matched by repeat and fold; rows with fewer than 2
    complete pairs are left out (column "rows" counts the rows tested). It adds
    the two-sided Wilcoxon signed-rank test across rows on the row means
    ("n/a" with fewer than 2 rows).
    """
    tab = _tabulate(results, spec)
    if curves is not None and not curves.empty:
        _check_columns(curves, _CURVE_COLUMNS, "curves")
    if series is not None and not series.empty:
        _check_columns(series, _SERIES_COLUMNS, "series")
    out = Path(out_dir)
    files = _FigureFiles(out / "figures")
    blocks = [
        *_introduction(spec, tab),
        *_results(spec, tab),
        *_claims(spec, tab.data),
        *_paper(spec, tab),
        *_comparison(spec, tab),
        *fit_blocks(tab.data, tab.algorithms),
        *_warnings(spec),
        *feature_blocks(
            tab.data, tab.algorithms, spec.paper_features, spec.noise_columns
        ),
        *_theorems(spec, series, files),
        *_figures(spec, tab, files, curves, boundaries),
    ]
    markdown = out / "report.md"
    page = out / "report.html"
    markdown.write_text(to_markdown(blocks, files.folder), encoding="utf-8")
    page.write_text(to_html(blocks, spec.title), encoding="utf-8")
    return ReportFiles(markdown=markdown, html=page, figures=files.paths)
