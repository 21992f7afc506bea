"""Work a base learner can share across the rounds of one boosting fit.

Every round of a booster fits a fresh clone of the base learner on the same rows
with new weights (or new targets). A base learner may offer

``_prepare_fit(X) -> dict``
    private attributes (names starting with ``_``) that hold for every fit on
    these ``X``: the compiled tree of :mod:`costsense.tree` returns its feature
    bins, so the features are binned once per boosting fit rather than once per
    round.

The engines call it once per fit and hand the result to every round's clone
(:func:`hand_over`) before its ``fit``, which takes the attributes (and removes
them): they are not ``fit`` parameters, so no public signature shows them. When
rounds see other rows (a ``sampler`` adds synthetic ones each round) nothing is
shared. Any learner without the method is fitted as before.
"""

from __future__ import annotations

from typing import Any

from numpy.typing import NDArray

__all__ = ["hand_over", "shared_fit_state"]


def shared_fit_state(base: Any, X: NDArray[Any]) -> dict[str, Any]:
    """Return the private attributes ``base`` shares across fits on ``X``.

    Parameters
    ----------
    base : estimator
        The unfitted base learner (a template; its clones are fitted).
    X : ndarray of shape (n_samples, n_features)
        The rows every round fits on.

    Returns
    -------
    dict
        Attribute name (starting with ``_``) to value; empty when ``base`` has no
        ``_prepare_fit``.
    """
    prepare = getattr(base, "_prepare_fit", None)
    if not callable(prepare):
        return {}
    shared = prepare(X)
    if not isinstance(shared, dict) or not all(
        isinstance(name, str) and name.startswith("_") for name in shared
    ):
        raise TypeError(
            f"{type(base).__name__}._prepare_fit must return a dict of private "
            f"attribute names (starting with '_') to values, got {shared!r:.80}."
        )
    return shared


def hand_over(learner: Any, shared: dict[str, Any]) -> Any:
    """Set the shared attributes on one round's unfitted ``learner``; return it.

    Parameters
    ----------
    learner : estimator
        A fresh clone of the base learner, about to be fitted.
    shared : dict
        What :func:`shared_fit_state` returned for the rows it is fitted on.

    Returns
    -------
    estimator
        ``learner`` itself.
    """
    for name, value in shared.items():
        setattr(learner, name, value)
    return learner
