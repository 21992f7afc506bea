"""Cost labels: made, matched and sorted here alone.

``"5"`` labels a ratio C1/C2, ``"5:2"`` a pair, ``"rows"`` a file's own costs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from costsense.costs import Costs


def cost_label(cost: float | str | tuple[float, ...] | list[float]) -> str:
    """Return the label of a cost (numbers as ``f"{x:g}"``; a text is its own)."""
    if isinstance(cost, list | tuple):
        return ":".join(f"{float(c):g}" for c in cost)
    if isinstance(cost, str):
        return cost
    return f"{float(cost):g}"


def costs_label(costs: Costs) -> str:
    """Return the label of resolved binary costs (a matrix: its pair C1:C2)."""
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
    return numbers if numbers and all(map(math.isfinite, numbers)) else None


def normalise_label(label: object) -> str:
    """Write a cost label one way (``5``, ``5.0`` and ``"5"`` give ``"5"``)."""
    numbers = _numbers(label)
    if numbers is None:
        return str(label).strip()
    return cost_label(numbers if len(numbers) > 1 else numbers[0])


def cost_order(label: object) -> tuple[int, tuple[float, ...], str]:
    """Return the sort key of a cost label: number by number, texts last.

    ``"2"`` comes before ``"10"``, ``"2:1"`` before ``"10:1"``, ``"5"`` before
    ``"5:1"``; the text breaks ties (``"5"`` before ``"5.0"``).
    """
    text = str(label).strip()
    numbers = _numbers(label)
    return (1, (), text) if numbers is None else (0, numbers, text)


def sort_rows(rows: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Sort (dataset, cost label) rows by dataset, then by :func:`cost_order`."""
    return sorted(rows, key=lambda row: (row[0], cost_order(row[1])))
