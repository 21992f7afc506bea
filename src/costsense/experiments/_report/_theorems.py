"""Paper 001's theorems on AdaBoost's training error: stated, checked, drawn.

Change it when the saved series or the inequalities checked change.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costsense.experiments._report._blocks import (
    Block,
    Heading,
    Image,
    Paragraph,
)
from costsense.experiments._report._figure_blocks import _FigureFiles
from costsense.experiments._report._figures import bound_plot
from costsense.experiments._report._spec import ReportSpec
from costsense.experiments._report._tabulated import _KEYS

#: Relative slack of paper 001's inequalities when checked in floating point.
_BOUND_SLACK = 1e-12


_THEOREMS = (
    "Paper 001 (the AdaBoost chapter) proves three theorems about AdaBoost's "
    "training error. With f_m = sum_{k <= m} alpha_k G_k the score after round m, "
    "Z_k the normaliser of round k's weight update (equation (3)), e_k its "
    "weighted error (equation (1)) and gamma_k = 1/2 - e_k its edge: "
    "Theorem 1, the training error of sign(f_m) is at most "
    "(1/N) sum_i exp(-y_i f_m(x_i)) = prod_{k <= m} Z_k; "
    "Theorem 2, prod Z_k = prod 2 sqrt(e_k (1 - e_k)) = prod sqrt(1 - 4 gamma_k^2) "
    "<= exp(-2 sum gamma_k^2), so the training error falls exponentially while "
    "the edges stay away from 0 (Corollary 1); Theorem 3, AdaBoost is forward "
    "stagewise additive modelling with the exponential loss: alpha_m minimises "
    "sum_i exp(-y_i (f_{m-1}(x_i) + alpha G_m(x_i))), and a learner of least "
    "weighted error minimises it over the learners."
)


def _bound_violations(series: pd.DataFrame) -> tuple[int, int, list[str]]:
    """Check training error <= prod Z <= edge bound on every saved round.

    Parameters
    ----------
    series : DataFrame
        Rows of the ``series`` table (the columns :func:`write_report` checks).

    Returns
    -------
    fits : int
        Fits checked.
    rounds : int
        Rounds checked, over all fits.
    violations : list of str
        One text per round where an inequality fails or a series is missing.
    """
    wide = series.set_index([*_KEYS, "stage", "name"])["value"].unstack("name")
    wide = wide.reindex(columns=["train_error", "normaliser_product", "edge_bound"])
    error, product, bound = (wide[c].to_numpy(dtype=float) for c in wide.columns)
    with np.errstate(invalid="ignore"):
        holds = (error <= product * (1 + _BOUND_SLACK)) & (
            product <= bound * (1 + _BOUND_SLACK)
        )
    violations = [
        f"{ds}, cost {cost}, {alg}, repeat {rep}, fold {fold}, round {stage}"
        for (ds, cost, alg, rep, fold, stage), ok in zip(wide.index, holds, strict=True)
        if not ok
    ]
    fits = len(wide.index.droplevel("stage").unique())
    return fits, len(wide), violations


def _theorems(
    spec: ReportSpec, series: pd.DataFrame | None, files: _FigureFiles
) -> list[Block]:
    """Return paper 001's theorems, their check on the saved series and figures."""
    if series is None or series.empty or not spec.adaboost_algorithms:
        return []
    data = series.assign(
        dataset=series["dataset"].astype(str),
        cost=series["cost"].astype(str),
        algorithm=series["algorithm"].astype(str),
    )
    data = data[data["algorithm"].isin(spec.adaboost_algorithms)]
    if data.empty:
        return []
    names = [a for a in spec.adaboost_algorithms if a in set(data["algorithm"])]
    fits, rounds, violations = _bound_violations(data)
    checked = (
        f"Checked on the training series this run saved for {', '.join(names)} "
        "(AdaBoost from uniform weights at learning rate 1, the theorems' "
        "setting): training error <= prod Z <= exp(-2 sum gamma^2) "
    )
    if violations:
        shown = "; ".join(violations[:5])
        more = f" and {len(violations) - 5} more" if len(violations) > 5 else ""
        verdict = (
            f"{checked}FAILED at {len(violations)} of {rounds} rounds of {fits} "
            f"fits: {shown}{more}."
        )
    else:
        verdict = (
            f"{checked}held at every round of every fit: {rounds} rounds of "
            f"{fits} fits (each inequality up to a relative {_BOUND_SLACK:g}, the "
            "rounding of floats)."
        )
    blocks: list[Block] = [
        Heading("Paper 001's theorems: AdaBoost's training error", 2),
        Paragraph(_THEOREMS),
        Paragraph(
            f"{verdict} Theorems 1-2's equalities and Theorem 3 are checked by "
            "costsense's tests on several data sets and weak learners "
            "(tests/boosting/test_theorems.py), not from these series."
        ),
    ]
    for ds in sorted(set(data["dataset"])):
        path = files.new(f"bounds_{ds}")
        bound_plot(data[data["dataset"] == ds], ds, names, path)
        blocks.append(
            Image(
                path,
                f"{ds}: training error of sign(f_m), prod Z_k (Theorem 1) and "
                "exp(-2 sum gamma_k^2) (Theorem 2) by round, log scale; thin lines "
                "one fit each (cost x repeat x fold), thick lines their mean over "
                "the fits that reached the round; a training error of 0 is not "
                "drawn",
            )
        )
    return blocks
