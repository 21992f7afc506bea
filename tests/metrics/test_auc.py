"""Tests of the ROC AUC of the positive class (the minority unless ``pos_label``
names it): by pair counting, against scikit-learn, and its errors.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from costsense.metrics import binary_roc_auc_score
from tests.metrics._examples import (
    LABEL_IDS,
    LABEL_PAIRS,
    STR,
    Y_3,
    Y_A,
    minority,
    random_binary,
)


# --------------------------------------------------------------------- ROC AUC
def test_roc_auc_by_pair_counting_with_a_tie():
    y = np.array([0, 0, 1, 0, 1])  # positive 1 is the minority (2 of 5)
    s = np.array([0.1, 0.4, 0.4, 0.8, 0.9])
    # positives score {0.4, 0.9}; negatives {0.1, 0.4, 0.8}; 6 pairs:
    # 0.4 vs 0.1 -> 1, vs 0.4 -> 1/2 (tie), vs 0.8 -> 0; 0.9 beats all 3 -> 3
    # AUC = 4.5 / 6 = 0.75
    assert binary_roc_auc_score(y, s) == pytest.approx(0.75)
    # "fraud" is the minority and sorts first; scores are oriented towards it
    assert binary_roc_auc_score(STR[y], s) == pytest.approx(0.75)
    # the other class as positive: 1 - 0.75 (ties still count one half)
    assert binary_roc_auc_score(y, s, pos_label=0) == pytest.approx(0.25)
    assert binary_roc_auc_score(STR[y], s, pos_label="ok") == pytest.approx(0.25)
    # weights: each pair counts w_pos * w_neg
    w = np.array([1.0, 3.0, 2.0, 1.0, 1.0])
    # 0.4 (w 2) vs 0.1 (w 1) -> 2; vs 0.4 (w 3) -> 6 / 2 = 3 (tie); vs 0.8 -> 0;
    # 0.9 (w 1) beats 1 + 3 + 1 = 5  => (2 + 3 + 0 + 5) / ((2 + 1) * (1 + 3 + 1))
    assert binary_roc_auc_score(y, s, sample_weight=w) == pytest.approx(10 / 15)


@pytest.mark.parametrize("labels", LABEL_PAIRS, ids=LABEL_IDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_roc_auc_matches_sklearn(labels, weighted):
    y, _, w = random_binary(11, labels, weighted=weighted)
    neg, pos = labels
    rng = np.random.default_rng(5)
    s = rng.normal(size=y.size) + (y == pos)  # larger for the positive class
    s[:4] = s[4]  # some ties
    expected = skm.roc_auc_score(y == pos, s, sample_weight=w)
    assert expected > 0.5
    assert binary_roc_auc_score(y, s, sample_weight=w) == pytest.approx(expected)
    # sklearn's own positive is the greater label: orient the scores towards it
    oriented = s if pos == max(labels) else -s
    assert binary_roc_auc_score(y, s, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, oriented, sample_weight=w)
    )


def test_roc_auc_errors():
    with pytest.raises(ValueError):
        binary_roc_auc_score([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError):
        binary_roc_auc_score(Y_3, np.arange(7.0))
    with pytest.raises(ValueError):
        binary_roc_auc_score(Y_A, np.arange(7.0))
    with pytest.raises(ValueError):
        binary_roc_auc_score(Y_A, [0.0, np.nan, 1, 2, 3, 4, 5, 6])


@settings(max_examples=30, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 4)), min_size=0, max_size=25
    )
)
def test_property_auc_is_pair_counting_and_flips(pairs):
    y = np.array([0, 1] + [a for a, _ in pairs])
    s = np.array([0.0, 2.0] + [b / 2 for _, b in pairs])  # coarse scores: many ties
    pos = minority(y)
    sp, sn = s[y == pos], s[y != pos]
    wins = (sp[:, None] > sn[None, :]).sum() + 0.5 * (sp[:, None] == sn[None, :]).sum()
    assert binary_roc_auc_score(y, s) == pytest.approx(wins / (sp.size * sn.size))
    other = 1 - pos
    assert binary_roc_auc_score(y, s, pos_label=other) == pytest.approx(
        1 - binary_roc_auc_score(y, s, pos_label=pos)
    )
