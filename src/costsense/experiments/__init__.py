"""Experiments: studies declared as data, run resumably anywhere, and reported.

Needs the ``experiments`` extra. A study is loaded (:func:`load_study`), run
(:func:`run_study`) and reported (:func:`report_study`); :func:`evaluate` is a
one-dataset study in memory; :data:`CATALOG` names every model (:func:`make_model`).
Names are imported on first use (PEP 562): ``--help`` imports nothing heavy.
"""

from __future__ import annotations

import importlib
from typing import Any

_MODULES = {
    "_catalog": "BASES BASE_NAMES CATALOG CLASSIFIER_BASES DEFAULT_MODEL BaseSpec "
    "ModelSpec check_pair decide decides_rows default_base refusals",
    "_cell": "run_cell",
    "_claims": "ClaimCheck check_claims",
    "_datasets": "DatasetSpec",
    "_evaluate": "CURRENT evaluate pooled_probabilities summarise",
    "_labels": "cost_order sort_rows",
    "_models": "make_model",
    "_outputs": "StoreConflictError StoreError StoreFileError StoreLockedError "
    "hold_run_lock",
    "_plan": "check_folds forward_chaining plan",
    "_report": "Boundary ReportFiles ReportSpec write_report",
    "_report._evaluation": "load_evaluation save_evaluation write_evaluation_report",
    "_report._study": "report_study",
    "_runner": "RunSummary run_study",
    "_scores": "ACTION_METRICS ALL_METRICS FOLD_COLUMNS FOLD_METRICS "
    "MULTICLASS_METRICS TIME_COLUMNS",
    "_stats": "PairedTest mean_ranks paired_t_test win_tie_loss",
    "_store": "ResultsStore",
    "_study": "Algorithm PaperReference Protocol ReportOptions Study StudyLimits "
    "builtin_studies",
    "_study_file": "load_study study_from_dict",
    "_warnings": "WarningTally collect_warnings",
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names.split()}
__all__ = sorted(_WHERE)


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
