"""The estimator costsense recommends: the decision of least out-of-fold cost.

:class:`MinimumCostClassifier` fits a few probability models, estimates their
probabilities out of fold, and chooses by cross-fitted cost how to combine them
(one alone, their average or their stack; Wolpert 1992, Breiman 1996) and how to
decide (the cost-sensitive Bayes rule of Elkan 2001, or a tuned threshold), with
the one-standard-error rule of Breiman et al. (1984) Bonferroni-corrected. Its
Notes give the steps and their guards.
"""

from __future__ import annotations

from costsense.recommend._estimator import MinimumCostClassifier
from costsense.recommend._selection import choice_text

__all__ = ["MinimumCostClassifier", "choice_text"]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__
