"""One forward-stagewise engine for every discrete cost-sensitive boosting variant.

The engine owns the loop; a rule (:mod:`costsense.boosting._rules`) owns the
formulas. Each round: fit the base learner with the rule's ``learner_weights``
(``D``; ``D c`` for AsymBoost), on the rows plus, with a ``sampler``, fresh
synthetic positive rows (:mod:`costsense.boosting._resample`); read its
predictions ``h`` on the training set, ask the rule for ``alpha``, scale it by the
learning rate, ask the rule for the new weights and normalise them. Rule and
sampler are independent: any rule runs with any oversampler.

Guards, each recorded in ``stop_reason_``:

- a perfect round (no weighted error): ``alpha`` is infinite. The learner is kept
  with the weight of a round at error ``1e-10`` (``1/2 ln((1 - e) / e)`` = 11.5)
  if it is the first, and boosting stops (nothing is left to correct);
- ``alpha`` not finite, or ``alpha <= 0`` with ``early_stopping=True``: the round is
  dropped and boosting stops (scikit-learn stops at error >= 1/2 the same way). If
  no round was kept, the model is the constant rule of least training cost
  (``constant_``), never a silent error: ``stop_reason_`` says so;
  with ``early_stopping=False`` rounds with ``alpha <= 0`` are kept and counted in
  ``n_nonpositive_alpha_`` (the printed AsyB needs this to be reproduced);
- weights that underflow or overflow (sum 0 or not finite): boosting stops.

Records, one entry per kept round (as long as ``estimators_``), each computed from
what the round has anyway: ``estimator_weights_`` (``alpha``, learning rate
included), ``estimator_errors_`` (``e_m = sum D [h != y]``), ``estimator_edges_``
(``gamma_m = 1/2 - e_m``) and ``estimator_normalisers_`` (``Z_m``: the sum of the
rule's update of ``D``, which sums to 1 before it; paper 001, equation (3)). A
perfect first round records ``Z`` at its capped ``alpha``; a round whose weights
under- or overflowed records the sum it found (0, inf or nan). What paper 001's
theorems say about these, and for which rules, is in
:class:`costsense.boosting.AdaBoostClassifier`'s Notes.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from functools import partial
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils.validation import has_fit_parameter

from costsense._base import _INNER_FIT, _caller_level, _plain_value, inner_fits
from costsense.boosting._resample import RoundSampler
from costsense.boosting._rules import BoostRule, Round
from costsense.boosting._shared import shared_fit_params
from costsense.boosting._staged import StagedCostClassifier, cost_of_signs
from costsense.exceptions import CostlierThanConstantWarning
from costsense.utils._compat import (
    HasMethods,
    Interval,
    _fit_context,
)
from costsense.utils._random import seeded_clone

FloatArray = NDArray[np.float64]

__all__ = ["CostBoostingClassifier"]

#: alpha of a perfect first round: 1/2 ln((1 - e) / e) at e = 1e-10.
_PERFECT_ALPHA = 0.5 * np.log((1 - 1e-10) / 1e-10)


def _normaliser(rule: BoostRule, r: Round, alpha: float, total: float) -> float:
    """Return ``Z``, the sum of the rule's updated weights (``r.D`` sums to 1).

    Paper 001's normaliser of equation (3), for any rule: the sum of what
    ``rule.update`` returned, times the factor it divided its weights by. It
    overflows to ``inf`` when that factor is out of the range of a float.
    """
    with np.errstate(over="ignore"):
        return float(total * np.exp(rule.log_update_factor(r, alpha)))


class CostBoostingClassifier(StagedCostClassifier):
    """Base of the discrete boosting estimators: ``_rule()`` gives the formulas.

    Subclasses set ``_rule`` (a callable returning a :class:`BoostRule`) and their
    docstring, and may name the weak learner and the per-round oversampler that
    ``estimator=None`` and ``sampler=None`` stand for (``_default_estimator``,
    ``_default_sampler``: called without arguments); see
    :class:`costsense.boosting.AdaBoostClassifier` for the parameters and
    attributes.
    """

    #: The weak learner ``estimator=None`` stands for.
    _default_estimator: ClassVar[type[Any] | partial[Any]] = partial(
        DecisionTreeClassifier, max_depth=1
    )
    #: The oversampler class ``sampler=None`` stands for (None: no sampling).
    _default_sampler: ClassVar[type | None] = None
    _degenerate_advice = (
        "try another base learner (a deeper tree, estimator="
        "DecisionTreeClassifier(max_depth=3), or naive Bayes), a smaller cost, "
        "or a rule whose cost enters only the starting weights or alpha "
        "(AdaBoostCClassifier, AsyBClassifier, or CalibratedAdaBoostClassifier)"
    )

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "cost": "no_validation",  # costsense.costs validates and names the problem
        "pos_label": "no_validation",
        "early_stopping": ["boolean"],
        "sampler": [HasMethods(["fit_resample"]), None],
        "oversampling": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
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
    ) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.cost = cost
        self.pos_label = pos_label
        self.early_stopping = early_stopping
        self.sampler = sampler
        self.oversampling = oversampling
        self.random_state = random_state

    def _rule(self) -> BoostRule:
        return BoostRule()

    def _base(self) -> Any:
        return self._default_estimator() if self.estimator is None else self.estimator

    def _sampler(self) -> Any:
        if self.sampler is not None or self._default_sampler is None:
            return self.sampler
        return self._default_sampler()

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> CostBoostingClassifier:
        """Boost the base learner.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies the initial weights.
        sample_cost : array-like of shape (n_samples,) or (n_samples, 2 or 4), \
default=None
            Example-dependent costs (:mod:`costsense.costs`); replace ``cost``.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y, c, weight = self._prepare(X, y, sample_weight, sample_cost)
        base = self._base()
        if not has_fit_parameter(base, "sample_weight"):
            raise TypeError(
                f"{type(self).__name__}: the base learner {type(base).__name__}.fit "
                "does not accept sample_weight, which boosting needs; use a base "
                "learner that accepts sample_weight."
            )
        rule = self._rule()
        round_sampler = RoundSampler.configure(
            self._sampler(), self.oversampling, y, type(self).__name__
        )
        self.n_synthetic_ = 0 if round_sampler is None else round_sampler.n_new
        # once per fit, what every round's learner can reuse (compiled-tree bins)
        shared = shared_fit_params(base, X) if round_sampler is None else {}
        rng = check_random_state(self.random_state)
        D = rule.init_weights(c)
        if weight is not None:
            D = D * weight
        D = D / D.sum()
        self.estimators_: list[Any] = []
        alphas: list[float] = []
        errors: list[float] = []
        normalisers: list[float] = []
        self.stop_reason_ = "completed all rounds"
        self.n_nonpositive_alpha_ = 0
        # the training score after each kept round, from the predictions the
        # rounds make anyway (no second pass over the learners for train_cost_)
        c1, c2 = self.costs_
        score = np.zeros(X.shape[0])
        train_cost: list[float] = []

        def keep(
            learner: Any, h: FloatArray, alpha: float, error: float, z: float
        ) -> None:
            nonlocal score
            self.estimators_.append(learner)
            alphas.append(alpha)
            errors.append(error)
            normalisers.append(z)
            score = score + rule.votes(h[None, :], np.array([alpha]), c1, c2)
            train_cost.append(cost_of_signs(y, score, c))

        for t in range(self.n_estimators):
            learner = seeded_clone(base, rng)
            weights = rule.learner_weights(D, c)
            with inner_fits():  # a round's learner may be constant: no warning
                if round_sampler is None:
                    learner.fit(X, y, sample_weight=weights, **shared)
                else:
                    round_sampler.fit(learner, X, y, weights, rng)
            h = np.where(learner.predict(X) > 0, 1.0, -1.0)
            r = Round(y=y, h=h, D=D, c=c)
            alpha = rule.alpha(r)
            perfect = r.error == 0
            if perfect:
                if t == 0:
                    alpha = _PERFECT_ALPHA * self.learning_rate
                    total = float(rule.update(r, alpha).sum())
                    keep(learner, h, alpha, 0.0, _normaliser(rule, r, alpha, total))
                self.stop_reason_ = f"round {t + 1}: perfect (no weighted error)"
                break
            if not np.isfinite(alpha) or (self.early_stopping and alpha <= 0):
                self.stop_reason_ = (
                    f"round {t + 1}: alpha = {alpha:.3g} (the learner does not help)"
                )
                break
            alpha *= self.learning_rate
            if alpha <= 0:
                self.n_nonpositive_alpha_ += 1
            new = rule.update(r, alpha)
            total = float(new.sum())
            keep(learner, h, alpha, r.error, _normaliser(rule, r, alpha, total))
            if not np.isfinite(total) or total <= 0:
                self.stop_reason_ = f"round {t + 1}: weights under- or overflowed"
                break
            D = new / total
        self.estimator_weights_ = np.asarray(alphas, dtype=np.float64)
        self.estimator_errors_ = np.asarray(errors, dtype=np.float64)
        self.estimator_edges_ = 0.5 - self.estimator_errors_
        self.estimator_normalisers_ = np.asarray(normalisers, dtype=np.float64)
        # With no useful round, the model is the constant rule of least cost.
        weighted = c if weight is None else c * weight
        self.constant_ = 1.0 if weighted[y > 0].sum() > weighted[y < 0].sum() else -1.0
        if not self.estimators_:
            score = np.full(y.shape[0], self.constant_)
            train_cost.append(cost_of_signs(y, score, c))
        self.train_cost_ = np.array(train_cost)
        # the training score the rounds built: predictions without a second pass
        advice = None
        if "alpha" in self.stop_reason_ and self.early_stopping:
            advice = (
                "try early_stopping=False to keep rounds whose alpha is not "
                f"positive, or {self._degenerate_advice.removeprefix('try ')}"
            )
        self._check_degenerate(
            self._to_labels(score), n_kept=len(self.estimators_), advice=advice
        )
        if self.degenerate_ is None:
            self._check_costlier_than_constant(y, c)
        return self

    def _check_costlier_than_constant(self, y: FloatArray, c: FloatArray) -> None:
        """Warn when the fit costs more on its training rows than one class would.

        Compares ``train_cost_[-1]`` with the mean cost of the cheaper constant
        prediction on the same rows and costs (``cost_of_signs``).
        """
        positive, negative = (
            cost_of_signs(y, np.full(y.shape[0], sign), c) for sign in (1.0, -1.0)
        )
        constant = min(positive, negative)
        fitted = float(self.train_cost_[-1])
        if fitted <= constant * (1 + 1e-12) or _INNER_FIT.get():
            return
        others = self.classes_[self.classes_ != self.pos_label_]
        label = _plain_value(self.pos_label_ if positive <= negative else others[0])
        warnings.warn(
            f"{type(self).__name__} costs more on its own training rows than "
            f"predicting {label!r} for every row ({fitted:.4g} against "
            f"{constant:.4g} per row). Its rounds moved the weights onto the "
            "costliest rows; try AdaBoostCClassifier, AsyBClassifier or "
            "CalibratedAdaBoostClassifier, whose costs enter only the starting "
            "weights or alpha, or a shallower base learner.",
            CostlierThanConstantWarning,
            stacklevel=_caller_level(),
        )

    # ------------------------------------------------------------ prediction
    def _staged_scores(self, X: FloatArray) -> Iterator[FloatArray]:
        """Yield the internal score (positive class > 0) after each round."""
        if not self.estimators_:
            yield np.full(X.shape[0], self.constant_)
            return
        c1, c2 = self.costs_
        rule = self._rule()
        score = np.zeros(X.shape[0])
        for learner, alpha in zip(
            self.estimators_, self.estimator_weights_, strict=True
        ):
            h = np.where(learner.predict(X) > 0, 1.0, -1.0)
            # votes are additive over rounds: one pass, O(rounds x samples)
            score = score + rule.votes(h[None, :], np.array([alpha]), c1, c2)
            yield score

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Probabilities from the exponential loss's link.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            ``P(+|x) = 1 / (1 + exp(-2 F(x)))``, the population minimiser of the
            exponential loss (Friedman, Hastie & Tibshirani 2000). For the
            cost-weighted losses (AsyB, AdaBoostC) ``F`` estimates
            ``1/2 ln(C1 P(+|x) / (C2 P(-|x)))`` instead, and
            ``P(+|x) = 1 / (1 + (C1/C2) exp(-2 F))``; for AsymBoost's loss
            ``P(+|x) = 1 / (1 + (C1/C2) exp(-(C1 + C2) F))``; the heuristics
            without a loss (AdaCost, AdaC1-3) are read with AdaBoostC's link, and
            Ting's rules (CSB0-2) give the positive share of the weighted vote
            (each rule's ``probability``). Every link puts ``C2 / (C1 + C2)``
            where the prediction changes, so :meth:`predict` is the Bayes
            decision on these probabilities. These are rough estimates:
            boosting's scores are known to be poorly calibrated, so use
            :class:`CalibratedAdaBoostClassifier` for calibrated probabilities.
        """
        X = self._validated(X)
        c1, c2 = self.costs_
        alpha_sum = float(np.sum(self.estimator_weights_))
        return self._proba(self._rule().probability(self._score(X), c1, c2, alpha_sum))
