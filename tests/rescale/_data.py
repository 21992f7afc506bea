"""Data and models shared by the rescaling tests."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from costsense.rescale import (
    CostWeighting,
    MetaCost,
    RejectionSampling,
)


def binary(n=300, seed=0, minority=0.2):
    X, y = make_classification(
        n_samples=n,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        weights=[1 - minority],
        flip_y=0.05,
        random_state=seed,
    )
    return X, y


def three_classes(n=300, seed=0):
    X, y = make_classification(
        n_samples=n,
        n_features=5,
        n_informative=4,
        n_redundant=0,
        n_classes=3,
        weights=[0.6, 0.3, 0.1],
        random_state=seed,
    )
    return X, y


def three_separable(seed=0):
    return make_classification(
        n_samples=300,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        n_classes=3,
        n_clusters_per_class=1,
        random_state=seed,
    )


def member_proba(model, X):
    """Mean ``predict_proba`` of the fitted members (the one base learner if none)."""
    members = getattr(model, "estimators_", [model.estimator_])
    return np.mean([member.predict_proba(X) for member in members], axis=0)


def least_expected_cost(posterior, matrices):
    """``argmin_j sum_i posterior[r, i] * matrices[r, i, j]`` for each row ``r``."""
    expected = (posterior[:, :, None] * matrices).sum(axis=1)
    return np.argmin(expected, axis=1)


def random_matrices(rng, n):
    """Random 2 x 2 matrices ``[truth, prediction]`` for classes (0, 1), 1 positive."""
    out = np.empty((n, 2, 2))
    out[:, 0, 0] = rng.uniform(0, 1, n)  # TN
    out[:, 0, 1] = rng.uniform(0.5, 3, n)  # FP
    out[:, 1, 0] = rng.uniform(1, 30, n)  # FN
    out[:, 1, 1] = rng.uniform(0, 2, n)  # TP
    return out


PER_ROW_WRAPPERS = {
    "CostWeighting": lambda: CostWeighting(LogisticRegression(), pos_label=1),
    "RejectionSampling": lambda: RejectionSampling(
        LogisticRegression(), pos_label=1, n_estimators=5, random_state=0
    ),
    "MetaCost": lambda: MetaCost(
        LogisticRegression(), pos_label=1, n_estimators=5, random_state=0
    ),
}
