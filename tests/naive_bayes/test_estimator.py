"""Discrete naive Bayes (paper 003, equation 8): CategoricalNB, weights, smoothing,
unseen categories and parameters."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import logsumexp
from sklearn.datasets import make_classification
from sklearn.naive_bayes import CategoricalNB

from costsense.naive_bayes import DiscreteNaiveBayesClassifier


def _integer_data(n_classes: int, seed: int = 0, n: int = 120):
    """Integer features in which every category of every feature occurs."""
    rng = np.random.default_rng(seed)
    sizes = [2, 3, 5, 4]
    y = rng.integers(0, n_classes, n)
    X = np.column_stack([(rng.integers(0, s, n) + y) % s for s in sizes])
    for m, s in enumerate(sizes):
        X[:s, m] = np.arange(s)  # every category present
    y[:n_classes] = np.arange(n_classes)
    return X, y


def _continuous_data(n: int = 150, seed: int = 0, n_classes: int = 3):
    X, y = make_classification(
        n_samples=n,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        n_classes=n_classes,
        n_clusters_per_class=1,
        random_state=seed,
    )
    X[:, 3] = np.round(X[:, 3])  # a feature with few distinct values, ties
    return X, y


# 1. CategoricalNB on integer categories ----------------------------------------


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("declared", ["categorical", "one_bin_per_value"])
@pytest.mark.parametrize("alpha", [1.0, 0.3])
def test_integer_categories_give_categorical_nb(n_classes, weighted, declared, alpha):
    X, y = _integer_data(n_classes)
    weight = np.random.default_rng(1).uniform(0.1, 3.0, len(y)) if weighted else None
    if declared == "categorical":
        ours = DiscreteNaiveBayesClassifier(
            alpha=alpha, categorical_features=np.ones(X.shape[1], dtype=bool)
        )
    else:  # at most n_bins distinct values: one quantile bin per value
        ours = DiscreteNaiveBayesClassifier(alpha=alpha, n_bins=5)
    ours.fit(X.astype(float), y, sample_weight=weight)
    theirs = CategoricalNB(alpha=alpha).fit(X, y, sample_weight=weight)
    assert_array_equal(ours.n_bins_, theirs.n_categories_)
    assert_allclose(ours.class_count_, theirs.class_count_)
    assert_allclose(ours.class_log_prior_, theirs.class_log_prior_)
    for mine, reference in zip(
        ours.feature_log_prob_, theirs.feature_log_prob_, strict=True
    ):
        assert_allclose(mine, reference, rtol=1e-12)
    rng = np.random.default_rng(2)
    X_test = np.column_stack([rng.integers(0, s, 50) for s in theirs.n_categories_])
    assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test))
    assert_allclose(ours.predict_log_proba(X_test), theirs.predict_log_proba(X_test))
    assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    # entry [i, m, c] is CategoricalNB's log P(x_im | c)
    per_feature = ours.feature_log_likelihood(X_test)
    for m, table in enumerate(theirs.feature_log_prob_):
        assert_allclose(per_feature[:, m, :], table[:, X_test[:, m]].T)


@pytest.mark.parametrize("fit_prior", [True, False])
def test_priors_follow_categorical_nb(fit_prior):
    X, y = _integer_data(3)
    mask = np.ones(X.shape[1], dtype=bool)
    for prior in (None, [0.5, 0.2, 0.3]):
        ours = DiscreteNaiveBayesClassifier(
            fit_prior=fit_prior, class_prior=prior, categorical_features=mask
        ).fit(X, y)
        theirs = CategoricalNB(fit_prior=fit_prior, class_prior=prior).fit(X, y)
        assert_allclose(ours.class_log_prior_, theirs.class_log_prior_)
        assert_allclose(ours.predict_proba(X), theirs.predict_proba(X))


# 2. integer weights = repeated rows, 3. zero weights -----------------------------


def _assert_same_model(a, b, X):
    assert_array_equal(a.n_bins_, b.n_bins_)
    for edges_a, edges_b in zip(a.bin_edges_, b.bin_edges_, strict=True):
        assert_array_equal(edges_a, edges_b)
    for cats_a, cats_b in zip(a.categories_, b.categories_, strict=True):
        assert_array_equal(cats_a, cats_b)
    assert_allclose(a.class_count_, b.class_count_)
    for prob_a, prob_b in zip(a.feature_log_prob_, b.feature_log_prob_, strict=True):
        assert_allclose(prob_a, prob_b, rtol=1e-12)
    assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-12)


@pytest.mark.parametrize("binning", ["quantile", "mdl"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_integer_weights_equal_repeated_rows(binning, n_classes):
    X, y = _continuous_data(n_classes=n_classes)
    weight = np.random.default_rng(3).integers(0, 4, len(y))
    params = {"binning": binning, "n_bins": 6, "categorical_features": [3]}
    weighted = DiscreteNaiveBayesClassifier(**params).fit(X, y, sample_weight=weight)
    repeated = DiscreteNaiveBayesClassifier(**params).fit(
        np.repeat(X, weight, axis=0), np.repeat(y, weight)
    )
    _assert_same_model(weighted, repeated, X)
    # the weights matter: unweighted, the model differs
    plain = DiscreteNaiveBayesClassifier(**params).fit(X, y)
    assert not np.allclose(plain.predict_proba(X), weighted.predict_proba(X))
    if binning == "mdl":  # the comparison is of real cuts, not of one bin each
        assert weighted.n_bins_[:3].max() >= 2


@pytest.mark.parametrize("binning", ["quantile", "mdl"])
def test_zero_weight_rows_change_nothing(binning):
    X, y = _continuous_data(n_classes=2)
    rng = np.random.default_rng(4)
    # far-away rows with new categories: any influence would move edges or add
    # categories
    extra = rng.normal(scale=100.0, size=(40, X.shape[1]))
    extra[:, 3] = rng.integers(50, 60, 40)
    X_all = np.vstack([X, extra])
    y_all = np.concatenate([y, rng.integers(0, 2, 40)])
    weight = np.concatenate([rng.uniform(0.5, 2.0, len(y)), np.zeros(40)])
    params = {"binning": binning, "n_bins": 5, "categorical_features": [3]}
    with_zeros = DiscreteNaiveBayesClassifier(**params).fit(
        X_all, y_all, sample_weight=weight
    )
    without = DiscreteNaiveBayesClassifier(**params).fit(
        X, y, sample_weight=weight[: len(y)]
    )
    _assert_same_model(with_zeros, without, X_all)


# 5. the likelihoods: consistency, smoothing by hand --------------------------------


@pytest.mark.parametrize("binning", ["quantile", "mdl"])
def test_predict_log_proba_is_prior_plus_feature_log_likelihoods(binning):
    X, y = _continuous_data(seed=7)
    model = DiscreteNaiveBayesClassifier(binning=binning, categorical_features=[3]).fit(
        X, y
    )
    per_feature = model.feature_log_likelihood(X)
    assert per_feature.shape == (len(X), X.shape[1], 3)
    joint = model.class_log_prior_ + per_feature.sum(axis=1)
    expected = joint - logsumexp(joint, axis=1, keepdims=True)
    assert_allclose(model.predict_log_proba(X), expected)
    assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
    assert_array_equal(model.predict(X), model.classes_[np.argmax(joint, axis=1)])


def test_smoothing_formula_by_hand():
    # class 0: rows 0, 0, 1 of weights 1, 2, 1 (W_0 = 4); class 1: rows 1, 2 of
    # weights 3, 1 (W_1 = 4); categories 0, 1, 2 (B = 3); alpha = 0.5
    X = np.array([[0.0], [0.0], [1.0], [1.0], [2.0]])
    y = np.array(["a", "a", "a", "b", "b"])
    model = DiscreteNaiveBayesClassifier(alpha=0.5, categorical_features=[0]).fit(
        X, y, sample_weight=[1, 2, 1, 3, 1]
    )
    expected = np.array(
        [[3.5 / 5.5, 1.5 / 5.5, 0.5 / 5.5], [0.5 / 5.5, 3.5 / 5.5, 1.5 / 5.5]]
    )
    assert_allclose(np.exp(model.feature_log_prob_[0]), expected)
    assert_allclose(model.class_count_, [4, 4])
    # equal priors: P(a | x = 1) = 1.5 / (1.5 + 3.5)
    assert_allclose(model.predict_proba([[1.0]]), [[0.3, 0.7]])
    # with priors 0.8 / 0.2 and x = 2: 0.8 * 0.5 / (0.8 * 0.5 + 0.2 * 1.5)
    model.set_params(class_prior=[0.8, 0.2]).fit(X, y, sample_weight=[1, 2, 1, 3, 1])
    assert_allclose(model.predict_proba([[2.0]])[0, 0], 0.4 / 0.7)


# 6. unseen categories and values outside the training range ---------------------


def test_unseen_category_gets_the_probability_of_one_more_empty_category():
    X, y = _integer_data(3)
    alpha = 0.7
    model = DiscreteNaiveBayesClassifier(alpha=alpha, categorical_features=[0, 1]).fit(
        X, y
    )
    probe = np.array([[7.0, 0.5, -100.0, 100.0], [-3.0, 2.0, 1.0, 2.0]])
    per_feature = model.feature_log_likelihood(probe)
    for m in (0, 1):  # 7, -3 and 0.5 were never seen; 2.0 was
        unseen = np.log(alpha / (model.class_count_ + alpha * (model.n_bins_[m] + 1)))
        assert_allclose(per_feature[0, m], unseen)
    assert_allclose(
        per_feature[1, 0],
        np.log(alpha / (model.class_count_ + alpha * (model.n_bins_[0] + 1))),
    )
    assert_allclose(per_feature[1, 1], model.feature_log_prob_[1][:, 2])
    # binned features: out-of-range values fall in the first and last bins
    assert_allclose(per_feature[0, 2], model.feature_log_prob_[2][:, 0])
    assert_allclose(per_feature[0, 3], model.feature_log_prob_[3][:, -1])
    proba = model.predict_proba(probe)
    assert np.all(np.isfinite(proba))
    assert_allclose(proba.sum(axis=1), 1.0)


# parameters ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "pattern"),
    [
        ({"categorical_features": [4]}, "categorical_features has an index outside"),
        ({"categorical_features": [True, False]}, "boolean mask needs .*got 2"),
        ({"categorical_features": [0.5]}, "column indices"),
        ({"class_prior": [0.5, 0.5, 0.0]}, "class_prior has shape"),
        ({"class_prior": [-1.0, 2.0]}, "non-negative"),
        ({"alpha": 0.0}, "'alpha' parameter"),
        ({"n_bins": 1}, "'n_bins' parameter"),
        ({"binning": "uniform"}, "'binning' parameter"),
    ],
)
def test_bad_parameters_name_the_parameter(params, pattern):
    X, y = _continuous_data(n_classes=2)
    with pytest.raises(ValueError, match=pattern):
        DiscreteNaiveBayesClassifier(**params).fit(X, y)


def test_weights_as_proportions_reads_a_distribution_as_that_many_rows():
    """``weights_as="proportions"``: ``D`` summing to 1 acts as ``n D`` counts."""
    rng = np.random.RandomState(3)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + rng.normal(scale=0.5, size=60) > 0).astype(int)
    w = rng.randint(1, 4, size=60).astype(float)
    D = w / w.sum()
    as_share = DiscreteNaiveBayesClassifier(weights_as="proportions").fit(
        X, y, sample_weight=D
    )
    as_counts = DiscreteNaiveBayesClassifier().fit(
        X, y, sample_weight=w * (60 / w.sum())
    )
    np.testing.assert_allclose(as_share.predict_proba(X), as_counts.predict_proba(X))
    # scale-free: any multiple of D gives the same model
    scaled = DiscreteNaiveBayesClassifier(weights_as="proportions").fit(
        X, y, sample_weight=7 * D
    )
    np.testing.assert_allclose(scaled.predict_proba(X), as_share.predict_proba(X))
    # whereas counts read D itself: alpha = 1 then swamps the data
    swamped = DiscreteNaiveBayesClassifier().fit(X, y, sample_weight=D)
    assert not np.allclose(swamped.predict_proba(X), as_share.predict_proba(X))
