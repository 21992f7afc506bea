"""Warnings of many fits, summarised: one line per algorithm and kind, not a flood.

A study fits hundreds of models; a solver that stops at its iteration cap warns in
every one of them. A cell therefore records the warnings raised while its model is
fitted and scored (:func:`collect_warnings`, :func:`count_warnings`), and a
:class:`WarningTally` shows per (algorithm, warning category) how many warnings
in how many fits, the message (numbers written ``N``, so that "did not converge in
1000 epochs" and "in 500 epochs" count as one) and what to change.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

__all__ = ["WarningTally", "advice", "collect_warnings", "normalise_message"]

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

    ``message`` is :func:`normalise_message` of the warnings counted together;
    ``texts`` up to two distinct texts as raised, on one line. Plain data, sorted:
    what a cell's row keeps.
    """
    counts: dict[tuple[str, str], int] = {}
    texts: dict[tuple[str, str], list[str]] = {}
    for record in records:
        key = (record.category.__name__, normalise_message(record.message))
        counts[key] = counts.get(key, 0) + 1
        _keep_example(texts.setdefault(key, []), str(record.message))
    return [(c, m, n, texts[(c, m)]) for (c, m), n in sorted(counts.items())]


def _keep_example(kept: list[str], text: str) -> None:
    """Add ``text`` on one line to ``kept`` if new, keeping two texts at most."""
    text = " ".join(text.split())
    if len(kept) < 2 and text not in kept:
        kept.append(text)


def advice(category: str, message: str) -> str:
    """Return what a warning of ``category`` means for a study, and what to change.

    Parameters
    ----------
    category : str
        The warning class's name.
    message : str
        Its (normalised) message.

    Returns
    -------
    str
        Advice for the known kinds, unless the message already gives it; ""
        for any other kind (its message says it).
    """
    text = message.lower()
    if category == "ConvergenceWarning" and "max_iter" not in text:
        return (
            "the solver stopped at its iteration cap: raise max_iter, or loosen "
            "tol, in the algorithm's params"
        )
    if category == "UndefinedMetricWarning":
        if "precision" in text:
            return (
                "a fold with no predicted positive, so precision is undefined "
                "(reported as 0)"
            )
        if "recall" in text:
            return "a fold without positives, so recall is undefined (reported as 0)"
        return "a metric undefined on some fold (reported as 0)"
    if category == "DegenerateModelWarning" and not ("try" in text or "why:" in text):
        return (
            "the model predicts one class; see its stop_reason_, and try another "
            "base learner, cost or number of rounds"
        )
    return ""


class WarningTally:
    """Counts of warnings per (algorithm, category, normalised message).

    Attributes
    ----------
    counts : dict
        ``(algorithm, category, message) -> [warnings, fits]``: how many warnings
        of that message, and in how many fits it was raised.
    kind_fits : dict
        ``(algorithm, category) -> fits``: fits that raised the category at all.

    Examples
    --------
    >>> import warnings
    >>> tally = WarningTally()
    >>> for epochs in (100, 200):
    ...     with collect_warnings() as records:
    ...         warnings.warn(f"no convergence in {epochs} epochs", RuntimeWarning)
    ...     tally.add("svm", records)
    >>> tally.lines()
    ['svm: 2 RuntimeWarning in 2 fits: no convergence in 100 epochs (its numbers vary)']
    """

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str, str], list[int]] = {}
        self.kind_fits: dict[tuple[str, str], int] = {}
        #: ``(algorithm, category, message) -> texts``: the first two distinct
        #: texts as raised, shown in place of the grouping key.
        self.examples: dict[tuple[str, str, str], list[str]] = {}

    def __bool__(self) -> bool:
        return bool(self.counts)

    def add(self, algorithm: str, records: Iterable[Any]) -> None:
        """Add the warnings of one fit of ``algorithm``.

        Parameters
        ----------
        algorithm : str
            The algorithm's name (a line of the summary per name and category).
        records : iterable of warnings.WarningMessage
            The fit's warnings, as :func:`collect_warnings` records them.
        """
        self.add_row({"algorithm": algorithm, "warnings": count_warnings(records)})

    def add_row(self, row: Mapping[str, Any]) -> None:
        """Add one fit's warnings as a cell's row keeps them.

        Parameters
        ----------
        row : mapping
            ``algorithm`` and ``warnings``, a list of :func:`count_warnings`.
        """
        algorithm = row["algorithm"]
        for category, message, count, texts in row["warnings"]:
            entry = self.counts.setdefault((algorithm, category, message), [0, 0])
            entry[0] += int(count)
            entry[1] += 1
            kept = self.examples.setdefault((algorithm, category, message), [])
            for text in texts:
                _keep_example(kept, text)
        for kind in {(algorithm, c) for c, *_ in row["warnings"]}:
            self.kind_fits[kind] = self.kind_fits.get(kind, 0) + 1

    def lines(self, unit: str = "fit") -> list[str]:
        """Return one summary line per (algorithm, category), sorted.

        ``"<algorithm>: <count> <category> in <fits> <unit>s: <message>[; <what
        to change>]"``, the message being the category's most frequent one (the
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
            message = messages[0][1]
            texts = self.examples.get((algorithm, category, message), [])
            shown = texts[0] if texts else message
            shown += " (its numbers vary)" * (len(texts) > 1)
            others = len(messages) - 1
            if others:
                shown += f" (and {others} other message{'s' * (others > 1)})"
            total = -sum(negative for negative, _ in messages)
            counted = f"{total} {category} in {fits} {unit}{'s' * (fits != 1)}"
            line = f"{algorithm}: {counted}: {shown}"
            hint = advice(category, message)
            if hint and line.endswith(".") and not line.endswith("..."):
                line = line[:-1]
            result.append(f"{line}; {hint}" if hint else line)
        return result
