"""The builder's rules, through the estimators: splitters, gains, purity, leaves."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.tree import DecisionTreeClassifier

from costsense.costs import task_scores
from costsense.tree import (
    CostSensitiveTreeClassifier,
    CostSensitiveTreeRegressor,
    impurity,
)


def _assert_same_tree(a, b):
    assert a.node_count == b.node_count
    for name in ("feature", "threshold", "children_left", "children_right"):
        assert_array_equal(getattr(a, name), getattr(b, name))
    assert_array_equal(a.n_node_samples, b.n_node_samples)
    assert_allclose(a.value, b.value, rtol=0, atol=0)


def _few_values(seed, n=300, d=4, levels=30):
    rng = np.random.RandomState(seed)
    X = rng.randint(0, levels, size=(n, d)).astype(float) * 0.37
    y = ((X[:, 0] - X[:, 1] + rng.normal(scale=2, size=n)) > 0).astype(int)
    y[X[:, 2] > 9] = 2
    return X, y, rng


@pytest.mark.parametrize("criterion", ["gini", "entropy", "cs_gini", "pairwise"])
@pytest.mark.parametrize("max_features", [None, 2])
def test_hist_with_a_bin_per_value_is_the_exact_splitter(criterion, max_features):
    X, y, _ = _few_values(0)
    # costs that are powers of two keep every score and sum exact in floating point
    cost = np.array([[0, 1, 2], [4, 0, 1], [2, 2, 0]], dtype=float)
    trees = [
        CostSensitiveTreeClassifier(
            criterion=criterion,
            splitter=splitter,
            max_features=max_features,
            cost=cost,
            random_state=3,
        ).fit(X, y)
        for splitter in ("exact", "hist")
    ]
    assert trees[0].tree_.node_count > 10
    _assert_same_tree(trees[0].tree_, trees[1].tree_)


def test_hist_regressor_with_a_bin_per_value_is_the_exact_one():
    X, _, rng = _few_values(1)
    t = rng.randint(0, 8, size=X.shape[0]).astype(float)  # integer sums stay exact
    exact = CostSensitiveTreeRegressor(splitter="exact").fit(X, t)
    hist = CostSensitiveTreeRegressor(splitter="hist").fit(X, t)
    _assert_same_tree(exact.tree_, hist.tree_)


def _xor(repeat=5):
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]] * repeat)
    y = np.array([0, 0, 1, 1] * repeat)
    return X, y


def test_a_zero_gain_split_is_not_made():
    """XOR: every root split leaves both children as mixed as the root (gain 0)."""
    X, y = _xor()
    ours = CostSensitiveTreeClassifier().fit(X, y)
    assert ours.tree_.node_count == 1
    # scikit-learn does split: the rule is a real difference
    assert DecisionTreeClassifier(random_state=0).fit(X, y).tree_.node_count > 1


def _all_splits_lose():
    """23 rows in 1-D where every threshold's pairwise gain is negative at C1/C2 = 5.

    Returns ``X, y, cost`` and the brute-force gain of each threshold ``k`` (rows
    ``0 .. k - 1`` left), computed from :func:`costsense.tree.impurity` directly.
    """
    y = np.array([int(c) for c in "10101" * 4 + "111"])
    X = np.arange(float(y.size)).reshape(-1, 1)
    cost = np.array([[0.0, 1.0], [5.0, 0.0]])
    scores = task_scores(cost[y])
    n = y.size
    parent = n * impurity("pairwise", scores)
    gains = np.array(
        [
            parent
            - k * impurity("pairwise", scores[:k])
            - (n - k) * impurity("pairwise", scores[k:])
            for k in range(1, n)
        ]
    )
    return X, y, cost, gains


def test_pairwise_node_whose_splits_all_lose_stays_a_leaf():
    """With C1/C2 = 5 and mostly costly-class rows, every root split loses.

    Paper 004's I_pdc is not concave in the class mix with cost-mapped scores; on
    this arrangement of 1-D samples every threshold has a negative gain (checked
    here by brute force), so the pairwise tree is one leaf; the Gini tree splits.
    """
    X, y, cost, gains = _all_splits_lose()
    assert gains.max() < 0  # the premise: every split has a negative gain
    pd_tree = CostSensitiveTreeClassifier(criterion="pairwise", cost=cost).fit(X, y)
    assert pd_tree.tree_.node_count == 1
    gini = CostSensitiveTreeClassifier(criterion="gini", cost=cost).fit(X, y)
    assert gini.tree_.node_count > 1


def test_min_impurity_decrease_is_the_weighted_decrease_over_the_root_weight():
    X = np.arange(8.0).reshape(-1, 1)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 0])
    full = CostSensitiveTreeClassifier(max_depth=1).fit(X, y)
    tree = full.tree_
    decrease = (
        tree.weighted_n_node_samples[0] * tree.impurity[0]
        - tree.weighted_n_node_samples[1] * tree.impurity[1]
        - tree.weighted_n_node_samples[2] * tree.impurity[2]
    ) / len(y)
    assert decrease > 0
    kept = CostSensitiveTreeClassifier(max_depth=1, min_impurity_decrease=decrease)
    assert kept.fit(X, y).tree_.node_count == 3
    cut = CostSensitiveTreeClassifier(
        max_depth=1, min_impurity_decrease=decrease * 1.01
    )
    assert cut.fit(X, y).tree_.node_count == 1


def test_a_node_of_identical_labels_is_a_leaf_even_with_positive_cs_gini():
    X = np.arange(12.0).reshape(-1, 1)
    y = (X[:, 0] >= 6).astype(int)
    tree = CostSensitiveTreeClassifier(criterion="cs_gini", cost=5).fit(X, y).tree_
    assert tree.node_count == 3
    leaves = tree.children_left < 0
    # the negative leaf has identical score vectors (1, 0.8) and impurity > 0
    assert np.any(tree.impurity[leaves] > 0.1)


def test_leaves_store_the_weighted_mean_scores_and_class_frequencies():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(120, 3))
    y = rng.randint(0, 3, size=120)
    w = rng.uniform(0.1, 2.0, size=120)
    cost = np.array([[0, 1, 3], [2, 0, 1], [6, 1, 0]], dtype=float)
    model = CostSensitiveTreeClassifier(max_depth=2, cost=cost)
    model.fit(X, y, sample_weight=w)
    scores = 1 - cost[y] / cost.max()
    leaves = model.apply(X)
    for leaf in np.unique(leaves):
        here = leaves == leaf
        expected_scores = np.average(scores[here], axis=0, weights=w[here])
        expected_freq = np.bincount(y[here], weights=w[here], minlength=3)
        assert_allclose(model.tree_.value[leaf, :3], expected_scores)
        assert_allclose(model.tree_.value[leaf, 3:], expected_freq / w[here].sum())


def test_zero_weight_rows_are_left_out():
    rng = np.random.RandomState(4)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] > 0).astype(int)
    w = rng.randint(0, 3, size=80).astype(float)
    weighted = CostSensitiveTreeClassifier().fit(X, y, sample_weight=w)
    kept = w > 0
    dropped = CostSensitiveTreeClassifier().fit(X[kept], y[kept], sample_weight=w[kept])
    _assert_same_tree(weighted.tree_, dropped.tree_)


def test_min_samples_leaf_and_max_depth_hold():
    rng = np.random.RandomState(5)
    X = rng.normal(size=(300, 4))
    y = rng.randint(0, 2, size=300)
    tree = CostSensitiveTreeClassifier(min_samples_leaf=7, max_depth=5).fit(X, y)
    leaves = tree.tree_.children_left < 0
    assert tree.tree_.n_node_samples[leaves].min() >= 7
    assert tree.get_depth() <= 5
    assert tree.get_n_leaves() == int(leaves.sum())


@pytest.mark.parametrize("splitter", ["exact", "hist"])
def test_constant_features_do_not_count_towards_max_features(splitter):
    rng = np.random.RandomState(6)
    X = np.zeros((100, 4))
    X[:, 3] = rng.normal(size=100)
    y = (X[:, 3] > 0).astype(int)
    for seed in range(5):
        tree = CostSensitiveTreeClassifier(
            max_features=1, splitter=splitter, random_state=seed
        ).fit(X, y)
        assert tree.tree_.node_count == 3
        assert tree.tree_.feature[0] == 3


def test_random_features_per_split_depend_on_the_seed_only():
    rng = np.random.RandomState(7)
    X = rng.normal(size=(200, 6))
    y = (X.sum(axis=1) + rng.normal(size=200) > 0).astype(int)
    grown = [
        CostSensitiveTreeClassifier(max_features=2, random_state=seed).fit(X, y)
        for seed in (0, 0, 1)
    ]
    _assert_same_tree(grown[0].tree_, grown[1].tree_)
    assert not np.array_equal(grown[0].tree_.feature, grown[2].tree_.feature)
    # every feature is used somewhere: the draws are not stuck on a few
    assert set(grown[0].tree_.feature[grown[0].tree_.feature >= 0]) == set(range(6))


# ------------------------------------------------- the best-candidate rule (None)


def _leaf_rows(tree, X):
    """Training rows of each leaf, by routing X through the tree."""
    leaves = tree.apply(X)
    return {leaf: np.flatnonzero(leaves == leaf) for leaf in np.unique(leaves)}


def _root_gain(tree):
    w, i = tree.weighted_n_node_samples, tree.impurity
    left, right = tree.children_left[0], tree.children_right[0]
    return w[0] * i[0] - w[left] * i[left] - w[right] * i[right]


def test_best_candidate_rule_splits_where_every_split_loses():
    """Paper 004's rule: the root of the all-losing arrangement is split anyway.

    The same 23 samples as above, where every threshold's pairwise gain is
    negative (brute force): with ``min_impurity_decrease=None`` the root takes the
    threshold of largest (negative) gain, and growth goes on until the leaves are
    single classes.
    """
    X, y, cost, gains = _all_splits_lose()
    assert gains.max() < 0
    best_k = int(np.argmax(gains)) + 1  # rows 0 .. best_k - 1 go left
    tree = (
        CostSensitiveTreeClassifier(
            criterion="pairwise", cost=cost, min_impurity_decrease=None
        )
        .fit(X, y)
        .tree_
    )
    assert tree.n_leaves > 1
    assert tree.threshold[0] == pytest.approx(best_k - 0.5)
    assert _root_gain(tree) == pytest.approx(gains.max())
    for rows in _leaf_rows(tree, X).values():
        assert np.unique(y[rows]).size == 1  # every leaf is a single class


@pytest.mark.parametrize("splitter", ["exact", "hist"])
def test_best_candidate_rule_makes_zero_gain_splits_until_leaves_are_pure(splitter):
    """XOR: the root's best gain is 0; paper 004's rule splits it, ours does not."""
    X, y = _xor()
    positive = CostSensitiveTreeClassifier(splitter=splitter).fit(X, y)
    assert positive.tree_.node_count == 1
    best = CostSensitiveTreeClassifier(
        splitter=splitter, min_impurity_decrease=None
    ).fit(X, y)
    assert _root_gain(best.tree_) == pytest.approx(0.0, abs=1e-12)
    assert best.tree_.n_leaves == 4  # the four corners, each one class
    assert_array_equal(best.predict(X), y)


def test_best_candidate_rule_still_stops_at_depth_size_and_identical_labels():
    y = np.array([int(c) for c in "10101" * 4 + "111"])
    X = np.arange(float(y.size)).reshape(-1, 1)
    common = {"criterion": "pairwise", "cost": 5, "min_impurity_decrease": None}
    assert CostSensitiveTreeClassifier(max_depth=2, **common).fit(X, y).get_depth() == 2
    tree = CostSensitiveTreeClassifier(min_samples_leaf=4, **common).fit(X, y).tree_
    assert tree.n_node_samples[tree.children_left < 0].min() >= 4
    tree = CostSensitiveTreeClassifier(min_samples_split=10, **common).fit(X, y).tree_
    assert tree.n_node_samples[tree.children_left >= 0].min() >= 10
    # a node of identical label vectors is a leaf: the five negatives (1, 0.8)
    # would otherwise be split on, at zero gain
    labels = np.zeros(6, dtype=int)
    labels[0] = 1
    tiny = CostSensitiveTreeClassifier(**common).fit(X[:6], labels)
    assert tiny.tree_.n_leaves == 2


def test_a_node_whose_features_are_constant_is_a_leaf_under_either_rule():
    X = np.zeros((10, 2))
    y = np.array([0, 1] * 5)
    tree = CostSensitiveTreeClassifier(min_impurity_decrease=None).fit(X, y)
    assert tree.tree_.node_count == 1


@pytest.mark.parametrize("criterion", ["gini", "entropy", "cs_gini"])
def test_rules_agree_on_one_hot_labels_where_every_best_gain_is_positive(criterion):
    """Gini (and entropy, and cs_gini, which is Gini on one-hot labels).

    On continuous features without ties, the positive-gain tree ends with pure
    leaves only, so it never stopped for a non-positive gain (the premise,
    checked); the best-candidate rule then grows the same tree, node for node.
    """
    rng = np.random.RandomState(0)
    X = rng.normal(size=(300, 5))
    y = ((X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.8, size=300)) > 0.6).astype(int)
    positive = CostSensitiveTreeClassifier(criterion=criterion).fit(X, y)
    best = CostSensitiveTreeClassifier(
        criterion=criterion, min_impurity_decrease=None
    ).fit(X, y)
    tree = positive.tree_
    assert tree.n_leaves > 20
    for rows in _leaf_rows(tree, X).values():
        assert np.unique(y[rows]).size == 1  # premise: every leaf pure
    _assert_same_tree(tree, best.tree_)


def test_forest_rules_agree_for_gini_where_every_best_gain_is_positive():
    """The forest's trees (histograms, two random features per node) likewise."""
    from costsense.tree import CostSensitiveForestClassifier

    rng = np.random.RandomState(1)
    X = rng.normal(size=(200, 6))
    y = ((X[:, 0] - X[:, 2] + rng.normal(scale=0.7, size=200)) > 0).astype(int)
    common = {"n_estimators": 5, "max_features": 2, "bootstrap": False}
    positive = CostSensitiveForestClassifier(random_state=0, **common).fit(X, y)
    best = CostSensitiveForestClassifier(
        random_state=0, min_impurity_decrease=None, **common
    ).fit(X, y)
    for ours, theirs in zip(positive.estimators_, best.estimators_, strict=True):
        for rows in _leaf_rows(ours.tree_, X).values():
            assert np.unique(y[rows]).size == 1  # premise: every leaf pure
        _assert_same_tree(ours.tree_, theirs.tree_)


# ------------------------------------------------- the grower's rules, directly


def _rules(**changes):
    from costsense.tree._common import GrowthRules

    rules = {
        "max_depth": 3,
        "min_samples_split": 6,
        "min_samples_leaf": 4,
        "min_impurity_decrease": 0.01,
        "any_gain": False,
        "max_features": 2,
    }
    return GrowthRules(**{**rules, **changes})


@pytest.mark.parametrize(
    ("n_node", "depth", "expected"),
    [
        (8, 2, True),
        (8, 3, False),  # max_depth deep
        (7, 0, False),  # fewer than 2 * min_samples_leaf
        (100, 0, True),
    ],
)
def test_may_split_by_the_stopping_rules(n_node, depth, expected):
    from costsense.tree._grower import may_split

    assert may_split(n_node, depth, _rules()) is expected
    assert may_split(n_node, depth, _rules(min_samples_split=101)) is False


def test_makes_split_by_the_split_rules():
    from costsense.tree._criteria import CRITERIA
    from costsense.tree._grower import GAIN_TOLERANCE, makes_split

    gini, squared = CRITERIA["gini"], CRITERIA["squared_error"]
    stats = np.array([3.0, 50.0])  # for regression: the sum of squared targets
    positive, best = _rules(), _rules(any_gain=True)
    # the positive-gain rule: G > tolerance * W and G / W_root >= the decrease
    assert makes_split(0.5, 1, gini, 10.0, stats, 20.0, positive)
    assert not makes_split(0.1, 1, gini, 10.0, stats, 20.0, positive)  # 0.005
    assert makes_split(0.2, 1, gini, 10.0, stats, 20.0, positive)  # 0.01: enough
    tiny = GAIN_TOLERANCE * 10.0
    zero_decrease = _rules(min_impurity_decrease=0.0)
    assert not makes_split(tiny, 1, gini, 10.0, stats, 20.0, zero_decrease)
    assert makes_split(2 * tiny, 1, gini, 10.0, stats, 20.0, zero_decrease)
    # for regression the scale is the sum of squared targets, not W
    assert not makes_split(2 * tiny, 1, squared, 10.0, stats, 20.0, zero_decrease)
    # the best-candidate rule: any gain, if there is a candidate
    assert makes_split(-3.0, 1, gini, 10.0, stats, 20.0, best)
    assert not makes_split(5.0, -1, gini, 10.0, stats, 20.0, best)
    assert not makes_split(5.0, -1, gini, 10.0, stats, 20.0, positive)


def test_grow_numbers_nodes_in_pre_order_and_counts_add_up():
    """The node arrays of a grown tree hang together (grow called directly)."""
    from costsense.tree._base import prepare
    from costsense.tree._grower import grow

    X, y, rng = _few_values(2)
    labels = np.eye(3)[y]
    weight = rng.uniform(0.0, 2.0, size=y.size)
    weight[::7] = 0.0
    data = prepare(X, labels, labels, "gini", "hist", 255)
    rules = _rules(
        max_depth=6, min_samples_split=2, min_samples_leaf=1, min_impurity_decrease=0.0
    )
    nodes = grow(data, weight, rules, 0)
    n = nodes.feature.shape[0]
    assert n > 15
    split = np.flatnonzero(nodes.children_left >= 0)
    left, right = nodes.children_left[split], nodes.children_right[split]
    assert_array_equal(left, split + 1)  # pre-order: the left child comes next
    assert np.all(right > left)
    assert_array_equal(
        nodes.n_node_samples[split],
        nodes.n_node_samples[left] + nodes.n_node_samples[right],
    )
    assert_allclose(
        nodes.weighted_n_node_samples[split],
        nodes.weighted_n_node_samples[left] + nodes.weighted_n_node_samples[right],
    )
    assert nodes.n_node_samples[0] == np.count_nonzero(weight)
    assert nodes.weighted_n_node_samples[0] == pytest.approx(weight.sum())
    assert sorted(np.concatenate([[0], left, right]).tolist()) == list(range(n))
    assert 0 < nodes.max_depth <= 6
