"""Boosters with an oversampler in every round: SMOTEBoost, RWOBoost, OBPDBoost.

The AdaBoost rule with a default ``sampler`` (:mod:`costsense.boosting._resample`),
naive Bayes as the default weak learner (paper 003), and ``categorical_features``
passed on to the sampler and to a weak learner that takes it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from imblearn.over_sampling import SMOTE, SMOTEN, SMOTENC
from numpy.typing import ArrayLike
from sklearn.base import clone
from sklearn.naive_bayes import GaussianNB

from costsense.boosting._docs import COMMON_ATTRIBUTES, parameters_section
from costsense.boosting._engine import CostBoostingClassifier
from costsense.sampling import OBPDSampler, RWOSampler
from costsense.utils._columns import categorical_mask
from costsense.utils._docstrings import documented

__all__ = [
    "OBPDBoostClassifier",
    "RWOBoostClassifier",
    "SMOTEBoostClassifier",
]


_NAIVE_BAYES = "Gaussian naive Bayes,\n        paper 003's base learner."
_CATEGORICAL = """
    categorical_features : array-like of int or bool, default=None
        Columns holding category codes (column indices or a boolean mask; the
        codes are numbers, e.g. from ``OrdinalEncoder`` or
        ``load_keel(encoding="ordinal")``). The sampler draws them as
        categories: {categories}. A weak learner that takes
        ``categorical_features`` gets them too
        (:class:`~costsense.naive_bayes.DiscreteNaiveBayesClassifier` counts each
        code as a category; Gaussian naive Bayes reads the codes as numbers).
        Either's own setting is replaced; a sampler that takes no categorical
        columns is refused. None: every column is continuous."""
_documented_resampling = {
    name: documented(
        parameters_section(_NAIVE_BAYES, sampler) + _CATEGORICAL.format(categories=how),
        COMMON_ATTRIBUTES,
    )
    for name, sampler, how in (
        (
            "smote",
            "imbalanced-learn's ``SMOTE()`` (5 neighbours); with\n        "
            "``categorical_features``, ``SMOTENC`` (``SMOTEN`` when every column is\n"
            "        categorical)",
            "SMOTE-NC's\n        most frequent code among a synthetic row's neighbours",
        ),
        (
            "rwo",
            ":class:`~costsense.sampling.RWOSampler`",
            "a\n        roulette wheel over the class's own codes",
        ),
        (
            "obpd",
            ":class:`~costsense.sampling.OBPDSampler` (its defaults)",
            "a\n        roulette wheel over the class's own codes (paper 003, "
            "algorithm 1,\n        step 2b), the mixture modelling the other columns",
        ),
    )
}


class _ResamplingBoostingClassifier(CostBoostingClassifier):
    """A booster with a per-round oversampler that passes categorical columns on.

    Its rounds are AdaBoost's, which use no costs, so ``fit`` refuses ``sample_cost``.
    """

    _row_costs = "its rounds are AdaBoost's, which use no costs"
    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **CostBoostingClassifier._parameter_constraints,
        "categorical_features": ["array-like", None],
    }

    def __init__(
        self,
        estimator: Any = None,
        *,
        n_estimators: int = 50,
        learning_rate: float = 1.0,
        cost: Any = None,
        pos_label: Any = None,
        early_stopping: bool = True,
        sampler: Any = None,
        oversampling: float = 2.0,
        random_state: Any = None,
        categorical_features: ArrayLike | None = None,
    ) -> None:
        super().__init__(
            estimator,
            n_estimators=n_estimators,
            learning_rate=learning_rate,
            cost=cost,
            pos_label=pos_label,
            early_stopping=early_stopping,
            sampler=sampler,
            oversampling=oversampling,
            random_state=random_state,
        )
        self.categorical_features = categorical_features

    def _categorical(self) -> list[int]:
        """Return the categorical columns' indices (in ``fit``, once validated).

        A list, not an array: imbalanced-learn's SMOTENC compares the value with
        ``"auto"``, which an array of several indices cannot answer.
        """
        mask = categorical_mask(self.categorical_features, None, self.n_features_in_)
        return np.flatnonzero(mask).tolist()

    def _base(self) -> Any:
        base = super()._base()
        columns = self._categorical()
        if not columns or "categorical_features" not in base.get_params():
            return base
        return clone(base).set_params(categorical_features=columns)

    def _sampler(self) -> Any:
        columns = self._categorical()
        if not columns:
            return super()._sampler()
        if self.sampler is None and self._default_sampler is SMOTE:
            if len(columns) == self.n_features_in_:
                return SMOTEN()
            return SMOTENC(categorical_features=columns)
        sampler = super()._sampler()
        if sampler is None:
            return None
        if "categorical_features" not in sampler.get_params():
            raise TypeError(
                f"{type(self).__name__}: categorical_features is given, but the "
                f"sampler {type(sampler).__name__} takes no categorical columns and "
                "would draw their codes as numbers; use a sampler that takes them "
                "(imbalanced-learn's SMOTENC or SMOTEN, costsense's OBPDSampler or "
                "RWOSampler), or leave categorical_features=None."
            )
        return clone(sampler).set_params(categorical_features=columns)


@_documented_resampling["smote"]
class SMOTEBoostClassifier(_ResamplingBoostingClassifier):
    """SMOTEBoost (Chawla et al. 2003): AdaBoost with SMOTE rows in every round.

    The AdaBoost rule with SMOTE as the default ``sampler`` and naive Bayes as the
    default weak learner; see :mod:`costsense.boosting._resample` for the choices
    the paper leaves open. Any other rule takes the same sampler
    (``AdaC2Classifier(sampler=SMOTE())``).

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

    _default_estimator = GaussianNB
    _default_sampler = SMOTE


@_documented_resampling["rwo"]
class RWOBoostClassifier(_ResamplingBoostingClassifier):
    """RWOBoost (paper 003's rival): AdaBoost with random-walk rows every round.

    The AdaBoost rule with :class:`~costsense.sampling.RWOSampler` as the default
    ``sampler``; see :mod:`costsense.boosting._resample`.
    """

    _default_estimator = GaussianNB
    _default_sampler = RWOSampler


@_documented_resampling["obpd"]
class OBPDBoostClassifier(_ResamplingBoostingClassifier):
    """OBPDBoost (paper 003): AdaBoost with Gaussian-mixture rows every round.

    SMOTEBoost with SMOTE replaced by OBPD-Sampling. The class rows never change
    between rounds, so the mixture is fitted once per boosting fit and each round
    draws fresh rows from it (``OBPDSampler.redraw``; see
    :mod:`costsense.boosting._resample`).
    """

    _default_estimator = GaussianNB
    _default_sampler = OBPDSampler
