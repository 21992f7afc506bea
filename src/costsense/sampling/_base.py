"""What costsense's oversamplers share: per-class draws, categorical columns, checks.

An oversampler models each class it must grow and draws the synthetic rows'
continuous columns from that model (the subclass's job), each categorical column
by roulette wheel from the class's own value frequencies (paper 003, algorithm 1,
step 2b). The originals come first, then each class's synthetic rows in
``sampling_strategy_`` order, as in imbalanced-learn. Tables (a DataFrame, or an
ndarray of objects) are encoded once (:mod:`costsense.sampling._columns`),
resampled as numbers, and decoded back to the input's form and dtypes.

A :class:`RedrawableOverSampler` splits its work into ``_fit_continuous`` and
``_sample_continuous`` and gets ``_redraw``, new synthetic rows from the models of
the last ``fit_resample``. Both paths consume the random stream alike, so
``redraw(random_state=s)`` returns the rows a ``fit_resample`` with
``random_state=s`` would.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

import numpy as np
from imblearn.over_sampling.base import BaseOverSampler
from imblearn.utils import check_target_type
from numpy.typing import NDArray
from sklearn.utils import check_array, check_consistent_length
from sklearn.utils.validation import check_is_fitted, validate_data

from costsense.sampling._columns import EncodedTable, TableCodec, encode_table, is_table
from costsense.utils._columns import categorical_mask, is_dataframe
from costsense.utils._compat import StrOptions
from costsense.utils._random import draw_seed

FloatArray = NDArray[np.floating]

__all__: list[str] = []

#: Model seeds are drawn in ``[0, SEED_BOUND)``.
SEED_BOUND = 2**31 - 1


def roulette_wheel(
    column: NDArray[Any], n_draws: int, rng: np.random.Generator
) -> NDArray[Any]:
    """Draw ``n_draws`` values of ``column`` with their frequencies in it."""
    values, counts = np.unique(column, return_counts=True)
    return values[rng.choice(values.size, size=n_draws, p=counts / counts.sum())]


class ClassDensityOverSampler(BaseOverSampler):
    """Base of the oversamplers that draw each class's rows from a fitted model.

    Subclasses implement :meth:`_draw_continuous`; those that fit a model they can
    draw from again derive from :class:`RedrawableOverSampler` instead.
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **BaseOverSampler._parameter_constraints,
        "categorical_features": ["array-like", StrOptions({"auto"}), None],
    }

    def _check_X_y(self, X: Any, y: Any, accept_sparse: Any = None) -> tuple:
        """Check the input; encode a table (DataFrame, objects) as numbers.

        Numeric input keeps its float64 or float32 dtype (sparse is refused).
        """
        y, binarize_y = check_target_type(y, indicate_one_vs_all=True)
        if not is_table(X):
            X, y = validate_data(
                self,
                X=X,
                y=y,
                reset=True,
                accept_sparse=False,
                dtype=[np.float64, np.float32],
            )
            return X, y, binarize_y
        if not is_dataframe(X):
            if not hasattr(X, "dtype"):  # rows of numbers and strings: keep both
                X = np.asarray(X, dtype=object)
            X = check_array(X, dtype=None, ensure_all_finite=False)
        elif X.ndim != 2 or X.shape[0] < 1:
            raise ValueError(
                f"X must have at least one row and one column, got shape {X.shape}."
            )
        check_consistent_length(X, y)
        validate_data(self, X=X, y=y, reset=True, skip_check_array=True)
        categorical = categorical_mask(self.categorical_features, X, X.shape[1])
        return encode_table(X, categorical), y, binarize_y

    def _fit_resample(self, X: FloatArray | EncodedTable, y: NDArray[Any]) -> tuple:
        values: FloatArray  # the encoded table, or X itself
        if isinstance(X, EncodedTable):
            table: EncodedTable | None = X
            values, categorical = X.encoded, X.codec.categorical
        else:
            table, values = None, X
            categorical = categorical_mask(
                self.categorical_features, values, values.shape[1]
            )
        continuous = ~categorical
        rng = np.random.default_rng(draw_seed(self.random_state))
        self.categorical_features_ = np.flatnonzero(categorical)
        self.models_: dict[Any, Any] = {}
        self._class_rows_: dict[Any, NDArray[Any]] = {}
        self._codec_: TableCodec | None = None if table is None else table.codec
        X_parts, y_parts = [values], [y]
        for label, n_new in self.sampling_strategy_.items():
            if n_new == 0:
                continue
            X_class = values[y == label]
            self._class_rows_[label] = X_class
            synthetic = np.empty((n_new, values.shape[1]), dtype=values.dtype)
            if continuous.any():
                model, draws = self._draw_continuous(
                    X_class[:, continuous].astype(np.float64), n_new, rng
                )
                self.models_[label] = model
                synthetic[:, continuous] = draws
            for column in np.flatnonzero(categorical):
                synthetic[:, column] = roulette_wheel(X_class[:, column], n_new, rng)
            X_parts.append(synthetic)
            y_parts.append(np.full(n_new, label, dtype=y.dtype))
        self._label_dtype_ = y.dtype
        self._stream_ = rng  # what redraw() continues when given no random_state
        y_res = np.concatenate(y_parts)
        if table is None:
            return np.vstack(X_parts), y_res
        new = np.vstack(X_parts[1:]) if len(X_parts) > 1 else values[:0]
        return table.codec.stack(table.original, new.astype(np.float64)), y_res

    @abstractmethod
    def _draw_continuous(
        self, X_class: NDArray[np.float64], n_new: int, rng: np.random.Generator
    ) -> tuple[Any, NDArray[np.float64]]:
        """Fit the class's model; return it and ``n_new`` draws of its columns."""

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags


class RedrawableOverSampler(ClassDensityOverSampler):
    """Base of the oversamplers whose class models can be drawn from again.

    Subclasses implement :meth:`_fit_continuous` and :meth:`_sample_continuous`
    and may offer :meth:`_redraw` publicly (see the module docstring).
    """

    def _draw_continuous(
        self, X_class: NDArray[np.float64], n_new: int, rng: np.random.Generator
    ) -> tuple[Any, NDArray[np.float64]]:
        """Fit the class's model with a seed drawn from ``rng``; draw ``n_new`` rows."""
        model = self._fit_continuous(X_class, int(rng.integers(SEED_BOUND)))
        return model, self._sample_continuous(model, X_class, n_new, rng)

    @abstractmethod
    def _fit_continuous(self, X_class: NDArray[np.float64], seed: int) -> Any:
        """Fit and return the model of a class's continuous columns."""

    @abstractmethod
    def _sample_continuous(
        self,
        model: Any,
        X_class: NDArray[np.float64],
        n_new: int,
        rng: np.random.Generator,
    ) -> NDArray[np.float64]:
        """Draw ``n_new`` rows of continuous columns from a fitted class model."""

    def _redraw(self, random_state: Any = None) -> tuple[FloatArray, NDArray[Any]]:
        """Draw new synthetic rows from the class models of the last ``fit_resample``.

        ``random_state`` seeds the draws as it seeds ``fit_resample``; None
        continues the sampler's own stream.
        """
        check_is_fitted(self, "models_")
        rng = (
            self._stream_
            if random_state is None
            else np.random.default_rng(draw_seed(random_state))
        )
        categorical = np.zeros(self.n_features_in_, dtype=bool)
        categorical[self.categorical_features_] = True
        continuous = ~categorical
        X_parts, y_parts = [], []
        for label, n_new in self.sampling_strategy_.items():
            if n_new == 0:
                continue
            X_class = self._class_rows_[label]
            synthetic = np.empty((n_new, X_class.shape[1]), dtype=X_class.dtype)
            if continuous.any():
                rng.integers(SEED_BOUND)  # the model's seed in fit_resample: unused
                synthetic[:, continuous] = self._sample_continuous(
                    self.models_[label],
                    X_class[:, continuous].astype(np.float64),
                    n_new,
                    rng,
                )
            for column in np.flatnonzero(categorical):
                synthetic[:, column] = roulette_wheel(X_class[:, column], n_new, rng)
            X_parts.append(synthetic)
            y_parts.append(np.full(n_new, label, dtype=self._label_dtype_))
        if X_parts:
            X_new, y_new = np.vstack(X_parts), np.concatenate(y_parts)
        else:
            X_new = np.empty((0, self.n_features_in_))
            y_new = np.empty(0, dtype=self._label_dtype_)
        if self._codec_ is not None:  # a table: its rows, in its form
            return self._codec_.decode(X_new), y_new
        return X_new, y_new
