"""The margin learners' defaults converge on the KEEL sets of the built-in studies."""

import warnings

import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from costsense.datasets import load_keel
from costsense.margin import CSLDMClassifier, CSSVMClassifier, LDMClassifier


# sets of the margin and boosting studies where scikit-learn's 1000 epochs stop short
@pytest.mark.parametrize("dataset", ["pima", "german", "phoneme"])
@pytest.mark.parametrize(
    "make",
    [
        lambda pos: CSLDMClassifier(cost=5, pos_label=pos, random_state=0),
        lambda pos: CSSVMClassifier(cost=5, pos_label=pos, random_state=0),
        lambda pos: LDMClassifier(random_state=0),
    ],
    ids=["CSLDM", "CSSVM", "LDM"],
)
def test_defaults_converge_on_study_sets(dataset, make):
    data = load_keel(dataset)
    X = StandardScaler().fit_transform(data.X)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = make(data.pos_label).fit(X, data.y)
    assert model.score(X, data.y) > 0.6
