"""The report writer, and the report of a results store (rebuilt at any time).

Change it when the report needs something new from the store or the study's record.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from costsense.experiments._boundary import boundary_path
from costsense.experiments._claims import check_claims
from costsense.experiments._labels import cost_label
from costsense.experiments._outputs import make_folder, write_atomically
from costsense.experiments._report._blocks import to_html, to_markdown
from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._sections import SECTIONS
from costsense.experiments._report._tables import Report, ReportFiles, ReportSpec
from costsense.experiments._scores import ALL_METRICS
from costsense.experiments._store import ResultsStore
from costsense.experiments._study import Protocol, count_cells
from costsense.experiments._study_file import check_record

__all__ = ["ReportFiles", "ReportSpec", "report_study", "write_report"]

#: What a study record declares for its report, under the spec's names.
_DECLARED = (
    *"title metrics reference ratio_to notes paper_notes paper".split(),
    *"paper_datasets paper_features sections fold_test_source".split(),
)
#: The most a boundary grid file may unpack to (bytes): a run writes about 1 MB.
MAX_GRID_BYTES = 256 << 20


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
        One row per finished cell: ``dataset``, ``cost``, ``algorithm``,
        ``repeat``, ``fold`` (each combination once; cells with the same
        dataset, cost, repeat and fold are paired) and a column per metric.
    out_dir : str or path-like
        Output folder; figures go to ``figures/``. Every file is written under
        a temporary name and renamed: a planted link is never written through.
    spec : ReportSpec
        What to show.
    curves : DataFrame, default=None
        Staged curves (the keys, ``stage``, ``split``, ``value``): one figure
        per (dataset, cost).
    boundaries : iterable of Boundary, default=()
        Decision regions, one figure each.
    series : DataFrame, default=None
        Per-round training series (the keys, ``stage``, ``name``, ``value``),
        read by the declared ``bounds`` sections.

    Returns
    -------
    ReportFiles
        The paths written. Rows are sorted by dataset then cost, algorithms in
        order of first appearance.
    """
    out = Path(out_dir)
    r = Report(spec, results, out / "figures", curves, series, list(boundaries))
    make_folder(out, r.folder)  # never a link planted at figures/
    blocks = [block for section in SECTIONS for block in section(r)]
    markdown, page = out / "report.md", out / "report.html"
    write_atomically(markdown, to_markdown(blocks, r.folder).encode(), root=out)
    write_atomically(page, to_html(blocks, spec.title).encode(), root=out)
    return ReportFiles(markdown=markdown, html=page, figures=r.figures)


def _boundaries(store: ResultsStore, study: dict[str, Any]) -> list[Boundary]:
    """Read the run's boundary grids, sizes checked before any array is unpacked."""
    found, names = [], [a["name"] for a in study["algorithms"]]
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
                found.append(
                    Boundary(
                        dataset,
                        cost_label(cost),
                        predictions={a: grid[f"pred_{a}"] for a in names},
                        reference=grid["reference"] if grid["reference"].size else None,
                        **{key: grid[key] for key in ("xx", "yy", "X", "y")},
                    )
                )
    return found


def _banner(study: dict[str, Any], finished: int) -> str:
    """Return the report's warning for a quick or unfinished run ("" if neither)."""
    planned = count_cells(study)
    quick = (
        "This is the --quick version of the study (fewer datasets, costs or "
        "repeats): its numbers are a smoke test, and claims about rows it did "
        "not run are marked incomplete."
    )
    unfinished = (
        f"The run is unfinished: {finished} of {planned} cells are in the "
        "store; run the same command again to resume."
    )
    parts = [quick] * bool(study.get("quick")) + [unfinished] * (finished < planned)
    return " ".join(["Partial results.", *parts]) if parts else ""


def report_study(out: str | Path, *, alpha: float = 0.05) -> ReportFiles:
    """Write the report of a results store, as its recorded study declares it.

    Parameters
    ----------
    out : str or Path
        The store's folder; the report is written there.
    alpha : float, default=0.05
        Level of the statistical tests.

    Returns
    -------
    ReportFiles

    Raises
    ------
    ValueError
        No finished cell, or a recorded study whose names or metrics a study
        file could not have (:func:`~costsense.experiments._study_file.check_record`).
    """
    store = ResultsStore(out)
    study = store.study()
    results = store.results()
    if results.empty:
        raise ValueError(f"{store.path} holds no finished cells yet.")
    # anyone who can write the folder can change the record: checked before use
    check_record(study, ALL_METRICS, str(store.path))
    order = {a["name"]: i for i, a in enumerate(study["algorithms"])}
    results = results.sort_values(
        "algorithm", key=lambda names: names.map(order), kind="stable"
    )
    curves = store.curves()
    plain = study.get("fold_test") == "plain"
    ratio = 0.0 if plain else Protocol(**study["protocol"]).test_train_ratio
    spec = ReportSpec(
        **{key: study[key] for key in _DECLARED if key in study},
        alpha=alpha,
        test_train_ratio=ratio,
        claims=check_claims(
            results,
            study.get("claims", []),
            [tuple(row) for row in study.get("claim_rows", [])] or None,
            alpha=alpha,
            test_train_ratio=ratio,
            like_for_like=study.get("paper_datasets", []),
            curves=curves,
        ),
        banner=_banner(study, len(results)),
        noise_columns={
            name: int(recipe["append_uniform"])
            for name, recipe in study.get("derived", {}).items()
            if recipe.get("append_uniform", 0)
        },
        warnings=store.warnings().lines(unit="cell"),
    )
    return write_report(
        results,
        store.folder,
        spec,
        curves=curves,
        boundaries=_boundaries(store, study),
        series=store.series(),
    )
