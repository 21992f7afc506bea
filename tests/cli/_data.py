"""Small CSV files for the command-line tests."""

from __future__ import annotations

import csv

import numpy as np


def write_csv(path, n=150, seed=0, *, categorical=False, missing=0):
    """A binary problem: three numeric features shifted by the label (and a city)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(int)
    X = rng.normal(size=(n, 3)) + y[:, None]
    cities = np.where(rng.random(n) < 0.5 + 0.3 * y, "east", "west")
    header = ["f1", "f2", "f3"] + (["city"] if categorical else []) + ["label"]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for i, (row, label) in enumerate(zip(X, y, strict=True)):
            cells = [*row] + ([cities[i]] if categorical else []) + [label]
            if i < missing:
                cells[0] = ""
            writer.writerow(cells)
    return path
