"""OBPD-EFSBoost: the paper's system is OBPD balancing followed by EFSBoost."""

from __future__ import annotations

import numpy as np
import pytest
from imblearn.pipeline import make_pipeline
from sklearn.datasets import make_classification

from costsense.boosting import EFSBoostClassifier, OBPDEFSBoostClassifier
from costsense.sampling import OBPDSampler


def _data(seed=0):
    return make_classification(
        n_samples=240, n_features=8, n_informative=4, weights=[0.8], random_state=seed
    )


@pytest.mark.parametrize("sampling, steps", [("ancestral", 100), ("gibbs", 3)])
def test_equals_the_pipeline_of_obpd_then_efsboost_for_the_same_seed(sampling, steps):
    X, y = _data()
    model = OBPDEFSBoostClassifier(
        n_estimators=10,
        sampling=sampling,
        gibbs_steps=steps,
        max_components=3,
        random_state=7,
    ).fit(X, y)
    pipeline = make_pipeline(
        OBPDSampler(
            n_components="fj",
            sampler=sampling,
            gibbs_steps=steps,
            max_components=3,
            random_state=7,
        ),
        EFSBoostClassifier(n_estimators=10),
    ).fit(X, y)
    X_test, _ = _data(seed=1)
    np.testing.assert_array_equal(model.predict(X_test), pipeline.predict(X_test))
    np.testing.assert_allclose(
        model.decision_function(X_test), pipeline.decision_function(X_test)
    )
    np.testing.assert_array_equal(model.support_, pipeline[-1].support_)


def test_the_booster_trains_on_a_balanced_set_and_its_parts_are_reachable():
    X, y = _data()
    model = OBPDEFSBoostClassifier(
        n_estimators=10, sampling="ancestral", max_components=2, random_state=0
    ).fit(X, y)
    majority = np.bincount(y).max()
    # algorithm 2, step 1: every class grown to the majority's size
    assert model.n_synthetic_ == 2 * majority - y.size
    assert model.sampler_.sampling_strategy_ == {1: majority - int((y == 1).sum())}
    # the feature subsets only shrink, and the last one is support_
    subsets = [set(s.tolist()) for s in model.selected_features_]
    pairs = zip(subsets[:-1], subsets[1:], strict=True)
    assert all(later <= earlier for earlier, later in pairs)
    kept = set(np.flatnonzero(model.support_).tolist())
    assert kept <= subsets[-1]
    assert model.selected_features_ == list(model.booster_.feature_subsets_)


def test_sample_weight_starts_efsboost_and_synthetic_rows_take_their_class_mean():
    X, y = _data()
    w = np.where(y == 1, 3.0, 1.0)
    params = {"n_estimators": 5, "sampling": "ancestral", "max_components": 2}
    model = OBPDEFSBoostClassifier(**params, random_state=0).fit(X, y, sample_weight=w)
    sampler = OBPDSampler(
        n_components="fj", sampler="ancestral", max_components=2, random_state=0
    )
    X_res, y_res = sampler.fit_resample(X, y)
    # the synthetic rows are all positive here: their class's mean weight is 3
    expected = np.concatenate([w, np.full(len(y_res) - len(y), 3.0)])
    booster = EFSBoostClassifier(n_estimators=5).fit(
        X_res, y_res, sample_weight=expected
    )
    np.testing.assert_allclose(
        model.booster_.feature_weights_, booster.feature_weights_
    )
    np.testing.assert_array_equal(model.predict(X), booster.predict(X))
    unweighted = OBPDEFSBoostClassifier(**params, random_state=0).fit(X, y)
    assert not np.allclose(
        unweighted.booster_.feature_weights_, model.booster_.feature_weights_
    )


def test_a_categorical_column_is_balanced_with_observed_codes_and_counted():
    # OBPD draws the declared column by roulette wheel: the balanced set that
    # EFSBoost trains on holds only codes the data has, so its counting naive
    # Bayes's categories are exactly the observed codes (a continuous draw would
    # add values in between)
    X, y = _data(5)
    rng = np.random.default_rng(5)
    codes = rng.choice([1.0, 4.0, 6.0], size=len(y), p=[0.5, 0.3, 0.2])
    X = np.column_stack([X[:, :5], codes])
    model = OBPDEFSBoostClassifier(
        sampling="ancestral", categorical_features=[5], random_state=0
    ).fit(X, y)
    assert model.n_synthetic_ > 0
    first = model.booster_.estimators_[0]
    np.testing.assert_array_equal(first.categorical_, [False] * 5 + [True])
    np.testing.assert_array_equal(first.categories_[5], [1.0, 4.0, 6.0])
    undeclared = OBPDEFSBoostClassifier(sampling="ancestral", random_state=0).fit(X, y)
    assert not undeclared.booster_.estimators_[0].categorical_.any()
