from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from costsense.costs import (
    Costs,
    as_binary_costs,
    as_cost_matrix,
    as_cost_rows,
    bayes_decision,
    bayes_threshold,
    binary_costs_from_matrix,
    check_cost_matrix,
    cost_reduction,
    cost_rows_from_scores,
    costcla_to_cost_rows,
    example_costs,
    part_costs,
    parts_matrix,
    resolve_pos_label,
    row_cost_matrices,
    sample_costs,
    task_scores,
    zero_diagonal,
    zero_diagonal_rows,
)

positive_floats = st.floats(min_value=1e-3, max_value=1e3)


def test_minority_class_is_positive_by_default():
    y = np.array(["neg", "pos", "neg", "neg"])
    assert resolve_pos_label(y) == "pos"
    assert resolve_pos_label(y, "neg") == "neg"


def test_count_tie_goes_to_last_sorted_label():
    assert resolve_pos_label([3, 1, 3, 1]) == 3


@pytest.mark.parametrize("bad", ["1", 7, None])
def test_unknown_pos_label_is_rejected_with_the_known_labels(bad):
    if bad is None:
        with pytest.raises(ValueError, match="empty"):
            resolve_pos_label([])
        return
    with pytest.raises(ValueError, match=r"pos_label=.*not one of the class labels"):
        resolve_pos_label([0, 1, 1], bad)


def test_ratio_pair_and_matrix_forms_agree():
    classes = np.array(["a", "b"])
    by_ratio = as_cost_matrix(4.0, classes, pos_label="a")
    by_pair = as_cost_matrix((8.0, 2.0), classes, pos_label="a") / 2
    assert_array_equal(by_ratio, by_pair)
    # cost[true, predicted]: a positive "a" predicted "b" is the false negative, C1.
    assert by_ratio[0, 1] == 4.0 and by_ratio[1, 0] == 1.0
    assert_array_equal(as_cost_matrix(by_ratio, classes), by_ratio)
    assert binary_costs_from_matrix(by_ratio, classes, "a") == (4.0, 1.0)


def test_positive_class_index_follows_label_not_position():
    classes = np.array([0, 1])
    m = as_cost_matrix((5, 1), classes, pos_label=0)
    assert m[0, 1] == 5 and m[1, 0] == 1
    m = as_cost_matrix((5, 1), classes, y=[0, 1, 1])  # minority is 0
    assert m[0, 1] == 5


def test_balanced_costs_are_inverse_class_frequencies():
    y = np.array([0] * 6 + [1] * 2 + [2] * 4)
    m = as_cost_matrix(None, [0, 1, 2], y=y)
    n, k = 12, 3
    for i, count in enumerate([6, 2, 4]):
        off = np.delete(m[i], i)
        assert_allclose(off, n / (k * count))
        assert m[i, i] == 0
    # binary: the ratio is the imbalance ratio
    m2 = as_cost_matrix(None, [0, 1], y=[0] * 9 + [1] * 3)
    assert_allclose(m2[1, 0] / m2[0, 1], 3.0)


@pytest.mark.parametrize(
    "cost, message",
    [
        (0, "> 0"),
        (-2, "> 0"),
        (np.nan, "> 0"),
        (np.inf, "> 0"),
        ((5, 0), "> 0"),
        ((1, 2, 3), "binary cost"),
        ("5", "string"),
        ([[0, 1], [-1, 0]], "negative"),
        ([[1, 1], [1, 0]], "every error costs what the correct prediction costs"),
        ([[2, 1], [5, 0]], r"less than cost\[0, 0\] = 2.*negative regret"),
        ([[0, np.nan], [1, 0]], "NaN"),
        ([[0, 1, 1], [1, 0, 1]], "square"),
        ([[0, 0], [1, 0]], "> 0|no positive"),
    ],
)
def test_invalid_costs_raise_a_clear_error(cost, message):
    with pytest.raises((ValueError, TypeError), match=message):
        as_cost_matrix(cost, [0, 1], pos_label=1)


def test_ratio_for_multiclass_and_matrix_of_wrong_size_are_rejected():
    with pytest.raises(ValueError, match="binary problem"):
        as_cost_matrix(5, [0, 1, 2], pos_label=1)
    with pytest.raises(ValueError, match="3 classes"):
        check_cost_matrix([[0, 1], [1, 0]], n_classes=3)


def test_binary_bayes_decision_is_the_threshold_rule():
    c1, c2 = 5.0, 2.0
    threshold = bayes_threshold((c1, c2))
    assert threshold == pytest.approx(2 / 7)
    p = np.linspace(0, 1, 1001)
    proba = np.column_stack([1 - p, p])  # column 1 is the positive class
    matrix = as_cost_matrix((c1, c2), [0, 1], pos_label=1)
    decision = bayes_decision(proba, matrix)
    # expected cost of predicting + is c2 * (1 - p), of predicting - is c1 * p
    assert_array_equal(decision == 1, c1 * p > c2 * (1 - p))
    away = np.abs(p - threshold) > 1e-12
    assert_array_equal((decision == 1)[away], (p > threshold)[away])


def test_multiclass_bayes_decision_minimises_expected_cost_by_hand():
    matrix = np.array([[0, 1, 10], [2, 0, 1], [3, 3, 0]], dtype=float)
    proba = np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.9, 0.05, 0.05]])
    # hand: row 0 costs per prediction j = sum_i p_i m[i, j]
    # j=0: .3*2+.2*3=1.2; j=1: .5*1+.2*3=1.1; j=2: .5*10+.3*1=5.3 -> 1
    # row 1: j=0: .1*2+.8*3=2.6; j=1: .1+.8*3=2.5; j=2: .1*10+.1=1.1 -> 2
    # row 2: j=0: .05*2+.05*3=.25; j=1: .9+.15=1.05; j=2: 9+.05 -> 0
    assert_array_equal(bayes_decision(proba, matrix), [1, 2, 0])


def test_example_dependent_bayes_decision_uses_each_samples_matrix():
    proba = np.array([[0.5, 0.5], [0.5, 0.5]])
    matrices = np.array([[[0, 3], [1, 0]], [[0, 1], [3, 0]]], dtype=float)
    assert_array_equal(bayes_decision(proba, matrices), [0, 1])


def test_costcla_layout_becomes_cost_rows():
    y = np.array([1, 0, 1, 0])
    layout = np.array(
        [[1.0, 9.0, 0.5, 0.0], [2.0, 7.0, 0.5, 0.1], [1.5, 4.0, 0.2, 0.0], [3, 3, 3, 3]]
    )
    rows = costcla_to_cost_rows(layout, y, [0, 1], pos_label=1)
    # positives: predicting 1 costs TP, predicting 0 costs FN; negatives: FP / TN
    assert_array_equal(rows[0], [9.0, 0.5])
    assert_array_equal(rows[1], [0.1, 2.0])
    assert_array_equal(rows[2], [4.0, 0.2])
    assert_array_equal(rows[3], [3, 3])
    auto = as_cost_rows(y, [0, 1], sample_cost=layout, pos_label=1)
    assert_array_equal(auto, rows)


def test_per_sample_vector_costs_only_errors():
    y = np.array(["x", "y", "z"])
    rows = as_cost_rows(y, ["x", "y", "z"], sample_cost=[1.0, 2.0, 3.0])
    assert_array_equal(rows, [[0, 1, 1], [2, 0, 2], [3, 3, 0]])


@pytest.mark.parametrize(
    "sample_cost, message",
    [
        ([1.0, -1.0, 1.0], "negative"),
        ([1.0, np.nan, 1.0], "NaN"),
        ([0.0, 0.0, 0.0], "all zero"),
        ([1.0, 1.0], "3 samples"),
        (np.ones((3, 5)), "shape"),
    ],
)
def test_invalid_sample_costs_raise(sample_cost, message):
    with pytest.raises(ValueError, match=message):
        as_cost_rows([0, 1, 1], [0, 1], sample_cost=sample_cost)


@given(c1=positive_floats, c2=positive_floats)
@settings(max_examples=50, deadline=None)
def test_sample_costs_of_a_binary_problem_are_c1_and_c2(c1, c2):
    y = np.array([0, 1, 1, 0, 1])
    resolved = Costs.resolve((c1, c2), y, pos_label=1)
    assert_allclose(resolved.sample_cost, np.where(y == 1, c1, c2))
    assert resolved.pos_index == 1


@given(scale=positive_floats)
@settings(max_examples=30, deadline=None)
def test_bayes_decision_is_invariant_to_scaling_the_costs(scale):
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), size=50)
    matrix = np.array([[0, 1, 4], [2, 0, 1], [5, 1, 0]], dtype=float)
    assert_array_equal(
        bayes_decision(proba, matrix), bayes_decision(proba, matrix * scale)
    )


def test_sample_costs_are_mean_extra_cost_of_a_wrong_class():
    rows = np.array([[0.0, 2.0, 4.0], [1.0, 1.0, 7.0]])
    assert_allclose(sample_costs(rows, [0, 1]), [3.0, 3.0])  # (2+4)/2; (1+7)/2 - 1


def test_task_scores_round_trip_and_one_hot():
    y = np.array([0, 2, 1])
    one_hot_rows = as_cost_rows(y, [0, 1, 2], cost=np.ones((3, 3)) - np.eye(3))
    assert_array_equal(task_scores(one_hot_rows), np.eye(3)[y])
    matrix = np.array([[0, 1], [5, 0]], dtype=float)  # class 1 positive
    rows = as_cost_rows([1, 0], [0, 1], cost=matrix)
    scores = task_scores(rows)
    # paper 004: a negative at C1/C2 = 5 scores (1, 0.8)
    assert_allclose(scores[1], [1.0, 0.8])
    assert_allclose(cost_rows_from_scores(scores), rows / rows.max())
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        cost_rows_from_scores([[1.2, 0.0]])


def test_costs_resolve_with_example_costs_summarises_a_class_matrix():
    y = np.array([0, 0, 1])
    resolved = Costs.resolve(None, y, sample_cost=[1.0, 3.0, 10.0])
    assert resolved.example_dependent
    assert_allclose(resolved.matrix, [[0, 2], [10, 0]])
    assert resolved.pos_label == 1


def test_as_binary_costs_rejects_bools_and_strings():
    with pytest.raises((TypeError, ValueError)):
        as_binary_costs(("a", 1))
    assert as_binary_costs(3) == (3.0, 1.0)


# ------------------------------------------------------- named four-part costs
def _four_parts(n: int = 6, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {name: rng.uniform(0, 10, n) for name in ("fp", "fn", "tp", "tn")}


@pytest.mark.parametrize("classes, pos_label", [([0, 1], 1), (["no", "yes"], "no")])
def test_four_part_costs_are_the_matrices_built_by_hand(classes, pos_label):
    parts = _four_parts()
    matrices = example_costs(**parts).matrices(classes, pos_label)
    pos = classes.index(pos_label)
    neg = 1 - pos
    for r in range(6):
        by_hand = np.empty((2, 2))
        by_hand[neg, neg] = parts["tn"][r]  # truth negative, predicted negative
        by_hand[neg, pos] = parts["fp"][r]
        by_hand[pos, neg] = parts["fn"][r]
        by_hand[pos, pos] = parts["tp"][r]
        assert_array_equal(matrices[r], by_hand)


def test_four_part_cost_rows_are_each_rows_true_class_row():
    parts = _four_parts()
    y = np.array([0, 1, 1, 0, 1, 0])
    costs = example_costs(**parts)
    rows = costs.rows(y, [0, 1], pos_label=1)
    assert_array_equal(rows[y == 1], np.c_[parts["fn"], parts["tp"]][y == 1])
    assert_array_equal(rows[y == 0], np.c_[parts["tn"], parts["fp"]][y == 0])
    # the same rows through as_cost_rows and the costcla layout
    layout = np.c_[parts["fp"], parts["fn"], parts["tp"], parts["tn"]]
    assert_array_equal(as_cost_rows(y, [0, 1], sample_cost=costs, pos_label=1), rows)
    assert_array_equal(costcla_to_cost_rows(layout, y, [0, 1], 1), rows)
    assert_array_equal(np.asarray(costs), layout)


def test_four_part_costs_broadcast_numbers_and_take_rows():
    costs = example_costs(fp=2.0, fn=[5.0, 6.0, 7.0])
    assert len(costs) == 3
    assert_array_equal(costs.fp, [2.0, 2.0, 2.0])
    assert_array_equal(costs.tp, [0.0, 0.0, 0.0])
    part = costs.take([2, 0])
    assert_array_equal(part.fn, [7.0, 5.0])
    assert_array_equal(costs[np.array([True, False, True])].fn, [5.0, 7.0])
    assert len(example_costs(fp=1.0, fn=4.0, n_samples=5)) == 5


@pytest.mark.parametrize(
    "parts, message",
    [
        ({"fp": 1.0, "fn": 5.0}, "cost=.*n_samples"),
        ({"fp": [1.0, 2.0], "fn": [1.0, 2.0, 3.0]}, "different lengths"),
        ({"fp": [1.0, np.nan], "fn": 1.0}, "fp holds NaN"),
        ({"fp": 1.0, "fn": [1.0, np.inf]}, "fn holds NaN or infinite"),
        ({"fp": np.ones((2, 2)), "fn": 1.0}, "fp must be a number or 1-D"),
        ({"fp": 1.0, "fn": ["a", "b"]}, "fn must be a number"),
        ({"fp": 1.0, "fn": 2.0, "tn": np.inf, "n_samples": 2}, "tn=inf"),
    ],
)
def test_bad_four_part_costs_name_the_argument(parts, message):
    with pytest.raises((ValueError, TypeError), match=message):
        example_costs(**parts)


def test_four_part_costs_from_series_must_share_an_index():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"fp": [1.0, 2.0, 3.0], "fn": [4.0, 5.0, 6.0]}, index=[7, 3, 5]
    )
    costs = example_costs(fp=frame["fp"], fn=frame["fn"])  # one frame: one index
    assert_array_equal(costs.fn, [4.0, 5.0, 6.0])
    shuffled = frame["fn"].sort_index()
    with pytest.raises(ValueError, match="fp and fn are pandas Series with different"):
        example_costs(fp=frame["fp"], fn=shuffled)


def test_four_part_costs_need_two_classes_and_a_known_positive():
    costs = example_costs(fp=[1.0, 2.0, 3.0], fn=4.0)
    with pytest.raises(ValueError, match="binary.*3 classes"):
        as_cost_rows([0, 1, 2], [0, 1, 2], sample_cost=costs)
    with pytest.raises(ValueError, match="pos_label=5"):
        costs.matrices([0, 1], 5)
    with pytest.raises(ValueError, match="3 rows but y has 2"):
        costs.rows([0, 1], [0, 1], 1)


def test_row_cost_matrices_reads_every_layout_that_says_what_each_decision_costs():
    parts = _four_parts(4)
    costs = example_costs(**parts)
    layout = np.asarray(costs)
    from_parts = row_cost_matrices(costs, [0, 1], 1, n_samples=4)
    assert_array_equal(row_cost_matrices(layout, [0, 1], 1), from_parts)
    assert_array_equal(row_cost_matrices(from_parts, [0, 1], n_samples=4), from_parts)
    with pytest.raises(ValueError, match="sample_cost has shape"):
        row_cost_matrices(np.ones((4, 2)), [0, 1], 1)
    with pytest.raises(ValueError, match="4 rows but X has 3"):
        row_cost_matrices(costs, [0, 1], 1, n_samples=3)


def test_experiments_keep_the_name_row_cost_matrices():
    from costsense.experiments import row_cost_matrices as reexported

    assert reexported is row_cost_matrices


# ------------------------------------------------------------ any real diagonal
def test_adding_a_constant_to_each_truth_row_changes_no_bayes_decision():
    rng = np.random.default_rng(3)
    proba = rng.dirichlet(np.ones(3), size=200)
    matrix = rng.uniform(1, 10, (3, 3))
    np.fill_diagonal(matrix, 0.0)
    shift = rng.uniform(-5, 5, 3)
    shifted = matrix + shift[:, None]
    assert_array_equal(bayes_decision(proba, shifted), bayes_decision(proba, matrix))
    # per-row matrices, each shifted by its own constants
    per_row = rng.uniform(0, 10, (200, 3, 3))
    row_shift = rng.uniform(-5, 5, (200, 3, 1))
    assert_array_equal(
        bayes_decision(proba, per_row + row_shift), bayes_decision(proba, per_row)
    )


def test_a_matrix_with_a_diagonal_keeps_its_costs_and_decides_by_differences():
    matrix = [[1.0, 3.0], [12.0, 2.0]]  # a correct decision costs 1 or 2
    assert_array_equal(check_cost_matrix(matrix), matrix)
    assert_array_equal(zero_diagonal(matrix), [[0.0, 2.0], [10.0, 0.0]])
    # C1 = 12 - 2 (false negative over true positive), C2 = 3 - 1
    assert binary_costs_from_matrix(matrix, [0, 1], 1) == (10.0, 2.0)
    # benefits (negative costs) are allowed when errors still cost more
    assert_array_equal(check_cost_matrix([[-4.0, 1.0], [5.0, -1.0]])[0], [-4.0, 1.0])


def test_the_reduction_relabels_rows_whose_error_is_cheaper_than_being_right():
    rows = np.array([[0.0, 5.0], [3.0, 1.0], [2.0, 7.0], [6.0, 4.0]])
    y_index = np.array([0, 1, 1, 1])  # row 2's error (2) is cheaper than right (7)
    index, weight = cost_reduction(rows, y_index)
    assert_array_equal(index, [0, 1, 0, 1])
    assert_array_equal(weight, np.abs(rows[:, 1] - rows[:, 0]))
    assert_array_equal(zero_diagonal_rows(rows, y_index)[2], [-5.0, 0.0])


# ------------------------------------------------------ labelled cost matrices
_ORDERED = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 3.0], [8.0, 5.0, 1.0]])
_LABELS = ["bird", "cat", "dog"]


def test_a_reordered_labelled_matrix_is_aligned_by_label():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_ORDERED, index=_LABELS, columns=_LABELS)
    shuffled = frame.loc[["dog", "bird", "cat"], ["cat", "dog", "bird"]]
    assert_array_equal(as_cost_matrix(shuffled, _LABELS), _ORDERED)
    as_dict = {t: {p: frame.loc[t, p] for p in _LABELS} for t in reversed(_LABELS)}
    assert_array_equal(as_cost_matrix(as_dict, _LABELS), _ORDERED)
    # a dict may leave out a zero diagonal
    sparse = {"bird": {"cat": 1, "dog": 4}, "cat": {"bird": 2, "dog": 3}}
    sparse["dog"] = {"bird": 8, "cat": 5, "dog": 1}
    assert_array_equal(as_cost_matrix(sparse, _LABELS), _ORDERED)


@pytest.mark.parametrize(
    "rename, message",
    [
        ({"dog": "fish"}, r"labels \['fish'\] that are not classes.*no entry for "
         r"classes \['dog'\]"),
        ({"cat": 1}, r"labels \[1\] that are not classes"),
    ],
)  # fmt: skip
def test_a_mislabelled_matrix_is_refused_naming_the_labels(rename, message):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_ORDERED, index=_LABELS, columns=_LABELS).rename(
        index=rename, columns=rename
    )
    with pytest.raises(ValueError, match=message):
        as_cost_matrix(frame, _LABELS)
    as_dict = {t: dict(row) for t, row in frame.T.to_dict().items()}
    with pytest.raises(ValueError, match=message):
        as_cost_matrix(as_dict, _LABELS)


def test_a_dict_missing_an_error_cost_is_refused_naming_the_pair():
    partial = {"bird": {"cat": 1}, "cat": {"bird": 2, "dog": 3}, "dog": {"bird": 8}}
    with pytest.raises(ValueError, match=r"\('bird', 'dog'\).*\('dog', 'cat'\)"):
        as_cost_matrix(partial, _LABELS)


# ------------------------------------------------------------- the one cost value
def _labels_and_matrices(n: int = 12, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.array([0, 1] * (n // 2))
    matrices = rng.uniform(0.0, 5.0, size=(n, 2, 2))
    matrices[:, 0, 1] += 5.0  # every error costs more than being right
    matrices[:, 1, 0] += 5.0
    return y, matrices


def test_costs_resolve_from_each_form_gives_the_hand_built_matrices():
    y, matrices = _labels_and_matrices()
    n = y.shape[0]
    own = matrices[np.arange(n), y]  # (n, 2) cost rows of the true classes
    parts = example_costs(
        fp=matrices[:, 0, 1], fn=matrices[:, 1, 0], tp=matrices[:, 1, 1],
        tn=matrices[:, 0, 0],
    )  # fmt: skip
    costcla = np.asarray(parts)
    for layout in (parts, costcla, matrices):
        costs = Costs.resolve(None, y, pos_label=1, sample_cost=layout)
        assert costs.kind == "per-row" and costs.example_dependent
        assert_allclose(costs.rows, own)
        assert_allclose(costs.per_row, matrices)
        assert_allclose(costs.matrix, [own[y == 0].mean(0), own[y == 1].mean(0)])
        assert_array_equal(costs.y_index, y)
    rows_only = Costs.resolve(None, y, pos_label=1, sample_cost=own)
    assert rows_only.per_row is None
    assert_allclose(rows_only.rows, own)
    errors = np.arange(1.0, n + 1)
    one = Costs.resolve(None, y, pos_label=1, sample_cost=errors)
    assert_allclose(one.rows, np.where(np.eye(2)[y] == 1, 0.0, errors[:, None]))
    # class-level forms: a ratio, a pair, a matrix, balanced costs
    ratio = Costs.resolve(5, y, pos_label=1)
    assert (ratio.kind, ratio.pair) == ("ratio", (5.0, 1.0))
    assert_allclose(ratio.matrix, [[0, 1], [5, 0]])
    assert_allclose(ratio.rows, ratio.matrix[y])
    pair = Costs.resolve((5, 2), y, pos_label=0)
    assert (pair.kind, pair.pair) == ("pair", (5.0, 2.0))
    assert_allclose(pair.matrix, [[0, 5], [2, 0]])
    matrix = Costs.resolve([[1, 4], [6, 2]], y, pos_label=1)
    assert (matrix.kind, matrix.pair) == ("matrix", (4.0, 3.0))
    assert Costs.resolve(None, y).kind == "balanced"


def test_costs_resolve_takes_a_resolved_costs_as_sample_cost():
    y, matrices = _labels_and_matrices()
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=matrices)
    again = Costs.resolve(1.0, y, pos_label=1, sample_cost=costs)
    assert_allclose(again.rows, costs.rows)
    assert_allclose(again.per_row, costs.per_row)
    assert_allclose(as_cost_rows(y, [0, 1], sample_cost=costs), costs.rows)
    assert_allclose(row_cost_matrices(costs, [0, 1]), matrices)
    with pytest.raises(ValueError, match="classes"):
        Costs.resolve(1.0, y + 1, sample_cost=costs)


def test_costs_take_equals_resolving_the_subset():
    y, matrices = _labels_and_matrices()
    subset = np.array([0, 3, 4, 7, 8, 11])
    for cost, sample_cost in ((None, matrices), ((5, 2), None)):
        whole = Costs.resolve(cost, y, pos_label=1, sample_cost=sample_cost)
        part = Costs.resolve(
            cost,
            y[subset],
            pos_label=1,
            sample_cost=None if sample_cost is None else sample_cost[subset],
        )
        taken = whole.take(subset)
        assert_allclose(taken.matrix, part.matrix)
        assert_allclose(taken.rows, part.rows)
        assert_array_equal(taken.y_index, part.y_index)
        assert len(taken) == subset.size and taken.kind == part.kind
        assert_allclose(whole[subset, ...].rows, part.rows)  # scikit-learn's slicing
        assert_allclose(taken.reduction()[1], part.reduction()[1])


def test_costs_decide_equals_bayes_decision():
    y, matrices = _labels_and_matrices()
    rng = np.random.default_rng(1)
    proba = rng.dirichlet(np.ones(2), size=y.shape[0])
    per_row = Costs.resolve(None, y, pos_label=1, sample_cost=matrices)
    assert_array_equal(per_row.decide(proba), bayes_decision(proba, matrices))
    level = Costs.resolve((5, 2), y, pos_label=1)
    assert_array_equal(level.decide(proba), bayes_decision(proba, level.matrix))
    assert_array_equal(level.decide(proba, matrices), bayes_decision(proba, matrices))


def test_per_row_costs_with_a_diagonal_decide_as_their_zero_diagonal_versions():
    y, matrices = _labels_and_matrices(n=40, seed=3)
    rng = np.random.default_rng(2)
    proba = rng.dirichlet(np.ones(2), size=y.shape[0])
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=matrices)
    zeroed = costs.zero_diagonal()
    assert_allclose(np.diagonal(zeroed.per_row, axis1=1, axis2=2), 0.0)
    assert_allclose(zeroed.rows, zero_diagonal_rows(costs.rows, y))
    assert_array_equal(costs.decide(proba), zeroed.decide(proba))
    assert_array_equal(
        costs.decide(proba), Costs.resolve(
            None, y, pos_label=1, sample_cost=zero_diagonal(matrices)
        ).decide(proba),
    )  # fmt: skip
    assert_allclose(costs.reduction()[1], zeroed.reduction()[1])


def test_costs_derived_forms_match_the_functions():
    y, matrices = _labels_and_matrices()
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=matrices - 1.0)
    assert_allclose(costs.sample_cost, sample_costs(costs.rows, y))
    index, weight = cost_reduction(costs.rows, y)
    assert_array_equal(costs.reduction()[0], index)
    assert_allclose(task_scores(costs.rows - costs.rows.min()), costs.task_scores())
    with pytest.raises(ValueError, match="binary"):
        _ = Costs.resolve(np.ones((3, 3)) - np.eye(3), [0, 1, 2]).pair
    with pytest.raises(ValueError, match="labels"):
        Costs(np.array([0, 1]), 1, np.array([[0.0, 1.0], [2.0, 0.0]])).reduction()


def test_named_parts_give_the_rows_costs_and_their_mean_matrix():
    y = np.array([0, 1, 0, 1, 0])
    amount = np.array([10.0, 20.0, 30.0, 40.0, 50.0])
    rows = part_costs({"fp": 5.0, "fn": "amount", "tp": 1.0, "tn": 0.0},
                      {"amount": amount}, y.shape[0])  # fmt: skip
    assert_array_equal(rows.fn, amount)
    assert_array_equal(rows.fp, 5.0)
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=rows)
    assert_allclose(costs.mean_matrix, rows.matrices([0, 1], 1).mean(axis=0))
    assert_allclose(costs.take([1, 3]).mean_matrix, [[0.0, 5.0], [30.0, 1.0]])
    constants = parts_matrix({"fp": 2.0, "fn": 8.0, "tp": 1.0, "tn": 0.5}, [0, 1], 1)
    assert_array_equal(constants, [[0.5, 2.0], [8.0, 1.0]])
    resolved = Costs.resolve(constants, y, pos_label=1)
    assert_array_equal(resolved.mean_matrix, resolved.matrix)


def test_an_unchecked_matrix_is_taken_as_given():
    y = np.array([0, 1, 2, 2])
    matrix = np.zeros((3, 3))  # all errors free: Costs.resolve refuses it
    with pytest.raises(ValueError, match="free"):
        Costs.resolve(matrix, y)
    costs = Costs.unchecked(matrix, y)
    assert costs.pos_label is None and costs.kind == "matrix"
    assert_array_equal(costs.matrix, matrix)
    assert_array_equal(costs.y_index, [0, 1, 2, 2])


def test_per_row_costs_resolved_for_the_same_rows_are_passed_on_as_they_are():
    y = np.array([0, 1, 0, 1, 0, 0])
    rows = example_costs(fp=1.0, fn=[5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    costs = Costs.resolve(None, y, pos_label=1, sample_cost=rows)
    assert Costs.resolve(None, y, pos_label=1, sample_cost=costs) is costs
    train = costs.take([0, 1, 2, 3])
    again = Costs.resolve(None, y[:4], pos_label=1, sample_cost=train)
    assert again is train
    other = Costs.resolve(None, y[::-1], pos_label=1, sample_cost=costs)
    assert other is not costs  # other labels: resolved anew from its matrices
    assert_allclose(other.per_row, costs.per_row)
    assert_allclose(
        Costs.resolve(
            None, y[:4], pos_label=1, sample_cost=rows.take([0, 1, 2, 3])
        ).rows,
        train.rows,
    )
