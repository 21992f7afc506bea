"""Experiments: evaluation protocols over named models (needs the experiments extra)."""

from __future__ import annotations

from costsense.experiments._evaluate import FOLD_METRICS, evaluate, summarise
from costsense.experiments._models import BASE_LEARNERS, METHODS, make_model

__all__ = [
    "BASE_LEARNERS",
    "FOLD_METRICS",
    "METHODS",
    "evaluate",
    "make_model",
    "summarise",
]
