"""Class labels: a label among the classes; the positive (minority) class.

A string never matches a number. Change it when labels are matched differently or
the default positive class changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["resolve_pos_label"]


def _label_index(classes: ArrayLike, label: Any, name: str = "pos_label") -> int:
    """Position of ``label`` in ``classes`` ("1" is not 1), else a ValueError."""
    known = list(np.asarray(classes).tolist())
    value = label.item() if isinstance(label, np.generic) else label
    for index, candidate in enumerate(known):
        if isinstance(candidate, str) == isinstance(value, str) and candidate == value:
            return index
    raise ValueError(
        f"{name}={label!r} is not one of the class labels {known}. "
        f"Pass {name} as one of these labels (or leave it None for the minority class)."
    )


def resolve_pos_label(
    y: ArrayLike, pos_label: Any = None, *, sample_weight: ArrayLike | None = None
) -> Any:
    """Return the positive (costly) class label of ``y``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    pos_label : hashable, default=None
        The label to use (refused if not a label of ``y``); None picks the
        minority class, a tie going to the last label in sorted order.
    sample_weight : array-like of shape (n_samples,), default=None
        If given, the minority class is the one of least total weight.

    Returns
    -------
    label
        An element of ``np.unique(y)``.
    """
    y = np.asarray(y)
    classes = np.unique(y)
    if classes.size == 0:
        raise ValueError("y is empty: cannot choose a positive class from no labels.")
    if pos_label is not None:
        return classes[_label_index(classes, pos_label)]
    # np.unique's return_inverse sorts y a second time (an argsort); the labels'
    # places among the sorted classes are found faster by binary search
    return _minority_label(classes, np.searchsorted(classes, y), sample_weight)


def _minority_label(
    classes: NDArray[Any], index: NDArray[np.intp], sample_weight: ArrayLike | None
) -> Any:
    """Return the class of least count (or total weight); a tie goes to the last.

    ``index`` holds each sample's position in the sorted ``classes``.
    """
    counts = np.bincount(index, weights=sample_weight, minlength=classes.size)
    return classes[np.flatnonzero(counts == counts.min())[-1]]


def _plain(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


def _class_indices(y: ArrayLike, classes: NDArray[Any]) -> NDArray[np.intp]:
    y = np.asarray(y)
    order = np.argsort(classes, kind="stable")  # classes need not be sorted
    index = order[
        np.clip(np.searchsorted(classes, y, sorter=order), 0, classes.size - 1)
    ]
    if not np.all(classes[index] == y):
        unknown = sorted(set(np.asarray(y).tolist()) - set(classes.tolist()), key=str)
        raise ValueError(f"y contains labels {unknown} that are not in classes.")
    return index
