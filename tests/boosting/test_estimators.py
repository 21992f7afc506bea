"""The public boosting estimators: oracles (scikit-learn, a reference LogitBoost),
reductions, invariances and the documented behaviour of the fitted attributes.

Costs: ``C1`` is the cost of a false negative (missing the positive class), ``C2``
of a false positive; ``cost=r`` means ``(C1, C2) = (r, 1)``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import expit
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.dummy import DummyRegressor
from sklearn.ensemble import AdaBoostClassifier as SkAdaBoost
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils import check_random_state

import costsense.boosting as boosting
from costsense._base import BinaryCostClassifier
from costsense.boosting import (
    AdaBoostCClassifier,
    AdaBoostClassifier,
    AdaC1Classifier,
    AdaC2Classifier,
    AdaC3Classifier,
    AdaCostClassifier,
    AsyBClassifier,
    AsyBLClassifier,
    AsymBoostClassifier,
    AsymLogitBoostClassifier,
    CalibratedAdaBoostClassifier,
    CSB0Classifier,
    CSB1Classifier,
    CSB2Classifier,
)
from costsense.datasets import make_gaussian_problem
from costsense.exceptions import CostlierThanConstantWarning

STUMP = DecisionTreeClassifier(max_depth=1)
LOGIT = (AsyBLClassifier, AsymLogitBoostClassifier)
DISCRETE = (
    AdaBoostClassifier,
    AdaBoostCClassifier,
    AdaCostClassifier,
    AdaC1Classifier,
    AdaC2Classifier,
    AdaC3Classifier,
    CSB0Classifier,
    CSB1Classifier,
    CSB2Classifier,
    AsymBoostClassifier,
    AsyBClassifier,
)


def data(n: int = 300, seed: int = 0, sep: float = 1.0):
    """Continuous features (no ties); class 1 is the 30 % minority."""
    X, y = make_classification(
        n_samples=n,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        weights=[0.7],
        flip_y=0.05,
        class_sep=sep,
        random_state=seed,
    )
    return X[: n // 3 * 2], y[: n // 3 * 2], X[n // 3 * 2 :], y[n // 3 * 2 :]


def hand_cost(y01: np.ndarray, pred01: np.ndarray, c1: float, c2: float) -> float:
    """(C1 FN + C2 FP) / n with class 1 positive."""
    fn = np.sum((y01 == 1) & (pred01 == 0))
    fp = np.sum((y01 == 0) & (pred01 == 1))
    return (c1 * fn + c2 * fp) / y01.size


# ------------------------------------------------------------- sklearn oracle
@pytest.mark.parametrize("learning_rate", [1.0, 0.5])
def test_adaboost_matches_sklearn_samme(learning_rate):
    X, y, X_test, _ = data()
    common = {"n_estimators": 20, "learning_rate": learning_rate, "random_state": 0}
    ours = AdaBoostClassifier(clone(STUMP), pos_label=1, **common).fit(X, y)
    ref = SkAdaBoost(clone(STUMP), **common).fit(X, y)
    assert ours.stop_reason_ == "completed all rounds"
    assert len(ours.estimators_) == len(ref.estimators_) == 20
    # SAMME, binary: lr (log((1 - err) / err) + log(K - 1)) = 2 lr alpha; the
    # shrunk step is used in the weight update too
    assert_allclose(ref.estimator_weights_, 2 * ours.estimator_weights_, rtol=1e-10)
    assert_allclose(ref.estimator_errors_, ours.estimator_errors_, rtol=1e-10)
    for Z in (X, X_test):
        assert_array_equal(ours.predict(Z), ref.predict(Z))
        F = ours.decision_function(Z)
        # sklearn: sum_t 2 w_t h_t / sum_t w_t with w = 2 alpha, i.e. 2 F / sum alpha
        assert_allclose(
            ref.decision_function(Z),
            2 * F / ours.estimator_weights_.sum(),
            rtol=1e-10,
            atol=1e-12,
        )
        assert_array_equal(np.sign(ref.decision_function(Z)), np.sign(F))


def test_adaboostc_is_sklearn_adaboost_started_from_the_costs():
    # AdaBoostC boosts sum c exp(-yF) exactly: AdaBoost from D_1 = c / sum c, which
    # is sklearn's AdaBoost with sample_weight = c.
    X, y, X_test, _ = data()
    c1, c2 = 4.0, 1.0
    ours = AdaBoostCClassifier(
        clone(STUMP), n_estimators=15, cost=(c1, c2), pos_label=1, random_state=0
    ).fit(X, y)
    ref = SkAdaBoost(clone(STUMP), n_estimators=15, random_state=0)
    ref.fit(X, y, sample_weight=np.where(y == 1, c1, c2))
    assert len(ours.estimators_) == len(ref.estimators_) == 15
    assert_allclose(ref.estimator_weights_, 2 * ours.estimator_weights_, rtol=1e-10)
    assert_allclose(ref.estimator_errors_, ours.estimator_errors_, rtol=1e-10)
    assert_array_equal(ours.predict(X_test), ref.predict(X_test))


# ----------------------------------------------------------------- reductions
REDUCTIONS = [
    (AdaBoostCClassifier, {"cost": 1.0}),
    (AdaC1Classifier, {"cost": 1.0}),
    (AdaC2Classifier, {"cost": 1.0}),
    (AdaC3Classifier, {"cost": 1.0}),
    (CSB2Classifier, {"cost": 1.0}),  # k = 1 and Ting's vote = AdaBoost's
    (AsyBClassifier, {"cost": (3.0, 3.0)}),
    (AsyBClassifier, {"cost": (3.0, 3.0), "init_weights": "uniform"}),
    (AsymBoostClassifier, {"cost": 1.0}),
]


@pytest.mark.parametrize(
    ("cls", "params"), REDUCTIONS, ids=lambda v: getattr(v, "__name__", str(v))
)
def test_equal_costs_reduce_to_adaboost(cls, params):
    X, y, X_test, _ = data()
    common = {"n_estimators": 15, "random_state": 0, "pos_label": 1}
    ada = AdaBoostClassifier(clone(STUMP), cost=1.0, **common).fit(X, y)
    model = cls(clone(STUMP), **common, **params).fit(X, y)
    # AsymBoost's alpha comes from brentq (xtol 1e-14), the others are closed forms
    rtol = 1e-9 if cls is AsymBoostClassifier else 1e-12
    assert len(model.estimators_) == len(ada.estimators_) == 15
    assert_allclose(model.estimator_weights_, ada.estimator_weights_, rtol=rtol)
    assert_allclose(model.estimator_errors_, ada.estimator_errors_, rtol=rtol)
    assert_array_equal(model.predict(X_test), ada.predict(X_test))
    assert_allclose(
        model.decision_function(X_test), ada.decision_function(X_test), rtol=rtol
    )


# ----------------------------------------------------------- LogitBoost oracle
def logitboost(X, y01, X_test, base, n_rounds, learning_rate, random_state):
    """Friedman, Hastie & Tibshirani (2000), Algorithm 3 (two classes)."""
    rng = check_random_state(random_state)
    F, F_test = np.zeros(len(X)), np.zeros(len(X_test))
    for _ in range(n_rounds):
        p = 1.0 / (1.0 + np.exp(-2.0 * F))
        w = np.maximum(p * (1 - p), 1e-10)
        z = np.clip((y01 - p) / (p * (1 - p)), -4.0, 4.0)
        f = clone(base)
        if "random_state" in f.get_params():  # same seeding as the estimators
            f.set_params(random_state=int(rng.randint(np.iinfo(np.int32).max)))
        f.fit(X, z, sample_weight=w)
        F += learning_rate * f.predict(X) / 2
        F_test += learning_rate * f.predict(X_test) / 2
    return F_test


@pytest.mark.parametrize(
    "base", [DecisionTreeRegressor(max_depth=2), LinearRegression()], ids=repr
)
def test_asybl_with_equal_costs_is_logitboost(base):
    X, y, X_test, _ = data()
    params = {"n_estimators": 10, "learning_rate": 0.5, "random_state": 0}
    model = AsyBLClassifier(clone(base), cost=1.0, pos_label=1, **params).fit(X, y)
    F = logitboost(X, y, X_test, base, 10, 0.5, 0)
    assert model.link_ == (1.0, 0.0)
    assert_allclose(model.decision_function(X_test), F, rtol=1e-10, atol=1e-10)
    assert_allclose(model.predict_proba(X_test)[:, 1], expit(2 * F), atol=1e-10)
    assert_array_equal(model.predict(X_test), (F > 0).astype(int))
    # Asymmetric LogitBoost: g = (1 + 1) / 2 = 1, eta = 0, the same algorithm
    asym = AsymLogitBoostClassifier(clone(base), cost=1.0, pos_label=1, **params)
    assert_array_equal(
        asym.fit(X, y).decision_function(X_test), model.decision_function(X_test)
    )


def test_asymmetric_logitboost_is_a_rescaled_asybl():
    # Newton's method is invariant to F -> g F: with p = sigmoid(2 (g F + eta)) the
    # working response z and weights w depend on g F only, each round adds
    # f / (2 g) to F, i.e. f / 2 to g F; AsyBL (g = 1) adds f / 2 to F with the
    # same eta = 1/2 ln(C2 / C1) and the same z_max. So both fit the same
    # regressors and g F_asym = F_asybl: same probabilities, same predictions.
    X, y, X_test, _ = data()
    params = {
        "estimator": DecisionTreeRegressor(max_depth=2),
        "n_estimators": 8,
        "learning_rate": 0.3,
        "random_state": 0,
        "cost": (3.0, 1.0),
        "pos_label": 1,
    }
    asym = AsymLogitBoostClassifier(**params).fit(X, y)
    asybl = AsyBLClassifier(**params).fit(X, y)
    g = (3.0 + 1.0) / 2
    assert asym.link_ == pytest.approx((g, 0.5 * np.log(1 / 3)), rel=1e-15)
    assert_allclose(
        g * asym.decision_function(X_test),
        asybl.decision_function(X_test),
        rtol=1e-10,
        atol=1e-12,
    )
    assert_allclose(asym.predict_proba(X_test), asybl.predict_proba(X_test), atol=1e-12)
    assert_array_equal(asym.predict(X_test), asybl.predict(X_test))


# ---------------------------------------------------------------- probabilities
@pytest.mark.parametrize("cls", LOGIT)
def test_logit_link_maps_zero_score_to_the_bayes_threshold(cls):
    X, y, _, _ = data()
    c1, c2 = 4.0, 1.0
    model = cls(
        DummyRegressor(strategy="constant", constant=0.0),
        n_estimators=2,
        cost=(c1, c2),
        pos_label=1,
    ).fit(X, y)
    assert_array_equal(model.decision_function(X), 0.0)
    # F = 0: p = C2 e^0 / (C1 e^0 + C2 e^0) = C2 / (C1 + C2) = 0.2
    assert_allclose(model.predict_proba(X)[:, 1], c2 / (c1 + c2), rtol=1e-14)


@pytest.mark.parametrize("cls", LOGIT)
def test_logit_proba_is_the_documented_link_and_predict_its_bayes_rule(cls):
    X, y, X_test, _ = data()
    c1, c2 = 4.0, 1.0
    model = cls(
        DecisionTreeRegressor(max_depth=2),
        n_estimators=10,
        learning_rate=0.5,
        cost=(c1, c2),
        pos_label=1,
        random_state=0,
    ).fit(X, y)
    # AsyBL: g = 1; Asymmetric LogitBoost: g = (C1 + C2) / 2; eta = 1/2 ln(C2 / C1)
    g = 1.0 if cls is AsyBLClassifier else (c1 + c2) / 2
    eta = 0.5 * np.log(c2 / c1)
    assert model.link_ == pytest.approx((g, eta), rel=1e-15)
    F = model.decision_function(X_test)
    p = model.predict_proba(X_test)[:, 1]
    assert_allclose(p, expit(2 * (g * F + eta)), rtol=1e-12)
    assert_allclose(model.predict_proba(X_test).sum(axis=1), 1.0, rtol=1e-15)
    assert np.all(np.abs(p - c2 / (c1 + c2)) > 1e-9)  # no ties at the threshold
    assert_array_equal(model.predict(X_test), (p > c2 / (c1 + c2)).astype(int))
    assert 0 < np.mean(model.predict(X_test)) < 1


@pytest.mark.parametrize(
    ("cls", "params"),
    [
        (AdaBoostCClassifier, {}),
        (AsyBClassifier, {}),
        (AsyBClassifier, {"init_weights": "uniform"}),
        (AsymBoostClassifier, {}),
        (AdaCostClassifier, {}),
        (AdaC1Classifier, {}),
        (AdaC2Classifier, {}),
        (AdaC3Classifier, {}),
        (CSB0Classifier, {}),
        (CSB1Classifier, {}),
        (CSB2Classifier, {}),
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_cost_weighted_proba_agrees_with_predict(cls, params):
    # For sum c exp(-yF) the minimiser is F* = 1/2 ln(C1 P / (C2 (1 - P))), so
    # P = 1 / (1 + (C1/C2) e^{-2F}) and F > 0 iff P > C2 / (C1 + C2). For AsymBoost's
    # loss sum_{+} e^{-C1 F} + sum_{-} e^{C2 F}, F* = ln(C1 P / (C2 (1 - P))) /
    # (C1 + C2): again F > 0 iff P > C2 / (C1 + C2) under the right link. The
    # heuristics are read with AdaBoostC's link and Ting's rules give the vote
    # share, so for every rule predict is the Bayes decision on predict_proba.
    X, y, X_test, _ = data()
    c1, c2 = 4.0, 1.0
    model = cls(
        clone(STUMP),
        n_estimators=30,
        cost=(c1, c2),
        pos_label=1,
        random_state=0,
        **params,
    ).fit(X, y)
    p = model.predict_proba(X_test)[:, 1]
    assert np.all(np.abs(p - c2 / (c1 + c2)) > 1e-12)  # no ties at the threshold
    assert_array_equal(model.predict(X_test), (p > c2 / (c1 + c2)).astype(int))
    # deciding every row with the training costs is the same decision
    rows = np.tile([c2, c1, 0.0, 0.0], (X_test.shape[0], 1))  # [FP, FN, TP, TN]
    assert_array_equal(model.predict(X_test, sample_cost=rows), model.predict(X_test))


@pytest.mark.parametrize("cls", [CSB0Classifier, CSB1Classifier, CSB2Classifier])
def test_ting_proba_is_the_positive_share_of_the_vote(cls):
    X, y, X_test, _ = data()
    model = cls(clone(STUMP), n_estimators=12, cost=(4.0, 1.0), pos_label=1)
    model.fit(X, y)
    votes = np.array([learner.predict(X_test) for learner in model.estimators_])
    alphas = model.estimator_weights_
    share = alphas @ (votes == 1) / alphas.sum()
    assert_allclose(model.predict_proba(X_test)[:, 1], share, rtol=1e-12, atol=1e-15)


# ---------------------------------------------------------------- cost scaling
SCALE_FREE = [
    (AdaBoostCClassifier, {}),
    (AdaCostClassifier, {}),
    (AdaC1Classifier, {}),
    (AdaC2Classifier, {}),
    (AdaC3Classifier, {}),
    (AsyBClassifier, {}),
    (AsyBClassifier, {"init_weights": "uniform"}),
]


@pytest.mark.parametrize(
    ("cls", "params"), SCALE_FREE, ids=lambda v: getattr(v, "__name__", str(v))
)
def test_scaling_every_cost_leaves_scale_free_models_unchanged(cls, params):
    X, y, X_test, _ = data()
    fits = [
        cls(
            clone(STUMP),
            n_estimators=15,
            cost=(3.0 * k, 1.0 * k),
            pos_label=1,
            random_state=0,
            **params,
        ).fit(X, y)
        for k in (1.0, 0.1, 10.0)
    ]
    for other in fits[1:]:
        assert_array_equal(other.predict(X_test), fits[0].predict(X_test))
        assert_allclose(
            other.estimator_weights_, fits[0].estimator_weights_, rtol=1e-10
        )


def test_asymboost_rescales_its_weights_by_one_over_k():
    # Its loss in alpha with costs k c is the loss at k alpha with costs c: every
    # round's alpha is divided by k and alpha c (the update) is unchanged, so the
    # weak learners and the predictions are the same (F is divided by k).
    X, y, X_test, _ = data()
    models = {
        k: AsymBoostClassifier(
            clone(STUMP), n_estimators=15, cost=(3 * k, k), pos_label=1, random_state=0
        ).fit(X, y)
        for k in (1.0, 4.0)
    }
    assert_allclose(
        models[4.0].estimator_weights_, models[1.0].estimator_weights_ / 4, rtol=1e-9
    )
    assert_array_equal(models[4.0].predict(X_test), models[1.0].predict(X_test))


@pytest.mark.parametrize("cls", LOGIT)
def test_scaling_every_cost_leaves_logit_probabilities_unchanged(cls):
    # p = sigmoid(2 (g F + eta)): eta depends on C2/C1 and, by the rescaling
    # argument above, g F does not depend on g.
    X, y, X_test, _ = data()
    probas = [
        cls(
            DecisionTreeRegressor(max_depth=2),
            n_estimators=8,
            cost=(3.0 * k, 1.0 * k),
            pos_label=1,
            random_state=0,
        )
        .fit(X, y)
        .predict_proba(X_test)
        for k in (1.0, 5.0)
    ]
    assert_allclose(probas[1], probas[0], atol=1e-12)


# ----------------------------------------------------------------------- staged
STAGED = [
    AdaBoostClassifier(clone(STUMP), n_estimators=12, random_state=0),
    AsyBClassifier(clone(STUMP), n_estimators=12, random_state=0),
    CSB1Classifier(clone(STUMP), n_estimators=12, random_state=0),
    AsymBoostClassifier(clone(STUMP), n_estimators=12, random_state=0),
    AsyBLClassifier(
        DecisionTreeRegressor(max_depth=2), n_estimators=12, random_state=0
    ),
    CalibratedAdaBoostClassifier(clone(STUMP), n_estimators=12, random_state=0),
]


@pytest.mark.parametrize("model", STAGED, ids=lambda m: type(m).__name__)
def test_staged_outputs_end_at_the_final_model(model):
    X, y, X_test, _ = data()
    c1, c2 = 4.0, 1.0
    model = clone(model).set_params(cost=(c1, c2), pos_label=1).fit(X, y)
    members = getattr(model, "adaboost_", model).estimators_
    stages = list(model.staged_decision_function(X))
    assert len(stages) == len(members) == len(model.train_cost_) >= 2
    assert_allclose(stages[-1], model.decision_function(X), rtol=1e-12)
    staged = list(model.staged_predict(X))
    assert_array_equal(staged[-1], model.predict(X))
    assert_array_equal(list(model.staged_predict(X_test))[-1], model.predict(X_test))
    # the training cost after each round is (C1 FN + C2 FP) / n of that stage
    by_hand = [hand_cost(y, pred, c1, c2) for pred in staged]
    assert_allclose(model.train_cost_, by_hand, rtol=1e-12)
    assert model.train_cost_[-1] == pytest.approx(
        hand_cost(y, model.predict(X), c1, c2), rel=1e-12
    )


# --------------------------------------------------------------- early stopping
@pytest.mark.parametrize("cls", DISCRETE, ids=lambda c: c.__name__)
def test_a_perfect_first_round_keeps_one_learner_and_stops(cls):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = (X[:, 0] > 0.3).astype(int)  # one split separates the classes
    model = cls(
        DecisionTreeClassifier(max_depth=3, random_state=0),
        n_estimators=10,
        learning_rate=0.5,
        cost=2.0,
        random_state=0,
    ).fit(X, y)
    assert len(model.estimators_) == 1
    assert "perfect" in model.stop_reason_
    # kept with the weight of a round at error 1e-10, times the learning rate
    assert_allclose(
        model.estimator_weights_, [0.5 * 0.5 * np.log((1 - 1e-10) / 1e-10)], rtol=1e-12
    )
    assert_array_equal(model.estimator_errors_, [0.0])
    assert_array_equal(model.predict(X), y)
    assert_array_equal(model.train_cost_, [0.0])


def test_printed_asyb_double_counts_the_cost_and_adaboostc_does_not():
    X, y = make_gaussian_problem().sample(2000, random_state=0)
    common = {
        "n_estimators": 200,
        "cost": 5.0,
        "pos_label": 1,
        "early_stopping": False,
        "random_state": 0,
    }
    printed = AsyBClassifier(clone(STUMP), init_weights="cost", **common).fit(X, y)
    assert len(printed.estimators_) == 200
    assert printed.n_nonpositive_alpha_ == np.sum(printed.estimator_weights_ <= 0)
    assert printed.n_nonpositive_alpha_ > 0
    exact = AdaBoostCClassifier(clone(STUMP), **common).fit(X, y)
    assert len(exact.estimators_) == 200  # nothing stopped it either
    assert np.all(exact.estimator_weights_ > 0)
    assert exact.n_nonpositive_alpha_ == 0


# ------------------------------------------------------------ weights = repeats
@pytest.mark.parametrize("cls", LOGIT)
@pytest.mark.parametrize("cost", [None, 3.0])
def test_integer_weights_equal_repeated_rows(cls, cost):
    X, y, X_test, _ = data(n=180)
    w = np.random.default_rng(1).integers(1, 4, size=len(y))
    params = {
        "estimator": DecisionTreeRegressor(max_depth=2),
        "n_estimators": 8,
        "cost": cost,
        "random_state": 0,
    }
    weighted = cls(**params).fit(X, y, sample_weight=w)
    repeated = cls(**params).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert weighted.costs_ == pytest.approx(repeated.costs_, rel=1e-12)
    assert_allclose(
        weighted.predict_proba(X_test), repeated.predict_proba(X_test), atol=1e-12
    )


def test_asymboost_fits_with_zero_sample_weights():
    X, y, _, _ = data()
    w = (np.arange(len(y)) % 5 != 0).astype(float)  # every fifth row weighs 0
    with np.errstate(all="ignore"):
        model = AsymBoostClassifier(
            clone(STUMP), n_estimators=10, cost=1000.0, pos_label=1, random_state=0
        ).fit(X, y, sample_weight=w)
    assert len(model.estimators_) >= 1


# ------------------------------------------------------------ calibrated AdaBoost
def test_calibrated_adaboost_thresholds_its_probability_at_the_bayes_threshold():
    X, y, X_test, _ = data(sep=1.5)
    c1, c2 = 5.0, 1.0
    model = CalibratedAdaBoostClassifier(
        clone(STUMP), n_estimators=20, cost=(c1, c2), pos_label=1, random_state=0
    ).fit(X, y)
    a, b = model.calibration_
    assert a > 0  # a higher AdaBoost score means a more likely positive
    for Z in (X, X_test):
        p = model.predict_proba(Z)[:, 1]
        assert_allclose(p, expit(a * model.adaboost_.decision_function(Z) + b))
        assert np.all(np.abs(p - c2 / (c1 + c2)) > 1e-9)
        assert_array_equal(model.predict(Z), (p > c2 / (c1 + c2)).astype(int))


def test_calibrated_adaboost_passes_early_stopping_to_its_adaboost():
    # labels that are noise: without stopping every planned round is kept
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 2))
    y = (rng.uniform(size=300) < 0.3).astype(int)
    common = {"n_estimators": 15, "cost": 5.0, "pos_label": 1, "random_state": 0}
    kept = CalibratedAdaBoostClassifier(
        clone(STUMP), early_stopping=False, **common
    ).fit(X, y)
    assert len(kept.adaboost_.estimators_) == 15
    assert kept.adaboost_.early_stopping is False
    stopped = CalibratedAdaBoostClassifier(clone(STUMP), **common).fit(X, y)
    assert stopped.adaboost_.early_stopping is True


# ------------------------------------------------------ labels and orientation
def every_estimator():
    for name in boosting.__all__:
        cls = getattr(boosting, name)
        if not issubclass(cls, BinaryCostClassifier):
            continue  # EFSBoost: multiclass, no costs (tests/boosting/test_efs.py)
        base = (
            DecisionTreeRegressor(max_depth=2)
            if cls in LOGIT
            else DecisionTreeClassifier(max_depth=1)
        )
        yield cls(base, n_estimators=6, cost=3.0, random_state=0)


@pytest.mark.parametrize(
    "model", list(every_estimator()), ids=lambda m: type(m).__name__
)
def test_positive_first_sorted_label_keeps_sklearn_orientation(model):
    X, y01, X_test, _ = data()
    y = np.where(y01 == 1, "fraud", "ok")  # "fraud" is the minority and sorts first
    model = clone(model).fit(X, y)
    assert_array_equal(model.classes_, ["fraud", "ok"])
    assert model.pos_label_ == "fraud"
    assert model.costs_ == (3.0, 1.0)
    for Z in (X, X_test):
        dec = model.decision_function(Z)
        assert np.all(dec != 0)
        assert_array_equal(model.predict(Z), model.classes_[(dec > 0).astype(int)])
    # the same data with "fraud" coded as the later label: mirror-image scores
    y_late = np.where(y01 == 1, "z-fraud", "ok")
    mirror = clone(model).fit(X, y_late)
    assert mirror.pos_label_ == "z-fraud"
    assert_allclose(mirror.decision_function(X_test), -model.decision_function(X_test))


def test_a_zero_score_is_labelled_as_decision_function_says():
    X, y01, _, _ = data()
    y = np.where(y01 == 1, "fraud", "ok")
    model = AsyBLClassifier(
        DummyRegressor(strategy="constant", constant=0.0), n_estimators=2, cost=3.0
    ).fit(X, y)
    dec = model.decision_function(X)
    assert_array_equal(dec, 0.0)
    assert_array_equal(model.predict(X), model.classes_[(dec > 0).astype(int)])


@pytest.mark.parametrize("cost", [None, 3.0])
def test_asymboost_integer_weights_equal_repeated_rows(cost):
    X, y, X_test, _ = data(n=180)
    w = np.random.default_rng(2).integers(1, 4, size=len(y))
    params = {"estimator": clone(STUMP), "n_estimators": 8, "cost": cost}
    weighted = AsymBoostClassifier(**params, random_state=0).fit(X, y, sample_weight=w)
    repeated = AsymBoostClassifier(**params, random_state=0).fit(
        np.repeat(X, w, axis=0), np.repeat(y, w)
    )
    assert_allclose(weighted.estimator_weights_, repeated.estimator_weights_)
    assert_allclose(
        weighted.predict_proba(X_test), repeated.predict_proba(X_test), atol=1e-12
    )


# ------------------------------------------------- costlier than a constant rule
def _heavy_tailed_costs():
    X, y = make_classification(
        n_samples=300, n_features=6, n_informative=2, flip_y=0.4, weights=[0.8],
        random_state=2,
    )  # fmt: skip
    rng = np.random.default_rng(2)
    fp, fn = rng.lognormal(0.0, 2.0, 300), rng.lognormal(0.5, 2.0, 300)
    return X, y, np.column_stack([fp, fn, np.zeros(300), np.zeros(300)])


def test_a_booster_warns_exactly_when_it_costs_more_than_a_constant_rule():
    X, y, rows = _heavy_tailed_costs()
    fp, fn = rows[:, 0], rows[:, 1]
    constant = min(fn[y == 1].sum(), fp[y == 0].sum()) / y.size  # by hand
    outcomes = []
    for cls in (AdaC2Classifier, AdaC3Classifier, CSB2Classifier, AdaBoostCClassifier):
        model = cls(clone(STUMP), n_estimators=20, random_state=0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model.fit(X, y, sample_cost=rows)
        warned = [w for w in caught if w.category is CostlierThanConstantWarning]
        fitted = np.mean(np.where(model.predict(X) == y, 0.0, np.where(y == 1, fn, fp)))
        assert model.train_cost_[-1] == pytest.approx(fitted, rel=1e-12)
        assert len(warned) == (fitted > constant)
        if warned:
            assert f"{constant:.4g}" in str(warned[0].message)
        outcomes.append(bool(warned))
    assert any(outcomes) and not all(outcomes)  # both sides are exercised
