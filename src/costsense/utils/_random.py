"""Seeds for sub-estimators, drawn the same way everywhere in costsense."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state

__all__ = ["draw_seed", "seeded_clone"]


def draw_seed(random_state: Any) -> int:
    """Draw a 31-bit seed from ``random_state`` (an int, RandomState or None)."""
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def seeded_clone(estimator: BaseEstimator, rng: np.random.RandomState) -> Any:
    """Clone ``estimator`` and give each of its ``random_state`` params a new seed.

    Nested parameters (``step__random_state`` of a pipeline) are seeded too, in
    sorted name order, so the same ``rng`` gives the same clones.
    """
    model = clone(estimator)
    seeds = {
        name: draw_seed(rng)
        for name in sorted(model.get_params(deep=True))
        if name == "random_state" or name.endswith("__random_state")
    }
    if seeds:
        model.set_params(**seeds)
    return model
