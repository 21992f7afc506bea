"""The catalog describes each base learner once (``BASES``); the lists derive."""

import warnings

import numpy as np
import pytest
from sklearn.base import is_classifier, is_regressor
from sklearn.utils.validation import has_fit_parameter

from costsense.experiments import (
    BASE_NAMES,
    BASES,
    CATALOG,
    CLASSIFIER_BASES,
    BaseSpec,
    make_model,
)
from costsense.experiments._catalog import PROBABILISTIC_BASES, REGRESSION_BASES


@pytest.mark.parametrize("name", list(BASES))
def test_each_base_builds_the_kind_it_declares(name):
    spec = BASES[name]
    learner = spec.build(7)
    assert spec.name == name
    if spec.kind == "classifier":
        assert is_classifier(learner)
        assert has_fit_parameter(learner, "sample_weight")
        assert hasattr(learner, "predict_proba") == spec.probabilistic
    else:
        assert is_regressor(learner)
    params = learner.get_params()
    if spec.seeded:
        assert params["random_state"] == 7
    elif "random_state" in params:
        assert params["random_state"] is None
    for key, value in spec.params.items():
        assert params[key] == value


def test_each_build_is_a_new_learner():
    first, second = BASES["tree"].build(0), BASES["tree"].build(0)
    assert first is not second
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    first.fit(X, [0, 0, 1, 1])
    assert not hasattr(second, "tree_")


def test_the_name_lists_partition_the_bases_in_their_order():
    assert BASE_NAMES == CLASSIFIER_BASES + REGRESSION_BASES
    assert sorted(BASE_NAMES) == sorted(BASES)
    assert set(CLASSIFIER_BASES).isdisjoint(REGRESSION_BASES)
    assert [n for n in BASES if n in CLASSIFIER_BASES] == list(CLASSIFIER_BASES)
    assert set(PROBABILISTIC_BASES) == {
        n for n in CLASSIFIER_BASES if BASES[n].probabilistic
    }
    assert "perceptron" in CLASSIFIER_BASES and "perceptron" not in PROBABILISTIC_BASES


def test_every_catalog_model_names_only_described_bases():
    for spec in CATALOG.values():
        assert set(spec.bases) <= set(BASES), spec.name
        if spec.default_base is not None:
            assert spec.default_base in spec.bases


def test_a_registered_spec_is_built_by_make_model():
    BASES["shallow"] = BaseSpec(
        "shallow", "sklearn.tree:DecisionTreeClassifier", {"max_depth": 2}
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            pipeline = make_model("plain", base="shallow", cost=5, pos_label=1, seed=9)
        learner = pipeline[-1]
        assert (learner.max_depth, learner.random_state) == (2, 9)
    finally:
        del BASES["shallow"]


def test_per_row_costs_refuse_cost_blind_models_in_fit_but_not_when_scored():
    from costsense.experiments import CATALOG, refusals

    blind = sorted(n for n, s in CATALOG.items() if not s.cost_sensitive)
    fixed = sorted(
        n for n, s in CATALOG.items() if s.cost_sensitive and not s.row_costs
    )
    assert "plain" in blind and "random-forest" in blind and fixed
    (option, message), *_ = refusals(blind, row_costs=True)
    assert option == "--fn-cost" and "do not take per-row costs" in message
    assert refusals(blind, row_costs=True, scored=True) == []
    # a cost-sensitive model that cannot learn them stays refused, with the rule
    (_, message), *_ = refusals(fixed[:1], row_costs=True, scored=True)
    assert f"models {fixed[:1]}" in message
    assert "cost-blind models run in evaluate" in message
