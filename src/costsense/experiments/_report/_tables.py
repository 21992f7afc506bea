"""What a report reads: its spec, and the inputs checked and summarised once.

A cell is ``mean (std)`` over repeats x folds (sample std), with 3 decimals for a
rate (every finite value in [0, 1]) and 2 otherwise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from costsense.experiments._claims import ClaimCheck
from costsense.experiments._diagnostics import cell_reasons
from costsense.experiments._labels import sort_rows
from costsense.experiments._scores import LOWER_IS_BETTER
from costsense.experiments._stats import describe

__all__ = ["Report", "ReportFiles", "ReportSpec", "Summary"]

KEYS = ("dataset", "cost", "algorithm", "repeat", "fold")
_PAPER_COLUMNS = ("dataset", "cost", "algorithm", "metric", "value")
#: The diagnostics the fits sections read (absent ones read as NaN).
_READ = "rounds rounds_planned nonpositive_alpha converged constant stop_reason".split()


@dataclass(frozen=True)
class ReportSpec:
    """What a report shows: a study's declarations, everything but the results.

    ``metrics`` (at least one) are tabulated, the first also drawn; ``reference``
    is tested against every other algorithm; ``ratio_to`` adds a figure of each
    mean over this algorithm's; ``notes`` go under the title, ``paper_notes``
    beside ``paper``, the published numbers (dicts of ``dataset``, ``cost``,
    ``algorithm``, ``metric``, ``value``); ``claims`` are :func:`check_claims`'s;
    ``banner`` warns of a partial or ``--quick`` run; ``paper_features`` lists
    the paper's features per dataset (1-based), ``noise_columns`` the appended
    noise columns per dataset; ``sections`` are declared; ``warnings`` the fits'
    lines; ``paper_datasets`` the paper's own (marked, claims tallied apart);
    ``test_train_ratio`` is ``n_test / n_train`` of the corrected resampled
    t-test that decides wins (0: the plain paired t-test, as the paper says in
    ``fold_test_source``).
    """

    title: str
    metrics: Sequence[str]
    lower_is_better: Sequence[str] = LOWER_IS_BETTER
    reference: str | None = None
    ratio_to: str | None = None
    notes: str = ""
    paper_notes: str = ""
    alpha: float = 0.05
    paper: Sequence[Mapping[str, Any]] = ()
    claims: Sequence[ClaimCheck] = ()
    banner: str = ""
    paper_features: Mapping[str, Sequence[int]] = field(default_factory=dict)
    noise_columns: Mapping[str, int] = field(default_factory=dict)
    sections: Sequence[Mapping[str, Any]] = ()
    warnings: Sequence[str] = ()
    paper_datasets: Sequence[str] = ()
    test_train_ratio: float = 0.0
    fold_test_source: str = ""

    @property
    def fold_test(self) -> str:
        """Name the test that compares two algorithms' matched splits."""
        if self.test_train_ratio:
            return (
                "two-sided corrected resampled t-test (Nadeau and Bengio 2003: the "
                "variance of the differences times 1/J + n_test/n_train = "
                f"{self.test_train_ratio:.3g}, J splits, as the training sets overlap)"
            )
        said = (
            f", as the paper: {self.fold_test_source}" if self.fold_test_source else ""
        )
        return f"two-sided paired t-test{said}"


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
    if not math.isfinite(value):
        return "n/a"
    return f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"


@dataclass
class Summary:
    """A metric's mean and std per (row, algorithm), and its fold values per row."""

    means: NDArray[np.float64]
    stds: NDArray[np.float64]
    decimals: int
    blocks: dict[tuple[str, str], pd.DataFrame]


def summarise(
    data: pd.DataFrame, metric: str, rows: list[tuple[str, str]], algorithms: list[str]
) -> Summary:
    """Compute a metric's mean (std) table, NaN fold values ignored."""
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
            values = blocks[row][alg].dropna().to_numpy(dtype=np.float64)
            if values.size:
                means[i, j], stds[i, j] = describe(values)
    return Summary(means, stds, choose_decimals(data[metric]), blocks)


def diagnostics(results: pd.DataFrame) -> pd.DataFrame | None:
    """Return one row per cell with recorded diagnostics and their reasons, or None."""
    if "diagnostics" not in results.columns:
        return None
    recorded = results[results["diagnostics"].map(bool)]
    if recorded.empty:
        return None
    frame = pd.DataFrame(list(recorded["diagnostics"]), index=recorded.index)
    frame = frame.reindex(columns=[*frame, *(c for c in _READ if c not in frame)])
    for k, key in enumerate(("algorithm", "dataset", "cost")):
        frame.insert(k, key, recorded[key].astype(str))
    frame["reasons"] = cell_reasons(recorded)
    return frame


@dataclass
class Report:
    """Everything a section reads: the spec, the inputs checked and summarised."""

    spec: ReportSpec
    data: pd.DataFrame  # the results, made string in dataset, cost and algorithm
    folder: Path
    curves: pd.DataFrame | None = None
    series: pd.DataFrame | None = None
    boundaries: Sequence[Any] = ()
    figures: list[Path] = field(default_factory=list)
    algorithms: list[str] = field(init=False)
    rows: list[tuple[str, str]] = field(init=False)
    summary_of: dict[str, Summary] = field(init=False)
    fits: pd.DataFrame | None = field(init=False)

    def __post_init__(self) -> None:
        """Check the inputs against each other and summarise every metric shown."""
        spec, results = self.spec, self.data
        if not spec.metrics:
            raise ValueError("metrics must name at least one metric column.")
        for name, frame, more in [
            ("results", results, spec.metrics),
            ("curves", self.curves, ("stage", "split", "value")),
            ("series", self.series, ("stage", "name", "value")),
        ]:
            if frame is not None and (frame is results or not frame.empty):
                missing = [c for c in (*KEYS, *more) if c not in frame]
                if missing:
                    raise ValueError(f"{name} is missing the columns {missing}.")
        if results.empty:
            raise ValueError("results has no rows.")
        self.data = data = results.assign(
            **{k: results[k].astype(str) for k in KEYS[:3]}
        )
        duplicated = data.duplicated(list(KEYS))
        if duplicated.any():
            first = data.loc[duplicated, list(KEYS)].iloc[0].tolist()
            raise ValueError(
                f"results has {int(duplicated.sum())} duplicated cells "
                f"(dataset, cost, algorithm, repeat, fold), e.g. {first}."
            )
        self.algorithms = algorithms = [str(a) for a in pd.unique(data["algorithm"])]
        for option in ("reference", "ratio_to"):
            chosen = getattr(spec, option)
            if chosen is not None and chosen not in algorithms:
                raise ValueError(
                    f"{option} {chosen!r} is not among the algorithms {algorithms}."
                )
        missing = [c for c in _PAPER_COLUMNS if any(c not in row for row in spec.paper)]
        if missing:
            raise ValueError(f"paper is missing the columns {missing}.")
        self.rows = rows = sort_rows(
            set(data[["dataset", "cost"]].itertuples(index=False, name=None))
        )
        shown = dict.fromkeys([*spec.metrics, *(str(p["metric"]) for p in spec.paper)])
        self.summary_of = {
            m: summarise(data, m, rows, algorithms) for m in shown if m in data.columns
        }
        self.fits = diagnostics(data)

    def figure(self, name: str) -> Path:
        """Return a new figure path named after ``name`` (other characters as ``_``)."""
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "figure"
        used = {p.stem for p in self.figures}
        candidate, k = stem, 1
        while candidate in used:
            k += 1
            candidate = f"{stem}_{k}"
        self.figures.append(self.folder / f"{candidate}.png")
        return self.figures[-1]
