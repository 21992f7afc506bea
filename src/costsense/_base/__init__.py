"""What every costsense classifier shares: the fit start-up, the binary base, Platt.

Every learner family (rescaling wrappers, boosting, margin learners, EFSBoost)
starts a fit the same way, through :meth:`ClassifierBase._start_fit`: validate ``X``
and ``y``, refuse a single class with one message, check ``sample_weight``, and
resolve the costs with :meth:`costsense.costs.Costs.resolve` (the positive class, the
cost matrix, each sample's cost of an error). :class:`BinaryCostClassifier` adds the
mapping of two labels to ``-1`` (negative) and ``+1`` (the positive, costly class)
and the prediction methods of a score whose sign is the decision.
:func:`platt_scaling` is the one calibration of a score into ``P(+|x)`` (Platt 1999),
on out-of-fold scores, used by every estimator with a ``probability`` or a
calibrated threshold.

Every classifier ends its fit with :meth:`ClassifierBase._check_degenerate`: a
model that kept no boosting round, or predicts one class on its own training
data, sets ``degenerate_`` (None otherwise) and warns once with
:class:`costsense.exceptions.DegenerateModelWarning`. Fits that an estimator runs
inside its own fit (a booster's rounds, cross-validation folds, a wrapper's base
learner) run under :func:`inner_fits`: they set ``degenerate_`` but do not warn,
so a user hears about the final model only. :func:`refuse_fit_params` is how a
cost-blind estimator refuses ``sample_cost``, naming its cost-sensitive
counterpart.

This package stands on :mod:`costsense.costs`, :mod:`costsense.exceptions` and
:mod:`costsense.utils` only; every family stands on it, none on another family.

References
----------
.. [1] J. Platt, "Probabilistic outputs for support vector machines and comparisons
   to regularized likelihood methods", Advances in Large Margin Classifiers, 1999.
"""

# The package, one job a module (change the module whose job changes):
#   _degenerate  telling a constant model; inner fits; the warning's stack level
#   _classifier  ClassifierBase: fit start-up, predict-time checks, per-row decisions
#   _binary      BinaryCostClassifier: -1/+1 labels, a score's sign, Platt
#   _platt       platt_scaling
# Names shared outside __all__: the boosting engine warns as ClassifierBase does
# (_INNER_FIT, _plain_value; its stack level from costsense.utils._stack); the
# tree, forest and recommended model probe their fits (training_decisions,
# DEGENERACY_PROBE).

from __future__ import annotations

from ._binary import BinaryCostClassifier
from ._classifier import (
    ClassifierBase,
    FitStart,
    has_probability,
    learns_row_costs,
    refuse_fit_params,
)
from ._degenerate import _INNER_FIT as _INNER_FIT
from ._degenerate import DEGENERACY_PROBE as DEGENERACY_PROBE
from ._degenerate import _plain_value as _plain_value
from ._degenerate import inner_fits
from ._degenerate import training_decisions as training_decisions
from ._platt import platt_scaling

__all__ = [
    "BinaryCostClassifier",
    "ClassifierBase",
    "FitStart",
    "has_probability",
    "inner_fits",
    "learns_row_costs",
    "platt_scaling",
    "refuse_fit_params",
]
