"""Study definitions: parameter names as a user writes them, records that round trip."""

from __future__ import annotations

import pytest

from costsense.costs import Costs
from costsense.experiments import (
    builtin_studies,
    load_study,
    plan,
    study_from_dict,
)
from costsense.experiments._cell import build_model
from costsense.experiments._study import count_cells


def study(*algorithms, **overrides):
    data = {
        "name": "s",
        "datasets": ["gaussian"],
        "costs": [5],
        "algorithms": list(algorithms),
        "protocol": {"n_splits": 2},
    }
    data.update(overrides)
    return study_from_dict(data)


def built(algorithm, s):
    cost = Costs.resolve(5, [0, 1, 1], pos_label=1)
    return build_model(s, algorithm, cost, seed=0)


def test_a_base_learner_parameter_written_as_it_is_reaches_the_base_learner():
    s = study(
        {
            "name": "boosted",
            "method": "adac2",
            "base": "tree",
            "params": {"n_estimators": 7, "max_depth": 3, "random_state": 1},
            "grid": {"min_samples_leaf": [1, 5]},
        }
    )
    (algorithm,) = s.algorithms
    model = built(algorithm, s)
    params = model.estimator.get_params()  # the grid search's pipeline
    assert params["model__n_estimators"] == 7
    assert params["model__estimator__max_depth"] == 3
    # a name both have is the method's: the tree keeps its own seed
    assert params["model__random_state"] == 1
    assert params["model__estimator__random_state"] != 1
    assert model.param_grid == {"model__estimator__min_samples_leaf": [1, 5]}
    # the nested spelling means the same model, and the same cells
    nested = study(
        {
            "name": "boosted",
            "method": "adac2",
            "base": "tree",
            "params": {
                "n_estimators": 7,
                "estimator__max_depth": 3,
                "random_state": 1,
            },
            "grid": {"estimator__min_samples_leaf": [1, 5]},
        }
    )
    assert nested.fingerprint() == s.fingerprint()


def test_plain_sets_the_base_learners_parameters_directly():
    s = study(
        {"name": "t", "method": "plain", "base": "tree", "params": {"max_depth": 2}}
    )
    model = built(s.algorithms[0], s)
    assert model.get_params()["model__max_depth"] == 2


def test_an_unknown_parameter_is_refused_naming_the_keys_that_exist():
    with pytest.raises(ValueError) as error:
        study(
            {"name": "a", "method": "adaboost", "base": "tree", "params": {"depth": 3}}
        )
    message = str(error.value)
    assert "algorithm 'a': params 'depth' is not a parameter of method 'adaboost'" in (
        message
    )
    assert "'n_estimators'" in message  # the method's names
    assert "base learner 'tree' (DecisionTreeClassifier), written as it is" in message
    assert "'max_depth'" in message  # the base learner's names
    with pytest.raises(ValueError, match=r"grid 'gamma' is not a parameter of method"):
        study({"name": "a", "method": "adaboost", "grid": {"gamma": [1, 2]}})


def test_a_base_learner_parameter_of_a_method_without_one_says_so():
    with pytest.raises(
        ValueError,
        match=r"'max_depth' is a parameter of the base learner 'tree' "
        r"\(DecisionTreeClassifier\), but method 'csldm' \(CSLDMClassifier\) does "
        r"not use a base learner; its parameters are \[",
    ):
        study(
            {"name": "m", "method": "csldm", "base": "tree", "params": {"max_depth": 3}}
        )


def test_bad_grids_and_quick_tables_are_refused_with_the_fix():
    with pytest.raises(ValueError, match=r"grid 'C' must be a non-empty list"):
        study({"name": "m", "method": "csldm", "grid": {"C": 1.0}})
    with pytest.raises(ValueError, match=r"params and grid must be tables"):
        study({"name": "m", "method": "csldm", "params": [1]})
    with pytest.raises(ValueError, match=r"quick: unknown keys \['cost'\]"):
        study({"name": "p", "method": "plain"}, quick={"cost": [5]})
    with pytest.raises(ValueError, match=r"given twice"):
        study(
            {
                "name": "a",
                "method": "adaboost",
                "base": "tree",
                "params": {"max_depth": 2, "estimator__max_depth": 3},
            }
        )


@pytest.mark.parametrize("name", builtin_studies())
def test_a_recorded_study_counts_the_cells_it_plans(name):
    for quick in (False, True):
        s = load_study(name, quick=quick)
        assert count_cells(s.to_dict()) == s.n_cells == len(plan(s))


def test_the_fingerprint_changes_with_what_determines_the_cells_only():
    # a results folder refuses another fingerprint (ResultsStore.open)
    base = {"name": "p", "method": "plain"}
    s = study(base, protocol={"n_splits": 2, "n_repeats": 1})
    assert study(base, protocol={"n_splits": 2, "n_repeats": 1},
                 title="other").fingerprint() == s.fingerprint()  # fmt: skip
    changed = [
        study(base, protocol={"n_splits": 3}),
        study(base, protocol={"n_splits": 2, "scale": "minmax"}),
        study(base, protocol={"n_splits": 2}, seed=1),
        study(base, protocol={"n_splits": 2}, gaussian_samples=100),
        study({**base, "base": "tree"}, protocol={"n_splits": 2}),
        study(base, protocol={"n_splits": 2, "categorical": "ordinal"}),
    ]
    for other in changed:
        assert other.fingerprint() != s.fingerprint()


def test_an_unknown_categorical_encoding_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="protocol.categorical must be one of"):
        study({"name": "p", "method": "plain"}, protocol={"categorical": "binary"})


def test_an_unknown_data_set_is_refused_when_the_study_loads():
    plain = {"name": "p", "method": "plain"}
    with pytest.raises(ValueError, match=r"datasets: Unknown KEEL data set "
                       r"name='piam'\. Did you mean 'pima'"):  # fmt: skip
        study(plain, datasets=["gaussian", "piam"])
    loaded = study(plain, datasets=["gaussian", "PIMA", "haberman"])
    assert loaded.datasets == ("gaussian", "PIMA", "haberman")  # as written


def test_check_keel_name_reads_no_data_and_agrees_with_load_keel():
    from costsense.datasets import check_keel_name, load_keel

    assert check_keel_name("Pima.dat") == "pima"
    with pytest.raises(ValueError, match="Did you mean 'pima'"):
        check_keel_name("piam")
    with pytest.raises(ValueError, match="Did you mean 'pima'"):
        load_keel("piam")


def test_paper_datasets_are_study_datasets_and_only_change_the_report():
    base = {"name": "p", "method": "plain"}
    s = study(base, datasets=["gaussian", "pima"])
    marked = study(base, datasets=["gaussian", "pima"], paper_datasets=["pima"])
    assert marked.paper.datasets == ("pima",)
    assert marked.to_dict()["paper_datasets"] == ["pima"]
    assert marked.fingerprint() == s.fingerprint()
    with pytest.raises(ValueError, match="paper_datasets"):
        study(base, datasets=["gaussian", "pima"], paper_datasets=["haberman"])
    # a quick run keeps the full study's like-for-like sets
    quick = study(
        base,
        datasets=["gaussian", "pima"],
        paper_datasets=["pima"],
        quick={"datasets": ["gaussian"]},
    )
    assert quick.paper.datasets == ("pima",)


def test_the_forest_study_runs_both_split_rules_and_marks_ionosphere():
    s = load_study("forest")
    assert s.paper.datasets == ("ionosphere",)
    rules = {}
    for algorithm in s.algorithms:
        model = built(algorithm, s)
        params = model.get_params()
        key = next((k for k in params if k.endswith("min_impurity_decrease")), None)
        if key is not None:
            rules[algorithm.name] = params[key]
    # paper 004's rule for its forests, ours (positive gain) for the variants
    assert rules == {
        "CBRF": None,
        "Gini-scores": None,
        "G-CSRF": None,
        "PD-CSRF": None,
        "G-CSRF (positive gain)": 0.0,
        "PD-CSRF (positive gain)": 0.0,
        # scikit-learn's and imbalanced-learn's forests keep their own default
        "RandomForest": 0.0,
        "BalancedRandomForest": 0.0,
    }


@pytest.mark.parametrize(
    ("protocol", "ratio"),
    [({"kind": "kfold", "n_splits": 5}, 1 / 4),
     ({"kind": "kfold", "n_splits": 10, "n_repeats": 3}, 1 / 9),
     ({"kind": "holdout", "test_size": 0.3}, 0.3 / 0.7),
     ({"kind": "holdout"}, 0.5)],
)  # fmt: skip
def test_the_corrected_tests_ratio_is_the_splits_test_over_training_rows(
    protocol, ratio
):
    s = study({"name": "a", "method": "plain"}, protocol=protocol)
    assert s.protocol.test_train_ratio == pytest.approx(ratio)
    assert s.report.fold_test == "corrected"


def test_forward_chaining_uses_the_mean_ratio_of_its_folds():
    from costsense.experiments import Protocol

    # fold f trains on f + 1 blocks and tests on one: ratios 1, 1/2, 1/3
    protocol = Protocol(kind="time", n_splits=3)
    assert protocol.test_train_ratio == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)


def test_the_plain_test_needs_the_papers_word_for_it():
    plain = {"fold_test": "plain"}
    with pytest.raises(ValueError, match="fold_test_source"):
        study({"name": "a", "method": "plain"}, **plain)
    with pytest.raises(ValueError, match="fold_test must be one of"):
        study({"name": "a", "method": "plain"}, fold_test="student")
    s = study({"name": "a", "method": "plain"}, **plain, fold_test_source="sect. 3")
    assert (s.report.fold_test, s.report.fold_test_source) == ("plain", "sect. 3")
    assert s.to_dict()["fold_test"] == "plain"
    # a report key: the results (and the fingerprint) do not change
    assert s.fingerprint() == study({"name": "a", "method": "plain"}).fingerprint()
