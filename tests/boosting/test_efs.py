"""EFSBoost (paper 003, algorithm 2): reductions, equation 14 by hand, invariants."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.naive_bayes import GaussianNB

from costsense.boosting import EFSBoostClassifier
from costsense.datasets import load_keel
from costsense.naive_bayes import DiscreteNaiveBayesClassifier


def _data(seed: int = 0, n: int = 300, d: int = 6, classes: int = 2):
    return make_classification(
        n_samples=n,
        n_features=d,
        n_informative=3,
        n_redundant=0,
        n_classes=classes,
        n_clusters_per_class=2 if classes == 2 else 1,
        flip_y=0.1,
        random_state=seed,
    )


@pytest.mark.parametrize("naive_bayes", ["gaussian", "discrete"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_feature_selection_it_is_adaboost_m1_over_naive_bayes(
    seed, naive_bayes
):
    # binary SAMME is AdaBoost.M1 with alpha = ln(1/beta) (ours is half of it), the
    # same weight update after normalisation, and the same stop at error >= 1/2
    X, y = _data(seed)
    ours = EFSBoostClassifier(
        n_estimators=15, feature_selection=False, naive_bayes=naive_bayes
    ).fit(X, y)
    base = (
        GaussianNB()
        if naive_bayes == "gaussian"
        else DiscreteNaiveBayesClassifier(weights_as="proportions")
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        theirs = SklearnAdaBoost(base, n_estimators=15).fit(X, y)
    kept = len(ours.estimators_)
    assert kept == len(theirs.estimators_)
    np.testing.assert_allclose(
        2 * ours.estimator_weights_, theirs.estimator_weights_[:kept]
    )
    np.testing.assert_allclose(ours.estimator_errors_, theirs.estimator_errors_[:kept])
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    assert ours.support_.all()


@pytest.mark.parametrize("feature_update", ["weighted", "literal"])
@pytest.mark.parametrize("feature_score", ["log_ratio", "density"])
def test_first_round_feature_weights_are_equation_14(feature_update, feature_score):
    X, y = _data(3)
    model = EFSBoostClassifier(
        n_estimators=1,
        naive_bayes="gaussian",
        feature_update=feature_update,
        feature_score=feature_score,
    ).fit(X, y)
    nb = GaussianNB().fit(X, y)  # round 1: all features, uniform weights
    predicted = nb.predict(X)
    wrong = predicted != y
    true_index, predicted_index = y[wrong], predicted[wrong]
    expected = np.full(X.shape[1], 1.0 / X.shape[1])
    sd = np.sqrt(nb.var_)
    scale = X.std(axis=0)
    for m in range(X.shape[1]):
        x = X[wrong, m]
        p_true = stats.norm.pdf(x, nb.theta_[true_index, m], sd[true_index, m])
        p_pred = stats.norm.pdf(
            x, nb.theta_[predicted_index, m], sd[predicted_index, m]
        )
        if feature_score == "log_ratio":
            terms = np.log(p_true) - np.log(p_pred)
        else:
            terms = (p_true - p_pred) * scale[m]
        if feature_update == "weighted":
            terms = terms / len(y)  # round 1's weights are uniform
        expected[m] += terms.sum()
    np.testing.assert_allclose(model.feature_weights_, expected, rtol=1e-10)
    np.testing.assert_array_equal(model.support_, expected >= 0)


def test_the_default_feature_update_is_equation_14_as_printed_by_hand():
    # Nine rows, two binary features (one bin per value), Laplace alpha = 1 and
    # round 1's uniform weights read as one row each. By hand:
    #   class 0 (5 rows): P(x0=1 | 0) = (1+1)/(5+2) = 2/7, P(x1=0 | 0) = 5/7
    #   class 1 (4 rows): P(x0=1 | 1) = (4+1)/(4+2) = 5/6, P(x1=0 | 1) = 1/2
    # Row (1, 0) of class 0 scores 5/9 * 2/7 * 5/7 = 0.113 for class 0 against
    # 4/9 * 5/6 * 1/2 = 0.185 for class 1: the one misclassified row (error 1/9).
    # Equation 14, unweighted: x0 gets 2/7 - 5/6 = -23/42, x1 gets 5/7 - 1/2 = 9/42.
    X = np.array(
        [[0, 0], [0, 0], [0, 1], [1, 0], [0, 0], [1, 1], [1, 1], [1, 0], [1, 0]],
        dtype=float,
    )
    y = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1])
    default = EFSBoostClassifier(n_estimators=1).fit(X, y)
    printed = np.array([1 / 2 - 23 / 42, 1 / 2 + 9 / 42])  # [-1/21, 5/7]
    np.testing.assert_allclose(default.feature_weights_, printed, rtol=1e-12)
    np.testing.assert_allclose(default.estimator_errors_, [1 / 9])
    # the negative weight drops x0 after round 1; the weighted update (our
    # deviation) scales the terms by the row's weight 1/9 and keeps it
    np.testing.assert_array_equal(default.support_, [False, True])
    np.testing.assert_array_equal(default.drop_round_, [1, -1])
    weighted = EFSBoostClassifier(n_estimators=1, feature_update="weighted").fit(X, y)
    np.testing.assert_allclose(
        weighted.feature_weights_, 1 / 2 + np.array([-23, 9]) / 42 / 9, rtol=1e-12
    )
    assert weighted.support_.all()
    # round 2 runs on x1 alone under the printed update
    two = EFSBoostClassifier(n_estimators=2).fit(X, y)
    assert [subset.tolist() for subset in two.feature_subsets_] == [[0, 1], [1]]


def test_the_vote_is_for_the_class_the_rounds_predict():
    # the paper prints C(x) = argmax_y sum_{t: C_t(x) != y} alpha_t; it must be "="
    X, y = _data(4, classes=3, d=8)
    model = EFSBoostClassifier(n_estimators=10).fit(X, y)
    votes = np.zeros((len(y), 3))
    for nb, columns, alpha in zip(
        model.estimators_, model.feature_subsets_, model.estimator_weights_, strict=True
    ):
        votes[
            np.arange(len(y)),
            np.searchsorted(model.classes_, nb.predict(X[:, columns])),
        ] += alpha
    np.testing.assert_array_equal(
        model.predict(X), model.classes_[votes.argmax(axis=1)]
    )
    np.testing.assert_allclose(model.decision_function(X), votes)
    assert np.mean(model.predict(X) == y) > 0.6  # well above the constant 1/3


def test_binary_decision_function_is_the_vote_margin():
    X, y = _data(5)
    model = EFSBoostClassifier(n_estimators=8).fit(X, y)
    score = model.decision_function(X)
    np.testing.assert_array_equal(
        model.predict(X), model.classes_[(score > 0).astype(int)]
    )


@pytest.mark.parametrize("seed", range(5))
def test_the_literal_update_never_drops_the_last_feature(seed):
    # the literal sum of log-ratios collapses subsets fast: the last feature stays
    X, y = _data(seed, d=10)
    model = EFSBoostClassifier(
        n_estimators=30, feature_update="literal", on_weak_round="reset"
    ).fit(X, y)
    assert model.support_.sum() >= 1
    for earlier, later in zip(
        model.feature_subsets_, model.feature_subsets_[1:], strict=False
    ):
        assert set(later) <= set(earlier)  # a dropped feature never returns
        assert len(later) >= 1


@pytest.mark.parametrize("feature_score", ["log_ratio", "density"])
def test_rescaling_a_feature_changes_nothing(feature_score):
    # log-ratios are scale-free; densities are taken in standard deviations
    X, y = _data(6)
    scaled = X * np.array([1.0, 100.0, 0.01, 5.0, 1e3, 0.2])
    params = {"n_estimators": 10, "feature_score": feature_score, "var_smoothing": 0.0}
    a = EFSBoostClassifier(**params).fit(X, y)
    b = EFSBoostClassifier(**params).fit(scaled, y)
    np.testing.assert_allclose(
        a.feature_weights_, b.feature_weights_, rtol=1e-6, atol=1e-12
    )
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.predict(X), b.predict(scaled))


def test_weak_rounds_stop_or_reset_and_count_towards_n_estimators():
    X, y = _data(7, n=200)
    stop = EFSBoostClassifier(n_estimators=40, naive_bayes="gaussian").fit(X, y)
    assert stop.stop_reason_.endswith(">= 1/2")  # naive Bayes runs out of steam
    reset = EFSBoostClassifier(
        n_estimators=40, naive_bayes="gaussian", on_weak_round="reset"
    ).fit(X, y)
    assert reset.n_resets_ >= 1
    assert len(reset.estimators_) + reset.n_resets_ == 40
    assert len(reset.estimators_) > len(stop.estimators_)
    # up to the first weak round, both are the same boosting run
    k = len(stop.estimators_)
    np.testing.assert_allclose(reset.estimator_weights_[:k], stop.estimator_weights_)
    assert np.all(np.asarray(reset.estimator_errors_) < 0.5)


@pytest.mark.parametrize("naive_bayes", ["gaussian", "discrete"])
def test_sample_weight_starts_the_boosting_weights(naive_bayes):
    X, y = _data(8)
    rng = np.random.default_rng(0)
    counts = rng.integers(1, 4, size=len(y))
    params = {"n_estimators": 6, "naive_bayes": naive_bayes}
    weighted = EFSBoostClassifier(**params).fit(X, y, sample_weight=counts)
    repeated = EFSBoostClassifier(**params).fit(
        np.repeat(X, counts, axis=0), np.repeat(y, counts)
    )
    np.testing.assert_allclose(weighted.estimator_weights_, repeated.estimator_weights_)
    np.testing.assert_allclose(weighted.feature_weights_, repeated.feature_weights_)


@pytest.mark.parametrize("on_weak_round", ["stop", "reset"])
def test_a_hopeless_first_round_leaves_the_class_of_largest_weight(on_weak_round):
    # both classes hold the same rows: naive Bayes cannot beat a coin
    rows = np.random.default_rng(9).normal(size=(50, 3))
    X = np.vstack([rows, rows])
    y = np.r_[np.full(50, 7), np.full(50, 3)]
    model = EFSBoostClassifier(n_estimators=3, on_weak_round=on_weak_round).fit(X, y)
    assert model.estimators_ == []
    assert "no round was kept" in model.stop_reason_
    assert model.constant_ == 3  # equal weights: the first class
    np.testing.assert_array_equal(model.predict(X), np.full(100, 3))
    assert np.all(model.decision_function(X) < 0)


def test_on_yeast4_naive_bayes_is_hopeless_and_the_majority_is_predicted():
    # yeast4's minority class has near-constant features: naive Bayes calls most
    # rows minority (training error above 0.8), so no round can be kept
    data = load_keel("yeast4")
    model = EFSBoostClassifier(n_estimators=5, naive_bayes="gaussian").fit(
        data.X, data.y
    )
    assert model.estimators_ == []
    majority = max(set(data.y), key=list(data.y).count)
    assert model.constant_ == majority
    assert set(model.predict(data.X)) == {majority}


def test_constant_features_are_never_used():
    # a constant feature's term is 0: left in, it would outlive the useful ones and
    # leave naive Bayes dividing by a zero variance
    X, y = _data(10, d=4)
    X = np.column_stack([X, np.full(len(y), 2.5), np.zeros(len(y))])
    model = EFSBoostClassifier(n_estimators=30, feature_update="literal").fit(X, y)
    assert not model.support_[-2:].any()
    assert all(not {4, 5} & set(subset) for subset in model.feature_subsets_)
    assert np.all(np.isfinite(model.feature_weights_))
    assert np.all(np.isfinite(model.decision_function(X)))


def test_drop_round_matches_the_subsets_each_round_used():
    X, y = _data(10, d=6)
    X = np.column_stack([X, np.zeros(len(y))])  # a constant column: out from start
    model = EFSBoostClassifier(n_estimators=30, feature_update="literal").fit(X, y)
    assert model.drop_round_[-1] == 0
    np.testing.assert_array_equal(model.drop_round_ == -1, model.support_)
    for feature in range(X.shape[1] - 1):
        rounds_used = [
            t + 1
            for t, subset in enumerate(model.feature_subsets_)
            if feature in subset
        ]
        dropped = model.drop_round_[feature]
        if dropped == -1:  # kept: used by every kept round
            assert rounds_used == list(range(1, len(model.feature_subsets_) + 1))
        else:  # used up to and including the round that dropped it
            assert rounds_used == list(range(1, dropped + 1))


@pytest.mark.parametrize("feature_score", ["log_ratio", "density"])
@pytest.mark.parametrize("feature_update", ["literal", "weighted"])
def test_first_round_feature_weights_with_the_counting_naive_bayes(
    feature_score, feature_update
):
    """Equation 14 with equation 8's probabilities: each misclassified row adds
    ``P(bin of x_nm | y_n) - P(bin of x_nm | p_n)`` (or their logs), unweighted as
    printed, or weighted by its boosting weight ``1/n`` in round 1."""
    X, y = _data(4)
    model = EFSBoostClassifier(
        n_estimators=1, feature_score=feature_score, feature_update=feature_update
    ).fit(X, y)
    nb = DiscreteNaiveBayesClassifier().fit(X, y)  # round 1: uniform weights
    predicted = nb.predict(X)
    wrong = np.flatnonzero(predicted != y)
    expected = np.full(X.shape[1], 1.0 / X.shape[1])
    for m in range(X.shape[1]):
        bins = np.searchsorted(nb.bin_edges_[m], X[wrong, m], side="left")
        p_true = np.exp(nb.feature_log_prob_[m][y[wrong], bins])
        p_pred = np.exp(nb.feature_log_prob_[m][predicted[wrong], bins])
        if feature_score == "log_ratio":
            terms = np.log(p_true) - np.log(p_pred)
        else:
            terms = p_true - p_pred
        weight = 1.0 / len(y) if feature_update == "weighted" else 1.0
        expected[m] += terms.sum() * weight
    np.testing.assert_allclose(model.feature_weights_, expected, rtol=1e-10)
    np.testing.assert_array_equal(model.support_, expected >= 0)


def test_categorical_columns_reach_every_rounds_counting_naive_bayes():
    # without feature selection EFSBoost is AdaBoost.M1 over the counting naive
    # Bayes, here with column 2 counted as categories (codes 0, 5, 9)
    X, y = _data(11, d=4)
    codes = np.array([0.0, 5.0, 9.0])[np.digitize(X[:, 2], [-0.5, 0.5])]
    X = np.column_stack([X[:, :2], codes, X[:, 3]])
    ours = EFSBoostClassifier(
        n_estimators=10, feature_selection=False, categorical_features=[2]
    ).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        theirs = SklearnAdaBoost(
            DiscreteNaiveBayesClassifier(
                weights_as="proportions", categorical_features=[2]
            ),
            n_estimators=10,
        ).fit(X, y)
    kept = len(ours.estimators_)
    np.testing.assert_allclose(
        2 * ours.estimator_weights_, theirs.estimator_weights_[:kept]
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(ours.estimators_[0].categories_[2], [0.0, 5.0, 9.0])


def test_a_categorical_column_keeps_its_place_in_a_shrunken_subset():
    # once features leave, the round's naive Bayes sees a subset: the categorical
    # mask is restricted to it, so the codes column is still the categorical one
    X, y = _data(12, d=5)
    codes = (X[:, 4] > 0).astype(float) * 4.0
    X = np.column_stack([X[:, :4], codes])
    model = EFSBoostClassifier(n_estimators=20, categorical_features=[4]).fit(X, y)
    assert any(len(subset) < 5 for subset in model.feature_subsets_)
    for learner, subset in zip(model.estimators_, model.feature_subsets_, strict=True):
        np.testing.assert_array_equal(learner.categorical_, subset == 4)
