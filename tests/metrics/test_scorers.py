"""Tests of the scorers in scikit-learn's cross-validation and grid search: the cost
scorer is the negated mean cost, and every scorer of ``make_scorers`` scores the
minority class even when it sorts first.
"""

from __future__ import annotations

import numpy as np
import pytest
from imblearn.metrics import specificity_score as imb_specificity_score
from numpy.testing import assert_allclose
from sklearn import metrics as skm
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score, cross_validate
from sklearn.svm import LinearSVC

from costsense.metrics import (
    make_cost_scorer,
    make_scorers,
)
from tests.metrics._examples import (
    CV,
    hand_cost,
    minority,
    scorer_data,
)


@pytest.mark.parametrize("string_labels", [False, True], ids=["int", "str"])
def test_cost_scorer_in_cross_val_score_is_the_negated_mean_cost(string_labels):
    X, y, pos = scorer_data(string_labels)
    model = LogisticRegression(C=0.3)
    scores = cross_val_score(model, X, y, scoring=make_cost_scorer(cost=5), cv=CV)
    expected, inverted = [], []
    for train, test in CV.split(X):
        assert minority(y[test]) == pos
        p = clone(model).fit(X[train], y[train]).predict(X[test])
        expected.append(-hand_cost(y[test], p, pos, 5, 1))
        inverted.append(-hand_cost(y[test], p, pos, 1, 5))  # positive class swapped
    assert_allclose(scores, expected, rtol=1e-12)
    assert not np.allclose(expected, inverted)  # the check can tell them apart
    assert np.all(scores <= 0)


def test_cost_scorer_total_cost_and_pos_label():
    X, y, _ = scorer_data(True)
    model = LogisticRegression(C=0.3)
    scorer = make_cost_scorer(cost=(4, 2), pos_label="ok", normalize=False)
    scores = cross_val_score(model, X, y, scoring=scorer, cv=CV)
    expected = []
    for train, test in CV.split(X):
        p = clone(model).fit(X[train], y[train]).predict(X[test])
        expected.append(-hand_cost(y[test], p, "ok", 4, 2) * test.size)
    assert_allclose(scores, expected, rtol=1e-12)


def test_cost_scorer_in_grid_search_minimises_cost():
    X, y, pos = scorer_data(False)
    grid = [None, {0: 1, 1: 2}, {0: 1, 1: 4}, {0: 1, 1: 8}, {0: 1, 1: 20}]
    search = GridSearchCV(
        LogisticRegression(C=0.3),
        {"class_weight": grid},
        scoring=make_cost_scorer(cost=10),
        cv=CV,
    ).fit(X, y)
    means = []
    for weights in grid:
        fold_costs = []
        for train, test in CV.split(X):
            model = LogisticRegression(C=0.3, class_weight=weights)
            p = model.fit(X[train], y[train]).predict(X[test])
            fold_costs.append(hand_cost(y[test], p, pos, 10, 1))
        means.append(np.mean(fold_costs))
    means = np.array(means)
    assert_allclose(-search.cv_results_["mean_test_score"], means, rtol=1e-12)
    best = int(np.argmin(means))
    assert np.sum(np.isclose(means, means[best])) == 1  # a unique minimum
    assert best != 0  # the unweighted model is not the cheapest: a real choice
    assert search.best_params_ == {"class_weight": grid[best]}


def test_make_cost_scorer_needs_a_cost():
    with pytest.raises(ValueError, match="cost"):
        make_cost_scorer()


SCORER_KEYS = {
    "cost",
    "savings",
    "recall",
    "precision",
    "specificity",
    "g_mean",
    "f1",
    "balanced_accuracy",
    "kappa",
    "auc",
}


def test_make_scorers_in_cross_validate_minority_sorting_first():
    X, y, pos = scorer_data(True)  # "fraud" minority = classes_[0]
    model = LogisticRegression(C=0.3)
    scorers = make_scorers(cost=5)
    assert set(scorers) == SCORER_KEYS
    result = cross_validate(model, X, y, scoring=scorers, cv=CV)
    assert {f"test_{key}" for key in SCORER_KEYS} <= set(result)
    for fold, (train, test) in enumerate(CV.split(X)):
        yt = y[test]
        assert minority(yt) == pos
        fitted = clone(model).fit(X[train], y[train])
        assert fitted.classes_[0] == pos
        p = fitted.predict(X[test])
        proba = fitted.predict_proba(X[test])[:, 0]  # P("fraud")
        n_pos, n_neg = np.sum(yt == pos), np.sum(yt != pos)
        total = hand_cost(yt, p, pos, 5, 1) * yt.size
        base = min(5 * n_pos, n_neg)  # all-negative vs all-positive
        recall = skm.recall_score(yt, p, pos_label=pos)
        specificity = imb_specificity_score(yt, p, pos_label=pos)
        expected = {
            "cost": -total / yt.size,
            "savings": (base - total) / base,
            "recall": recall,
            "precision": skm.precision_score(yt, p, pos_label=pos),
            "specificity": specificity,
            "g_mean": np.sqrt(recall * specificity),
            "f1": skm.f1_score(yt, p, pos_label=pos),
            "balanced_accuracy": skm.balanced_accuracy_score(yt, p),
            "kappa": skm.cohen_kappa_score(yt, p),
            "auc": skm.roc_auc_score(yt == pos, proba),
        }
        assert expected["auc"] > 0.5  # an inverted AUC would be below 0.5
        for key, value in expected.items():
            assert result[f"test_{key}"][fold] == pytest.approx(value, rel=1e-12), key


def test_auc_scorer_with_decision_function_only():
    X, y, pos = scorer_data(True)
    model = LinearSVC(C=0.1)
    assert not hasattr(model, "predict_proba")
    result = cross_validate(model, X, y, scoring=make_scorers(cost=5), cv=CV)
    for fold, (train, test) in enumerate(CV.split(X)):
        fitted = clone(model).fit(X[train], y[train])
        # decision_function is oriented towards classes_[1] = "ok": negate it
        score = -fitted.decision_function(X[test])
        expected = skm.roc_auc_score(y[test] == pos, score)
        assert expected > 0.5
        assert result["test_auc"][fold] == pytest.approx(expected, rel=1e-12)


def test_make_scorers_pos_label_override():
    X, y, _ = scorer_data(True)
    model = LogisticRegression(C=0.3)
    result = cross_validate(
        model, X, y, scoring=make_scorers(cost=5, pos_label="ok"), cv=CV
    )
    for fold, (train, test) in enumerate(CV.split(X)):
        fitted = clone(model).fit(X[train], y[train])
        p = fitted.predict(X[test])
        proba_ok = fitted.predict_proba(X[test])[:, 1]
        yt = y[test]
        assert result["test_cost"][fold] == pytest.approx(
            -hand_cost(yt, p, "ok", 5, 1), rel=1e-12
        )
        assert result["test_recall"][fold] == pytest.approx(
            skm.recall_score(yt, p, pos_label="ok")
        )
        assert result["test_auc"][fold] == pytest.approx(
            skm.roc_auc_score(yt == "ok", proba_ok)
        )
