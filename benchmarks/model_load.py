"""Loading a model file: costsense's checked load against plain skops, in one run.

``costsense predict`` reads a model file in checked stages (archive, signature,
schema against the exact allowlist, metadata, the constructed pipeline against
its metadata, every tree's indices); plain ``skops.io.load`` trusting the file's
own types is the peer: the same construction, none of the checks. For genuine
files written by ``costsense fit`` (the largest the catalog writes from a table
of ``--rows`` rows: EasyEnsemble, scikit-learn's random forest, PD-CSRF and
MinimumCostClassifier), each load is timed (best of ``--repeats``, after one
warm-up) and its peak Python allocation traced (``tracemalloc``), and printed
with the ratio of the checked load to the plain one. The checks must not add
more than 10 % to a genuine load beyond what they added before (compare two
commits' output).

Usage: ``.venv/bin/python benchmarks/model_load.py`` (about two minutes);
``--rows 2000`` for a smoke test.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from costsense import cli
from costsense.cli._model_io import load_model

MODELS = {
    "easy-ensemble": ["--model", "easy-ensemble"],
    "random-forest": ["--model", "random-forest"],
    "pdcsrf": ["--model", "pdcsrf"],
    "minimum-cost": ["--model", "minimum-cost"],
}


def _table(path: Path, rows: int) -> Path:
    rng = np.random.default_rng(0)
    y = (rng.random(rows) < 0.2).astype(int)
    frame = pd.DataFrame(rng.normal(size=(rows, 8)) + 0.7 * y[:, None],
                         columns=[f"f{i}" for i in range(8)])  # fmt: skip
    frame["city"] = np.where(rng.random(rows) < 0.5, "east", "west")
    frame["label"] = y
    frame.to_csv(path, index=False)
    return path


def _measure(load: Any, repeats: int) -> tuple[float, int]:
    load()  # imports and caches out of the timing
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        load()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    load()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import skops.io

    with tempfile.TemporaryDirectory() as folder, threadpool_limits(1):
        csv = _table(Path(folder) / "train.csv", args.rows)
        columns = ("model", "MiB", "skops s", "checked s", "ratio", "skops MiB",
                   "checked MiB", "ratio")  # fmt: skip
        widths = (-14, 6, 8, 9, 6, 9, 11, 6)
        print(" ".join(f"{c:{'<' if w < 0 else '>'}{abs(w)}}"
                       for c, w in zip(columns, widths, strict=True)))  # fmt: skip
        for name, options in MODELS.items():
            path = Path(folder) / f"{name}.skops"
            argv = ["fit", "--csv", str(csv), "--target", "label", "--cost", "5",
                    "--out", str(path), *options]  # fmt: skip
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert cli.main(argv) == 0
            trusted = skops.io.get_untrusted_types(file=path)
            plain_s, plain_peak = _measure(
                lambda p=path, t=trusted: skops.io.load(p, trusted=t), args.repeats
            )
            checked_s, checked_peak = _measure(
                lambda p=path: load_model(str(p)), args.repeats
            )
            print(
                f"{name:<14} {path.stat().st_size / 2**20:6.1f} {plain_s:8.3f} "
                f"{checked_s:9.3f} {checked_s / plain_s:6.2f} "
                f"{plain_peak / 2**20:9.1f} {checked_peak / 2**20:11.1f} "
                f"{checked_peak / plain_peak:6.2f}"
            )


if __name__ == "__main__":
    main()
