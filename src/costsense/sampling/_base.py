"""What costsense's oversamplers share: per-class draws, categorical columns, checks.

An oversampler here models each class it must grow, draws the synthetic rows' continuous
columns from that model (the subclass's job) and each categorical column independently
by roulette wheel from the class's own value frequencies (paper 003, algorithm 1, step
2b; RWO-Sampling treats nominal attributes the same way). The originals come first in
the output, unchanged; the synthetic rows of each class follow in ``sampling_strategy_``
order, as imbalanced-learn's oversamplers do.

Fit once, draw many times: a :class:`RedrawableOverSampler` splits its work into
:meth:`~RedrawableOverSampler._fit_continuous` (the class model, from the rows and a
seed) and :meth:`~RedrawableOverSampler._sample_continuous` (draws from a fitted
model) and gets :meth:`~RedrawableOverSampler._redraw`, which draws new synthetic rows
from the models of the last ``fit_resample`` without refitting them (the boosters'
per-round sampler uses it through a public ``redraw``; see
:mod:`costsense.boosting._resample`). Both paths consume the random stream alike: per
class, the model's seed, the continuous draws, then each categorical column's. So
``redraw(random_state=s)`` returns exactly the synthetic rows a ``fit_resample`` with
``random_state=s`` would, had it fitted the same models.
"""

from __future__ import annotations

from abc import abstractmethod
from numbers import Integral
from typing import Any, ClassVar

import numpy as np
from imblearn.over_sampling.base import BaseOverSampler
from imblearn.utils import check_target_type
from numpy.typing import NDArray
from sklearn.utils.validation import check_is_fitted, validate_data

from costsense.utils._random import draw_seed

FloatArray = NDArray[np.floating]

__all__: list[str] = []

#: Model seeds are drawn in ``[0, SEED_BOUND)``.
SEED_BOUND = 2**31 - 1


def roulette_wheel(
    column: NDArray[Any], n_draws: int, rng: np.random.Generator
) -> NDArray[Any]:
    """Draw ``n_draws`` values of ``column`` with their frequencies in it.

    Parameters
    ----------
    column : ndarray of shape (n_samples,)
        A categorical column of one class.
    n_draws : int
        How many values to draw.
    rng : numpy.random.Generator
        Source of randomness.

    Returns
    -------
    ndarray of shape (n_draws,)
        Values seen in ``column``, each with probability its relative frequency.
    """
    values, counts = np.unique(column, return_counts=True)
    return values[rng.choice(values.size, size=n_draws, p=counts / counts.sum())]


class ClassDensityOverSampler(BaseOverSampler):
    """Base of the oversamplers that draw each class's rows from a fitted model.

    Subclasses implement :meth:`_draw_continuous`; those that fit a model they can
    draw from again derive from :class:`RedrawableOverSampler` instead.
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **BaseOverSampler._parameter_constraints,
        "categorical_features": ["array-like", None],
    }

    def _categorical_mask(self, n_features: int) -> NDArray[np.bool_]:
        """Return the boolean mask of categorical columns (from indices or a mask)."""
        if self.categorical_features is None:
            return np.zeros(n_features, dtype=bool)
        given = np.asarray(self.categorical_features)
        if given.dtype == bool:
            if given.shape != (n_features,):
                raise ValueError(
                    f"categorical_features as a boolean mask needs {n_features} "
                    f"entries (one per column of X), got shape {given.shape}."
                )
            return given.copy()
        if given.ndim != 1 or not all(
            isinstance(i, Integral | np.integer) for i in given.tolist()
        ):
            raise ValueError(
                "categorical_features must be column indices (integers) or a boolean "
                f"mask, got {self.categorical_features!r}."
            )
        if given.size and (given.min() < -n_features or given.max() >= n_features):
            raise ValueError(
                f"categorical_features has an index outside X's {n_features} columns: "
                f"{self.categorical_features!r}."
            )
        mask = np.zeros(n_features, dtype=bool)
        mask[given] = True
        return mask

    def _check_X_y(self, X: Any, y: Any, accept_sparse: Any = None) -> tuple:
        # dense numbers only: the class models are densities over real columns
        y, binarize_y = check_target_type(y, indicate_one_vs_all=True)
        X, y = validate_data(
            self,
            X=X,
            y=y,
            reset=True,
            accept_sparse=False,
            dtype=[np.float64, np.float32],
        )
        return X, y, binarize_y

    def _fit_resample(self, X: FloatArray, y: NDArray[Any]) -> tuple:
        categorical = self._categorical_mask(X.shape[1])
        continuous = ~categorical
        rng = np.random.default_rng(draw_seed(self.random_state))
        self.categorical_features_ = np.flatnonzero(categorical)
        self.models_: dict[Any, Any] = {}
        self._class_rows_: dict[Any, NDArray[Any]] = {}
        X_parts, y_parts = [X], [y]
        for label, n_new in self.sampling_strategy_.items():
            if n_new == 0:
                continue
            X_class = X[y == label]
            self._class_rows_[label] = X_class
            synthetic = np.empty((n_new, X.shape[1]), dtype=X.dtype)
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
        return np.vstack(X_parts), np.concatenate(y_parts)

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
        """Fit the class's model; return it and ``n_new`` draws of its columns.

        :meth:`_fit_continuous` with a seed drawn from ``rng``, then
        :meth:`_sample_continuous`.
        """
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

        Parameters
        ----------
        random_state : int, RandomState instance or None, default=None
            Seeds the draws as ``random_state`` seeds ``fit_resample``; None
            continues the sampler's own stream (successive calls differ, and the
            sequence is reproducible from the sampler's ``random_state``).

        Returns
        -------
        X_new : ndarray of shape (n_synthetic, n_features)
        y_new : ndarray of shape (n_synthetic,)
            As many rows of each class as ``fit_resample`` appended, in the same
            order (``sampling_strategy_``).
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
        if not X_parts:
            return np.empty((0, self.n_features_in_)), np.empty(
                0, dtype=self._label_dtype_
            )
        return np.vstack(X_parts), np.concatenate(y_parts)
