"""costsense's own warnings and errors, for callers to filter or catch by class.

This module stands on nothing of costsense's: any module may import it.
"""

from __future__ import annotations

__all__ = [
    "CostlierThanConstantWarning",
    "DegenerateModelWarning",
    "MemoryBudgetError",
    "UsageError",
]


class DegenerateModelWarning(UserWarning):
    """A fitted model is constant: it kept no round or predicts one class.

    Issued (once per ``fit``) by every costsense classifier whose
    fitted model predicts a single class on its own training data, or, for a
    booster, kept no boosting round. The message names the estimator, what
    happened, why (a booster's ``stop_reason_``) and what to try; the fitted
    estimator's ``degenerate_`` attribute holds the same finding (None for a
    healthy fit), for callers that would rather not catch warnings.

    Such a model may still be the cheapest constant rule, but it ranks nothing
    (its AUC is 1/2) and usually means that the costs, the base learner or the
    stopping rule overwhelmed the data. Silence it, when that is expected, with
    ``warnings.filterwarnings("ignore", category=DegenerateModelWarning)``.

    Examples
    --------
    >>> from costsense.exceptions import DegenerateModelWarning
    >>> issubclass(DegenerateModelWarning, UserWarning)
    True
    """


class CostlierThanConstantWarning(UserWarning):
    """A fitted booster costs more on its own training rows than a constant rule.

    Issued (once per ``fit``) by a cost-sensitive booster whose final training
    cost (``train_cost_[-1]``, each row at its own cost) is above the cost of
    predicting the cheaper single class for every training row. The published
    heuristics that multiply each row's weight by its cost every round
    (AdaC2, AdaC3, Ting's CSB0-2) can do this: the weights pile onto the
    costliest rows, and the vote of the later rounds predicts their class
    everywhere. The message names both costs and the rules whose costs enter
    only the starting weights or ``alpha``; the model is kept as fitted.

    Examples
    --------
    >>> from costsense.exceptions import CostlierThanConstantWarning
    >>> issubclass(CostlierThanConstantWarning, UserWarning)
    True
    """


class MemoryBudgetError(MemoryError, ValueError):
    """A fit refused to allocate an array larger than the machine's memory.

    Raised before the allocation (so at once, whatever the size), by a learner
    whose working matrix grows faster than its input, such as a ``d x d`` matrix
    on data of ``d`` columns. The message names the matrix, its size, the budget
    and the parameter that gives a smaller route. It is a :class:`MemoryError`
    (what the allocation would have raised, or worse, the system's out-of-memory
    killer) and a :class:`ValueError` (the input and the parameters do not fit
    together, as scikit-learn's model selection expects of a bad setting).

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
