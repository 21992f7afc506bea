"""Margin learners: CS-LDM's fit time, memory and cost against scikit-learn's SVMs.

Prints, measured in one run on imbalanced problems (``make_classification``,
``weights=[0.9]``, ``n_informative=10``, seed 0; a stratified 70/30 split, features
standardised on the training part) with ``cost=5`` (false negatives cost 5, false
positives 1; scikit-learn gets ``class_weight={1: 5, 0: 1}``), ``C=1`` and
``tol=1e-3``:

- linear: :class:`~costsense.margin.CSLDMClassifier` (``solver="linear"``,
  ``lambda1 = lambda2 = 1``, ``max_iter=1000``) against
  ``LinearSVC(loss="hinge", dual=True)`` at the same ``C``, ``tol`` and
  ``max_iter``, on (a) 100,000 x 20 and (b) 20,000 x 500: fit time ratio (target
  <= 1) and peak memory ratio (target <= 2), each model's ``n_iter_`` and whether
  it converged (CS-LDM: ``converged_``; LinearSVC: ``n_iter_ < max_iter``), and
  the held-out total cost ``5 FN + FP``. CS-LDM with ``lambda1 = lambda2 = 0`` (the
  same problem as LinearSVC's) is shown for context;
- kernel: CS-LDM with the rbf kernel and ``solver="nystroem"`` (300 to 2,000
  random landmarks, and k-means landmarks at 300 to 1,500) against
  ``SVC(kernel="rbf")`` (libsvm, no iteration cap), both with ``gamma="scale"``, on
  20,000 x 20, over five train/test splits of the same data (split seeds 0-4; a
  single split's cost moves by +-6 % with the landmark sample alone): fit time
  ratio (median over the splits; target < 1) and held-out cost (summed over the
  splits; target: within 5 % of SVC's), with each split's cost change; and, for
  context, ``solver="exact"`` against SVC on 2,000 x 20.

Every fit runs in a fresh subprocess (this script with ``--child``) that imports
the same modules, loads the problem, warms up with a fit on 500 rows (imports,
numba's compiled-code cache), then resets the kernel's peak-RSS mark
(``/proc/self/clear_refs``) and fits: *fit MB* is the peak resident memory during
the first fit less the resident memory just before it (C, numba and liblinear
allocations included), *peak MB* the process's peak. Fit times are the best of
the repeats shown.

Usage: ``.venv/bin/python benchmarks/margin.py``;
``.venv/bin/python benchmarks/margin.py --profile a`` profiles CS-LDM's fit on
problem ``a`` (or ``b``, ``kernel``) with cProfile instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from costsense.margin import CSLDMClassifier

COST, C, TOL, MAX_ITER, SEED = 5.0, 1.0, 1e-3, 1000, 0
TIME_TARGET, MEMORY_TARGET, COST_TARGET = 1.0, 2.0, 0.05
WARM_ROWS = 500
KERNEL_SPLITS = 5
NYSTROEM_RANDOM = (300, 1000, 1500, 2000)
NYSTROEM_KMEANS = (300, 1000, 1500)

# name: (rows, features)
PROBLEMS = {
    "a": (100_000, 20),
    "b": (20_000, 500),
    "kernel": (20_000, 20),
    "exact": (2_000, 20),
}


def build(model: str) -> Any:
    """The estimator called ``model``, with the benchmark's shared settings."""
    weights = {1: COST, 0: 1.0}
    if model == "csldm-linear":
        return CSLDMClassifier(
            solver="linear", cost=COST, C=C, tol=TOL, max_iter=MAX_ITER, random_state=0
        )
    if model == "csldm-linear-0":
        return CSLDMClassifier(
            lambda1=0.0,
            lambda2=0.0,
            solver="linear",
            cost=COST,
            C=C,
            tol=TOL,
            max_iter=MAX_ITER,
            random_state=0,
        )
    if model == "linearsvc":
        return LinearSVC(
            loss="hinge",
            dual=True,
            C=C,
            tol=TOL,
            max_iter=MAX_ITER,
            class_weight=weights,
            random_state=0,
        )
    if model.startswith("csldm-nystroem-"):
        return CSLDMClassifier(
            kernel="rbf",
            gamma="scale",
            solver="nystroem",
            n_components=int(model.rsplit("-", 1)[1]),
            landmarks="kmeans" if "-kmeans-" in model else "random",
            cost=COST,
            C=C,
            tol=TOL,
            max_iter=MAX_ITER,
            random_state=0,
        )
    if model == "csldm-exact":
        return CSLDMClassifier(
            kernel="rbf",
            gamma="scale",
            solver="exact",
            cost=COST,
            C=C,
            tol=TOL,
            max_iter=MAX_ITER,
            random_state=0,
        )
    if model == "svc":
        return SVC(kernel="rbf", gamma="scale", C=C, tol=TOL, class_weight=weights)
    raise ValueError(model)


LABELS = {
    "csldm-linear": "CS-LDM linear",
    "csldm-linear-0": "CS-LDM linear l=0",
    "linearsvc": "LinearSVC hinge",
    **{f"csldm-nystroem-{m}": f"CS-LDM nystroem {m}" for m in NYSTROEM_RANDOM},
    **{f"csldm-nystroem-kmeans-{m}": f"CS-LDM nys-kmeans {m}" for m in NYSTROEM_KMEANS},
    "csldm-exact": "CS-LDM exact",
    "svc": "SVC rbf",
}


def make_problem(name: str, split: int = 0) -> dict[str, Any]:
    rows, features = PROBLEMS[name]
    X, y = make_classification(
        n_samples=rows,
        n_features=features,
        n_informative=10,
        weights=[0.9],
        random_state=SEED,
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=SEED + split
    )
    scaler = StandardScaler().fit(X_train)
    return {
        "X_train": np.ascontiguousarray(scaler.transform(X_train)),
        "X_test": np.ascontiguousarray(scaler.transform(X_test)),
        "y_train": y_train,
        "y_test": y_test,
    }


# ------------------------------------------------------------------ the child
def _status_kb(key: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")  # reset VmHWM to the current RSS
    except OSError:
        return False
    return True


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Fit one model on one problem; time it and measure its peak memory."""
    data = np.load(spec["path"])
    X, y = data["X_train"], data["y_train"]
    X_test, y_test = data["X_test"], data["y_test"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        build(spec["model"]).fit(X[:WARM_ROWS], y[:WARM_ROWS])
    gc.collect()
    before = _status_kb("VmRSS")
    exact_peak = _reset_peak()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        started = time.perf_counter()
        model = build(spec["model"]).fit(X, y)
        times = [time.perf_counter() - started]
    peak = _status_kb("VmHWM")
    warned = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    for _ in range(spec["repeats"] - 1):
        del model
        gc.collect()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            started = time.perf_counter()
            model = build(spec["model"]).fit(X, y)
            times.append(time.perf_counter() - started)
    predicted = model.predict(X_test)
    n_iter = np.max(model.n_iter_)
    if isinstance(model, CSLDMClassifier):
        converged = bool(model.converged_)
    elif isinstance(model, LinearSVC):
        converged = bool(n_iter < MAX_ITER)
    else:  # SVC: libsvm has no cap here; it warns if it stops early
        converged = not warned
    return {
        "fit_s": min(times),
        "times": times,
        "fit_mb": (peak - before) / 1024,
        "peak_mb": peak / 1024,
        "exact_peak": exact_peak,
        "n_iter": int(n_iter),
        "converged": converged,
        "fn": int(np.sum((y_test == 1) & (predicted == 0))),
        "fp": int(np.sum((y_test == 0) & (predicted == 1))),
    }


def run_child(path: Path, model: str, repeats: int) -> dict[str, Any]:
    spec = json.dumps({"path": str(path), "model": model, "repeats": repeats})
    done = subprocess.run(
        [sys.executable, __file__, "--child", spec],
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["cost"] = COST * result["fn"] + result["fp"]
    return result


# ----------------------------------------------------------------- the parent
def profile(name: str) -> None:
    problem = make_problem(name)
    model = "csldm-nystroem-1500" if name == "kernel" else "csldm-linear"
    X, y = problem["X_train"], problem["y_train"]
    build(model).fit(X[:WARM_ROWS], y[:WARM_ROWS])
    profiler = cProfile.Profile()
    profiler.enable()
    fitted = build(model).fit(X, y)
    profiler.disable()
    print(f"{LABELS[model]} on {name}: n_iter_ {fitted.n_iter_}")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(12)


def row(label: str, r: dict[str, Any]) -> str:
    conv = "yes" if r["converged"] else "NO"
    times = "/".join(f"{t:.2f}" for t in r["times"])
    return (
        f"  {label:<21}{r['fit_s']:>8.2f}{r['fit_mb']:>9.1f}{r['peak_mb']:>9.1f}"
        f"{r['n_iter']:>8}{conv:>6}{r['cost']:>8.0f}{r['fn']:>6}{r['fp']:>6}"
        f"   {times}"
    )


def main() -> None:
    started = time.perf_counter()
    print(
        f"cost={COST:g} (5 FN + FP on the held-out 30 %), C={C:g}, tol={TOL:g}, "
        f"max_iter={MAX_ITER}; {os.cpu_count()} cores; every fit in a fresh process; "
        f"load average at start {os.getloadavg()[0]:.2f}"
    )
    header = (
        f"  {'model':<21}{'fit s':>8}{'fit MB':>9}{'peak MB':>9}{'n_iter':>8}"
        f"{'conv':>6}{'cost':>8}{'FN':>6}{'FP':>6}   fit s of each repeat"
    )
    kernel_models = [
        *(f"csldm-nystroem-{m}" for m in NYSTROEM_RANDOM),
        *(f"csldm-nystroem-kmeans-{m}" for m in NYSTROEM_KMEANS),
        "svc",
    ]
    plan = {
        "a": [("csldm-linear", 3), ("linearsvc", 3), ("csldm-linear-0", 3)],
        "b": [("csldm-linear", 3), ("linearsvc", 3), ("csldm-linear-0", 3)],
        **{
            f"kernel-{split}": [(model, 1) for model in kernel_models]
            for split in range(KERNEL_SPLITS)
        },
        "exact": [("csldm-exact", 3), ("svc", 3)],
    }
    results: dict[str, dict[str, dict[str, Any]]] = {}
    exact_peaks = True
    with tempfile.TemporaryDirectory() as folder:
        for name, models in plan.items():
            path = Path(folder) / f"{name}.npz"
            problem_name, _, split = name.partition("-")
            problem = make_problem(problem_name, int(split or 0))
            np.savez(path, **problem)
            rows, features = PROBLEMS[problem_name]
            n_train = problem["y_train"].size
            positives = problem["y_train"].mean()
            print()
            print(
                f"({name}) {rows:,} x {features}"
                + (f", split seed {split}" if split else "")
                + f": {n_train:,} training rows ({positives:.1%} positive), X_train "
                f"{problem['X_train'].nbytes / 2**20:.1f} MB"
            )
            print(header)
            results[name] = {}
            for model, repeats in models:
                r = run_child(path, model, repeats)
                exact_peaks = exact_peaks and r["exact_peak"]
                results[name][model] = r
                print(row(LABELS[model], r))

    print()
    if not exact_peaks:
        print("note: /proc/self/clear_refs unavailable; fit MB may be underestimated")
    checks: list[tuple[str, bool]] = []
    print("linear CS-LDM (lambda1 = lambda2 = 1) over LinearSVC:")
    for name in ("a", "b"):
        ours, theirs = results[name]["csldm-linear"], results[name]["linearsvc"]
        time_ratio = ours["fit_s"] / theirs["fit_s"]
        memory_ratio = ours["fit_mb"] / max(theirs["fit_mb"], 1e-9)
        peak_ratio = ours["peak_mb"] / theirs["peak_mb"]
        cost_change = ours["cost"] / theirs["cost"] - 1
        print(
            f"  ({name}) fit time {time_ratio:.3f}x, fit memory {memory_ratio:.2f}x "
            f"(process peak {peak_ratio:.2f}x), held-out cost {cost_change:+.1%}"
        )
        checks.append((f"({name}) time <= {TIME_TARGET:g}x", time_ratio <= 1.0))
        checks.append(
            (f"({name}) memory <= {MEMORY_TARGET:g}x", memory_ratio <= MEMORY_TARGET)
        )
    splits = [results[f"kernel-{split}"] for split in range(KERNEL_SPLITS)]
    svc_time = np.median([split["svc"]["fit_s"] for split in splits])
    svc_cost = sum(split["svc"]["cost"] for split in splits)
    print(
        f"Nystroem CS-LDM over SVC rbf, {KERNEL_SPLITS} splits (SVC: median fit "
        f"{svc_time:.2f} s, total cost {svc_cost:.0f}):"
    )
    print(
        f"  {'model':<23}{'time':>7}{'cost':>8}   cost change per split "
        f"(split seed 0 is the original problem)"
    )
    meeting = []
    for model in kernel_models[:-1]:
        time_ratio = np.median([s[model]["fit_s"] for s in splits]) / svc_time
        cost_change = sum(s[model]["cost"] for s in splits) / svc_cost - 1
        per_split = " ".join(
            f"{s[model]['cost'] / s['svc']['cost'] - 1:+.1%}" for s in splits
        )
        label = LABELS[model]
        print(f"  {label:<23}{time_ratio:>6.2f}x{cost_change:>+8.1%}   {per_split}")
        if time_ratio < TIME_TARGET and cost_change <= COST_TARGET:
            meeting.append(LABELS[model])
    print(
        "  faster than SVC with the cost within 5 %: "
        + (", ".join(meeting) if meeting else "none")
    )
    checks.append(("nystroem faster with cost within 5 %", bool(meeting)))
    ours, svc = results["exact"]["csldm-exact"], results["exact"]["svc"]
    rows, features = PROBLEMS["exact"]
    print(
        f"context, exact CS-LDM over SVC rbf on {rows:,} x {features}: fit time "
        f"{ours['fit_s'] / svc['fit_s']:.3f}x, held-out cost "
        f"{ours['cost'] / svc['cost'] - 1:+.1%}"
    )
    print()
    met = [label for label, ok in checks if ok]
    missed = [label for label, ok in checks if not ok]
    print(f"targets met ({len(met)}/{len(checks)}): {', '.join(met) or 'none'}")
    print(f"targets missed: {', '.join(missed) or 'none'}")
    print(
        f"total run {time.perf_counter() - started:.0f} s; load average at end "
        f"{os.getloadavg()[0]:.2f} (this run alone: 1-2)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--profile", choices=["a", "b", "kernel"])
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
    elif args.profile:
        profile(args.profile)
    else:
        main()
