"""The one module that imports scikit-learn's private or recently moved helpers.

scikit-learn's parameter validation (``Interval``, ``StrOptions``, ``HasMethods``,
``_fit_context``), ``_check_sample_weight`` and ``validate_data`` are private or
moved between releases. Every costsense module imports them from here, so a
scikit-learn upgrade touches one file; ``sklearn-compat`` supplies ``validate_data``
across versions. ``tests/test_imports.py`` fails if another module imports a private
scikit-learn or imbalanced-learn name directly.
"""

from __future__ import annotations

from typing import Any

from sklearn.base import _fit_context
from sklearn.utils._param_validation import (
    HasMethods,
    Hidden,
    Interval,
    Options,
    StrOptions,
    validate_params,
)
from sklearn.utils.validation import _check_sample_weight
from sklearn_compat.utils.validation import validate_data

__all__ = [
    "HasMethods",
    "fitted_tree_types",
    "Hidden",
    "Interval",
    "Options",
    "StrOptions",
    "_check_sample_weight",
    "_fit_context",
    "validate_data",
    "validate_params",
]


def fitted_tree_types() -> tuple[Any, Any, Any, Any]:
    """Return scikit-learn's fitted tree structures and what checks them.

    ``(Tree, TreePredictor, _BinMapper, PREDICTOR_RECORD_DTYPE)``: a loaded
    model file's trees must keep their index arrays in range, gradient
    boosting's predictors must hold nodes of their record type, and its bin
    mapper must declare no categorical feature. Imported on call, since only
    reading a model file needs them.
    """
    from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper
    from sklearn.ensemble._hist_gradient_boosting.common import PREDICTOR_RECORD_DTYPE
    from sklearn.ensemble._hist_gradient_boosting.predictor import TreePredictor
    from sklearn.tree._tree import Tree

    return Tree, TreePredictor, _BinMapper, PREDICTOR_RECORD_DTYPE
