"""The parameter and attribute sections every discrete booster's docstring shares.

Change them when a parameter or fitted attribute of
:class:`~costsense.boosting._engine.CostBoostingClassifier` changes.
"""

from __future__ import annotations

from costsense.utils._docstrings import documented, shared_attributes

__all__ = ["COMMON_ATTRIBUTES", "STUMP", "documented_booster", "parameters_section"]

STUMP = """\
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
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`): ``C1/C2`` (``C2 = 1``),
        ``(C1, C2)``, a cost matrix, None or "balanced" for balanced costs, or
        "unit" for every error costing 1. Example-dependent
        costs go to ``fit(..., sample_cost=...)``.
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    early_stopping : bool, default=True
        Stop at the first round whose ``alpha`` is not positive (the learner does
        not help); False keeps such rounds (see ``n_nonpositive_alpha_``).
    sampler : imbalanced-learn oversampler, default=None
        Adds fresh synthetic positive rows to every round's training set of the
        weak learner, at the positives' mean weight; the error, ``alpha`` and the
        weight update stay on the original rows
        (:mod:`costsense.boosting._resample`). None means {sampler}.
    oversampling : float, default=2.0
        Synthetic rows per round, as a multiple of the positive rows (paper 003:
        200 %); 0 adds none. Used only with a sampler.
    random_state : int, RandomState instance or None, default=None
        Seeds the weak learners' own ``random_state`` and the sampler's draws."""


def parameters_section(estimator: str = STUMP, sampler: str = "no sampling") -> str:
    """Return the shared parameter section, naming the class's defaults."""
    return _PARAMETERS_TEMPLATE.format(estimator=estimator, sampler=sampler)


COMMON_ATTRIBUTES = (
    shared_attributes("classes_", "pos_label_", "cost_matrix_")
    + """
    costs_ : tuple of float
        ``(C1, C2)``: false-negative and false-positive costs (class means for
        example-dependent costs).
    estimators_ : list of estimators
        The weak learners, one per kept round.
    estimator_weights_ : ndarray of shape (n_rounds,)
        ``alpha`` of each kept round (learning rate included).
    estimator_errors_ : ndarray of shape (n_rounds,)
        ``e_m = sum_i D_mi [h_m(x_i) != y_i]`` under the round's weights ``D_m``
        (summing to 1; paper 001, equation (1)), also for AsymBoost, which fits
        its learner on ``D_m c``.
    estimator_edges_ : ndarray of shape (n_rounds,)
        ``gamma_m = 1/2 - e_m`` (paper 001, Theorem 2).
    estimator_normalisers_ : ndarray of shape (n_rounds,)
        ``Z_m``: the sum of the rule's update of ``D_m`` (paper 001, the
        normaliser of equation (3)); 0, inf or nan for a last round whose
        weights under- or overflowed. What their product bounds, and for which
        rules: the Notes of :class:`AdaBoostClassifier`.
    train_cost_ : ndarray of shape (n_rounds,)
        Mean training cost per sample after each round.
    stop_reason_ : str
        Why boosting stopped.
    n_nonpositive_alpha_ : int
        Kept rounds whose ``alpha`` was not positive (``early_stopping=False``).
    n_synthetic_ : int
        Synthetic positive rows added in each round (0 without a sampler).
    constant_ : float
        ``+1`` or ``-1``: the class of least training cost, predicted when no
        round was kept.
"""
    + shared_attributes("degenerate_", "n_features_in_", "feature_names_in_")
)


documented_booster = documented(parameters_section(), COMMON_ATTRIBUTES)
