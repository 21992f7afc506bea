"""Per-row costs through scikit-learn's metadata routing, and where they are refused.

A search routes ``sample_cost`` to each fold's fit and score: the tests check that the
score of a fold is the cost computed by hand from that fold's own rows' costs, and that
the fitted model is the one a direct fit on those costs gives (and changes with them).
The cost-blind estimators refuse per-row costs, naming their cost-sensitive counterpart.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn import config_context
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.metadata_routing import get_routing_for_object

from costsense.costs import ExampleCosts, example_costs
from costsense.margin import CSLDMClassifier
from costsense.metrics import make_cost_scorer
from costsense.rescale import CostWeighting
from tests._registry import classifiers, fast_instance


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, y = make_classification(
        n_samples=120, n_features=5, weights=[0.7], flip_y=0.1, random_state=0
    )
    cost = np.random.RandomState(1).uniform(1.0, 20.0, size=y.shape[0])
    return X, y, cost


def _any_error(cost: np.ndarray) -> ExampleCosts:
    """Each row's cost of any error on it, named."""
    return example_costs(fp=cost, fn=cost)


def _takes_sample_cost(cls: type) -> bool:
    return "sample_cost" in inspect.signature(cls.fit).parameters


ESTIMATORS = {
    "weighting": (CostWeighting(LogisticRegression()), {"estimator__C": [1.0]}),
    "csldm": (CSLDMClassifier(random_state=0), {"C": [1.0]}),
}


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_each_fold_is_scored_with_its_own_rows_costs(name):
    X, y, cost = _data()
    estimator, grid = ESTIMATORS[name]
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    with config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            clone(estimator).set_fit_request(sample_cost=True),
            grid,
            scoring=make_cost_scorer(cost=5).set_score_request(sample_cost=True),
            cv=folds,
            refit=False,
        ).fit(X, y, sample_cost=_any_error(cost))
    differs = []
    for k, (train, test) in enumerate(folds):
        rows = _any_error(cost[train])
        model = clone(estimator).fit(X[train], y[train], sample_cost=rows)
        wrong = model.predict(X[test], sample_cost="mean") != y[test]
        by_hand = -float(np.sum(cost[test][wrong])) / test.size
        assert search.cv_results_[f"split{k}_test_score"][0] == pytest.approx(by_hand)
        # the class-level cost (5 for a missed positive, 1 otherwise) would differ
        class_level = np.where(y[test] == 1, 5.0, 1.0)
        differs.append(by_hand != pytest.approx(-np.mean(class_level * wrong)))
    assert any(differs)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_the_routed_costs_reach_fit(name):
    X, y, cost = _data()
    estimator, grid = ESTIMATORS[name]
    flipped = np.where(y == 1, 1.0, 4.0)  # now the negatives are the costly rows
    fitted = []
    with config_context(enable_metadata_routing=True):
        for costs in (cost, flipped):
            search = GridSearchCV(
                clone(estimator).set_fit_request(sample_cost=True),
                grid,
                scoring=make_cost_scorer(cost=5).set_score_request(sample_cost=True),
                cv=3,
            ).fit(X, y, sample_cost=_any_error(costs))
            fitted.append(search.best_estimator_)
    direct = clone(estimator).fit(X, y, sample_cost=_any_error(cost))
    assert_allclose(fitted[0].decision_function(X), direct.decision_function(X))
    # other costs, another model: the fit really read them
    assert not np.allclose(
        fitted[0].decision_function(X), fitted[1].decision_function(X)
    )
    positives = [(m.predict(X, sample_cost="mean") == 1).sum() for m in fitted]
    assert positives[1] < positives[0]


def test_costs_reach_the_last_step_of_a_pipeline():
    X, y, cost = _data()
    with config_context(enable_metadata_routing=True):
        pipeline = make_pipeline(
            StandardScaler(),
            CostWeighting(LogisticRegression()).set_fit_request(sample_cost=True),
        )
        search = GridSearchCV(
            pipeline,
            {"costweighting__estimator__C": [0.1, 1.0]},
            scoring=make_cost_scorer(cost=5).set_score_request(sample_cost=True),
            cv=3,
        ).fit(X, y, sample_cost=_any_error(cost))
    best_c = search.best_params_["costweighting__estimator__C"]
    direct = make_pipeline(
        StandardScaler(), CostWeighting(LogisticRegression(C=best_c))
    ).fit(X, y, costweighting__sample_cost=_any_error(cost))
    assert_allclose(
        search.best_estimator_.decision_function(X), direct.decision_function(X)
    )


@pytest.mark.parametrize(
    "cls",
    [cls for cls in classifiers() if _takes_sample_cost(cls)],
    ids=lambda c: c.__name__,
)
def test_every_cost_sensitive_fit_can_request_the_costs(cls):
    with config_context(enable_metadata_routing=True):
        estimator = fast_instance(cls).set_fit_request(sample_cost=True)
        routing = get_routing_for_object(estimator)
        assert routing.consumes("fit", ["sample_cost"]) == {"sample_cost"}


COST_BLIND = [cls for cls in classifiers() if not _takes_sample_cost(cls)]
COUNTERPARTS = {
    "LDMClassifier": "CSLDMClassifier",
    "EFSBoostClassifier": "AsyBClassifier",
    "OBPDEFSBoostClassifier": "AsyBClassifier",
    "DiscreteNaiveBayesClassifier": "ThresholdMoving",
    "BoostedTreesClassifier": "MinimumCostClassifier",
}


def test_the_cost_blind_estimators_are_the_known_ones():
    assert {cls.__name__ for cls in COST_BLIND} == set(COUNTERPARTS)


@pytest.mark.parametrize("cls", COST_BLIND, ids=lambda c: c.__name__)
def test_cost_blind_fits_refuse_sample_cost_naming_the_counterpart(cls):
    X, y, cost = _data()
    name = cls.__name__
    with pytest.raises(TypeError) as raised:
        fast_instance(cls).fit(X, y, sample_cost=cost)
    message = str(raised.value)
    assert message.startswith(
        f"{name}.fit does not take sample_cost: {name} is cost-blind"
    )
    assert COUNTERPARTS[name] in message
    with pytest.raises(TypeError, match=r"unexpected keyword arguments: 'colour'"):
        fast_instance(cls).fit(X, y, colour="red")
