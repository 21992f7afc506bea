"""Tests of the deprecated former names of the ``binary_`` metrics: each warns,
naming its replacement, and returns exactly its value; and the property that
motivated the rename (the old names silently differed from scikit-learn's and
imbalanced-learn's functions of the same name).
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from imblearn import metrics as imblearn_metrics
from imblearn.metrics import sensitivity_score as imb_sensitivity_score
from imblearn.metrics import specificity_score as imb_specificity_score
from sklearn import metrics as skm
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate

from costsense import metrics as metrics_module
from costsense.metrics import (
    binary_f1_score,
    binary_fbeta_score,
    binary_precision_score,
    binary_recall_score,
    binary_roc_auc_score,
    binary_specificity_score,
    make_scorers,
)
from tests.metrics._examples import (
    CV,
    scorer_data,
)

# ===================================================== 7. deprecated old names
# old name -> (new function, extra keyword arguments, the peer's function of the
# same name). The old names shadowed scikit-learn's / imbalanced-learn's functions,
# whose positive class defaults to pos_label=1.
DEPRECATED = {
    "recall_score": (binary_recall_score, {}, skm.recall_score),
    "sensitivity_score": (binary_recall_score, {}, imb_sensitivity_score),
    "specificity_score": (binary_specificity_score, {}, imb_specificity_score),
    "precision_score": (binary_precision_score, {}, skm.precision_score),
    "fbeta_score": (binary_fbeta_score, {"beta": 2.0}, skm.fbeta_score),
    "f1_score": (binary_f1_score, {}, skm.f1_score),
    "roc_auc_score": (binary_roc_auc_score, {}, skm.roc_auc_score),
}


def _scored_or_predicted(name, y):
    """Predictions with errors in both classes, or scores for the AUC."""
    if name == "roc_auc_score":
        return np.linspace(0.0, 1.0, y.size)[::-1]  # oriented towards class 0
    return np.where(np.arange(y.size) % 3 == 0, 1 - y, y)


@pytest.mark.parametrize("old", sorted(DEPRECATED))
@pytest.mark.parametrize("weighted", [False, True])
def test_deprecated_name_warns_and_returns_the_new_functions_value(old, weighted):
    new, extra, _ = DEPRECATED[old]
    y = np.array([0] * 7 + [1] * 13)  # 0 is the minority, hence the positive class
    p = _scored_or_predicted(old, y)
    w = np.random.RandomState(0).uniform(0.5, 2.0, y.size) if weighted else None
    alias = getattr(metrics_module, old)
    with pytest.warns(FutureWarning, match=rf"{old} is deprecated.*{new.__name__}"):
        value = alias(y, p, sample_weight=w, **extra)
    assert value == new(y, p, sample_weight=w, **extra)  # exactly, not approx
    with pytest.warns(FutureWarning):  # positional and pos_label pass through
        assert alias(y, p, pos_label=1, **extra) == new(y, p, pos_label=1, **extra)
    assert alias.__name__ == old
    assert old in metrics_module.__all__ and new.__name__ in metrics_module.__all__


@pytest.mark.parametrize("old", sorted(DEPRECATED))
def test_old_names_differed_from_the_peers_silently_and_now_warn(old):
    """The motivating property: on labels {0, 1} with minority 0, the old name gave
    the peer's number for the other class; it now warns, and the new name does not
    shadow the peer's."""
    new, extra, peer = DEPRECATED[old]
    y = np.array([0] * 7 + [1] * 13)
    p = _scored_or_predicted(old, y)
    ours = new(y, p, **extra)
    theirs = peer(y, p, **extra)  # the peer's default: pos_label=1
    assert ours != pytest.approx(theirs)  # same call, different number
    with pytest.warns(FutureWarning, match=old):
        getattr(metrics_module, old)(y, p, **extra)
    assert new.__name__ != old
    assert not hasattr(skm, new.__name__)
    assert not hasattr(imblearn_metrics, new.__name__)


def test_internal_callers_do_not_use_the_deprecated_names():
    X, y, _ = scorer_data(True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        cross_validate(LogisticRegression(), X, y, scoring=make_scorers(cost=5), cv=CV)
    # no module of the package reaches an old name through costsense.metrics
    package = Path(metrics_module.__file__).parents[1]
    pattern = re.compile(
        r"metrics\.(" + "|".join(DEPRECATED) + r")\b"
        r"|from costsense\.metrics[\w.]* import [^\n]*\b("
        + "|".join(DEPRECATED)
        + r")\b"
    )
    for path in package.rglob("*.py"):
        if path.parent.name == "metrics" and path.stem in ("_deprecated", "__init__"):
            continue  # the aliases themselves, and the package exporting them
        assert not pattern.search(path.read_text()), path


@pytest.mark.parametrize(
    ("name", "y_true", "y_pred"),
    [
        ("precision_score", [0, 0, 1], [0, 0, 0]),  # nothing predicted positive
        ("recall_score", [0, 0, 0], [0, 1, 0]),  # no positive in the truth
    ],
)
def test_warnings_through_an_old_name_point_at_the_callers_line(name, y_true, y_pred):
    # the alias adds a frame: a fixed stack level would name costsense's module
    old = getattr(metrics_module, name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = old(y_true, y_pred, pos_label=1)
    kinds = {type(w.message).__name__ for w in caught}
    assert value == 0.0 and kinds == {"FutureWarning", "UndefinedMetricWarning"}
    assert all(w.filename == __file__ for w in caught)
