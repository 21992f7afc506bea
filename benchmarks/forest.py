"""Random forests: fit time, predict time and fit memory against scikit-learn's.

Prints, measured in one run on one problem (``make_classification``, 100,000 x 20,
``n_informative=10``, seed 0; a seeded 75/25 train/test split), the fit and predict
time of :class:`~costsense.tree.CostSensitiveForestClassifier` with 100 trees,
``max_features="sqrt"``, bootstrap, unlimited depth and ``n_jobs=1``, for
``criterion`` in {``"gini"``, ``"pairwise"``} and ``splitter`` in {``"hist"``,
``"exact"``}, each as a ratio to scikit-learn's ``RandomForestClassifier`` with the
same settings (``criterion="gini"``: scikit-learn has no pairwise impurity), and the
held-out accuracy of every model. The default ``cost="unit"``: ordinary one-hot
labels, so the models solve the same problem. A predict time is the best of
``PREDICT_REPEATS`` calls on the 25,000 test rows (ours packs its trees for
prediction at the end of its fit); a fit time is one fit.

Peak memory of a fit (``gini``/``hist``, ``pairwise``/``hist`` and scikit-learn's)
is the growth of the process's peak resident set size (Linux ``VmHWM``, which counts
numpy's, numba's and scikit-learn's C allocations alike) over its resident size just
before ``fit``. Each is measured in a fresh process that makes the same data, imports
both libraries, makes the same 2-tree warm-up fit of 500 rows (for ours, this loads
the compiled code), then resets the peak (``/proc/self/clear_refs``) and fits once:
the figure is what the fit adds, data and libraries excluded.

numba's compile time is reported apart from the fits: *cold* is the first small fit
in a fresh process with an empty numba cache (``NUMBA_CACHE_DIR`` set to a new
temporary directory: everything is compiled), *warm* the same in a fresh process
with the package's own cache (the compiled code is loaded). The timed fits run
after a warm-up fit, so they hold no compilation.

Usage: ``.venv/bin/python benchmarks/forest.py`` (several minutes on 2 cores);
``--rows 20000`` for a quicker look.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from costsense.tree import CostSensitiveForestClassifier

N_ESTIMATORS, SEED, PREDICT_REPEATS = 100, 0, 3
CONFIGURATIONS = [
    ("gini", "hist"),
    ("gini", "exact"),
    ("pairwise", "hist"),
    ("pairwise", "exact"),
]
MEMORY_CONFIGURATIONS = [("gini", "hist"), ("pairwise", "hist")]

_COMPILE_SNIPPET = """
import time
import numpy as np
started = time.perf_counter()
from costsense.tree import CostSensitiveForestClassifier
rng = np.random.RandomState(0)
X = rng.normal(size=(200, 4))
y = (X[:, 0] > 0).astype(int)
for splitter in ("hist", "exact"):
    CostSensitiveForestClassifier(
        n_estimators=2, splitter=splitter, random_state=0
    ).fit(X, y).predict(X)
print(time.perf_counter() - started)
"""


def compile_seconds(cold: bool) -> float:
    """Import and first tiny fit in a fresh process (empty numba cache if cold)."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        out = subprocess.run(
            [sys.executable, "-c", _COMPILE_SNIPPET],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
    return float(out.stdout.strip().splitlines()[-1])


def make_data(rows: int, features: int) -> list[Any]:
    """The benchmark problem: X_train, X_test, y_train, y_test."""
    X, y = make_classification(
        n_samples=rows, n_features=features, n_informative=10, random_state=SEED
    )
    split: list[Any] = train_test_split(X, y, test_size=0.25, random_state=SEED)
    return split


def make_model(name: str) -> Any:
    """scikit-learn's forest (``"sklearn"``) or ours (``"criterion/splitter"``)."""
    if name == "sklearn":
        return RandomForestClassifier(
            n_estimators=N_ESTIMATORS, max_features="sqrt", n_jobs=1, random_state=SEED
        )
    criterion, splitter = name.split("/")
    return CostSensitiveForestClassifier(
        n_estimators=N_ESTIMATORS,
        criterion=criterion,
        splitter=splitter,
        max_features="sqrt",
        n_jobs=1,
        random_state=SEED,
    )


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def _fit_peak_child(name: str, rows: int, features: int) -> None:
    """In a fresh process: print the resident KiB before one fit and its peak."""
    X_train, _, y_train, _ = make_data(rows, features)
    model = make_model(name)
    clone(model).set_params(n_estimators=2).fit(X_train[:500], y_train[:500])
    gc.collect()
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")  # the peak resident size restarts from the current one
    before = _status_kib("VmRSS")
    model.fit(X_train, y_train)
    print(before, _status_kib("VmHWM"))


def fit_peak_mib(name: str, rows: int, features: int) -> tuple[float, float]:
    """Growth of the peak resident size during one fit, and that peak, in MiB."""
    out = subprocess.run(
        [sys.executable, __file__, "--rows", str(rows), "--features", str(features)]
        + ["--fit-peak-of", name],
        check=True,
        capture_output=True,
        text=True,
    )
    before, peak = map(int, out.stdout.split()[-2:])
    return (peak - before) / 1024, peak / 1024


def timed(model: Any, X_train: Any, y_train: Any, X_test: Any) -> tuple[float, float]:
    """Fit time and best predict time of one model, in seconds."""
    started = time.perf_counter()
    model.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - started
    predict_seconds = []
    for _ in range(PREDICT_REPEATS):
        started = time.perf_counter()
        model.predict(X_test)
        predict_seconds.append(time.perf_counter() - started)
    return fit_seconds, min(predict_seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--fit-peak-of", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fit_peak_of:
        _fit_peak_child(args.fit_peak_of, args.rows, args.features)
        return
    started = time.perf_counter()

    cold, warm = compile_seconds(cold=True), compile_seconds(cold=False)
    print("numba compilation (import + first fit of 200 rows, fresh process)")
    print(f"  cold (empty cache) {cold:8.1f} s")
    print(f"  warm (cache)       {warm:8.1f} s")

    X_train, X_test, y_train, y_test = make_data(args.rows, args.features)
    # warm-up: load the compiled code in this process
    CostSensitiveForestClassifier(n_estimators=2, random_state=SEED).fit(
        X_train[:500], y_train[:500]
    )

    peer = make_model("sklearn")
    peer_fit, peer_predict = timed(peer, X_train, y_train, X_test)
    peer_accuracy = peer.score(X_test, y_test)

    print()
    print(
        f"{args.rows:,} x {args.features}, {N_ESTIMATORS} trees, "
        "max_features='sqrt', n_jobs=1; ratios to scikit-learn's RandomForest"
    )
    header = (
        f"  {'model':<28}{'fit s':>9}{'fit x':>8}{'predict s':>11}"
        f"{'predict x':>11}{'accuracy':>10}"
    )
    print(header)
    print(
        f"  {'sklearn RandomForest (gini)':<28}{peer_fit:>9.1f}{1:>8.2f}"
        f"{peer_predict:>11.2f}{1:>11.2f}{peer_accuracy:>10.4f}"
    )
    for criterion, splitter in CONFIGURATIONS:
        model = make_model(f"{criterion}/{splitter}")
        fit_s, predict_s = timed(model, X_train, y_train, X_test)
        accuracy = model.score(X_test, y_test)
        depth = np.mean([tree.get_depth() for tree in model.estimators_])
        label = f"costsense {criterion}/{splitter}"
        print(
            f"  {label:<28}{fit_s:>9.1f}{fit_s / peer_fit:>8.2f}"
            f"{predict_s:>11.2f}{predict_s / peer_predict:>11.2f}"
            f"{accuracy:>10.4f}   (mean depth {depth:.0f})"
        )
    print()
    print(
        "peak memory of one fit (growth of the peak resident set size over the "
        "resident size before fit; fresh process each)"
    )
    print(f"  {'model':<28}{'fit MiB':>9}{'x':>8}{'peak MiB':>10}")
    peer_growth, peer_peak = fit_peak_mib("sklearn", args.rows, args.features)
    print(
        f"  {'sklearn RandomForest (gini)':<28}{peer_growth:>9.0f}{1:>8.2f}"
        f"{peer_peak:>10.0f}"
    )
    for criterion, splitter in MEMORY_CONFIGURATIONS:
        growth, peak = fit_peak_mib(f"{criterion}/{splitter}", args.rows, args.features)
        label = f"costsense {criterion}/{splitter}"
        print(f"  {label:<28}{growth:>9.0f}{growth / peer_growth:>8.2f}{peak:>10.0f}")
    print()
    print(f"total run {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
