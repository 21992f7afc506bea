"""The report's account of feature selection: what was kept, when noise was dropped.

Built from the ``features_kept`` and ``drop_round`` diagnostics that models with
per-round feature selection record (EFSBoost, OBPD-EFSBoost; see
:mod:`costsense.experiments._diagnostics`). Two tables:

- per (algorithm, dataset), the features left after the last round: how many (mean
  over the fits), those kept in at least half of the fits, and the paper's list
  beside them (paper 003, Table 3) when the study gives it;
- for datasets with appended noise columns (a derived set's ``append_uniform``),
  the round that dropped each noise column: median and range over the fits, in
  how many fits it was dropped before round 4 (paper 003: "before round 4"), and
  the update of equation 14 that dropped it (the round depends on it: the printed,
  unweighted update drops features much sooner than the weighted one).

Feature numbers are 1-based, as the paper prints them; they number our columns
(KEEL's, one per KEEL column with categorical columns as codes, or one-hot
columns), which need not be the paper's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from costsense.experiments._report._blocks import Block, Cell, Heading, Paragraph, Table

__all__ = ["feature_blocks"]

#: Paper 003: the appended noise feature "is filtered out before round 4".
_EARLY_ROUND = 4

#: Equation 14's updates (EFSBoost's ``feature_update``), as the report names them.
_UPDATES = {
    "literal": "printed (unweighted)",
    "weighted": "weighted (our deviation)",
}


def _update_used(fits: Sequence[Mapping[str, object]]) -> str:
    """Name the update(s) of equation 14 the fits recorded."""
    used = sorted({str(d.get("feature_update", "")) for d in fits})
    return ", ".join(_UPDATES.get(u, u) if u else "not recorded" for u in used)


def _recorded(results: pd.DataFrame) -> pd.DataFrame | None:
    """Cells whose diagnostics hold ``features_kept`` (None if there are none)."""
    if "diagnostics" not in results.columns:
        return None
    has = results["diagnostics"].map(
        lambda d: isinstance(d, dict) and "features_kept" in d
    )
    cells = results[has]
    return None if cells.empty else cells


def _kept_table(
    cells: pd.DataFrame, order: list[str], paper: Mapping[str, Sequence[int]]
) -> Table:
    rows = []
    for name in [a for a in order if a in set(cells["algorithm"])]:
        mine = cells[cells["algorithm"] == name]
        for dataset in sorted(set(mine["dataset"])):
            fits = list(mine.loc[mine["dataset"] == dataset, "diagnostics"])
            n_features = len(fits[0].get("drop_round", [])) or None
            counts = np.array([len(d["features_kept"]) for d in fits], dtype=float)
            frequency: dict[int, int] = {}
            for d in fits:
                for feature in d["features_kept"]:
                    frequency[feature] = frequency.get(feature, 0) + 1
            usual = sorted(
                (f for f, k in frequency.items() if 2 * k >= len(fits)),
                key=lambda f: (-frequency[f], f),
            )
            listed = paper.get(dataset)
            rows.append(
                [
                    Cell(name),
                    Cell(dataset),
                    Cell("" if n_features is None else str(n_features)),
                    Cell(
                        f"{counts.mean():.1f} ({counts.min():.0f}-{counts.max():.0f})"
                    ),
                    Cell(", ".join(str(f + 1) for f in usual) or "none"),
                    Cell(
                        ""
                        if listed is None
                        else f"{len(listed)}: " + ", ".join(str(f) for f in listed)
                    ),
                ]
            )
    return Table(
        [
            "algorithm",
            "dataset",
            "features",
            "kept: mean (range)",
            "kept in at least half the fits",
            "paper (Table 3)",
        ],
        rows,
    )


def _noise_table(
    cells: pd.DataFrame, order: list[str], noise: Mapping[str, int]
) -> Table | None:
    rows = []
    for name in [a for a in order if a in set(cells["algorithm"])]:
        mine = cells[cells["algorithm"] == name]
        for dataset, count in sorted(noise.items()):
            fits = [
                d
                for d in mine.loc[mine["dataset"] == dataset, "diagnostics"]
                if "drop_round" in d
            ]
            if not fits or count <= 0:
                continue
            n_features = len(fits[0]["drop_round"])
            for offset in range(count, 0, -1):
                dropped = np.array([d["drop_round"][-offset] for d in fits])
                when = dropped[dropped > 0]
                early = int(np.sum((dropped > 0) & (dropped < _EARLY_ROUND)))
                spread = (
                    f"{np.median(when):g} ({when.min()}-{when.max()})"
                    if when.size
                    else "never dropped"
                )
                rows.append(
                    [
                        Cell(name),
                        Cell(dataset),
                        Cell(str(n_features - offset + 1)),
                        Cell(spread),
                        Cell(f"{early} of {len(fits)}"),
                        Cell(f"{int(np.sum(dropped == -1))} of {len(fits)}"),
                        Cell(_update_used(fits)),
                    ]
                )
    if not rows:
        return None
    return Table(
        [
            "algorithm",
            "dataset",
            "noise feature",
            "dropped by round: median (range)",
            "dropped before round 4",
            "kept to the end",
            "equation 14's update",
        ],
        rows,
    )


def feature_blocks(
    results: pd.DataFrame,
    order: list[str],
    paper: Mapping[str, Sequence[int]],
    noise: Mapping[str, int],
) -> list[Block]:
    """Return the report's "Features kept" section (empty without such fits).

    Parameters
    ----------
    results : DataFrame
        Results with a ``diagnostics`` column.
    order : list of str
        Algorithms in table order.
    paper : mapping of str to sequence of int
        The paper's features left after the last round, per dataset (1-based).
    noise : mapping of str to int
        Datasets with appended noise columns, and how many (the last columns).

    Returns
    -------
    list of Block
    """
    cells = _recorded(results)
    if cells is None:
        return []
    blocks: list[Block] = [
        Heading("Features kept", 2),
        Paragraph(
            "The features left after the last boosting round, over all fits of each "
            "algorithm on each dataset. Feature numbers are 1-based and number our "
            "columns (KEEL's; a categorical column is one column of codes, or its "
            "one-hot columns, as the study encodes it), which need not be the "
            "paper's; compare the counts."
        ),
        _kept_table(cells, order, paper),
    ]
    table = _noise_table(cells, order, noise)
    if table is not None:
        blocks.append(Heading("When the appended noise was dropped", 3))
        blocks.append(
            Paragraph(
                "The round whose errors dropped each appended noise column (it is "
                "absent from the next round on); paper 003 reports it filtered out "
                "before round 4. The round depends on the update of equation 14 "
                "(last column): the printed update adds every misclassified row's "
                "term unweighted; the weighted one, our deviation, multiplies each "
                "term by the row's boosting weight, so the terms of a round sum to "
                "at most its weighted error and features leave far later."
            )
        )
        blocks.append(table)
    return blocks
