"""AdaBoost, the reference every variant reduces to, and AdaBoostC (cost in D_1)."""

from __future__ import annotations

from costsense.boosting import _rules
from costsense.boosting._docs import documented_booster
from costsense.boosting._engine import CostBoostingClassifier

__all__ = [
    "AdaBoostCClassifier",
    "AdaBoostClassifier",
]


@documented_booster
class AdaBoostClassifier(CostBoostingClassifier):
    """Discrete AdaBoost, the textbook algorithm (Freund & Schapire 1997).

    ``alpha = 1/2 ln((1 - err) / err)``, ``D <- D exp(-alpha y h) / Z``,
    ``H = sign(sum alpha h)``. It ignores the costs (they only define
    ``pos_label_`` and the reported ``train_cost_``), so ``fit`` refuses
    ``sample_cost``; it is the reference every variant reduces to.
    scikit-learn's SAMME stores ``2 alpha``.

    Notes
    -----
    Paper 001's three theorems in the attributes' terms, for ``N`` samples of
    uniform initial weight, the score ``f_m = sum_{k <= m} alpha_k G_k`` after
    round ``m`` and ``G_k = estimators_[k - 1]``:

    - Theorem 1: the training error of ``sign(f_m)`` is at most
      ``(1/N) sum_i exp(-y_i f_m(x_i)) = prod_{k <= m} Z_k``, the running
      product of ``estimator_normalisers_``;
    - Theorem 2: ``prod Z_k = prod 2 sqrt(e_k (1 - e_k)) = prod sqrt(1 - 4
      gamma_k^2) <= exp(-2 sum gamma_k^2)`` with ``e_k`` the
      ``estimator_errors_`` and ``gamma_k`` the ``estimator_edges_``: while the
      edges stay away from 0, the training error falls exponentially
      (Corollary 1);
    - Theorem 3: AdaBoost is forward stagewise additive modelling with the
      exponential loss: ``alpha_m = 1/2 ln((1 - e_m) / e_m)`` (equation (2))
      minimises ``sum_i exp(-y_i (f_{m-1}(x_i) + alpha G_m(x_i)))`` over
      ``alpha``, and a learner of least weighted error on ``D_m``, which is
      proportional to ``exp(-y_i f_{m-1}(x_i))``, minimises it over the
      learners.

    Theorem 1's equality holds at any ``learning_rate``, with early stopping
    and at a perfect first round (``Z_1 = exp(-alpha_1)``); with
    ``sample_weight`` it holds for the weighted error under the normalised
    ``D_1``. Theorem 2's equalities and Theorem 3 need ``learning_rate=1``, and
    Theorem 3's second half a learner that minimises the weighted error (a tree
    minimises an impurity instead).

    Of the other rules, those whose update is ``D exp(-alpha s_i y_i h(x_i))``
    with a fixed ``s_i > 0`` and whose score is ``F = sum alpha h`` (AdaBoostC and
    AsyB: ``s = 1``; AdaC1: the scaled costs; AsymBoost: ``s = C_y``) keep
    Theorem 1 as ``sum_i D_1i [sign(F(x_i)) != y_i] <= prod Z_m``; AdaBoostC
    keeps Theorem 2. For AdaCost, AdaC2, AdaC3 and CSB0-2 the product of the
    ``Z_m`` bounds nothing stated here.

    References
    ----------
    .. [1] Y. Freund, R. Schapire, "A decision-theoretic generalization of
       on-line learning and an application to boosting", JCSS 55, 1997.
    .. [2] Paper 001 of this project: the AdaBoost chapter (Algorithm 1,
       equations (1)-(4), Theorems 1-3 and Corollary 1).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_classification
    >>> from costsense.boosting import AdaBoostClassifier
    >>> X, y = make_classification(random_state=0)
    >>> model = AdaBoostClassifier(n_estimators=10, random_state=0).fit(X, y)
    >>> len(model.estimator_weights_) <= 10
    True
    >>> bound = np.cumprod(model.estimator_normalisers_)  # Theorem 1
    >>> errors = [np.mean(p != y) for p in model.staged_predict(X)]
    >>> bool(np.all(errors <= bound))
    True
    """

    _row_costs = "its rounds use no costs; for per-row costs use AdaBoostCClassifier"

    def _rule(self) -> _rules.BoostRule:
        return _rules.BoostRule()


@documented_booster
class AdaBoostCClassifier(CostBoostingClassifier):
    """AdaBoost started from cost-proportional weights (Landesa-Vazquez 2012).

    The exact stagewise minimisation of ``sum c_i exp(-y_i F)``: costs enter only
    through ``D_1 ∝ c``.
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaBoostC()
