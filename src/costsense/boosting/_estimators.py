"""The public boosting estimators: a rule (or a link) and a docstring each."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from imblearn.over_sampling import SMOTE, SMOTEN, SMOTENC
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit
from sklearn.base import clone
from sklearn.naive_bayes import GaussianNB

from costsense._base import inner_fits, platt_scaling
from costsense.boosting import _rules
from costsense.boosting._engine import CostBoostingClassifier
from costsense.boosting._logit import LogitCostBoostingClassifier
from costsense.boosting._staged import StagedCostClassifier, cost_of_signs
from costsense.naive_bayes import categorical_feature_mask
from costsense.sampling import OBPDSampler, RWOSampler
from costsense.utils._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _fit_context,
)
from costsense.utils._docstrings import documented

__all__ = [
    "AdaBoostCClassifier",
    "AdaBoostClassifier",
    "AdaC1Classifier",
    "AdaC2Classifier",
    "AdaC3Classifier",
    "AdaCostClassifier",
    "AsyBClassifier",
    "AsyBLClassifier",
    "AsymBoostClassifier",
    "AsymLogitBoostClassifier",
    "CSB0Classifier",
    "CSB1Classifier",
    "CSB2Classifier",
    "CalibratedAdaBoostClassifier",
    "OBPDBoostClassifier",
    "RWOBoostClassifier",
    "SMOTEBoostClassifier",
]

FloatArray = NDArray[np.float64]

_STUMP = """\
a decision stump,
        ``DecisionTreeClassifier(max_depth=1)``. Paper 000 used a perceptron on
        the Gaussian problem and C4.5 on the UCI sets (an entropy tree,
        ``DecisionTreeClassifier(criterion="entropy")``, is the stand-in)."""

_PARAMETERS_TEMPLATE = """\
    estimator : classifier with ``sample_weight``, default=None
        The weak learner (cloned each round). None means {estimator}
    n_estimators : int, default=50
        Maximum number of rounds.
    learning_rate : float, default=1.0
        Shrinks every ``alpha`` (in the ensemble and in the weight update).
    cost : None, float, pair of floats or array-like of shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`): ``C1/C2`` (``C2 = 1``),
        ``(C1, C2)``, a cost matrix, or None for balanced costs. Example-dependent
        costs go to ``fit(..., sample_cost=...)``.
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    early_stopping : bool, default=True
        Stop at the first round whose ``alpha`` is not positive (the learner does
        not help); False keeps such rounds (see ``n_nonpositive_alpha_``).
    sampler : imbalanced-learn oversampler, default=None
        Adds fresh synthetic positive rows to every round's training set of the
        weak learner, at the positives' mean weight; the error, ``alpha`` and the
        weight update stay on the original rows (see
        :mod:`costsense.boosting._resample`). Cloned, with its
        ``sampling_strategy`` and ``random_state`` set. None means
        {sampler}.
    oversampling : float, default=2.0
        Synthetic rows per round, as a multiple of the positive rows (paper 003:
        200 %); 0 adds none. Used only with a sampler.
    random_state : int, RandomState instance or None, default=None
        Seeds the weak learners' own ``random_state`` and the sampler's draws."""


def _parameters(estimator: str = _STUMP, sampler: str = "no sampling") -> str:
    """Return the shared parameter section, naming the class's defaults."""
    return _PARAMETERS_TEMPLATE.format(estimator=estimator, sampler=sampler)


_COMMON_PARAMETERS = _parameters()

_COMMON_ATTRIBUTES = """\
    classes_ : ndarray of shape (2,)
        Class labels.
    pos_label_ : label
        The positive class.
    cost_matrix_ : ndarray of shape (2, 2)
        Cost matrix in ``classes_`` order.
    costs_ : tuple of float
        ``(C1, C2)``: false-negative and false-positive costs (class means for
        example-dependent costs).
    estimators_ : list of estimators
        The weak learners, one per kept round.
    estimator_weights_ : ndarray of shape (n_rounds,)
        ``alpha`` of each kept round (learning rate included).
    estimator_errors_ : ndarray of shape (n_rounds,)
        ``e_m = sum_i D_mi [h_m(x_i) != y_i]``: the weighted training error of
        each kept round under the boosting weights ``D_m`` (summing to 1) of that
        round (paper 001, equation (1)); 0 for a perfect first round. AsymBoost
        fits its learner on ``D_m c`` but ``e_m`` is still under ``D_m``.
    estimator_edges_ : ndarray of shape (n_rounds,)
        ``gamma_m = 1/2 - e_m``: how much better than a coin each kept round's
        learner is on its weights (paper 001, Theorem 2).
    estimator_normalisers_ : ndarray of shape (n_rounds,)
        ``Z_m``: the sum of the rule's updated weights before normalisation,
        ``D_m`` summing to 1 before the update (paper 001, the normaliser of
        equation (3); for AdaBoost ``sum_i D_mi exp(-alpha_m y_i h_m(x_i))``, for
        any other rule the normaliser of its own update). A perfect first round
        records ``Z`` at its capped ``alpha``; a last round whose weights under-
        or overflowed records their sum (0, inf or nan). Their product bounds
        the training error for some rules only: see the Notes of
        :class:`AdaBoostClassifier`.
    train_cost_ : ndarray of shape (n_rounds,)
        Mean training cost per sample after each round (each sample's own cost
        of an error when costs are per sample).
    stop_reason_ : str
        Why boosting stopped ("completed all rounds", a perfect round, a round
        whose alpha was not positive, or weights that under- or overflowed).
    n_nonpositive_alpha_ : int
        Kept rounds whose ``alpha`` was not positive (``early_stopping=False``).
    n_synthetic_ : int
        Synthetic positive rows added in each round (0 without a sampler).
    constant_ : float
        ``+1`` or ``-1``: the class of least training cost, predicted when no
        round was kept (the first round's ``alpha`` was not positive).
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it kept no
        round, or predicts one class on its own training data) and why, as the
        :class:`~costsense.exceptions.DegenerateModelWarning` that ``fit``
        issued said it.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when X has string column names."""


_documented = documented(_COMMON_PARAMETERS, _COMMON_ATTRIBUTES)


@_documented
class AdaBoostClassifier(CostBoostingClassifier):
    """Discrete AdaBoost, the textbook algorithm (Freund & Schapire 1997).

    ``alpha = 1/2 ln((1 - err) / err)``, ``D <- D exp(-alpha y h) / Z``,
    ``H = sign(sum alpha h)``. It ignores the costs (they only define
    ``pos_label_`` and the reported ``train_cost_``); it is the reference every
    variant reduces to. scikit-learn's SAMME stores ``2 alpha``.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

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

    When they hold here. Theorem 1's equality holds at any ``learning_rate``
    (the shrunk ``alpha`` is used in the update and in the vote alike), with or
    without early stopping (the records end with ``estimators_``), and at a
    perfect first round (``Z_1 = exp(-alpha_1)`` at the capped ``alpha_1``);
    with ``sample_weight`` it reads ``sum_i D_1i [sign(f_m(x_i)) != y_i] <=
    sum_i D_1i exp(-y_i f_m(x_i)) = prod Z_k``, ``D_1`` the normalised weights.
    Theorem 2's equalities and Theorem 3 need the optimal ``alpha``, so
    ``learning_rate=1``: below it each ``Z_m`` exceeds ``2 sqrt(e_m (1 - e_m))``
    and the exponential bound may fail; at a perfect first round
    ``Z_1 > 0 = 2 sqrt(e_1 (1 - e_1))``. Theorem 3's second half also needs a
    learner that minimises the weighted error (a decision tree minimises an
    impurity instead, which usually but not always agrees).

    The other discrete rules record the normaliser of their own update; the
    theorems are AdaBoost's. A rule whose update is
    ``D exp(-alpha s_i y_i h(x_i))`` for a fixed ``s_i > 0`` and whose score is
    ``F = sum alpha h`` (AdaBoostC and AsyB: ``s = 1``; AdaC1: ``s`` the costs
    scaled to (0, 1]; AsymBoost: ``s = C_y``) keeps Theorem 1 as
    ``sum_i D_1i [sign(F(x_i)) != y_i] <= sum_i D_1i exp(-s_i y_i F(x_i)) =
    prod Z_m``: from cost-proportional ``D_1`` (AdaBoostC, AsyB as printed),
    the weighted exponential loss bounds the share of the total cost that the
    training errors cost. Theorem 2's equalities hold for AdaBoostC, which has
    AdaBoost's formulas. For AdaCost, AdaC2, AdaC3 and CSB0-2 the product of
    the ``Z_m`` bounds nothing stated here.

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

    def _rule(self) -> _rules.BoostRule:
        return _rules.BoostRule()


@_documented
class AdaBoostCClassifier(CostBoostingClassifier):
    """AdaBoost started from cost-proportional weights (Landesa-Vazquez 2012).

    The exact stagewise minimisation of ``sum c_i exp(-y_i F)``: costs enter only
    through ``D_1 ∝ c``.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaBoostC()


@_documented
class AdaCostClassifier(CostBoostingClassifier):
    """AdaCost (Fan et al. 1999): a cost-adjusted step inside the exponent.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    Notes
    -----
    See :class:`costsense.boosting._rules.AdaCost` for the formulas.
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaCost()


@_documented
class AdaC1Classifier(CostBoostingClassifier):
    """AdaC1 (Sun et al. 2007): the cost inside the exponent of the update.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC1()


@_documented
class AdaC2Classifier(CostBoostingClassifier):
    """AdaC2 (Sun et al. 2007): the cost outside the exponent of the update.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC2()


@_documented
class AdaC3Classifier(CostBoostingClassifier):
    """AdaC3 (Sun et al. 2007): the cost inside and outside the exponent.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AdaC3()


@_documented
class CSB0Classifier(CostBoostingClassifier):
    """CSB0 (Ting 2000): misclassified weights times their cost, no exponent.

    Predicts the class of minimum expected cost under the weighted votes.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB0()


@_documented
class CSB1Classifier(CostBoostingClassifier):
    """CSB1 (Ting 2000): ``D <- k D exp(-y h)``, a fixed unit step.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB1()


@_documented
class CSB2Classifier(CostBoostingClassifier):
    """CSB2 (Ting 2000): ``D <- k D exp(-alpha y h)`` with AdaBoost's alpha.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.CSB2()


@_documented
class AsymBoostClassifier(CostBoostingClassifier):
    """Asymmetric boosting of Masnadi-Shirazi & Vasconcelos (2007), "CS-AdaBoost".

    Not imbalanced-ensemble's ``AsymBoostClassifier`` (Viola & Jones 2001), which
    reweights by ``k^(1/T)`` each round. Here ``alpha`` is the exact minimiser of
    the round's cost-sensitive exponential loss ``sum D exp(-C_y alpha y h)``.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _rule(self) -> _rules.BoostRule:
        return _rules.AsymBoost()


@_documented
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
        _parameters(_NAIVE_BAYES, sampler) + _CATEGORICAL.format(categories=how),
        _COMMON_ATTRIBUTES,
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

    ``categorical_features`` reaches the sampler (SMOTE becomes SMOTE-NC) and a
    weak learner that takes it, so that the synthetic rows hold only observed
    categories and the counting naive Bayes counts them as such.
    """

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
        mask = categorical_feature_mask(self.categorical_features, self.n_features_in_)
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

    _default_estimator = GaussianNB
    _default_sampler = SMOTE


@_documented_resampling["rwo"]
class RWOBoostClassifier(_ResamplingBoostingClassifier):
    """RWOBoost (paper 003's rival): AdaBoost with random-walk rows every round.

    The AdaBoost rule with :class:`~costsense.sampling.RWOSampler` as the default
    ``sampler``; see :mod:`costsense.boosting._resample`.

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

    _default_estimator = GaussianNB
    _default_sampler = RWOSampler


@_documented_resampling["obpd"]
class OBPDBoostClassifier(_ResamplingBoostingClassifier):
    """OBPDBoost (paper 003): AdaBoost with Gaussian-mixture rows every round.

    SMOTEBoost with SMOTE replaced by OBPD-Sampling. The class rows never change
    between rounds, so the mixture is fitted once per boosting fit and each round
    draws fresh rows from it (``OBPDSampler.redraw``; see
    :mod:`costsense.boosting._resample`).

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

    _default_estimator = GaussianNB
    _default_sampler = OBPDSampler


_LOGIT_PARAMETERS = """\
    estimator : regressor with ``sample_weight``, default=None
        Fitted to the working response each round; None means
        ``DecisionTreeRegressor(max_depth=3)`` (CART, as in paper 000).
    n_estimators : int, default=50
        Number of rounds.
    learning_rate : float, default=0.1
        Shrinkage of each Newton step. Lower it when the regressors are deep or
        the rounds many: unshrunk Newton steps (1.0) of deep regressors overfit
        within a few rounds (the user guide in the README measures it).
    cost : None, float, pair of floats or array-like of shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`).
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    random_state : int, RandomState instance or None, default=None
        Seeds the regressors' own ``random_state``."""

_LOGIT_ATTRIBUTES = """\
    classes_ : ndarray of shape (2,)
        Class labels.
    pos_label_ : label
        The positive class.
    cost_matrix_ : ndarray of shape (2, 2)
        Cost matrix in ``classes_`` order.
    costs_ : tuple of float
        ``(C1, C2)``.
    link_ : tuple of float
        ``(g, eta)`` of the link ``p(F) = sigmoid(2 (g F + eta))``.
    z_max_ : float
        Clip of the working response.
    estimators_ : list of regressors
        One per round.
    train_cost_ : ndarray of shape (n_estimators,)
        Mean training cost per sample after each round (each sample's own cost
        of an error when costs are per sample).
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it predicts
        one class on its own training data) and why, as the
        :class:`~costsense.exceptions.DegenerateModelWarning` that ``fit``
        issued said it.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when X has string column names."""


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

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

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

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}
    """

    def _link(self, c1: float, c2: float) -> tuple[float, float]:
        return 0.5 * (c1 + c2), 0.5 * float(np.log(c2 / c1))


class CalibratedAdaBoostClassifier(StagedCostClassifier):
    """AdaBoost, Platt-calibrated, thresholded at the Bayes threshold.

    Nikolaou et al. (2016) found that plain AdaBoost with calibrated probabilities
    and the cost-sensitive threshold ``P(+|x) > C2 / (C1 + C2)`` matches or beats
    the cost-sensitive boosting variants. The calibration ``P(+|x) =
    sigmoid(a F(x) + b)`` (Platt 1999) is fitted on out-of-fold scores of ``cv``
    stratified folds (Nikolaou et al. held out part of the training set; folds
    use all of it), and the ensemble is refitted on all the data.

    Parameters
    ----------
    estimator : classifier with ``sample_weight``, default=None
        The weak learner; a decision stump if None.
    n_estimators : int, default=50
        Rounds of AdaBoost.
    learning_rate : float, default=1.0
        Shrinkage of AdaBoost's ``alpha``.
    cost : None, float, pair of floats or array-like of shape (2, 2), default=None
        What errors cost: used only by the threshold.
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    cv : int, cross-validation generator or iterable, default=3
        Folds for the out-of-fold scores of the calibration: a number of shuffled
        stratified folds, or any scikit-learn splitter or list of splits.
    random_state : int, RandomState instance or None, default=None
        Seeds the folds and the weak learners.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        Class labels.
    pos_label_ : label
        The positive class.
    cost_matrix_ : ndarray of shape (2, 2)
        Cost matrix in ``classes_`` order.
    costs_ : tuple of float
        ``(C1, C2)``.
    adaboost_ : AdaBoostClassifier
        The ensemble fitted on all the data.
    calibration_ : tuple of float
        ``(a, b)`` of ``P(+|x) = sigmoid(a F + b)``.
    train_cost_ : ndarray of shape (n_rounds,)
        Mean training cost per sample after each round, with the calibrated
        threshold (each sample's own cost when costs are per sample).
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it predicts
        one class on its own training data) and why, as the
        :class:`~costsense.exceptions.DegenerateModelWarning` that ``fit``
        issued said it.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when X has string column names.

    Notes
    -----
    The staged predictions apply the final calibration to each stage's score.
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "cost": "no_validation",
        "pos_label": "no_validation",
        "cv": ["cv_object"],
        "random_state": ["random_state"],
    }
    _degenerate_advice = (
        "its calibrated P(+|x) is on one side of the Bayes threshold "
        "C2 / (C1 + C2) for every row: try a stronger base learner (estimator="
        "DecisionTreeClassifier(max_depth=3)), more rounds (n_estimators), or a "
        "smaller cost"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        n_estimators: int = 50,
        learning_rate: float = 1.0,
        cost: Any = None,
        pos_label: Any = None,
        cv: int = 3,
        random_state: Any = None,
    ) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.cost = cost
        self.pos_label = pos_label
        self.cv = cv
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> CalibratedAdaBoostClassifier:
        """Fit AdaBoost, calibrate its score out of fold, refit on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            AdaBoost's initial weights.
        sample_cost : array-like, default=None
            Example-dependent costs; their class means set the threshold.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, signs, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        labels = np.where(signs > 0, 1, 0)
        booster = AdaBoostClassifier(
            self.estimator,
            n_estimators=self.n_estimators,
            learning_rate=self.learning_rate,
            cost=1.0,
            pos_label=1,
            random_state=self.random_state,
        )
        self.calibration_ = platt_scaling(
            booster,
            X,
            labels,
            pos_label=1,
            cv=self.cv,
            sample_weight=weight,
            random_state=self.random_state,
        )
        with inner_fits():  # this estimator warns about its own decisions
            self.adaboost_ = booster.fit(X, labels, sample_weight=weight)
        costs, score = [], np.zeros(X.shape[0])
        for score in self._staged_scores(X):  # noqa: B007 - the last one is used
            costs.append(cost_of_signs(signs, score, c))
        self.train_cost_ = np.array(costs)
        self._check_degenerate(
            self._to_labels(score),
            reason=f"AdaBoost: {self.adaboost_.stop_reason_}",
        )
        return self

    def _calibrated_score(self, F: FloatArray) -> FloatArray:
        """Return ``a F + b - ln(C2/C1)``, positive iff ``P(+|x) > C2/(C1 + C2)``."""
        a, b = self.calibration_
        c1, c2 = self.costs_
        return a * F + b - np.log(c2 / c1)

    def _score(self, X: FloatArray) -> FloatArray:
        return self._calibrated_score(self.adaboost_.decision_function(X))

    def _staged_scores(self, X: FloatArray) -> Any:
        for F in self.adaboost_.staged_decision_function(X):
            yield self._calibrated_score(F)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return the Platt-calibrated probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        X = self._validated(X)
        a, b = self.calibration_
        return self._proba(expit(a * self.adaboost_.decision_function(X) + b))
