"""Decision-boundary grids: each algorithm's predictions over a 2-D dataset's plane.

Fitted on repeat 0, fold 0 of each (dataset, cost) with that cell's seed, and
saved in the store's artefacts folder for the report's boundary figures.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from costsense.experiments._cell import build_model
from costsense.experiments._datasets import DatasetSpec
from costsense.experiments._files import ROW_COSTS
from costsense.experiments._labels import cost_label
from costsense.experiments._outputs import write_atomically
from costsense.experiments._plan import Cell, derive_seed, splits
from costsense.experiments._store import ResultsStore
from costsense.experiments._study import Study
from costsense.experiments._warnings import collect_warnings

__all__ = ["boundary_path", "save_boundaries"]


def _grid(study: Study, data: DatasetSpec, cost: Any) -> dict[str, Any] | None:
    """Return ``xx, yy, reference`` (a Bayes discriminant), ``X, y, pred_<name>``."""
    X, y, pos_label, categorical = data.load()
    if X.shape[1] != 2:
        return None
    train, _ = splits(study, data.name, y, 0)[0]
    setting = data.costs(cost, y, pos_label)
    if data.problem is not None:
        xx, yy, reference = data.problem.bayes_boundary_grid(
            setting.pair, resolution=150
        )
    else:
        lo, hi = X.min(axis=0), X.max(axis=0)
        pad = 0.05 * (hi - lo)
        xx, yy = np.meshgrid(
            np.linspace(lo[0] - pad[0], hi[0] + pad[0], 150),
            np.linspace(lo[1] - pad[1], hi[1] + pad[1], 150),
        )
        reference = np.empty(0)
    grid = np.c_[xx.ravel(), yy.ravel()]
    arrays: dict[str, Any] = {
        "xx": xx,
        "yy": yy,
        "reference": reference,
        "X": X[train],
        "y": (y[train] == setting.pos_label).astype(np.int8),
    }
    for algorithm in study.algorithms:
        seed = derive_seed(
            study.seed, "model", Cell(data.name, cost, algorithm, 0, 0).key
        )
        model = build_model(study, algorithm, setting, seed, categorical)
        # the fit of cell (dataset, cost, algorithm, 0, 0) again: its warnings
        # are that cell's, already counted
        with collect_warnings():
            model.fit(X[train], y[train])
            predicted = (model.predict(grid) == setting.pos_label).astype(np.int8)
        arrays[f"pred_{algorithm.name}"] = predicted.reshape(xx.shape)
    return arrays


def boundary_path(store: ResultsStore, dataset: str, cost: Any) -> Path:
    """Return the file of a boundary grid in the store's artefacts folder."""
    return store.artifacts / f"boundary_{dataset}_{cost_label(cost)}.npz"


def save_boundaries(
    study: Study, store: ResultsStore, data: dict[str, DatasetSpec]
) -> None:
    """Save the grid of every (2-D dataset, cost) of ``study`` not saved yet."""
    for dataset in study.datasets:
        for cost in study.costs_for(dataset):
            path = boundary_path(store, dataset, cost)
            if cost == ROW_COSTS or path.exists():  # per-row costs: no one boundary
                continue
            arrays = _grid(study, data[dataset], cost)
            if arrays is None:
                break
            buffer = io.BytesIO()
            np.savez_compressed(buffer, **arrays)
            write_atomically(path, buffer.getvalue(), root=store.folder)
