"""The margin learners on money: per-row costs in any currency give one model."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification

from costsense.margin import CSLDMClassifier, CSSVMClassifier


def _data():
    X, y = make_classification(
        n_samples=200, n_features=5, weights=[0.75], flip_y=0.05, random_state=0
    )
    rng = np.random.default_rng(0)
    fp = rng.lognormal(0.0, 1.0, y.size)
    fn = rng.lognormal(1.0, 1.0, y.size)
    return X, y, np.column_stack([fp, fn, np.zeros_like(fp), np.zeros_like(fp)])


@pytest.mark.parametrize("cls", [CSSVMClassifier, CSLDMClassifier])
def test_per_row_costs_give_the_same_model_in_any_currency(cls):
    X, y, rows = _data()
    dollars = cls(random_state=0).fit(X, y, sample_cost=rows)
    cents = cls(random_state=0).fit(X, y, sample_cost=100 * rows)
    assert_allclose(
        cents.decision_function(X), dollars.decision_function(X), rtol=1e-6, atol=1e-8
    )
    assert_array_equal(cents.predict(X), dollars.predict(X))


@pytest.mark.parametrize("cls", [CSSVMClassifier, CSLDMClassifier])
def test_constant_rows_in_the_papers_unit_are_the_class_level_model(cls):
    # rows (C2 = 1, C1 = 3) for every sample: the unit is 1, nothing is rescaled
    X, y, _ = _data()
    rows = np.tile([1.0, 3.0, 0.0, 0.0], (y.size, 1))
    per_row = cls(random_state=0).fit(X, y, sample_cost=rows)
    class_level = cls(cost=(3.0, 1.0), pos_label=1, random_state=0).fit(X, y)
    assert_allclose(
        per_row.decision_function(X),
        class_level.decision_function(X),
        rtol=1e-6,
        atol=1e-8,
    )
