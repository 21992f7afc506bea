"""``cost_unit``: margin costs as given (the papers') or in any currency."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.datasets import make_classification

from costsense.margin import CSLDMClassifier, CSSVMClassifier

LEARNERS = [CSSVMClassifier, CSLDMClassifier]


def _data():
    X, y = make_classification(
        n_samples=200, n_features=5, weights=[0.75], flip_y=0.05, random_state=0
    )
    rng = np.random.default_rng(0)
    fp = rng.lognormal(0.0, 1.0, y.size)
    fn = rng.lognormal(1.0, 1.0, y.size)
    return X, y, np.column_stack([fp, fn, np.zeros_like(fp), np.zeros_like(fp)])


def _scores(cls, X, y, **fit):
    params = fit.pop("params")
    return cls(random_state=0, **params).fit(X, y, **fit).decision_function(X)


@pytest.mark.parametrize("cls", LEARNERS)
def test_cheaper_unit_gives_one_model_in_any_currency(cls):
    X, y, rows = _data()
    unit = {"cost_unit": "cheaper"}
    dollars = _scores(cls, X, y, sample_cost=rows, params=unit)
    cents = _scores(cls, X, y, sample_cost=100 * rows, params=unit)
    assert_allclose(cents, dollars, rtol=1e-6, atol=1e-8)
    pair = {"cost_unit": "cheaper", "pos_label": 1}
    small = _scores(cls, X, y, params={**pair, "cost": (3.0, 1.0)})
    large = _scores(cls, X, y, params={**pair, "cost": (300.0, 100.0)})
    assert_allclose(large, small, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("cls", LEARNERS)
def test_given_unit_is_the_papers_formula_where_scale_matters(cls):
    # as given, costs k (C1, C2) are the costs (C1, C2) with C multiplied by k:
    # a different model; in the cheaper unit the same model
    X, y, rows = _data()
    given = _scores(cls, X, y, sample_cost=rows, params={})
    cents = _scores(cls, X, y, sample_cost=100 * rows, params={})
    assert not np.allclose(given, cents, rtol=1e-3)
    scaled_C = _scores(cls, X, y, sample_cost=rows, params={"C": 100.0})
    assert_allclose(cents, scaled_C, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("cls", LEARNERS)
def test_costs_whose_cheaper_error_costs_one_are_unchanged(cls):
    X, y, _ = _data()
    params = {"cost": (5.0, 1.0), "pos_label": 1}
    given = _scores(cls, X, y, params=params)
    cheaper = _scores(cls, X, y, params={**params, "cost_unit": "cheaper"})
    assert_allclose(cheaper, given, rtol=1e-12, atol=1e-14)
