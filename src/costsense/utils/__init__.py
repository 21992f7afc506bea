"""Utilities: the registry of every public estimator and sampler."""

from __future__ import annotations

from costsense.utils.discovery import all_estimators

__all__ = ["all_estimators"]
