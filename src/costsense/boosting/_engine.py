"""One forward-stagewise engine for every cost-sensitive boosting variant.

The engine owns the loop (:class:`StagewiseBoosting`); what a round fits and what
its learner's prediction changes are two hooks of a per-fit :class:`Rounds`
object. Each round: clone the base learner (seeded from ``random_state``), ask
``rounds.task(score)`` for the target and ``sample_weight`` it is fitted with
(on the rows plus, with a ``sampler``, fresh synthetic positive rows:
:mod:`costsense.boosting._resample`), fit it, and hand its prediction of the
training rows to ``rounds.step``, which says what the round adds to the score
(or that it is dropped) and whether boosting stops. The engine keeps the
learner, adds its vote to the training score and records the training cost
after the round (``train_cost_``); the staged predictions replay the same votes
(``_vote``).

Two kinds of rounds run on it:

- :class:`RuleRounds` (:class:`CostBoostingClassifier`, every discrete variant):
  a rule (:mod:`costsense.boosting._rules`) owns the formulas. The learner fits
  ``y`` with the rule's ``learner_weights`` (``D``; ``D c`` for AsymBoost); the
  step signs its prediction ``h``, asks the rule for ``alpha``, scales it by the
  learning rate, asks the rule for the new weights and normalises them. Rule and
  sampler are independent: any rule runs with any oversampler.
- the Newton rounds of LogitBoost (:mod:`costsense.boosting._logit`, AsyBL and
  Asymmetric LogitBoost): a regressor fits the working response of the current
  score and its prediction is the step.

Guards of the rule rounds, each recorded in ``stop_reason_``:

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

Records of the rule rounds, one entry per kept round (as long as
``estimators_``), each computed from what the round has anyway:
``estimator_weights_`` (``alpha``, learning rate included), ``estimator_errors_``
(``e_m = sum D [h != y]``), ``estimator_edges_`` (``gamma_m = 1/2 - e_m``) and
``estimator_normalisers_`` (``Z_m``: the sum of the rule's update of ``D``, which
sums to 1 before it; paper 001, equation (3)). A perfect first round records
``Z`` at its capped ``alpha``; a round whose weights under- or overflowed records
the sum it found (0, inf or nan). What paper 001's theorems say about these, and
for which rules, is in :class:`costsense.boosting.AdaBoostClassifier`'s Notes.

Change this module to change what every booster does in a round (cloning,
seeding, the state shared across fits, the records); a new variant is a rule, or a
new :class:`Rounds`, never a copy of the loop. EFSBoost keeps a loop of its own
(:mod:`costsense.boosting._efs` says why) and shares :func:`normalised` and
:data:`PERFECT_ALPHA`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from numbers import Integral, Real
from typing import Any, ClassVar, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils.validation import has_fit_parameter

from costsense._base import _INNER_FIT, _plain_value, inner_fits
from costsense.boosting._resample import RoundSampler
from costsense.boosting._rules import BoostRule, Round
from costsense.boosting._shared import hand_over, shared_fit_state
from costsense.boosting._staged import StagedCostClassifier, cost_of_signs
from costsense.exceptions import CostlierThanConstantWarning
from costsense.utils._compat import (
    HasMethods,
    Interval,
    _fit_context,
)
from costsense.utils._random import seeded_clone
from costsense.utils._stack import caller_level

FloatArray = NDArray[np.float64]

__all__ = [
    "PERFECT_ALPHA",
    "CostBoostingClassifier",
    "Rounds",
    "RuleRounds",
    "StagewiseBoosting",
    "Step",
    "normalised",
]

#: alpha of a perfect first round: 1/2 ln((1 - e) / e) at e = 1e-10.
PERFECT_ALPHA = 0.5 * np.log((1 - 1e-10) / 1e-10)


def normalised(weights: FloatArray) -> FloatArray:
    """Return ``weights / sum(weights)``: a distribution over the rows."""
    return weights / weights.sum()


@dataclass(frozen=True)
class Step:
    """What one round adds to the model.

    Attributes
    ----------
    vote : ndarray of shape (n_samples,) or None
        The round's addition to the training score; None drops the round (its
        learner is not kept).
    stop : str or None
        Why boosting stops after this round; None to go on.
    """

    vote: FloatArray | None
    stop: str | None = None


class Rounds(Protocol):
    """The two hooks of one fit: what a round's learner fits, what it changes."""

    def task(self, score: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Return the target and ``sample_weight`` of this round's learner.

        ``score`` is the training score of the rounds kept so far.
        """
        ...

    def step(self, t: int, prediction: FloatArray) -> Step:
        """Read round ``t``'s prediction of the training rows; say what it adds."""
        ...


class StagewiseBoosting(StagedCostClassifier):
    """The boosting loop, shared by every booster with a base learner.

    Subclasses store their parameters (``estimator``, ``n_estimators``,
    ``learning_rate``, ``cost``, ``pos_label``, ``random_state`` and their own),
    build a :class:`Rounds` in ``fit`` and call :meth:`_boost`, and say how a
    kept learner votes on new rows (:meth:`_vote`).
    """

    #: The weak learner ``estimator=None`` stands for.
    _default_estimator: ClassVar[type[Any] | partial[Any]] = partial(
        DecisionTreeClassifier, max_depth=1
    )
    #: The refusal of a base learner without ``sample_weight`` (``name``: its type).
    _needs_sample_weight = (
        "base learner {name}.fit does not accept sample_weight, which boosting "
        "needs; use a base learner that accepts sample_weight."
    )

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "cost": "no_validation",  # costsense.costs validates and names the problem
        "pos_label": "no_validation",
        "random_state": ["random_state"],
    }

    estimator: Any
    n_estimators: int
    random_state: Any

    def _base(self) -> Any:
        return self._default_estimator() if self.estimator is None else self.estimator

    def _checked_base(self) -> Any:
        """Return the base learner; refuse one whose ``fit`` takes no weights."""
        base = self._base()
        if not has_fit_parameter(base, "sample_weight"):
            raise TypeError(
                f"{type(self).__name__}: the "
                + self._needs_sample_weight.format(name=type(base).__name__)
            )
        return base

    def _boost(
        self,
        X: FloatArray,
        y: FloatArray,
        c: FloatArray,
        base: Any,
        rounds: Rounds,
        shared: dict[str, Any],
        sampler: RoundSampler | None = None,
    ) -> tuple[FloatArray, list[float], str | None]:
        """Run the rounds; set ``estimators_``.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Training rows.
        y : ndarray of shape (n_samples,)
            Labels in ``{-1, +1}``.
        c : ndarray of shape (n_samples,)
            Each row's cost of an error (for the training cost).
        base : estimator
            The base learner; each round fits a seeded clone.
        rounds : Rounds
            This fit's hooks.
        shared : dict
            Private attributes every round's learner is handed before its fit
            (:func:`~costsense.boosting._shared.shared_fit_state`).
        sampler : RoundSampler or None, default=None
            Adds synthetic rows to each round's training set.

        Returns
        -------
        score : ndarray of shape (n_samples,)
            The training score after the last kept round.
        train_cost : list of float
            The mean training cost after each kept round.
        stop : str or None
            Why boosting stopped early; None if every round ran.
        """
        rng = check_random_state(self.random_state)
        self.estimators_: list[Any] = []
        score = np.zeros(X.shape[0])
        train_cost: list[float] = []
        for t in range(self.n_estimators):
            learner = seeded_clone(base, rng)
            target, weights = rounds.task(score)
            with inner_fits():  # a round's learner may be constant: no warning
                if sampler is None:
                    hand_over(learner, shared).fit(X, target, sample_weight=weights)
                else:
                    sampler.fit(learner, X, target, weights, rng)
            step = rounds.step(t, learner.predict(X))
            if step.vote is not None:
                self.estimators_.append(learner)
                score = score + step.vote
                train_cost.append(cost_of_signs(y, score, c))
            if step.stop is not None:
                return score, train_cost, step.stop
        return score, train_cost, None

    def _vote(self, t: int, prediction: FloatArray) -> FloatArray:
        """Return what kept round ``t`` adds to the score, from its prediction."""
        raise AttributeError(f"{type(self).__name__} defines no vote")

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: rounds kept and asked for."""
        return {
            "rounds": len(self.estimators_),
            "rounds_planned": int(self.n_estimators),
        }

    def _staged_scores(self, X: FloatArray) -> Iterator[FloatArray]:
        """Yield the internal score (positive class > 0) after each round."""
        if not self.estimators_:
            yield np.full(X.shape[0], self.constant_)
            return
        score = np.zeros(X.shape[0])
        for t, learner in enumerate(self.estimators_):
            # votes are additive over rounds: one pass, O(rounds x samples)
            score = score + self._vote(t, learner.predict(X))
            yield score


def _normaliser(rule: BoostRule, r: Round, alpha: float, total: float) -> float:
    """Return ``Z``, the sum of the rule's updated weights (``r.D`` sums to 1).

    Paper 001's normaliser of equation (3), for any rule: the sum of what
    ``rule.update`` returned, times the factor it divided its weights by. It
    overflows to ``inf`` when that factor is out of the range of a float.
    """
    with np.errstate(over="ignore"):
        return float(total * np.exp(rule.log_update_factor(r, alpha)))


def _signs(prediction: FloatArray) -> FloatArray:
    """Return a weak classifier's prediction as ``h`` in ``{-1, +1}``."""
    return np.where(prediction > 0, 1.0, -1.0)


@dataclass
class RuleRounds:
    """The rounds of a discrete booster: a rule's formulas on weights ``D``.

    Attributes
    ----------
    rule : BoostRule
        The variant's formulas.
    y, c : ndarray of shape (n_samples,)
        Labels in ``{-1, +1}`` and each row's cost of an error.
    D : ndarray of shape (n_samples,)
        The current weights, summing to 1.
    costs : tuple of float
        ``(C1, C2)`` for the rule's votes.
    learning_rate : float
        Scales every ``alpha``.
    early_stopping : bool
        Whether a round with ``alpha <= 0`` stops boosting.
    alphas, errors, normalisers : list of float
        The kept rounds' records.
    n_nonpositive_alpha : int
        Kept rounds with ``alpha <= 0``.
    """

    rule: BoostRule
    y: FloatArray
    c: FloatArray
    D: FloatArray
    costs: tuple[float, float]
    learning_rate: float
    early_stopping: bool
    alphas: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)
    normalisers: list[float] = field(default_factory=list)
    n_nonpositive_alpha: int = 0

    def task(self, score: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Return ``y`` and the rule's learner weights."""
        return self.y, self.rule.learner_weights(self.D, self.c)

    def _keep(self, h: FloatArray, alpha: float, error: float, z: float) -> FloatArray:
        self.alphas.append(alpha)
        self.errors.append(error)
        self.normalisers.append(z)
        return self.rule.votes(h[None, :], np.array([alpha]), *self.costs)

    def step(self, t: int, prediction: FloatArray) -> Step:
        """Apply the rule: ``alpha``, the guards, the update of ``D``."""
        rule = self.rule
        h = _signs(prediction)
        r = Round(y=self.y, h=h, D=self.D, c=self.c)
        alpha = rule.alpha(r)
        if r.error == 0:
            vote = None
            if t == 0:
                alpha = PERFECT_ALPHA * self.learning_rate
                total = float(rule.update(r, alpha).sum())
                vote = self._keep(h, alpha, 0.0, _normaliser(rule, r, alpha, total))
            return Step(vote, f"round {t + 1}: perfect (no weighted error)")
        if not np.isfinite(alpha) or (self.early_stopping and alpha <= 0):
            return Step(
                None, f"round {t + 1}: alpha = {alpha:.3g} (the learner does not help)"
            )
        alpha *= self.learning_rate
        if alpha <= 0:
            self.n_nonpositive_alpha += 1
        new = rule.update(r, alpha)
        total = float(new.sum())
        vote = self._keep(h, alpha, r.error, _normaliser(rule, r, alpha, total))
        if not np.isfinite(total) or total <= 0:
            return Step(vote, f"round {t + 1}: weights under- or overflowed")
        self.D = new / total
        return Step(vote)


class CostBoostingClassifier(StagewiseBoosting):
    """Base of the discrete boosting estimators: ``_rule()`` gives the formulas.

    Subclasses set ``_rule`` (a callable returning a :class:`BoostRule`) and their
    docstring, and may name the weak learner and the per-round oversampler that
    ``estimator=None`` and ``sampler=None`` stand for (``_default_estimator``,
    ``_default_sampler``: called without arguments); see
    :class:`costsense.boosting.AdaBoostClassifier` for the parameters and
    attributes.
    """

    #: The oversampler class ``sampler=None`` stands for (None: no sampling).
    _default_sampler: ClassVar[type | None] = None
    _degenerate_advice = (
        "try another base learner (a deeper tree, estimator="
        "DecisionTreeClassifier(max_depth=3), or naive Bayes), a smaller cost, "
        "or a rule whose cost enters only the starting weights or alpha "
        "(AdaBoostCClassifier, AsyBClassifier, or CalibratedAdaBoostClassifier)"
    )

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **StagewiseBoosting._parameter_constraints,
        "early_stopping": ["boolean"],
        "sampler": [HasMethods(["fit_resample"]), None],
        "oversampling": [Interval(Real, 0, None, closed="left")],
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

    def _sampler(self) -> Any:
        if self.sampler is not None or self._default_sampler is None:
            return self.sampler
        return self._default_sampler()

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did: why it stopped, rounds, rounds of ``alpha <= 0``."""
        return {
            "stop_reason": str(self.stop_reason_),
            **super().fit_summary(),
            "nonpositive_alpha": int(self.n_nonpositive_alpha_),
        }

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
        base = self._checked_base()
        rule = self._rule()
        round_sampler = RoundSampler.configure(
            self._sampler(), self.oversampling, y, type(self).__name__
        )
        self.n_synthetic_ = 0 if round_sampler is None else round_sampler.n_new
        # once per fit, what every round's learner can reuse (compiled-tree bins)
        shared = shared_fit_state(base, X) if round_sampler is None else {}
        D = rule.init_weights(c)
        if weight is not None:
            D = D * weight
        rounds = RuleRounds(
            rule,
            y,
            c,
            normalised(D),
            self.costs_,
            self.learning_rate,
            self.early_stopping,
        )
        # the training score after each kept round, from the predictions the
        # rounds make anyway (no second pass over the learners for train_cost_)
        score, train_cost, stop = self._boost(
            X, y, c, base, rounds, shared, round_sampler
        )
        self.stop_reason_ = "completed all rounds" if stop is None else stop
        self.n_nonpositive_alpha_ = rounds.n_nonpositive_alpha
        self.estimator_weights_ = np.asarray(rounds.alphas, dtype=np.float64)
        self.estimator_errors_ = np.asarray(rounds.errors, dtype=np.float64)
        self.estimator_edges_ = 0.5 - self.estimator_errors_
        self.estimator_normalisers_ = np.asarray(rounds.normalisers, dtype=np.float64)
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
            stacklevel=caller_level(),
        )

    # ------------------------------------------------------------ prediction
    def _vote(self, t: int, prediction: FloatArray) -> FloatArray:
        """Return the rule's vote of kept round ``t`` (``alpha_t h_t`` for most)."""
        c1, c2 = self.costs_
        alpha = self.estimator_weights_[t]
        return self._rule().votes(
            _signs(prediction)[None, :], np.array([alpha]), c1, c2
        )

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
