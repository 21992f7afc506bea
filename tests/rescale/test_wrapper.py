"""What every rescaling wrapper shares: costs, labelled matrices, per-row decisions."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from costsense.costs import example_costs
from costsense.metrics import make_cost_scorer
from costsense.rescale import (
    CostWeighting,
    MetaCost,
    RejectionSampling,
    ThresholdMoving,
)
from tests.rescale._data import (
    PER_ROW_WRAPPERS,
    binary,
    member_proba,
    random_matrices,
    three_classes,
    three_separable,
)

WRAPPERS = [
    CostWeighting(DecisionTreeClassifier(max_depth=3, random_state=0)),
    RejectionSampling(DecisionTreeClassifier(max_depth=3), random_state=0),
    ThresholdMoving(DecisionTreeClassifier(max_depth=3, random_state=0)),
    MetaCost(DecisionTreeClassifier(max_depth=3), random_state=0),
]


@pytest.mark.parametrize("model", WRAPPERS, ids=lambda m: type(m).__name__)
def test_a_higher_false_negative_cost_never_predicts_fewer_positives(model):
    X, y = binary(n=400)
    positives = [
        np.sum(model.set_params(cost=c).fit(X, y).predict(X) == 1) for c in (1, 20)
    ]
    assert positives[1] >= positives[0]
    assert positives[1] > np.sum(y == 1) * 0.9


@pytest.mark.parametrize("model", WRAPPERS, ids=lambda m: type(m).__name__)
def test_multiclass_cost_matrix(model):
    X, y = three_classes()
    matrix = np.array([[0, 1, 1], [5, 0, 5], [20, 20, 0]], dtype=float)
    fitted = model.set_params(cost=matrix).fit(X, y)
    assert_array_equal(fitted.classes_, [0, 1, 2])
    proba = fitted.predict_proba(X)
    assert proba.shape == (y.size, 3)
    assert_allclose(proba.sum(axis=1), 1.0)
    # class 2 is rare but costly to miss: predicted at least as often as it occurs
    assert np.sum(fitted.predict(X) == 2) >= np.sum(y == 2)


def test_grid_search_by_cost_picks_the_cheapest_setting():
    X, y = binary(n=400)
    search = GridSearchCV(
        ThresholdMoving(LogisticRegression(), cost=5),
        {"calibration": [None, "sigmoid", "isotonic"]},
        scoring=make_cost_scorer(cost=5),
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
    ).fit(X, y)
    scores = search.cv_results_["mean_test_score"]
    assert search.best_index_ == int(np.argmax(scores))
    assert np.all(scores <= 0)  # negated costs


@pytest.mark.parametrize("three", [False, True])
def test_a_diagonal_shift_changes_no_decision_and_costs_exactly_the_shift(three):
    from costsense.metrics import misclassification_cost

    X, y = three_separable() if three else binary()
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
    X, y = binary()
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
    X, y = binary()
    rows = np.c_[np.zeros(y.size), np.full(y.size, 3.0)]  # class 0 is always free
    with pytest.raises(ValueError, match="class 0 the cheaper prediction for every"):
        CostWeighting(LogisticRegression()).fit(X, y, sample_cost=rows)


@pytest.mark.filterwarnings("ignore:CostWeighting.*not consistent:UserWarning")
@pytest.mark.parametrize("make", [ThresholdMoving, CostWeighting, MetaCost])
def test_a_reordered_labelled_matrix_fits_the_model_of_the_ordered_array(make):
    pd = pytest.importorskip("pandas")
    X, y = three_separable(seed=2)
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


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_a_diagonal_shift_of_every_rows_matrix_changes_no_row_decision(name):
    X, y = binary(seed=8)
    rng = np.random.default_rng(8)
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4).fit(X, y)
    matrices = random_matrices(rng, y.size)
    shift = rng.uniform(-5, 5, size=(y.size, 2))  # a constant per truth row
    by_rows = model.predict(X, sample_cost=matrices)
    shifted = model.predict(X, sample_cost=matrices + shift[:, :, None])
    assert_array_equal(shifted, by_rows)
    assert np.any(by_rows != model.predict(X))  # the rows' costs were used


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_a_huge_false_negative_cost_predicts_positive_a_huge_false_positive_negative(
    name,
):
    X, y = binary(seed=9)
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4).fit(X, y)
    p = member_proba(model, X)[:, 1]
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
    X, y = binary(seed=10)
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
    X, y = binary()
    with pytest.raises(NotFittedError):
        PER_ROW_WRAPPERS[name]().predict(
            X, sample_cost=random_matrices(np.random.default_rng(0), y.size)
        )


@pytest.mark.parametrize("name", sorted(PER_ROW_WRAPPERS))
def test_row_costs_given_the_true_class_are_refused_at_predict(name):
    X, y = binary()
    model = PER_ROW_WRAPPERS[name]().set_params(cost=4).fit(X, y)
    with pytest.raises(
        ValueError, match=r"sample_cost has shape.*cost rows given the true class"
    ):
        model.predict(X, sample_cost=np.ones((y.size, 2)))


# ------------------------------------------------------------ costs named by a string
def _named_cost_models():
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    return [
        CostWeighting(tree),
        RejectionSampling(DecisionTreeClassifier(max_depth=3), random_state=0),
        ThresholdMoving(tree),
        MetaCost(DecisionTreeClassifier(max_depth=3), random_state=0),
    ]


@pytest.mark.parametrize("data", [binary, three_classes])
@pytest.mark.parametrize("index", range(4))
def test_named_costs_fit_the_models_of_their_matrices(index, data):
    X, y = data()
    k = np.unique(y).size
    make = _named_cost_models()[index]
    unit = clone(make).set_params(cost="unit").fit(X, y)
    zero_one = clone(make).set_params(cost=1.0 - np.eye(k)).fit(X, y)
    assert_array_equal(unit.cost_matrix_, 1.0 - np.eye(k))
    assert_array_equal(unit.predict(X), zero_one.predict(X))
    assert_allclose(unit.predict_proba(X), zero_one.predict_proba(X))
    balanced = clone(make).set_params(cost="balanced").fit(X, y)
    default = clone(make).fit(X, y)  # cost=None
    assert_array_equal(balanced.cost_matrix_, default.cost_matrix_)
    assert_array_equal(balanced.predict(X), default.predict(X))
    assert_allclose(balanced.predict_proba(X), default.predict_proba(X))
    assert not np.array_equal(balanced.cost_matrix_, unit.cost_matrix_)


def test_an_estimator_given_a_string_that_names_no_cost_says_which_do():
    X, y = binary()
    with pytest.raises(ValueError, match=r"cost='blanced'.*'balanced'.*'unit'"):
        ThresholdMoving(cost="blanced").fit(X, y)
