"""Boosting with an oversampler in every round: SMOTEBoost, RWOBoost, OBPDBoost.

SMOTEBoost (Chawla, Lazarevic, Hall & Bowyer 2003) and the two variants paper 003
compares it with: each round, an oversampler adds synthetic rows of the positive
(minority) class to the training set of that round's weak learner only; the weighted
error, ``alpha`` and the weight update are AdaBoost's (discrete; AdaBoost.M1 for two
classes) and are computed on the original rows. The engine is
:class:`~costsense.boosting._engine.CostBoostingClassifier` with the AdaBoost rule;
this module only adds the rows.

Choices, documented because the papers leave them open:

- how many rows: ``oversampling`` times the number of positive rows each round
  (paper 003: 200 %, ``oversampling=2``);
- their weight in the learner's training set: the mean weight of the positive rows
  in that round, so the synthetic rows stand in for the class at its current
  emphasis and the positive class's share of the weight grows with its row count;
- the sampler draws afresh each round (seeded from ``random_state``); it must
  return the original rows first, as imbalanced-learn's oversamplers do (checked);
- small positive classes: a sampler with ``k_neighbors`` (SMOTE) needs ``k + 1``
  positive rows, so ``k`` is lowered to ``n_pos - 1`` when there are fewer; with a
  single positive row no synthetic row is drawn (``n_synthetic_ = 0``).
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from imblearn.over_sampling import SMOTE
from numpy.typing import NDArray
from sklearn.base import clone
from sklearn.naive_bayes import GaussianNB

from costsense.boosting._engine import CostBoostingClassifier
from costsense.boosting._estimators import _COMMON_ATTRIBUTES
from costsense.sampling import OBPDSampler, RWOSampler
from costsense.utils._docstrings import documented
from costsense.utils._param_validation import HasMethods, Interval
from costsense.utils._random import draw_seed

FloatArray = NDArray[np.float64]

__all__ = ["OBPDBoostClassifier", "RWOBoostClassifier", "SMOTEBoostClassifier"]

_PARAMETERS = """\
    estimator : classifier with ``sample_weight``, default=None
        The weak learner (cloned each round). None means Gaussian naive Bayes,
        paper 003's base learner.
    sampler : imbalanced-learn oversampler, default=None
        Draws the synthetic positive rows each round (cloned, with its
        ``sampling_strategy`` and ``random_state`` set). None means {default}.
    oversampling : float, default=2.0
        Synthetic rows per round, as a multiple of the positive rows (paper 003:
        200 %). 0 is plain AdaBoost.
    n_estimators : int, default=50
        Maximum number of rounds.
    learning_rate : float, default=1.0
        Shrinks every ``alpha``.
    cost : None, float, pair of floats or array-like of shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`); as for AdaBoost, only the
        positive class, the constant rule and ``train_cost_`` use it.
    pos_label : hashable, default=None
        The class that is oversampled; the minority class if None.
    early_stopping : bool, default=True
        Stop at the first round whose ``alpha`` is not positive.
    random_state : int, RandomState instance or None, default=None
        Seeds the weak learners and the sampler."""

_ATTRIBUTES = (
    _COMMON_ATTRIBUTES
    + """
    n_synthetic_ : int
        Synthetic positive rows added in each round."""
)


class _ResampleBoost(CostBoostingClassifier):
    """AdaBoost whose weak learners train on the rows plus fresh synthetic ones.

    Subclasses name their default oversampler class in ``_make_sampler``.
    """

    _make_sampler: ClassVar[type]

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        **CostBoostingClassifier._parameter_constraints,
        "sampler": [HasMethods(["fit_resample"]), None],
        "oversampling": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        estimator: Any = None,
        *,
        sampler: Any = None,
        oversampling: float = 2.0,
        n_estimators: int = 50,
        learning_rate: float = 1.0,
        cost: Any = None,
        pos_label: Any = None,
        early_stopping: bool = True,
        random_state: Any = None,
    ) -> None:
        super().__init__(
            estimator,
            n_estimators=n_estimators,
            learning_rate=learning_rate,
            cost=cost,
            pos_label=pos_label,
            early_stopping=early_stopping,
            random_state=random_state,
        )
        self.sampler = sampler
        self.oversampling = oversampling

    def _base(self) -> Any:
        return GaussianNB() if self.estimator is None else self.estimator

    def _fit_learner(
        self,
        learner: Any,
        X: FloatArray,
        y: FloatArray,
        weights: FloatArray,
        rng: np.random.RandomState,
    ) -> None:
        positive = y > 0
        n_positive = int(positive.sum())
        n_new = int(round(self.oversampling * n_positive)) if n_positive > 1 else 0
        self.n_synthetic_ = n_new
        if n_new == 0:
            learner.fit(X, y, sample_weight=weights)
            return
        sampler = clone(self._make_sampler() if self.sampler is None else self.sampler)
        params = sampler.get_params()
        if "sampling_strategy" not in params:
            raise TypeError(
                f"{type(self).__name__}: the sampler {type(sampler).__name__} has no "
                "sampling_strategy to ask it for the synthetic rows; use an "
                "imbalanced-learn oversampler (SMOTE, ADASYN, RWOSampler, OBPDSampler)."
            )
        updates: dict[str, Any] = {"sampling_strategy": {1.0: n_positive + n_new}}
        if "random_state" in params:
            updates["random_state"] = draw_seed(rng)
        neighbours = params.get("k_neighbors")
        if isinstance(neighbours, Integral) and neighbours >= n_positive:
            updates["k_neighbors"] = n_positive - 1
        sampler.set_params(**updates)
        X_res, y_res = sampler.fit_resample(X, y)
        n = X.shape[0]
        if X_res.shape[0] != n + n_new or not np.array_equal(X_res[:n], X):
            raise ValueError(
                f"{type(self).__name__}: the sampler {type(sampler).__name__} must "
                f"return the {n} original rows first and then {n_new} synthetic "
                "ones, as imbalanced-learn's oversamplers do."
            )
        synthetic_weight = weights[positive].mean()
        learner.fit(
            X_res,
            y_res,
            sample_weight=np.concatenate([weights, np.full(n_new, synthetic_weight)]),
        )


def _documented(default: str) -> Callable[[type], type]:
    return documented(_PARAMETERS.replace("{default}", default), _ATTRIBUTES)


@_documented("imbalanced-learn's ``SMOTE()`` (5 neighbours)")
class SMOTEBoostClassifier(_ResampleBoost):
    """SMOTEBoost (Chawla et al. 2003): AdaBoost with SMOTE rows in every round.

    See :mod:`costsense.boosting._resample` for the choices the paper leaves open.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    References
    ----------
    .. [1] N. V. Chawla, A. Lazarevic, L. O. Hall, K. W. Bowyer, "SMOTEBoost:
       improving prediction of the minority class in boosting", PKDD 2003.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import SMOTEBoostClassifier
    >>> X, y = make_classification(weights=[0.8], random_state=0)
    >>> model = SMOTEBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    >>> model.n_synthetic_ == 2 * int((y == model.pos_label_).sum())
    True
    """

    _make_sampler = SMOTE


@_documented(":class:`~costsense.sampling.RWOSampler`")
class RWOBoostClassifier(_ResampleBoost):
    """RWOBoost (paper 003's rival): AdaBoost with random-walk rows every round.

    See :mod:`costsense.boosting._resample` for the choices the paper leaves open.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import RWOBoostClassifier
    >>> X, y = make_classification(weights=[0.8], random_state=0)
    >>> model = RWOBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    >>> model.n_synthetic_ == 2 * int((y == model.pos_label_).sum())
    True
    """

    _make_sampler = RWOSampler


@_documented(":class:`~costsense.sampling.OBPDSampler` (its defaults)")
class OBPDBoostClassifier(_ResampleBoost):
    """OBPDBoost (paper 003): AdaBoost with Gaussian-mixture rows every round.

    SMOTEBoost with SMOTE replaced by OBPD-Sampling. The mixture is refitted each
    round (the sampler is generic), which dominates the fit time on wide data.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import OBPDBoostClassifier
    >>> X, y = make_classification(weights=[0.8], random_state=0)
    >>> model = OBPDBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    >>> model.n_synthetic_ == 2 * int((y == model.pos_label_).sum())
    True
    """

    _make_sampler = OBPDSampler
