"""A practitioner's fraud table through the command line: evaluate, fit, predict.

Generates a card-transaction table as such files come (a transaction ID, a
timestamp, an amount written with thousands separators, merchant type and
country as text, a few missing values, about 1.5 % fraud), then runs, each in
its own process under ``/usr/bin/time -v``:

1. ``costsense evaluate`` on the first ``--evaluate-rows`` rows (3 folds, two
   processes): MinimumCost, a thresholded logistic regression and G-CSRF;
2. ``costsense fit`` of MinimumCost on every row;
3. ``costsense predict`` of every row on this machine;
4. the same ``predict`` on a Dask ``LocalCluster`` of two worker processes,
   and a comparison of the two predictions files.

A missed fraud costs its amount; a false alarm costs a review (``--fp-cost``).
It prints each step's wall time and peak memory as a Markdown table.

Usage::

    .venv/bin/python benchmarks/fraud_walkthrough.py [--rows 1000000] [--out DIR]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

COUNTRIES = [f"C{k:02d}" for k in range(25)]
MERCHANTS = ["grocery", "fuel", "travel", "online", "electronics", "restaurant",
             "pharmacy", "gaming"]  # fmt: skip


def fraud_table(n: int, seed: int = 0) -> pd.DataFrame:
    """A synthetic transaction table; fraud likelier at night, online, abroad, large."""
    rng = np.random.default_rng(seed)
    minutes = rng.integers(0, 60 * 24 * 90, n)
    stamps = pd.Timestamp("2026-01-01") + pd.to_timedelta(minutes, unit="min")
    merchant = rng.choice(
        MERCHANTS, n, p=[0.25, 0.12, 0.05, 0.2, 0.08, 0.2, 0.06, 0.04]
    )
    country = rng.choice(COUNTRIES, n, p=np.r_[0.52, np.full(24, 0.02)])
    amount = np.round(np.exp(rng.normal(3.6, 1.1, n)), 2)
    card_age = rng.gamma(2.0, 400.0, n)
    recent = rng.poisson(1.5, n)
    score = (
        -5.6
        + 1.6 * (stamps.hour < 5)
        + 0.9 * np.isin(merchant, ["online", "electronics", "gaming"])
        + 0.8 * (country != "C00")
        + 0.5 * np.log1p(amount) / 3
        + 0.35 * recent
        - 0.6 * (card_age > 365)
    )
    fraud = rng.random(n) < 1 / (1 + np.exp(-np.asarray(score, dtype=float)))
    card_age_cells = np.round(card_age).astype(object)
    card_age_cells[rng.random(n) < 0.02] = None  # a few missing values
    return pd.DataFrame({
        "txn_id": [f"T{i:09d}" for i in range(n)],
        "timestamp": stamps.strftime("%Y-%m-%d %H:%M:%S"),
        "amount": [f"{a:,.2f}" for a in amount],
        "merchant_type": merchant,
        "country": country,
        "card_age_days": card_age_cells,
        "txn_last_24h": recent,
        "fraud": fraud.astype(int),
    })  # fmt: skip


def timed(command: list[str], log: Path) -> dict[str, float]:
    """Run a command under /usr/bin/time -v; its wall seconds and peak MiB."""
    started = time.perf_counter()
    with log.open("w") as err, log.with_suffix(".out").open("w") as said:
        done = subprocess.run(["/usr/bin/time", "-v", *command], stderr=err,
                              stdout=said)  # fmt: skip
    wall = time.perf_counter() - started
    text = log.read_text()
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{text[-3000:]}")
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)[1])
    return {"wall_s": wall, "peak_mib": peak / 1024}


def main() -> None:
    """Generate the table, run the four steps, print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--evaluate-rows", type=int, default=50_000)
    parser.add_argument("--out", default="benchmarks/results/fraud")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table = out / "transactions.csv"
    sample = out / "transactions-sample.csv"
    if not table.exists():
        frame = fraud_table(args.rows)
        frame.to_csv(table, index=False)
        frame.iloc[: args.evaluate_rows].to_csv(sample, index=False)
        del frame
    costsense = str(Path(sys.executable).parent / "costsense")
    data = ["--target", "fraud", "--id-column", "txn_id", "--fn-cost", "col:amount",
            "--fp-cost", "5", "--missing", "impute"]  # fmt: skip
    steps: dict[str, dict[str, float]] = {}
    for name in ("folds.csv", "model.skops", "one.csv", "cluster.csv"):
        (out / name).unlink(missing_ok=True)
    steps[f"evaluate ({args.evaluate_rows:,} rows, 3 folds, --jobs 2)"] = timed(
        [costsense, "evaluate", "--csv", str(sample), *data, "--folds", "3",
         "--jobs", "2", "--model", "minimum-cost,threshold,gcsrf",
         "--output", str(out / "folds.csv")], out / "evaluate.log")  # fmt: skip
    steps[f"fit minimum-cost ({args.rows:,} rows)"] = timed(
        [costsense, "fit", "--csv", str(table), *data, "--model", "minimum-cost",
         "--out", str(out / "model.skops")], out / "fit.log")  # fmt: skip
    predict = [costsense, "predict", "--model", str(out / "model.skops"), "--csv",
               str(table)]  # fmt: skip
    steps[f"predict ({args.rows:,} rows, one process)"] = timed(
        [*predict, "--out", str(out / "one.csv")], out / "predict.log"
    )
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:  # fmt: skip
        steps[f"predict ({args.rows:,} rows, LocalCluster of 2 workers)"] = timed(
            [*predict, "--out", str(out / "cluster.csv"), "--scheduler",
             cluster.scheduler_address], out / "cluster.log")  # fmt: skip
    one = pd.read_csv(out / "one.csv", dtype={"txn_id": str})
    other = pd.read_csv(out / "cluster.csv", dtype={"txn_id": str})
    numbers = [c for c in one.columns if c.startswith("proba_")] + ["expected_cost"]
    same_rows = one[["row", "txn_id", "prediction"]].equals(
        other[["row", "txn_id", "prediction"]]
    )
    largest = float(np.max(np.abs(one[numbers].to_numpy() - other[numbers].to_numpy())))
    print("| step | wall time (s) | peak memory (MiB) |\n|---|---|---|")
    for name, figures in steps.items():
        print(f"| {name} | {figures['wall_s']:.1f} | {figures['peak_mib']:.0f} |")
    print(f"\ncluster vs one process: rows, ids and decisions identical: {same_rows}; "
          f"largest probability / expected-cost difference {largest:.2e}")  # fmt: skip
    print(f"\nevaluate's table:\n\n{(out / 'evaluate.out').read_text()}")


if __name__ == "__main__":
    main()
