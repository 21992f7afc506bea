"""The report's "Figures" section, and the figure files every section draws into.

Change it when a figure is added to the section or its caption changes; the
drawing itself lives in the ``_figures`` package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from costsense.experiments._labels import sort_rows
from costsense.experiments._outputs import make_folder
from costsense.experiments._report._blocks import (
    Block,
    Heading,
    Image,
)
from costsense.experiments._report._figures import (
    Boundary,
    assign_colours,
    average_curves,
    boundary_plot,
    curve_plot,
    dot_chart,
    ratio_chart,
)
from costsense.experiments._report._spec import ReportSpec
from costsense.experiments._report._tabulated import _Tabulated


class _FigureFiles:
    """Unique PNG paths under the figure folder, kept in the order they are made."""

    def __init__(self, folder: Path) -> None:
        make_folder(folder.parent, folder)  # never a link planted at figures/
        self.folder = folder
        self.paths: list[Path] = []
        self._used: set[str] = set()

    def new(self, name: str) -> Path:
        """Return the path of a new figure named after ``name``.

        Parameters
        ----------
        name : str
            Any text; runs of characters other than letters, digits, ``.``,
            ``-`` and ``_`` become ``_``.

        Returns
        -------
        Path
            ``folder / stem.png``, suffixed ``_2``, ``_3``... if the stem is taken.
        """
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "figure"
        candidate, k = stem, 1
        while candidate in self._used:
            k += 1
            candidate = f"{stem}_{k}"
        self._used.add(candidate)
        path = self.folder / f"{candidate}.png"
        self.paths.append(path)
        return path


def _constant_fits(data: pd.DataFrame, dataset: str, cost: str) -> dict[str, str]:
    """Say, per algorithm, how many fits of one setting predict one class.

    Parameters
    ----------
    data : DataFrame
        The tabulated results (string ``dataset``, ``cost`` and ``algorithm``),
        with a ``diagnostics`` column of dicts when the run recorded them.
    dataset, cost : str
        The setting.

    Returns
    -------
    dict of str to str
        ``"predicts one class in k of n fits"`` for each algorithm with k > 0
        (the ``constant`` flag of :func:`costsense.experiments._diagnostics.
        fit_diagnostics`); empty without diagnostics.
    """
    if "diagnostics" not in data.columns:
        return {}
    mine = data[(data["dataset"] == dataset) & (data["cost"] == cost)]
    out = {}
    for alg, part in mine.groupby("algorithm", sort=False):
        flags = [
            isinstance(d, dict) and bool(d.get("constant")) for d in part["diagnostics"]
        ]
        if any(flags):
            out[str(alg)] = f"predicts one class in {sum(flags)} of {len(flags)} fits"
    return out


def _figures(
    spec: ReportSpec,
    tab: _Tabulated,
    files: _FigureFiles,
    curves: pd.DataFrame | None,
    boundaries: Iterable[Boundary],
) -> list[Block]:
    """Draw every figure into ``files`` and return their blocks."""
    main = spec.metrics[0]
    summary = tab.summary_of[main]
    blocks: list[Block] = [Heading("Figures", 2)]
    path = files.new(f"means_{main}")
    lower = main in spec.lower_is_better
    dot_chart(summary, tab.rows, tab.algorithms, main, path, lower_is_better=lower)
    blocks.append(
        Image(
            path,
            f"{main}: mean (dot) and one std (bar) per dataset and cost, one panel "
            f"each; the filled dot is the panel's {'lowest' if lower else 'highest'}",
        )
    )

    if spec.ratio_to is not None:
        base = spec.ratio_to
        path = files.new(f"ratio_{main}_to_{base}")
        ratio_chart(summary, tab.rows, tab.algorithms, main, base, path)
        blocks.append(
            Image(path, f"{main} of each algorithm divided by {base}'s (1 = same)")
        )

    if curves is not None and not curves.empty:
        averaged = average_curves(curves)
        names = tab.algorithms + [
            str(a)
            for a in pd.unique(averaged["algorithm"])
            if str(a) not in tab.algorithms
        ]
        palette = assign_colours(names)
        settings = {(d, c) for d, c in averaged[["dataset", "cost"]].itertuples(False)}
        for ds, cost in sort_rows(settings):
            frame = averaged[(averaged["dataset"] == ds) & (averaged["cost"] == cost)]
            path = files.new(f"curve_{ds}_{cost}")
            why = _constant_fits(tab.data, ds, cost)
            curve_plot(frame, ds, cost, palette, path, why_constant=why)
            blocks.append(
                Image(
                    path,
                    f"{ds}, cost {cost}: mean cost per sample by stage "
                    "(left test, right train), averaged over repeats x folds; "
                    "a curve flat over every stage is named in its panel",
                )
            )

    for boundary in boundaries:
        path = files.new(f"boundary_{boundary.dataset}_{boundary.cost}")
        boundary_plot(boundary, path)
        caption = f"{boundary.dataset}, cost {boundary.cost}: decision regions"
        if boundary.reference is not None:
            caption += " and the Bayes boundary (black)"
        blocks.append(Image(path, caption))
    return blocks
