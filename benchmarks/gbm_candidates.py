"""Gradient-boosted probability candidates for MinimumCostClassifier: cost and time.

Measures, before a gradient-boosted-tree candidate is added to
:class:`costsense.MinimumCostClassifier`, how three boosters compare as cost-blind
probability models whose decision is the cost-sensitive Bayes rule
(:func:`costsense.costs.bayes_decision` on ``predict_proba``, per row where the
costs are per row). Every candidate has FIXED parameters, chosen once before any
run and never tuned on a set (``candidates``):

- ``LightGBM``: ``LGBMClassifier(n_jobs=1, verbose=-1, random_state=0)``, its
  defaults (100 rounds, learning rate 0.1, 31 leaves, 20 rows per leaf);
- ``HGB``: scikit-learn's ``HistGradientBoostingClassifier(random_state=0)``, its
  defaults (``max_iter=100``, learning rate 0.1, 31 leaves, 20 rows per leaf;
  ``early_stopping="auto"``: on, on a 10 % validation split, above 10,000 rows);
- ``HGB-ES``: the same with ``early_stopping=True`` at every size;
- ``LogitBoost-CT``: costsense's own booster, ``AsyBLClassifier(cost=1)`` (with
  equal costs AsyBL is plain LogitBoost, so its probabilities are LogitBoost's)
  on the compiled regression tree ``CostSensitiveTreeRegressor(splitter="hist",
  max_depth=5, min_samples_leaf=20)`` (at most 32 leaves and 20 rows per leaf, as
  close to the other two boosters' defaults as a depth limit gets), 100 rounds of
  learning rate 0.1;

and two references: ``LR`` (``StandardScaler`` then
``LogisticRegression(max_iter=1000)``) and ``RF-100`` (a 100-tree
``RandomForestClassifier(n_jobs=1, random_state=0)``).

Protocol, part 1 (real costs): the three benchmark sets of
``benchmarks/real_costs.py`` (``real_costs.SETS``; the held-out acceptance sets
are never loaded), each split by ``real_costs.prepare`` (stratified 70/30, seed 0;
one-hot encoding and median imputation fitted on the training rows), once on a
stratified subsample of about ``SUBSAMPLE`` = 20,000 rows and once at full size
(a set with at most 20,000 rows is run once, at full size). Reported per
candidate: **savings** (``real_costs.savings``: ``1 - cost / cost of the best
constant prediction`` on the true per-row test costs ``[FP, FN, TP, TN]``), the
**fit time** and the **predict time** (``predict_proba`` on the test rows) in
seconds.

Protocol, part 2 (class costs): ``KEEL_SETS``, eight imbalanced KEEL sets taken
from ``benchmarks/recommended.py``'s list before any run (336 to 5,472 rows,
imbalance ratios 1.9 to 129), with its protocol: the minority class positive,
costs ``C1/C2`` = 5, 10, 20 (``C2 = 1``), stratified 5-fold cross-validation
(shuffled, seed 0; the same folds for every candidate) and the test cost ``C1 FN
+ C2 FP`` per fold. The candidates are cost-blind, so each is fitted once per
fold and its probabilities decided at the three costs. Reported: the **mean
rank** of the mean test cost over the 24 set x cost rows (1 = cheapest, ties
sharing their mean rank), the mean cost relative to ``RF-100``'s, and the **fit
time ratio** to ``RF-100`` (total fit time over all folds; and its largest per-set
value) with the total predict time.

Every fit runs single-threaded (``threadpoolctl`` limits; ``n_jobs=1``), in a
forked child process, stopped and reported when its fit and prediction take
longer than ``--budget`` seconds. The compiled tree is compiled once (a small fit)
in the parent before any timing, so no fit time includes numba's compilation.

Usage: ``PYTHONPATH=src .venv/bin/python benchmarks/gbm_candidates.py`` (prints
the tables and writes them to ``--out``, default
``benchmarks/results/gbm_candidates.md``; about 90 seconds on one core);
``--sets`` narrows the real-cost sets, ``--no-full`` skips the full-size runs,
``--no-keel`` the KEEL part, ``--candidates`` picks candidates by name substring;
``--quick`` is a smoke test (2,000-row subsamples, no full size, three KEEL sets
at 3 folds).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import real_costs
from lightgbm import LGBMClassifier
from recommended import COSTS, N_FOLDS
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from costsense.boosting import AsyBLClassifier
from costsense.costs import bayes_decision
from costsense.datasets import load_keel
from costsense.experiments import mean_ranks
from costsense.tree import CostSensitiveTreeRegressor

#: Rows of the subsampled real-cost runs (a stratified subsample of about this size).
SUBSAMPLE = 20_000
#: Eight of ``recommended.SETS``, fixed before any run: 336-5,472 rows, IR 1.9-129.
KEEL_SETS = [
    "ecoli3",
    "pima",
    "vehicle0",
    "yeast3",
    "segment0",
    "yeast4",
    "abalone19",
    "page-blocks0",
]
QUICK_KEEL = ["ecoli3", "pima", "yeast4"]
SEED = 0
REFERENCE = "RF-100"
#: Seconds one fit and its prediction may take before they are stopped.
BUDGET = 300.0
DEFAULT_OUT = Path(__file__).parent / "results" / "gbm_candidates.md"

Factory = Callable[[], Any]


# --- the candidates -----------------------------------------------------------


def compiled_logitboost() -> AsyBLClassifier:
    """LogitBoost (AsyBL, cost 1) on the compiled regression tree, fixed settings."""
    tree = CostSensitiveTreeRegressor(splitter="hist", max_depth=5, min_samples_leaf=20)
    return AsyBLClassifier(
        tree,
        n_estimators=100,
        learning_rate=0.1,
        cost=1.0,
        pos_label=1,
        random_state=SEED,
    )


def candidates() -> dict[str, Factory]:
    """Every compared probability model, unfitted (factories), fixed defaults."""
    return {
        "LightGBM": lambda: LGBMClassifier(n_jobs=1, verbose=-1, random_state=SEED),
        "HGB": lambda: HistGradientBoostingClassifier(random_state=SEED),
        "HGB-ES": lambda: HistGradientBoostingClassifier(
            early_stopping=True, random_state=SEED
        ),
        "LogitBoost-CT": compiled_logitboost,
        "LR": lambda: make_pipeline(
            StandardScaler(), LogisticRegression(max_iter=1000)
        ),
        REFERENCE: lambda: RandomForestClassifier(
            n_estimators=100, n_jobs=1, random_state=SEED
        ),
    }


def warm_up() -> None:
    """Compile the compiled tree's numba functions before anything is timed."""
    rng = np.random.default_rng(SEED)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled_logitboost().set_params(n_estimators=2).fit(X, y).predict_proba(X)


# --- one fit, timed, in a child process ---------------------------------------


def fit_predict(
    factory: Factory, X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray
) -> dict[str, Any]:
    """Fit, then ``P(+|x)`` of the test rows, with both times in seconds."""
    model = factory()
    started = time.perf_counter()
    model.fit(X_train, y_train)
    fit_time = time.perf_counter() - started
    started = time.perf_counter()
    proba = model.predict_proba(X_test)
    predict_time = time.perf_counter() - started
    column = int(np.flatnonzero(np.asarray(model.classes_) == 1)[0])
    info = ""
    stopped = getattr(model, "n_iter_", None)
    if stopped is not None:
        info = f"{int(stopped)} rounds"
    return {
        "p": proba[:, column],
        "fit s": fit_time,
        "predict s": predict_time,
        "info": info,
        "error": "",
    }


def run_with_budget(
    factory: Factory,
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_test: np.ndarray,
    budget: float,
) -> dict[str, Any]:
    """:func:`fit_predict` in a forked child, stopped after ``budget`` seconds."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child() -> None:
        with threadpool_limits(limits=1), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                send.send(fit_predict(factory, X_train, y_train, X_test))
            except BaseException as failure:  # reported, not raised
                send.send(_failed(np.nan, failure))

    process = context.Process(target=child, daemon=True)
    process.start()
    send.close()
    try:
        if receive.poll(budget):
            return receive.recv()
        process.terminate()
        return _failed(budget, TimeoutError(f"over {budget:g} s"))
    except EOFError:  # the child died without an answer
        return _failed(np.nan, RuntimeError(f"child ended ({process.exitcode})"))
    finally:
        process.join()
        receive.close()


def _failed(fit_time: float, failure: BaseException) -> dict[str, Any]:
    return {
        "p": None,
        "fit s": fit_time,
        "predict s": np.nan,
        "info": "",
        "error": f"FAILED {type(failure).__name__}: {failure}"[:200],
    }


# --- part 1: real per-row costs -----------------------------------------------


def real_cost_runs(
    sets: dict[str, str], full: bool, subsample: int
) -> list[tuple[str, str, float]]:
    """``(set, size label, fraction)`` for every run of part 1."""
    runs = []
    for name, loader in sets.items():
        _, y, _, _ = real_costs.load(name, loader)
        if y.size > subsample:
            runs.append((name, loader, subsample / y.size))
        if full or y.size <= subsample:
            runs.append((name, loader, 1.0))
    return runs


def run_real(
    name: str, loader: str, fraction: float, chosen: dict[str, Factory], budget: float
) -> tuple[pd.DataFrame, str]:
    """Every candidate on one real-cost split: savings, fit and predict time."""
    data, line = real_costs.prepare(name, loader, fraction)
    print(f"\n## {name}, fraction {fraction:.3f}\n{line}", flush=True)
    matrices = real_costs.matrices(data["rows_test"])
    found = []
    for model, factory in chosen.items():
        result = run_with_budget(
            factory, data["X_train"], data["y_train"], data["X_test"], budget
        )
        saved = np.nan
        if result["p"] is not None:
            proba = np.column_stack([1.0 - result["p"], result["p"]])
            decided = bayes_decision(proba, matrices)
            saved = real_costs.savings(data["y_test"], decided, data["rows_test"])
        row = {
            "model": model,
            "savings": saved,
            "fit s": result["fit s"],
            "predict s": result["predict s"],
            "notes": result["error"] or result["info"],
        }
        print(
            f"  {model:<14} savings {saved:8.4f}  fit {row['fit s']:7.2f} s  "
            f"predict {row['predict s']:6.2f} s  {row['notes']}",
            flush=True,
        )
        found.append(row)
    return pd.DataFrame(found), line


def real_markdown(table: pd.DataFrame) -> str:
    """Part 1 as a Markdown table, best savings first."""
    shown = table.sort_values("savings", ascending=False, na_position="last")
    lines = [
        "| model | savings | fit s | predict s | notes |",
        "|---|---|---|---|---|",
    ]
    for _, row in shown.iterrows():
        saved = "" if np.isnan(row["savings"]) else f"{row['savings']:.4f}"
        lines.append(
            f"| {row['model']} | {saved} | {row['fit s']:.2f} | "
            f"{row['predict s']:.3f} | {row['notes']} |"
        )
    return "\n".join(lines)


# --- part 2: KEEL sets with class costs ---------------------------------------


def run_keel_set(
    name: str, chosen: dict[str, Factory], folds: int, budget: float
) -> list[dict[str, Any]]:
    """Every (fold, candidate, cost) of one KEEL set (``recommended.py``'s way)."""
    data = load_keel(name)
    X = np.asarray(data.X, dtype=np.float64)
    y = (np.asarray(data.y) == data.pos_label).astype(int)
    split = StratifiedKFold(folds, shuffle=True, random_state=SEED)
    rows = []
    for fold, (train, test) in enumerate(split.split(X, y)):
        for model, factory in chosen.items():
            result = run_with_budget(factory, X[train], y[train], X[test], budget)
            for cost in COSTS:
                truth = y[test]
                if result["p"] is None:  # scored as the cheapest constant class
                    positives = int(np.sum(y[train]))
                    constant = int(cost * positives > train.size - positives)
                    predicted = np.full(test.size, constant)
                else:
                    proba = np.column_stack([1.0 - result["p"], result["p"]])
                    matrix = np.array([[0.0, 1.0], [float(cost), 0.0]])
                    predicted = bayes_decision(proba, matrix)
                fn = int(np.sum((truth == 1) & (predicted == 0)))
                fp = int(np.sum((truth == 0) & (predicted == 1)))
                rows.append(
                    {
                        "dataset": name,
                        "rows": y.size,
                        "cost": cost,
                        "fold": fold,
                        "model": model,
                        "test_cost": cost * fn + fp,
                        "fit_time": result["fit s"],
                        "predict_time": result["predict s"],
                        "error": result["error"],
                    }
                )
    return rows


def keel_tables(results: pd.DataFrame) -> tuple[str, str]:
    """The rank table and the per-set mean costs, both as Markdown."""
    names = list(dict.fromkeys(results["model"]))
    means = results.pivot_table(
        index=["dataset", "cost"], columns="model", values="test_cost", aggfunc="mean"
    )[names]
    ranks = pd.Series(mean_ranks(means.to_numpy(), lower_is_better=True), index=names)
    relative = means.div(means[REFERENCE], axis=0).replace(np.inf, np.nan).mean()
    once = results[results["cost"] == COSTS[0]]  # one fit per (set, fold, model)
    times = once.pivot_table(index="dataset", columns="model", values="fit_time")
    fits = once.groupby("model")["fit_time"].sum()
    predicts = once.groupby("model")["predict_time"].sum()
    worst = times[names].div(times[REFERENCE], axis=0).max()
    failures = once[once["error"].fillna("") != ""].groupby("model").size()
    lines = [
        "| model | mean rank | cost vs RF-100 | fit time vs RF-100 | worst set "
        "| total fit s | total predict s | failed fits |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for model in ranks.sort_values().index:
        lines.append(
            f"| {model} | {ranks[model]:.2f} | {relative[model]:.3f} | "
            f"{fits[model] / fits[REFERENCE]:.2f} | {worst[model]:.2f} | "
            f"{fits[model]:.1f} | {predicts[model]:.2f} | "
            f"{int(failures.get(model, 0))} |"
        )
    per_set = ["| set | C1 | " + " | ".join(names) + " |"]
    per_set.append("|---|---|" + "---|" * len(names))
    for (dataset, cost), row in means.iterrows():
        cells = " | ".join(f"{row[n]:.1f}" for n in names)
        per_set.append(f"| {dataset} | {cost:g} | {cells} |")
    return "\n".join(lines), "\n".join(per_set)


# --- main ---------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", nargs="*", choices=list(real_costs.SETS), help="default: all three"
    )
    parser.add_argument("--candidates", nargs="*", help="substrings of names")
    parser.add_argument("--no-full", action="store_true", help="skip full size")
    parser.add_argument("--no-keel", action="store_true", help="skip the KEEL part")
    parser.add_argument(
        "--budget", type=float, default=BUDGET, help="seconds per fit and predict"
    )
    parser.add_argument("--quick", action="store_true", help="smoke test")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Markdown file")
    args = parser.parse_args()
    chosen = candidates()
    if args.candidates:
        keep = {REFERENCE} | {n for n in chosen if any(p in n for p in args.candidates)}
        chosen = {n: f for n, f in chosen.items() if n in keep}
    sets = {k: real_costs.SETS[k] for k in args.sets} if args.sets else real_costs.SETS
    subsample = 2_000 if args.quick else SUBSAMPLE
    full = not (args.no_full or args.quick)
    keel_names = QUICK_KEEL if args.quick else KEEL_SETS
    folds = 3 if args.quick else N_FOLDS
    warm_up()
    started = time.perf_counter()
    sections = [
        "# Gradient-boosted probability candidates: cost and time",
        "",
        f"Command: `{' '.join([Path(sys.executable).name, *sys.argv])}`",
        "",
        "Every candidate is a cost-blind probability model decided by the Bayes "
        "rule (per row on the real costs); fixed defaults (see the script's "
        "docstring); single-threaded; times in seconds.",
        "",
        "## Part 1: real per-row costs (savings on the test rows, 70/30 split)",
    ]
    for name, loader, fraction in real_cost_runs(sets, full, subsample):
        table, line = run_real(name, loader, fraction, chosen, args.budget)
        text = real_markdown(table)
        print("\n" + text, flush=True)
        sections += ["", f"### {name}, fraction {fraction:.3f}", "", line, "", text]
    if not args.no_keel:
        print(f"\n## KEEL: {', '.join(keel_names)}", flush=True)
        rows = []
        with threadpool_limits(limits=1):
            for name in keel_names:
                begun = time.perf_counter()
                rows += run_keel_set(name, chosen, folds, args.budget)
                print(f"  {name}: {time.perf_counter() - begun:.0f} s", flush=True)
        results = pd.DataFrame(rows)
        sizes = results.groupby("dataset", sort=False)["rows"].first()
        ranks, per_set = keel_tables(results)
        print("\n" + ranks + "\n\n" + per_set, flush=True)
        sections += [
            "",
            "## Part 2: KEEL sets, class costs C1/C2 = "
            + ", ".join(f"{c:g}" for c in COSTS)
            + f" ({folds}-fold CV)",
            "",
            "Sets (rows): " + ", ".join(f"{n} ({s})" for n, s in sizes.items()),
            "",
            "Mean rank of the mean test cost (C1 FN + C2 FP) over the set x cost "
            "rows, 1 = cheapest; fit time ratio = total fit time / RF-100's.",
            "",
            ranks,
            "",
            "Mean test cost per fold:",
            "",
            per_set,
        ]
    sections += ["", f"Total {time.perf_counter() - started:.0f} s."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(sections) + "\n")
    print(f"\nTotal {time.perf_counter() - started:.0f} s; written to {args.out}")


if __name__ == "__main__":
    main()
