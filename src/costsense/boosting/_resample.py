"""An oversampler in every boosting round: the engine's ``sampler`` parameter.

SMOTEBoost (Chawla, Lazarevic, Hall & Bowyer 2003) and the two variants paper 003
compares it with (RWOBoost, OBPDBoost) add synthetic rows of the positive
(minority) class to the training set of each round's weak learner only; the
weighted error, ``alpha`` and the weight update stay on the original rows. That is
an axis of its own, independent of the rule: any rule of
:mod:`costsense.boosting._rules` combines with any imbalanced-learn oversampler
(``AdaC2Classifier(sampler=SMOTE())``), and SMOTEBoost is the AdaBoost rule with
SMOTE as its default sampler. No rule's ``alpha`` or update is copied here.

Choices, documented because the papers leave them open:

- how many rows: ``oversampling`` times the number of positive rows each round
  (paper 003: 200 %, ``oversampling=2``);
- their weight in the learner's training set: the mean learner weight of the
  positive rows in that round, so the synthetic rows stand in for the class at its
  current emphasis and the positive class's share of the weight grows with its
  row count;
- the sampler draws afresh each round (seeded from the engine's ``random_state``);
  it must return the original rows first, as imbalanced-learn's oversamplers do
  (checked);
- fit once, draw every round: the positive rows are the same in every round, only
  the draw changes, so a sampler that offers ``redraw(random_state)`` -- new
  synthetic rows ``(X_new, y_new)`` from the models its last ``fit_resample``
  fitted, as many as that call appended -- is fitted once per boosting fit (by
  ``fit_resample`` in the first round) and only redraws in the later rounds, each
  round's seed going to ``redraw`` as it would have gone to ``random_state``.
  :class:`~costsense.sampling.OBPDSampler` offers it (its Gaussian mixtures are
  fitted once instead of once per round); samplers without it (imbalanced-learn's
  SMOTE, :class:`~costsense.sampling.RWOSampler`) are cloned and fitted every round
  as before. The redrawn rows are checked too: ``n_new`` rows of the positive
  class;
- small positive classes: a sampler with ``k_neighbors`` (SMOTE) needs ``k + 1``
  positive rows, so ``k`` is lowered to ``n_pos - 1`` when there are fewer; with a
  single positive row no synthetic row is drawn (``n_synthetic_ = 0``).

Undersamplers (RUSBoost) would need the rows they keep (``sample_indices_``) rather
than an amount of synthetic rows; they are not supported yet.
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
    """A configured oversampler that trains each round's learner on extra rows.

    Attributes
    ----------
    template : imbalanced-learn oversampler
        Unfitted, with its ``sampling_strategy`` (and ``k_neighbors``) set.
    n_new : int
        Synthetic positive rows per round.
    owner : str
        Name of the estimator, for error messages.
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
        """Set ``sampler`` up for the labels ``y``; None when no row is to be drawn.

        Parameters
        ----------
        sampler : imbalanced-learn oversampler or None
            The sampler (cloned).
        oversampling : float
            Synthetic rows as a multiple of the positive rows.
        y : ndarray of shape (n_samples,)
            Labels in ``{-1, +1}``.
        owner : str
            Name of the estimator, for error messages.

        Returns
        -------
        RoundSampler or None
        """
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
        """Fit ``learner`` on the rows plus fresh synthetic positive rows.

        Parameters
        ----------
        learner : classifier with ``sample_weight``
            The round's unfitted learner.
        X : ndarray of shape (n_samples, n_features)
            The original rows.
        y : ndarray of shape (n_samples,)
            Labels in ``{-1, +1}``.
        weights : ndarray of shape (n_samples,)
            The rows' learner weights this round.
        rng : RandomState
            Seeds the draw.
        """
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

        The first call (and any call on other rows) clones and fits the sampler with
        ``fit_resample``; when the sampler can redraw (:func:`can_redraw`), it is
        kept and later calls on the same rows only redraw.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The original rows.
        y : ndarray of shape (n_samples,)
            Labels in ``{-1, +1}``.
        rng : RandomState
            Seeds the draw (one seed per call, when the sampler takes a
            ``random_state``).

        Returns
        -------
        X_res : ndarray of shape (n_samples + n_new, n_features)
        y_res : ndarray of shape (n_samples + n_new,)
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
    """Whether a fitted sampler can draw new synthetic rows without refitting.

    The capability is a ``redraw(random_state=None)`` method returning
    ``(X_new, y_new)``: new synthetic rows from the models the last
    ``fit_resample`` fitted, as many of each class as that call appended.

    Parameters
    ----------
    sampler : object
        An imbalanced-learn style oversampler.

    Returns
    -------
    bool
    """
    return callable(getattr(sampler, "redraw", None))
