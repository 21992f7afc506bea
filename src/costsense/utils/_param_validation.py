"""One shim for scikit-learn's private validation helpers.

scikit-learn's parameter-validation machinery (``Interval``, ``StrOptions``,
``HasMethods``, ``_fit_context``) and ``validate_data`` are private or recently moved;
every costsense module imports them from here, so a scikit-learn upgrade touches one
file. ``sklearn-compat`` supplies ``validate_data`` across versions.
"""

from __future__ import annotations

from sklearn.base import _fit_context
from sklearn.utils._param_validation import (
    HasMethods,
    Hidden,
    Interval,
    Options,
    StrOptions,
    validate_params,
)
from sklearn_compat.utils.validation import validate_data

__all__ = [
    "HasMethods",
    "Hidden",
    "Interval",
    "Options",
    "StrOptions",
    "_fit_context",
    "validate_data",
    "validate_params",
]
