"""A check before a large allocation: refuse what cannot fit, naming size and fix.

Some learners build a matrix whose size grows faster than their input (``d x d``
on ``n x d`` data, ``n x n`` on ``n`` rows). Where a route bounded by the input
exists the learner takes it; where the user asked for the other route, or none
exists, :func:`check_allocation` is called *before* the allocation and raises
:class:`~costsense.exceptions.MemoryBudgetError` when the array would be larger
than the machine's physical memory: numpy would raise the same ``MemoryError``
(or, with memory overcommit, the system would kill the process later), but only
after seconds or hours of work, and without naming the parameter that avoids it.
"""

from __future__ import annotations

import os

from costsense.exceptions import MemoryBudgetError

__all__ = ["check_allocation", "format_bytes", "memory_budget"]

#: Budget when the physical memory cannot be read (no ``os.sysconf``).
_FALLBACK_BUDGET = 64 * 2**30


def memory_budget() -> int:
    """Return the largest allocation allowed, in bytes: the physical memory."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return _FALLBACK_BUDGET


def format_bytes(n_bytes: float) -> str:
    """Return ``n_bytes`` in binary units, as numpy's ``MemoryError`` writes them."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n_bytes) < 1024 or unit == "PiB":
            return (
                f"{n_bytes:.0f} {unit}" if unit == "bytes" else f"{n_bytes:.3g} {unit}"
            )
        n_bytes /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


def check_allocation(
    shape: tuple[int, ...],
    *,
    owner: str,
    what: str,
    fix: str,
    itemsize: int = 8,
    budget: int | None = None,
) -> None:
    """Raise :class:`~costsense.exceptions.MemoryBudgetError` if an array won't fit.

    Nothing is allocated: the size is computed from ``shape`` in Python integers.

    Raises
    ------
    MemoryBudgetError
        When ``prod(shape) * itemsize`` exceeds the budget.
    """
    n_bytes = itemsize
    for size in shape:
        n_bytes *= int(size)
    limit = memory_budget() if budget is None else budget
    if n_bytes <= limit:
        return
    dims = " x ".join(f"{int(size):,}" for size in shape)
    kind = "matrix" if len(shape) == 2 else "array"
    raise MemoryBudgetError(
        f"{owner}: {what} would allocate {format_bytes(n_bytes)} for a {dims} "
        f"{kind}, more than this machine's {format_bytes(limit)} of memory. {fix}"
    )
