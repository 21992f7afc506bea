"""What a fit did, and whether the model is degenerate.

A cell records the final estimator's ``fit_summary()`` (for scikit-learn's and
imbalanced-learn's, ``rounds``, ``rounds_planned``, ``n_iter`` and ``converged``
read from their attributes) and ``constant``, whether it predicted one class on
the whole test part (the report and the claims flag such fits). A fit whose
recall or specificity is at most ``NEAR_ONE_CLASS`` is flagged as near one
class: it gives one class to at least 95 % of the other class's rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.pipeline import Pipeline

__all__ = [
    "NEAR_ONE_CLASS",
    "cell_reasons",
    "degenerate_reasons",
    "fit_diagnostics",
    "one_class_rows",
]

#: The recall or specificity at or below which a fit is near one class. Per class,
#: not over all rows: on a set with under 5 % positives a perfect model predicts
#: the negative class on over 95 % of its rows.
NEAR_ONE_CLASS = 0.05


def _peer_summary(final: Any) -> dict[str, Any]:
    """Read scikit-learn's and imbalanced-learn's fitted attributes."""
    found: dict[str, Any] = {}
    estimators, planned = (
        getattr(final, name, None) for name in ("estimators_", "n_estimators")
    )
    if isinstance(estimators, list | np.ndarray):
        found["rounds"] = len(estimators)
        if isinstance(planned, int | np.integer):
            found["rounds_planned"] = int(planned)
    n_iter, max_iter = getattr(final, "n_iter_", None), getattr(final, "max_iter", None)
    if n_iter is not None:
        found["n_iter"] = int(np.max(n_iter))
        if isinstance(max_iter, int | np.integer):
            found["converged"] = bool(found["n_iter"] < max_iter)
    return found


def fit_diagnostics(model: Any, prediction: NDArray[Any]) -> dict[str, Any]:
    """Read a fitted model's summary (in a grid search, pipelines) and if constant."""
    final = getattr(model, "best_estimator_", model)
    while isinstance(final, Pipeline):
        final = final[-1]
    summary = final.fit_summary() if hasattr(final, "fit_summary") else None
    found = dict(summary) if summary is not None else _peer_summary(final)
    found["constant"] = bool(np.unique(np.asarray(prediction)).size <= 1)
    return found


def degenerate_reasons(
    diagnostics: dict[str, Any],
    recall: float | None = None,
    specificity: float | None = None,
) -> list[str]:
    """Say why a fit is degenerate, as short phrases (empty when it is not).

    ``recall`` and ``specificity`` (a binary cell's test rates; None or NaN when
    not recorded) flag a fit near one class.
    """
    reasons = []
    rates = {"recall": recall, "specificity": specificity}
    low = {k: v for k, v in rates.items() if v is not None and v <= NEAR_ONE_CLASS}
    if diagnostics.get("constant"):
        reasons.append("predicts one class")
    elif low:
        said = ", ".join(f"{k} {v:.3f}" for k, v in low.items())
        reasons.append(f"near one class ({said})")
    rounds, planned = diagnostics.get("rounds"), diagnostics.get("rounds_planned")
    if rounds == 0:
        reasons.append("no round kept")
    elif rounds == 1 and planned is not None and planned > 1:
        # a perfect first learner ends boosting rightly; any other stop after one
        # round leaves a single learner where an ensemble was asked for
        if "perfect" not in str(diagnostics.get("stop_reason", "")):
            reasons.append("one round kept")
    if diagnostics.get("converged") is False:
        reasons.append("solver not converged")
    return reasons


def cell_reasons(cells: pd.DataFrame) -> list[list[str]]:
    """Return each cell's degenerate reasons, its recall and specificity read too."""
    rates = [
        cells[m] if m in cells.columns else pd.Series(np.nan, index=cells.index)
        for m in ("recall", "specificity")
    ]
    return [
        degenerate_reasons(d or {}, *(None if pd.isna(v) else float(v) for v in r))
        for d, *r in zip(cells["diagnostics"], *rates, strict=True)
    ]


def one_class_rows(cells: pd.DataFrame) -> set[tuple[str, str, str]]:
    """Return the (algorithm, dataset, cost) rows where some fit predicts one class.

    Or nearly (:data:`NEAR_ONE_CLASS`): wins over such a model are counted apart.
    """
    if "diagnostics" not in cells.columns:
        return set()
    flagged = [
        any(r.startswith(("predicts one class", "near one class")) for r in found)
        for found in cell_reasons(cells)
    ]
    mine = cells[flagged]
    keys = (mine[k].astype(str) for k in ("algorithm", "dataset", "cost"))
    return set(zip(*keys, strict=True))
