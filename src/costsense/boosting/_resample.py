"""An oversampler in every boosting round: the engine's ``sampler`` parameter.

SMOTEBoost (Chawla et al. 2003) and paper 003's RWOBoost and OBPDBoost add
synthetic positive rows to the training set of each round's weak learner only;
the error, ``alpha`` and the weight update stay on the original rows, so any rule
combines with any imbalanced-learn oversampler (``AdaC2Classifier(sampler=SMOTE())``).

Choices the papers leave open:

- ``oversampling`` times the positive rows are drawn each round (paper 003: 200 %);
- synthetic rows weigh the positive rows' mean learner weight of the round;
- the sampler draws afresh each round (seeded from ``random_state``) and must
  return the original rows first (checked); a sampler with
  ``redraw(random_state)`` (:class:`~costsense.sampling.OBPDSampler`) is fitted
  once per boosting fit and only redraws in later rounds;
- ``k_neighbors`` is lowered to ``n_pos - 1`` for small positive classes; a single
  positive row gets no synthetic row.

Undersamplers (RUSBoost) are not supported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.base import clone

from costsense.utils._random import draw_seed

FloatArray = NDArray[np.float64]

__all__ = ["RoundSampler", "can_redraw"]


@dataclass(frozen=True)
class RoundSampler:
    """An oversampler (``template``, unfitted and configured) adding ``n_new`` rows.

    ``owner`` names the estimator in error messages.
    """

    template: Any
    n_new: int
    owner: str
    #: The fitted sampler that redraws, and the rows it was fitted on.
    _fitted: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def configure(
        cls, sampler: Any, oversampling: float, y: FloatArray, owner: str
    ) -> RoundSampler | None:
        """Set a clone of ``sampler`` up for ``y`` (in ``{-1, +1}``); None: no rows."""
        n_positive = int(np.sum(y > 0))
        n_new = int(round(oversampling * n_positive)) if n_positive > 1 else 0
        if sampler is None or n_new == 0:
            return None
        template = clone(sampler)
        params = template.get_params()
        if "sampling_strategy" not in params:
            raise TypeError(
                f"{owner}: the sampler {type(template).__name__} has no "
                "sampling_strategy to ask it for the synthetic rows; use an "
                "imbalanced-learn oversampler (SMOTE, ADASYN, RWOSampler, OBPDSampler)."
            )
        updates: dict[str, Any] = {"sampling_strategy": {1.0: n_positive + n_new}}
        neighbours = params.get("k_neighbors")
        if isinstance(neighbours, Integral) and int(neighbours) >= n_positive:
            updates["k_neighbors"] = n_positive - 1
        template.set_params(**updates)
        return cls(template=template, n_new=n_new, owner=owner)

    def fit(
        self,
        learner: Any,
        X: FloatArray,
        y: FloatArray,
        weights: FloatArray,
        rng: np.random.RandomState,
    ) -> None:
        """Fit ``learner`` on the rows plus fresh synthetic positive rows."""
        X_res, y_res = self.resample(X, y, rng)
        synthetic_weight = weights[y > 0].mean()
        learner.fit(
            X_res,
            y_res,
            sample_weight=np.concatenate(
                [weights, np.full(self.n_new, synthetic_weight)]
            ),
        )

    def resample(
        self, X: FloatArray, y: FloatArray, rng: np.random.RandomState
    ) -> tuple[FloatArray, FloatArray]:
        """Return the rows followed by ``n_new`` fresh synthetic positive rows.

        The first call on these rows fits a clone of the sampler; a sampler that
        can redraw (:func:`can_redraw`) is kept, and later calls only redraw.
        """
        n = X.shape[0]
        fitted = self._fitted.get("sampler")
        if fitted is not None and self._fitted["X"] is X and self._fitted["y"] is y:
            seed = draw_seed(rng) if self._fitted["seeded"] else None
            X_new, y_new = fitted.redraw(random_state=seed)
            X_new, y_new = np.asarray(X_new), np.asarray(y_new)
            if X_new.shape != (self.n_new, X.shape[1]) or not np.all(y_new == 1):
                raise ValueError(
                    f"{self.owner}: the sampler {type(fitted).__name__}.redraw must "
                    f"return {self.n_new} synthetic rows of the positive class, as "
                    f"its fit_resample appended; got {X_new.shape[0]} rows."
                )
            return np.vstack([X, X_new]), np.concatenate([y, y_new])
        sampler = clone(self.template)
        seeded = "random_state" in sampler.get_params()
        if seeded:
            sampler.set_params(random_state=draw_seed(rng))
        X_res, y_res = sampler.fit_resample(X, y)
        if X_res.shape[0] != n + self.n_new or not np.array_equal(X_res[:n], X):
            raise ValueError(
                f"{self.owner}: the sampler {type(sampler).__name__} must return the "
                f"{n} original rows first and then {self.n_new} synthetic ones, as "
                "imbalanced-learn's oversamplers do."
            )
        if can_redraw(sampler):
            self._fitted.update(sampler=sampler, X=X, y=y, seeded=seeded)
        return X_res, y_res


def can_redraw(sampler: Any) -> bool:
    """Whether ``sampler`` has ``redraw(random_state=None) -> (X_new, y_new)``.

    It draws new synthetic rows from the models its last ``fit_resample`` fitted,
    as many of each class as that call appended.
    """
    return callable(getattr(sampler, "redraw", None))
