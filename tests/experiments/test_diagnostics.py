"""What a fit did, read from the fitted model: rounds, stopping, convergence."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from costsense.boosting import AdaCostClassifier, AsyBClassifier
from costsense.experiments._diagnostics import degenerate_reasons, fit_diagnostics
from costsense.margin import LDMClassifier


@pytest.fixture
def noise():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.r_[np.ones(30, int), np.zeros(90, int)]
    return X, y


def test_a_booster_reports_rounds_and_its_alpha_count(noise):
    X, y = noise
    model = AsyBClassifier(cost=5, n_estimators=20, early_stopping=False,
                           random_state=0).fit(X, y)  # fmt: skip
    found = fit_diagnostics(model, model.predict(X))
    assert found["rounds"] == len(model.estimators_) and found["rounds_planned"] == 20
    # the count is what the weights say: rounds kept with alpha <= 0
    assert found["nonpositive_alpha"] == int(np.sum(model.estimator_weights_ <= 0))
    assert found["stop_reason"] == model.stop_reason_


def test_a_booster_that_keeps_no_round_is_a_degenerate_constant_model(noise):
    X, y = noise
    # with nothing to learn and a cost this high, AdaCost's first alpha is <= 0
    model = AdaCostClassifier(cost=20, n_estimators=10, random_state=0).fit(X, y)
    assert model.stop_reason_.startswith("round 1: alpha")
    found = fit_diagnostics(model, model.predict(X))
    assert found["rounds"] == 0 and found["constant"]
    assert degenerate_reasons(found) == ["predicts one class", "no round kept"]


def test_pipelines_and_grid_searches_are_looked_through(noise):
    X, y = noise
    bare = AsyBClassifier(cost=5, n_estimators=5, random_state=0).fit(X, y)
    piped = make_pipeline(StandardScaler(), AsyBClassifier(cost=5, n_estimators=5,
                                                           random_state=0))  # fmt: skip
    searched = GridSearchCV(piped, {"asybclassifier__n_estimators": [5]}, cv=2)
    searched.fit(X, y)
    prediction = bare.predict(X)
    expected = fit_diagnostics(bare, prediction)
    assert fit_diagnostics(searched, prediction)["rounds_planned"] == 5
    assert set(fit_diagnostics(searched, prediction)) == set(expected)


def test_solver_convergence_is_read_from_the_solver(noise):
    X, y = noise
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        stalled = LDMClassifier(max_iter=1, tol=1e-12).fit(X, y)
        svm = LinearSVC(max_iter=2, tol=1e-12).fit(X, y)
    found = fit_diagnostics(stalled, stalled.predict(X))
    assert found["converged"] is False and found["n_iter"] == 1
    assert "solver not converged" in degenerate_reasons(found)
    # scikit-learn's solvers: converged when they stopped before max_iter
    assert fit_diagnostics(svm, svm.predict(X))["converged"] is False
    done = LDMClassifier().fit(X, y)
    assert fit_diagnostics(done, done.predict(X))["converged"] is True


def test_degenerate_reasons():
    assert (
        degenerate_reasons({"constant": False, "rounds": 50, "rounds_planned": 50})
        == []
    )
    assert degenerate_reasons({"constant": True}) == ["predicts one class"]
    stop = "round 2: alpha = -0.1 (the learner does not help)"
    one = {"constant": False, "rounds": 1, "rounds_planned": 50, "stop_reason": stop}
    assert degenerate_reasons(one) == ["one round kept"]
    # a perfect first learner ends boosting rightly
    perfect = {**one, "stop_reason": "round 2: perfect (no weighted error)"}
    assert degenerate_reasons(perfect) == []


def test_feature_selection_is_recorded_from_the_fitted_booster():
    from sklearn.datasets import make_classification

    from costsense.boosting import EFSBoostClassifier

    X, y = make_classification(n_samples=200, n_features=8, random_state=0)
    model = make_pipeline(
        StandardScaler(), EFSBoostClassifier(feature_update="literal")
    ).fit(X, y)
    found = fit_diagnostics(model, model.predict(X))
    booster = model[-1]
    assert found["features_kept"] == np.flatnonzero(booster.support_).tolist()
    assert found["n_features_kept"] == len(found["features_kept"])
    assert found["drop_round"] == booster.drop_round_.tolist()
    assert len(found["drop_round"]) == X.shape[1]


@pytest.mark.parametrize("update", ["literal", "weighted"])
def test_the_update_of_equation_14_is_recorded_beside_the_drop_rounds(update):
    from sklearn.datasets import make_classification

    from costsense.boosting import EFSBoostClassifier, OBPDEFSBoostClassifier

    X, y = make_classification(
        n_samples=200, n_features=6, weights=[0.8], random_state=1
    )
    for model in (
        EFSBoostClassifier(n_estimators=5, feature_update=update),
        OBPDEFSBoostClassifier(
            n_estimators=5, sampling="ancestral", feature_update=update, random_state=0
        ),
    ):
        model.fit(X, y)
        assert fit_diagnostics(model, model.predict(X))["feature_update"] == update
