"""The shared base: one fit start-up, one Platt scaling, one meaning of train_cost_."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.validation import has_fit_parameter

from costsense._base import DEGENERACY_PROBE, platt_scaling, training_decisions
from costsense.boosting import (
    AdaBoostClassifier,
    AsyBLClassifier,
    CalibratedAdaBoostClassifier,
)
from costsense.costs import example_costs
from costsense.margin import CSLDMClassifier, CSSVMClassifier, LDMClassifier
from costsense.tree import CostSensitiveTreeClassifier
from tests._registry import classifiers, fast_instance


def _data(n: int = 160, seed: int = 0):
    X, y = make_classification(
        n_samples=n,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        weights=[0.7],
        flip_y=0.1,
        random_state=seed,
    )
    return X, y


def _by_hand(estimator, X, y, splits, weight=None):
    """Out-of-fold decision values and the logistic fit, written out."""
    scores = np.full(len(y), np.nan)
    for train, test in splits:
        kwargs = {} if weight is None else {"sample_weight": weight[train]}
        model = estimator.fit(X[train], y[train], **kwargs)
        scores[test] = model.decision_function(X[test])
    seen = ~np.isnan(scores)
    platt = LogisticRegression(C=1e6).fit(
        scores[seen, None],
        y[seen],
        sample_weight=None if weight is None else weight[seen],
    )
    return platt.coef_[0, 0], platt.intercept_[0]


def test_platt_scaling_is_logistic_regression_on_out_of_fold_scores():
    X, y = _data()
    splits = list(KFold(4).split(X))
    a, b = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits)
    assert (a, b) == pytest.approx(_by_hand(LinearSVC(), X, y, splits), rel=1e-9)
    assert a > 0  # a larger score means a likelier positive


def test_platt_scaling_honours_weights_and_leaves_untested_rows_out():
    X, y = _data(seed=1)
    w = np.random.default_rng(1).uniform(0.2, 3.0, size=len(y))
    splits = list(KFold(4).split(X))[:3]  # the last quarter is never tested
    got = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits, sample_weight=w)
    assert got == pytest.approx(_by_hand(LinearSVC(), X, y, splits, w), rel=1e-9)
    unweighted = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits)
    assert got != pytest.approx(unweighted, rel=1e-6)


def test_platt_scaling_of_the_first_label_flips_the_score():
    X, y = _data(seed=2)
    splits = list(KFold(3).split(X))
    a1, b1 = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits)
    a0, b0 = platt_scaling(LinearSVC(), X, y, pos_label=0, cv=splits)
    assert (a0, b0) == pytest.approx((a1, -b1), rel=1e-6)


def test_platt_scaling_seeds_its_folds_from_random_state():
    X, y = _data(seed=3)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=11).split(X, y))
    # a splitter is used as is; a number of folds is shuffled by random_state
    same = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=folds)
    assert same == pytest.approx(_by_hand(LinearSVC(), X, y, folds), rel=1e-9)
    first = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=5, random_state=0)
    again = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=5, random_state=0)
    other = platt_scaling(LinearSVC(), X, y, pos_label=1, cv=5, random_state=1)
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    "model",
    [
        CSSVMClassifier(cost=3.0, probability=True, random_state=0),
        LDMClassifier(probability=True, random_state=0),
        CSLDMClassifier(cost=3.0, probability=True, random_state=0),
    ],
    ids=lambda m: type(m).__name__,
)
def test_margin_learners_calibrate_with_their_cv_weights_and_seed(model):
    X, y = _data(seed=4)
    w = np.random.default_rng(4).integers(1, 4, size=len(y)).astype(float)
    splits = list(KFold(4).split(X))
    fitted = model.set_params(cv=splits).fit(X, y, sample_weight=w)
    # the same learner, on the same folds, by hand: the costs of the positives
    # (class 1, the minority) weigh their hinge losses, the weights everything
    member = type(model)(**{**model.get_params(), "probability": False, "cv": 5})
    c = np.where(y == 1, fitted.costs_[0], fitted.costs_[1])
    scores = np.full(len(y), np.nan)
    for train, test in splits:
        kwargs = {"sample_weight": w[train]}
        if has_fit_parameter(member, "sample_cost"):
            kwargs["sample_cost"] = c[train]
        scores[test] = member.fit(X[train], y[train], **kwargs).decision_function(
            X[test]
        )
    platt = LogisticRegression(C=1e6).fit(scores[:, None], y, sample_weight=w)
    assert fitted.platt_ == pytest.approx(
        (platt.coef_[0, 0], platt.intercept_[0]), rel=1e-6
    )
    reseeded = type(model)(**{**model.get_params(), "cv": 5, "random_state": 1})
    again = type(model)(**{**model.get_params(), "cv": 5, "random_state": 1})
    assert reseeded.fit(X, y).platt_ == again.fit(X, y).platt_


# --------------------------------------------------------- train_cost_ per sample
@pytest.mark.parametrize(
    "model",
    [
        AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=8),
        AsyBLClassifier(DecisionTreeRegressor(max_depth=2), n_estimators=8),
        CalibratedAdaBoostClassifier(n_estimators=8),
    ],
    ids=lambda m: type(m).__name__,
)
def test_train_cost_uses_each_samples_own_cost(model):
    X, y = _data(seed=5)
    cost = np.random.default_rng(5).uniform(0.5, 9.0, size=len(y))
    fitted = model.set_params(random_state=0).fit(X, y, sample_cost=cost)
    for stage, prediction in enumerate(fitted.staged_predict(X)):
        by_hand = np.sum(cost[prediction != y]) / len(y)
        assert fitted.train_cost_[stage] == pytest.approx(by_hand, rel=1e-12)
    # the class means alone would give another figure
    means = np.where(y == fitted.pos_label_, *fitted.costs_)
    last = fitted.predict(X) != y
    assert fitted.train_cost_[-1] != pytest.approx(np.sum(means[last]) / len(y))


# ------------------------------------------------------------ one fit start-up
@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_every_classifier_refuses_bad_weights_by_name(cls):
    X, y = _data(n=60, seed=6)
    negative = np.ones(len(y))
    negative[3] = -1.0
    with pytest.raises(ValueError, match="sample_weight"):
        fast_instance(cls).fit(X, y, sample_weight=negative)
    with pytest.raises(ValueError, match="[Ss]ample weights must contain"):
        fast_instance(cls).fit(X, y, sample_weight=np.zeros(len(y)))


@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_every_classifier_says_the_same_about_one_class(cls):
    X, _ = _data(n=30, seed=7)
    with pytest.raises(ValueError) as error:
        fast_instance(cls).fit(X, np.full(30, "only"))
    assert str(error.value) == (
        "y has only one class ('only'); a classifier needs at least two classes to "
        "learn from."
    )


def test_platt_weights_leave_the_unweighted_fit_unchanged():
    X, y = _data(seed=8)
    ones = np.ones(len(y))
    splits = list(KFold(4).split(X))
    assert platt_scaling(
        LinearSVC(), X, y, pos_label=1, cv=splits, sample_weight=ones
    ) == pytest.approx(platt_scaling(LinearSVC(), X, y, pos_label=1, cv=splits))
    assert_allclose(ones, 1.0)  # not modified in place


# ------------------------------------------------------- the per-row decision
def _fits_on_row_costs(cls) -> bool:
    return has_fit_parameter(cls(), "sample_cost") and cls.__name__ not in {
        "LDMClassifier",  # cost-blind: sample_cost=None only
    }


ROW_COST_LEARNERS = [cls for cls in classifiers() if _fits_on_row_costs(cls)]
#: Learners whose per-row decision is the Bayes rule on predict_proba itself
#: (the reweighting wrappers first take their training costs out of it; the
#: recommended estimator may decide with a tuned threshold).
ON_PREDICT_PROBA = [
    cls
    for cls in ROW_COST_LEARNERS
    if cls.__name__
    not in {"CostWeighting", "RejectionSampling", "MetaCost", "MinimumCostClassifier"}
]


def _four_part_rows(n: int, seed: int) -> np.ndarray:
    """Random money-like ``[FP, FN, TP, TN]`` rows, with costs of being right."""
    rng = np.random.default_rng(seed)
    fp = rng.lognormal(0.0, 1.0, n)
    fn = rng.lognormal(1.0, 1.0, n)
    tp = rng.uniform(0.0, 0.5, n) * fn
    tn = rng.uniform(0.0, 0.2, n) * fp
    return np.column_stack([fp, fn, tp, tn])


def _fitted_on_rows(cls):
    X, y = _data()
    model = fast_instance(cls)
    if "probability" in model.get_params():
        model.set_params(probability=True)
    if cls is CostSensitiveTreeClassifier:
        model.set_params(min_samples_leaf=10)  # leaves of one class give 0 or 1
    return model.fit(X, y, sample_cost=_four_part_rows(len(y), 1)), X


@pytest.mark.parametrize("cls", ROW_COST_LEARNERS, ids=lambda c: c.__name__)
def test_every_learner_fitted_on_row_costs_decides_with_them(cls):
    # fitted on per-row costs, predict takes the rows' own costs and they change
    # the decision: all-huge false-negative costs make every row positive
    model, X = _fitted_on_rows(cls)
    n = X.shape[0]
    huge_fn = np.column_stack([np.ones(n), np.full(n, 1e12), np.zeros(n), np.zeros(n)])
    huge_fp = huge_fn[:, [1, 0, 2, 3]]
    proba = model.predict_proba(X)[:, 1]
    inside = (proba > 1e-9) & (proba < 1 - 1e-9)
    assert inside.any()
    assert np.all(model.predict(X[inside], sample_cost=huge_fn[inside]) == 1)
    assert np.all(model.predict(X[inside], sample_cost=huge_fp[inside]) == 0)


@pytest.mark.parametrize("cls", ON_PREDICT_PROBA, ids=lambda c: c.__name__)
def test_the_row_decision_is_the_bayes_rule_on_predict_proba(cls):
    model, X = _fitted_on_rows(cls)
    rows = _four_part_rows(X.shape[0], 2)
    fp, fn, tp, tn = rows.T
    p = model.predict_proba(X)[:, 1]  # labels 0 / 1, positive 1
    cost_if_positive = p * tp + (1 - p) * fp
    cost_if_negative = p * fn + (1 - p) * tn
    expected = (cost_if_positive < cost_if_negative).astype(int)
    assert_array_equal(model.predict(X, sample_cost=rows), expected)
    # the same costs as named parts or as one matrix per row decide the same
    parts = example_costs(fp=fp, fn=fn, tp=tp, tn=tn)
    matrices = np.stack([np.stack([tn, fp], 1), np.stack([fn, tp], 1)], 1)
    assert_array_equal(model.predict(X, sample_cost=parts), expected)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)


@pytest.mark.parametrize("cls", ON_PREDICT_PROBA, ids=lambda c: c.__name__)
def test_a_cost_of_being_right_changes_no_row_decision(cls):
    # adding a constant to a truth row of a row's matrix (a TP or TN cost) moves
    # both expected costs of that row by the same amount
    model, X = _fitted_on_rows(cls)
    rows = _four_part_rows(X.shape[0], 3)
    shifted = rows.copy()
    shift = np.random.default_rng(4).uniform(0, 5, (X.shape[0], 2))
    shifted[:, [1, 2]] += shift[:, [0]]  # FN and TP: the positives' row
    shifted[:, [0, 3]] += shift[:, [1]]  # FP and TN: the negatives' row
    assert_array_equal(
        model.predict(X, sample_cost=shifted), model.predict(X, sample_cost=rows)
    )


def test_a_row_decision_without_probabilities_says_how_to_get_them():
    X, y = _data()
    model = CSSVMClassifier().fit(X, y, sample_cost=_four_part_rows(len(y), 1))
    with pytest.raises(ValueError, match=r"probability=True"):
        model.predict(X, sample_cost=_four_part_rows(len(y), 2))


def test_a_row_decision_refuses_costs_given_only_for_the_true_class():
    X, y = _data()
    model = AdaBoostClassifier(n_estimators=5).fit(X, y)
    with pytest.raises(ValueError, match="do not say what each decision would cost"):
        model.predict(X, sample_cost=np.ones(len(y)))


class _Recorder:
    """A ``decide`` that labels rows by a rule and records which rows it saw."""

    def __init__(self, labels: np.ndarray) -> None:
        self.labels, self.calls = labels, []

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        self.calls.append(np.asarray(rows))
        return self.labels[rows]


def test_training_decisions_stop_at_the_probe_when_it_holds_two_classes():
    n = 10 * DEGENERACY_PROBE
    decide = _Recorder(np.arange(n) % 2)
    decided = training_decisions(n, decide)
    assert len(decide.calls) == 1
    probe = decide.calls[0]
    assert probe.size == DEGENERACY_PROBE and probe[0] == 0 and probe[-1] == n - 1
    assert_array_equal(decided, decide.labels[probe])


def test_training_decisions_are_exact_when_the_probe_is_one_class():
    # the one row of the other class is not in the evenly spread probe: the
    # answer must still say "two classes", so every row gets decided
    n = 10 * DEGENERACY_PROBE
    labels = np.zeros(n, dtype=int)
    probe = np.unique(np.linspace(0, n - 1, DEGENERACY_PROBE).astype(np.intp))
    odd = int(np.setdiff1d(np.arange(n), probe)[0])
    labels[odd] = 1
    decide = _Recorder(labels)
    decided = training_decisions(n, decide)
    assert len(decide.calls) == 2
    assert_array_equal(decided, labels)
    all_one = training_decisions(n, _Recorder(np.zeros(n, dtype=int)))
    assert np.unique(all_one).size == 1 and all_one.size == n


def test_training_decisions_of_a_small_set_decide_every_row_once():
    decide = _Recorder(np.zeros(50, dtype=int))
    decided = training_decisions(50, decide)
    assert len(decide.calls) == 1
    assert_array_equal(decide.calls[0], np.arange(50))
    assert decided.size == 50
