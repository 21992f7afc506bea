"""What a fit did: rounds, stopping, convergence, and whether the model is degenerate.

A study cell records, beside its metrics, a small dictionary read from the fitted
model's attributes (:func:`fit_diagnostics`). The report turns these into a table
of degenerate fits, and the claims table flags verdicts that rest on them
(:func:`degenerate_reasons`). A degenerate fit is one whose numbers say little
about the method: a model that predicts one class on the whole test part, a
booster that kept no round (its constant rule) or only one of several (unless
its first learner was perfect on the training part), a solver
that stopped at its iteration limit.

The keys are the fitted model's ``fit_summary()``
(:meth:`costsense._base.ClassifierBase.fit_summary`: ``stop_reason``, ``rounds``,
``rounds_planned``, ``nonpositive_alpha``, ``n_iter``, ``converged``,
``n_features_kept``, ``features_kept``, ``drop_round``, ``feature_update``), or for
scikit-learn's and imbalanced-learn's estimators, which have none, ``rounds`` and
``rounds_planned`` (``len(estimators_)``, ``n_estimators``) and ``n_iter`` and
``converged`` (``n_iter_ < max_iter``); and always ``constant``, whether the model
predicted a single class on the whole test part.
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
    """Read what a fitted model did (its ``fit_summary()``), and if it is constant.

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
    summary = final.fit_summary() if hasattr(final, "fit_summary") else None
    found = dict(summary) if summary is not None else _peer_summary(final)
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
