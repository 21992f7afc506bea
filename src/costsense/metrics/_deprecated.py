"""The former names of the ``binary_`` metrics, kept one release as aliases.

Each alias warns at every call (:class:`FutureWarning`, naming the new function)
and returns exactly the new function's value. Remove an alias, and its line in
``__all__``, one release after its deprecation.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from costsense.metrics._auc import binary_roc_auc_score
from costsense.metrics._rates import (
    binary_f1_score,
    binary_fbeta_score,
    binary_precision_score,
    binary_recall_score,
    binary_specificity_score,
)


def _deprecated_alias(
    old: str, new: Callable[..., float], shadowed: str = "scikit-learn"
) -> Callable[..., float]:
    """Return ``new`` under its former name ``old``, warning at each call.

    ``shadowed`` names the library whose function ``old`` also names.

    The alias takes the same arguments and returns exactly ``new``'s value; its
    :class:`FutureWarning` is attributed to the caller (``stacklevel=2``).
    """
    message = (
        f"costsense.metrics.{old} is deprecated and will be removed in the next "
        f"release; call costsense.metrics.{new.__name__} instead (the same metric). "
        f"The old name shadowed {shadowed}'s {old}, whose positive class is "
        "pos_label=1, where ours is the minority class of y_true."
    )

    @functools.wraps(new)
    def alias(*args: Any, **kwargs: Any) -> float:
        warnings.warn(message, FutureWarning, stacklevel=2)
        return new(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__module__ = __name__  # where the alias is defined, not ``new``
    alias.__doc__ = (
        f"Deprecated alias of :func:`{new.__name__}`.\n\n"
        f"    Calling it warns (:class:`FutureWarning`) and returns exactly\n"
        f"    :func:`{new.__name__}`'s value; rename the call.\n\n"
        "    Returns\n    -------\n    float\n"
    )
    return alias


recall_score = _deprecated_alias("recall_score", binary_recall_score)
sensitivity_score = _deprecated_alias(
    "sensitivity_score", binary_recall_score, "imbalanced-learn"
)
specificity_score = _deprecated_alias(
    "specificity_score", binary_specificity_score, "imbalanced-learn"
)
precision_score = _deprecated_alias("precision_score", binary_precision_score)
fbeta_score = _deprecated_alias("fbeta_score", binary_fbeta_score)
f1_score = _deprecated_alias("f1_score", binary_f1_score)
roc_auc_score = _deprecated_alias("roc_auc_score", binary_roc_auc_score)
