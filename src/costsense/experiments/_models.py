"""Named models as pipelines: ``[prepare ->] scale -> method(base)``.

The scaling is fitted inside each training fold only; the method goes last, so
that it sees the costs and its base learner gets ``sample_weight`` directly.
Categorical codes are left unscaled and declared to the method (or else to its
base learner) as ``categorical_features``.
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
    """Scale the continuous columns only, in place: the declared indices stay.

    ``scaler_`` is the fitted clone of ``scaler`` (None: nothing to scale),
    ``continuous_`` the mask of the columns it scales.
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
    """Build a named cost-sensitive model: ``[prepare ->] scale -> method(base)``.

    Parameters
    ----------
    method : str
        A name of :data:`~costsense.experiments.CATALOG`.
    base : str, default="logistic"
        A name of :data:`~costsense.experiments.BASES`.
    cost : cost specification
        Any class-level form of :mod:`costsense.costs`.
    pos_label : hashable
        The positive (costly) class.
    seed : int, default=0
        Seed of every random part of the model.
    scaler : str or transformer, default="standard"
        A key of :data:`SCALERS`, or an unfitted transformer (cloned).
    prepare : transformer, default=None
        A first step (cloned), such as a table's column encoder.
    categorical_features : sequence of int, default=()
        Columns of category codes: left unscaled and given to the method, or
        else its base learner, when it takes ``categorical_features``.

    Returns
    -------
    sklearn.pipeline.Pipeline
        Unfitted; the steps ``"prepare"`` (when given), ``"scale"``, ``"model"``.
    """
    for kind, name, names in (
        ("model", method, CATALOG),
        ("base", base, BASES),
        ("scaler", scaler, SCALERS),
    ):
        if isinstance(name, str) and name not in names:
            raise ValueError(f"{kind} {name!r} is unknown; choose from {sorted(names)}")
    scale = SCALERS[scaler]() if isinstance(scaler, str) else clone(scaler)
    learner = BASES[base].build(seed)
    model = CATALOG[method].build(learner, cost, pos_label, seed)
    if columns := [int(column) for column in categorical_features]:
        scale = ScaleContinuous(scale, categorical_features=columns)
        for taker in (model, learner):  # the method, or else its base learner
            if "categorical_features" in taker.get_params(deep=False):
                taker.set_params(categorical_features=columns)
                break
    first = [] if prepare is None else [("prepare", clone(prepare))]
    return Pipeline([*first, ("scale", scale), ("model", model)])
