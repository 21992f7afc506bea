"""Tests of costsense.costs._labelled: matrices labelled by class."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from costsense.costs import (
    as_cost_matrix,
)

_ORDERED = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 3.0], [8.0, 5.0, 1.0]])


_LABELS = ["bird", "cat", "dog"]


def test_a_reordered_labelled_matrix_is_aligned_by_label():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_ORDERED, index=_LABELS, columns=_LABELS)
    shuffled = frame.loc[["dog", "bird", "cat"], ["cat", "dog", "bird"]]
    assert_array_equal(as_cost_matrix(shuffled, _LABELS), _ORDERED)
    as_dict = {t: {p: frame.loc[t, p] for p in _LABELS} for t in reversed(_LABELS)}
    assert_array_equal(as_cost_matrix(as_dict, _LABELS), _ORDERED)
    # a dict may leave out a zero diagonal
    sparse = {"bird": {"cat": 1, "dog": 4}, "cat": {"bird": 2, "dog": 3}}
    sparse["dog"] = {"bird": 8, "cat": 5, "dog": 1}
    assert_array_equal(as_cost_matrix(sparse, _LABELS), _ORDERED)


@pytest.mark.parametrize(
    "rename, message",
    [
        ({"dog": "fish"}, r"labels \['fish'\] that are not classes.*no entry for "
         r"classes \['dog'\]"),
        ({"cat": 1}, r"labels \[1\] that are not classes"),
    ],
)  # fmt: skip
def test_a_mislabelled_matrix_is_refused_naming_the_labels(rename, message):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_ORDERED, index=_LABELS, columns=_LABELS).rename(
        index=rename, columns=rename
    )
    with pytest.raises(ValueError, match=message):
        as_cost_matrix(frame, _LABELS)
    as_dict = {t: dict(row) for t, row in frame.T.to_dict().items()}
    with pytest.raises(ValueError, match=message):
        as_cost_matrix(as_dict, _LABELS)


def test_a_dict_missing_an_error_cost_is_refused_naming_the_pair():
    partial = {"bird": {"cat": 1}, "cat": {"bird": 2, "dog": 3}, "dog": {"bird": 8}}
    with pytest.raises(ValueError, match=r"\('bird', 'dog'\).*\('dog', 'cat'\)"):
        as_cost_matrix(partial, _LABELS)
