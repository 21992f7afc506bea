"""The decision report: decisions re-made over out-of-fold probabilities."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from costsense.costs import Costs
from costsense.decision import decision_report
from costsense.exceptions import CalibrationWarning
from costsense.experiments import pooled_probabilities


def _rows(proba_of, folds):
    """Pooled as from evaluate's rows: each fold's test rows and probabilities."""
    rows = [
        {"algorithm": model, "fold": f, "test_index": test, "proba": proba[test]}
        for model, proba in proba_of.items()
        for f, test in enumerate(folds)
    ]
    pooled = pooled_probabilities([*rows, {"algorithm": "svm", "proba": None}])
    assert set(pooled) == set(proba_of)  # a model without probabilities is left out
    for model, (index, proba) in pooled.items():
        assert np.array_equal(proba, proba_of[model][index])
    return pooled


def test_savings_at_capacity_per_period_equal_a_hand_count():
    rng = np.random.default_rng(0)
    n = 120
    p = rng.random(n)
    y = (rng.random(n) < p).astype(int)
    proba = np.column_stack([1 - p, p])
    day = np.repeat(np.arange(4), 30)
    folds = np.array_split(rng.permutation(n), 3)
    costs = Costs.resolve((5, 1), y)  # a missed positive 5, a false alarm 1
    report = decision_report(
        _rows({"m": proba}, folds), y, costs, capacity={1: 3}, per=day, n_resamples=50
    )
    # by hand: per day, flag the 3 rows of largest positive expected saving
    saving_of_flag = 5 * p - (1 - p)  # expected cost of passing less of flagging
    flagged = np.zeros(n, bool)
    for d in range(4):
        rows = np.flatnonzero(day == d)
        top = rows[np.argsort(-saving_of_flag[rows])[:3]]
        flagged[top[saving_of_flag[top] > 0]] = True
    cost = np.where(flagged, (y == 0) * 1.0, (y == 1) * 5.0).sum()
    nobody = 5.0 * y.sum()  # a capacity limits acting: savings over acting on none
    assert report.rows == {"m": n}
    assert report.default == 0
    assert report.savings["m"].saving == pytest.approx(nobody - cost)
    assert report.best == "m"
    assert report.sensitivity[0]["part"] == "as given"
    assert report.sensitivity[0]["saving"] == pytest.approx(nobody - cost)
    shares = [point["share"] for point in report.curves["m"]]
    assert shares == [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]


def test_the_best_model_is_the_one_whose_decisions_save_most():
    rng = np.random.default_rng(1)
    n = 200
    p = rng.random(n)
    y = (rng.random(n) < p).astype(int)
    folds = np.array_split(np.arange(n), 4)
    good = np.column_stack([1 - p, p])
    blind = np.full((n, 2), 0.5)  # decides the same for every row
    costs = Costs.resolve((2, 1), y, pos_label=1)
    report = decision_report(
        _rows({"good": good, "blind": blind}, folds), y, costs, n_resamples=50
    )
    assert report.best == "good"
    # at 2:1 a probability of 1/2 flags every row: all-positive against none
    everybody, nobody = n - y.sum(), 2.0 * y.sum()
    assert report.savings["blind"].saving == pytest.approx(nobody - everybody)
    assert report.savings["good"].saving > report.savings["blind"].saving
    against_best = decision_report(
        _rows({"blind": blind}, folds), y, costs, default=1, n_resamples=50
    )
    assert against_best.savings["blind"].saving == pytest.approx(0.0)


def test_costly_miscalibration_warns_naming_the_model_and_the_money():
    rng = np.random.default_rng(2)
    n = 3000
    p = rng.random(n)
    y = (rng.random(n) < p).astype(int)
    shrunk = p / 8  # far too low: a missed positive (cost 5) is rarely flagged
    folds = np.array_split(np.arange(n), 3)
    costs = Costs.resolve((5, 1), y)
    rows = _rows({"squashed": np.column_stack([1 - shrunk, shrunk])}, folds)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = decision_report(rows, y, costs, n_resamples=200)
    check = report.calibration["squashed"]
    assert check.costs_money and check.difference > 0
    (warning,) = [w for w in caught if w.category is CalibrationWarning]
    said = str(warning.message)
    assert said.startswith("squashed: miscalibrated probabilities cost money")
    assert f"{check.difference:.2f} less on the {n} test rows" in said
