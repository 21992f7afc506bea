"""One forward-stagewise engine for every cost-sensitive boosting variant.

:class:`StagewiseBoosting` owns the loop; a per-fit :class:`Rounds` object has two
hooks: ``task(score)`` gives the target and ``sample_weight`` of a round's learner
(a seeded clone of the base learner, fitted on the rows plus, with a ``sampler``,
synthetic positive rows: :mod:`costsense.boosting._resample`), and
``step(t, prediction)`` says what the round adds to the score and whether boosting
stops. :class:`RuleRounds` runs a rule of :mod:`costsense.boosting._rules` (every
discrete variant); the Newton rounds of :mod:`costsense.boosting._logit` run
AsyBL and Asymmetric LogitBoost.

Guards of the rule rounds, recorded in ``stop_reason_``: a perfect round is kept
(if first) at the ``alpha`` of error ``1e-10`` and stops; a non-finite ``alpha``,
or ``alpha <= 0`` with ``early_stopping=True``, drops the round and stops (as
scikit-learn at error >= 1/2; with no round kept the model is the constant rule
of least training cost, ``constant_``); weights that under- or overflow stop.
The records (``estimator_weights_``, ``_errors_``, ``_edges_``,
``_normalisers_``: paper 001, equations (1)-(3)) are described in
:class:`costsense.boosting.AdaBoostClassifier`.
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

from costsense._base import (
    _INNER_FIT,
    BinaryCostClassifier,
    _plain_value,
    inner_fits,
    members_summary,
)
from costsense.boosting._resample import RoundSampler
from costsense.boosting._rules import BoostRule, Round
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
    "StagedCostClassifier",
    "StagewiseBoosting",
    "Step",
    "cost_of_signs",
    "normalised",
    "shared_fit_state",
]

#: alpha of a perfect first round: 1/2 ln((1 - e) / e) at e = 1e-10.
PERFECT_ALPHA = 0.5 * np.log((1 - 1e-10) / 1e-10)


def normalised(weights: FloatArray) -> FloatArray:
    """Return ``weights / sum(weights)``: a distribution over the rows."""
    return weights / weights.sum()


def cost_of_signs(y: FloatArray, score: FloatArray, c: FloatArray) -> float:
    """Mean cost per sample of predicting ``sign(score)`` (0 counts as negative)."""
    wrong = np.where(score > 0, 1.0, -1.0) != y
    return float(np.sum(c[wrong]) / y.shape[0])


def shared_fit_state(base: Any, X: NDArray[Any]) -> dict[str, Any]:
    """Return what ``base._prepare_fit(X)`` shares with every round's fit on ``X``.

    A base learner may offer ``_prepare_fit(X) -> dict`` of private attributes
    (names starting with ``_``) that hold for every fit on these rows: the
    compiled tree of :mod:`costsense.tree` returns its feature bins, so they are
    made once per boosting fit. Each round's clone is handed them before its
    ``fit``, which takes (and removes) them. Empty without the method.
    """
    prepare = getattr(base, "_prepare_fit", None)
    if not callable(prepare):
        return {}
    shared = prepare(X)
    if not isinstance(shared, dict) or not all(
        isinstance(name, str) and name.startswith("_") for name in shared
    ):
        raise TypeError(
            f"{type(base).__name__}._prepare_fit must return a dict of private "
            f"attribute names (starting with '_') to values, got {shared!r:.80}."
        )
    return shared


class StagedCostClassifier(BinaryCostClassifier):
    """A binary cost classifier whose score is built in stages (``_staged_scores``)."""

    def _staged_scores(self, X: FloatArray) -> Iterator[FloatArray]:
        """Yield the score (positive for the positive class) after each stage."""
        raise AttributeError(f"{type(self).__name__} defines no staged score")

    def _score(self, X: FloatArray) -> FloatArray:
        score = np.zeros(X.shape[0])
        for score in self._staged_scores(X):  # noqa: B007 - the last stage is it
            pass
        return score

    def staged_decision_function(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield the decision function after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        X = self._validated(X)
        for score in self._staged_scores(X):
            yield self._oriented(score)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray[Any]]:
        """Yield the predictions after each round (cost-vs-iteration curves).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        X = self._validated(X)
        for score in self._staged_scores(X):
            yield self._to_labels(score)


@dataclass(frozen=True)
class Step:
    """What one round adds to the training score (None: dropped), why it stops."""

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
    """The boosting loop: subclasses call :meth:`_boost` and define :meth:`_vote`."""

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
        """Run the rounds, set ``estimators_``; return the training score, cost.

        Each round fits a seeded clone of ``base`` handed ``shared``
        (:func:`shared_fit_state`), or through ``sampler``. Returns the score
        after the last kept round, the mean training cost (``c`` per error) after
        each kept round, and why boosting stopped early (None if every round ran).
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
                    for name, value in shared.items():
                        setattr(learner, name, value)
                    learner.fit(X, target, sample_weight=weights)
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

    fit_summary = members_summary

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
    """Return ``Z`` (paper 001, equation (3)): ``total`` times the rule's factor."""
    with np.errstate(over="ignore"):
        return float(total * np.exp(rule.log_update_factor(r, alpha)))


def _signs(prediction: FloatArray) -> FloatArray:
    """Return a weak classifier's prediction as ``h`` in ``{-1, +1}``."""
    return np.where(prediction > 0, 1.0, -1.0)


@dataclass
class RuleRounds:
    """The rounds of a discrete booster: a rule's formulas on weights ``D``.

    ``y`` in ``{-1, +1}``, ``c`` each row's cost of an error, ``D`` the current
    weights (summing to 1), ``costs`` the ``(C1, C2)`` of the rule's votes; the
    lists record the kept rounds.
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
    """Base of the discrete boosters: ``_rule()`` gives the formulas.

    ``_default_estimator`` and ``_default_sampler`` (called without arguments)
    are what ``estimator=None`` and ``sampler=None`` stand for.
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
        sample_cost : array-like or ExampleCosts, default=None
            Per-row costs in any layout of :mod:`costsense.costs`; replace
            ``cost``. The cost-sensitive rules use them per row (each row's
            reduction ``c`` in the weights, alpha and updates; Ting's vote and
            ``predict_proba``'s link read their class means ``costs_``).
            AdaBoostClassifier and the oversampling boosters refuse them
            (TypeError): their rounds use no costs.

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
        """Warn when the fit costs more on its training rows than one class would."""
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
        """Return the probabilities of the rule's link (its ``probability``).

        Every link puts ``C2 / (C1 + C2)`` where the prediction changes, so
        :meth:`predict` is the Bayes decision on them. Boosting's scores are
        poorly calibrated: :class:`CalibratedAdaBoostClassifier` calibrates them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        X = self._validated(X)
        c1, c2 = self.costs_
        alpha_sum = float(np.sum(self.estimator_weights_))
        return self._proba(self._rule().probability(self._score(X), c1, c2, alpha_sum))
