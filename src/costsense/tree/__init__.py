"""Cost-sensitive trees and forests (paper 004) on one compiled CART builder.

One depth-first builder compiled with numba (:mod:`costsense.tree._grower`), two
split finders (``splitter="exact"``, scikit-learn's CART, and ``"hist"``, quantile
bins) and the criteria of paper 004 (:mod:`costsense.tree._criteria`). A forest
predicts through one compiled pass over all its trees' nodes
(:mod:`costsense.tree._predictor`).

- :class:`CostSensitiveTreeClassifier`, :class:`CostSensitiveTreeRegressor`;
- :class:`CostSensitiveForestClassifier`: CBRF, G-CSRF and PD-CSRF are its
  ``criterion="gini"``, ``"cs_gini"`` and ``"pairwise"``;
- :func:`impurity`: any criterion's impurity of a set of label vectors;
- :class:`BoostedTreesClassifier`: gradient-boosted trees grown by LightGBM and
  kept, as flat node arrays, for the same compiled predictor.
"""

from __future__ import annotations

from costsense.tree._boosted import BoostedTreesClassifier
from costsense.tree._classes import (
    CostSensitiveTreeClassifier,
    CostSensitiveTreeRegressor,
)
from costsense.tree._criteria import CRITERIA, impurity
from costsense.tree._forest import CostSensitiveForestClassifier
from costsense.tree._predictor import PackedForest
from costsense.tree._tree import Tree

__all__ = [
    "BoostedTreesClassifier",
    "CRITERIA",
    "CostSensitiveForestClassifier",
    "CostSensitiveTreeClassifier",
    "CostSensitiveTreeRegressor",
    "PackedForest",
    "Tree",
    "impurity",
]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__
