"""How a model's input rows are read, kept inside the model it was fitted with.

``costsense predict`` reads a new file's rows as ``costsense fit`` read the
training rows (decimal marks, missing values, cost columns). Those choices
decide predictions, so :class:`RowReading` holds them as parameters of the
fitted pipeline's numeric step, and the model loader compares them with the
model file's metadata one by one: an edit of one without the other is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

__all__ = ["RowReading"]


class RowReading(TransformerMixin, BaseEstimator):
    """Pass numeric columns through, recording how their text was read.

    Parameters
    ----------
    number_marks : dict of str to {".", ","}, optional
        The decimal mark of each numeric column written as text with one.
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
