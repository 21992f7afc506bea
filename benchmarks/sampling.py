"""Oversamplers: fit_resample time of OBPD and RWO against imbalanced-learn's SMOTE.

Prints, measured in one run (best of three after a warm-up call; the Gibbs
sampler, slow, is timed once), the time each
sampler takes to balance an imbalanced ``make_classification`` problem (10 %
minority, 10 informative features), as a ratio to imbalanced-learn's ``SMOTE()`` on
the same data: :class:`~costsense.sampling.RWOSampler`,
:class:`~costsense.sampling.OBPDSampler` with exact ancestral draws (AIC over 1-10
components) and with a fixed number of components, and OBPD's Gibbs sampler with the
paper's T = 100 sweeps. For OBPD it also prints how the time splits between fitting
the mixtures and drawing, and the draw time against scikit-learn's
``GaussianMixture.sample`` on the same fitted mixture (the peer for drawing; it
returns the rows grouped by component, which OBPD does not).

Usage: ``.venv/bin/python benchmarks/sampling.py``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from imblearn.over_sampling import SMOTE
from sklearn.datasets import make_classification

from costsense.sampling import OBPDSampler, RWOSampler
from costsense.sampling._obpd import ancestral_draws

PROBLEMS = {"small": (2_000, 20), "medium": (20_000, 20)}


def best_of(function: Callable[[], Any], repeats: int = 3) -> float:
    """Best time of ``repeats`` calls after a warm-up call (none if repeats is 1)."""
    if repeats > 1:
        function()  # warm-up: imports, caches
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def bench(name: str, rows: int, features: int) -> None:
    """Time every sampler on one problem and print the ratios."""
    X, y = make_classification(
        n_samples=rows,
        n_features=features,
        n_informative=10,
        weights=[0.9],
        random_state=0,
    )
    n_new = int((y == 0).sum() - (y == 1).sum())
    samplers = {
        "SMOTE": SMOTE(random_state=0),
        "RWO": RWOSampler(random_state=0),
        "OBPD ancestral, AIC 1-10": OBPDSampler(random_state=0),
        "OBPD ancestral, 3 components": OBPDSampler(n_components=3, random_state=0),
        "OBPD Gibbs T=100, 3 components": OBPDSampler(
            n_components=3, sampler="gibbs", gibbs_steps=100, random_state=0
        ),
    }
    print()
    print(f"({name}) {rows:,} x {features}: {n_new:,} synthetic rows")
    smote = None
    for label, sampler in samplers.items():
        repeats = 1 if "Gibbs" in label else 3  # Gibbs: slow, timed once
        seconds = best_of(partial(sampler.fit_resample, X, y), repeats)
        smote = seconds if smote is None else smote
        print(f"  {label:<32}{seconds:>9.3f} s{seconds / smote:>9.2f}x SMOTE")
    fitted = OBPDSampler(n_components=3, random_state=0)
    fitted.fit_resample(X, y)
    mixture = fitted.models_[1]["mixture"]
    ours = best_of(partial(ancestral_draws, mixture, n_new, np.random.default_rng(0)))
    theirs = best_of(partial(mixture.sample, n_new))
    print(
        f"  drawing {n_new:,} rows from the fitted 3-component mixture: "
        f"{ours * 1e3:.1f} ms, {ours / theirs:.2f}x GaussianMixture.sample"
    )


def main() -> None:
    started = time.perf_counter()
    print(
        f"{os.cpu_count()} cores; best of 3 after a warm-up (Gibbs: once); ratios to "
        "SMOTE() in "
        f"the same run; load average at start {os.getloadavg()[0]:.2f}"
    )
    for name, (rows, features) in PROBLEMS.items():
        bench(name, rows, features)
    print()
    print(f"total run {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
