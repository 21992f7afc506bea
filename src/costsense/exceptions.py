"""costsense's own warnings and errors, for callers to filter or catch by class.

This module stands on nothing of costsense's: any module may import it.
"""

from __future__ import annotations

__all__ = [
    "CalibrationWarning",
    "ColumnWarning",
    "CostWarning",
    "CostlierThanConstantWarning",
    "DegenerateModelWarning",
    "MemoryBudgetError",
    "UsageError",
]


class DegenerateModelWarning(UserWarning):
    """A fitted model is constant: it kept no round or predicts one class.

    Issued once per ``fit``; the message names the estimator, what happened, why
    and what to try, and the fitted ``degenerate_`` attribute holds the same
    finding (None for a healthy fit). Such a model may be the cheapest constant
    rule, but it ranks nothing; it usually means the costs, the base learner or
    the stopping rule overwhelmed the data.

    Examples
    --------
    >>> from costsense.exceptions import DegenerateModelWarning
    >>> issubclass(DegenerateModelWarning, UserWarning)
    True
    """


class ColumnWarning(UserWarning):
    """A table's column is read as a feature the user may not mean.

    Issued by :func:`costsense.datasets.read_table` for each of its ``notes``
    (also kept in ``Table.notes``; the command line prints them): a column of
    distinct whole numbers, one per row, looks like an identifier. It stays a
    feature; leave it out (``drop``, ``id_column``) if it names rows.
    """


class CalibrationWarning(UserWarning):
    """A model's probabilities are miscalibrated in a way that costs money.

    Issued by :func:`costsense.experiments.decision_report` (``costsense
    evaluate``) when, on the pooled test rows, the Bayes decision made on
    probabilities recalibrated out of fold costs less than on the model's own,
    its bootstrap interval above zero
    (:func:`costsense.decision.calibration_check`). The message names the model
    and the money at stake; calibrate the model (``threshold-calibrated``, or
    scikit-learn's ``CalibratedClassifierCV``) before deciding by it.

    Examples
    --------
    >>> from costsense.exceptions import CalibrationWarning
    >>> issubclass(CalibrationWarning, UserWarning)
    True
    """


class CostWarning(UserWarning):
    """A model fitted with per-row costs decides rows without their costs.

    Issued by ``predict(X)`` of a model fitted with ``sample_cost``: each row is
    then decided at the class-level mean costs (``cost_matrix_``), which can be
    far from its own. Pass the rows' costs, ``predict(X, sample_cost=...)``, or
    ``predict(X, sample_cost="mean")`` to decide at the mean costs on purpose (no
    warning). The choice is made per call, not in the constructor: which costs
    the rows being decided carry is a fact of those rows, as ``sample_cost`` at
    ``fit`` is, not a hyperparameter that ``clone`` and searches would carry
    along. Issued once per fitted model (a new fit warns again), so repeated
    batches warn once; a cross-validation that scores by ``predict(X)`` warns
    once per fold, since each fold's model decides at its mean costs.

    Examples
    --------
    >>> from costsense.exceptions import CostWarning
    >>> issubclass(CostWarning, UserWarning)
    True
    """


class CostlierThanConstantWarning(UserWarning):
    """A fitted booster costs more on its own training rows than a constant rule.

    Issued once per ``fit`` when ``train_cost_[-1]`` is above the cost of
    predicting the cheaper single class for every training row, as the
    heuristics that multiply each row's weight by its cost every round (AdaC2,
    AdaC3, Ting's CSB0-2) can do. The model is kept as fitted.

    Examples
    --------
    >>> from costsense.exceptions import CostlierThanConstantWarning
    >>> issubclass(CostlierThanConstantWarning, UserWarning)
    True
    """


class MemoryBudgetError(MemoryError, ValueError):
    """A fit refused to allocate an array larger than the machine's memory.

    Raised before the allocation by a learner whose working matrix grows faster
    than its input; the message names the matrix, its size, the budget and the
    parameter that gives a smaller route. A :class:`MemoryError` (what the
    allocation would raise) and a :class:`ValueError` (a bad setting, as
    scikit-learn's model selection expects).

    Examples
    --------
    >>> from costsense.exceptions import MemoryBudgetError
    >>> issubclass(MemoryBudgetError, MemoryError)
    True
    """


class UsageError(Exception):
    """An input the user must change: an option, a file, a column, a cost.

    Its message is one line that names the input and the fix. The command line
    exits with status 2 and prints it, without a traceback; reading a user's
    table (a CSV or Parquet file) raises it for what the file must change.
    """
