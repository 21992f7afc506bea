"""The forest's packed trees (a fitted attribute) and its degeneracy check."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification

from costsense.exceptions import DegenerateModelWarning
from costsense.tree import CostSensitiveForestClassifier, PackedForest
from costsense.tree._predictor import accumulate, pack, shared_class


def _data(seed=0, n=300):
    return make_classification(
        n_samples=n, n_features=6, weights=[0.8], random_state=seed
    )


def _assert_same_packing(a, b):
    for name in ("feature", "threshold", "right", "roots"):
        assert_array_equal(getattr(a, name), getattr(b, name))
    assert len(a.values) == len(b.values)
    for x, y in zip(a.values, b.values, strict=True):
        assert_array_equal(x, y)


def _packed_of_trees(forest):
    return pack([m.tree_ for m in forest.estimators_], forest.classes_.size)


def _proba_from(packed, X, n_trees):
    total = np.zeros((X.shape[0], packed.values[1].shape[1]))
    rows = np.ascontiguousarray(X, dtype=np.float64)
    accumulate(
        rows, packed.feature, packed.threshold, packed.right, packed.values[1],
        packed.roots, total,
    )  # fmt: skip
    return total / n_trees


def test_fit_packs_the_trees_and_the_state_holds_them_once():
    X, y = _data()
    forest = CostSensitiveForestClassifier(n_estimators=5, cost=4, random_state=0)
    forest.fit(X, y)
    members, packed = forest._packed_
    assert members[0] is forest.estimators_
    n = len(forest.estimators_)
    assert list(members[1 : 1 + n]) == forest.estimators_
    _assert_same_packing(packed, _packed_of_trees(forest))
    state = forest.__getstate__()
    assert "estimators_" in state and "_packed_" not in state
    assert not any(isinstance(v, PackedForest) for v in state.values())
    assert "_packed_" in vars(forest)  # the estimator itself is left whole


def test_pickle_and_skops_round_trips_pack_again_and_predict_identically():
    skops_io = pytest.importorskip("skops.io")
    X, y = _data(1)
    forest = CostSensitiveForestClassifier(
        n_estimators=6, criterion="cs_gini", cost=3, random_state=1
    ).fit(X, y)
    data = skops_io.dumps(forest)
    copies = [
        pickle.loads(pickle.dumps(forest)),
        skops_io.loads(data, trusted=skops_io.get_untrusted_types(data=data)),
    ]
    # the model file names no packed trees: it holds the trees once
    assert "PackedForest" not in skops_io.get_untrusted_types(data=data)
    for copy in copies:
        assert copy._packed_[0][0] is copy.estimators_
        _assert_same_packing(copy._packed_[1], forest._packed_[1])
        assert_array_equal(copy.predict_proba(X), forest.predict_proba(X))
        assert_array_equal(copy.predict_task_score(X), forest.predict_task_score(X))
        assert_array_equal(copy.predict(X), forest.predict(X))


def test_refit_and_clone_pack_the_new_trees():
    X, y = _data(2)
    X_other, y_other = _data(3)
    forest = CostSensitiveForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    stale = forest._packed_[1]
    stale_proba = _proba_from(stale, X_other, 4)
    assert_array_equal(forest.predict_proba(X_other), stale_proba)
    forest.fit(X_other, y_other)
    assert forest._packed_[1] is not stale
    _assert_same_packing(forest._packed_[1], _packed_of_trees(forest))
    refreshed = forest.predict_proba(X_other)
    assert not np.array_equal(refreshed, stale_proba)
    assert_array_equal(refreshed, _proba_from(_packed_of_trees(forest), X_other, 4))
    fresh = clone(forest)
    assert not hasattr(fresh, "_packed_")
    fresh.fit(X, y)
    _assert_same_packing(fresh._packed_[1], stale)  # same data and seed as before


def test_trees_changed_in_place_are_never_predicted_from_the_old_packing():
    # the packing is told stale by the members and trees it was made of, so a
    # forest edited by hand predicts from its trees, as its pickle would
    X, y = _data(4)
    other = CostSensitiveForestClassifier(n_estimators=2, random_state=9).fit(X, y)
    edits = {
        "members removed": lambda f: f.estimators_.__delitem__(slice(3, None)),
        "a member replaced": lambda f: f.estimators_.__setitem__(
            0, other.estimators_[0]
        ),
        "a member appended": lambda f: f.estimators_.append(other.estimators_[1]),
        "a tree replaced": lambda f: setattr(
            f.estimators_[1], "tree_", other.estimators_[1].tree_
        ),
    }
    for what, edit in edits.items():
        forest = CostSensitiveForestClassifier(n_estimators=6, random_state=0)
        forest.fit(X, y)
        before = forest.predict_proba(X)
        edit(forest)
        n_trees = len(forest.estimators_)
        expected = _proba_from(_packed_of_trees(forest), X, n_trees)
        assert not np.array_equal(expected, before), what
        assert_array_equal(forest.predict_proba(X), expected, err_msg=what)
        restored = pickle.loads(pickle.dumps(forest))
        assert_array_equal(restored.predict_proba(X), expected, err_msg=what)


def _constant_forest(cost):
    """A forest of stumps whose every leaf favours one class (by the cost)."""
    X, y = _data(4)
    return (
        X,
        y,
        CostSensitiveForestClassifier(
            n_estimators=5, max_depth=1, min_samples_leaf=100, cost=cost, random_state=0
        ),
    )


@pytest.mark.parametrize(("cost", "label"), [(1e-4, 0), (1e4, 1)])
def test_leaves_of_one_class_make_the_fit_degenerate_without_predicting(
    cost, label, monkeypatch
):
    X, y, forest = _constant_forest(cost)

    def no_prediction(*args, **kwargs):
        raise AssertionError("the fit predicted its training rows")

    with monkeypatch.context() as patch:
        patch.setattr(CostSensitiveForestClassifier, "_leaf_means", no_prediction)
        with pytest.warns(DegenerateModelWarning) as caught:
            forest.fit(X, y)
    # what the forest predicts on its training rows says the same
    assert np.unique(forest.predict(X)).tolist() == [label]
    finding = (
        f"predicts only class {label!r} (one of its 2 classes) for every row of "
        "its own training data (why: the "
        "trees' mean task scores favour one class on every row)"
    )
    assert forest.degenerate_ == finding
    assert [str(w.message) for w in caught] == [
        f"CostSensitiveForestClassifier {finding}. Its predictions are constant; "
        f"{forest._degenerate_advice}."
    ]


def test_leaves_of_several_classes_are_judged_on_the_predictions():
    X, y = _data(5)
    calls = []
    forest = CostSensitiveForestClassifier(n_estimators=5, random_state=0)
    original = CostSensitiveForestClassifier._leaf_means

    def counted(self, rows, block):
        calls.append(rows.shape[0])
        return original(self, rows, block)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CostSensitiveForestClassifier, "_leaf_means", counted)
        forest.fit(X, y)
    assert calls == [X.shape[0]]  # the probe (all 300 rows: fewer than its size)
    assert forest.degenerate_ is None


def _one_leaf_trees(leaf_values):
    """Single-leaf trees, one per row of ``leaf_values``, packed."""
    values = np.asarray(leaf_values, dtype=np.float64)
    n = values.shape[0]
    return PackedForest(
        feature=np.full(n, -2, dtype=np.int64),
        threshold=np.full(n, -2.0),
        right=np.full(n, -1, dtype=np.int64),
        values=(values, values),
        roots=np.arange(n + 1, dtype=np.int64),
    )


def test_shared_class_is_the_mean_prediction_or_none():
    assert shared_class(_one_leaf_trees([[0.9, 0.1], [0.6, 0.4]])) == 0
    assert shared_class(_one_leaf_trees([[0.1, 0.9], [0.4, 0.6]])) == 1
    assert shared_class(_one_leaf_trees([[0.5, 0.5], [0.5, 0.5]])) == 0  # ties
    assert shared_class(_one_leaf_trees([[0.9, 0.1], [0.4, 0.6]])) is None


def test_shared_class_leaves_out_a_lead_that_rounding_can_erase():
    """Every leaf favours class 1 by one ulp, yet the rounded mean ties and the
    first class wins the tie: the leaves alone do not tell."""
    first = np.array([0.4450973669431999, 0.8125525342743981, 0.5760054277776141])
    second = np.nextafter(first, 2.0)
    packed = _one_leaf_trees(np.c_[first, second])
    total = np.zeros((1, 2))
    accumulate(
        np.zeros((1, 1)), packed.feature, packed.threshold, packed.right,
        packed.values[0], packed.roots, total,
    )  # fmt: skip
    assert np.argmax(total / 3) == 0  # the tie the guard is for
    assert shared_class(packed) is None
