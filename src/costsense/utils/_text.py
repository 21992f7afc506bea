"""Text read from a file, made safe to print on a terminal or in a log line.

A model file, a study file or a CSV can hold any string. Printed as it is, a
carriage return, a backspace or an ANSI escape sequence rewrites what the user
sees (a forged "signature verified" over "unsigned"), and a megabyte value floods
the screen. :func:`printable` is the one way the command line shows such text;
:func:`numbered_rows` names rows as the file numbers its lines.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["numbered_rows", "printable"]

#: Longest text shown from a file before it is cut with an ellipsis.
MAX_SHOWN = 200


def printable(text: object, limit: int = MAX_SHOWN) -> str:
    r"""Return ``text`` with every control character escaped, cut to ``limit``.

    Control characters (C0, DEL, C1, and the Unicode line and paragraph
    separators and bidirectional overrides) are written as Python escapes
    (``\r``, ``\x1b``, ``\u202e``), so what is printed is exactly what the
    file holds, on one line. Printable characters, accents included, are kept.

    Parameters
    ----------
    text : object
        The value to show (``str()`` of it).
    limit : int
        Most characters shown; a longer text ends with ``...`` and its length.
    """
    value = str(text)
    cut = len(value) > limit
    shown = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in (value[:limit] if cut else value)
    )
    return f"{shown}... ({len(value)} characters)" if cut else shown


def numbered_rows(flags: Any, first_row: int = 0, shown: int = 5) -> str:
    """Name the first flagged rows as a file numbers its lines (header: line 1)."""
    rows = (np.flatnonzero(flags) + first_row + 2).tolist()
    more = f" and {len(rows) - shown} more" if len(rows) > shown else ""
    return f"{'row' if len(rows) == 1 else 'rows'} {rows[:shown]}{more}"
