"""The candidates: the default probability models, and their out-of-fold fits.

A bagged forest is read through its out-of-bag probabilities (Breiman 2001); any
other candidate is cross-validated on the inner folds, whose fold models are kept
as its final model (:class:`FoldAverage`). A candidate that raises is recorded,
never chosen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from costsense._base import inner_fits
from costsense.recommend._combination import AVERAGE, STACK, proba_columns
from costsense.tree import BoostedTreesClassifier, CostSensitiveForestClassifier
from costsense.utils._random import draw_seed

__all__ = [
    "FoldAverage",
    "SquaredColumns",
    "auto_candidates",
    "auto_splitter",
    "fit_candidate",
    "forest_trees",
    "named_candidates",
    "stratified",
    "uses_oob",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Out-of-bag trees per row the default forest aims at: 100 trees on bootstrap
#: samples of every row leave each row out of about 0.37 x 100 = 37 of them.
FOREST_OOB_TREES = 37
#: Most trees of the default forest (on sets of at most :data:`FOREST_ROWS` rows).
FOREST_MAX_TREES = 100
#: Each tree of the default forest is grown on a bootstrap sample of at most this
#: many rows, which bounds the forest's time and model-file size whatever the
#: number of rows (subsampled bagging: Buhlmann & Yu 2002).
FOREST_ROWS = 2048
#: Up to this many features the quadratic candidate has every pairwise product;
#: beyond, only the squares (:class:`SquaredColumns`).
FULL_QUADRATIC_MAX_FEATURES = 12
#: Above this many rows ``cv="auto"`` holds out one stratified share of the rows
#: (:data:`HOLDOUT_SHARE`) instead of cross-validating, and the default
#: candidates leave out the forest. Each candidate is then fitted once, on the
#: other rows, and that fit is its final model: cross-validation would cost k fits
#: and k models to predict with, for out-of-fold estimates that so many rows no
#: longer need; and a forest of trees grown on :data:`FOREST_ROWS` rows each adds
#: little to the boosted trees, grown on every row. Measured on
#: ``benchmarks/real_costs.py``: on bank marketing and PAKDD (27,000 training
#: rows) as many savings in half the time; on VUB (13,000) the held-out split
#: without the forest saved less than two folds with it, hence the bound.
LARGE_ROWS = 20_000
#: The share of the rows ``cv="auto"`` holds out above :data:`LARGE_ROWS`.
HOLDOUT_SHARE = 0.2
#: Inner folds for ``cv="auto"`` up to :data:`LARGE_ROWS`: the most folds a set of
#: this many rows gets.
AUTO_FOLDS = ((5_000, 5), (10_000, 3), (LARGE_ROWS, 2))
#: Seconds a candidate may take before ``verbose`` reports each of its folds.
QUIET_SECONDS = 5.0


class SquaredColumns(TransformerMixin, BaseEstimator):
    """Append the squares of the columns that take more than two values.

    The quadratic candidate's expansion beyond
    :data:`FULL_QUADRATIC_MAX_FEATURES` features. A column of two values (a
    one-hot indicator, scaled or not) is an affine function of itself, and so is
    its square: it would add a copy of the column, nothing the model could use
    but an ill-conditioned fit.
    """

    def fit(self, X: FloatArray, y: Any = None) -> SquaredColumns:
        """Find the columns of more than two distinct values."""
        samples = np.asarray(X, dtype=np.float64)
        low, high = samples.min(axis=0), samples.max(axis=0)
        two_valued = np.all((samples == low) | (samples == high), axis=0)
        self.columns_ = np.flatnonzero(~two_valued)
        self.n_features_in_ = samples.shape[1]
        return self

    def transform(self, X: FloatArray) -> FloatArray:
        """Return ``[X, X[:, columns_] ** 2]``."""
        samples = np.asarray(X, dtype=np.float64)
        return np.hstack([samples, np.square(samples[:, self.columns_])])


def auto_candidates(
    n_samples: int, n_features: int, n_jobs: int | None
) -> list[tuple[str, Any]]:
    """Return the default candidates: boosted trees, forest, logistic, quadratic.

    The forest only up to :data:`LARGE_ROWS` rows.
    """
    if n_features <= FULL_QUADRATIC_MAX_FEATURES:
        expand: Any = PolynomialFeatures(degree=2, include_bias=False)
    else:
        expand = SquaredColumns()
    forest = CostSensitiveForestClassifier(
        n_estimators=forest_trees(n_samples),
        max_samples=FOREST_ROWS if n_samples > FOREST_ROWS else None,
        oob_score=True,
        n_jobs=n_jobs,
    )
    return [
        ("boosted", BoostedTreesClassifier()),
        *([("forest", forest)] if n_samples <= LARGE_ROWS else []),
        ("logistic", _scaled_logistic()),
        (
            "quadratic",
            _scaled_logistic(("expand", expand), ("rescale", StandardScaler())),
        ),
    ]


def _scaled_logistic(*steps: tuple[str, Any]) -> Pipeline:
    """Standardise, apply ``steps``, then a logistic regression (``C=1``)."""
    return Pipeline(
        [
            ("scale", StandardScaler()),
            *steps,
            ("logistic", LogisticRegression(max_iter=1000)),
        ]
    )


def forest_trees(n_samples: int) -> int:
    """Trees of the default forest: about :data:`FOREST_OOB_TREES` out of bag per row.

    A tree grown on ``m = min(n, 2048)`` rows drawn with replacement leaves a row
    out with probability ``(1 - 1/n)^m``; the forest gets as many trees as make
    that ``FOREST_OOB_TREES`` on average, at most :data:`FOREST_MAX_TREES`.
    """
    n = max(int(n_samples), 2)
    out_of_bag = (1.0 - 1.0 / n) ** min(n, FOREST_ROWS)
    return int(min(FOREST_MAX_TREES, np.ceil(FOREST_OOB_TREES / out_of_bag)))


def auto_splitter(
    y_index: IntArray, rng: np.random.RandomState
) -> StratifiedKFold | StratifiedShuffleSplit:
    """Return the inner splits of ``cv="auto"``: stratified folds, or one held out.

    Up to :data:`LARGE_ROWS` rows, :data:`AUTO_FOLDS` shuffled stratified folds;
    beyond, one stratified split holding out :data:`HOLDOUT_SHARE` of the rows.
    """
    n_samples = y_index.size
    if n_samples > LARGE_ROWS:
        return StratifiedShuffleSplit(
            1, test_size=HOLDOUT_SHARE, random_state=draw_seed(rng)
        )
    folds = next(k for largest, k in AUTO_FOLDS if n_samples <= largest)
    return stratified(folds, y_index, rng)


def named_candidates(candidates: Any) -> list[tuple[str, Any]]:
    """Validate a user list of candidates; name them (``(name, estimator)`` kept)."""
    if len(candidates) == 0:
        raise ValueError(
            "candidates is empty: give at least one classifier with predict_proba, "
            "or candidates='auto'."
        )
    named: list[tuple[str, Any]] = []
    for index, item in enumerate(candidates):
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, estimator = item
        else:
            name, estimator = type(item).__name__.lower(), item
        if not (hasattr(estimator, "fit") and hasattr(estimator, "predict_proba")):
            raise TypeError(
                f"candidates[{index}] ({type(estimator).__name__}) needs fit and "
                "predict_proba; give a probabilistic classifier (an SVC needs "
                "probability=True, or wrap it in CalibratedClassifierCV)."
            )
        if name in (AVERAGE, STACK):
            raise ValueError(
                f"candidates[{index}] is named {name!r}, which names a combination "
                "of the candidates; give it another name."
            )
        taken = {n for n, _ in named}
        unique, suffix = name, 2
        while unique in taken:
            unique, suffix = f"{name}-{suffix}", suffix + 1
        named.append((unique, estimator))
    return named


def uses_oob(estimator: Any) -> bool:
    """Whether the candidate is a bagged forest that can give out-of-bag estimates."""
    params = estimator.get_params(deep=False)
    return "oob_score" in params and params.get("bootstrap", False) is True


class FoldAverage:
    """A cross-fitted candidate's final model: the mean of its fold models.

    The models fitted on the inner folds give the out-of-fold probabilities and
    are then kept, rather than refitted on every row: their average predicts new
    rows (a cross-validation committee; with ``k`` folds each saw ``(k - 1) / k``
    of the rows). Fitted on class indices, as every candidate is.
    """

    def __init__(self, estimators: list[Any], n_classes: int) -> None:
        self.estimators_ = estimators
        self.classes_ = np.arange(n_classes)

    def __repr__(self) -> str:
        inner = type(self.estimators_[0]).__name__ if self.estimators_ else ""
        return f"FoldAverage({len(self.estimators_)} x {inner})"

    def predict_proba(self, X: FloatArray) -> FloatArray:
        """Mean of the fold models' class probabilities, ``(n, n_classes)``."""
        total = np.zeros((X.shape[0], self.classes_.size))
        for model in self.estimators_:
            total += proba_columns(model, X, self.classes_.size)
        return total / len(self.estimators_)


@dataclass
class Fitted:
    """One candidate after fitting: out-of-fold probabilities and the final model."""

    name: str
    model: Any = None
    oof: FloatArray | None = None
    error: str = ""
    seconds: float = float("nan")


def _weighted_fit(
    estimator: Any, X: FloatArray, y: IntArray, weight: FloatArray | None
) -> Any:
    """Fit ``estimator``, with ``sample_weight`` when given (a pipeline's last step)."""
    # a candidate's fits are this estimator's inner fits (run here, in the
    # worker, when the folds run in other processes): only the final model warns
    with inner_fits():
        if weight is None:
            return estimator.fit(X, y)
        if isinstance(estimator, Pipeline):
            last = estimator.steps[-1][0]
            return estimator.fit(X, y, **{f"{last}__sample_weight": weight})
        return estimator.fit(X, y, sample_weight=weight)


def _fit_fold(
    estimator: Any,
    X: FloatArray,
    y: IntArray,
    weight: FloatArray | None,
    train: IntArray,
    test: IntArray,
    n_classes: int,
) -> tuple[Any, FloatArray] | str:
    """Fit on ``train``; return the model and its probabilities of ``test``.

    Returns the error's text instead when the fit or the prediction raises.
    """
    try:
        train_weight = None if weight is None else weight[train]
        model = _weighted_fit(clone(estimator), X[train], y[train], train_weight)
        return model, proba_columns(model, X[test], n_classes)
    except Exception as error:  # a failing candidate is recorded, never chosen
        return f"{type(error).__name__}: {error}"


def fit_candidate(
    name: str,
    estimator: Any,
    X: FloatArray,
    y: IntArray,
    folds: list[tuple[IntArray, IntArray]],
    n_classes: int,
    n_jobs: int | None,
    weight: FloatArray | None = None,
    say: Any = None,
) -> Fitted:
    """Out-of-fold probabilities and the final model of one candidate.

    A bagged forest is fitted once and read out of bag. Any other candidate is
    fitted on each fold's training rows and predicts its test rows; the fold
    models, averaged (:class:`FoldAverage`), are its final model. With
    ``weight``, every fit gets it as ``sample_weight``; a candidate that does not
    accept it fails (and is skipped). ``say`` reports each fold once the
    candidate has taken more than :data:`QUIET_SECONDS`.
    """
    started = time.perf_counter()
    result = Fitted(name)
    n = X.shape[0]
    try:
        if uses_oob(estimator):
            model = _weighted_fit(
                clone(estimator).set_params(oob_score=True), X, y, weight
            )
            oob = getattr(model, "oob_decision_function_", None)
            if oob is not None:
                oof = np.full((n, n_classes), np.nan)
                oof[:, np.asarray(model.classes_, dtype=np.intp)] = oob
                result.model, result.oof = model, oof
                return result
        parts = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(_fit_fold)(estimator, X, y, weight, train, test, n_classes)
            for train, test in folds
        )
        oof = np.zeros((n, n_classes))
        count = np.zeros(n)
        models = []
        for i, ((_, test), part) in enumerate(zip(folds, parts, strict=True)):
            elapsed = time.perf_counter() - started
            if say is not None and elapsed > QUIET_SECONDS:
                say(f"candidate {name}: fold {i + 1} of {len(folds)} ({elapsed:.0f} s)")
            if isinstance(part, str):
                result.error = part
                return result
            model, proba = part
            models.append(model)
            oof[test] += proba
            count[test] += 1
        tested = count > 0
        oof[tested] /= count[tested, None]
        oof[~tested] = np.nan  # rows no fold tested have no out-of-fold estimate
        result.model = FoldAverage(models, n_classes)
        result.oof = oof
    except Exception as error:  # a failing candidate is recorded, never chosen
        result.error = f"{type(error).__name__}: {error}"
    finally:
        result.seconds = time.perf_counter() - started
    return result


def stratified(
    n_splits: int, y_index: IntArray, rng: np.random.RandomState
) -> StratifiedKFold:
    """Shuffled stratified folds, no more than the smallest class has rows (>= 2)."""
    present = np.bincount(y_index)
    smallest = int(present[present > 0].min()) if present.size else 0
    n_splits = max(2, min(n_splits, smallest))
    return StratifiedKFold(n_splits, shuffle=True, random_state=draw_seed(rng))
