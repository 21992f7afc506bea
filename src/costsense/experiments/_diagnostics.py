"""What a fit did: rounds, stopping, convergence, and whether the model is degenerate.

A study cell records, beside its metrics, a small dictionary read from the fitted
model's attributes (:func:`fit_diagnostics`). The report turns these into a table
of degenerate fits, and the claims table flags verdicts that rest on them
(:func:`degenerate_reasons`). A degenerate fit is one whose numbers say little
about the method: a model that predicts one class on the whole test part, a
booster that kept no round (its constant rule) or only one of several (unless
its first learner was perfect on the training part), a solver
that stopped at its iteration limit.

Keys (each present only when the model has the attribute):

``stop_reason``
    A booster's ``stop_reason_`` (costsense's boosters).
``rounds``, ``rounds_planned``
    Rounds kept (``len(estimators_)``) and asked for (``n_estimators``).
``nonpositive_alpha``
    Rounds kept with ``alpha <= 0`` (``n_nonpositive_alpha_``).
``converged``, ``n_iter``
    A solver's convergence: ``converged_`` when the model has it, else
    ``n_iter_ < max_iter``.
``n_features_kept``, ``features_kept``
    EFSBoost's selected features (``support_``): how many, and their indices.
``drop_round``
    The round that dropped each feature (``drop_round_``; 0: left out from the
    start, -1: kept).
``feature_update``
    How equation 14 updated the features' weights (EFSBoost's
    ``feature_update``: ``"literal"``, as printed, or ``"weighted"``).
``constant``
    The model predicted a single class on the whole test part (always present).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.pipeline import Pipeline

__all__ = ["degenerate_reasons", "fit_diagnostics"]


def _final_estimator(model: Any) -> Any:
    """Return the fitted model inside a grid search and (nested) pipelines."""
    fitted = getattr(model, "best_estimator_", model)
    while isinstance(fitted, Pipeline):
        fitted = fitted[-1]
    return fitted


def _inner_booster(final: Any) -> Any:
    """Return the booster that does the rounds (some estimators wrap one).

    Calibrated AdaBoost keeps it in ``adaboost_``, OBPD-EFSBoost in ``booster_``.
    """
    for name in ("adaboost_", "booster_"):
        if hasattr(final, name):
            return getattr(final, name)
    return final


def fit_diagnostics(model: Any, prediction: NDArray[Any]) -> dict[str, Any]:
    """Read what a fitted model did from its attributes.

    Parameters
    ----------
    model : estimator
        A fitted model, possibly a pipeline inside a grid search.
    prediction : ndarray of shape (n_test,)
        Its predictions on the test part.

    Returns
    -------
    dict
        The keys of the module docstring, JSON-serialisable.
    """
    final = _final_estimator(model)
    booster = _inner_booster(final)
    found: dict[str, Any] = {}
    stop = getattr(booster, "stop_reason_", None)
    if stop is not None:
        found["stop_reason"] = str(stop)
    estimators = getattr(booster, "estimators_", None)
    if isinstance(estimators, list | np.ndarray):
        found["rounds"] = len(estimators)
        planned = getattr(booster, "n_estimators", None)
        if isinstance(planned, int | np.integer):
            found["rounds_planned"] = int(planned)
    nonpositive = getattr(booster, "n_nonpositive_alpha_", None)
    if nonpositive is not None:
        found["nonpositive_alpha"] = int(nonpositive)
    n_iter = getattr(final, "n_iter_", None)
    if n_iter is not None:
        found["n_iter"] = int(np.max(n_iter))
        if hasattr(final, "converged_"):
            found["converged"] = bool(final.converged_)
        elif isinstance(getattr(final, "max_iter", None), int | np.integer):
            found["converged"] = bool(found["n_iter"] < final.max_iter)
    support = getattr(final, "support_", None)
    if support is not None:
        found["n_features_kept"] = int(np.count_nonzero(support))
        found["features_kept"] = np.flatnonzero(support).tolist()
    drop_round = getattr(final, "drop_round_", None)
    if drop_round is not None:
        found["drop_round"] = np.asarray(drop_round).tolist()
        update = getattr(final, "feature_update", None)
        if isinstance(update, str):
            found["feature_update"] = update
    found["constant"] = bool(np.unique(np.asarray(prediction)).size <= 1)
    return found


def degenerate_reasons(diagnostics: dict[str, Any]) -> list[str]:
    """Why a fit is degenerate, as short phrases (empty when it is not).

    Parameters
    ----------
    diagnostics : dict
        One cell's :func:`fit_diagnostics`.

    Returns
    -------
    list of str
    """
    reasons = []
    if diagnostics.get("constant"):
        reasons.append("predicts one class")
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
