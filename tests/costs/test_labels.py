"""Tests of costsense.costs._labels: the positive class and label matching."""

from __future__ import annotations

import numpy as np
import pytest

from costsense.costs import (
    resolve_pos_label,
)


def test_minority_class_is_positive_by_default():
    y = np.array(["neg", "pos", "neg", "neg"])
    assert resolve_pos_label(y) == "pos"
    assert resolve_pos_label(y, "neg") == "neg"


def test_count_tie_goes_to_last_sorted_label():
    assert resolve_pos_label([3, 1, 3, 1]) == 3


@pytest.mark.parametrize("bad", ["1", 7, None])
def test_unknown_pos_label_is_rejected_with_the_known_labels(bad):
    if bad is None:
        with pytest.raises(ValueError, match="empty"):
            resolve_pos_label([])
        return
    with pytest.raises(ValueError, match=r"pos_label=.*not one of the class labels"):
        resolve_pos_label([0, 1, 1], bad)
