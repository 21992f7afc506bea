"""Derived datasets: a KEEL set with columns removed, noise appended, one class."""

from __future__ import annotations

import json

import numpy as np
import pytest

from costsense.datasets import load_keel
from costsense.experiments import study_from_dict
from costsense.experiments._derived import check_recipe, load_derived


def test_dropping_a_categorical_column_removes_all_its_one_hot_columns():
    plain = load_keel("german")
    categories = sum(name.startswith("x0=") for name in plain.feature_names)
    X, y, pos, _ = load_derived("german1", {"from": "german", "drop": ["x0"]}, 0)
    assert categories == 4  # checking-account status A11..A14
    assert X.shape == (plain.X.shape[0], plain.X.shape[1] - categories)
    kept = [i for i, n in enumerate(plain.feature_names) if not n.startswith("x0=")]
    np.testing.assert_array_equal(X, plain.X[:, kept])
    assert pos == plain.pos_label


def test_ordinal_codes_keep_one_column_per_keel_column_and_name_the_categorical():
    # german1 as codes: KEEL's 20 columns less x0, the categorical ones named by
    # index (KEEL's mask shifted by the dropped column), one-hot's mask empty
    plain = load_keel("german", encoding="ordinal")
    X, _, _, codes = load_derived(
        "german1", {"from": "german", "drop": ["x0"]}, 0, encoding="ordinal"
    )
    np.testing.assert_array_equal(X, plain.X[:, 1:])
    np.testing.assert_array_equal(codes, np.flatnonzero(plain.categorical[1:]))
    assert codes.size == int(plain.categorical.sum()) - 1  # x0 was categorical
    for column in codes:  # codes 0 .. k-1
        values = np.unique(X[:, column])
        np.testing.assert_array_equal(values, np.arange(values.size))
    *_, none = load_derived("german1", {"from": "german", "drop": ["x0"]}, 0)
    assert none.size == 0
    # appended noise is continuous
    *_, ionosphere = load_derived(
        "ionosphere2", {"from": "ionosphere", "append_uniform": 1}, 0, "ordinal"
    )
    assert ionosphere.size == 0


def test_appended_noise_is_uniform_and_fixed_by_the_study_seed_and_name():
    plain = load_keel("ionosphere")
    recipe = {"from": "ionosphere", "append_uniform": 1}
    X, _, _, _ = load_derived("ionosphere2", recipe, 0)
    again, _, _, _ = load_derived("ionosphere2", recipe, 0)
    other, _, _, _ = load_derived("ionosphere2", recipe, 1)
    np.testing.assert_array_equal(X[:, :-1], plain.X)
    noise = X[:, -1]
    assert 0.0 <= noise.min() and noise.max() < 1.0
    np.testing.assert_array_equal(noise, again[:, -1])
    assert not np.array_equal(noise, other[:, -1])
    # a uniform column: its mean and variance near 1/2 and 1/12 (n = 351)
    assert abs(noise.mean() - 0.5) < 0.06
    assert abs(noise.var() - 1 / 12) < 0.02


def test_one_class_against_the_rest():
    X, y, pos, _ = load_derived(
        "letter-e", {"from": "letter", "collection": "balanced", "positive": "E"}, 0
    )
    original = np.asarray(load_keel("letter").y)
    assert pos == "E"
    assert set(np.unique(y)) == {"E", "rest"}
    np.testing.assert_array_equal(y == "E", original == "E")
    assert X.shape == (20000, 16)


@pytest.mark.parametrize(
    "recipe, message",
    [
        ({"from": "ionosphere", "shuffle": True}, "unknown keys"),
        ({"drop": ["x0"]}, "needs 'from'"),
        ({"from": "ionosphere", "append_uniform": -1}, "append_uniform"),
        ({"from": "ionosphere", "drop": "x0"}, "'drop' must be a list"),
        ({"from": "ionosphere", "collection": "small"}, "collection"),
    ],
)
def test_bad_recipes_are_refused_with_the_key_named(recipe, message):
    with pytest.raises(ValueError, match=message):
        check_recipe("noisy", recipe, "test")


def test_a_derived_name_must_differ_from_its_source():
    with pytest.raises(ValueError, match="name of its own"):
        check_recipe("ionosphere", {"from": "ionosphere"}, "test")


def test_an_unknown_column_names_the_columns_there_are():
    with pytest.raises(ValueError, match="has no column 'x99'"):
        load_derived("bad", {"from": "ionosphere", "drop": ["x99"]}, 0)


def _study(**extra):
    data = {
        "name": "noise",
        "datasets": ["ionosphere", "ionosphere2"],
        "costs": [1],
        "algorithms": [{"name": "ada", "method": "adaboost"}],
        "derived": {"ionosphere2": {"from": "ionosphere", "append_uniform": 1}},
    }
    data.update(extra)
    return study_from_dict(data)


def test_the_recipe_is_part_of_the_fingerprint_and_a_note_is_not():
    study = _study()
    assert json.loads(study.recipe_for("ionosphere2")) == {
        "from": "ionosphere",
        "append_uniform": 1,
    }
    assert study.recipe_for("ionosphere") == ""
    noted = _study(
        derived={
            "ionosphere2": {"from": "ionosphere", "append_uniform": 1, "note": "x"}
        }
    )
    assert noted.fingerprint() == study.fingerprint()
    two = _study(derived={"ionosphere2": {"from": "ionosphere", "append_uniform": 2}})
    assert two.fingerprint() != study.fingerprint()
    # a study without derived sets fingerprints as before the key existed
    plain = _study(datasets=["ionosphere"], derived={})
    assert "derived" not in json.loads(plain.fingerprint())


def test_a_derived_table_for_a_set_the_study_does_not_run_is_refused():
    with pytest.raises(ValueError, match="not in datasets"):
        _study(datasets=["ionosphere"])
