from costsense import cli
from costsense.experiments import BASES, CATALOG


def test_the_catalog_describes_exactly_the_models_and_bases_there_are():
    for name, spec in CATALOG.items():
        assert spec.name == name
        built = spec.build(BASES["logistic"].build(0), 5.0, 1, 0)
        assert hasattr(built, "fit") and hasattr(built, "predict")
        assert set(spec.bases) <= set(BASES)
        assert (spec.default_base in spec.bases) == spec.uses_base


def test_models_lists_every_model_with_its_bases_and_costs(capsys):
    assert cli.main(["models"]) == 0
    lines = {
        line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line
    }
    assert set(CATALOG) <= set(lines)
    assert "regression-tree" in lines["asybl"] and "sensitive" in lines["asybl"]
    assert "none (ignores --base)" in lines["csldm"]
    assert "blind" in lines["efsboost"] and "paper 003" in lines["efsboost"]
    assert "any classifier but perceptron" in lines["threshold"]


def test_cbrf_is_described_and_built_as_paper_004_defines_it(capsys):
    # a classification-based random forest (基于分类的随机森林): Gini on the labels,
    # a vote, no costs and no balancing; not a class-balanced forest
    from costsense.tree import CostSensitiveForestClassifier

    assert cli.main(["models"]) == 0
    (line,) = [
        line for line in capsys.readouterr().out.splitlines() if line.startswith("cbrf")
    ]
    assert "classification-based random forest" in line
    assert "balanced" not in line.replace("no balancing", "")
    model = CATALOG["cbrf"].build(None, 5.0, 1, 0)
    assert isinstance(model, CostSensitiveForestClassifier)
    assert (model.criterion, model.cost) == ("gini", "unit")  # cost-blind
    assert model.min_impurity_decrease is None  # paper 004's split rule


def test_a_model_registered_in_the_catalog_is_built_by_make_model():
    from costsense.experiments import ModelSpec, make_model

    def mine(base, cost, pos, seed):
        return base

    assert "mine" not in CATALOG
    CATALOG["mine"] = ModelSpec(
        "mine", "a test model", bases=("tree",), default_base="tree", build=mine
    )
    try:
        pipeline = make_model("mine", base="tree", cost=5, pos_label=1)
        assert type(pipeline[-1]).__name__ == "DecisionTreeClassifier"
    finally:
        del CATALOG["mine"]
    assert "mine" not in CATALOG


def test_models_lists_the_recommended_default_first_and_marks_it(capsys):
    from costsense.experiments import DEFAULT_MODEL

    assert DEFAULT_MODEL == "minimum-cost" == next(iter(CATALOG))
    assert cli.main(["models"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines()[2:] if line.strip()]
    assert rows[0].startswith("minimum-cost ") and "[recommended, default]" in rows[0]
    assert sum("recommended" in row for row in rows[1 : len(CATALOG)]) == 0
    assert "minimum-cost: the model costsense recommends" in out
    parser = cli.build_parser()
    for command in (["fit", "--out", "m.skops"], ["evaluate"]):
        args = parser.parse_args([*command, "--csv", "d.csv"])
        assert args.model == DEFAULT_MODEL, command
