"""The report of a results store: read it back and write the study's report.

Reads only the store (cells, curves, series, boundary grids), so a report can be
rebuilt at any time, also from a partial run. Change it when the report needs
something new from the store or from the study's record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from costsense.experiments._boundary import boundary_path
from costsense.experiments._catalog import CATALOG
from costsense.experiments._claims import check_claims
from costsense.experiments._labels import cost_label
from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._spec import ReportFiles, ReportSpec
from costsense.experiments._report._writer import write_report
from costsense.experiments._scores import ALL_METRICS, LOWER_IS_BETTER
from costsense.experiments._store import ResultsStore
from costsense.experiments._study import count_cells
from costsense.experiments._study_file import check_record

__all__ = ["report_study"]

#: The columns of a store's results that are not metrics.
_BOOKKEEPING = frozenset({"key", "dataset", "cost", "algorithm", "repeat", "fold",
                          "seed", "version", "finished", "n_train", "n_test",
                          "fit_time", "predict_time", "diagnostics"})  # fmt: skip
#: The most a boundary grid file may unpack to (bytes): a run writes about 1 MB.
MAX_GRID_BYTES = 256 << 20


def _check_grid_size(grid: Any, path: Path) -> None:
    """Refuse a boundary grid whose arrays would unpack to over MAX_GRID_BYTES.

    The sizes are read from the archive's directory, before any array is
    decompressed: a small planted file cannot fill memory.
    """
    unpacked = sum(info.file_size for info in grid.zip.infolist())
    if unpacked > MAX_GRID_BYTES:
        raise ValueError(
            f"{path} would unpack to {unpacked:,} bytes, over the {MAX_GRID_BYTES:,} "
            "a boundary grid may be; delete it (the next run draws it again)."
        )


def _partial_banner(study: dict[str, Any], finished: int) -> str:
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


def report_study(out: str | Path, *, alpha: float = 0.05) -> ReportFiles:
    """Write the Markdown and HTML report of a results store.

    Reads only the store (cells, curves, series, boundary grids), so a report can
    be rebuilt at any time, also from a partial run.

    Parameters
    ----------
    out : str or Path
        The folder of the results store; the report is written there.
    alpha : float, default=0.05
        Level of the statistical tests.

    Returns
    -------
    ReportFiles
        Paths of ``report.md``, ``report.html`` and the figures.

    Raises
    ------
    ValueError
        No finished cell, or a recorded study whose name or dataset names are
        not identifiers or whose metrics are missing or unknown.
    """
    store = ResultsStore(out)
    study = store.study()
    results = store.results()
    if results.empty:
        raise ValueError(f"{store.path} holds no finished cells yet.")
    # the record is a file anyone who can write the folder can change: checked
    # as a study file is, before anything is drawn (the metrics a cell saved
    # count, so a store of an earlier costsense keeps its report)
    saved = [str(c) for c in results.columns if c not in _BOOKKEEPING]
    check_record(study, (*ALL_METRICS, *saved), str(store.path))
    # tables list the algorithms in the study's order (their first appearance)
    order = {a["name"]: i for i, a in enumerate(study["algorithms"])}
    results = results.sort_values(
        "algorithm", key=lambda names: names.map(order), kind="stable"
    )
    boundaries = []
    for dataset in study["datasets"]:
        for cost in study.get("dataset_costs", {}).get(dataset, study["costs"]):
            path = boundary_path(store, dataset, cost)
            if not path.exists():
                continue
            with np.load(path) as grid:
                _check_grid_size(grid, path)
                predictions = {
                    a["name"]: grid[f"pred_{a['name']}"] for a in study["algorithms"]
                }
                boundaries.append(
                    Boundary(
                        dataset=dataset,
                        cost=cost_label(cost),
                        xx=grid["xx"],
                        yy=grid["yy"],
                        predictions=predictions,
                        reference=grid["reference"] if grid["reference"].size else None,
                        X=grid["X"],
                        y=grid["y"],
                    )
                )
    spec = ReportSpec(
        title=study["title"],
        metrics=study["metrics"],
        lower_is_better=LOWER_IS_BETTER,
        reference=study["reference"],
        ratio_to=study.get("ratio_to"),
        notes=study["notes"],
        paper_notes=study.get("paper_notes", ""),
        alpha=alpha,
        paper=study.get("paper", []),
        claims=check_claims(
            results,
            study.get("claims", []),
            [tuple(row) for row in study.get("claim_rows", [])] or None,
            alpha=alpha,
            like_for_like=study.get("paper_datasets", []),
        ),
        paper_datasets=study.get("paper_datasets", []),
        banner=_partial_banner(study, len(results)),
        paper_features=study.get("paper_features", {}),
        noise_columns={
            name: int(recipe.get("append_uniform", 0))
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
        boundaries=boundaries,
        series=store.series(),
    )


def _theorem_algorithms(study: dict[str, Any]) -> list[str]:
    """Return the study's rows that paper 001's theorems speak of.

    Its AdaBoost (a method whose catalog entry says ``theorems``, which the runner
    fits from uniform weights) at learning rate 1, neither set otherwise nor
    searched over.
    """
    return [
        a["name"]
        for a in study["algorithms"]
        if (spec := CATALOG.get(a["method"])) is not None
        and spec.theorems
        and float(a.get("params", {}).get("learning_rate", 1.0)) == 1.0
        and "learning_rate" not in a.get("grid", {})
    ]
