"""Tests of the rate metrics: recall, specificity, precision, F-beta, G-mean,
balanced accuracy, Cohen's kappa and the binary confusion counts.

Expected values are computed by hand from a confusion matrix written in a comment, or
taken from scikit-learn / imbalanced-learn on random data with the positive class
passed to them explicitly (ours defaults to the minority class of ``y_true``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from imblearn.metrics import geometric_mean_score
from imblearn.metrics import specificity_score as imb_specificity_score
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from costsense.metrics import (
    balanced_accuracy_score,
    binary_confusion,
    binary_f1_score,
    binary_fbeta_score,
    binary_precision_score,
    binary_recall_score,
    binary_roc_auc_score,
    binary_specificity_score,
    cohen_kappa_score,
    g_mean_score,
    misclassification_cost,
)
from tests.metrics._examples import (
    LABEL_IDS,
    LABEL_PAIRS,
    P_3,
    P_A,
    P_A2,
    PS_A,
    PS_A2,
    W_A,
    Y_3,
    Y_A,
    YS_A,
    minority,
    random_binary,
)


# ====================================================== 3. rate-style metrics
def test_rates_by_hand():
    # Example A: TP=1 FN=2 FP=3 TN=2
    for y, p in ((Y_A, P_A), (YS_A, PS_A)):
        assert binary_recall_score(y, p) == pytest.approx(1 / 3)
        assert binary_specificity_score(y, p) == pytest.approx(2 / 5)
        assert binary_precision_score(y, p) == pytest.approx(1 / 4)
        # F1 = 2TP / (2TP + FN + FP) = 2 / 7
        assert binary_f1_score(y, p) == pytest.approx(2 / 7)
        # F2 = 5TP / (5TP + 4FN + FP) = 5 / (5 + 8 + 3) = 5 / 16
        assert binary_fbeta_score(y, p, beta=2) == pytest.approx(5 / 16)
        assert binary_fbeta_score(y, p, beta=1) == pytest.approx(2 / 7)
        # G-mean = sqrt(recall * specificity) = sqrt(1/3 * 2/5)
        assert g_mean_score(y, p) == pytest.approx(np.sqrt(2 / 15))
        # balanced accuracy = (1/3 + 2/5) / 2 = 11/30
        assert balanced_accuracy_score(y, p) == pytest.approx(11 / 30)


def test_rates_pos_label_override():
    # positive 0: TP=2 (0, 4) FN=3 (1, 2, 3) FP=2 (6, 7) TN=1 (5)
    assert binary_recall_score(Y_A, P_A, pos_label=0) == pytest.approx(2 / 5)
    assert binary_specificity_score(Y_A, P_A, pos_label=0) == pytest.approx(1 / 3)
    assert binary_precision_score(Y_A, P_A, pos_label=0) == pytest.approx(2 / 4)
    assert binary_f1_score(YS_A, PS_A, pos_label="ok") == pytest.approx(4 / 9)
    # G-mean is symmetric in the classes
    assert g_mean_score(Y_A, P_A, pos_label=0) == pytest.approx(np.sqrt(2 / 15))


def test_rates_with_sample_weight_by_hand():
    # weighted: TP=1 FN=2.5 FP=6 TN=2
    assert binary_recall_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(1 / 3.5)
    assert binary_specificity_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(2 / 8)
    assert binary_precision_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(1 / 7)
    # F2 = 5 / (5 + 4 * 2.5 + 6) = 5 / 21
    assert binary_fbeta_score(Y_A, P_A, beta=2, sample_weight=W_A) == pytest.approx(
        5 / 21
    )
    assert g_mean_score(Y_A, P_A, sample_weight=W_A) == pytest.approx(
        np.sqrt(1 / 3.5 * 2 / 8)
    )


def test_cohen_kappa_by_hand():
    # P_A2: TP=2 FN=1 FP=1 TN=4, n = 8.  p_o = 6/8.
    # true pos 3/8, true neg 5/8; predicted pos 3/8, predicted neg 5/8
    # p_e = 3/8 * 3/8 + 5/8 * 5/8 = 34/64 -> kappa = (48/64 - 34/64) / (30/64) = 7/15
    assert cohen_kappa_score(Y_A, P_A2) == pytest.approx(7 / 15)
    assert cohen_kappa_score(YS_A, PS_A2) == pytest.approx(7 / 15)


def test_multiclass_g_mean_and_balanced_accuracy_by_hand():
    # recalls 1/2, 1/2, 1/3
    assert g_mean_score(Y_3, P_3) == pytest.approx((1 / 12) ** (1 / 3))
    assert balanced_accuracy_score(Y_3, P_3) == pytest.approx(
        (1 / 2 + 1 / 2 + 1 / 3) / 3
    )
    assert g_mean_score(Y_3, P_3) == pytest.approx(
        geometric_mean_score(Y_3, P_3, average="multiclass")
    )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_multiclass_g_mean_matches_imblearn_on_random_data(seed, weighted):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.repeat([0, 1, 2], [5, 9, 16]))
    p = np.where(rng.random(30) < 0.6, y, rng.integers(0, 3, 30))
    w = rng.uniform(0.1, 3.0, 30) if weighted else None
    expected = geometric_mean_score(y, p, average="multiclass", sample_weight=w)
    assert expected > 0  # the comparison is not 0 == 0
    assert g_mean_score(y, p, sample_weight=w) == pytest.approx(expected)
    assert balanced_accuracy_score(y, p, sample_weight=w) == pytest.approx(
        skm.balanced_accuracy_score(y, p, sample_weight=w)
    )
    assert cohen_kappa_score(y, p, sample_weight=w) == pytest.approx(
        skm.cohen_kappa_score(y, p, sample_weight=w)
    )


def test_multiclass_g_mean_matches_imblearn_with_a_label_only_predicted():
    y, p = [0, 0, 1, 1], [0, 2, 1, 1]
    # labels 0, 1, 2: recalls 1/2, 1, 0 (no true 2) -> G-mean 0 (imblearn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = geometric_mean_score(y, p, average="multiclass")
    assert expected == 0.0
    assert g_mean_score(y, p) == pytest.approx(expected)


@pytest.mark.parametrize("labels", LABEL_PAIRS, ids=LABEL_IDS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_binary_metrics_match_sklearn_and_imblearn(labels, weighted, seed):
    y, p, w = random_binary(seed, labels, weighted=weighted)
    neg, pos = labels
    assert minority(y) == pos
    kw = {"pos_label": pos, "sample_weight": w}
    assert binary_recall_score(y, p, sample_weight=w) == pytest.approx(
        skm.recall_score(y, p, **kw)
    )
    assert binary_precision_score(y, p, sample_weight=w) == pytest.approx(
        skm.precision_score(y, p, **kw)
    )
    assert binary_f1_score(y, p, sample_weight=w) == pytest.approx(
        skm.f1_score(y, p, **kw)
    )
    for beta in (0.5, 2.0):
        assert binary_fbeta_score(y, p, beta=beta, sample_weight=w) == pytest.approx(
            skm.fbeta_score(y, p, beta=beta, **kw)
        )
    cm = skm.confusion_matrix(y, p, labels=[pos, neg], sample_weight=w)
    tp, fn, fp, tn = cm[0, 0], cm[0, 1], cm[1, 0], cm[1, 1]
    assert binary_specificity_score(y, p, sample_weight=w) == pytest.approx(
        tn / (tn + fp)
    )
    assert g_mean_score(y, p, sample_weight=w) == pytest.approx(
        np.sqrt(tp / (tp + fn) * tn / (tn + fp))
    )
    if w is None:
        # imblearn 0.14's binary specificity ignores sample_weight in its TN count
        # (it can even go negative), so it is only a reference without weights.
        assert binary_specificity_score(y, p) == pytest.approx(
            imb_specificity_score(y, p, average="binary", pos_label=pos)
        )
        assert g_mean_score(y, p) == pytest.approx(
            geometric_mean_score(y, p, average="binary", pos_label=pos)
        )
    assert g_mean_score(y, p, sample_weight=w) == pytest.approx(
        geometric_mean_score(y, p, average="multiclass", sample_weight=w)
    )
    assert balanced_accuracy_score(y, p, sample_weight=w) == pytest.approx(
        skm.balanced_accuracy_score(y, p, sample_weight=w)
    )
    assert cohen_kappa_score(y, p, sample_weight=w) == pytest.approx(
        skm.cohen_kappa_score(y, p, sample_weight=w)
    )
    # the cost and the confusion counts agree with sklearn's confusion matrix
    assert binary_confusion(y, p, sample_weight=w) == pytest.approx((tp, fn, fp, tn))
    assert misclassification_cost(y, p, cost=(4, 1.5), sample_weight=w) == (
        pytest.approx(4 * fn + 1.5 * fp)
    )
    # the recall of the wrong class differs: the comparison can tell them apart
    assert skm.recall_score(y, p, pos_label=neg, sample_weight=w) != pytest.approx(
        binary_recall_score(y, p, sample_weight=w)
    )


def test_precision_with_no_predicted_positive_warns_and_is_zero():
    with pytest.warns(UndefinedMetricWarning):
        assert binary_precision_score([0, 0, 1], [0, 0, 0]) == 0.0
    with pytest.warns(UndefinedMetricWarning):
        assert binary_precision_score(["ok", "ok", "fraud"], ["ok"] * 3) == 0.0


@pytest.mark.parametrize(
    "metric",
    [
        binary_recall_score,
        binary_specificity_score,
        binary_precision_score,
        binary_f1_score,
        binary_fbeta_score,
        binary_confusion,
    ],
)
def test_binary_metrics_refuse_three_labels(metric):
    with pytest.raises(ValueError):
        metric(Y_3, P_3)
    with pytest.raises(ValueError):
        metric([0, 0, 1, 1], [0, 2, 1, 1])  # the third label only in y_pred


def test_binary_metrics_reject_unknown_pos_label():
    for metric in (
        binary_recall_score,
        binary_precision_score,
        binary_specificity_score,
        g_mean_score,
    ):
        with pytest.raises(ValueError, match="pos_label"):
            metric(Y_A, P_A, pos_label=3)
    with pytest.raises(ValueError, match="pos_label"):
        binary_roc_auc_score(Y_A, np.arange(8.0), pos_label="1")


def test_fbeta_rejects_bad_beta():
    for beta in (0.0, -1.0, np.nan, np.inf):
        with pytest.raises(ValueError, match="beta"):
            binary_fbeta_score(Y_A, P_A, beta=beta)


# ======================================================= 4. binary_confusion
def test_binary_confusion_by_hand():
    assert binary_confusion(Y_A, P_A) == (1.0, 2.0, 3.0, 2.0)
    assert binary_confusion(YS_A, PS_A) == (1.0, 2.0, 3.0, 2.0)
    # positive 0: TP {0, 4} FN {1, 2, 3} FP {6, 7} TN {5}
    assert binary_confusion(Y_A, P_A, pos_label=0) == (2.0, 3.0, 2.0, 1.0)
    assert binary_confusion(Y_A, P_A, sample_weight=W_A) == pytest.approx(
        (1.0, 2.5, 6.0, 2.0)
    )
    assert all(isinstance(v, float) for v in binary_confusion(Y_A, P_A))


def test_binary_confusion_rejects_bad_weights():
    with pytest.raises(ValueError):
        binary_confusion(Y_A, P_A, sample_weight=W_A[:-1])
    with pytest.raises(ValueError):
        binary_confusion(Y_A, P_A, sample_weight=-W_A)


# -------------------------------------- the binary_ prefix: no peer's name shadowed
# The prefix keeps our metrics apart from scikit-learn's and imbalanced-learn's
# functions of the unprefixed name, whose positive class defaults to pos_label=1:
# on labels {0, 1} with minority 0, the same call gives another number.
PEERS = {
    binary_recall_score: ({}, skm.recall_score),
    binary_specificity_score: ({}, imb_specificity_score),
    binary_precision_score: ({}, skm.precision_score),
    binary_fbeta_score: ({"beta": 2.0}, skm.fbeta_score),
    binary_f1_score: ({}, skm.f1_score),
    binary_roc_auc_score: ({}, skm.roc_auc_score),
}


@pytest.mark.parametrize("ours", list(PEERS), ids=lambda f: f.__name__)
def test_binary_metrics_differ_from_the_peer_of_the_unprefixed_name(ours):
    import imblearn.metrics

    import costsense.metrics

    extra, peer = PEERS[ours]
    y = np.array([0] * 7 + [1] * 13)  # 0 is the minority, hence the positive class
    if ours is binary_roc_auc_score:
        p = np.linspace(0.0, 1.0, y.size)[::-1]  # scores oriented towards class 0
    else:
        p = np.where(np.arange(y.size) % 3 == 0, 1 - y, y)
    assert ours(y, p, **extra) != pytest.approx(peer(y, p, **extra))
    assert ours(y, p, pos_label=1, **extra) == pytest.approx(peer(y, p, **extra))
    assert not hasattr(costsense.metrics, peer.__name__)
    assert not hasattr(skm, ours.__name__)
    assert not hasattr(imblearn.metrics, ours.__name__)
