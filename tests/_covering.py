"""Covering subsets of exhaustive products, for the fast set of the suite.

An exhaustive test is parametrized over every configuration, and the configurations
outside a covering subset are marked ``slow``: ``make test`` runs the subset (every
level of every factor at least once), ``make test-all`` runs the whole product.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pytest


def levels(config: Sequence[Hashable]) -> set[tuple[int, Hashable]]:
    """The (factor position, value) pairs a configuration holds."""
    return set(enumerate(config))


def covering(configs: Sequence[Sequence[Hashable]]) -> list[Any]:
    """A few of ``configs`` that hold every level of every factor at least once.

    For each level of the first factor in turn, the configuration with that level
    that adds the most levels not yet held (the first on ties); then, in order, each
    configuration that holds a level still missing. Deterministic: the same
    configurations give the same subset.
    """
    chosen: list[Any] = []
    held: set[tuple[int, Hashable]] = set()
    firsts = list(dict.fromkeys(config[0] for config in configs))
    for first in firsts:
        own = [config for config in configs if config[0] == first]
        best = max(own, key=lambda config: len(levels(config) - held))
        chosen.append(best)
        held |= levels(best)
    for config in configs:
        if levels(config) - held:
            chosen.append(config)
            held |= levels(config)
    return chosen


def params(
    configs: Sequence[Sequence[Hashable]], fast: Sequence[Any], ids: Any = None
) -> list[Any]:
    """``pytest.param`` per configuration, marked ``slow`` when not in ``fast``."""
    return [
        pytest.param(
            *config,
            marks=() if config in fast else pytest.mark.slow,
            id=None if ids is None else ids(config),
        )
        for config in configs
    ]
