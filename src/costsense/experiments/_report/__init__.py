"""Markdown and self-contained HTML reports of a study's raw fold results.

:func:`write_report` turns the runner's rows (one per dataset x cost x algorithm x
repeat x fold) into mean (std) tables, a comparison with a paper's published
numbers, the paper's claims, paired significance tests and PNG figures, as a
:class:`ReportSpec` asks. The parts:

- ``_blocks``: document blocks and their Markdown and HTML renderings;
- ``_tables``: the mean (std) summaries, number formats and the tables;
- ``_figures``: the matplotlib charts (and :class:`Boundary`, their input);
- ``_writer``: :class:`ReportSpec` and :func:`write_report`, which put the
  sections together;
- ``_study``: :func:`~costsense.experiments.report_study`, which reads a results
  store back and writes its study's report (imported on its own: it reads the
  store, which the parts above never do).
"""

from __future__ import annotations

from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._writer import (
    ReportFiles,
    ReportSpec,
    write_report,
)

__all__ = ["Boundary", "ReportFiles", "ReportSpec", "write_report"]
