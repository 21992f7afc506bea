"""Named models as pipelines: ``[prepare ->] scale -> method(base)``.

:func:`make_model` builds a model of :data:`~costsense.experiments.CATALOG` on a
base learner of :data:`~costsense.experiments.BASES`. The scaling (a name of
:data:`SCALERS`, a study's ``protocol.scale``, or any transformer) is fitted
inside each training fold only; the method goes last, so that it sees the costs
and its base learner receives ``sample_weight`` directly. Categorical columns
given as codes (``protocol.categorical = "ordinal"``) are left unscaled
(:class:`ScaleContinuous`) and declared to the method as its
``categorical_features``, or failing that to its base learner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from costsense.experiments._catalog import BASES, CATALOG

#: Scalings by name, fitted on each training fold: ``"none"`` leaves the features.
SCALERS: dict[str, Callable[[], TransformerMixin | str]] = {
    "standard": StandardScaler,
    "minmax": MinMaxScaler,
    "none": lambda: "passthrough",
}


class ScaleContinuous(TransformerMixin, BaseEstimator):
    """Scale the continuous columns only; categorical codes pass unchanged.

    The columns keep their order (a ``ColumnTransformer`` would move the
    passed-through ones to the end, and the declared indices would move).

    Parameters
    ----------
    scaler : transformer or "passthrough", default="passthrough"
        Fitted (a clone) on the continuous columns of the training rows.
    categorical_features : sequence of int, default=()
        Indices of the columns left as they are.

    Attributes
    ----------
    continuous_ : ndarray of bool of shape (n_features_in_,)
        The columns the scaler transforms.
    scaler_ : transformer or None
        The fitted scaler (None with "passthrough" or no continuous column).
    n_features_in_ : int
        Number of columns seen in fit.
    """

    def __init__(
        self, scaler: Any = "passthrough", categorical_features: Sequence[int] = ()
    ) -> None:
        self.scaler = scaler
        self.categorical_features = categorical_features

    def fit(self, X: Any, y: Any = None) -> ScaleContinuous:
        """Fit the scaler on the continuous columns of ``X``."""
        X = np.asarray(X, dtype=np.float64)
        self.n_features_in_ = X.shape[1]
        self.continuous_ = np.ones(X.shape[1], dtype=bool)
        self.continuous_[list(self.categorical_features)] = False
        self.scaler_ = None
        if self.scaler != "passthrough" and self.continuous_.any():
            self.scaler_ = clone(self.scaler).fit(X[:, self.continuous_])
        return self

    def transform(self, X: Any) -> np.ndarray:
        """Return ``X`` with its continuous columns scaled, in the same order."""
        X = np.array(X, dtype=np.float64)  # a copy: the input is not changed
        if self.scaler_ is not None:
            X[:, self.continuous_] = self.scaler_.transform(X[:, self.continuous_])
        return X


def _declare_categorical(model: BaseEstimator, columns: list[int]) -> None:
    """Give ``model`` (or else its base learner) the categorical columns."""
    params = model.get_params(deep=False)
    if "categorical_features" in params:
        model.set_params(categorical_features=columns)
        return
    base = params.get("estimator")
    if base is not None and "categorical_features" in base.get_params(deep=False):
        model.set_params(estimator=clone(base).set_params(categorical_features=columns))


def make_model(
    method: str,
    *,
    base: str = "logistic",
    cost: Any,
    pos_label: Any,
    seed: int = 0,
    scaler: str | TransformerMixin = "standard",
    prepare: TransformerMixin | None = None,
    categorical_features: Iterable[int] = (),
) -> Pipeline:
    """Build a named cost-sensitive model as a pipeline ``scale -> method(base)``.

    Parameters
    ----------
    method : str
        A name of :data:`~costsense.experiments.CATALOG` ("plain" is the
        cost-blind base learner).
    base : str, default="logistic"
        A name of :data:`~costsense.experiments.BASES`.
    cost : cost specification
        Any class-level form of :mod:`costsense.costs`.
    pos_label : hashable
        The positive (costly) class.
    seed : int, default=0
        Seed of every random part of the model.
    scaler : str or transformer, default="standard"
        The first step: a key of :data:`SCALERS` (``"none"`` for no scaling), or
        an unfitted transformer (cloned).
    prepare : transformer, default=None
        A step before the scaling (cloned): the column encoder and imputer of a
        table, for example.
    categorical_features : sequence of int, default=()
        Columns holding category codes: the scaling leaves them
        (:class:`ScaleContinuous`), and the method, or else its base learner, gets
        them as ``categorical_features`` when it takes that parameter.

    Returns
    -------
    sklearn.pipeline.Pipeline
        Unfitted; the steps ``"prepare"`` (when given), ``"scale"`` and
        ``"model"``.
    """
    if method not in CATALOG:
        raise ValueError(f"model {method!r} is unknown; choose from {sorted(CATALOG)}.")
    if base not in BASES:
        raise ValueError(f"base {base!r} is unknown; choose from {sorted(BASES)}.")
    if isinstance(scaler, str):
        if scaler not in SCALERS:
            raise ValueError(
                f"scaler {scaler!r} is unknown; choose from {sorted(SCALERS)} "
                "or give a transformer."
            )
        scale = SCALERS[scaler]()
    else:
        scale = clone(scaler)
    columns = [int(column) for column in categorical_features]
    if columns:
        scale = ScaleContinuous(scale, categorical_features=columns)
    learner = BASES[base].build(seed)
    model = CATALOG[method].build(learner, cost, pos_label, seed)
    if columns:
        _declare_categorical(model, columns)
    steps = [("scale", scale), ("model", model)]
    if prepare is not None:
        steps.insert(0, ("prepare", clone(prepare)))
    return Pipeline(steps)
