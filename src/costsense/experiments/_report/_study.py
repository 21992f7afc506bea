"""The report writer, and the report of a results store.

:func:`write_report` turns results and a :class:`ReportSpec` into ``report.md``,
a self-contained ``report.html`` and PNG figures; :func:`report_study` reads a
results store back (cells, curves, series, boundary grids, warnings) and writes
its study's report, so a report can be rebuilt at any time, also from a partial
run. What a report shows follows from what the study declares and from the
columns the results carry. Change it when the report needs something new from
the store or from the study's record.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._boundary import boundary_path
from costsense.experiments._catalog import CATALOG
from costsense.experiments._claims import ClaimCheck, check_claims
from costsense.experiments._labels import cost_label
from costsense.experiments._outputs import write_atomically
from costsense.experiments._report import _sections as section
from costsense.experiments._report._blocks import to_html, to_markdown
from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._fits import feature_blocks, fit_blocks
from costsense.experiments._report._tables import (
    KEYS,
    check_columns,
    comparison_table,
    paper_table,
    tabulate,
)
from costsense.experiments._scores import ALL_METRICS, LOWER_IS_BETTER
from costsense.experiments._store import ResultsStore
from costsense.experiments._study import count_cells
from costsense.experiments._study_checks import check_record

__all__ = ["ReportFiles", "ReportSpec", "report_study", "write_report"]

#: The columns of a store's results that are not metrics.
_BOOKKEEPING = frozenset({"key", "dataset", "cost", "algorithm", "repeat", "fold",
                          "seed", "version", "finished", "n_train", "n_test",
                          "fit_time", "predict_time", "diagnostics"})  # fmt: skip
#: The most a boundary grid file may unpack to (bytes): a run writes about 1 MB.
MAX_GRID_BYTES = 256 << 20


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
    ``adaboost_algorithms`` those whose saved series are checked against paper
    001's bounds; ``warnings`` the fits' warning lines; ``paper_datasets`` the
    paper's own datasets (marked in the tables, claims tallied on them apart).
    """

    title: str
    metrics: Sequence[str]
    lower_is_better: Sequence[str] = ("cost_total", "mean_cost")
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
        for name, value in [
            ("metrics", tuple(metrics)),
            ("lower_is_better", tuple(self.lower_is_better)),
            ("paper", tuple(dict(row) for row in rows)),
            ("claims", tuple(self.claims)),
            ("paper_datasets", tuple(self.paper_datasets)),
            ("adaboost_algorithms", tuple(self.adaboost_algorithms)),
        ]:
            object.__setattr__(self, name, value)


@dataclass
class ReportFiles:
    """Paths written: ``report.md``, ``report.html``, the figures in report order."""

    markdown: Path
    html: Path
    figures: list[Path] = field(default_factory=list)


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

    ``results`` holds one row per finished cell: ``dataset``, ``cost``,
    ``algorithm``, ``repeat``, ``fold`` (each combination once; cells with the
    same dataset, cost, repeat and fold are paired) and a column per metric.
    ``curves`` (the keys, ``stage``, ``split``, ``value``) give one figure per
    (dataset, cost); ``boundaries`` one figure each; ``series`` (the keys,
    ``stage``, ``name``, ``value``) of ``spec.adaboost_algorithms`` make the
    section on paper 001's theorems. Every file is written under a temporary
    name and renamed: a link planted in ``out_dir`` is never written through.

    A table cell is ``mean (std)`` over the repeats x folds (sample std, NaN
    ignored, ``n/a`` without values), with 3 decimals for a rate (values in
    [0, 1]) and 2 otherwise; the best of a row is bold, the last row holds mean
    ranks. Rows are sorted by dataset then cost
    (:func:`costsense.experiments._labels.cost_order`); algorithms keep their
    order of first appearance. The comparison counts the rows where the
    reference is significantly better, not different or worse (two-sided
    paired t-test over the matched folds; rows under 2 complete pairs left
    out) and adds the Wilcoxon signed-rank test across rows on the row means.
    """
    named = {"reference": spec.reference, "ratio_to": spec.ratio_to}
    tab = tabulate(results, spec.metrics, spec.paper, named)
    if curves is not None and not curves.empty:
        check_columns(curves, (*KEYS, "stage", "split", "value"), "curves")
    if series is not None and not series.empty:
        check_columns(series, (*KEYS, "stage", "name", "value"), "series")
    out = Path(out_dir)
    files = section.FigureFiles(out / "figures")
    compared = None
    if spec.reference is not None:
        compared = comparison_table(
            tab, spec.metrics, spec.reference, spec.lower_is_better, spec.alpha
        )
    order = tab.algorithms
    blocks = [
        *section.introduction(spec.title, spec.banner, spec.notes, tab),
        *section.results(tab, spec.metrics, spec.lower_is_better, spec.paper_datasets),
        *section.claims(spec.claims, spec.alpha, spec.paper_datasets, tab.data),
        *section.paper(
            paper_table(tab, spec.paper) if spec.paper else None, spec.paper_notes
        ),  # fmt: skip
        *section.comparison(compared, spec.reference, spec.alpha),
        *fit_blocks(tab.data, order),
        *section.warnings(spec.warnings),
        *feature_blocks(tab.data, order, spec.paper_features, spec.noise_columns),
        *section.theorems(series, spec.adaboost_algorithms, files),
        *section.figures(
            tab,
            files,
            spec.metrics[0],
            spec.metrics[0] in spec.lower_is_better,
            spec.ratio_to,
            curves,
            boundaries,
        ),
    ]
    markdown, page = out / "report.md", out / "report.html"
    text = to_markdown(blocks, files.folder)
    write_atomically(markdown, text.encode("utf-8"), root=out)
    write_atomically(page, to_html(blocks, spec.title).encode("utf-8"), root=out)
    return ReportFiles(markdown=markdown, html=page, figures=files.paths)


def _boundaries(store: ResultsStore, study: dict[str, Any]) -> list[Boundary]:
    """Read the boundary grids the run drew, refusing one too big to unpack.

    The sizes are read from the archive's directory before any array is
    decompressed, so a small planted file cannot fill memory.
    """
    found = []
    for dataset in study["datasets"]:
        for cost in study.get("dataset_costs", {}).get(dataset, study["costs"]):
            path = boundary_path(store, dataset, cost)
            if not path.exists():
                continue
            with np.load(path) as grid:
                unpacked = sum(info.file_size for info in grid.zip.infolist())
                if unpacked > MAX_GRID_BYTES:
                    raise ValueError(
                        f"{path} would unpack to {unpacked:,} bytes, over the "
                        f"{MAX_GRID_BYTES:,} a boundary grid may be; delete it (the "
                        "next run draws it again)."
                    )
                names = [a["name"] for a in study["algorithms"]]
                found.append(
                    Boundary(
                        dataset=dataset,
                        cost=cost_label(cost),
                        xx=grid["xx"],
                        yy=grid["yy"],
                        predictions={a: grid[f"pred_{a}"] for a in names},
                        reference=grid["reference"] if grid["reference"].size else None,
                        X=grid["X"],
                        y=grid["y"],
                    )
                )
    return found


def _banner(study: dict[str, Any], finished: int) -> str:
    """Return the report's warning for a quick or unfinished run ("" if neither)."""
    planned = count_cells(study)
    parts = []
    if study.get("quick"):
        parts.append(
            "This is the --quick version of the study (fewer datasets, costs or "
            "repeats): its numbers are a smoke test, and claims about rows it did "
            "not run are marked incomplete."
        )
    if finished < planned:
        parts.append(
            f"The run is unfinished: {finished} of {planned} cells are in the "
            "store; run the same command again to resume."
        )
    return " ".join(["Partial results.", *parts]) if parts else ""


def _theorem_algorithms(study: dict[str, Any]) -> list[str]:
    """Return the study's rows its catalog entry marks ``theorems``, at rate 1.

    Paper 001's theorems speak of AdaBoost from uniform weights at learning
    rate 1, neither set otherwise nor searched over.
    """
    return [
        a["name"]
        for a in study["algorithms"]
        if (spec := CATALOG.get(a["method"])) is not None
        and spec.theorems
        and float(a.get("params", {}).get("learning_rate", 1.0)) == 1.0
        and "learning_rate" not in a.get("grid", {})
    ]


def report_study(out: str | Path, *, alpha: float = 0.05) -> ReportFiles:
    """Write the Markdown and HTML report of a results store.

    ``out`` is the store's folder (the report is written there); ``alpha`` the
    level of the tests. Raises ValueError without a finished cell, or when the
    recorded study's names or metrics are refused (:func:`check_record`).
    """
    store = ResultsStore(out)
    study = store.study()
    results = store.results()
    if results.empty:
        raise ValueError(f"{store.path} holds no finished cells yet.")
    # the record is a file anyone who can write the folder can change: checked
    # as a study file is, before anything is drawn
    saved = [str(c) for c in results.columns if c not in _BOOKKEEPING]
    check_record(study, (*ALL_METRICS, *saved), str(store.path))
    order = {a["name"]: i for i, a in enumerate(study["algorithms"])}
    results = results.sort_values(
        "algorithm", key=lambda names: names.map(order), kind="stable"
    )
    claims = check_claims(
        results,
        study.get("claims", []),
        [tuple(row) for row in study.get("claim_rows", [])] or None,
        alpha=alpha,
        like_for_like=study.get("paper_datasets", []),
    )
    spec = ReportSpec(
        title=study["title"],
        metrics=study["metrics"],
        lower_is_better=tuple(LOWER_IS_BETTER),
        reference=study["reference"],
        ratio_to=study.get("ratio_to"),
        notes=study["notes"],
        paper_notes=study.get("paper_notes", ""),
        alpha=alpha,
        paper=study.get("paper", []),
        claims=claims,
        paper_datasets=study.get("paper_datasets", []),
        banner=_banner(study, len(results)),
        paper_features=study.get("paper_features", {}),
        noise_columns={
            name: int(recipe["append_uniform"])
            for name, recipe in study.get("derived", {}).items()
            if recipe.get("append_uniform", 0)
        },
        adaboost_algorithms=_theorem_algorithms(study),
        warnings=store.warnings().lines(unit="cell"),
    )
    return write_report(
        results,
        store.folder,
        spec,
        curves=store.curves(),
        boundaries=_boundaries(store, study),
        series=store.series(),
    )
