"""The study-format reference cannot go stale: its example loads, it names every key."""

from __future__ import annotations

import dataclasses
import re
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

from costsense.experiments import (
    ALL_METRICS,
    Algorithm,
    Protocol,
    load_study,
    study_from_dict,
)

# the parser's own key lists (private: the page is checked against the parser)
from costsense.experiments._claims import _COMMON, _KINDS, _OPTIONAL
from costsense.experiments._derived import RECIPE_KEYS, load_derived
from costsense.experiments._files import FILE_KEYS
from costsense.experiments._models import SCALERS
from costsense.experiments._study_file import PAPER_KEYS, SECTION_KEYS, STUDY_KEYS

PAGE = Path(__file__).parents[2] / "docs" / "guide" / "study_format.rst"


def example_text() -> str:
    """The TOML block under the page's "A complete example" heading."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("\nA complete example\n", 1)[1]
    lines = section.split(".. code-block:: toml\n", 1)[1].splitlines()
    block = []
    for line in lines[1:]:  # a blank line follows the directive
        if line and not line.startswith(" "):
            break
        block.append(line)
    return textwrap.dedent("\n".join(block)).strip() + "\n"


def example() -> dict:
    return tomllib.loads(example_text())


def test_the_example_loads_with_the_counts_its_keys_give():
    study = study_from_dict(example(), source="study_format.rst")
    # pima and haberman at 2 costs, gaussian at its 2 dataset_costs, the derived
    # set at 2: 8 rows x 3 algorithms x 2 repeats x 5 folds
    assert study.n_cells == 8 * 3 * 2 * 5
    assert study.costs_for("gaussian") == (2, 8)  # two ratios, not a pair
    adac2 = study.algorithms[2]
    # the base learner's max_depth written as it is goes to the base learner
    assert adac2.params == {"n_estimators": 20, "estimator__max_depth": 3}
    assert adac2.grid == {"learning_rate": [0.5, 1.0]}
    quick = study_from_dict(example(), quick=True)
    assert quick.n_cells == 1 * 1 * 3 * 1 * 5
    assert quick.protocol.n_splits == 5 and quick.derived == {}


def test_the_example_as_a_file_is_the_same_study(tmp_path):
    path = tmp_path / "my_study.toml"
    path.write_text(example_text())
    assert load_study(path).fingerprint() == study_from_dict(example()).fingerprint()


def test_the_examples_derived_set_builds_as_described():
    study = study_from_dict(example())
    X, y, pos_label, _ = load_derived(
        "ionosphere-noisy", study.derived["ionosphere-noisy"], study.seed
    )
    # ionosphere's 33 columns, x0 dropped, two noise columns appended
    assert X.shape == (351, 33 - 1 + 2)
    assert pos_label == "b" and set(np.unique(y)) == {"b", "rest"}
    assert ((X[:, -2:] >= 0) & (X[:, -2:] < 1)).all()


def test_the_example_uses_every_key_of_a_study_protocol_algorithm_and_derived_set():
    data = example()
    # [files.<name>] needs a file on disk: its own section shows it, and
    # tests/experiments/test_files.py loads such a study
    assert set(data) == set(STUDY_KEYS) - {"files"}
    assert set(data["protocol"]) == set(Protocol.__dataclass_fields__)
    used = {key for entry in data["algorithms"] for key in entry}
    assert used == set(Algorithm.__dataclass_fields__)
    assert set(data["derived"]["ionosphere-noisy"]) == set(RECIPE_KEYS)
    assert set(data["paper"][0]) == set(PAPER_KEYS)


def test_the_page_names_every_key_and_value_the_parser_accepts():
    literals = set(re.findall(r"``([^`]+)``", PAGE.read_text(encoding="utf-8")))
    claim_keys = _COMMON | _OPTIONAL | set(_KINDS)
    for keys in _KINDS.values():
        claim_keys |= set(" ".join(keys[:2]).split())
    expected = {
        *STUDY_KEYS,
        *Protocol.__dataclass_fields__,
        *Algorithm.__dataclass_fields__,
        *RECIPE_KEYS,
        *FILE_KEYS,
        *PAPER_KEYS,
        *claim_keys,
        *(key for keys in SECTION_KEYS.values() for key in keys),
        *(f'"{kind}"' for kind in SECTION_KEYS),
        *"kind title text level".split(),
        *ALL_METRICS,
        *(f'"{name}"' for name in SCALERS),
        '"kfold"',
        '"holdout"',
    }
    assert expected - literals == set()


def test_a_method_gets_its_own_default_base_and_invalid_pairs_are_refused():
    from costsense.experiments import study_from_dict

    def study(**algorithm):
        return {
            "name": "pairs",
            "datasets": ["pima"],
            "costs": [5],
            "algorithms": [{"name": "a", **algorithm}],
        }

    assert study_from_dict(study(method="asybl")).algorithms[0].base == (
        "regression-tree"
    )
    assert study_from_dict(study(method="adac2")).algorithms[0].base == "entropy-tree"
    assert study_from_dict(study(method="threshold")).algorithms[0].base == "logistic"
    with pytest.raises(ValueError, match="its bases are regression-tree"):
        study_from_dict(study(method="asybl", base="logistic"))


def test_declared_sections_change_no_fingerprint_and_are_recorded():
    from costsense.experiments import load_study

    study = load_study("oversampling")
    kinds = [s["kind"] for s in study.to_dict()["sections"]]
    assert kinds == ["features", "noise", "bounds"]
    bare = dataclasses.replace(
        study, report=dataclasses.replace(study.report, sections=())
    )
    assert bare.fingerprint() == study.fingerprint()


@pytest.mark.parametrize(
    ("section", "match"),
    [
        ({"kind": "chart", "title": "t", "text": ""}, "kind must be one of"),
        ({"kind": "features", "title": "t", "text": ""}, r"missing keys \['header'\]"),
        (
            {"kind": "features", "title": "t", "text": "", "header": [], "x": 1},
            r"unknown keys \['x'\]",
        ),
        (
            {"kind": "features", "title": "t", "text": "", "header": ["a"]},
            "header must name the 6 columns",
        ),
        (
            {"kind": "noise", "title": "t", "text": "", "header": ["a"] * 7}
            | {"early_round": "4", "column": "c", "values": {}},
            "early_round must be a whole number >= 1",
        ),
    ],
)
def test_a_malformed_section_is_refused_by_name(section, match):
    from costsense.experiments._study import builtin_studies
    from costsense.experiments._study_file import study_from_dict

    data = tomllib.loads(builtin_studies()["rescaling"].read_text())
    with pytest.raises(ValueError, match=f"sections\\[0\\]: {match}"):
        study_from_dict({**data, "sections": [section]})


def test_a_bounds_section_names_the_studys_algorithms():
    import tomllib

    from costsense.experiments import load_study
    from costsense.experiments._study import builtin_studies
    from costsense.experiments._study_file import study_from_dict

    (bounds,) = load_study("boosting").report.sections
    data = tomllib.loads(builtin_studies()["rescaling"].read_text())
    section = {**bounds, "algorithms": ["nope"]}
    with pytest.raises(ValueError, match="algorithms must be among"):
        study_from_dict({**data, "sections": [section]})
