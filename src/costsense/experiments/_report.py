"""Markdown and self-contained HTML reports of a study's raw fold results.

:func:`write_report` turns the runner's rows (one per dataset x cost x algorithm x
repeat x fold) into mean (std) tables, a comparison with a paper's published
numbers, paired significance tests and PNG figures. The report is built once as
a list of blocks and rendered twice: Markdown with relative figure links, and a
single HTML file with the figures inlined as base64 data URIs.

Figures are drawn on :class:`matplotlib.figure.Figure` objects directly, which
need no GUI backend and leave pyplot's global state alone.
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
import matplotlib.colors
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from numpy.typing import NDArray

from costsense.experiments._labels import normalise_label, sort_rows
from costsense.experiments._stats import (
    best_mask,
    describe,
    mean_ranks,
    wilcoxon_test,
    win_tie_loss,
)

__all__ = ["Boundary", "ReportFiles", "write_report"]

_KEYS = ("dataset", "cost", "algorithm", "repeat", "fold")
_CURVE_COLUMNS = (*_KEYS, "stage", "split", "value")
_PAPER_COLUMNS = ("dataset", "cost", "algorithm", "metric", "value")
_DPI = 100
_REGION_COLOURS = ("#d6e4f0", "#f6d5d0")  # negative, positive
_POINT_COLOURS = ("#1f4e79", "#a3271a")

_CSS = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; }
figure { margin: 1.5em 0; }
figcaption { font-size: 0.9em; color: #555; }
"""


@dataclass
class Boundary:
    """Decision regions of several algorithms on a 2-D grid, for one setting.

    Attributes
    ----------
    dataset : str
        Dataset name.
    cost : str
        Cost label, as in the results' ``cost`` column.
    xx, yy : ndarray of shape (r, r)
        Grid coordinates, as returned by ``np.meshgrid``.
    predictions : dict of str to ndarray of shape (r, r)
        Predicted label of each algorithm at the grid points, in {0, 1}
        (1 = positive class).
    reference : ndarray of shape (r, r) or None
        Bayes discriminant on the grid; its zero level set is drawn as the
        reference boundary.
    X : ndarray of shape (n_samples, 2)
        Training points, drawn as a light scatter.
    y : ndarray of shape (n_samples,)
        Training labels in {0, 1}.
    """

    dataset: str
    cost: str
    xx: NDArray[np.float64]
    yy: NDArray[np.float64]
    predictions: dict[str, NDArray[np.int_]]
    reference: NDArray[np.float64] | None
    X: NDArray[np.float64]
    y: NDArray[np.int_]


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


# --------------------------------------------------------------------------
# Document blocks, rendered to Markdown and HTML.


@dataclass
class _Cell:
    """Table cell: text and whether it is bold."""

    text: str
    bold: bool = False


@dataclass
class _Table:
    """Table with a header row."""

    header: list[str]
    rows: list[list[_Cell]]


@dataclass
class _Heading:
    """Section heading (level 1 to 3)."""

    text: str
    level: int


@dataclass
class _Paragraph:
    """Paragraph of plain text."""

    text: str


@dataclass
class _Image:
    """Figure stored as a PNG file."""

    path: Path
    caption: str


_Block = _Heading | _Paragraph | _Table | _Image


def _md_cell(cell: _Cell) -> str:
    """Render one table cell as Markdown.

    Parameters
    ----------
    cell : _Cell
        The cell.

    Returns
    -------
    str
        Text with ``|`` escaped, wrapped in ``**`` when bold.
    """
    text = cell.text.replace("|", "\\|")
    return f"**{text}**" if cell.bold and text else text


def _to_markdown(blocks: Sequence[_Block], figure_dir: Path) -> str:
    """Render the blocks as Markdown.

    Parameters
    ----------
    blocks : sequence of blocks
        The report content.
    figure_dir : Path
        Directory of the figures; links are ``figures/<name>``.

    Returns
    -------
    str
        The Markdown document.
    """
    out: list[str] = []
    for block in blocks:
        if isinstance(block, _Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, _Paragraph):
            out.append(block.text)
        elif isinstance(block, _Table):
            lines = [
                "| " + " | ".join(h.replace("|", "\\|") for h in block.header) + " |",
                "|" + "|".join("---" for _ in block.header) + "|",
            ]
            lines += [
                "| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows
            ]
            out.append("\n".join(lines))
        else:
            rel = f"{figure_dir.name}/{block.path.name}"
            alt = block.caption.replace("[", "(").replace("]", ")")
            out.append(f"![{alt}]({rel})\n\n*{block.caption}*")
    return "\n\n".join(out) + "\n"


def _to_html(blocks: Sequence[_Block], title: str) -> str:
    """Render the blocks as one self-contained HTML page.

    Parameters
    ----------
    blocks : sequence of blocks
        The report content.
    title : str
        Page title.

    Returns
    -------
    str
        HTML with inline CSS and the figures as base64 ``data:`` URIs.
    """
    esc = html.escape
    body: list[str] = []
    for block in blocks:
        if isinstance(block, _Heading):
            body.append(f"<h{block.level}>{esc(block.text)}</h{block.level}>")
        elif isinstance(block, _Paragraph):
            body.append(f"<p>{esc(block.text)}</p>")
        elif isinstance(block, _Table):
            head = "".join(f"<th>{esc(h)}</th>" for h in block.header)
            rows = []
            for row in block.rows:
                cells = "".join(
                    f"<td><b>{esc(c.text)}</b></td>"
                    if c.bold and c.text
                    else f"<td>{esc(c.text)}</td>"
                    for c in row
                )
                rows.append(f"<tr>{cells}</tr>")
            body.append(
                f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
                + "\n".join(rows)
                + "\n</tbody>\n</table>"
            )
        else:
            data = base64.b64encode(block.path.read_bytes()).decode("ascii")
            body.append(
                f'<figure><img alt="{esc(block.caption)}" '
                f'src="data:image/png;base64,{data}">'
                f"<figcaption>{esc(block.caption)}</figcaption></figure>"
            )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------
# Numbers and names.


def _decimals(values: Iterable[float]) -> int:
    """Choose the number of decimals of a metric.

    Parameters
    ----------
    values : iterable of float
        All fold values of the metric.

    Returns
    -------
    int
        3 for rates (every finite value within [0, 1]), else 2.
    """
    x = np.asarray(list(values), dtype=np.float64)
    x = x[np.isfinite(x)]
    return 3 if x.size and bool(np.all((x >= 0) & (x <= 1))) else 2


def _fmt(value: float, decimals: int, *, sign: bool = False) -> str:
    """Format a number with fixed decimals; NaN as ``n/a``.

    Parameters
    ----------
    value : float
        The number.
    decimals : int
        Digits after the point.
    sign : bool, default=False
        Always show the sign.

    Returns
    -------
    str
        The formatted number.
    """
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"


def _safe_name(text: str) -> str:
    """Make a file-name-safe stem.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        Runs of characters other than letters, digits, ``.``, ``-`` and ``_``
        replaced by ``_``.
    """
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "figure"


def _unique_path(directory: Path, stem: str, used: set[str]) -> Path:
    """Return ``directory / stem.png``, suffixed ``_2``, ``_3``... if taken.

    Parameters
    ----------
    directory : Path
        Figure directory.
    stem : str
        Safe file stem.
    used : set of str
        Stems already used by this report; updated in place.

    Returns
    -------
    Path
        A path not used before in this report.
    """
    candidate, k = stem, 1
    while candidate in used:
        k += 1
        candidate = f"{stem}_{k}"
    used.add(candidate)
    return directory / f"{candidate}.png"


def _plain(text: str) -> str:
    """Escape ``$`` so matplotlib does not parse text as mathtext.

    Parameters
    ----------
    text : str
        Label text.

    Returns
    -------
    str
        The text with ``$`` escaped.
    """
    return text.replace("$", r"\$")


# --------------------------------------------------------------------------
# Summaries.


@dataclass
class _Summary:
    """Mean and std of one metric per (row, algorithm), and its fold values."""

    means: NDArray[np.float64]
    stds: NDArray[np.float64]
    decimals: int
    blocks: dict[tuple[str, str], pd.DataFrame]


def _summarise(
    data: pd.DataFrame,
    metric: str,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
) -> _Summary:
    """Compute the mean (std) table of one metric.

    Parameters
    ----------
    data : DataFrame
        Results with string ``dataset`` and ``cost`` columns.
    metric : str
        Metric column.
    rows : sequence of (str, str)
        Table rows (dataset, cost).
    algorithms : sequence of str
        Table columns.

    Returns
    -------
    _Summary
        Means and sample stds (NaN where an algorithm has no finite value in a
        row; NaN fold values are ignored), the metric's decimals, and per row a
        frame indexed by (repeat, fold) with one column per algorithm.
    """
    wide = data.pivot(
        index=["dataset", "cost", "repeat", "fold"], columns="algorithm", values=metric
    )
    blocks = {
        (str(ds), str(cost)): frame.droplevel(["dataset", "cost"])
        for (ds, cost), frame in wide.groupby(level=["dataset", "cost"], sort=False)
    }
    means = np.full((len(rows), len(algorithms)), np.nan)
    stds = np.full_like(means, np.nan)
    for i, row in enumerate(rows):
        frame = blocks[row]
        for j, alg in enumerate(algorithms):
            if alg not in frame.columns:
                continue
            values = frame[alg].dropna().to_numpy(dtype=np.float64)
            if values.size:
                means[i, j], stds[i, j] = describe(values)
    return _Summary(means, stds, _decimals(data[metric]), blocks)


def _results_table(
    summary: _Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    lower: bool,
) -> _Table:
    """Build the mean (std) table of one metric, best per row in bold.

    Parameters
    ----------
    summary : _Summary
        The metric's summary.
    rows : sequence of (str, str)
        Row labels (dataset, cost).
    algorithms : sequence of str
        Column labels.
    lower : bool
        Whether lower is better.

    Returns
    -------
    _Table
        One row per (dataset, cost) and a final "mean rank" row.
    """
    d = summary.decimals
    best = best_mask(summary.means, lower_is_better=lower)
    body = []
    for i, (ds, cost) in enumerate(rows):
        cells = [_Cell(ds), _Cell(cost)]
        for j in range(summary.means.shape[1]):
            mean, std = summary.means[i, j], summary.stds[i, j]
            text = "n/a" if np.isnan(mean) else f"{_fmt(mean, d)} ({_fmt(std, d)})"
            cells.append(_Cell(text, bool(best[i, j])))
        body.append(cells)
    ranks = mean_ranks(summary.means, lower_is_better=lower)
    body.append([_Cell("mean rank"), _Cell("")] + [_Cell(f"{r:.2f}") for r in ranks])
    return _Table(["dataset", "cost", *algorithms], body)


def _paper_table(
    paper: pd.DataFrame,
    summary_of: dict[str, _Summary],
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
) -> _Table:
    """Compare the paper's published values with ours.

    Parameters
    ----------
    paper : DataFrame
        Columns dataset, cost, algorithm, metric, value.
    summary_of : dict of str to _Summary
        Summaries of the metrics present both in the paper and in the results.
    rows : sequence of (str, str)
        Our rows, in table order.
    algorithms : sequence of str
        Our algorithms, in table order.

    Returns
    -------
    _Table
        One row per paper entry, in the paper's order: its value, ours and
        ``ours - paper``.
    """
    row_index = {(ds, normalise_label(cost)): i for i, (ds, cost) in enumerate(rows)}
    alg_index = {alg: j for j, alg in enumerate(algorithms)}
    body = []
    for entry in paper.itertuples(index=False):
        ds, cost = str(entry.dataset), str(entry.cost)
        metric, alg = str(entry.metric), str(entry.algorithm)
        value = float(entry.value)
        summary = summary_of.get(metric)
        i = row_index.get((ds, normalise_label(cost)))
        j = alg_index.get(alg)
        ours = np.nan
        if summary is not None and i is not None and j is not None:
            ours = float(summary.means[i, j])
        d = summary.decimals if summary is not None else _decimals([value])
        body.append(
            [
                _Cell(ds),
                _Cell(cost),
                _Cell(alg),
                _Cell(metric),
                _Cell(_fmt(value, d)),
                _Cell(_fmt(ours, d)),
                _Cell(_fmt(ours - value, d, sign=True)),
            ]
        )
    header = ["dataset", "cost", "algorithm", "metric", "paper", "ours", "difference"]
    return _Table(header, body)


def _comparison_table(
    summary_of: dict[str, _Summary],
    metrics: Sequence[str],
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    reference: str,
    lower_set: set[str],
    alpha: float,
) -> _Table:
    """Build the win/tie/loss and Wilcoxon table of the reference algorithm.

    Parameters
    ----------
    summary_of : dict of str to _Summary
        Summaries of ``metrics``.
    metrics : sequence of str
        Compared metrics.
    rows : sequence of (str, str)
        Rows (dataset, cost).
    algorithms : sequence of str
        All algorithms, the reference included.
    reference : str
        Reference algorithm.
    lower_set : set of str
        Metrics where lower is better.
    alpha : float
        Significance level.

    Returns
    -------
    _Table
        Per metric and other algorithm: rows tested, wins/ties/losses of the
        reference (paired t-test per row over folds matched by repeat and
        fold; rows with fewer than 2 complete pairs are skipped), and the
        Wilcoxon signed-rank test across rows on the row means.
    """
    ref = list(algorithms).index(reference)
    body = []
    for metric in metrics:
        summary = summary_of[metric]
        lower = metric in lower_set
        for j, other in enumerate(algorithms):
            if other == reference:
                continue
            pairs = []
            for row in rows:
                frame = summary.blocks[row]
                if reference not in frame.columns or other not in frame.columns:
                    continue
                paired = frame[[reference, other]].dropna()
                if len(paired) >= 2:
                    pairs.append((paired[reference], paired[other]))
            wins, ties, losses = win_tie_loss(
                pairs, test="t", alpha=alpha, lower_is_better=lower
            )
            a, b = summary.means[:, ref], summary.means[:, j]
            keep = ~(np.isnan(a) | np.isnan(b))
            statistic = pvalue = "n/a"
            if keep.sum() >= 2:
                result = wilcoxon_test(a[keep], b[keep], alpha=alpha)
                if math.isfinite(result.pvalue):
                    statistic = f"{result.statistic:g}"
                    pvalue = f"{result.pvalue:.3g}"
            body.append(
                [
                    _Cell(metric),
                    _Cell(other),
                    _Cell(str(len(pairs))),
                    _Cell(str(wins)),
                    _Cell(str(ties)),
                    _Cell(str(losses)),
                    _Cell(statistic),
                    _Cell(pvalue),
                ]
            )
    header = [
        "metric",
        "algorithm",
        "rows",
        "wins",
        "ties",
        "losses",
        "Wilcoxon statistic",
        "Wilcoxon p-value",
    ]
    return _Table(header, body)


# --------------------------------------------------------------------------
# Figures.


def _save(fig: Figure, path: Path) -> Path:
    """Write a figure as PNG.

    Parameters
    ----------
    fig : Figure
        The figure.
    path : Path
        Destination.

    Returns
    -------
    Path
        ``path``.
    """
    fig.savefig(path, format="png", dpi=_DPI)
    return path


def _colours(names: Sequence[str]) -> dict[str, str]:
    """Assign matplotlib's cycle colours to algorithms, in order.

    Parameters
    ----------
    names : sequence of str
        Algorithms.

    Returns
    -------
    dict of str to str
        Colour of each algorithm: matplotlib's ten cycle colours, or the twenty
        of ``tab20`` when there are more than ten algorithms.
    """
    if len(names) <= 10:
        return {name: f"C{k}" for k, name in enumerate(names)}
    palette = matplotlib.colormaps["tab20"].colors
    return {
        name: matplotlib.colors.to_hex(palette[k % len(palette)])
        for k, name in enumerate(names)
    }


def _bar_chart(
    summary: _Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    path: Path,
) -> Path:
    """Draw a grouped bar chart of one metric with std error bars.

    Parameters
    ----------
    summary : _Summary
        The metric's summary.
    rows : sequence of (str, str)
        Groups (dataset, cost).
    algorithms : sequence of str
        Bars within a group.
    metric : str
        Metric name, for the axis label.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    n_rows, n_alg = summary.means.shape
    fig = Figure(figsize=(max(6.0, 0.5 + 0.3 * n_rows * n_alg), 4.0), layout="tight")
    ax = fig.add_subplot()
    x = np.arange(n_rows)
    width = 0.8 / max(n_alg, 1)
    colours = _colours(algorithms)
    for j, alg in enumerate(algorithms):
        means = summary.means[:, j]
        shown = ~np.isnan(means)
        ax.bar(
            x[shown] + (j - (n_alg - 1) / 2) * width,
            means[shown],
            width,
            yerr=np.nan_to_num(summary.stds[shown, j]),
            capsize=2,
            color=colours[alg],
            label=_plain(alg),
        )
    ax.set_xticks(x, [_plain(f"{ds}\n{cost}") for ds, cost in rows])
    if n_rows > 8:
        ax.tick_params(axis="x", labelrotation=60)
    ax.set_ylabel(_plain(metric))
    ax.set_title(_plain(f"{metric}: mean and std over repeats x folds"))
    ax.legend(fontsize="small")
    return _save(fig, path)


def _ratio_chart(
    summary: _Summary,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
    metric: str,
    baseline: str,
    path: Path,
) -> Path:
    """Draw each algorithm's mean divided by the baseline's, per row.

    Parameters
    ----------
    summary : _Summary
        The metric's summary.
    rows : sequence of (str, str)
        Groups (dataset, cost).
    algorithms : sequence of str
        Bars within a group (the baseline is left out: it is 1).
    metric : str
        Metric name.
    baseline : str
        The algorithm every mean is divided by.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    base = summary.means[:, list(algorithms).index(baseline)]
    others = [a for a in algorithms if a != baseline]
    costs = list(dict.fromkeys(cost for _, cost in rows))  # one panel per cost
    datasets = list(dict.fromkeys(ds for ds, _ in rows))
    width_in = max(6.0, 1.0 + 0.22 * len(datasets) * len(others))
    fig = Figure(figsize=(min(width_in, 16.0), 2.6 * len(costs) + 0.6), layout="tight")
    axes = fig.subplots(len(costs), 1, squeeze=False)[:, 0]
    width = 0.8 / max(len(others), 1)
    colours = _colours(algorithms)
    for ax, cost in zip(axes, costs, strict=True):
        index = [k for k, (_, c) in enumerate(rows) if c == cost]
        names = [rows[k][0] for k in index]
        x = np.arange(len(index))
        with np.errstate(divide="ignore", invalid="ignore"):
            for j, alg in enumerate(others):
                ratio = summary.means[index, list(algorithms).index(alg)] / base[index]
                shown = np.isfinite(ratio)
                ax.bar(
                    x[shown] + (j - (len(others) - 1) / 2) * width,
                    ratio[shown],
                    width,
                    color=colours[alg],
                    label=_plain(alg),
                )
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(x, [_plain(name) for name in names])
        if len(index) > 8:
            ax.tick_params(axis="x", labelrotation=45)
        ax.set_ylabel(_plain(f"/ {baseline}"))
        ax.set_title(_plain(f"{metric} relative to {baseline}, cost {cost}"))
    axes[0].legend(fontsize="small")
    return _save(fig, path)


def _average_curves(curves: pd.DataFrame) -> pd.DataFrame:
    """Average the staged curves over repeats and folds.

    Parameters
    ----------
    curves : DataFrame
        Columns dataset, cost, algorithm, repeat, fold, stage, split, value.

    Returns
    -------
    DataFrame
        Columns dataset, cost, algorithm, split, stage, value (the mean over
        repeats and folds, NaN ignored), sorted by stage within each group;
        ``dataset`` and ``cost`` as strings.
    """
    data = curves.assign(
        dataset=curves["dataset"].astype(str), cost=curves["cost"].astype(str)
    )
    keys = ["dataset", "cost", "algorithm", "split", "stage"]
    return data.groupby(keys, sort=True)["value"].mean().reset_index()


def _curve_plot(
    frame: pd.DataFrame, dataset: str, cost: str, colours: dict[str, str], path: Path
) -> Path:
    """Plot mean cost per sample against the boosting stage for one setting.

    Parameters
    ----------
    frame : DataFrame
        Rows of :func:`_average_curves` for one (dataset, cost).
    dataset, cost : str
        The setting, for the title.
    colours : dict of str to str
        Colour of each algorithm, in legend order; must cover every algorithm
        of ``frame``.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    present = {str(a) for a in frame["algorithm"]}
    for ax, split, style in zip(axes, ("test", "train"), ("-", "--"), strict=True):
        for alg in [a for a in colours if a in present]:
            part = frame[(frame["algorithm"] == alg) & (frame["split"] == split)]
            if part.empty:
                continue
            ax.plot(
                part["stage"],
                part["value"],
                linestyle=style,
                color=colours.get(str(alg), "k"),
                label=_plain(str(alg)),
            )
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("stage")
        ax.set_title(_plain(f"{dataset}, cost {cost}: {split}"))
    axes[0].set_ylabel("mean cost per sample")
    handles, labels = axes[0].get_legend_handles_labels()
    if not handles:
        handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize="small")
    return _save(fig, path)


def _boundary_plot(boundary: Boundary, path: Path) -> Path:
    """Draw each algorithm's decision regions with the data and the Bayes boundary.

    Parameters
    ----------
    boundary : Boundary
        Grid, predictions, reference and training points.
    path : Path
        Destination PNG.

    Returns
    -------
    Path
        ``path``.
    """
    xx, yy = np.asarray(boundary.xx), np.asarray(boundary.yy)
    X, y = np.asarray(boundary.X), np.asarray(boundary.y)
    n = max(len(boundary.predictions), 1)
    ncols = min(n, 5)
    nrows = -(-n // ncols)
    fig = Figure(figsize=(3.2 * ncols, 3.2 * nrows + 0.3), layout="tight")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    reference = None if boundary.reference is None else np.asarray(boundary.reference)
    for ax, (alg, pred) in zip(axes, boundary.predictions.items(), strict=False):
        pred = np.asarray(pred, dtype=np.float64)
        if pred.shape != xx.shape:
            raise ValueError(
                f"Predictions of {alg!r} have shape {pred.shape}; the grid has "
                f"shape {xx.shape}."
            )
        ax.contourf(xx, yy, pred, levels=[-0.5, 0.5, 1.5], colors=_REGION_COLOURS)
        for label, colour in enumerate(_POINT_COLOURS):
            points = X[y == label]
            ax.scatter(points[:, 0], points[:, 1], s=6, alpha=0.4, color=colour)
        if reference is not None and reference.min() < 0 < reference.max():
            ax.contour(xx, yy, reference, levels=[0.0], colors="k", linewidths=1.5)
        ax.set_xlim(float(xx.min()), float(xx.max()))
        ax.set_ylim(float(yy.min()), float(yy.max()))
        ax.set_title(_plain(str(alg)), fontsize="medium")
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle(_plain(f"{boundary.dataset}, cost {boundary.cost}"))
    return _save(fig, path)


# --------------------------------------------------------------------------
# The writer.


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


def write_report(
    results: pd.DataFrame,
    out_dir: str | os.PathLike[str],
    *,
    title: str,
    metrics: Sequence[str],
    lower_is_better: Iterable[str] = ("cost_total", "mean_cost"),
    reference: str | None = None,
    curves: pd.DataFrame | None = None,
    boundaries: Iterable[Boundary] = (),
    paper: pd.DataFrame | None = None,
    claims: Sequence[tuple[str, str, str]] = (),
    ratio_to: str | None = None,
    notes: str = "",
    alpha: float = 0.05,
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
    title : str
        Report title.
    metrics : sequence of str
        Metric columns to tabulate, in order; the first is the main metric of
        the bar chart.
    lower_is_better : iterable of str, default=("cost_total", "mean_cost")
        Metrics where lower values are better; all others are higher-is-better.
    reference : str, default=None
        Algorithm to compare against every other one with significance tests.
        None skips the comparison.
    curves : DataFrame, default=None
        Staged curves: columns ``dataset``, ``cost``, ``algorithm``, ``repeat``,
        ``fold``, ``stage`` (1-based), ``split`` ("train" or "test") and
        ``value`` (mean cost per sample). One figure per (dataset, cost).
    boundaries : iterable of Boundary, default=()
        Decision-boundary figures, one per item.
    paper : DataFrame, default=None
        Published numbers: columns ``dataset``, ``cost``, ``algorithm``,
        ``metric``, ``value``. Adds a "paper vs ours" table.
    ratio_to : str, default=None
        An algorithm: adds a bar chart of every algorithm's mean of the main
        metric divided by this one's, per dataset and cost (paper 002, figure 1).
    claims : sequence of (str, str, str), default=()
        The paper's claims as ``(text, verdict, evidence)``, from
        :func:`costsense.experiments._claims.check_claims`; a table when given.
    notes : str, default=""
        Free text placed under the title (blank lines separate paragraphs).
    alpha : float, default=0.05
        Significance level of the tests.

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
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    if not metrics:
        raise ValueError("metrics must name at least one metric column.")
    _check_columns(results, [*_KEYS, *metrics], "results")
    if results.empty:
        raise ValueError("results has no rows.")
    lower_set = set(lower_is_better)

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
    if reference is not None and reference not in algorithms:
        raise ValueError(
            f"reference {reference!r} is not among the algorithms {algorithms}."
        )
    rows = sort_rows(
        {(str(d), str(c)) for d, c in data[["dataset", "cost"]].itertuples(False)}
    )

    out = Path(out_dir)
    figure_dir = out / "figures"
    figure_dir.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    figures: list[Path] = []

    summary_of = {m: _summarise(data, m, rows, algorithms) for m in metrics}

    n_costs = data["cost"].nunique()
    blocks: list[_Block] = [_Heading(title, 1)]
    blocks += [_Paragraph(p.strip()) for p in re.split(r"\n\s*\n", notes) if p.strip()]
    blocks.append(
        _Paragraph(
            f"{len(data)} cells, {data['dataset'].nunique()} datasets, "
            f"{n_costs} costs, {len(algorithms)} algorithms."
        )
    )

    blocks.append(_Heading("Results", 2))
    for metric in metrics:
        summary = summary_of[metric]
        lower = metric in lower_set
        blocks.append(_Heading(metric, 3))
        blocks.append(
            _Paragraph(
                f"Mean (std) over repeats x folds; "
                f"{'lower' if lower else 'higher'} is better; "
                f"the best of each row is bold; {summary.decimals} decimals."
            )
        )
        blocks.append(_results_table(summary, rows, algorithms, lower))

    if claims:
        blocks.append(_Heading("The paper's claims", 2))
        blocks.append(
            _Paragraph(
                "Each claim checked on our means per dataset x cost row: "
                "reproduced (holds on every row), partly, or not reproduced."
            )
        )
        blocks.append(
            _Table(
                ["claim", "verdict", "evidence"],
                [
                    [_Cell(text), _Cell(verdict, bold=True), _Cell(evidence)]
                    for text, verdict, evidence in claims
                ],
            )
        )

    if paper is not None and not paper.empty:
        _check_columns(paper, _PAPER_COLUMNS, "paper")
        for m in pd.unique(paper["metric"].astype(str)):
            if m not in summary_of and m in data.columns:
                summary_of[m] = _summarise(data, m, rows, algorithms)
        blocks.append(_Heading("Paper vs ours", 2))
        blocks.append(
            _Paragraph(
                "Published value, our mean over repeats x folds, and the "
                "difference (ours - paper)."
            )
        )
        blocks.append(_paper_table(paper, summary_of, rows, algorithms))

    if reference is not None:
        blocks.append(_Heading("Statistical comparison", 2))
        blocks.append(
            _Paragraph(
                f"Wins, ties and losses of {reference} against each algorithm: "
                f"two-sided paired t-test at level {alpha:g} over the folds of "
                "each dataset x cost row, pairs matched by repeat and fold. "
                "Wilcoxon signed-rank test (two-sided) across rows on the row "
                "means."
            )
        )
        blocks.append(
            _comparison_table(
                summary_of, metrics, rows, algorithms, reference, lower_set, alpha
            )
        )

    blocks.append(_Heading("Figures", 2))
    main = metrics[0]
    path = _unique_path(figure_dir, _safe_name(f"bar_{main}"), used)
    figures.append(_bar_chart(summary_of[main], rows, algorithms, main, path))
    blocks.append(
        _Image(path, f"{main}: mean per dataset and cost, error bars one std")
    )

    if ratio_to is not None:
        if ratio_to not in algorithms:
            raise ValueError(f"ratio_to={ratio_to!r} is not one of {algorithms}.")
        path = _unique_path(figure_dir, _safe_name(f"ratio_{main}_to_{ratio_to}"), used)
        figures.append(
            _ratio_chart(summary_of[main], rows, algorithms, main, ratio_to, path)
        )
        blocks.append(
            _Image(path, f"{main} of each algorithm divided by {ratio_to}'s (1 = same)")
        )

    if curves is not None and not curves.empty:
        _check_columns(curves, _CURVE_COLUMNS, "curves")
        averaged = _average_curves(curves)
        names = algorithms + [
            str(a) for a in pd.unique(averaged["algorithm"]) if str(a) not in algorithms
        ]
        colours = _colours(names)
        settings = {(d, c) for d, c in averaged[["dataset", "cost"]].itertuples(False)}
        for ds, cost in sort_rows(settings):
            frame = averaged[(averaged["dataset"] == ds) & (averaged["cost"] == cost)]
            path = _unique_path(figure_dir, _safe_name(f"curve_{ds}_{cost}"), used)
            figures.append(_curve_plot(frame, ds, cost, colours, path))
            blocks.append(
                _Image(
                    path,
                    f"{ds}, cost {cost}: mean cost per sample by stage "
                    "(left test, right train), averaged over repeats x folds",
                )
            )

    for boundary in boundaries:
        stem = _safe_name(f"boundary_{boundary.dataset}_{boundary.cost}")
        path = _unique_path(figure_dir, stem, used)
        figures.append(_boundary_plot(boundary, path))
        caption = f"{boundary.dataset}, cost {boundary.cost}: decision regions"
        if boundary.reference is not None:
            caption += " and the Bayes boundary (black)"
        blocks.append(_Image(path, caption))

    markdown = out / "report.md"
    page = out / "report.html"
    markdown.write_text(_to_markdown(blocks, figure_dir), encoding="utf-8")
    page.write_text(_to_html(blocks, title), encoding="utf-8")
    return ReportFiles(markdown=markdown, html=page, figures=figures)
