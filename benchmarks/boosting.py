"""Boosting speed: every variant against its floor and against scikit-learn.

Prints, measured in one run on a 100,000 x 20 imbalanced problem
(``make_classification``, ``weights=[0.9]``, ``n_informative=10``, seed 0) with 50
rounds of depth-3 trees and ``cost=5``:

- each variant's fit time, the rounds it kept (``len(estimators_)``: early stopping
  changes the work done) and its fit time over the *floor*, the time of 50 bare
  weighted fits of the same base learner on the same data (a fixed random
  ``sample_weight``; for AsyBL and Asymmetric LogitBoost, ``DecisionTreeRegressor``
  fits to a continuous target): over the 50-fit floor, and over the floor scaled to
  the rounds kept (target <= 1.15). CalibratedAdaBoost fits ``cv=3`` fold ensembles
  on 2/3 of the rows and refits on all of them, so its scaled floor counts those
  fits too (fold-sized fits timed separately; the fold ensembles are assumed to run
  all 50 rounds);
- each variant's fit time over scikit-learn's ``AdaBoostClassifier`` with the same
  trees (target <= 1.0), and for the LogitBoost variants over
  ``GradientBoostingClassifier(n_estimators=50, max_depth=3)``, the closest peer;
- each variant's predict time on the same 100,000 rows and its ratio to
  scikit-learn AdaBoost's (and GradientBoosting's for the LogitBoost variants).

The floors and the scikit-learn baselines take the best of 3 repeats and the
variants the best of 3 when the estimated run fits in ``--budget`` seconds;
otherwise they are measured once (the output says which). Predictions always take
the best of 3. The floor per fit is timed again at the end to show drift.

``--compiled`` measures instead the compiled weak learner of :mod:`costsense.tree`
(``CostSensitiveTreeClassifier`` / ``Regressor``, ``max_depth=3``, histogram
splitter, features binned once per fit): AdaBoostC, AsyB (``early_stopping=False``,
as printed, so it runs all rounds) and AsyBL with it, and with
scikit-learn's trees, against scikit-learn's ``AdaBoostClassifier`` over
``DecisionTreeClassifier(max_depth=3)`` (50 rounds; target: >= 20x faster fit at
equal or lower test cost) and against LightGBM growing 50 depth-3 trees on one
thread (target: within 3x of its fit time). Training on 100,000 rows, test cost
(total, ``cost=5``, minority class positive) on 50,000 more rows of the same
problem. Each fit is the best of ``--repeats`` (default 3); numba's compilation is
paid in a warm-up and reported.

Usage: ``.venv/bin/python benchmarks/boosting.py [--budget SECONDS]``;
``.venv/bin/python benchmarks/boosting.py --profile AdaCost`` profiles one
variant's fit with cProfile instead; ``.venv/bin/python benchmarks/boosting.py
--compiled`` (needs the ``bench`` extra for LightGBM).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn import ensemble
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from costsense import boosting

ROWS, FEATURES, ROUNDS, COST = 100_000, 20, 50, 5.0
FIT_TARGET, SKLEARN_TARGET = 1.15, 1.0
CV = 3  # CalibratedAdaBoostClassifier's default folds

DISCRETE = [
    "AdaBoost",
    "AdaBoostC",
    "AdaCost",
    "AdaC1",
    "AdaC2",
    "AdaC3",
    "CSB0",
    "CSB1",
    "CSB2",
    "AsymBoost",
    "AsyB",
]
LOGIT = ["AsyBL", "AsymLogitBoost"]
VARIANTS = [*DISCRETE, *LOGIT, "CalibratedAdaBoost"]


def tree() -> DecisionTreeClassifier:
    return DecisionTreeClassifier(max_depth=3, random_state=0)


def regressor() -> DecisionTreeRegressor:
    return DecisionTreeRegressor(max_depth=3, random_state=0)


def build(name: str) -> Any:
    """The variant ``name`` with 50 rounds of depth-3 trees and ``cost=5``."""
    cls = getattr(boosting, f"{name}Classifier")
    base = regressor() if name in LOGIT else tree()
    return cls(base, n_estimators=ROUNDS, cost=COST, random_state=0)


def kept_rounds(model: Any) -> int:
    if isinstance(model, boosting.CalibratedAdaBoostClassifier):
        return len(model.adaboost_.estimators_)
    return len(model.estimators_)


def best_of(repeats: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """Best wall time of ``repeats`` calls of ``fn`` and the last call's result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def bare_fits(make: Callable[[], Any], X: Any, y: Any, w: Any, n: int) -> None:
    for _ in range(n):
        make().fit(X, y, sample_weight=w)


def make_data() -> tuple[Any, Any, Any, Any]:
    X, y = make_classification(
        n_samples=ROWS,
        n_features=FEATURES,
        n_informative=10,
        weights=[0.9],
        random_state=0,
    )
    rng = np.random.default_rng(0)
    w = rng.random(ROWS)  # the floor's fixed random sample_weight
    z = rng.normal(size=ROWS)  # the regressor floor's continuous target
    return X, y, w, z


def warm_up(X: Any, y: Any) -> None:
    """Import and first-call costs out of the way, on 2,000 rows."""
    small_X, small_y = X[:2000], y[:2000]
    for name in VARIANTS:
        build(name).set_params(n_estimators=2).fit(small_X, small_y).predict(small_X)
    ensemble.AdaBoostClassifier(tree(), n_estimators=2).fit(small_X, small_y)
    ensemble.GradientBoostingClassifier(n_estimators=2).fit(small_X, small_y)


def profile(name: str) -> None:
    X, y, _, _ = make_data()
    warm_up(X, y)
    model = build(name)
    profiler = cProfile.Profile()
    profiler.enable()
    model.fit(X, y)
    profiler.disable()
    print(f"{name}: {kept_rounds(model)} rounds kept")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(15)
    stats.sort_stats("cumulative").print_stats(25)


def main(budget: float) -> None:
    started = time.perf_counter()
    X, y, w, z = make_data()
    warm_up(X, y)

    # The classifier floor, once, prices everything else.
    floor_clf, _ = best_of(1, lambda: bare_fits(tree, X, y, w, ROUNDS))
    # Ensemble-sized units of work left: 11 discrete + 2 logit + calibrated (~3)
    # variants; the regressor floor, sklearn AdaBoost and GradientBoosting.
    variant_units = len(DISCRETE) + len(LOGIT) + 3.0
    baseline_units = 3.0
    spent = time.perf_counter() - started
    if spent + floor_clf * (3 * variant_units + 3 * baseline_units + 2) <= budget:
        variant_repeats, baseline_repeats = 3, 3
    elif spent + floor_clf * (variant_units + 3 * baseline_units + 2) <= budget:
        variant_repeats, baseline_repeats = 1, 3
    else:
        variant_repeats, baseline_repeats = 1, 1
    estimate = spent + floor_clf * (
        variant_repeats * variant_units + baseline_repeats * baseline_units
    )
    if baseline_repeats > 1:
        again, _ = best_of(
            baseline_repeats - 1, lambda: bare_fits(tree, X, y, w, ROUNDS)
        )
        floor_clf = min(floor_clf, again)

    floor_reg, _ = best_of(
        baseline_repeats, lambda: bare_fits(regressor, X, z, w, ROUNDS)
    )
    # CalibratedAdaBoost's fold ensembles fit on (cv - 1) / cv of the rows.
    fold_rows = ROWS * (CV - 1) // CV
    fold_fit, _ = best_of(
        1, lambda: bare_fits(tree, X[:fold_rows], y[:fold_rows], w[:fold_rows], 5)
    )
    fold_per_fit = fold_fit / 5

    sk_fit, sk_ada = best_of(
        baseline_repeats,
        lambda: ensemble.AdaBoostClassifier(tree(), n_estimators=ROUNDS).fit(X, y),
    )
    sk_predict, _ = best_of(3, lambda: sk_ada.predict(X))
    gb_fit, gb = best_of(
        baseline_repeats,
        lambda: ensemble.GradientBoostingClassifier(
            n_estimators=ROUNDS, max_depth=3, random_state=0
        ).fit(X, y),
    )
    gb_predict, _ = best_of(3, lambda: gb.predict(X))

    rows = []
    for name in VARIANTS:
        fit_s, model = best_of(variant_repeats, lambda name=name: build(name).fit(X, y))
        predict_s, _ = best_of(3, lambda model=model: model.predict(X))
        kept = kept_rounds(model)
        floor = floor_reg if name in LOGIT else floor_clf
        scaled = floor / ROUNDS * kept
        if name == "CalibratedAdaBoost":
            scaled += CV * ROUNDS * fold_per_fit
        stop = getattr(model, "stop_reason_", "")
        per_kept = fit_s / scaled if scaled > 0 else float("nan")  # no round kept
        rows.append((name, kept, fit_s, fit_s / floor, per_kept, predict_s, stop))

    drift, _ = best_of(1, lambda: bare_fits(tree, X, y, w, 5))
    total = time.perf_counter() - started

    print(
        f"{ROWS:,} x {FEATURES} rows, positives {y.mean():.1%}, {ROUNDS} rounds of "
        f"depth-3 trees, cost={COST:g}"
    )
    repeats = {1: "measured once", 3: "best of 3"}
    print(
        f"timing: variants' fits {repeats[variant_repeats]}, floors and scikit-learn "
        f"fits {repeats[baseline_repeats]}, predicts best of 3 "
        f"(estimated run {estimate:.0f} s, budget {budget:.0f} s)"
    )
    print(
        f"floor ({ROUNDS} weighted fits): DecisionTreeClassifier {floor_clf:.2f} s "
        f"({floor_clf / ROUNDS * 1e3:.0f} ms/fit), DecisionTreeRegressor "
        f"{floor_reg:.2f} s ({floor_reg / ROUNDS * 1e3:.0f} ms/fit); "
        f"fold-sized ({fold_rows:,} rows) classifier fit {fold_per_fit * 1e3:.0f} ms"
    )
    print(
        f"scikit-learn AdaBoost: fit {sk_fit:.2f} s ({len(sk_ada.estimators_)} "
        f"rounds kept), predict {sk_predict:.3f} s; GradientBoosting: fit "
        f"{gb_fit:.2f} s, predict {gb_predict:.3f} s"
    )
    print()
    header = (
        f"{'variant':<20}{'kept':>5}{'fit s':>9}{'fit/floor':>11}{'per kept':>10}"
        f"{'fit/sklearn':>13}{'predict s':>11}{'pred/sklearn':>14}"
    )
    print(header)
    print("-" * len(header))
    for name, kept, fit_s, ratio, per_kept, predict_s, _ in rows:
        print(
            f"{name:<20}{kept:>5}{fit_s:>9.2f}{ratio:>11.3f}{per_kept:>10.3f}"
            f"{fit_s / sk_fit:>13.3f}{predict_s:>11.3f}{predict_s / sk_predict:>14.3f}"
        )
    print()
    print(f"fit/floor: over {ROUNDS} bare fits; per kept: over the floor scaled to the")
    print(f"rounds kept (CalibratedAdaBoost: plus {CV} x {ROUNDS} fold-sized fits).")
    for name, kept, _, _, _, _, stop in rows:
        if stop and kept < ROUNDS:
            print(
                f"  {name} stopped early ({kept} kept, 1 dropped round fitted): {stop}"
            )
    print()
    print("LogitBoost variants against GradientBoostingClassifier (closest peer):")
    for name, _, fit_s, _, _, predict_s, _ in rows:
        if name in LOGIT:
            print(
                f"  {name:<18} fit/GB {fit_s / gb_fit:.3f}  "
                f"predict/GB {predict_s / gb_predict:.3f}"
            )
    print()
    slow = [(r[0], r[4]) for r in rows if r[4] > FIT_TARGET]
    costly = [(r[0], r[2] / sk_fit) for r in rows if r[2] / sk_fit > SKLEARN_TARGET]

    def verdict(missed: list[tuple[str, float]]) -> str:
        if not missed:
            return f"met by all {len(rows)}"
        names = ", ".join(f"{name} {ratio:.3f}" for name, ratio in missed)
        return f"met by {len(rows) - len(missed)}/{len(rows)}; missed by {names}"

    print(f"target fit/floor per kept <= {FIT_TARGET}: {verdict(slow)}")
    print(f"target fit/sklearn <= {SKLEARN_TARGET}: {verdict(costly)}")
    print(
        f"floor drift: {floor_clf / ROUNDS * 1e3:.0f} ms/fit at the start, "
        f"{drift / 5 * 1e3:.0f} ms/fit at the end "
        f"({100 * (drift / 5 / (floor_clf / ROUNDS) - 1):+.1f} %); "
        f"total run {total:.0f} s"
    )


COMPILED_TARGET, LIGHTGBM_TARGET = 20.0, 3.0


def compiled(repeats: int) -> None:
    """The compiled weak learner against scikit-learn's AdaBoost and LightGBM."""
    import lightgbm

    from costsense.metrics import misclassification_cost
    from costsense.tree import CostSensitiveTreeClassifier, CostSensitiveTreeRegressor

    X_all, y_all = make_classification(
        n_samples=ROWS + ROWS // 2,
        n_features=FEATURES,
        n_informative=10,
        weights=[0.9],
        random_state=0,
    )
    X, y, X_test, y_test = X_all[:ROWS], y_all[:ROWS], X_all[ROWS:], y_all[ROWS:]

    def fast(name: str) -> Any:
        if name == "AsyBL":
            return CostSensitiveTreeRegressor(max_depth=3, splitter="hist")
        return CostSensitiveTreeClassifier(max_depth=3, splitter="hist")

    def variant(name: str, learner: str) -> Any:
        cls = getattr(boosting, f"{name}Classifier")
        if learner == "compiled":
            base = fast(name)
        else:
            base = regressor() if name == "AsyBL" else tree()
        model = cls(base, n_estimators=ROUNDS, cost=COST, random_state=0)
        if name == "AsyB":  # as printed: it keeps rounds with alpha <= 0
            model.set_params(early_stopping=False)
        return model

    def test_cost(model: Any) -> float:
        return misclassification_cost(
            y_test, model.predict(X_test), cost=COST, pos_label=1
        )

    started = time.perf_counter()
    for name in ("AdaBoostC", "AsyB", "AsyBL"):  # numba compiles (or loads) here
        variant(name, "compiled").set_params(n_estimators=2).fit(X[:2000], y[:2000])
    compile_s = time.perf_counter() - started

    sk_fit, sk_model = best_of(
        repeats,
        lambda: ensemble.AdaBoostClassifier(tree(), n_estimators=ROUNDS).fit(X, y),
    )
    lgbm = lightgbm.LGBMClassifier(
        n_estimators=ROUNDS, max_depth=3, num_leaves=8, n_jobs=1, verbose=-1
    )
    lgbm_fit, lgbm_model = best_of(repeats, lambda: lgbm.fit(X, y))
    rows = []
    for name in ("AdaBoostC", "AsyB", "AsyBL"):
        for learner in ("compiled", "scikit-learn"):
            fit_s, model = best_of(
                repeats if learner == "compiled" else 1,
                lambda name=name, learner=learner: variant(name, learner).fit(X, y),
            )
            rows.append(
                (name, learner, fit_s, len(model.estimators_), test_cost(model))
            )

    print(
        f"{ROWS:,} x {FEATURES} training rows, {ROUNDS} rounds of depth-3 trees, "
        f"cost {COST:g}; test cost on {len(y_test):,} rows"
    )
    print(f"numba warm-up (compile or cache load): {compile_s:.1f} s\n")
    header = (
        f"{'booster':<12}{'weak learner':<14}{'kept':>5}{'fit s':>8}"
        f"{'sklearn/ours':>14}{'ours/LightGBM':>15}{'test cost':>11}"
    )
    print(header)
    print("-" * len(header))
    print(
        f"{'AdaBoost':<12}{'sklearn':<14}{ROUNDS:>5}{sk_fit:>8.2f}{1.0:>14.2f}"
        f"{sk_fit / lgbm_fit:>15.2f}{test_cost(sk_model):>11.0f}"
    )
    print(
        f"{'LightGBM':<12}{'(own trees)':<14}{ROUNDS:>5}{lgbm_fit:>8.2f}"
        f"{sk_fit / lgbm_fit:>14.2f}{1.0:>15.2f}{test_cost(lgbm_model):>11.0f}"
    )
    for name, learner, fit_s, kept, cost in rows:
        print(
            f"{name:<12}{learner:<14}{kept:>5}{fit_s:>8.2f}{sk_fit / fit_s:>14.2f}"
            f"{fit_s / lgbm_fit:>15.2f}{cost:>11.0f}"
        )
    print()
    sk_cost = test_cost(sk_model)
    for name, learner, fit_s, _, cost in rows:
        if learner != "compiled":
            continue
        speed = sk_fit / fit_s
        fast_enough = "met" if speed >= COMPILED_TARGET else "missed"
        print(
            f"{name}: {speed:.1f}x faster than scikit-learn's AdaBoost (target >= "
            f"{COMPILED_TARGET:g}x: {fast_enough}), "
            f"test cost {cost:.0f} vs {sk_cost:.0f} "
            f"({'equal or lower' if cost <= sk_cost else 'higher'}); "
            f"{fit_s / lgbm_fit:.2f}x LightGBM's time (target <= {LIGHTGBM_TARGET:g}: "
            f"{'met' if fit_s / lgbm_fit <= LIGHTGBM_TARGET else 'missed'})"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=600.0, help="seconds")
    parser.add_argument("--profile", choices=VARIANTS, help="profile one fit")
    parser.add_argument(
        "--compiled", action="store_true", help="the compiled weak learner"
    )
    parser.add_argument("--repeats", type=int, default=3, help="with --compiled")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile)
    elif args.compiled:
        compiled(args.repeats)
    else:
        main(args.budget)
