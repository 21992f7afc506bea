"""Utilities: the registry of every public estimator and sampler.

:func:`all_estimators` is imported on first use (PEP 562): the light modules here
(reading a table's header) do not import scikit-learn.
"""

from __future__ import annotations

from typing import Any

__all__ = ["all_estimators"]


def __getattr__(name: str) -> Any:
    """Import ``all_estimators`` on first access."""
    if name != "all_estimators":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from costsense.utils.discovery import all_estimators

    return all_estimators
