"""Cost matrices labelled by class (a DataFrame, a dict of dicts), aligned by label.

Names the missing and unknown labels. Change it when another labelled container is
accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._labels import _plain

FloatArray = NDArray[np.float64]


def _is_labelled(cost: Any) -> bool:
    """Whether ``cost`` names its classes: a pandas DataFrame or a dict of dicts."""
    if isinstance(cost, Mapping):
        return True
    return type(cost).__name__ == "DataFrame" and hasattr(cost, "columns")


def _labelled_matrix(cost: Any, classes: NDArray[Any]) -> FloatArray:
    """Align a labelled matrix (DataFrame or ``{true: {pred: cost}}``) by label.

    Rows and columns are put in the order of ``classes``; a missing diagonal
    entry of a dict is 0. Labels are matched as :func:`_label_index` matches them
    (a string never matches a number).
    """
    known = [_plain(c) for c in classes.tolist()]
    if isinstance(cost, Mapping):
        table = {
            _plain(true): dict(row) if isinstance(row, Mapping) else row
            for true, row in cost.items()
        }
        bad_rows = [t for t, row in table.items() if not isinstance(row, dict)]
        if bad_rows:
            raise TypeError(
                f"cost: a dict cost matrix maps each true label to a dict "
                f"{{predicted label: cost}}; the entries of {bad_rows} are not dicts."
            )
        row_labels = list(table)
        column_labels = list(
            dict.fromkeys(_plain(p) for row in table.values() for p in row)
        )
        where = "dict"
    else:
        row_labels = [_plain(v) for v in cost.index.tolist()]
        column_labels = [_plain(v) for v in cost.columns.tolist()]
        where = "DataFrame"
        for axis, labels in (("index", row_labels), ("columns", column_labels)):
            if len(set(map(repr, labels))) != len(labels):
                raise ValueError(f"cost: the DataFrame's {axis} repeats a label.")
        values = cost.to_numpy().tolist()
        table = {
            r: dict(zip(column_labels, v, strict=True))
            for r, v in zip(row_labels, values, strict=True)
        }
    # a label's type counts, as in _label_index: "1" is not 1
    places = {(isinstance(c, str), c): i for i, c in enumerate(known)}

    def place(label: Any) -> int | None:
        return places.get((isinstance(label, str), label))

    for axis, labels in (
        ("rows (true labels)", row_labels),
        ("columns (predicted labels)", column_labels),
    ):
        unknown = [label for label in labels if place(label) is None]
        seen = {place(label) for label in labels}
        missing = [c for i, c in enumerate(known) if i not in seen]
        if unknown or (missing and not (where == "dict" and "columns" in axis)):
            parts = []
            if unknown:
                parts.append(f"labels {unknown} that are not classes")
            if missing:
                parts.append(f"no entry for classes {missing}")
            raise ValueError(
                f"cost: the {where}'s {axis} have " + " and ".join(parts) + f"; the "
                f"classes are {known}. Label every row and column with a class (in "
                "any order; a label's type counts, '1' is not 1)."
            )
    k = len(known)
    matrix = np.full((k, k), np.nan)
    for true, row in table.items():
        for predicted, value in row.items():
            try:
                matrix[place(true), place(_plain(predicted))] = float(value)
            except (TypeError, ValueError):
                raise TypeError(f"cost: the {where} must hold numbers.") from None
    if where == "DataFrame":
        return matrix
    diagonal = np.diag(matrix)
    np.fill_diagonal(matrix, np.where(np.isnan(diagonal), 0.0, diagonal))
    absent = [(known[i], known[j]) for i, j in np.argwhere(np.isnan(matrix))]
    if absent:
        raise ValueError(
            f"cost: the dict gives no cost for the (true, predicted) pairs "
            f"{absent}; give every error's cost (a missing diagonal entry is 0)."
        )
    return matrix
