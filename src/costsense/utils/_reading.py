"""How a model's input rows are read, kept inside the model it was fitted with.

``costsense predict`` reads a new file's rows as ``costsense fit`` read the
training rows (decimal marks, missing values, cost columns). Those choices
decide predictions, so :class:`RowReading` holds them as parameters of the
fitted pipeline's numeric step, and the model loader compares them with the
model file's metadata one by one: an edit of one without the other is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from costsense.utils._cells import read_cost_column, refuse_infinite
from costsense.utils._numbers import read_written_numbers
from costsense.utils._tables import TableOptions

__all__ = ["RowReading", "make_encoder", "read_cells", "unseen_categories"]


class RowReading(TransformerMixin, BaseEstimator):
    """Pass numeric columns through, recording how their text was read.

    Parameters
    ----------
    number_marks : dict of str to str, optional
        The mark of each numeric column written as text: its decimal mark
        ("." or ","), then the currency sign or percent set aside, if any
        (``",€"``; :func:`~costsense.utils._numbers.is_mark`).
    missing : {"raise", "drop", "impute", "keep"}, default="raise"
        What ``--missing`` did with a missing value.
    cost_parts : dict, optional
        The four cost parts (``fp``, ``fn``, ``tp``, ``tn``), each a constant
        or the name of the column holding each row's cost; None for class costs.

    Attributes
    ----------
    feature_names_in_ : ndarray of str
        The columns passed through.
    n_features_in_ : int
        Their number.
    """

    def __init__(
        self,
        number_marks: dict[str, str] | None = None,
        missing: str = "raise",
        cost_parts: dict[str, Any] | None = None,
    ) -> None:
        self.number_marks = number_marks
        self.missing = missing
        self.cost_parts = cost_parts

    def fit(self, X: Any, y: Any = None) -> RowReading:
        """Record the columns passed through."""
        width = np.shape(X)[1]
        names = getattr(X, "columns", [f"x{i}" for i in range(width)])
        self.feature_names_in_ = np.asarray([str(c) for c in names], dtype=object)
        self.n_features_in_ = int(width)
        return self

    def transform(self, X: Any) -> NDArray[np.float64]:
        """Return the columns as floats, missing values kept as NaN."""
        check_is_fitted(self)
        values = np.asarray(X, dtype=np.float64)
        if values.ndim != 2 or values.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {values.shape[-1]} columns; RowReading was fitted on "
                f"{self.n_features_in_}."
            )
        return values

    def get_feature_names_out(self, input_features: Any = None) -> NDArray[Any]:
        """Name the outputs as the inputs."""
        check_is_fitted(self)
        return np.asarray(self.feature_names_in_, dtype=object)


def make_encoder(
    kinds: dict[str, str],
    missing: str,
    number_marks: dict[str, str] | None = None,
    parts: Mapping[str, Any] | None = None,
) -> Any:
    """Build the column encoder of a table's features, fitted inside each model.

    A category becomes an indicator (one first seen at prediction sets none), a
    date-time its hour, weekday, day and month; numbers pass through
    :class:`~costsense.utils._reading.RowReading`, which keeps how rows were
    read inside the model. ``missing="impute"``: a missing number or date part
    gets its training median, a missing category its own indicator.
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    from costsense.utils._dates import DateTimeParts

    def of(kind: str) -> list[str]:
        return [c for c, k in kinds.items() if k == kind]

    def imputed(step: Any) -> Any:
        if missing != "impute":
            return step
        return make_pipeline(
            step, SimpleImputer(strategy="median", keep_empty_features=True)
        )

    reading = RowReading(
        dict(number_marks or {}), missing, None if parts is None else dict(parts)
    )
    steps: list[tuple[str, Any, list[str]]] = [
        (
            "categorical",
            OneHotEncoder(handle_unknown="ignore", sparse_output=False),
            of("categorical"),
        ),
        ("numeric", imputed(reading), of("numeric")),
    ]
    if of("date-time"):  # a step only when needed: the model loader expects so
        steps.append(("date-time", imputed(DateTimeParts()), of("date-time")))
    return ColumnTransformer(steps, verbose_feature_names_out=False)


def unseen_categories(
    encoder: Any, frame: Any, rows: NDArray[np.bool_]
) -> dict[str, NDArray[np.bool_]]:
    """Flag the ``rows`` whose category a fitted :func:`make_encoder` never saw.

    Such a category sets none of its column's indicators; a missing cell is not
    flagged (the model's ``missing`` setting decides its row). Only the
    categorical columns with a flagged row are returned.
    """
    step = getattr(encoder, "named_transformers_", {}).get("categorical")  # or unfitted
    names = getattr(step, "feature_names_in_", ())
    found = {
        name: rows
        & frame[name].notna().to_numpy()
        & ~frame[name].isin(known).to_numpy()
        for name, known in zip(names, getattr(step, "categories_", ()), strict=True)
    }
    return {name: flags for name, flags in found.items() if flags.any()}


def read_cells(
    frame: Any,
    path: str,
    options: TableOptions,
    costly: list[str],
    marks: dict[str, str] | None = None,
    first_row: int = 0,
) -> tuple[Any, dict[str, str]]:
    """Read the written numbers and cost columns of a frame, refuse infinite numbers.

    Returns the frame read and each column's mark (decimal mark and currency
    sign); ``marks`` fixes them (a model's, whose every column holds numbers: a
    cell that is not one is refused by line and value), ``first_row`` numbers a
    chunk's first row in messages.
    """
    frame, found = read_written_numbers(
        frame, path, options.decimal, marks, first_row, costly, options.show_cells
    )
    for name in costly:
        frame[name] = read_cost_column(
            frame[name],
            f"--csv {path}: cost column {name!r}",
            missing_allowed=options.missing == "drop",
            first_row=first_row,
            show_cells=options.show_cells,
        )
    refuse_infinite(frame.drop(columns=costly), path, first_row)
    return frame, found
