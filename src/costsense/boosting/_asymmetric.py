"""The loss-derived asymmetric boosters: AsymBoost, AsyB, AsyBL, AsymLogitBoost.

AsymBoost (Masnadi-Shirazi & Vasconcelos 2007) and AsyB (paper 000, Algorithm 1)
are rules on the discrete engine; AsyBL (paper 000, Algorithm 2) and Asymmetric
LogitBoost are Newton rounds (:mod:`costsense.boosting._logit`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from costsense.boosting import _rules
from costsense.boosting._docs import documented_booster
from costsense.boosting._engine import CostBoostingClassifier
from costsense.boosting._logit import LogitCostBoostingClassifier
from costsense.utils._compat import (
    StrOptions,
)
from costsense.utils._docstrings import documented, shared_attributes

__all__ = [
    "AsyBClassifier",
    "AsyBLClassifier",
    "AsymBoostClassifier",
    "AsymLogitBoostClassifier",
]


@documented_booster
class AsymBoostClassifier(CostBoostingClassifier):
    """Asymmetric boosting of Masnadi-Shirazi & Vasconcelos (2007), "CS-AdaBoost".

    Not imbalanced-ensemble's ``AsymBoostClassifier`` (Viola & Jones 2001), which
    reweights by ``k^(1/T)`` each round. Here ``alpha`` is the exact minimiser of
    the round's cost-sensitive exponential loss ``sum D exp(-C_y alpha y h)``.
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AsymBoost()


@documented_booster
class AsyBClassifier(CostBoostingClassifier):
    """AsyB (paper 000, Algorithm 1): Fisher-consistent cost-sensitive AdaBoost.

    ``alpha = 1/2 ln((C1 W+_ok + C2 W-_ok) / (C1 W+_bad + C2 W-_bad))``,
    ``D <- D exp(-alpha y h) / Z``, ``H = sign(sum alpha h)``; ``predict_proba``
    inverts the loss's minimiser ``F* = 1/2 ln(C1 P(+|x) / (C2 P(-|x)))``.

    Parameters
    ----------
    {parameters}
    init_weights : {"cost", "uniform"}, default="cost"
        ``"cost"``: ``D_1 ∝ c`` as printed; ``"uniform"``: ``D_1 = 1/n``.

    Attributes
    ----------
    {attributes}

    Notes
    -----
    As printed, the algorithm puts the cost both in ``D_1`` and in ``alpha``: it
    counts the cost twice. The exact stagewise minimisation of its own loss
    ``sum c exp(-y F)`` is :class:`AdaBoostCClassifier` (cost in ``D_1`` only).
    Counting it twice can make the printed form's ``alpha`` non-positive after a
    few rounds (the costly class's weight outgrows what a weak learner can
    correct); it is implemented faithfully (it is what the paper evaluated): run
    it with ``early_stopping=False`` to reproduce the paper, and read
    ``n_nonpositive_alpha_``. The printed equations (5)-(6)
    use ``I[y = 1]`` in both sums; the ``alpha`` above is the minimiser of the
    stated objective and reduces to AdaBoost's when ``C1 = C2``.
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **CostBoostingClassifier._parameter_constraints,
        "init_weights": [StrOptions({"cost", "uniform"})],
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
        init_weights: str = "cost",
        random_state: Any = None,
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
        self.init_weights = init_weights

    def _rule(self) -> _rules.BoostRule:
        return _rules.AsyB(self.init_weights)


_LOGIT_PARAMETERS = """\
    estimator : regressor with ``sample_weight``, default=None
        Fitted to the working response each round; None means
        ``DecisionTreeRegressor(max_depth=3)`` (CART, as in paper 000).
    n_estimators : int, default=50
        Number of rounds.
    learning_rate : float, default=0.1
        Shrinkage of each Newton step. Lower it when the regressors are deep or
        the rounds many: unshrunk Newton steps (1.0) of deep regressors overfit
        within a few rounds.
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`); None or "balanced": balanced
        costs; "unit": every error costs 1.
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    random_state : int, RandomState instance or None, default=None
        Seeds the regressors' own ``random_state``."""

_LOGIT_ATTRIBUTES = (
    shared_attributes("classes_", "pos_label_", "cost_matrix_")
    + """
    costs_ : tuple of float
        ``(C1, C2)``.
    link_ : tuple of float
        ``(g, eta)`` of the link ``p(F) = sigmoid(2 (g F + eta))``.
    z_max_ : float
        Clip of the working response.
    estimators_ : list of regressors
        One per round.
    train_cost_ : ndarray of shape (n_estimators,)
        Mean training cost per sample after each round.
"""
    + shared_attributes("degenerate_", "n_features_in_", "feature_names_in_")
)

_documented_logit = documented(_LOGIT_PARAMETERS, _LOGIT_ATTRIBUTES)


@_documented_logit
class AsyBLClassifier(LogitCostBoostingClassifier):
    """AsyBL (paper 000, Algorithm 2): LogitBoost with a cost-sensitive link.

    ``p(F) = C2 e^F / (C1 e^-F + C2 e^F)``; ``F_0 = 0``; each round fits a
    regressor to ``z = (y* - p) / (p (1 - p))`` with weights ``p (1 - p)`` and adds
    half of it; ``H = sign(F)``. With ``C1 = C2`` it is LogitBoost. At the same
    settings it predicts exactly as :class:`AsymLogitBoostClassifier`, whose score
    is this one divided by ``(C1 + C2) / 2`` (proof sketch in
    :mod:`costsense.boosting._logit`).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import AsyBLClassifier
    >>> X, y = make_classification(weights=[0.8], random_state=0)
    >>> model = AsyBLClassifier(cost=5, random_state=0).fit(X, y)
    >>> g, eta = model.link_  # g = 1, eta = 1/2 ln(C2 / C1) = -1/2 ln 5
    >>> print(g, round(eta, 6))
    1.0 -0.804719
    """


@_documented_logit
class AsymLogitBoostClassifier(LogitCostBoostingClassifier):
    """Asymmetric LogitBoost (Masnadi-Shirazi & Vasconcelos 2011).

    The link ``p(F) = sigmoid(2 (g F + eta))`` with ``g = (C1 + C2) / 2`` and
    ``eta = 1/2 ln(C2 / C1)``; Newton steps as in :class:`AsyBLClassifier`. The
    scale ``g`` cancels: ``g F`` follows AsyBL's recursion exactly, so at the same
    settings the two predict alike and their probabilities agree (proof sketch in
    :mod:`costsense.boosting._logit`).
    """

    def _link(self, c1: float, c2: float) -> tuple[float, float]:
        return 0.5 * (c1 + c2), 0.5 * float(np.log(c2 / c1))
