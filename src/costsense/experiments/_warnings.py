"""Warnings of many fits, summarised: one line per algorithm and kind, not a flood.

A study fits hundreds of models; a solver that stops at its iteration cap warns in
every one of them. A cell therefore records the warnings raised while its model is
fitted and scored (:func:`collect_warnings`, :func:`count_warnings`), and a
:class:`WarningTally` shows per (algorithm, warning category) how many warnings
in how many fits, and the message (numbers written ``N``, so that "did not
converge in 1000 epochs" and "in 500 epochs" count as one).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

__all__ = ["WarningTally", "collect_warnings", "normalise_message"]

#: A number on its own (not the digit of a name such as ``AdaC2``): an optional
#: sign, digits, an optional fraction and exponent.
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")
#: Longest message kept in a summary line (the rest is elided).
_MAX_MESSAGE = 300


@contextmanager
def collect_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Record every warning raised inside the block instead of printing it.

    Every warning is recorded, also one repeated from the same line (the
    ``"always"`` filter), so that the counts are right. Warnings that the
    current filters turn into errors (``-W error``, pytest's ``filterwarnings``)
    still raise.

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
            if not isinstance(category, type):  # always a class in practice
                continue
            warnings.filterwarnings(
                "error",
                message=message.pattern if message is not None else "",
                category=category,
                module=module.pattern if module is not None else "",
                lineno=lineno,
            )
        yield records


def normalise_message(message: object) -> str:
    """Return a warning's first line, numbers written ``N``, at most 300 characters.

    Digits inside names such as ``AdaC2Classifier`` are kept.

    Examples
    --------
    >>> normalise_message("AdaC2Classifier stopped after 12 rounds (edge 0.5)")
    'AdaC2Classifier stopped after N rounds (edge N)'
    """
    lines = str(message).strip().splitlines()
    text = _NUMBER.sub("N", lines[0] if lines else "").strip()
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE - 3].rstrip() + "..."
    return text


def count_warnings(records: Iterable[Any]) -> list[tuple[str, str, int, list[str]]]:
    """Count one fit's warnings: ``(category, message, count, texts)`` each.

    ``message`` is :func:`normalise_message` of the warnings counted together,
    ``texts`` the first of them as raised, on one line. Plain data, sorted: what
    a cell's row keeps.
    """
    counts: dict[tuple[str, str], int] = {}
    texts: dict[tuple[str, str], list[str]] = {}
    for record in records:
        key = (record.category.__name__, normalise_message(record.message))
        counts[key] = counts.get(key, 0) + 1
        texts.setdefault(key, [" ".join(str(record.message).split())])
    return [(c, m, n, texts[(c, m)]) for (c, m), n in sorted(counts.items())]


class WarningTally:
    """Counts of warnings per (algorithm, category, normalised message).

    Attributes
    ----------
    counts : dict
        ``(algorithm, category, message) -> [warnings, fits]``: how many warnings
        of that message, and in how many fits it was raised.
    kind_fits : dict
        ``(algorithm, category) -> fits``: fits that raised the category at all.
    examples : dict
        ``(algorithm, category, message) -> text``: the first text as raised,
        shown in place of the grouping key.

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
        self.counts: dict[tuple[str, str, str], list[int]] = {}
        self.kind_fits: dict[tuple[str, str], int] = {}
        self.examples: dict[tuple[str, str, str], str] = {}

    def __bool__(self) -> bool:
        return bool(self.counts)

    def add(self, algorithm: str, records: Iterable[Any]) -> None:
        """Add the warnings of one fit of ``algorithm`` (:func:`collect_warnings`)."""
        self.add_row({"algorithm": algorithm, "warnings": count_warnings(records)})

    def add_row(self, row: Mapping[str, Any]) -> None:
        """Add one fit's warnings as a cell's row keeps them."""
        algorithm = row["algorithm"]
        for category, message, count, texts in row["warnings"]:
            key = (algorithm, category, message)
            entry = self.counts.setdefault(key, [0, 0])
            entry[0] += int(count)
            entry[1] += 1
            self.examples.setdefault(key, texts[0] if texts else message)
        for kind in {(algorithm, c) for c, *_ in row["warnings"]}:
            self.kind_fits[kind] = self.kind_fits.get(kind, 0) + 1

    def lines(self, unit: str = "fit") -> list[str]:
        """Return one summary line per (algorithm, category), sorted.

        ``"<algorithm>: <count> <category> in <fits> <unit>s: <message>"``, the
        message being the category's most frequent one as first raised (the
        others counted as "and K other messages"); ``unit`` is what one fit
        stands for (the runner's "cell", with the inner fits of a grid search).
        """
        result = []
        for (algorithm, category), fits in sorted(self.kind_fits.items()):
            messages = sorted(
                (-count, message)
                for (a, c, message), (count, _) in self.counts.items()
                if (a, c) == (algorithm, category)
            )
            shown = self.examples[(algorithm, category, messages[0][1])]
            others = len(messages) - 1
            if others:
                shown += f" (and {others} other message{'s' * (others > 1)})"
            total = -sum(negative for negative, _ in messages)
            counted = f"{total} {category} in {fits} {unit}{'s' * (fits != 1)}"
            result.append(f"{algorithm}: {counted}: {shown}")
        return result
