"""costsense: cost-sensitive and class-imbalanced classification.

Subpackages are imported on demand: ``costsense.costs``, ``costsense.metrics``,
``costsense.datasets``, ``costsense.rescale``, ``costsense.boosting`` and
``costsense.experiments`` (studies, results store, reports; needs the
``experiments`` extra), ``costsense.tree`` (trees and forests, paper 004), and
``costsense.naive_bayes`` (naive Bayes over binned and categorical features with
exact sample weights, paper 003's base learner).
"""

from __future__ import annotations

__version__ = "0.1.0.dev0"

__all__ = ["__version__"]
