"""Decision-boundary grids: each algorithm's predictions over a 2-D dataset's plane.

Fitted on repeat 0, fold 0 of each (dataset, cost) with that cell's seed, and
saved in the store's artefacts folder for the report's boundary figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from costsense.costs import Costs
from costsense.datasets import make_gaussian_problem
from costsense.experiments._cell import build_model
from costsense.experiments._files import ROW_COSTS
from costsense.experiments._labels import cost_label
from costsense.experiments._plan import Cell, derive_seed, load_dataset, splits
from costsense.experiments._store import ResultsStore, save_npz_atomically
from costsense.experiments._study import Study
from costsense.experiments._warnings import collect_warnings

__all__ = ["boundary_grid", "boundary_path", "save_boundaries"]


def boundary_grid(study: Study, dataset: str, cost: Any) -> dict[str, Any] | None:
    """Predictions of every algorithm on a grid over a 2-D dataset.

    Each algorithm is fitted on the training part of repeat 0, fold 0, with that
    cell's seed. For the Gaussian problem the grid also holds the exact Bayes
    discriminant (its zero level set is the reference boundary).

    Parameters
    ----------
    study : Study
        The study.
    dataset : str
        A dataset with two features.
    cost : ratio or pair
        The cost.

    Returns
    -------
    dict or None
        Arrays ``xx, yy, reference, X, y`` and ``pred_<algorithm>``; None when the
        dataset does not have two features.
    """
    X, y, pos_label, categorical = load_dataset(
        dataset,
        study.seed,
        study.gaussian_samples,
        study.recipe_for(dataset),
        study.protocol.categorical,
    )
    if X.shape[1] != 2:
        return None
    train, _ = splits(study, dataset, y, 0)[0]
    setting = Costs.resolve(cost, y, pos_label=pos_label)
    if dataset == "gaussian":
        xx, yy, reference = make_gaussian_problem().bayes_boundary_grid(
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
        cell = Cell(dataset, cost, algorithm, 0, 0)
        seed = derive_seed(study.seed, "model", cell.key)
        model = build_model(study, algorithm, setting, seed, categorical)
        # the fit of cell (dataset, cost, algorithm, 0, 0) again: its warnings
        # are that cell's, already counted, so they are not counted twice
        with collect_warnings():
            model.fit(X[train], y[train])
            predicted = (model.predict(grid) == setting.pos_label).astype(np.int8)
        arrays[f"pred_{algorithm.name}"] = predicted.reshape(xx.shape)
    return arrays


def boundary_path(store: ResultsStore, dataset: str, cost: Any) -> Path:
    """Return the file of a boundary grid in the store's artefacts folder."""
    return store.artifacts / f"boundary_{dataset}_{cost_label(cost)}.npz"


def save_boundaries(study: Study, store: ResultsStore) -> None:
    names = [f"pred_{algorithm.name}" for algorithm in study.algorithms]
    for dataset in study.datasets:
        for cost in study.costs_for(dataset):
            if cost == ROW_COSTS:  # each row has its own boundary: none to draw
                continue
            path = boundary_path(store, dataset, cost)
            if path.exists():
                with np.load(path) as saved:
                    if set(names) <= set(saved.files):
                        continue  # an algorithm added since needs a new grid
            arrays = boundary_grid(study, dataset, cost)
            if arrays is None:
                break
            save_npz_atomically(path, root=store.folder, **arrays)
