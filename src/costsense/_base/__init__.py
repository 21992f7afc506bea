"""What every costsense classifier shares: the fit start-up, the binary base, Platt.

:meth:`ClassifierBase._start_fit` validates the training data, resolves the costs
once and uses or refuses ``sample_cost`` as the class's ``_row_costs`` says;
:class:`BinaryCostClassifier` decides by a score's sign; :func:`platt_scaling`
calibrates a score (Platt 1999). Every fit ends with ``_check_degenerate``.
Stands on costs, exceptions and utils only.

References
----------
.. [1] J. Platt, "Probabilistic outputs for support vector machines and comparisons
   to regularized likelihood methods", Advances in Large Margin Classifiers, 1999.
"""

# Names shared outside __all__: the boosting engine warns as ClassifierBase does
# (_INNER_FIT, _plain_value; its stack level from costsense.utils._stack); the
# tree, forest and recommended model probe their fits (training_decisions,
# DEGENERACY_PROBE).

from __future__ import annotations

from ._binary import BinaryCostClassifier, PlattClassifier
from ._classifier import (
    ClassifierBase,
    FitStart,
    learns_row_costs,
    members_summary,
    refuse_fit_params,
)
from ._classifier import _plain_value as _plain_value
from ._degenerate import _INNER_FIT as _INNER_FIT
from ._degenerate import DEGENERACY_PROBE as DEGENERACY_PROBE
from ._degenerate import inner_fits
from ._degenerate import training_decisions as training_decisions
from ._platt import platt_scaling

__all__ = [
    "BinaryCostClassifier",
    "PlattClassifier",
    "ClassifierBase",
    "FitStart",
    "inner_fits",
    "learns_row_costs",
    "members_summary",
    "platt_scaling",
    "refuse_fit_params",
]
