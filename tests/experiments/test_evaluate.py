from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.linear_model import Perceptron
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costsense.costs import Costs
from costsense.decision import ActionCosts
from costsense.experiments import (
    CURRENT,
    FOLD_METRICS,
    TIME_COLUMNS,
    Protocol,
    Study,
    decide,
    decides_rows,
    evaluate,
    forward_chaining,
    make_model,
    summarise,
)
from costsense.experiments._plan import splits
from costsense.margin import CSSVMClassifier
from costsense.rescale import CostWeighting, RejectionSampling


def _data(n=200, seed=1):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.2, "pos", "neg")
    X = rng.normal(size=(n, 2)) + 1.2 * (y == "pos")[:, None]
    return X, y


def _row(model, fold, value, **more):
    metrics = dict.fromkeys(FOLD_METRICS, value)
    times = {"fit_time": 1.0, "predict_time": 0.5}
    return {"algorithm": model, "fold": fold, "metrics": metrics, **times,
            "diagnostics": {"constant": False}, **more}  # fmt: skip


def test_fold_costs_equal_a_hand_recomputation_on_the_study_folds():
    X, y = _data()
    rows = evaluate(X, y, ["plain", "threshold"], cost=(5, 1), n_splits=4, seed=3)
    assert len(rows) == 8
    assert [(r["fold"], r["algorithm"]) for r in rows] == [
        (f, m) for f in range(4) for m in ("plain", "threshold")
    ]  # plan order: every model sees the same folds
    study = Study("evaluate", 3, ("data",), ("5:1",), (), Protocol(n_splits=4))
    for fold, (train, test) in enumerate(splits(study, "data", y, 0)):
        for name in ("plain", "threshold"):
            row = next(r for r in rows if r["algorithm"] == name and r["fold"] == fold)
            model = make_model(
                name, cost=np.array([[0, 1], [5, 0]]), pos_label="pos",
                seed=row["seed"],
            ).fit(X[train], y[train])  # fmt: skip
            pred = model.predict(X[test])
            fn = np.sum((y[test] == "pos") & (pred == "neg"))
            fp = np.sum((y[test] == "neg") & (pred == "pos"))
            assert row["metrics"]["cost_total"] == pytest.approx(5 * fn + fp)
            assert row["metrics"]["mean_cost"] == pytest.approx(
                (5 * fn + fp) / len(test)
            )
            tp = np.sum((y[test] == "pos") & (pred == "pos"))
            assert row["metrics"]["recall"] == pytest.approx(
                tp / np.sum(y[test] == "pos")
            )
            assert row["n_test"] == len(test) and row["curves"] == []


def test_evaluate_rows_are_the_same_in_worker_processes():
    X, y = _data()
    one = evaluate(X, y, ["plain", "threshold"], cost=5, n_splits=3, n_jobs=1)
    two = evaluate(X, y, ["plain", "threshold"], cost=5, n_splits=3, n_jobs=2)
    kept = ("test_index", "proba")  # arrays: compared apart
    timeless = [
        [{k: v for k, v in r.items() if k not in (*TIME_COLUMNS, *kept)} for r in rows]
        for rows in (one, two)
    ]
    assert timeless[0] == timeless[1]
    for a, b in zip(one, two, strict=True):
        assert_array_equal(a["test_index"], b["test_index"])
        assert_array_equal(a["proba"], b["proba"])


def test_threshold_moving_lowers_the_cost_of_a_high_cost_ratio():
    X, y = _data(n=600)
    rows = evaluate(X, y, ["plain", "threshold"], cost=10, n_splits=3, seed=0)
    mean = {
        m: np.mean([r["metrics"]["cost_total"] for r in rows if r["algorithm"] == m])
        for m in ("plain", "threshold")
    }
    assert mean["threshold"] < mean["plain"]


def test_summary_cells_are_mean_and_sample_std_with_the_best_marked():
    rows = [_row("a", 0, 1.0), _row("a", 1, 3.0), _row("b", 0, 4.0), _row("b", 1, 4.0)]
    table = summarise(rows, ["a", "b"])
    header, a, b = table
    assert header[1] == "cost_total"
    # mean 2, sample std sqrt(2) = 1.414; lowest cost is best
    assert a[1] == "2.0 (1.4)*"
    assert b[1] == "4.0 (0.0) "
    recall = header.index("recall")
    assert a[recall] == "2.000 (1.414) "
    assert b[recall] == "4.000 (0.000)*"
    assert header[-4:] == ["fit_time", "predict_time", "folds", "notes"]
    assert a[-4:] == ["1.00", "0.50", "2/2", ""]


def test_summary_marks_failures_and_constant_folds_and_best_only_among_two():
    rows = [
        _row("a", 0, 1.0, diagnostics={"constant": True}),
        {"algorithm": "a", "fold": 1, "error": "ValueError: bad\nsecond line"},
    ]
    header, a = summarise(rows, ["a"], {"a": ["cost-blind"]})
    assert a[1] == "1.0 (0.0) "  # one model: nothing is best
    assert a[-2] == "1/2"
    assert a[-1] == (
        "cost-blind; CONSTANT: predicts one class in 1 fold(s); "
        "FAILED in 1 fold(s): ValueError: bad second line"
    )


def test_one_class_or_one_fold_is_refused_before_any_fit():
    X = np.zeros((20, 2))
    with pytest.raises(ValueError, match=r"one class \(1\.0\); a classifier needs two"):
        evaluate(X, np.ones(20), ["plain"], cost=5)
    y = np.repeat([0, 1], 10)
    with pytest.raises(ValueError, match="n_splits=1: cross-validation needs 2 folds"):
        evaluate(X, y, ["plain"], cost=5, n_splits=1)


def test_evaluate_needs_a_matrix_for_multiclass_targets():
    X = np.arange(30, dtype=float)[:, None]
    y = np.repeat([0, 1, 2], 10)
    with pytest.raises(ValueError, match=r"3 classes; give a \(K, K\) cost matrix"):
        evaluate(X, y, ["plain"], cost=5, n_splits=2)
    matrix = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    rows = evaluate(X, y, ["plain"], cost=matrix, n_splits=2, base="tree")
    # unit costs: the cost of a fold is its number of errors
    for row in rows:
        found = row["metrics"]
        assert found["cost_total"] == pytest.approx(15 * (1 - found["accuracy"]))
        assert row["cost"] == "matrix" and row["diagnostics"]["constant"] is False
    with pytest.raises(ValueError, match="one per test fold"):
        evaluate(X[:9], np.repeat([0, 1, 2], 3), ["plain"], cost=matrix)


def test_a_multiclass_matrix_is_validated_and_aligned_by_label():
    X = np.arange(30, dtype=float)[:, None]
    y = np.repeat(["a", "b", "c"], 10)
    bad = np.array([[0, 1, 1], [1, 0, -1], [1, 1, 0]])
    with pytest.raises(ValueError, match="negative"):
        evaluate(X, y, ["plain"], cost=bad, n_splits=2)
    with pytest.raises(ValueError, match="2 x 2 but there are 3 classes"):
        evaluate(X, y, ["plain"], cost=np.ones((2, 2)), n_splits=2)
    ordered = pd.DataFrame([[0, 1, 4], [2, 0, 1], [9, 3, 0]], index=list("abc"),
                           columns=list("abc"))  # fmt: skip
    shuffled = ordered.loc[list("cab"), list("bca")]
    first, second = (
        evaluate(X, y, ["plain"], cost=c, n_splits=2, base="tree")
        for c in (ordered, shuffled)
    )
    assert [r["metrics"] for r in first] == [r["metrics"] for r in second]
    mislabelled = ordered.rename(index={"c": "z"})
    with pytest.raises(ValueError, match="z"):
        evaluate(X, y, ["plain"], cost=mislabelled, n_splits=2)


def test_unknown_model_and_base_are_named():
    with pytest.raises(ValueError, match="magic"):
        make_model("magic", cost=5, pos_label=1)
    with pytest.raises(ValueError, match="jungle"):
        make_model("plain", base="jungle", cost=5, pos_label=1)


def test_decide_asks_each_model_for_its_per_row_decision_where_it_has_one():
    X, y = make_classification(n_samples=150, weights=[0.8], random_state=0)
    rng = np.random.default_rng(0)
    rows = np.column_stack([rng.uniform(0.5, 2, 150), rng.uniform(1, 40, 150),
                            np.zeros(150), np.zeros(150)])  # fmt: skip
    huge_fn = rows * [0, 1, 0, 0] + [1, 1e9, 0, 0]
    deciding = [
        make_pipeline(StandardScaler(), RejectionSampling(Perceptron(), cost=3)),
        CostWeighting(cost=3),
        CSSVMClassifier(cost=3, probability=True),
    ]
    for model in deciding:
        model.fit(X, y)
        assert decides_rows(model[-1] if hasattr(model, "steps") else model)
        assert_array_equal(decide(model, X, rows), model.predict(X, sample_cost=rows))
        pushed, plain_labels = decide(model, X, huge_fn), model.predict(X)
        assert np.all(pushed >= plain_labels) and pushed.sum() > plain_labels.sum()
    plain = [CostWeighting(Perceptron(), cost=3), CSSVMClassifier(cost=3)]
    for model in plain:
        model.fit(X, y)
        assert not decides_rows(model)
        assert_array_equal(decide(model, X, huge_fn), model.predict(X))


def test_the_best_is_marked_only_among_models_that_ran_the_same_folds():
    # interrupted: a and b finished folds 0 and 1, c only fold 0 (its best cost)
    rows = [_row("a", 0, 3.0), _row("b", 0, 4.0), _row("c", 0, 1.0),
            _row("a", 1, 3.0), _row("b", 1, 4.0)]  # fmt: skip
    header, a, b, c = summarise(rows, ["a", "b", "c"])
    assert [a[1], b[1], c[1]] == ["3.0 (0.0)*", "4.0 (0.0) ", "1.0 (0.0) "]
    assert (c[-2], c[-1]) == ("1/1", "not compared for *: other folds ran")
    assert a[-1] == b[-1] == ""


def _row_costs(y, seed=0):
    """Per-row costs: a missed positive costs its amount, a false alarm 1."""
    amount = np.random.default_rng(seed).uniform(1, 20, size=len(y))
    matrices = np.zeros((len(y), 2, 2))
    matrices[:, 0, 1], matrices[:, 1, 0] = 1.0, amount  # classes neg, pos
    return Costs.resolve(None, y, pos_label="pos", sample_cost=matrices), matrices


def _refit(name, row, X, y, train, cost=((0, 1), (5, 0))):
    matrix = np.asarray(cost, float)
    model = make_model(name, cost=matrix, pos_label="pos", seed=row["seed"])
    return model.fit(X[train], y[train])


def test_the_current_decision_costs_what_a_hand_count_says_and_gains_are_paired():
    X, y = _data()
    current = np.where(X[:, 0] > 0.5, "pos", "neg")
    rows = evaluate(X, y, ["plain"], cost=(5, 1), n_splits=3, current=current)
    study = Study("evaluate", 0, ("data",), ("5:1",), (), Protocol(n_splits=3))
    for fold, (_, test) in enumerate(splits(study, "data", y, 0)):
        now = next(r for r in rows if r["algorithm"] == CURRENT and r["fold"] == fold)
        fn = np.sum((y[test] == "pos") & (current[test] == "neg"))
        fp = np.sum((y[test] == "neg") & (current[test] == "pos"))
        assert now["metrics"]["cost_total"] == pytest.approx(5 * fn + fp)
        assert_array_equal(now["test_index"], test)
        model = next(r for r in rows if r["algorithm"] == "plain" and r["fold"] == fold)
        assert model["metrics"]["gain_over_current"] == pytest.approx(
            5 * fn + fp - model["metrics"]["cost_total"]
        )
    table = summarise(rows, ["plain", CURRENT])
    assert table[0][-5] == "gain_over_current" and table[2][0] == CURRENT


def test_a_cost_blind_model_decides_by_its_labels_at_the_rows_own_costs():
    X, y = _data()
    costs, matrices = _row_costs(y)
    rows = evaluate(X, y, ["plain", "random-forest"], cost=costs, n_splits=3)
    study = Study("evaluate", 0, ("data",), ("x",), (), Protocol(n_splits=3))
    index = (y == "pos").astype(int)
    for fold, (train, test) in enumerate(splits(study, "data", y, 0)):
        for name in ("plain", "random-forest"):
            row = next(r for r in rows if r["algorithm"] == name and r["fold"] == fold)
            model = _refit(name, row, X, y, train)
            pred = (model.predict(X[test]) == "pos").astype(int)
            hand = matrices[test, index[test], pred].sum()
            assert row["metrics"]["cost_total"] == pytest.approx(hand)
            # the kept out-of-fold probabilities are the refitted model's
            assert_array_equal(row["test_index"], test)
            assert np.allclose(row["proba"], model.predict_proba(X[test]))


def test_actions_are_decided_from_probabilities_and_scored_at_realised_costs():
    X, y = _data()
    table = ActionCosts([[0, 1, 5], [20, 4, 0]], ["allow", "review", "block"])
    today = np.where(X[:, 1] > 1, "block", "allow")
    rows = evaluate(X, y, ["plain"], actions=table, n_splits=3, current=today)
    study = Study("evaluate", 0, ("data",), ("x",), (), Protocol(n_splits=3))
    cost = table.table[(y == "pos").astype(int)]  # (n, 3): each action's cost
    for fold, (train, test) in enumerate(splits(study, "data", y, 0)):
        row = next(r for r in rows if r["algorithm"] == "plain" and r["fold"] == fold)
        proba = _refit("plain", row, X, y, train).predict_proba(X[test])
        chosen = np.argmin(proba @ table.table, axis=1)
        total = cost[test, chosen].sum()
        assert row["metrics"]["cost_total"] == pytest.approx(total)
        best = cost[test].sum(axis=0).min()
        assert row["metrics"]["savings"] == pytest.approx(1 - total / best)
        spent = cost[test, np.where(today[test] == "block", 2, 0)].sum()
        assert row["metrics"]["gain_over_current"] == pytest.approx(spent - total)
        assert "recall" not in row["metrics"]  # labels are not what is decided


def test_time_folds_are_the_forward_chaining_ones_and_bad_columns_are_refused():
    X, y = _data()
    time = np.repeat(np.arange(20), 10)[::-1]
    rows = evaluate(X, y, ["plain"], cost=5, n_splits=3, time=time)
    for row, (train, test) in zip(rows, forward_chaining(time, 3, y), strict=True):
        assert_array_equal(row["test_index"], test)
        assert row["n_train"] == train.size
    with pytest.raises(ValueError, match="cannot make 3 forward-chaining"):
        evaluate(X, y, ["plain"], cost=5, n_splits=3, time=np.arange(200) % 3)
    with pytest.raises(ValueError, match=r"current: give one decision per row"):
        evaluate(X, y, ["plain"], cost=5, n_splits=3, current=np.full(200, "maybe"))
    with pytest.raises(ValueError, match="cost/actions: give one"):
        evaluate(X, y, ["plain"], n_splits=3)
