"""Cost labels: the text a cost setting goes by in keys, tables, claims and reports.

A study gives each cost as a ratio ``C1/C2`` (``5``) or a pair ``(C1, C2)``
(``[5, 2]``); its label is ``"5"`` or ``"5:2"``. Three functions, used everywhere a
label is made, matched or sorted:

- :func:`cost_label` makes the label of a cost;
- :func:`normalise_label` writes a label one way, so that ``5``, ``5.0`` and ``"5"``
  (or ``"5.0:2"`` and ``"5:2"``) match;
- :func:`cost_order` is the one sort key: numeric part by part, so ``"2"`` comes
  before ``"10"`` and ``"2:1"`` before ``"10:1"``; labels that are not numbers
  come after the numeric ones, in text order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from costsense.costs import Costs

__all__ = ["cost_label", "cost_order", "costs_label", "normalise_label", "sort_rows"]


def cost_label(cost: float | str | tuple[float, ...] | list[float]) -> str:
    """Return the label of a cost: ``"5"`` for a ratio, ``"5:2"`` for a pair.

    Parameters
    ----------
    cost : float or sequence of float
        A ratio ``C1/C2`` or a pair ``(C1, C2)``.

    Returns
    -------
    str
        Each number in its shortest general form (``f"{x:g}"``), parts joined by
        ``":"``.
    """
    if isinstance(cost, list | tuple):
        return ":".join(f"{float(c):g}" for c in cost)
    if isinstance(cost, str):  # "rows": a file dataset's own per-row costs
        return cost
    return f"{float(cost):g}"


def costs_label(costs: Costs) -> str:
    """Return the label of a resolved binary cost, as the results' ``cost`` column.

    Parameters
    ----------
    costs : Costs
        A binary cost (:meth:`costsense.costs.Costs.resolve`).

    Returns
    -------
    str
        ``"5"`` for a ratio, ``"5:2"`` for a pair; a matrix or balanced costs are
        labelled by their pair ``(C1, C2)``.
    """
    if costs.example_dependent:
        return "rows"
    c1, c2 = costs.pair
    return cost_label(c1) if costs.kind == "ratio" else cost_label((c1, c2))


def _numbers(label: object) -> tuple[float, ...] | None:
    """Return the finite numbers a label stands for, or None if it is text."""
    parts = label if isinstance(label, list | tuple) else str(label).split(":")
    try:
        numbers = tuple(float(part) for part in parts)
    except (TypeError, ValueError):
        return None
    if not numbers or not all(math.isfinite(x) for x in numbers):
        return None
    return numbers


def normalise_label(label: object) -> str:
    """Write a cost label one way, so that equal costs have equal labels.

    Parameters
    ----------
    label : object
        A cost (number or pair) or a label (``"5"``, ``"5.0"``, ``"5:2"``).

    Returns
    -------
    str
        :func:`cost_label` of the numbers the label stands for; a label that is
        not a number (or a pair of numbers) is returned stripped.
    """
    numbers = _numbers(label)
    if numbers is None:
        return str(label).strip()
    return cost_label(numbers if len(numbers) > 1 else numbers[0])


def cost_order(label: object) -> tuple[int, tuple[float, ...], str]:
    """Return the sort key of a cost label.

    Parameters
    ----------
    label : object
        A cost label (``"5"``, ``"10:1"``) or a cost.

    Returns
    -------
    tuple
        ``(0, numbers, text)`` for a numeric label, compared number by number
        (``"2:1"`` before ``"10:1"``; a ratio ``"5"`` before the pair ``"5:1"``);
        ``(1, (), text)`` for any other label, so text labels come last. The text
        breaks ties between labels of equal numbers (``"5"`` before ``"5.0"``).
    """
    text = str(label).strip()
    numbers = _numbers(label)
    return (1, (), text) if numbers is None else (0, numbers, text)


def sort_rows(rows: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Sort (dataset, cost) rows by dataset, then by :func:`cost_order`.

    Parameters
    ----------
    rows : iterable of (str, str)
        Distinct (dataset, cost label) pairs.

    Returns
    -------
    list of (str, str)
        The rows in table order.
    """
    return sorted(rows, key=lambda row: (row[0], cost_order(row[1])))
