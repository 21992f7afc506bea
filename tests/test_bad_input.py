"""Bad and odd input over the whole registry: clear errors, never silent results.

Every registered classifier must reject NaN/inf, empty X, one class, mismatched lengths,
invalid costs and unknown positive labels with a ValueError/TypeError that names the
problem; accept string labels and pandas input with the same results as numeric input;
and be deterministic and picklable.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification
from sklearn.neighbors import KNeighborsClassifier

from costsense._base import learns_row_costs
from tests._registry import classifiers, fast_instance, takes

CLASSIFIERS = classifiers()
ids = [cls.__name__ for cls in CLASSIFIERS]


def having(parameter: str) -> list:
    """Registered classifiers whose constructor takes ``parameter``."""
    return [cls for cls in CLASSIFIERS if takes(cls, parameter)]


def name_of(cls: type) -> str:
    return cls.__name__


INVALID_COSTS = [
    0,
    -1.0,
    np.nan,
    np.inf,
    (5, 0),
    (-1, 1),
    [[0, 1], [-2, 0]],
    [[1, 1], [1, 0]],
]


def _data(n: int = 90, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    X, y = make_classification(
        n_samples=n,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        weights=[0.75],
        random_state=seed,
    )
    return X, y


HYPOTHESIS = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=ids)
@given(
    row=st.integers(0, 89),
    col=st.integers(0, 3),
    value=st.sampled_from([np.nan, np.inf, -np.inf]),
)
@HYPOTHESIS
def test_non_finite_X_is_rejected_in_fit_and_predict(cls, row, col, value):
    X, y = _data()
    bad = X.copy()
    bad[row, col] = value
    pattern = "NaN" if np.isnan(value) else "infinity"
    with pytest.raises(ValueError, match=pattern):
        fast_instance(cls).fit(bad, y)
    model = fast_instance(cls).fit(X, y)
    with pytest.raises(ValueError, match=pattern):
        model.predict(bad)


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=ids)
def test_structural_errors_name_the_problem(cls):
    X, y = _data()
    with pytest.raises(ValueError, match="class"):
        fast_instance(cls).fit(X, np.zeros_like(y))
    with pytest.raises(ValueError, match="0 sample|empty"):
        fast_instance(cls).fit(X[:0], y[:0])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fast_instance(cls).fit(X, y[:-1])
    model = fast_instance(cls).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :3])


@pytest.mark.parametrize("cls", having("cost"), ids=name_of)
@pytest.mark.parametrize("cost", INVALID_COSTS)
def test_invalid_costs_are_rejected(cls, cost):
    X, y = _data()
    with pytest.raises((ValueError, TypeError), match="cost"):
        fast_instance(cls, cost=cost).fit(X, y)


@pytest.mark.parametrize(
    "cls", [c for c in having("cost") if learns_row_costs(c())], ids=name_of
)
def test_invalid_example_costs_are_rejected(cls):
    X, y = _data()
    for sample_cost, pattern in [
        (np.ones(len(y) - 1), "rows|samples"),
        (np.full(len(y), np.nan), "NaN"),
        (np.ones(len(y)), "one number per row.*name it"),
    ]:
        with pytest.raises(ValueError, match=pattern):
            fast_instance(cls).fit(X, y, sample_cost=sample_cost)


@pytest.mark.parametrize(
    "cls", [c for c in having("cost") if learns_row_costs(c())], ids=name_of
)
def test_a_cost_given_with_sample_cost_is_refused_not_ignored(cls):
    # MinimumCostClassifier(cost=5).fit(X, y, sample_cost=...) ignored cost=5
    X, y = _data()
    rows = np.ones((len(y), 2, 2)) - np.eye(2)
    with pytest.raises(ValueError, match=r"\(cost=5\).*sample_cost.*cost=None"):
        fast_instance(cls, cost=5).fit(X, y, sample_cost=rows)
    fast_instance(cls, cost=None).fit(X, y, sample_cost=rows)  # the spelling


@pytest.mark.parametrize("cls", having("pos_label"), ids=name_of)
def test_unknown_pos_label_is_rejected(cls):
    X, y = _data()
    with pytest.raises(ValueError, match="pos_label"):
        fast_instance(cls, cost=5, pos_label=7).fit(X, y)
    with pytest.raises(ValueError, match="pos_label"):
        fast_instance(cls, cost=5, pos_label="1").fit(X, y)


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=ids)
def test_string_labels_give_the_same_model_as_integer_labels(cls):
    X, y = _data()
    names = np.array(["benign", "fraud"])  # same sorted order as 0 < 1
    kwargs = {"cost": 5} if takes(cls, "cost") else {}
    by_int = fast_instance(cls, **kwargs).fit(X, y)
    by_str = fast_instance(cls, **kwargs).fit(X, names[y])
    assert_array_equal(by_str.classes_, names)
    assert_array_equal(by_str.predict(X), names[by_int.predict(X)])


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=ids)
def test_pandas_input_matches_numpy_and_keeps_feature_names(cls):
    pd = pytest.importorskip("pandas")
    X, y = _data()
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    from_frame = fast_instance(cls).fit(frame, pd.Series(y))
    from_array = fast_instance(cls).fit(X, y)
    assert_array_equal(from_frame.feature_names_in_, ["a", "b", "c", "d"])
    assert_array_equal(from_frame.predict(frame), from_array.predict(X))


class _NoSampleWeight(ClassifierMixin, BaseEstimator):
    """A classifier whose fit has no sample_weight parameter."""

    def fit(self, X, y):
        self._knn = KNeighborsClassifier(n_neighbors=3).fit(X, y)
        self.classes_ = self._knn.classes_
        return self

    def predict(self, X):
        return self._knn.predict(X)

    def predict_proba(self, X):
        return self._knn.predict_proba(X)


@pytest.mark.parametrize("cls", having("estimator"), ids=name_of)
def test_base_learner_without_sample_weight_works_or_is_refused_clearly(cls):
    X, y = _data()
    model = fast_instance(cls, estimator=_NoSampleWeight(), cost=5)
    try:
        model.fit(X, y)
    except TypeError as error:
        assert "sample_weight" in str(error)
        assert "_NoSampleWeight" in str(error)
    else:
        assert set(np.unique(model.predict(X))) <= set(np.unique(y))


@pytest.mark.parametrize("cls", CLASSIFIERS, ids=ids)
def test_same_seed_gives_bit_identical_predictions_and_pickle_round_trips(cls):
    X, y = _data(seed=3)
    first = fast_instance(cls, random_state=7) if takes(cls, "random_state") else None
    first = first if first is not None else fast_instance(cls)
    second = clone(first)
    first.fit(X, y)
    second.fit(X, y)
    assert_array_equal(first.predict(X), second.predict(X))
    restored = pickle.loads(pickle.dumps(first))
    assert_array_equal(restored.predict(X), first.predict(X))
    if hasattr(first, "predict_proba"):
        assert_array_equal(first.predict_proba(X), second.predict_proba(X))
        assert_array_equal(restored.predict_proba(X), first.predict_proba(X))
