"""OBPD and RWO on real tables: string categories, column names, dtypes kept.

The reference for every table is the same data as an ndarray of numbers, each
categorical column replaced by its values' positions in sorted order: the samplers
must draw the same rows from both (the table is encoded once and decoded at the
end), so what the numeric tests establish about the draws carries over.
"""

from __future__ import annotations

import numpy as np
import pytest
from imblearn.pipeline import Pipeline
from sklearn.compose import ColumnTransformer
from sklearn.dummy import DummyClassifier
from sklearn.preprocessing import OneHotEncoder

from costsense.sampling import OBPDSampler, RWOSampler, categorical_columns

pd = pytest.importorskip("pandas")

SAMPLERS = [OBPDSampler, RWOSampler]
N_MAJORITY, N_MINORITY = 600, 60
MINORITY_REGIONS = {"east": 0.7, "north": 0.3}


def _table(seed: int = 0):
    """Two continuous columns, an integer count, a string region, a category."""
    rng = np.random.default_rng(seed)
    n = N_MAJORITY + N_MINORITY
    y = np.r_[np.zeros(N_MAJORITY, dtype=int), np.ones(N_MINORITY, dtype=int)]
    region = np.r_[
        rng.choice(["west", "south", "east"], N_MAJORITY),
        rng.choice(
            list(MINORITY_REGIONS), N_MINORITY, p=list(MINORITY_REGIONS.values())
        ),
    ]
    frame = pd.DataFrame(
        {
            "income": rng.normal(size=n) + 3.0 * y,
            "score": rng.normal(size=n).astype(np.float32),
            "visits": rng.integers(0, 40, n),
            "region": region,
            "plan": pd.Categorical(
                rng.choice(["basic", "gold"], n), categories=["basic", "gold", "vip"]
            ),
        },
        index=np.arange(n) * 10,  # not a RangeIndex: the output gets a fresh one
    )
    return frame, y


def _as_numbers(frame) -> np.ndarray:
    """The table as floats, categories as their positions in sorted order."""
    columns = []
    for name in frame.columns:
        values = frame[name].to_numpy()
        if values.dtype.kind in "iuf":
            columns.append(values.astype(np.float64))
        else:
            columns.append(np.unique(values, return_inverse=True)[1].astype(float))
    return np.column_stack(columns)


CATEGORICAL = ["region", "plan"]
CATEGORICAL_INDICES = [3, 4]


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_a_dataframe_comes_back_with_its_columns_dtypes_and_rows(Sampler):
    frame, y = _table()
    X_res, y_res = Sampler(
        categorical_features=CATEGORICAL, random_state=0
    ).fit_resample(frame, y)
    assert isinstance(X_res, pd.DataFrame)
    assert list(X_res.columns) == list(frame.columns)
    assert X_res.dtypes.to_dict() == frame.dtypes.to_dict()
    assert list(X_res["plan"].cat.categories) == ["basic", "gold", "vip"]
    assert X_res.index.equals(pd.RangeIndex(2 * N_MAJORITY))
    pd.testing.assert_frame_equal(X_res.iloc[: len(y)], frame.reset_index(drop=True))
    np.testing.assert_array_equal(y_res, np.r_[y, np.ones(N_MAJORITY - N_MINORITY)])


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_new_rows_take_the_categories_of_their_class_at_its_frequencies(Sampler):
    frame, y = _table()
    X_res, _ = Sampler(categorical_features=CATEGORICAL, random_state=0).fit_resample(
        frame, y
    )
    new = X_res.iloc[len(y) :]
    minority = frame[y == 1]
    # 'west' and 'south' are majority regions only: never drawn for the minority
    assert set(new["region"]) <= set(minority["region"])
    assert set(new["plan"]) <= set(minority["plan"])
    for region in set(minority["region"]):
        expected = np.mean(minority["region"] == region)
        observed = np.mean(new["region"] == region)
        standard_error = np.sqrt(expected * (1 - expected) / len(new))
        assert abs(observed - expected) < 4 * standard_error, region


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_a_table_gives_the_rows_its_numeric_encoding_gives(Sampler):
    # the table and its numeric encoding must yield the same draws: continuous
    # columns equal (an integer column rounded), categories decoded from the codes
    frame, y = _table()
    X_res, _ = Sampler(categorical_features=CATEGORICAL, random_state=3).fit_resample(
        frame, y
    )
    numbers = _as_numbers(frame)
    reference, _ = Sampler(
        categorical_features=CATEGORICAL_INDICES, random_state=3
    ).fit_resample(numbers, y)
    new, expected = X_res.iloc[len(y) :], reference[len(y) :]
    np.testing.assert_array_equal(new["income"].to_numpy(), expected[:, 0])
    np.testing.assert_array_equal(
        new["score"].to_numpy(), expected[:, 1].astype(np.float32)
    )
    np.testing.assert_array_equal(new["visits"].to_numpy(), np.rint(expected[:, 2]))
    for column, name in zip(CATEGORICAL_INDICES, CATEGORICAL, strict=True):
        categories = np.unique(frame[name].to_numpy())
        np.testing.assert_array_equal(
            new[name].to_numpy(), categories[expected[:, column].astype(int)]
        )


def test_obpd_draws_a_tables_continuous_columns_from_the_class_mixture():
    # the mixture's mean (EM's maximum-likelihood fit) is the class's mean, and the
    # synthetic rows are exact draws from it
    rng = np.random.default_rng(5)
    n_minority, n_majority = 80, 8080
    frame = pd.DataFrame(
        {
            "a": np.r_[rng.normal(size=n_majority), rng.normal(2.0, 1.5, n_minority)],
            "colour": rng.choice(["red", "blue"], n_majority + n_minority),
            "b": np.r_[rng.normal(size=n_majority), rng.normal(-1.0, 0.5, n_minority)],
        }
    )
    y = np.r_[np.zeros(n_majority, dtype=int), np.ones(n_minority, dtype=int)]
    sampler = OBPDSampler(categorical_features=["colour"], random_state=0)
    X_res, _ = sampler.fit_resample(frame, y)
    new = X_res.iloc[len(y) :][["a", "b"]].to_numpy()
    scaler, mixture = sampler.models_[1]["scale"], sampler.models_[1]["mixture"]
    assert mixture.means_.shape[1] == 2  # the string column is not modelled
    mean = scaler.inverse_transform((mixture.weights_ @ mixture.means_)[None])[0]
    class_rows = frame[y == 1][["a", "b"]].to_numpy()
    np.testing.assert_allclose(mean, class_rows.mean(axis=0), atol=1e-6)
    standard_error = class_rows.std(axis=0) * 1.2 / np.sqrt(len(new))
    assert np.all(np.abs(new.mean(axis=0) - mean) < 5 * standard_error)


def test_rwo_keeps_a_tables_class_mean_and_adds_one_nth_of_its_variance():
    rng = np.random.default_rng(6)
    n_minority, rounds = 10, 3000
    n_majority = n_minority * (rounds + 1)
    frame = pd.DataFrame(
        {
            "colour": rng.choice(["red", "blue", "green"], n_majority + n_minority),
            "a": np.r_[rng.normal(size=n_majority), rng.normal(4.0, 2.0, n_minority)],
        }
    )
    y = np.r_[np.zeros(n_majority, dtype=int), np.ones(n_minority, dtype=int)]
    X_res, _ = RWOSampler(categorical_features=[0], random_state=0).fit_resample(
        frame, y
    )
    new = X_res["a"].to_numpy()[len(y) :]
    parents = frame["a"].to_numpy()[y == 1]
    sigma2 = parents.var()
    # every parent is used equally often: only the steps vary around the mean
    step_se = np.sqrt(sigma2 / n_minority / new.size)
    assert abs(new.mean() - parents.mean()) < 5 * step_se
    np.testing.assert_allclose(new.var(), sigma2 * (1 + 1 / n_minority), rtol=0.04)


# ------------------------------------------- ways of naming the categorical columns
@pytest.mark.parametrize("Sampler", SAMPLERS)
@pytest.mark.parametrize(
    "categorical_features",
    [
        CATEGORICAL_INDICES,
        [-2, -1],
        np.array(CATEGORICAL_INDICES),
        [False, False, False, True, True],
        np.array([False, False, False, True, True]),
        np.array(CATEGORICAL),
        tuple(CATEGORICAL),
    ],
    ids=["indices", "negative", "index-array", "mask", "mask-array", "names", "tuple"],
)
def test_names_indices_and_a_mask_give_the_same_rows(Sampler, categorical_features):
    frame, y = _table()
    by_name = Sampler(categorical_features=CATEGORICAL, random_state=1)
    expected, _ = by_name.fit_resample(frame, y)
    sampler = Sampler(categorical_features=categorical_features, random_state=1)
    X_res, _ = sampler.fit_resample(frame, y)
    pd.testing.assert_frame_equal(X_res, expected)
    np.testing.assert_array_equal(sampler.categorical_features_, CATEGORICAL_INDICES)
    np.testing.assert_array_equal(sampler.feature_names_in_, frame.columns)


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_auto_takes_the_category_dtype_columns(Sampler):
    frame, y = _table()
    frame["region"] = frame["region"].astype("category")
    auto = Sampler(categorical_features="auto", random_state=2)
    X_auto, _ = auto.fit_resample(frame, y)
    np.testing.assert_array_equal(auto.categorical_features_, CATEGORICAL_INDICES)
    X_named, _ = Sampler(categorical_features=CATEGORICAL, random_state=2).fit_resample(
        frame, y
    )
    pd.testing.assert_frame_equal(X_auto, X_named)


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_an_object_array_comes_back_as_an_object_array(Sampler):
    frame, y = _table()
    X = frame.to_numpy()  # object dtype: floats, ints and strings
    assert X.dtype == object
    X_res, _ = Sampler(
        categorical_features=CATEGORICAL_INDICES, random_state=4
    ).fit_resample(X, y)
    assert isinstance(X_res, np.ndarray)
    assert X_res.dtype == object
    assert X_res.shape == (2 * N_MAJORITY, 5)
    assert all(a is b for a, b in zip(X_res[: len(y)].ravel(), X.ravel(), strict=True))
    assert set(X_res[len(y) :, 3]) <= set(MINORITY_REGIONS)
    reference, _ = Sampler(
        categorical_features=CATEGORICAL, random_state=4
    ).fit_resample(frame, y)
    np.testing.assert_array_equal(
        X_res[len(y) :, 0].astype(float), reference["income"].to_numpy()[len(y) :]
    )


def test_a_list_of_rows_comes_back_as_a_list_with_its_numbers_and_strings():
    frame, y = _table()
    rows = frame[["income", "region"]].to_numpy().tolist()
    X_res, _ = RWOSampler(categorical_features=[1], random_state=0).fit_resample(
        rows, y
    )
    assert isinstance(X_res, list)
    assert X_res[: len(y)] == rows  # numbers stay numbers, not strings of them
    assert all(isinstance(row[0], float) for row in X_res[len(y) :])
    assert {row[1] for row in X_res[len(y) :]} <= set(MINORITY_REGIONS)


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_categories_that_cannot_be_sorted_are_drawn_from_the_class(Sampler):
    rng = np.random.default_rng(7)
    X = np.empty((120, 2), dtype=object)
    X[:, 0] = rng.normal(size=120)
    X[:100, 1] = rng.choice(np.array(["a", 1, 2.5], dtype=object), 100)
    X[100:, 1] = rng.choice(np.array(["b", 3, ("t", 1)], dtype=object), 20)
    y = np.r_[np.zeros(100, dtype=int), np.ones(20, dtype=int)]
    X_res, _ = Sampler(categorical_features=[1], random_state=0).fit_resample(X, y)
    new = X_res[len(y) :, 1]
    assert len(new) == 80
    assert {repr(v) for v in new} <= {repr(v) for v in X[100:, 1]}


# ------------------------------------------------------------------ the refusals
@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_an_undeclared_string_column_is_refused_by_name(Sampler):
    frame, y = _table()
    with pytest.raises(
        ValueError,
        match=(
            r"X's column 'region' \(index 3\) holds strings \(e.g. '(west|south|east)'"
            r"\).*add its name 'region' \(or its index 3\) to categorical_features"
        ),
    ):
        Sampler(categorical_features=["plan"]).fit_resample(frame, y)
    with pytest.raises(
        ValueError, match=r"X's column 3 holds strings.*its index 3 to categorical"
    ):
        Sampler(categorical_features=[4]).fit_resample(frame.to_numpy(), y)


def test_an_undeclared_category_column_is_refused_pointing_at_auto():
    frame, y = _table()
    with pytest.raises(
        ValueError,
        match=r"column 'plan' \(index 4\) has pandas' category dtype.*'auto'",
    ):
        OBPDSampler(categorical_features=["region"]).fit_resample(frame, y)


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_an_unknown_column_name_is_refused_with_the_columns_there_are(Sampler):
    frame, y = _table()
    with pytest.raises(
        ValueError,
        match=(
            r"categorical_features names columns X does not have: \['regon'\]\. "
            r"X's columns are \['income', 'score', 'visits', 'region', 'plan'\]\."
        ),
    ):
        Sampler(categorical_features=["regon", "plan"]).fit_resample(frame, y)


@pytest.mark.parametrize(
    ("categorical_features", "message"),
    [
        (["region"], r"names columns \(\['region'\]\), which needs X as a pandas"),
        ("auto", r"categorical_features='auto' .* X must be a pandas DataFrame"),
    ],
)
def test_names_and_auto_need_a_dataframe(categorical_features, message):
    frame, y = _table()
    with pytest.raises(ValueError, match=message):
        RWOSampler(categorical_features=categorical_features).fit_resample(
            _as_numbers(frame), y
        )


def test_missing_values_are_refused_naming_the_column():
    frame, y = _table()
    frame.loc[frame.index[5], "region"] = None
    with pytest.raises(
        ValueError, match=r"column 'region' \(index 3\) \(categorical\)"
    ):
        OBPDSampler(categorical_features=CATEGORICAL).fit_resample(frame, y)
    frame, y = _table()
    frame.loc[frame.index[5], "income"] = np.nan
    with pytest.raises(ValueError, match=r"column 'income' \(index 0\) has missing"):
        OBPDSampler(categorical_features=CATEGORICAL).fit_resample(frame, y)


# ------------------------------------------------------ redraws and pipelines
def test_a_redraw_from_a_table_is_a_table_and_repeats_fit_resample():
    # AIC's split search fits the same mixtures whatever the seed (Figueiredo &
    # Jain's random start would not), so only the draws depend on it
    frame, y = _table()
    fitted = OBPDSampler(
        n_components="aic", categorical_features=CATEGORICAL, random_state=0
    )
    fitted.fit_resample(frame, y)
    X_new, y_new = fitted.redraw(random_state=9)
    direct, _ = OBPDSampler(
        n_components="aic", categorical_features=CATEGORICAL, random_state=9
    ).fit_resample(frame, y)
    expected = direct.iloc[len(y) :].reset_index(drop=True)
    pd.testing.assert_frame_equal(X_new, expected)
    np.testing.assert_array_equal(y_new, np.ones(N_MAJORITY - N_MINORITY))


@pytest.mark.parametrize("Sampler", SAMPLERS)
def test_in_an_imblearn_pipeline_on_a_table(Sampler):
    frame, y = _table()
    encode = ColumnTransformer(
        [("categories", OneHotEncoder(), CATEGORICAL)], remainder="passthrough"
    )
    pipe = Pipeline(
        [
            ("sample", Sampler(categorical_features=CATEGORICAL, random_state=0)),
            ("encode", encode),
            ("classify", DummyClassifier()),
        ]
    )
    pipe.fit(frame, y)
    np.testing.assert_allclose(pipe[-1].class_prior_, [0.5, 0.5])
    # four regions and two plans seen, one-hot, then the three numeric columns:
    # the encoder was fitted on the resampled table, strings and all
    assert pipe[1].transform(frame).shape == (len(y), 4 + 2 + 3)
    assert pipe.predict(frame).shape == (len(y),)  # no resampling at predict time


@pytest.mark.parametrize(
    "categorical_features",
    [CATEGORICAL, CATEGORICAL_INDICES, [-1, 3], [False, False, False, True, True]],
)
def test_categorical_columns_reads_every_form_into_the_same_indices(
    categorical_features,
):
    frame, _ = _table()
    indices = categorical_columns(categorical_features, frame)
    np.testing.assert_array_equal(indices, CATEGORICAL_INDICES)
    assert list(frame.columns[indices]) == CATEGORICAL
    frame["region"] = frame["region"].astype("category")
    np.testing.assert_array_equal(
        categorical_columns("auto", frame), CATEGORICAL_INDICES
    )
    assert categorical_columns(None, frame).size == 0
    with pytest.raises(ValueError, match=r"does not have: \['nowhere'\]"):
        categorical_columns(["nowhere"], frame)
