"""Warnings of many fits, summarised: one line per algorithm and kind, not a flood.

A cell records the warnings raised while its model is fitted and scored
(:func:`collect_warnings`, :func:`count_warnings`); a :class:`WarningTally` counts
them per (algorithm, category) and message, numbers written ``N``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

__all__ = ["WarningTally", "collect_warnings"]

#: A number on its own, not the digit of a name such as ``AdaC2``.
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")


@contextmanager
def collect_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Record every warning raised inside the block instead of printing it.

    Also a warning repeated from one line; those the filters make errors still raise.

    Yields
    ------
    list of warnings.WarningMessage
        Filled as warnings are raised; complete when the block ends.

    Examples
    --------
    >>> import warnings
    >>> with collect_warnings() as records:
    ...     warnings.warn("solver stopped after 100 epochs", RuntimeWarning)
    >>> [str(r.message) for r in records]
    ['solver stopped after 100 epochs']
    """
    errors = [entry for entry in warnings.filters if entry[0] == "error"]
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        for _, message, category, module, lineno in reversed(errors):
            if not isinstance(category, type):  # typeshed allows a tuple
                continue
            warnings.filterwarnings(
                "error",
                message=message.pattern if message is not None else "",
                category=category,
                module=module.pattern if module is not None else "",
                lineno=lineno,
            )
        yield records


def count_warnings(records: Iterable[Any]) -> list[tuple[str, str, int, list[str]]]:
    """Count one fit's warnings as a cell's row keeps them, sorted.

    ``(category, message, count, [first text])``, ``message`` the first line with
    numbers written ``N``.
    """
    found: dict[tuple[str, str], list[Any]] = {}  # [count, first text]
    for record in records:
        lines = str(record.message).strip().splitlines()
        message = _NUMBER.sub("N", lines[0] if lines else "").strip()
        if len(message) > 300:
            message = message[:297].rstrip() + "..."
        text = " ".join(str(record.message).split())
        found.setdefault((record.category.__name__, message), [0, text])[0] += 1
    return [(c, m, n, [text]) for (c, m), (n, text) in sorted(found.items())]


class WarningTally:
    """Counts of warnings per algorithm, category and message (numbers as ``N``).

    Examples
    --------
    >>> import warnings
    >>> tally = WarningTally()
    >>> for epochs in (100, 200):
    ...     with collect_warnings() as records:
    ...         warnings.warn(f"no convergence in {epochs} epochs", RuntimeWarning)
    ...     tally.add("svm", records)
    >>> tally.lines()
    ['svm: 2 RuntimeWarning in 2 fits: no convergence in 100 epochs']
    """

    def __init__(self) -> None:
        self._fits: dict[tuple[str, str], int] = {}
        # (algorithm, category) -> message -> [count, first text as raised]
        self._messages: dict[tuple[str, str], dict[str, list[Any]]] = {}

    def add(self, algorithm: str, records: Iterable[Any]) -> None:
        """Add the warnings of one fit of ``algorithm`` (:func:`collect_warnings`)."""
        self.add_row({"algorithm": algorithm, "warnings": count_warnings(records)})

    def add_row(self, row: Mapping[str, Any]) -> None:
        """Add one fit's warnings as a cell's row keeps them."""
        for category, message, count, texts in row["warnings"]:
            messages = self._messages.setdefault((row["algorithm"], category), {})
            messages.setdefault(message, [0, texts[0]])[0] += int(count)
        for kind in {(row["algorithm"], c) for c, *_ in row["warnings"]}:
            self._fits[kind] = self._fits.get(kind, 0) + 1

    def lines(self, unit: str = "fit") -> list[str]:
        """Return one summary line per (algorithm, category), sorted.

        ``"<algorithm>: <count> <category> in <fits> <unit>s: <message>"``, the
        category's most frequent message as first raised (the others counted as
        "and K other messages"); ``unit`` is what one fit stands for.
        """
        result = []
        for (algorithm, category), fits in sorted(self._fits.items()):
            messages = self._messages[(algorithm, category)]
            top = min(messages, key=lambda m: (-messages[m][0], m))
            shown, others = messages[top][1], len(messages) - 1
            if others:
                shown += f" (and {others} other message{'s' * (others > 1)})"
            total = sum(count for count, _ in messages.values())
            counted = f"{total} {category} in {fits} {unit}{'s' * (fits != 1)}"
            result.append(f"{algorithm}: {counted}: {shown}")
        return result
