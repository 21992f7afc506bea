"""Markdown and self-contained HTML reports of a study's raw fold results.

- ``_blocks``: document blocks and their two renderings;
- ``_tables``: :class:`ReportSpec`, and the results checked and summarised once;
- ``_figures``: every figure, in one style;
- ``_fits``: the section read from the fits' diagnostics;
- ``_declared``: the sections a study declares (their words are the study's);
- ``_sections``: the other sections, each a function of the checked results;
- ``_study``: :func:`write_report` (a :class:`ReportSpec` in, files out) and
  :func:`report_study` (the report of a results store).
"""

from __future__ import annotations

from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._study import report_study, write_report
from costsense.experiments._report._tables import ReportFiles, ReportSpec

__all__ = ["Boundary", "ReportFiles", "ReportSpec", "report_study", "write_report"]
