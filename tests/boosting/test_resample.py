"""SMOTEBoost, RWOBoost, OBPDBoost: synthetic rows for the learner, AdaBoost on rows."""

from __future__ import annotations

import numpy as np
import pytest
from imblearn import FunctionSampler
from imblearn.over_sampling import SMOTE
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB

import costsense.boosting as boosting
from costsense.boosting import (
    AdaBoostClassifier,
    AdaC2Classifier,
    OBPDBoostClassifier,
    RWOBoostClassifier,
    SMOTEBoostClassifier,
)
from costsense.naive_bayes import DiscreteNaiveBayesClassifier
from costsense.sampling import OBPDSampler

BOOSTERS = [SMOTEBoostClassifier, RWOBoostClassifier, OBPDBoostClassifier]
FITS: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []


class RecordingNB(ClassifierMixin, BaseEstimator):
    """Gaussian naive Bayes that records what each round trains on."""

    def fit(self, X, y, sample_weight=None):
        FITS.append((X.copy(), y.copy(), np.asarray(sample_weight).copy()))
        self.model_ = GaussianNB().fit(X, y, sample_weight=sample_weight)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _data(seed: int = 0):
    X, y = make_classification(
        n_samples=240,
        n_features=5,
        n_informative=3,
        weights=[0.85],
        flip_y=0.05,
        random_state=seed,
    )
    return X, np.where(y == 1, 1, -1)  # the engine's own signs: positive = minority


def _fast(cls, **params):
    if cls is OBPDBoostClassifier:
        params.setdefault("sampler", OBPDSampler(max_components=2))
    return cls(**params)


@pytest.mark.parametrize("cls", BOOSTERS)
def test_no_oversampling_is_adaboost(cls):
    X, y = _data(1)
    ours = _fast(cls, oversampling=0.0, n_estimators=12, random_state=0).fit(X, y)
    plain = AdaBoostClassifier(GaussianNB(), n_estimators=12, random_state=0).fit(X, y)
    assert ours.n_synthetic_ == 0
    np.testing.assert_allclose(ours.estimator_weights_, plain.estimator_weights_)
    np.testing.assert_array_equal(ours.predict(X), plain.predict(X))


@pytest.mark.parametrize("cls", BOOSTERS)
@pytest.mark.parametrize("oversampling", [0.5, 2.0])
def test_each_learner_sees_the_rows_plus_synthetic_positives_at_their_mean_weight(
    cls, oversampling
):
    X, y = _data(2)
    n, positive = len(y), y > 0
    FITS.clear()
    model = _fast(
        cls,
        estimator=RecordingNB(),
        oversampling=oversampling,
        n_estimators=6,
        random_state=0,
    ).fit(X, y)
    n_new = int(round(oversampling * positive.sum()))
    assert model.n_synthetic_ == n_new
    # AdaBoost on the original rows, rebuilt by hand from the kept learners
    D = np.full(n, 1.0 / n)
    for t, (X_t, y_t, w_t) in enumerate(FITS[: len(model.estimators_)]):
        assert X_t.shape == (n + n_new, X.shape[1])
        np.testing.assert_array_equal(X_t[:n], X)
        np.testing.assert_array_equal(y_t, np.r_[y, np.ones(n_new)])
        np.testing.assert_allclose(w_t[:n], D, rtol=1e-10)
        np.testing.assert_allclose(w_t[n:], D[positive].mean(), rtol=1e-10)
        h = model.estimators_[t].predict(X)
        error = D[h != y].sum()
        assert model.estimator_errors_[t] == pytest.approx(error, rel=1e-10)
        alpha = 0.5 * np.log((1 - error) / error)
        assert model.estimator_weights_[t] == pytest.approx(alpha, rel=1e-10)
        D = D * np.exp(-alpha * y * h)
        D = D / D.sum()


def test_smote_rows_lie_between_positive_rows():
    # SMOTE interpolates: every synthetic row is on a segment between two positives
    X, y = _data(3)
    FITS.clear()
    SMOTEBoostClassifier(RecordingNB(), n_estimators=1, random_state=0).fit(X, y)
    X_t, _, _ = FITS[0]
    lower, upper = X[y > 0].min(axis=0), X[y > 0].max(axis=0)
    synthetic = X_t[len(y) :]
    assert np.all((synthetic >= lower - 1e-12) & (synthetic <= upper + 1e-12))


def test_rounds_draw_fresh_synthetic_rows():
    X, y = _data(4)
    FITS.clear()
    model = SMOTEBoostClassifier(RecordingNB(), n_estimators=3, random_state=0).fit(
        X, y
    )
    assert len(model.estimators_) >= 2
    assert not np.allclose(FITS[0][0][len(y) :], FITS[1][0][len(y) :])


@pytest.mark.parametrize(("n_positive", "expected_new"), [(3, 6), (1, 0)])
def test_small_positive_classes(n_positive, expected_new):
    # SMOTE's k is lowered to n_pos - 1; a single positive row gets no company
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 3))
    y = -np.ones(40)
    y[:n_positive] = 1
    X[:n_positive] += 2.0
    model = SMOTEBoostClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert model.n_synthetic_ == expected_new


class _ShuffledSMOTE(SMOTE):
    """SMOTE whose output rows come in random order."""

    def fit_resample(self, X, y):
        X_res, y_res = super().fit_resample(X, y)
        order = np.random.default_rng(0).permutation(len(y_res))
        return X_res[order], y_res[order]


def test_a_sampler_that_reorders_the_rows_is_refused():
    X, y = _data(6)
    booster = SMOTEBoostClassifier(sampler=_ShuffledSMOTE(), n_estimators=2)
    with pytest.raises(ValueError, match="original rows first"):
        booster.fit(X, y)


def test_a_sampler_without_sampling_strategy_is_refused_by_name():
    X, y = _data(7)
    booster = SMOTEBoostClassifier(sampler=FunctionSampler(), n_estimators=2)
    with pytest.raises(TypeError, match="FunctionSampler has no sampling_strategy"):
        booster.fit(X, y)


# ------------------------------------------ the sampler is an axis of every rule
DISCRETE = [
    cls
    for name in boosting.__all__
    if "sampler" in (cls := getattr(boosting, name))().get_params()
]


@pytest.mark.parametrize("cls", DISCRETE, ids=lambda c: c.__name__)
def test_every_rule_takes_a_sampler_and_oversampling_zero_is_no_sampler(cls):
    X, y = _data(8)
    params = {"estimator": GaussianNB(), "n_estimators": 6, "cost": 4.0}
    plain = cls(**params, sampler=None, random_state=0)
    if cls in BOOSTERS:  # their sampler=None means their default sampler
        plain.set_params(oversampling=0.0)
    plain.fit(X, y)
    idle = cls(**params, sampler=SMOTE(), oversampling=0.0, random_state=0).fit(X, y)
    assert plain.n_synthetic_ == idle.n_synthetic_ == 0
    np.testing.assert_array_equal(plain.estimator_weights_, idle.estimator_weights_)
    np.testing.assert_array_equal(plain.predict(X), idle.predict(X))
    sampled = cls(**params, sampler=SMOTE(), random_state=0).fit(X, y)
    assert sampled.n_synthetic_ == 2 * int(np.sum(y > 0))


def test_smote_with_adac2_keeps_adac2_on_the_original_rows():
    # AdaC2 (Sun et al. 2007) by hand: D_1 uniform, alpha = 1/2 ln(sum_ok C D /
    # sum_bad C D), D <- C D exp(-alpha y h) with C = c / max c; the learner sees
    # the rows at D and the synthetic positives at the positives' mean D
    X, y = _data(9)
    n, positive = len(y), y > 0
    c1, c2 = 4.0, 1.0
    C = np.where(positive, c1, c2) / max(c1, c2)
    FITS.clear()
    model = AdaC2Classifier(
        RecordingNB(), sampler=SMOTE(), n_estimators=5, cost=(c1, c2), random_state=0
    ).fit(X, y)
    n_new = 2 * int(positive.sum())
    assert model.n_synthetic_ == n_new
    assert len(model.estimators_) >= 2
    D = np.full(n, 1.0 / n)
    for t, (X_t, y_t, w_t) in enumerate(FITS[: len(model.estimators_)]):
        assert X_t.shape == (n + n_new, X.shape[1])
        np.testing.assert_array_equal(X_t[:n], X)
        np.testing.assert_array_equal(y_t, np.r_[y, np.ones(n_new)])
        np.testing.assert_allclose(w_t[:n], D, rtol=1e-10)
        np.testing.assert_allclose(w_t[n:], D[positive].mean(), rtol=1e-10)
        h = model.estimators_[t].predict(X)
        ok = h == y
        alpha = 0.5 * np.log(np.sum(C[ok] * D[ok]) / np.sum(C[~ok] * D[~ok]))
        assert model.estimator_weights_[t] == pytest.approx(alpha, rel=1e-10)
        D = C * D * np.exp(-alpha * y * h)
        D = D / D.sum()


def test_the_named_boosters_are_adaboost_with_a_default_sampler():
    X, y = _data(10)
    named = SMOTEBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    spelled = AdaBoostClassifier(
        GaussianNB(), sampler=SMOTE(), n_estimators=5, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(named.estimator_weights_, spelled.estimator_weights_)
    np.testing.assert_array_equal(named.predict(X), spelled.predict(X))


# ------------------------------------------- fit the sampler once, draw each round
MODEL_FITS: list[int] = []
RESAMPLES: list[int] = []


class CountingOBPD(OBPDSampler):
    """OBPD that counts the class models it fits (every clone shares the list)."""

    def _fit_continuous(self, X_class, seed):
        MODEL_FITS.append(seed)
        return super()._fit_continuous(X_class, seed)


class CountingSMOTE(SMOTE):
    """SMOTE that counts its fit_resample calls."""

    def fit_resample(self, X, y, **params):
        RESAMPLES.append(len(y))
        return super().fit_resample(X, y, **params)


def test_a_sampler_that_redraws_is_fitted_once_per_boosting_fit():
    X, y = _data(11)
    MODEL_FITS.clear()
    FITS.clear()
    booster = OBPDBoostClassifier(
        RecordingNB(),
        sampler=CountingOBPD(max_components=2),
        n_estimators=6,
        early_stopping=False,
        random_state=0,
    )
    booster.fit(X, y)
    assert len(booster.estimators_) == 6
    assert len(MODEL_FITS) == 1  # one positive class, one mixture, six rounds
    synthetic = [X_t[len(y) :] for X_t, _, _ in FITS]
    for a, b in zip(synthetic, synthetic[1:], strict=False):
        assert not np.allclose(a, b)  # a fresh draw every round
    booster.fit(X, y)
    assert len(MODEL_FITS) == 2  # a new boosting fit fits anew


def test_a_sampler_that_cannot_redraw_is_fitted_every_round():
    X, y = _data(12)
    RESAMPLES.clear()
    booster = SMOTEBoostClassifier(
        sampler=CountingSMOTE(), n_estimators=5, early_stopping=False, random_state=0
    )
    booster.fit(X, y)
    assert len(booster.estimators_) == 5
    assert RESAMPLES == [len(y)] * 5


def test_a_booster_that_redraws_is_deterministic_for_a_seed():
    X, y = _data(13)
    runs = []
    for _ in range(2):
        FITS.clear()
        model = OBPDBoostClassifier(
            RecordingNB(),
            sampler=OBPDSampler(max_components=2),
            n_estimators=5,
            early_stopping=False,
            random_state=4,
        ).fit(X, y)
        runs.append((model, [X_t.copy() for X_t, _, _ in FITS]))
    (first, rows_a), (second, rows_b) = runs
    np.testing.assert_array_equal(first.estimator_weights_, second.estimator_weights_)
    for a, b in zip(rows_a, rows_b, strict=True):
        np.testing.assert_array_equal(a, b)
    other = OBPDBoostClassifier(
        sampler=OBPDSampler(max_components=2), n_estimators=5, random_state=5
    )
    FITS.clear()
    other.set_params(estimator=RecordingNB(), early_stopping=False).fit(X, y)
    assert not np.allclose(FITS[0][0][len(y) :], rows_a[0][len(y) :])


def test_redrawn_rows_are_drawn_with_each_rounds_seed():
    # round t's redraw(seed_t) must equal what fit_resample(random_state=seed_t)
    # appends, as the sampler's mixture does not depend on its seed (AIC search)
    X, y = _data(14)
    FITS.clear()
    OBPDBoostClassifier(
        RecordingNB(),
        sampler=OBPDSampler(max_components=2),
        n_estimators=3,
        early_stopping=False,
        random_state=6,
    ).fit(X, y)
    rng = np.random.RandomState(6)  # RecordingNB takes no seed: one draw a round
    for t in range(3):
        seed = rng.randint(np.iinfo(np.int32).max)
        template = OBPDSampler(
            max_components=2,
            sampling_strategy={1.0: int(3 * np.sum(y > 0))},
            random_state=seed,
        )
        X_res, _ = template.fit_resample(X, y)
        np.testing.assert_array_equal(FITS[t][0], X_res)


class _ShortRedraw(OBPDSampler):
    """OBPD whose redraw drops a row."""

    def redraw(self, random_state=None):
        X_new, y_new = super().redraw(random_state)
        return X_new[1:], y_new[1:]


def test_a_redraw_of_the_wrong_size_is_refused():
    X, y = _data(15)
    booster = OBPDBoostClassifier(
        sampler=_ShortRedraw(max_components=2), n_estimators=3, early_stopping=False
    )
    with pytest.raises(ValueError, match="redraw must return"):
        booster.fit(X, y)


# ------------------------------------------------------- categorical columns
CODES = np.array([0.0, 3.0, 7.0, 9.0])


class RecordingDiscreteNB(DiscreteNaiveBayesClassifier):
    """The counting naive Bayes, recording each round's training rows."""

    def fit(self, X, y, sample_weight=None, **fit_params):
        FITS.append((np.array(X), np.array(y), np.asarray(sample_weight).copy()))
        return super().fit(X, y, sample_weight=sample_weight, **fit_params)


def _mixed(seed: int = 0):
    """Three continuous columns and a column of codes 0, 3, 7 (and 9 in class -1)."""
    X, y = _data(seed)
    rng = np.random.default_rng(seed)
    codes = np.where(
        y > 0,
        rng.choice(CODES[:3], size=y.size, p=[0.6, 0.3, 0.1]),
        rng.choice(CODES, size=y.size, p=[0.2, 0.3, 0.3, 0.2]),
    )
    return np.column_stack([X[:, :3], codes]), y


@pytest.mark.parametrize("cls", BOOSTERS)
def test_synthetic_categorical_codes_are_codes_the_positive_class_has(cls):
    # the column of codes reaches the sampler declared: every synthetic row holds
    # one of the positive class's own codes (0, 3, 7; never the negatives' 9, never
    # a value in between), and the counting naive Bayes counts it as categories
    X, y = _mixed(3)
    FITS.clear()
    model = _fast(
        cls,
        estimator=RecordingDiscreteNB(weights_as="proportions"),
        categorical_features=[3],
        n_estimators=4,
        random_state=0,
    ).fit(X, y)
    n, observed = len(y), set(X[y > 0, 3])
    assert observed == {0.0, 3.0, 7.0}
    assert len(FITS) == len(model.estimators_) >= 2
    for rows, labels, _ in FITS:
        synthetic = rows[n:]
        assert synthetic.shape[0] == model.n_synthetic_ > 0
        assert np.all(labels[n:] == 1)
        assert set(synthetic[:, 3]) <= observed
        # the continuous columns are synthetic, not copies of the rows
        assert not np.isin(synthetic[:, 0], X[:, 0]).all()
    for learner in model.estimators_:
        np.testing.assert_array_equal(learner.categorical_, [False, False, False, True])
        np.testing.assert_array_equal(learner.categories_[3], CODES)


@pytest.mark.parametrize("cls", [RWOBoostClassifier, OBPDBoostClassifier])
def test_undeclared_codes_are_drawn_as_numbers(cls):
    # the contrast that makes the test above able to fail: without the
    # declaration, the samplers draw the column of codes as a continuous one
    X, y = _mixed(3)
    FITS.clear()
    _fast(
        cls,
        estimator=RecordingDiscreteNB(weights_as="proportions"),
        n_estimators=2,
        random_state=0,
    ).fit(X, y)
    synthetic = FITS[0][0][len(y) :, 3]
    assert not set(synthetic) <= set(CODES)


def test_obpd_draws_the_categorical_column_by_roulette_wheel_in_obpdboost():
    # OBPDBoost's sampler is the one given, with the declared column set on it
    X, y = _mixed(4)
    FITS.clear()
    model = OBPDBoostClassifier(
        RecordingDiscreteNB(weights_as="proportions"),
        sampler=OBPDSampler(n_components=1),
        categorical_features=np.array([False, False, False, True]),
        n_estimators=3,
        random_state=1,
    ).fit(X, y)
    positive = X[y > 0, 3]
    drawn = np.concatenate([rows[len(y) :, 3] for rows, _, _ in FITS])
    assert set(drawn) <= set(positive)
    # a roulette wheel over the class's frequencies: code 0, the commonest of the
    # positive class's codes, is the commonest draw
    values, counts = np.unique(drawn, return_counts=True)
    assert values[np.argmax(counts)] == 0.0
    assert model.n_synthetic_ == 2 * int(np.sum(y > 0))


def test_smoteboost_with_categorical_columns_uses_smote_nc_and_smoten():
    X, y = _mixed(5)
    X[:, 2] = (X[:, 2] > 0).astype(float)  # two columns of codes
    FITS.clear()
    mixed = SMOTEBoostClassifier(
        RecordingDiscreteNB(weights_as="proportions"),
        categorical_features=np.array([2, 3]),
        n_estimators=2,
    ).fit(X, y)
    assert type(mixed._sampler()).__name__ == "SMOTENC"
    synthetic = FITS[0][0][len(y) :]
    assert set(synthetic[:, 2]) <= {0.0, 1.0}
    assert set(synthetic[:, 3]) <= set(X[y > 0, 3])
    codes = np.column_stack([X[:, 3], X[:, 3] % 2])
    only = SMOTEBoostClassifier(categorical_features=[0, 1], n_estimators=2)
    assert type(only.fit(codes, y)._sampler()).__name__ == "SMOTEN"


def test_a_sampler_that_takes_no_categorical_columns_is_refused():
    X, y = _mixed(6)
    model = SMOTEBoostClassifier(sampler=SMOTE(), categorical_features=[3])
    with pytest.raises(TypeError, match="SMOTENC"):
        model.fit(X, y)
