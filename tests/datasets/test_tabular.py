"""The one table reader: a CSV, a Parquet file or a DataFrame, its costs and options."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

pd = pytest.importorskip("pandas")

from costsense.datasets import TableOptions, read_table  # noqa: E402
from costsense.exceptions import UsageError  # noqa: E402


@pytest.fixture
def frame():
    return pd.DataFrame(
        {
            "ref": ["a1", "a2", "a3", "a4", "a5", "a6"],
            "amount": [10.0, 250.0, 31.5, 8.0, 99.0, 12.0],
            "country": ["fr", "de", "fr", "it", "de", "fr"],
            "n_items": [1, 3, 2, 1, 5, 2],
            "fraud": ["no", "yes", "no", "no", "yes", "no"],
        }
    )


def test_csv_parquet_and_frame_give_one_table(tmp_path, frame):
    frame.to_csv(tmp_path / "p.csv", index=False, sep=";")
    frame.to_parquet(tmp_path / "p.parquet")
    options = TableOptions(id_column="ref")
    sources = (tmp_path / "p.csv", tmp_path / "p.parquet", frame)
    tables = [read_table(source, "fraud", options=options) for source in sources]
    for table in tables:
        assert table.kinds == {"amount": "numeric", "country": "categorical",
                               "n_items": "numeric"}  # fmt: skip
        pd.testing.assert_frame_equal(table.X, tables[0].X, check_dtype=False)
        assert_array_equal(table.y, frame["fraud"].to_numpy(dtype=object))
        assert table.ignored == ["ref"] and table.id_column == "ref"
        assert table.row_costs() is None and table.n_dropped == 0
    encoded = tables[0].encoder.fit_transform(tables[0].X)
    # the categories' indicators first (de, fr, it), then the numbers
    expected = np.column_stack([frame["country"] == "de", frame["country"] == "fr",
                                frame["country"] == "it", frame["amount"],
                                frame["n_items"]]).astype(float)  # fmt: skip
    assert_array_equal(encoded, expected)


def test_cost_parts_are_numbers_or_columns_with_defaults(frame):
    table = read_table(frame, "fraud", costs={"fn": "amount", "fp": "2", "tp": 0.5})
    assert table.parts == {"fp": 2.0, "fn": "amount", "tp": 0.5, "tn": 0.0}
    matrices = table.row_costs().matrices(["no", "yes"], "yes")
    assert_array_equal(matrices[:, 1, 0], frame["amount"])  # a missed positive
    assert_array_equal(matrices[:, 0, 1], 2.0)  # a false alarm
    assert_array_equal(matrices[:, 1, 1], 0.5)
    assert "amount" in table.kinds  # a cost column stays a feature by default
    kept = read_table(frame, "fraud", {"fn": "col:amount"},
                      TableOptions(cost_features=False))  # fmt: skip
    assert "amount" not in kept.kinds and not kept.cost_features
    constant = read_table(frame, "fraud", {"fn": 5})
    assert constant.parts["fn"] == 5.0 and constant.row_costs() is None


@pytest.mark.parametrize(
    ("costs", "said"),
    [
        ({"fn": "amout"}, "--fn-cost 'amout' is neither a number nor a column"),
        ({"fp": -1}, "--fp-cost -1: a cost must be a finite number >= 0"),
        ({"fn": "fraud"}, "is the --target column"),
        ({"fn": "country"}, r"must hold numbers .* rows \[2, 3, 4, 5, 6\] and 1 more"),
        ({"tp": "col:ghost"}, "'ghost' is not a column"),
    ],
)
def test_costs_that_are_not_costs_are_refused_by_name(frame, costs, said):
    with pytest.raises(UsageError, match=said):
        read_table(frame, "fraud", costs)


def test_a_column_named_like_a_number_needs_col(frame):
    frame = frame.rename(columns={"n_items": "3"})
    with pytest.raises(UsageError, match="both a number and a column.*col:3"):
        read_table(frame, "fraud", {"fn": "3"})
    assert read_table(frame, "fraud", {"fn": "col:3"}).parts["fn"] == "3"


def test_missing_values_by_policy(frame):
    frame.loc[2, "amount"] = np.nan
    frame.loc[3, "country"] = None
    with pytest.raises(UsageError, match=r"2 rows have missing values .*'amount': 1"):
        read_table(frame, "fraud")
    dropped = read_table(frame, "fraud", options=TableOptions(missing="drop"))
    assert dropped.X.shape == (4, 4) and dropped.n_dropped == 2
    kept = read_table(frame, "fraud", options=TableOptions(missing="keep"))
    assert kept.X.shape == (6, 4) and kept.X.isna().sum().sum() == 2
    frame.loc[0, "fraud"] = None  # a row without its label is dropped
    assert len(read_table(frame, "fraud", options=TableOptions(missing="keep")).y) == 5


def test_bad_tables_are_refused_naming_the_fix(frame):
    with pytest.raises(UsageError, match=r"--target 'label' is not a column.*'ref'"):
        read_table(frame, "label")
    with pytest.raises(UsageError, match=r"\['ghost'\] are not columns"):
        read_table(frame, "fraud", options=TableOptions(drop=("ghost",)))
    with pytest.raises(UsageError, match=r"column 'amount' holds infinite values"):
        read_table(frame.assign(amount=np.inf), "fraud")
    many = pd.concat([frame] * 4, ignore_index=True).assign(fraud=np.arange(24))
    with pytest.raises(UsageError, match="holds 24 distinct numbers.*a quantity"):
        read_table(many, "fraud")


def test_docstring_examples_run():
    import doctest

    import costsense.datasets as module

    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(module.read_table, "read_table"):
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


def test_a_feature_that_looks_like_an_identifier_is_noted_with_the_fix():
    from costsense.exceptions import ColumnWarning

    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame(
        {
            "client_id": rng.permutation(n) + 100_000,  # distinct whole numbers
            "OrderNo": np.arange(n) // 2,  # half as many: an identifier's name
            "age": rng.integers(18, 80, n),  # whole numbers that repeat
            "amount": rng.normal(size=n),  # distinct, not whole
            "fraud": ["no", "yes"] * (n // 2),
        }
    )
    with pytest.warns(ColumnWarning) as caught:
        table = read_table(frame, "fraud")
    assert [str(w.message) for w in caught] == table.notes
    assert len(table.notes) == 2 and table.kinds["client_id"] == "numeric"
    assert table.notes[0] == (
        "column 'client_id' looks like an identifier (60 distinct whole numbers in "
        "60 rows) and is a feature: if it names rows, give --id-column client_id "
        "(or --drop client_id)"
    )
    assert "--id-column OrderNo" in table.notes[1]
    left_out = TableOptions(id_column="client_id", drop=("OrderNo",))
    assert read_table(frame, "fraud", options=left_out).notes == []
    assert read_table(frame.iloc[:40], "fraud").notes == []  # too few rows to tell
    frame["client_id"] = frame["client_id"].where(frame.index != 5)  # one missing
    with pytest.warns(ColumnWarning, match=r"\(59 distinct whole numbers in 59 rows"):
        read_table(
            frame.drop(columns="OrderNo"), "fraud", options=TableOptions(missing="keep")
        )


def test_amounts_with_currency_signs_are_read_as_features_and_costs():
    frame = pd.DataFrame(
        {
            "price": ["€1,022", "€6", "€2,500", "€30"] * 3,
            "fee": ["$6.29", "$0.50", "$12", "$1,000.25"] * 3,
            "fraud": ["no", "yes", "no", "yes"] * 3,
        }
    )
    table = read_table(frame, "fraud", costs={"fn": "fee"})
    assert table.kinds == {"price": "numeric", "fee": "numeric"}
    assert table.number_marks == {"price": ".€", "fee": ".$"}
    assert_array_equal(table.X["price"][:4], [1022.0, 6.0, 2500.0, 30.0])
    assert_array_equal(table.cost_columns["fee"][:4], [6.29, 0.5, 12.0, 1000.25])


def test_a_few_bad_cells_in_numbers_are_named_by_line_not_read_as_categories():
    frame = pd.DataFrame(
        {"age": [str(20 + i % 30) for i in range(100)], "fraud": ["no", "yes"] * 50}
    )
    frame.loc[[10, 60], "age"] = "unknown"
    frame.loc[20, "age"] = None  # missing: --missing decides
    with pytest.raises(
        UsageError,
        match=r"column 'age' holds numbers, but not in rows "
        r"\[12, 62\] \('unknown'\)",
    ):
        read_table(frame, "fraud", options=TableOptions(missing="drop"))
    frame.loc[[10, 60], "age"] = None
    table = read_table(frame, "fraud", options=TableOptions(missing="drop"))
    assert table.kinds == {"age": "numeric"} and table.n_dropped == 3


def test_prefixed_cost_columns_are_read_as_numbers_and_never_features(frame):
    frame = frame.assign(cost_yes_block=["$1,000.50", "$2", "$3", "$4", "$5", "$6"])
    table = read_table(frame, "fraud", cost_prefix="cost_")
    assert "cost_yes_block" not in table.kinds and not table.cost_features
    assert_array_equal(table.cost_columns["cost_yes_block"], [1000.5, 2, 3, 4, 5, 6])
    assert table.number_marks["cost_yes_block"] == ".$"
    with pytest.raises(UsageError, match="no feature column besides the target and"):
        read_table(frame[["fraud", "cost_yes_block"]], "fraud", cost_prefix="cost_")
