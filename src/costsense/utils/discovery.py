"""One registry of costsense's public estimators and samplers.

The registry is discovered, not written by hand: every public name (listed in a
module's ``__all__``) of the estimator modules below that is a scikit-learn estimator
is registered. A new module joins the registry by being added to
:data:`ESTIMATOR_MODULES`, and every common check, bad-input test and CLI listing then
covers its estimators automatically.
"""

from __future__ import annotations

import importlib
import inspect

from sklearn.base import BaseEstimator, ClassifierMixin

#: Modules that hold public estimators. The experiment runner and CLI are not here:
#: estimators never depend on them.
ESTIMATOR_MODULES: tuple[str, ...] = (
    "costsense.rescale",
    "costsense.boosting",
    "costsense.margin",
    "costsense.naive_bayes",
    "costsense.recommend",
    "costsense.sampling",
    "costsense.tree",
)


def all_estimators(
    type_filter: str | None = None,
) -> list[tuple[str, type[BaseEstimator]]]:
    """List costsense's public estimators and samplers.

    Parameters
    ----------
    type_filter : {"classifier", "sampler"}, default=None
        Only classifiers or only samplers; None lists both.

    Returns
    -------
    list of (name, class)
        Sorted by name, each class once.

    Examples
    --------
    >>> from costsense.utils import all_estimators
    >>> names = [name for name, _ in all_estimators("classifier")]
    >>> "ThresholdMoving" in names
    True
    """
    if type_filter not in (None, "classifier", "sampler"):
        raise ValueError(
            f"type_filter must be None, 'classifier' or 'sampler', got {type_filter!r}."
        )
    found: dict[str, type[BaseEstimator]] = {}
    for module_name in ESTIMATOR_MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseEstimator)
                and not inspect.isabstract(obj)
            ):
                found[name] = obj
    result = []
    for name, cls in sorted(found.items()):
        if type_filter == "sampler" and not hasattr(cls, "fit_resample"):
            continue
        if type_filter == "classifier" and not issubclass(cls, ClassifierMixin):
            continue
        result.append((name, cls))
    return result
