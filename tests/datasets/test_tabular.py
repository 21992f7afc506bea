from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

pd = pytest.importorskip("pandas")

from costsense.datasets import load_csv, load_frame  # noqa: E402


@pytest.fixture
def frame():
    return pd.DataFrame(
        {
            "amount": [10.0, 250.0, 31.5, 8.0, 99.0, 12.0],
            "country": ["fr", "de", "fr", "it", "de", "fr"],
            "n_items": [1, 3, 2, 1, 5, 2],
            "fraud": ["no", "yes", "no", "no", "yes", "no"],
        }
    )


def test_csv_round_trip(tmp_path, frame):
    path = tmp_path / "payments.csv"
    frame.to_csv(path, index=False)
    data = load_csv(path, "fraud")
    assert data.name == "payments"
    assert data.X.dtype == np.float64 and data.X.shape == (6, 5)
    assert data.feature_names.tolist() == [
        "amount",
        "country=de",
        "country=fr",
        "country=it",
        "n_items",
    ]
    assert data.categorical.tolist() == [False, True, False]
    assert data.original_feature_names.tolist() == ["amount", "country", "n_items"]
    assert data.categories == {"country": ["de", "fr", "it"]}
    assert_array_equal(data.X[:, 0], frame["amount"])
    assert_array_equal(data.X[:, 1:4].sum(axis=1), 1.0)
    assert_array_equal(data.y, frame["fraud"].to_numpy(dtype=object))
    assert data.pos_label == "yes"  # the minority class
    assert data.target_name == "fraud" and data.n_dropped == 0
    assert data.target_names.tolist() == ["no", "yes"]


def test_ordinal_encoding(frame):
    data = load_frame(frame, "fraud", encoding="ordinal")
    assert data.X.shape == (6, 3)
    assert_array_equal(data.X[:, 1], [1, 0, 1, 2, 0, 1])
    assert data.feature_names.tolist() == ["amount", "country", "n_items"]


def test_read_csv_kwargs_are_passed(tmp_path, frame):
    path = tmp_path / "semicolon.txt"
    frame.to_csv(path, index=False, sep=";")
    data = load_csv(path, "fraud", sep=";", pos_label="no")
    assert data.X.shape == (6, 5) and data.pos_label == "no"


def test_unknown_target_lists_the_columns(tmp_path, frame):
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"target='label'.*'amount', 'country'"):
        load_csv(path, "label")


def test_unknown_pos_label_raises(frame):
    with pytest.raises(ValueError, match="pos_label"):
        load_frame(frame, "fraud", pos_label="maybe")


def test_missing_values(frame):
    frame.loc[2, "amount"] = np.nan
    frame.loc[3, "country"] = None
    with pytest.raises(ValueError, match=r"2 rows have missing values.*amount"):
        load_frame(frame, "fraud")
    dropped = load_frame(frame, "fraud", missing="drop")
    assert dropped.X.shape == (4, 4) and dropped.n_dropped == 2
    assert np.isfinite(dropped.X).all()
    kept = load_frame(frame, "fraud", missing="keep")
    # "it" appeared only in the row whose country is now missing
    assert kept.categories == {"country": ["de", "fr"]}
    assert kept.X.shape == (6, 4)
    assert np.isnan(kept.X[2, 0]) and np.isnan(kept.X[3, 1:3]).all()
    assert np.isnan(kept.X).sum() == 3
    ordinal = load_frame(frame, "fraud", missing="keep", encoding="ordinal")
    assert np.isnan(ordinal.X[3, 1])
    frame.loc[0, "fraud"] = None
    with pytest.raises(ValueError, match="missing labels"):
        load_frame(frame, "fraud", missing="keep")
    assert len(load_frame(frame, "fraud", missing="drop").y) == 3


def test_pandas_categorical_order_and_bool_columns():
    df = pd.DataFrame(
        {
            "size": pd.Categorical(
                ["small", "large", "medium", "small"],
                categories=["small", "medium", "large"],
                ordered=True,
            ),
            "flag": [True, False, True, True],
            "label": [0, 1, 0, 0],
        }
    )
    data = load_frame(df, "label", encoding="ordinal")
    assert data.categories == {"size": ["small", "medium", "large"]}
    assert_array_equal(data.X[:, 0], [0, 2, 1, 0])
    assert data.categorical.tolist() == [True, False]  # bool is numeric
    assert_array_equal(data.X[:, 1], [1, 0, 1, 1])
    assert data.pos_label == 1 and data.y.tolist() == [0, 1, 0, 0]


def test_numeric_looking_categories_sort_by_value():
    df = pd.DataFrame({"k": ["10", "9", "more", "2"], "y": ["a", "b", "a", "b"]})
    data = load_frame(df, "y")
    assert data.categories == {"k": ["2", "9", "10", "more"]}


def test_bad_inputs(frame):
    with pytest.raises(TypeError, match="DataFrame"):
        load_frame(frame.to_numpy(), "fraud")
    with pytest.raises(ValueError, match="encoding"):
        load_frame(frame, "fraud", encoding="dummy")
    with pytest.raises(ValueError, match="missing"):
        load_frame(frame, "fraud", missing="impute")
    dated = frame.assign(when=pd.to_datetime(["2024-01-01"] * 6))
    with pytest.raises(TypeError, match="dates or times"):
        load_frame(dated, "fraud")
    with pytest.raises(ValueError, match="no rows"):
        load_frame(frame.iloc[:0], "fraud")


def test_docstring_examples_run():
    import doctest

    import costsense.datasets as module

    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(module.load_frame, "load_frame"):
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
