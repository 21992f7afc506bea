"""The report writer: results and a :class:`ReportSpec` in, Markdown and HTML out.

:func:`write_report` checks its input once, builds the report's sections as document
blocks (title and notes, the results tables, the paper's claims, paper vs ours, the
statistical comparison, how the fits ended, their warnings, the features kept, paper
001's theorems on AdaBoost's training error, the figures), and renders them to
``report.md`` and a self-contained ``report.html``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from costsense.experiments._outputs import write_atomically
from costsense.experiments._report._blocks import to_html, to_markdown
from costsense.experiments._report._features import feature_blocks
from costsense.experiments._report._figure_blocks import _FigureFiles, _figures
from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._fits import fit_blocks
from costsense.experiments._report._sections import (
    _claims,
    _comparison,
    _introduction,
    _paper,
    _results,
    _warnings,
)
from costsense.experiments._report._spec import ReportFiles, ReportSpec
from costsense.experiments._report._tabulated import _KEYS, _check_columns, _tabulate
from costsense.experiments._report._theorems import _theorems

__all__ = ["ReportFiles", "ReportSpec", "write_report"]

_CURVE_COLUMNS = (*_KEYS, "stage", "split", "value")
_SERIES_COLUMNS = (*_KEYS, "stage", "name", "value")


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
        Every file is written under a temporary name and renamed; a symbolic
        link in the folder (``report.md``, ``figures``) is refused or replaced,
        never written through.
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
    # never through a link planted at report.md (write_atomically)
    text = to_markdown(blocks, files.folder)
    write_atomically(markdown, text.encode("utf-8"), root=out)
    write_atomically(page, to_html(blocks, spec.title).encode("utf-8"), root=out)
    return ReportFiles(markdown=markdown, html=page, figures=files.paths)
