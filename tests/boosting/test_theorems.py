"""Paper 001's three theorems on AdaBoost's training error, checked on fitted models.

Paper 001 (the AdaBoost chapter), for ``N`` samples of uniform initial weight, the
score ``f_m = sum_{k <= m} alpha_k G_k`` after round ``m``, the normaliser ``Z_k``
of equation (3), the weighted error ``e_k`` of equation (1) and the edge
``gamma_k = 1/2 - e_k``:

- Theorem 1: ``(1/N) sum_i [sign(f_m(x_i)) != y_i] <= (1/N) sum_i exp(-y_i
  f_m(x_i)) = prod_{k <= m} Z_k``;
- Theorem 2: ``prod Z_k = prod 2 sqrt(e_k (1 - e_k)) = prod sqrt(1 - 4 gamma_k^2)
  <= exp(-2 sum gamma_k^2)``;
- Theorem 3: AdaBoost is forward stagewise additive modelling with the exponential
  loss: ``alpha_m`` minimises ``sum_i exp(-y_i (f_{m-1}(x_i) + alpha G_m(x_i)))``
  and a learner of least weighted error minimises it over the learners.

Every quantity on the left of a check is computed here from the fitted model's
public face (``staged_decision_function``, ``staged_predict``, ``estimators_``),
never from the engine's weights, on several data sets and weak learners: stumps,
depth-3 trees, stumps on pure noise (weighted error close to 1/2), and a stump of
least weighted error (Theorem 3's learner).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose
from numpy.typing import NDArray
from scipy.optimize import minimize_scalar
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.tree import DecisionTreeClassifier

from costsense.boosting import (
    AdaBoostCClassifier,
    AdaBoostClassifier,
    AdaC1Classifier,
    AdaC2Classifier,
    AdaC3Classifier,
    AdaCostClassifier,
    AsyBClassifier,
    AsymBoostClassifier,
    CSB0Classifier,
    CSB1Classifier,
    CSB2Classifier,
)
from costsense.datasets import load_keel, make_gaussian_problem

FloatArray = NDArray[np.float64]

#: Relative tolerance of the theorems' equalities.
EXACT = 1e-12


class ErrorStump(ClassifierMixin, BaseEstimator):
    """A stump of least weighted error: every feature, cut and orientation.

    Theorem 3's weak learner (scikit-learn's stump minimises an impurity, not
    the weighted error). Cuts lie halfway between consecutive distinct values;
    the constant classifiers are stumps too.
    """

    def fit(
        self, X: FloatArray, y: NDArray[Any], sample_weight: FloatArray | None = None
    ) -> ErrorStump:
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        self.classes_ = np.unique(y)
        positive = y == self.classes_[-1]
        best = (np.inf, 0, -np.inf, 1.0)
        for j in range(X.shape[1]):
            order = np.argsort(X[:, j], kind="stable")
            x, wj, pj = X[order, j], w[order], positive[order]
            # "x > cut is positive", the cut after the first k sorted rows:
            # wrong are the positives among them and the negatives after them
            below_pos = np.r_[0.0, np.cumsum(np.where(pj, wj, 0.0))]
            below_neg = np.r_[0.0, np.cumsum(np.where(pj, 0.0, wj))]
            wrong = below_pos + (below_neg[-1] - below_neg)
            cuts = np.r_[-np.inf, (x[1:] + x[:-1]) / 2, np.inf]
            valid = np.r_[True, x[1:] > x[:-1], True]
            for sign, errors in ((1.0, wrong), (-1.0, w.sum() - wrong)):
                k = int(np.argmin(np.where(valid, errors, np.inf)))
                if errors[k] < best[0]:
                    best = (float(errors[k]), j, float(cuts[k]), sign)
        _, self.feature_, self.cut_, self.sign_ = best
        return self

    def predict(self, X: FloatArray) -> NDArray[Any]:
        above = np.asarray(X, dtype=np.float64)[:, self.feature_] > self.cut_
        positive = above if self.sign_ > 0 else ~above
        return self.classes_[positive.astype(int)]


@functools.cache
def dataset(name: str) -> tuple[FloatArray, NDArray[np.int_]]:
    """Return ``(X, y)`` with ``y`` in {0, 1} (1 the positive class)."""
    if name == "classification-0":
        X, y = make_classification(300, n_features=6, n_informative=3, random_state=0)
    elif name == "classification-1":
        X, y = make_classification(
            300, n_features=8, flip_y=0.15, weights=[0.7], random_state=1
        )
    elif name == "pima":
        bunch = load_keel("pima")
        X, y = bunch.X, (np.asarray(bunch.y) == bunch.pos_label).astype(int)
    elif name == "gaussian":
        X, labels = make_gaussian_problem().sample(500, random_state=0)
        y = (labels > 0).astype(int)
    else:  # "noise": no feature says anything about the label
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(300, 4)), rng.integers(0, 2, size=300)
    return np.asarray(X, dtype=np.float64), np.asarray(y)


LEARNERS: dict[str, Callable[[], Any]] = {
    "stump": lambda: DecisionTreeClassifier(max_depth=1),
    "tree3": lambda: DecisionTreeClassifier(max_depth=3),
    "error-stump": ErrorStump,
}

#: (data set, weak learner, rounds): "noise" with stumps is the learner whose
#: weighted error stays close to 1/2.
CASES = [
    ("classification-0", "stump", 40),
    ("classification-0", "tree3", 20),
    ("classification-1", "stump", 40),
    ("classification-1", "tree3", 20),
    ("pima", "stump", 40),
    ("pima", "tree3", 20),
    ("gaussian", "stump", 40),
    ("gaussian", "tree3", 20),
    ("noise", "stump", 40),
    ("noise", "tree3", 20),
]


def fit(
    data: str, learner: str, rounds: int, model: type = AdaBoostClassifier, **params
) -> Any:
    X, y = dataset(data)
    weight = params.pop("sample_weight", None)
    booster = model(
        LEARNERS[learner](),
        n_estimators=rounds,
        pos_label=1,
        random_state=0,
        **params,
    )
    return booster.fit(X, y, sample_weight=weight)


def signs(y: NDArray[np.int_]) -> FloatArray:
    """Labels in {-1, +1}."""
    return np.where(y == 1, 1.0, -1.0)


def scores(model: Any, X: FloatArray) -> list[FloatArray]:
    """``f_1, ..., f_M``: the score after each round (positive for class 1)."""
    return list(model.staged_decision_function(X))


def learners(model: Any, X: FloatArray) -> FloatArray:
    """``G_m(x_i)`` in {-1, +1}, one row per round."""
    H = np.array([learner.predict(X) for learner in model.estimators_], dtype=float)
    assert set(np.unique(H)) <= {-1.0, 1.0}
    return H


@functools.cache
def adaboost(data: str, learner: str, rounds: int) -> Any:
    return fit(data, learner, rounds)


# ---------------------------------------------------------------- Theorem 1
@pytest.mark.parametrize(("data", "learner", "rounds"), CASES)
def test_theorem_1_training_error_under_exp_loss_equal_to_prod_z(data, learner, rounds):
    X, y = dataset(data)
    model = adaboost(data, learner, rounds)
    Z = model.estimator_normalisers_
    assert Z.shape == model.estimator_errors_.shape == (len(model.estimators_),)
    s = signs(y)
    staged = zip(scores(model, X), model.staged_predict(X), np.cumprod(Z), strict=True)
    for f, predicted, product in staged:
        error = np.mean(predicted != y)
        loss = np.mean(np.exp(-s * f))
        assert error <= loss
        assert_allclose(loss, product, rtol=EXACT)


@pytest.mark.parametrize(
    "params",
    [
        {"learning_rate": 0.5},
        {"learning_rate": 1.7},
        {"sample_weight": np.random.default_rng(3).uniform(0.1, 2.0, 300)},
        {"early_stopping": False},
    ],
    ids=["shrunk", "stretched", "sample-weight", "no-early-stopping"],
)
def test_theorem_1_holds_at_any_learning_rate_and_with_sample_weights(params):
    X, y = dataset("classification-1")
    weight = params.get("sample_weight", np.ones(len(y)))
    D1 = weight / weight.sum()
    model = fit("classification-1", "tree3", 25, **dict(params))
    s = signs(y)
    products = np.cumprod(model.estimator_normalisers_)
    for f, predicted, product in zip(
        scores(model, X), model.staged_predict(X), products, strict=True
    ):
        loss = np.sum(D1 * np.exp(-s * f))
        assert np.sum(D1 * (predicted != y)) <= loss
        assert_allclose(loss, product, rtol=EXACT)


def test_a_perfect_first_round_keeps_theorem_1_and_says_where_theorem_2_stops():
    X = np.arange(8.0)[:, None]
    y = (X[:, 0] > 3).astype(int)  # one stump separates the classes
    model = AdaBoostClassifier(n_estimators=5, pos_label=1).fit(X, y)
    assert len(model.estimators_) == 1 and model.estimator_errors_[0] == 0.0
    (f,) = scores(model, X)
    (Z,) = model.estimator_normalisers_
    assert_allclose(np.mean(np.exp(-signs(y) * f)), Z, rtol=EXACT)
    assert_allclose(Z, np.exp(-model.estimator_weights_[0]), rtol=EXACT)
    # the capped alpha is not the optimum (infinite) of a perfect round
    assert Z > 2 * np.sqrt(0.0 * 1.0)
    assert model.estimator_edges_[0] == 0.5 and Z <= np.exp(-2 * 0.5**2)


def test_records_end_with_the_kept_rounds_when_a_learner_no_better_than_a_coin_stops():
    X, y = dataset("classification-1")
    # the prior's constant vote; after round 1 the reweighted classes weigh the
    # same, so its error is 1/2 (alpha = 0, edge 0) from round 2 on
    for early_stopping, kept in ((True, 1), (False, 6)):
        model = AdaBoostClassifier(
            DummyClassifier(strategy="prior"),
            n_estimators=6,
            pos_label=1,
            early_stopping=early_stopping,
        ).fit(X, y)
        assert len(model.estimators_) == kept
        for records in (
            model.estimator_weights_,
            model.estimator_errors_,
            model.estimator_edges_,
            model.estimator_normalisers_,
        ):
            assert records.shape == (kept,)
        assert_allclose(model.estimator_errors_[1:], 0.5, rtol=EXACT)
        assert_allclose(model.estimator_normalisers_[1:], 1.0, rtol=EXACT)
        (f, *_), e = scores(model, X), model.estimator_errors_[0]
        assert_allclose(
            np.mean(np.exp(-signs(y) * f)), 2 * np.sqrt(e * (1 - e)), rtol=EXACT
        )


# ---------------------------------------------------------------- Theorem 2
@pytest.mark.parametrize(("data", "learner", "rounds"), CASES)
def test_theorem_2_prod_z_is_prod_of_errors_and_under_the_edge_bound(
    data, learner, rounds
):
    model = adaboost(data, learner, rounds)
    e, gamma = model.estimator_errors_, model.estimator_edges_
    Z = model.estimator_normalisers_
    assert np.all(e > 0)  # no perfect round in these cases
    assert_allclose(gamma, 0.5 - e, rtol=0, atol=0)
    assert_allclose(Z, 2 * np.sqrt(e * (1 - e)), rtol=EXACT)
    # 1 - 4 gamma^2 without the cancellation of 1 - (1 - 2e)^2
    assert_allclose(Z, np.sqrt((1 - 2 * gamma) * (1 + 2 * gamma)), rtol=EXACT)
    products = np.cumprod(Z)
    assert_allclose(products, np.cumprod(2 * np.sqrt(e * (1 - e))), rtol=EXACT)
    bound = np.exp(-2 * np.cumsum(gamma**2))
    assert np.all(products <= bound)


def test_the_noise_case_has_errors_close_to_one_half():
    e = adaboost("noise", "stump", 40).estimator_errors_
    assert e.size == 40 and np.all((0.4 < e) & (e < 0.5))


def test_theorem_2_equalities_need_the_optimal_alpha():
    X, y = dataset("classification-0")
    model = fit("classification-0", "stump", 30, learning_rate=0.5)
    e, Z = model.estimator_errors_, model.estimator_normalisers_
    # Z(alpha) = (1 - e) exp(-alpha) + e exp(alpha) is least at AdaBoost's alpha
    assert np.all(Z > 2 * np.sqrt(e * (1 - e)) * (1 + 1e-9))
    assert_allclose(
        Z,
        (1 - e) * np.exp(-model.estimator_weights_)
        + e * np.exp(model.estimator_weights_),
        rtol=1e-12,
    )


def test_theorem_2_holds_for_adaboostc_which_has_adaboosts_formulas():
    X, y = dataset("classification-1")
    model = fit("classification-1", "stump", 30, model=AdaBoostCClassifier, cost=4)
    e, Z = model.estimator_errors_, model.estimator_normalisers_
    assert_allclose(Z, 2 * np.sqrt(e * (1 - e)), rtol=EXACT)
    gamma = model.estimator_edges_
    assert np.all(np.cumprod(Z) <= np.exp(-2 * np.cumsum(gamma**2)))


# ---------------------------------------------------------------- Theorem 3
def exp_loss_along(w: FloatArray, margin: FloatArray) -> Callable[[float], float]:
    """``alpha -> sum_i w_i exp(-alpha margin_i)``."""
    return lambda alpha: float(np.sum(w * np.exp(-alpha * margin)))


def weights_of(s: FloatArray, f: FloatArray) -> FloatArray:
    """``exp(-y f)``, normalised: the weights forward stagewise modelling implies."""
    exponent = -s * f
    w = np.exp(exponent - exponent.max())
    return w / w.sum()


THEOREM_3_CASES = [
    ("classification-0", "stump", 25),
    ("classification-1", "tree3", 15),
    ("pima", "stump", 25),
    ("gaussian", "tree3", 15),
    ("noise", "stump", 25),
    ("pima", "error-stump", 25),
]


@pytest.mark.parametrize(("data", "learner", "rounds"), THEOREM_3_CASES)
def test_theorem_3_alpha_minimises_the_exp_loss_along_the_new_learner(
    data, learner, rounds
):
    X, y = dataset(data)
    model = adaboost(data, learner, rounds)
    s = signs(y)
    H = learners(model, X)
    previous = np.zeros(len(y))
    for m, f in enumerate(scores(model, X)):
        w = weights_of(s, previous)
        e = float(np.sum(w[H[m] != s]))
        # the round's weights are those of exp(-y f_{m-1}), as the proof has it
        assert_allclose(e, model.estimator_errors_[m], rtol=1e-10)
        closed = 0.5 * np.log((1 - e) / e)
        found = minimize_scalar(exp_loss_along(w, s * H[m]), bracket=(0.0, 1.0))
        assert found.success
        assert_allclose(found.x, closed, rtol=1e-6, atol=1e-8)
        assert_allclose(model.estimator_weights_[m], closed, rtol=1e-10)
        assert_allclose(f, previous + closed * H[m], rtol=1e-10, atol=1e-12)
        previous = f


def every_stump(X: FloatArray) -> FloatArray:
    """Predictions in {-1, +1} of every stump ``x_j > cut`` (one orientation)."""
    rows = [np.ones(X.shape[0])]  # a constant classifier is a stump too
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        cuts = (values[1:] + values[:-1]) / 2
        rows.extend(np.where(X[:, j] > cut, 1.0, -1.0) for cut in cuts)
    return np.array(rows)


@pytest.mark.parametrize("data", ["classification-0", "pima", "gaussian", "noise"])
def test_theorem_3_no_single_learner_change_of_a_round_lowers_the_exp_loss(data):
    X, y = dataset(data)
    model = adaboost(data, "error-stump", 25)
    s = signs(y)
    grid = every_stump(X)
    H = learners(model, X)
    staged = scores(model, X)
    previous = np.zeros(len(y))
    for f in staged:
        w = np.exp(-s * previous)
        # AdaBoost's loss after round m, relative to the loss before it
        ratio = np.sum(np.exp(-s * f)) / w.sum()
        w = w / w.sum()
        # any stump, either orientation, its alpha re-optimised: the least of
        # W_ok exp(-alpha) + W_bad exp(alpha) is 2 sqrt(W_ok W_bad)
        wrong = (grid != s) @ w
        best = np.min(2 * np.sqrt(wrong * (1 - wrong)))
        assert ratio <= best * (1 + 1e-9)
        assert_allclose(ratio, best, rtol=1e-9)  # AdaBoost's stump is among them
        previous = f
    # the last round replaced by each other fitted learner, alpha re-optimised
    w = weights_of(s, staged[-2])
    final = np.sum(w * np.exp(-s * (staged[-1] - staged[-2])))
    for other in H[:-1]:
        found = minimize_scalar(exp_loss_along(w, s * other), bracket=(-1.0, 1.0))
        assert final <= found.fun * (1 + 1e-9)


# ------------------------------------------- Z for the other rules (no theorem)
def _uniform(c: FloatArray) -> FloatArray:
    return np.ones_like(c)


#: name: (estimator, params, initial weights from the costs, log of the factor
#: round m multiplies a sample's weight by, from (alpha, margin y G_m, cost c,
#: cost scaled to (0, 1])): each rule's published update, written out here.
RULES: dict[str, tuple[type, dict[str, Any], Callable[..., Any], Callable[..., Any]]]
RULES = {
    "adaboost": (AdaBoostClassifier, {}, _uniform, lambda a, m, c, u: -a * m),
    "adaboostc": (AdaBoostCClassifier, {}, np.copy, lambda a, m, c, u: -a * m),
    "asyb": (AsyBClassifier, {}, np.copy, lambda a, m, c, u: -a * m),
    "asyb-uniform": (
        AsyBClassifier,
        {"init_weights": "uniform"},
        _uniform,
        lambda a, m, c, u: -a * m,
    ),
    "adac1": (AdaC1Classifier, {}, _uniform, lambda a, m, c, u: -a * u * m),
    "asymboost": (AsymBoostClassifier, {}, _uniform, lambda a, m, c, u: -a * c * m),
    "adac2": (AdaC2Classifier, {}, _uniform, lambda a, m, c, u: np.log(u) - a * m),
    "adac3": (
        AdaC3Classifier,
        {},
        _uniform,
        lambda a, m, c, u: np.log(u) - a * u * m,
    ),
    "adacost": (
        AdaCostClassifier,
        {},
        np.copy,
        lambda a, m, c, u: -a * m * np.where(m > 0, (1 - u) / 2, (1 + u) / 2),
    ),
    "csb0": (
        CSB0Classifier,
        {},
        np.copy,
        lambda a, m, c, u: np.where(m < 0, np.log(c), 0.0),
    ),
    "csb1": (
        CSB1Classifier,
        {},
        np.copy,
        lambda a, m, c, u: np.where(m < 0, np.log(c), 0.0) - m,
    ),
    "csb2": (
        CSB2Classifier,
        {},
        np.copy,
        lambda a, m, c, u: np.where(m < 0, np.log(c), 0.0) - a * m,
    ),
}
#: Rules whose update is D exp(-alpha s y h) and whose score is sum alpha h: the
#: Notes of AdaBoostClassifier say Theorem 1 holds for them with weights D_1.
THEOREM_1_RULES = [
    "adaboost",
    "adaboostc",
    "asyb",
    "asyb-uniform",
    "adac1",
    "asymboost",
]


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_rules_z_is_the_normaliser_of_its_own_update(name):
    estimator, params, initial, log_factor = RULES[name]
    X, y = dataset("classification-1")
    # rounds with alpha <= 0 kept: the identity does not need a useful round
    model = fit(
        "classification-1",
        "stump",
        20,
        model=estimator,
        cost=3,
        early_stopping=False,
        **params,
    )
    c = np.where(y == 1, 3.0, 1.0)
    D1 = initial(c) / initial(c).sum()
    margins = signs(y) * learners(model, X)
    log_weight = np.zeros(len(y))
    products = np.cumprod(model.estimator_normalisers_)
    assert len(products) == len(model.estimators_) >= 2
    for alpha, margin, product in zip(
        model.estimator_weights_, margins, products, strict=True
    ):
        log_weight += log_factor(alpha, margin, c, c / c.max())
        # D_{m+1} = D_1 x (every factor so far) / (Z_1 ... Z_m) sums to 1
        assert_allclose(np.sum(D1 * np.exp(log_weight)), product, rtol=1e-10)


@pytest.mark.parametrize("name", THEOREM_1_RULES)
def test_theorem_1_with_initial_weights_for_rules_of_the_same_form(name):
    estimator, params, initial, _ = RULES[name]
    X, y = dataset("classification-1")
    model = fit("classification-1", "tree3", 20, model=estimator, cost=3, **params)
    c = np.where(y == 1, 3.0, 1.0)
    D1 = initial(c) / initial(c).sum()
    s = {"adac1": c / c.max(), "asymboost": c}.get(name, np.ones_like(c))
    staged = zip(
        scores(model, X),
        model.staged_predict(X),
        np.cumprod(model.estimator_normalisers_),
        strict=True,
    )
    for f, predicted, product in staged:
        loss = np.sum(D1 * np.exp(-s * signs(y) * f))
        assert np.sum(D1 * (predicted != y)) <= loss
        assert_allclose(loss, product, rtol=1e-10)
