"""scikit-learn's estimator checks on the trees and the forest, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from costsense.tree import (
    CostSensitiveForestClassifier,
    CostSensitiveTreeClassifier,
    CostSensitiveTreeRegressor,
)

_RANDOM_DRAWS = (
    "each tree grows on a bootstrap sample drawn at random: a row repeated twice is "
    "drawn independently twice where a weight of 2 doubles one draw's chance, so "
    "the draws, and the forest, differ (scikit-learn expects the same failure of "
    "RandomForestClassifier); with bootstrap=False weights are repetitions "
    "(tests/tree/test_common.py)"
)

# the classifiers' default forms are checked with every registered estimator
# (tests/test_common.py); here only the other configurations, and the regressor
ESTIMATORS = [
    CostSensitiveTreeClassifier(criterion="pairwise", splitter="hist", random_state=0),
    CostSensitiveTreeRegressor(random_state=0),
    CostSensitiveTreeRegressor(splitter="hist", max_features=0.5, random_state=0),
    CostSensitiveForestClassifier(
        n_estimators=5, criterion="cs_gini", splitter="exact", random_state=0
    ),
]


def _expected_failed(estimator):
    if isinstance(estimator, CostSensitiveForestClassifier):
        return {"check_sample_weight_equivalence_on_dense_data": _RANDOM_DRAWS}
    return {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_forest_weights_are_repetitions_without_bootstrap():
    rng = np.random.RandomState(0)
    X = rng.uniform(size=(40, 5))
    y = rng.randint(0, 3, size=40)
    w = rng.randint(0, 4, size=40)
    params = {"n_estimators": 4, "bootstrap": False, "random_state": 0}
    weighted = CostSensitiveForestClassifier(**params).fit(X, y, sample_weight=w)
    repeated = CostSensitiveForestClassifier(**params).fit(
        np.repeat(X, w, axis=0), np.repeat(y, w)
    )
    np.testing.assert_array_equal(weighted.predict_proba(X), repeated.predict_proba(X))


def _data():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 4))
    y = (X[:, 0] > 0).astype(int)
    return X, y


@pytest.mark.parametrize(
    ("params", "pattern"),
    [
        ({"criterion": "gine"}, "criterion"),
        ({"criterion": "squared_error"}, "criterion"),
        ({"splitter": "best"}, "splitter"),
        ({"max_bins": 256}, "max_bins"),
        ({"max_depth": 0}, "max_depth"),
        ({"min_samples_leaf": 0}, "min_samples_leaf"),
        ({"max_features": 9}, "max_features"),
        ({"max_features": 1.5}, "max_features"),
        ({"min_impurity_decrease": -1.0}, "min_impurity_decrease"),
    ],
)
@pytest.mark.parametrize(
    "cls", [CostSensitiveTreeClassifier, CostSensitiveForestClassifier]
)
def test_bad_parameters_are_refused_by_name(cls, params, pattern):
    X, y = _data()
    with pytest.raises(ValueError, match=pattern):
        cls(**params).fit(X, y)


def test_regressor_refuses_classification_criteria_by_name():
    X, y = _data()
    with pytest.raises(ValueError, match="criterion"):
        CostSensitiveTreeRegressor(criterion="gini").fit(X, y.astype(float))


@pytest.mark.parametrize(
    "cls", [CostSensitiveTreeClassifier, CostSensitiveForestClassifier]
)
def test_bad_sample_scores_are_refused_by_name(cls):
    X, y = _data()
    good = np.eye(2)[y]
    for scores, pattern in [
        (good[:, :1], "sample_score has shape"),
        (good * 2, r"sample_score must hold finite task scores in \[0, 1\]"),
        (np.where(good > 0, np.nan, 0.0), "sample_score must hold finite"),
    ]:
        with pytest.raises(ValueError, match=pattern):
            cls().fit(X, y, sample_score=scores)
    with pytest.raises(ValueError, match="sample_cost and sample_score"):
        cls().fit(X, y, sample_cost=1 - good, sample_score=good)


def test_oob_score_without_bootstrap_is_refused_by_name():
    X, y = _data()
    forest = CostSensitiveForestClassifier(oob_score=True, bootstrap=False)
    with pytest.raises(ValueError, match="oob_score=True needs bootstrap=True"):
        forest.fit(X, y)


@pytest.mark.parametrize(
    "cls",
    [
        CostSensitiveTreeClassifier,
        CostSensitiveTreeRegressor,
        CostSensitiveForestClassifier,
    ],
)
def test_non_finite_samples_are_refused(cls):
    X, y = _data()
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        cls().fit(X, y)
