"""What a report reads: its spec, and the results checked and summarised once.

Every results cell is ``mean (std)`` over the repeats x folds of one (dataset,
cost, algorithm), with the sample std; a metric whose finite values all lie in
[0, 1] is a rate, printed with 3 decimals, any other with 2. Change it when the
report's input or its summaries change.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from costsense.experiments._claims import ClaimCheck
from costsense.experiments._labels import sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER
from costsense.experiments._stats import describe

__all__ = ["Report", "ReportFiles", "ReportSpec", "Summary", "summarise"]

KEYS = ("dataset", "cost", "algorithm", "repeat", "fold")
_PAPER_COLUMNS = ("dataset", "cost", "algorithm", "metric", "value")


@dataclass(frozen=True)
class ReportSpec:
    """What a report shows: a study's declarations, everything but the results.

    ``metrics`` are tabulated in order (the first is the figures' main metric);
    ``reference`` is compared with every other algorithm by significance tests;
    ``ratio_to`` adds a figure of each main-metric mean over this algorithm's;
    ``notes`` go under the title and ``paper_notes`` beside ``paper``, the
    published numbers (``dataset``, ``cost``, ``algorithm``, ``metric``,
    ``value``); ``claims`` are checked claims (:func:`check_claims`);
    ``banner`` is a warning under the title (a partial or ``--quick`` run);
    ``paper_features`` the paper's features left per dataset (1-based) and
    ``noise_columns`` the datasets with appended noise columns (how many);
    ``sections`` the study's declared sections
    (:mod:`~costsense.experiments._report._declared`); ``warnings`` the fits'
    warning lines; ``paper_datasets`` the paper's own datasets (marked in the
    tables, claims tallied on them apart).
    """

    title: str
    metrics: Sequence[str]
    lower_is_better: Sequence[str] = LOWER_IS_BETTER
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
    sections: Sequence[Mapping[str, Any]] = ()
    warnings: Sequence[str] = ()
    paper_datasets: Sequence[str] = ()

    def __post_init__(self) -> None:
        metrics = [self.metrics] if isinstance(self.metrics, str) else self.metrics
        if not metrics:
            raise ValueError("metrics must name at least one metric column.")
        paper = self.paper
        rows = paper.to_dict("records") if isinstance(paper, pd.DataFrame) else paper
        # a frozen dataclass stores its normalised fields through object.__setattr__
        for name, value in [
            ("metrics", tuple(metrics)),
            ("lower_is_better", tuple(self.lower_is_better)),
            ("paper", tuple(dict(row) for row in rows)),
            ("claims", tuple(self.claims)),
            ("paper_datasets", tuple(self.paper_datasets)),
            ("sections", tuple(dict(s) for s in self.sections)),
        ]:
            object.__setattr__(self, name, value)


@dataclass
class ReportFiles:
    """Paths written: ``report.md``, ``report.html``, the figures in report order."""

    markdown: Path
    html: Path
    figures: list[Path] = field(default_factory=list)


def choose_decimals(values: Iterable[float]) -> int:
    """Return 3 for a rate (every finite value within [0, 1]), else 2."""
    x = np.asarray(list(values), dtype=np.float64)
    x = x[np.isfinite(x)]
    return 3 if x.size and bool(np.all((x >= 0) & (x <= 1))) else 2


def fmt(value: float, decimals: int, *, sign: bool = False) -> str:
    """Format a number with fixed decimals (and its sign); NaN as ``n/a``."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"


@dataclass
class Summary:
    """Mean and std of one metric per (row, algorithm), and its fold values per row."""

    means: NDArray[np.float64]
    stds: NDArray[np.float64]
    decimals: int
    blocks: dict[tuple[str, str], pd.DataFrame]


def summarise(
    data: pd.DataFrame,
    metric: str,
    rows: Sequence[tuple[str, str]],
    algorithms: Sequence[str],
) -> Summary:
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
    Summary
        Means and sample stds (NaN fold values ignored; NaN without a value),
        the metric's decimals, and per row a frame indexed by (repeat, fold)
        with one column per algorithm.
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
        for j, alg in enumerate(algorithms):
            if alg in blocks[row].columns:
                values = blocks[row][alg].dropna().to_numpy(dtype=np.float64)
                if values.size:
                    means[i, j], stds[i, j] = describe(values)
    return Summary(means, stds, choose_decimals(data[metric]), blocks)


@dataclass
class Report:
    """Everything a section reads: the spec, the results checked and summarised.

    ``data`` has string ``dataset``, ``cost`` and ``algorithm``; ``algorithms``
    are in order of first appearance, ``rows`` (dataset, cost) in
    :func:`sort_rows` order; ``summary_of`` holds the tabulated metrics and the
    paper's (when measured); ``curves``, ``series`` and ``boundaries`` are
    the optional inputs of :func:`write_report`, ``figures`` the figure folder.
    """

    spec: ReportSpec
    data: pd.DataFrame
    algorithms: list[str]
    rows: list[tuple[str, str]]
    summary_of: dict[str, Summary]
    curves: pd.DataFrame | None = None
    series: pd.DataFrame | None = None
    boundaries: Sequence[Any] = ()
    figures: Any = None


def check_columns(frame: pd.DataFrame, required: Iterable[str], name: str) -> None:
    """Raise if a frame lacks any of the required columns."""
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing the columns {missing}.")


def tabulate(results: pd.DataFrame, spec: ReportSpec) -> Report:
    """Check the results against the spec and summarise every metric shown."""
    check_columns(results, [*KEYS, *spec.metrics], "results")
    if results.empty:
        raise ValueError("results has no rows.")
    data = results.assign(**{k: results[k].astype(str) for k in KEYS[:3]})
    duplicated = data.duplicated(list(KEYS))
    if duplicated.any():
        first = data.loc[duplicated, list(KEYS)].iloc[0].tolist()
        raise ValueError(
            f"results has {int(duplicated.sum())} duplicated cells "
            f"(dataset, cost, algorithm, repeat, fold), e.g. {first}."
        )
    algorithms = [str(a) for a in pd.unique(data["algorithm"])]
    for option in ("reference", "ratio_to"):
        name = getattr(spec, option)
        if name is not None and name not in algorithms:
            raise ValueError(
                f"{option} {name!r} is not among the algorithms {algorithms}."
            )
    missing = [c for c in _PAPER_COLUMNS if any(c not in row for row in spec.paper)]
    if missing:
        raise ValueError(f"paper is missing the columns {missing}.")
    rows = sort_rows(set(data[["dataset", "cost"]].itertuples(index=False, name=None)))
    shown = dict.fromkeys([*spec.metrics, *(str(p["metric"]) for p in spec.paper)])
    summary_of = {
        m: summarise(data, m, rows, algorithms) for m in shown if m in data.columns
    }
    return Report(spec, data, algorithms, rows, summary_of)
