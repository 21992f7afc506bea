from costsense import cli
from costsense.experiments import BASE_LEARNERS, CATALOG, METHODS


def test_the_catalog_describes_exactly_the_models_and_bases_there_are():
    assert list(CATALOG) == list(METHODS)
    for spec in CATALOG.values():
        assert set(spec.bases) <= set(BASE_LEARNERS)
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
