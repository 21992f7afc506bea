"""The ``stacklevel`` that points a warning at the user's own line.

A warning raised deep inside a fit (a failed candidate, a degenerate model, a
convergence problem) should name the line of the code that called costsense, not
costsense's or scikit-learn's; a fixed ``stacklevel`` is right for one call path
only. :func:`caller_level` counts the frames of costsense and the libraries it
wraps instead (Python 3.12's ``warnings.warn(skip_file_prefixes=...)`` will do
the same once 3.12 is the oldest Python supported).
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["caller_level"]


#: Modules whose frames a warning skips, to point at the code that called fit.
_LIBRARY_MODULES = ("costsense.", "sklearn.", "imblearn.")


def _in_library(frame: Any) -> bool:
    """Whether a stack frame runs code of costsense or the libraries it wraps."""
    return str(frame.f_globals.get("__name__", "")).startswith(_LIBRARY_MODULES)


def caller_level() -> int:
    """Return the ``stacklevel`` of the first frame outside the libraries.

    Counted from the function that calls :func:`warnings.warn` (this
    function's caller, level 1), so a warning points at the user's ``fit``
    call, however deep the family's fit and scikit-learn's wrappers go.
    """
    frame = sys._getframe(1)  # the frame that calls warnings.warn
    level = 1
    while frame.f_back is not None and _in_library(frame):
        frame = frame.f_back
        level += 1
    return level
