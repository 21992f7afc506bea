"""Work a base learner can share across the rounds of one boosting fit.

Every round of a booster fits a fresh clone of the base learner on the same rows
with new weights (or new targets). A base learner may offer

``_prepare_fit(X) -> dict``
    keyword arguments for ``fit`` that hold for every fit on these ``X`` (the
    compiled tree of :mod:`costsense.tree` returns its feature bins, so the
    features are binned once per boosting fit rather than once per round).

The engines call it once per fit and pass the result to every round's ``fit``.
When rounds see other rows (a ``sampler`` adds synthetic ones each round) nothing
is shared. Any learner without the method is fitted as before.
"""

from __future__ import annotations

from typing import Any

from numpy.typing import NDArray

__all__ = ["shared_fit_params"]


def shared_fit_params(base: Any, X: NDArray[Any]) -> dict[str, Any]:
    """Return the ``fit`` keyword arguments ``base`` shares across fits on ``X``.

    Parameters
    ----------
    base : estimator
        The unfitted base learner (a template; its clones are fitted).
    X : ndarray of shape (n_samples, n_features)
        The rows every round fits on.

    Returns
    -------
    dict
        Empty when ``base`` has no ``_prepare_fit``.
    """
    prepare = getattr(base, "_prepare_fit", None)
    if not callable(prepare):
        return {}
    shared = prepare(X)
    if not isinstance(shared, dict):
        raise TypeError(
            f"{type(base).__name__}._prepare_fit must return a dict of fit keyword "
            f"arguments, got {type(shared).__name__}."
        )
    return shared
