"""Tests of costsense._base._degenerate: as few rows decided as a constant fit needs."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_array_equal

from costsense._base import DEGENERACY_PROBE, training_decisions


class _Recorder:
    """A ``decide`` that labels rows by a rule and records which rows it saw."""

    def __init__(self, labels: np.ndarray) -> None:
        self.labels, self.calls = labels, []

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        self.calls.append(np.asarray(rows))
        return self.labels[rows]


def test_training_decisions_stop_at_the_probe_when_it_holds_two_classes():
    n = 10 * DEGENERACY_PROBE
    decide = _Recorder(np.arange(n) % 2)
    decided = training_decisions(n, decide)
    assert len(decide.calls) == 1
    probe = decide.calls[0]
    assert probe.size == DEGENERACY_PROBE and probe[0] == 0 and probe[-1] == n - 1
    assert_array_equal(decided, decide.labels[probe])


def test_training_decisions_are_exact_when_the_probe_is_one_class():
    # the one row of the other class is not in the evenly spread probe: the
    # answer must still say "two classes", so every row gets decided
    n = 10 * DEGENERACY_PROBE
    labels = np.zeros(n, dtype=int)
    probe = np.unique(np.linspace(0, n - 1, DEGENERACY_PROBE).astype(np.intp))
    odd = int(np.setdiff1d(np.arange(n), probe)[0])
    labels[odd] = 1
    decide = _Recorder(labels)
    decided = training_decisions(n, decide)
    assert len(decide.calls) == 2
    assert_array_equal(decided, labels)
    all_one = training_decisions(n, _Recorder(np.zeros(n, dtype=int)))
    assert np.unique(all_one).size == 1 and all_one.size == n


def test_training_decisions_of_a_small_set_decide_every_row_once():
    decide = _Recorder(np.zeros(50, dtype=int))
    decided = training_decisions(50, decide)
    assert len(decide.calls) == 1
    assert_array_equal(decide.calls[0], np.arange(50))
    assert decided.size == 50
