"""One cost contract for every public estimator.

- ``cost=None`` means balanced costs everywhere (:mod:`costsense.costs`): the same
  model as ``cost="balanced"`` and as the balanced matrix given explicitly.
- ``cost`` is keyword-only where it is not the first parameter.
- ``fit`` takes ``(X, y, sample_weight, sample_cost)`` in that order where it takes
  them, and no builder internal (no ``bins``, nothing private).
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification

from costsense.utils import all_estimators
from tests._registry import classifiers, fast_instance, takes

COSTED = [cls for cls in classifiers() if takes(cls, "cost")]


def _balanced_by_hand(y):
    """``cost[i, j] = n / (K n_i)`` off the diagonal, classes sorted."""
    counts = np.bincount(y)
    k = counts.size
    return (y.size / (k * counts))[:, None] * (1 - np.eye(k))


@pytest.mark.parametrize("cls", COSTED, ids=lambda c: c.__name__)
def test_cost_none_is_balanced_costs(cls):
    X, y = make_classification(n_samples=120, weights=[0.8], random_state=0)
    matrix = _balanced_by_hand(y)  # [[0, 120 / 194], [120 / 46, 0]]
    assert matrix[1, 0] / matrix[0, 1] == pytest.approx(np.sum(y == 0) / np.sum(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a degenerate fit is not the point here
        none = fast_instance(cls, cost=None).fit(X, y).predict(X)
        named = fast_instance(cls, cost="balanced").fit(X, y).predict(X)
        explicit = fast_instance(cls, cost=matrix).fit(X, y).predict(X)
    assert_array_equal(none, named)
    assert_array_equal(none, explicit)


def test_cost_none_is_balanced_for_the_cost_resolution_of_every_estimator():
    from costsense.costs import Costs

    y = np.array([0] * 9 + [1] * 3)
    for given in (None, "balanced"):
        resolved = Costs.resolve(given, y)
        assert resolved.kind == "balanced"
        np.testing.assert_allclose(resolved.matrix, [[0, 12 / 18], [12 / 6, 0]])


@pytest.mark.parametrize("cls", COSTED, ids=lambda c: c.__name__)
def test_cost_is_keyword_only(cls):
    parameters = list(inspect.signature(cls).parameters.values())
    cost = next(p for p in parameters if p.name == "cost")
    assert cost is parameters[0] or cost.kind is cost.KEYWORD_ONLY


@pytest.mark.parametrize(
    "cls", [cls for _, cls in all_estimators()], ids=lambda c: c.__name__
)
def test_fit_has_the_common_order_and_no_builder_internals(cls):
    names = list(inspect.signature(cls.fit).parameters)[1:]
    assert names[:2] == ["X", "y"]
    assert not [n for n in names if n.startswith("_") or n == "bins"]
    common = [n for n in names if n in ("sample_weight", "sample_cost")]
    assert (
        names[2 : 2 + len(common)]
        == common
        == ["sample_weight", "sample_cost"][: len(common)]
    )
