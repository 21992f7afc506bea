"""Reports of a study's fold results: Markdown and one self-contained HTML page.

``_tables`` checks and summarises the inputs, ``_sections`` make blocks
(``_blocks``) and figures (``_figures``), ``_study`` writes them.
"""

from costsense.experiments._report._figures import Boundary
from costsense.experiments._report._study import report_study, write_report
from costsense.experiments._report._tables import ReportFiles, ReportSpec

__all__ = ["Boundary", "ReportFiles", "ReportSpec", "report_study", "write_report"]
