"""Markdown and self-contained HTML reports of a study's raw fold results.

:func:`write_report` turns the runner's rows (one per dataset x cost x algorithm x
repeat x fold) into mean (std) tables, a comparison with a paper's published
numbers, the paper's claims, paired significance tests and PNG figures, as a
:class:`ReportSpec` asks. The parts:

- ``_blocks``: document blocks and their Markdown and HTML renderings;
- ``_tables``: the mean (std) summaries, number formats and the tables;
- ``_figures/``: the matplotlib charts, one module per kind (and
  :class:`Boundary`, the decision regions' input);
- ``_spec``: :class:`ReportSpec` and :class:`ReportFiles`;
- ``_tabulated``, ``_sections``, ``_theorems``, ``_figure_blocks``: the
  report's sections;
- ``_writer``: :func:`write_report`, which puts the sections together;
- ``_study``: :func:`~costsense.experiments.report_study`, which reads a results
  store back and writes its study's report (imported on its own: it reads the
  store, which the parts above never do).
"""

from __future__ import annotations

from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._spec import ReportFiles, ReportSpec
from costsense.experiments._report._writer import write_report

__all__ = ["Boundary", "ReportFiles", "ReportSpec", "write_report"]
