"""Oversamplers: OBPD's automatic component count and OBPDBoost against their peers.

Prints, measured in one run on imbalanced ``make_classification`` problems (10 %
minority, 20 columns, 10 informative, seed 0):

- first, on 25,000 x 20 (2,500 minority rows; ``--default-rows``), the
  ``fit_resample`` time of ``OBPDSampler()`` with its defaults (Figueiredo & Jain's
  component count, as paper 003 chooses it; ancestral draws) over
  imbalanced-learn's ``SMOTE()`` -- target <= 5x;

then, with 5,000 and 20,000 minority rows (``--minority``):

- the ``fit_resample`` time of :class:`~costsense.sampling.OBPDSampler` with an
  automatic number of components: ``"aic"`` and ``"bic"`` (one EM per count over
  1-10, each started from the previous count's fit with a component split) and
  ``"fj"`` (Figueiredo & Jain from 10 components down), all with exact ancestral
  draws, as a ratio to

  (a) scikit-learn's ``GaussianMixture`` with the same search done naively: one fit
      per count 1-10 (``random_state=0``, its defaults otherwise) on the same
      standardised minority rows, the least AIC kept -- target <= 1.0x. The peer is
      timed for its fits alone (no scaling, no draws), OBPD for all of
      ``fit_resample``;
  (b) imbalanced-learn's ``SMOTE()`` on the same data -- target <= 20x;

  with the number of components each chose and, for AIC, the AIC of the chosen
  model against the naive search's best (lower is better). RWO-Sampling is timed
  for reference;
- the fit time of :class:`~costsense.boosting.OBPDBoostClassifier` (its defaults:
  Gaussian naive Bayes, 50 rounds, ``OBPDSampler()``, which is fitted once per
  boosting fit and redraws in every round) over
  :class:`~costsense.boosting.SMOTEBoostClassifier`'s on the same data -- target
  <= 2x. ``early_stopping=False`` so both run all 50 rounds. For reference,
  OBPDBoost once more with an ``OBPDSampler`` that hides ``redraw`` (so its
  mixtures are refitted every round, as before fit-once), timed once.

Times are the best of ``--repeats`` calls (default 3; ``--boost-repeats``, default
2, for the boosters) after a warm-up call, all in the same run. BLAS and OpenMP are
limited to ``--threads`` threads (default 1, for both sides): on a 2-core machine
shared with another job, OpenBLAS's threads make small matrix products up to ten
times slower, and the peer would pay for it more than we do.

Usage: ``.venv/bin/python benchmarks/sampling.py`` (8-13 minutes on 2 cores);
``--minority 5000`` for a quicker look; ``--only-default`` for the first line alone.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from imblearn.over_sampling import SMOTE
from sklearn.datasets import make_classification
from sklearn.mixture import GaussianMixture
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from costsense.boosting import OBPDBoostClassifier, SMOTEBoostClassifier
from costsense.sampling import OBPDSampler, RWOSampler

FEATURES, MAX_COMPONENTS, SEED = 20, 10, 0
NAIVE_TARGET, SMOTE_TARGET, BOOST_TARGET = 1.0, 20.0, 2.0
DEFAULT_TARGET = 5.0


def best_of(function: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Best time of ``repeats`` calls after a warm-up call, and the last result."""
    result = function()  # warm-up: imports, caches
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return min(times), result


class RefittingOBPD(OBPDSampler):
    """OBPD without ``redraw``: the boosters refit its mixtures every round."""

    redraw = None  # type: ignore[assignment]


def naive_search(Z: np.ndarray) -> GaussianMixture:
    """One scikit-learn fit per count 1..10; the least AIC."""
    fits = [
        GaussianMixture(k, random_state=SEED).fit(Z)
        for k in range(1, MAX_COMPONENTS + 1)
    ]
    return min(fits, key=lambda mixture: mixture.aic(Z))


def verdict(ratio: float, target: float) -> str:
    return "met" if ratio <= target else "MISSED"


def bench_default(rows: int, repeats: int) -> None:
    """Time ``OBPDSampler()`` (its defaults) against ``SMOTE()`` on one problem."""
    X, y = make_classification(
        n_samples=rows,
        n_features=FEATURES,
        n_informative=10,
        weights=[0.9],
        random_state=SEED,
    )
    smote, _ = best_of(partial(SMOTE(random_state=SEED).fit_resample, X, y), repeats)
    sampler = OBPDSampler(random_state=SEED)
    seconds, _ = best_of(partial(sampler.fit_resample, X, y), repeats)
    ratio = seconds / smote
    print()
    print(
        f"{rows:,} x {FEATURES} ({int((y == 1).sum()):,} minority rows): "
        f"OBPDSampler() {seconds:.3f} s (n_components={sampler.n_components!r}, "
        f"k={sampler.models_[1]['mixture'].n_components}), SMOTE() {smote:.3f} s, "
        f"OBPDSampler() / SMOTE = {ratio:.2f}x"
        f"   [<= {DEFAULT_TARGET:g}x: {verdict(ratio, DEFAULT_TARGET)}]"
    )


def bench(minority: int, repeats: int, boost_repeats: int) -> None:
    """Time the samplers and the boosters on one problem and print the ratios."""
    X, y = make_classification(
        n_samples=10 * minority,
        n_features=FEATURES,
        n_informative=10,
        weights=[0.9],
        random_state=SEED,
    )
    X_min = X[y == 1]
    Z = StandardScaler().fit_transform(X_min)
    n_new = int((y == 0).sum() - (y == 1).sum())
    print()
    print(
        f"{X_min.shape[0]:,} x {FEATURES} minority rows ({len(y):,} rows in all), "
        f"{n_new:,} synthetic rows"
    )
    naive, naive_best = best_of(partial(naive_search, Z), repeats)
    smote, _ = best_of(partial(SMOTE(random_state=SEED).fit_resample, X, y), repeats)
    print(
        f"  {'naive GaussianMixture AIC 1-10':<34}{naive:>9.3f} s"
        f"   k={naive_best.n_components:<3} AIC {naive_best.aic(Z):,.0f}"
    )
    print(f"  {'SMOTE':<34}{smote:>9.3f} s")
    header = f"  {'sampler':<34}{'time':>11}{'x naive':>9}{'x SMOTE':>9}  choice"
    print(header)
    for label, params in (
        ("OBPD n_components='aic'", {"n_components": "aic"}),
        ("OBPD n_components='bic'", {"n_components": "bic"}),
        ("OBPD n_components='fj'", {"n_components": "fj"}),
    ):
        sampler = OBPDSampler(**params, random_state=SEED)
        seconds, _ = best_of(partial(sampler.fit_resample, X, y), repeats)
        mixture = sampler.models_[1]["mixture"]
        choice = f"k={mixture.n_components}"
        if params["n_components"] == "aic":
            choice += f", AIC {mixture.aic(Z):,.0f}"
        print(
            f"  {label:<34}{seconds:>9.3f} s{seconds / naive:>8.2f}x"
            f"{seconds / smote:>8.2f}x  {choice}"
            f"   [<= {NAIVE_TARGET:g}x naive: {verdict(seconds / naive, NAIVE_TARGET)};"
            f" <= {SMOTE_TARGET:g}x SMOTE: {verdict(seconds / smote, SMOTE_TARGET)}]"
        )
    rwo, _ = best_of(partial(RWOSampler(random_state=SEED).fit_resample, X, y), repeats)
    print(f"  {'RWO (reference)':<34}{rwo:>9.3f} s{'':>9}{rwo / smote:>8.2f}x")

    times = {}
    for cls in (SMOTEBoostClassifier, OBPDBoostClassifier):
        model = cls(random_state=SEED, early_stopping=False)
        times[cls.__name__], fitted = best_of(partial(model.fit, X, y), boost_repeats)
        print(
            f"  {cls.__name__ + ' fit':<34}{times[cls.__name__]:>9.3f} s"
            f"   {len(fitted.estimators_)} rounds"
        )
    refitting = OBPDBoostClassifier(
        sampler=RefittingOBPD(), random_state=SEED, early_stopping=False
    )
    started = time.perf_counter()
    refitting.fit(X, y)
    seconds = time.perf_counter() - started
    print(
        f"  {'OBPDBoost, mixtures refitted':<34}{seconds:>9.3f} s"
        f"   {len(refitting.estimators_)} rounds, once (reference)"
    )
    ratio = times["OBPDBoostClassifier"] / times["SMOTEBoostClassifier"]
    print(
        f"  OBPDBoost / SMOTEBoost fit: {ratio:.2f}x"
        f"   [<= {BOOST_TARGET:g}x: {verdict(ratio, BOOST_TARGET)}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--minority", type=int, nargs="+", default=[5_000, 20_000], help="rows"
    )
    parser.add_argument(
        "--default-rows", type=int, default=25_000, help="rows of the defaults' check"
    )
    parser.add_argument(
        "--only-default",
        action="store_true",
        help="time OBPDSampler() against SMOTE() only",
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--boost-repeats", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads")
    args = parser.parse_args()
    started = time.perf_counter()
    print(
        f"{os.cpu_count()} cores, BLAS/OpenMP limited to {args.threads} thread(s); "
        f"best of {args.repeats} (boosters {args.boost_repeats}) after a warm-up; "
        f"load average at start {os.getloadavg()[0]:.2f}"
    )
    with threadpool_limits(args.threads):
        bench_default(args.default_rows, args.repeats)
        for minority in [] if args.only_default else args.minority:
            bench(minority, args.repeats, args.boost_repeats)
    print()
    print(f"total run {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
