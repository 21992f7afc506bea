"""BoostedTreesClassifier: LightGBM's trees, read into costsense's node arrays."""

from __future__ import annotations

import lightgbm
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.metrics import log_loss
from sklearn.utils import check_random_state

from costsense.tree import BoostedTreesClassifier, PackedForest
from costsense.tree._boosted import _convert


def _booster(X, y, n_classes, rounds=15, leaves=7):
    params = {
        "objective": "binary" if n_classes == 2 else "multiclass",
        "num_class": 1 if n_classes == 2 else n_classes,
        "num_leaves": leaves,
        "min_data_in_leaf": 5,
        "use_missing": False,
        "verbosity": -1,
        "seed": 0,
    }
    return lightgbm.train(params, lightgbm.Dataset(X, y), num_boost_round=rounds)


def _raw(trees: PackedForest, X):
    model = BoostedTreesClassifier()
    model.trees_ = trees
    return model._raw(np.ascontiguousarray(X, dtype=np.float64))


@pytest.mark.parametrize("n_classes", [2, 3])
def test_converted_trees_give_lightgbms_raw_scores_on_new_rows(n_classes):
    X, y = make_classification(
        400, n_features=6, n_informative=4, n_classes=n_classes, random_state=0
    )
    booster = _booster(X, y, n_classes)
    trees = _convert(booster.model_to_string(), 1 if n_classes == 2 else n_classes)
    new = check_random_state(1).normal(size=(300, 6)) * 2
    # rows exactly on a threshold go left, as in LightGBM
    inner = np.flatnonzero(trees.feature >= 0)[:20]
    on_threshold = np.zeros((inner.size, 6))
    on_threshold[np.arange(inner.size), trees.feature[inner]] = trees.threshold[inner]
    for rows in (new, on_threshold):
        theirs = booster.predict(rows, raw_score=True).reshape(len(rows), -1)
        np.testing.assert_allclose(_raw(trees, rows), theirs, rtol=1e-12, atol=1e-12)


def test_trees_of_one_leaf_convert_to_their_value():
    """Rows no feature tells apart: every tree is one leaf (LightGBM's start)."""
    X = np.ones((100, 3))
    y = np.r_[np.zeros(70), np.ones(30)]
    booster = _booster(X, y, 2, rounds=3)
    trees = _convert(booster.model_to_string(), 1)
    assert np.all(trees.feature == -1)
    assert trees.roots.tolist() == list(range(booster.num_trees() + 1))
    theirs = booster.predict(X[:2], raw_score=True)
    np.testing.assert_allclose(_raw(trees, X[:2])[:, 0], theirs, rtol=1e-12)
    # the raw score starts at the base rate's log-odds
    assert theirs[0] == pytest.approx(np.log(0.3 / 0.7), rel=1e-6)


def test_pre_order_layout_left_child_next_right_child_inside_its_tree():
    X, y = make_classification(300, n_features=5, random_state=2)
    trees = _convert(_booster(X, y, 2).model_to_string(), 1)
    for start, end in zip(trees.roots[:-1], trees.roots[1:], strict=True):
        nodes = np.arange(start, end)
        inner = nodes[trees.feature[nodes] >= 0]
        leaves = nodes.size - inner.size
        assert leaves == inner.size + 1  # a binary tree
        assert np.all(trees.right[inner] > inner + 1)
        assert np.all(trees.right[inner] < end)


def test_the_kept_round_is_the_one_of_least_validation_loss():
    """``validation_loss_`` is the log-loss, on the held-out rows, of the
    converted model's own probabilities: early stopping kept that round."""
    X, y = make_classification(
        3000, n_features=10, flip_y=0.2, weights=[0.7], random_state=3
    )
    model = BoostedTreesClassifier(random_state=0).fit(X, y)
    _, valid = model._split(y, check_random_state(0))
    assert valid.size == 300
    proba = model.predict_proba(X[valid])
    assert log_loss(y[valid], proba) == pytest.approx(model.validation_loss_, rel=1e-6)
    assert model.n_iter_ < model.max_iter  # noisy labels: it stopped early
    train = np.setdiff1d(np.arange(y.size), valid)
    later = BoostedTreesClassifier(
        random_state=0,
        early_stopping=False,
        max_iter=model.n_iter_ + model.n_iter_no_change,
    ).fit(X[train], y[train])
    # the rounds after the kept one, on the same training rows, fit the held-out
    # rows no better: that is why they were dropped
    assert log_loss(y[valid], later.predict_proba(X[valid])) >= (
        model.validation_loss_ - 1e-12
    )


def test_without_early_stopping_every_round_is_kept():
    X, y = make_classification(200, random_state=4)
    model = BoostedTreesClassifier(early_stopping=False, max_iter=7).fit(X, y)
    assert model.n_iter_ == 7 and model.validation_loss_ is None
    assert model.trees_.roots.size == 8


def test_probabilities_are_a_softmax_of_the_raw_scores_and_predict_is_their_argmax():
    X, y = make_classification(
        600, n_features=8, n_informative=5, n_classes=3, random_state=5
    )
    labels = np.array(["a", "b", "c"])[y]
    model = BoostedTreesClassifier(random_state=0).fit(X, labels)
    raw = model.decision_function(X)
    proba = model.predict_proba(X)
    assert raw.shape == (600, 3) and model.n_trees_per_iteration_ == 3
    expected = np.exp(raw - raw.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(proba, expected, rtol=1e-12)
    np.testing.assert_array_equal(model.predict(X), model.classes_[proba.argmax(1)])
    assert (model.predict(X) == labels).mean() > 0.8


def test_two_classes_give_the_sigmoid_of_the_log_odds_of_the_second_class():
    X, y = make_classification(500, random_state=6)
    model = BoostedTreesClassifier(random_state=0).fit(X, y)
    raw = model.decision_function(X)
    assert raw.shape == (500,)
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], 1 / (1 + np.exp(-raw)))


def test_results_do_not_depend_on_threads():
    X, y = make_classification(2000, n_features=12, random_state=7)
    one = BoostedTreesClassifier(random_state=0, n_jobs=1).fit(X, y)
    two = BoostedTreesClassifier(random_state=0, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))


def test_the_fitted_model_holds_numbers_only():
    """No LightGBM object survives the fit: the trees are costsense's arrays."""
    X, y = make_classification(300, random_state=8)
    model = BoostedTreesClassifier(random_state=0).fit(X, y)
    seen = [model.__dict__, model.trees_.__dict__]
    for attributes in seen:
        for value in attributes.values():
            assert type(value).__module__.split(".")[0] in (
                "numpy",
                "builtins",
                "costsense",
            ) or isinstance(value, (tuple, int, float, type(None)))
    assert all(isinstance(v, np.ndarray) for v in model.trees_.values)
