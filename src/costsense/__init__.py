"""costsense: cost-sensitive and class-imbalanced classification.

The estimator to start with is :class:`costsense.MinimumCostClassifier`
(:mod:`costsense.recommend`): it chooses, by out-of-fold cost, how to combine a few
probability models and how to decide. It is loaded on first use (PEP 562), so
``import costsense`` stays light and imports no scikit-learn.

Subpackages are imported on demand: ``costsense.costs``, ``costsense.decision``
(each row's action of least expected cost, within capacities per period),
``costsense.metrics``, ``costsense.datasets``, ``costsense.rescale``,
``costsense.boosting`` and
``costsense.experiments`` (studies, results store, reports; needs the
``experiments`` extra), ``costsense.tree`` (trees and forests, paper 004),
``costsense.naive_bayes`` (naive Bayes over binned and categorical features with
exact sample weights, paper 003's base learner) and ``costsense.recommend``.
``costsense.exceptions`` holds the warning every classifier issues when its fitted
model is constant, ``DegenerateModelWarning`` (the fitted ``degenerate_`` attribute
says the same without warnings).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0.dev0"

__all__ = ["MinimumCostClassifier", "__version__"]


def __getattr__(name: str) -> Any:
    """Load ``MinimumCostClassifier`` on first access (PEP 562)."""
    if name == "MinimumCostClassifier":
        from costsense.recommend import MinimumCostClassifier

        return MinimumCostClassifier
    raise AttributeError(f"module 'costsense' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
