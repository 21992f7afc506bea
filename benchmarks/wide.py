"""Wide data: peak memory and time of one fit on 5 rows and many columns.

Fits, each in a fresh process, on a seeded standard-normal ``X`` of 5 rows
(labels ``[0, 0, 0, 1, 1]``: the positive class has 2 rows) and

- 15,000 and 1,000,000 columns: :class:`~costsense.margin.LDMClassifier` and
  :class:`~costsense.margin.CSLDMClassifier` (``cost=5``; both linear kernel,
  ``solver="auto"``) against ``LinearSVC(loss="hinge", dual=True)``;
  :class:`~costsense.sampling.OBPDSampler` (its defaults, ``fit_resample``)
  against imbalanced-learn's ``SMOTE(k_neighbors=1)``;
  :class:`~costsense.boosting.OBPDBoostClassifier` (its defaults: 50 rounds of
  Gaussian naive Bayes, ``OBPDSampler()``) against scikit-learn's
  ``AdaBoostClassifier(GaussianNB(), n_estimators=50)``;
  :class:`~costsense.tree.CostSensitiveForestClassifier` against scikit-learn's
  ``RandomForestClassifier``, both with 100 trees, ``max_features="sqrt"``,
  ``n_jobs=1``;
- 5,000,000 columns: the two forests only.

*fit MiB* is the peak resident set size of the process that fits (read by the
parent with ``os.wait4``, Linux ``ru_maxrss``) less that of a baseline process
that does everything but the fit: it imports the same modules, builds the same
data and makes the same warm-up fits (every model once on 20 x 8 rows, which loads
numba's compiled code; a first, unmeasured child fills numba's cache, so that no
measured child compiles). Each child caps its address space (``RLIMIT_AS``,
``--limit-gib``, default 7 GiB), so an allocation of terabytes fails at once and
is reported as ``MemoryError at file.py:line (function): numpy's message`` (where,
and what it tried to allocate); the fit's time is then the time until it failed.
*x peer* columns are ratios to the model's peer on the same data (none for a
failed fit, nor against a peer that grew by less than 1 MiB: that is noise).

Usage: ``.venv/bin/python benchmarks/wide.py`` (a few minutes on 2 cores);
``--columns 15000`` for one width; ``--models forest,sklearn-forest`` for some
models. To measure another checkout's code, put its ``src`` first on
``PYTHONPATH`` (the children inherit it), e.g.
``git worktree add --detach /tmp/wide-before main`` then
``PYTHONPATH=/tmp/wide-before/src .venv/bin/python benchmarks/wide.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
import warnings
from typing import Any

import numpy as np

ROWS, SEED, COST = 5, 0, 5.0
WIDTHS = (15_000, 1_000_000)
FOREST_ONLY_WIDTHS = (5_000_000,)
FORESTS = ("forest", "sklearn-forest")
# model -> (label, peer)
MODELS: dict[str, tuple[str, str]] = {
    "ldm": ("LDM (linear)", "linearsvc"),
    "csldm": ("CS-LDM (linear, cost=5)", "linearsvc"),
    "linearsvc": ("LinearSVC hinge", "linearsvc"),
    "obpd": ("OBPDSampler", "smote"),
    "smote": ("SMOTE (imblearn)", "smote"),
    "obpdboost": ("OBPDBoost (50 x NB)", "adaboost"),
    "adaboost": ("AdaBoost (50 x NB)", "adaboost"),
    "forest": ("CostSensitiveForest", "sklearn-forest"),
    "sklearn-forest": ("RandomForest (sklearn)", "sklearn-forest"),
}


def make_data(rows: int, columns: int) -> tuple[Any, Any]:
    """Seeded standard-normal rows (no temporary copy) and labels 0, 0, 0, 1, 1."""
    X = np.random.default_rng(SEED).standard_normal((rows, columns))
    y = (np.arange(rows) >= rows - 2).astype(int)
    return X, y


def build(model: str) -> Any:
    """The estimator (or sampler) called ``model``."""
    from imblearn.over_sampling import SMOTE
    from sklearn.ensemble import AdaBoostClassifier, RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.svm import LinearSVC

    from costsense.boosting import OBPDBoostClassifier
    from costsense.margin import CSLDMClassifier, LDMClassifier
    from costsense.sampling import OBPDSampler
    from costsense.tree import CostSensitiveForestClassifier

    builders = {
        "ldm": lambda: LDMClassifier(random_state=SEED),
        "csldm": lambda: CSLDMClassifier(cost=COST, random_state=SEED),
        "linearsvc": lambda: LinearSVC(loss="hinge", dual=True, random_state=SEED),
        "obpd": lambda: OBPDSampler(random_state=SEED),
        "smote": lambda: SMOTE(k_neighbors=1, random_state=SEED),
        "obpdboost": lambda: OBPDBoostClassifier(random_state=SEED),
        "adaboost": lambda: AdaBoostClassifier(
            GaussianNB(), n_estimators=50, random_state=SEED
        ),
        "forest": lambda: CostSensitiveForestClassifier(
            n_estimators=100, max_features="sqrt", n_jobs=1, random_state=SEED
        ),
        "sklearn-forest": lambda: RandomForestClassifier(
            n_estimators=100, max_features="sqrt", n_jobs=1, random_state=SEED
        ),
    }
    return builders[model]()


def fit(model: str, X: Any, y: Any) -> None:
    """Fit ``model`` (``fit_resample`` for the samplers)."""
    estimator = build(model)
    if hasattr(estimator, "fit_resample"):
        estimator.fit_resample(X, y)
    else:
        estimator.fit(X, y)


# ------------------------------------------------------------------ the child
def failure(error: BaseException) -> str:
    """``"MemoryError at module.py:123 (function): message"``, the innermost frame."""
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = f"{os.path.basename(frame.filename)}:{frame.lineno} ({frame.name})"
    return f"{type(error).__name__} at {where}: {error}".rstrip(": ")


def child(model: str, rows: int, columns: int, limit_gib: float) -> None:
    """Cap the address space, build the data, warm up, fit ``model``; print JSON.

    ``model == "baseline"`` does everything but the fit.
    """
    import resource

    limit = int(limit_gib * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warnings.simplefilter("ignore")
    X, y = make_data(rows, columns)
    X_warm, y_warm = make_data(20, 8)
    y_warm = np.arange(20) % 2
    for name in MODELS:  # imports and compiled code, in every child alike
        fit(name, X_warm, y_warm)
    status, seconds = "ok", 0.0
    if model != "baseline":
        started = time.perf_counter()
        try:
            fit(model, X, y)
        except Exception as error:  # noqa: BLE001 - reported, not hidden
            status = failure(error)
        seconds = time.perf_counter() - started
    print(json.dumps({"status": status, "seconds": seconds}))


def measure(model: str, rows: int, columns: int, limit_gib: float) -> dict[str, Any]:
    """Run one child; return its status, fit seconds and peak RSS (MiB)."""
    command = [sys.executable, __file__, "--child", model]
    command += ["--rows", str(rows), "--columns", str(columns)]
    command += ["--limit-gib", str(limit_gib)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    lines = out.strip().splitlines()
    if process.returncode != 0 or not lines:
        result = {"status": f"exit code {process.returncode}", "seconds": np.nan}
    else:
        result = json.loads(lines[-1])
    result["peak_mib"] = usage.ru_maxrss / 1024  # KiB on Linux
    return result


def report(columns: int, models: list[str], rows: int, limit_gib: float) -> None:
    """Measure ``models`` on ``rows x columns``; print the table."""
    base = measure("baseline", rows, columns, limit_gib)
    print()
    print(
        f"{rows} x {columns:,} (data {rows * columns * 8 / 2**20:,.1f} MiB; baseline "
        f"process peak {base['peak_mib']:,.0f} MiB; address space capped at "
        f"{limit_gib:g} GiB)"
    )
    print(
        f"  {'model':<25}{'fit MiB':>9}{'x peer':>9}{'fit s':>9}{'x peer':>9}"
        "   peer; status if it failed"
    )
    results = {name: measure(name, rows, columns, limit_gib) for name in models}
    for result in results.values():
        result["growth"] = max(result["peak_mib"] - base["peak_mib"], 0.0)
    for name in models:
        label, peer = MODELS[name]
        result = results[name]
        peer_result = results.get(peer)
        memory_ratio = time_ratio = "-"
        ok = result["status"] == "ok"
        if ok and peer_result is not None and peer != name:
            if peer_result["growth"] >= 1:  # below 1 MiB: noise
                memory_ratio = f"{result['growth'] / peer_result['growth']:,.2f}"
            if peer_result["seconds"] > 0:
                time_ratio = f"{result['seconds'] / peer_result['seconds']:,.1f}"
        note = MODELS[peer][0] if peer != name else "(the peer)"
        if not ok:
            note += f"; {result['status'][:150]}"
        print(
            f"  {label:<25}{result['growth']:>9,.0f}{memory_ratio:>9}"
            f"{result['seconds']:>9.2f}{time_ratio:>9}   {note}"
        )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument(
        "--columns", type=int, action="append", help="widths (default: all)"
    )
    parser.add_argument("--models", help="comma-separated (default: all)")
    parser.add_argument("--limit-gib", type=float, default=7.0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rows, args.columns[0], args.limit_gib)
        return
    started = time.perf_counter()
    import costsense

    print(f"costsense from {os.path.dirname(costsense.__file__)}")
    chosen = args.models.split(",") if args.models else list(MODELS)
    widths = args.columns or [*WIDTHS, *FOREST_ONLY_WIDTHS]
    # a first child fills numba's cache, so no measured process compiles
    measure("baseline", args.rows, 8, args.limit_gib)
    for columns in widths:
        forest_only = columns in FOREST_ONLY_WIDTHS and not args.columns
        models = [m for m in chosen if m in FORESTS or not forest_only]
        report(columns, models, args.rows, args.limit_gib)
    print()
    print(f"total run {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
