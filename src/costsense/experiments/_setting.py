"""A cost setting resolved once against a labelled problem, then passed down whole.

A study cell or a ``costsense evaluate`` call starts from a cost as the user wrote it
(a ratio ``5``, a pair ``(5, 2)``, a matrix) and needs it in several forms: the
matrix for the models, the scorer and the metrics, ``(C1, C2)`` for the Gaussian
problem's exact costs and for printing, the label for keys and tables. A
:class:`CostSetting` holds all of them, made once by :meth:`CostSetting.resolve`
through :mod:`costsense.costs` (the only place that converts between the forms).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from costsense.costs import (
    as_cost_matrix,
    binary_costs_from_matrix,
    resolve_pos_label,
)
from costsense.experiments._labels import cost_label

__all__ = ["CostSetting"]


@dataclass(frozen=True, eq=False)
class CostSetting:
    """The costs of one binary problem, in every form the experiments use.

    Attributes
    ----------
    label : str
        The cost's label (``"5"`` for a ratio, ``"5:2"`` for a pair; a matrix or
        balanced costs are labelled by their pair), as in the results' ``cost``
        column.
    classes : ndarray of shape (2,)
        Sorted labels of the problem.
    pos_label : label
        The positive (costly) class, an element of ``classes``.
    matrix : ndarray of shape (2, 2)
        ``matrix[i, j]`` = cost of predicting ``classes[j]`` when the truth is
        ``classes[i]``.
    c1, c2 : float
        False-negative and false-positive costs.
    """

    label: str
    classes: NDArray[Any]
    pos_label: Any
    matrix: NDArray[np.float64]
    c1: float
    c2: float

    @property
    def pair(self) -> tuple[float, float]:
        """``(C1, C2)``, the form of the Gaussian problem's cost methods."""
        return (self.c1, self.c2)

    @property
    def pos_index(self) -> int:
        """Index of the positive class in ``classes``."""
        return int(np.flatnonzero(self.classes == self.pos_label)[0])

    @classmethod
    def resolve(cls, cost: Any, y: ArrayLike, pos_label: Any = None) -> CostSetting:
        """Resolve a cost against the labels of a binary problem.

        Parameters
        ----------
        cost : None, float, pair of floats or array-like of shape (2, 2)
            Any class-level form of :mod:`costsense.costs` (``None``: balanced).
        y : array-like of shape (n_samples,)
            Labels of the problem (two classes).
        pos_label : hashable, default=None
            The positive class; the minority class of ``y`` if None.

        Returns
        -------
        CostSetting
        """
        y = np.asarray(y)
        classes = np.unique(y)
        positive = resolve_pos_label(y, pos_label)
        matrix = as_cost_matrix(cost, classes, positive, y=y)
        c1, c2 = binary_costs_from_matrix(matrix, classes, positive)
        if cost is not None and np.ndim(cost) == 0:  # a ratio
            label = cost_label(float(cost))
        elif cost is not None and np.ndim(cost) == 1:  # a pair
            label = cost_label(tuple(float(c) for c in cost))
        else:  # a matrix, or balanced costs
            label = cost_label((c1, c2))
        return cls(label, classes, positive, matrix, c1, c2)
