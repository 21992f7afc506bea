"""Telling a constant model, and warning about it once, at the user's own line.

Fits run inside another estimator's (:func:`inner_fits`) do not warn. Change it when
a constant model is detected or reported differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["DEGENERACY_PROBE", "inner_fits", "training_decisions"]

FloatArray = NDArray[np.float64]


#: True inside :func:`inner_fits`: fits set ``degenerate_`` without warning.
_INNER_FIT: ContextVar[bool] = ContextVar("costsense_inner_fit", default=False)


@contextmanager
def inner_fits() -> Iterator[None]:
    """Run fits that belong to an enclosing estimator's fit without their warning.

    Inside, classifiers set ``degenerate_`` but issue no
    :class:`~costsense.exceptions.DegenerateModelWarning` (a weak learner or a
    fold may well be constant; the enclosing estimator warns about its own
    model). A context variable: another process or thread enters the block
    itself.

    Yields
    ------
    None
    """
    token = _INNER_FIT.set(True)
    try:
        yield
    finally:
        _INNER_FIT.reset(token)


#: Training rows decided first when telling whether a fit is constant.
DEGENERACY_PROBE = 2048


def training_decisions(
    n_samples: int, decide: Callable[[NDArray[np.intp]], ArrayLike]
) -> NDArray[Any]:
    """Decisions of the training rows, as far as telling a constant fit needs.

    Only whether they are all one class matters (``degenerate_``): ``decide``
    (row indices -> decisions) is called on an evenly spread sample of at most
    :data:`DEGENERACY_PROBE` rows first, and on every row only when the sample's
    decisions are one class; the answer is exact and a healthy fit does not
    predict every training row again.
    """
    n = int(n_samples)
    probe = np.unique(np.linspace(0, n - 1, min(n, DEGENERACY_PROBE)).astype(np.intp))
    decided = np.asarray(decide(probe))
    if np.unique(decided).size > 1 or probe.size == n:
        return decided
    return np.asarray(decide(np.arange(n)))
