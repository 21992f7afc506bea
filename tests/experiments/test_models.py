"""Named models: categorical columns declared to the scaling and the method."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from costsense.experiments import make_model
from costsense.experiments._models import ScaleContinuous


def _codes_and_numbers(seed: int = 0):
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [
            rng.normal(5.0, 2.0, 50),
            rng.integers(0, 4, 50).astype(float),  # codes
            rng.uniform(-3.0, 9.0, 50),
            rng.integers(0, 2, 50).astype(float),  # codes
        ]
    )
    return X, (rng.uniform(size=50) < 0.3).astype(int)


@pytest.mark.parametrize("scaler", [StandardScaler(), MinMaxScaler()])
def test_scale_continuous_scales_the_other_columns_in_place(scaler):
    # the codes pass unchanged, in their place; the rest is what the scaler alone
    # makes of the continuous columns
    X, _ = _codes_and_numbers()
    step = ScaleContinuous(scaler, categorical_features=[1, 3]).fit(X)
    out = step.transform(X)
    np.testing.assert_array_equal(out[:, [1, 3]], X[:, [1, 3]])
    alone = type(scaler)().fit_transform(X[:, [0, 2]])
    np.testing.assert_allclose(out[:, [0, 2]], alone)
    # the input is left as it was
    assert not np.array_equal(out[:, 0], X[:, 0])
    again, _ = _codes_and_numbers()
    np.testing.assert_array_equal(X, again)


def test_scale_continuous_without_a_scaler_is_the_identity():
    X, _ = _codes_and_numbers(1)
    out = ScaleContinuous("passthrough", categorical_features=[1]).fit_transform(X)
    np.testing.assert_array_equal(out, X)


@pytest.mark.parametrize(
    ("method", "base", "where"),
    [
        ("efsboost", "logistic", "model__categorical_features"),
        ("obpd-efsboost", "logistic", "model__categorical_features"),
        ("smoteboost", "discrete-naive-bayes", "model__categorical_features"),
        ("rwoboost", "discrete-naive-bayes", "model__categorical_features"),
        ("obpdboost", "discrete-naive-bayes", "model__categorical_features"),
        ("adaboost", "discrete-naive-bayes", "model__estimator__categorical_features"),
    ],
)
def test_the_method_or_else_its_base_learner_gets_the_categorical_columns(
    method, base, where
):
    model = make_model(
        method, base=base, cost=1, pos_label=1, categorical_features=[1, 3]
    )
    assert model.get_params()[where] == [1, 3]
    assert isinstance(model["scale"], ScaleContinuous)
    assert model["scale"].categorical_features == [1, 3]
    plain = make_model(method, base=base, cost=1, pos_label=1)
    assert plain.get_params()[where] is None
    assert isinstance(plain["scale"], StandardScaler)


def test_a_method_that_takes_no_categories_is_left_as_it_was():
    model = make_model(
        "random-forest", base="tree", cost=1, pos_label=1, categorical_features=[1]
    )
    params = model["model"].get_params()
    assert not any(k.endswith("categorical_features") for k in params)


def test_a_declared_pipeline_counts_the_codes_as_categories():
    # AdaBoost over the counting naive Bayes: each round's learner treats the code
    # columns as categories (their values, unscaled), the rest as bins
    X, y = _codes_and_numbers(2)
    model = make_model(
        "adaboost",
        base="discrete-naive-bayes",
        cost=1,
        pos_label=1,
        categorical_features=[1, 3],
    )
    model.set_params(model__n_estimators=3).fit(X, y)
    learner = model["model"].estimators_[0]
    np.testing.assert_array_equal(learner.categorical_, [False, True, False, True])
    np.testing.assert_array_equal(learner.categories_[1], np.unique(X[:, 1]))
