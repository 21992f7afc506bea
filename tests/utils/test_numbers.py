"""Written numbers: thousands separators and decimal commas read, ambiguity refused."""

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.cli import UsageError
from costsense.utils._numbers import read_written_numbers
from tests.cli._data import write_csv


def _read(cells, **options):
    frame = pd.DataFrame({"a": pd.Series(cells, dtype=object)})
    read, marks = read_written_numbers(frame, "f.csv", **options)
    return read["a"].to_numpy(), marks


@pytest.mark.parametrize(
    ("cells", "numbers", "mark"),
    [
        (["1,234.50", "-12,000", "7.25"], [1234.5, -12000.0, 7.25], "."),
        (["1.234,50", "12.000", "7,25"], [1234.5, 12000.0, 7.25], ","),
        (["1 234,5", "12,5"], [1234.5, 12.5], ","),
        (["1'234.5", "3.5"], [1234.5, 3.5], "."),
        (["1 234", "12 000"], [1234.0, 12000.0], "."),  # the same numbers either way
        (["12,5", None, "3,25"], [12.5, np.nan, 3.25], ","),
    ],
)
def test_numbers_that_read_one_way_are_read_by_hand(cells, numbers, mark):
    values, marks = _read(cells)
    np.testing.assert_array_equal(values, numbers)
    assert marks == {"a": mark}


def test_numbers_that_read_two_ways_need_the_decimal_mark():
    with pytest.raises(UsageError, match="column 'a' holds numbers such as '1,234'"):
        _read(["1,234", "2,500"])
    assert _read(["1,234", "2,500"], decimal=".")[0].tolist() == [1234.0, 2500.0]
    assert _read(["1,234", "2,500"], decimal=",")[0].tolist() == [1.234, 2.5]
    # a model trained on "1,234.50" reads "1,234" as 1234 in a later file
    assert _read(["1,234"], marks={"a": "."})[0].tolist() == [1234.0]


def test_text_is_left_as_text():
    frame = pd.DataFrame({"a": ["east", "1,5"], "b": [1.0, 2.0]})
    read, marks = read_written_numbers(frame, "f.csv")
    pd.testing.assert_frame_equal(read, frame)
    assert marks == {}


def test_fit_and_predict_on_written_amounts_match_the_plain_file(tmp_path):
    plain = pd.read_csv(write_csv(tmp_path / "plain.csv", n=300))
    plain["amount"] = np.round(np.abs(plain["f1"]) * 2_000 + 10, 2)
    plain.to_csv(tmp_path / "plain.csv", index=False)
    written = plain.assign(amount=[f"{a:,.2f}" for a in plain["amount"]])
    written.to_csv(tmp_path / "written.csv", index=False)
    assert written["amount"].str.contains(",").any()
    out = {}
    for name in ("plain", "written"):
        model = tmp_path / f"{name}.skops"
        assert cli.main(["fit", "--csv", str(tmp_path / f"{name}.csv"), "--target",
                         "label", "--fn-cost", "col:amount", "--model", "threshold",
                         "--out", str(model)]) == 0  # fmt: skip
        assert cli.main(["predict", "--model", str(model), "--csv",
                         str(tmp_path / f"{name}.csv"), "--out",
                         str(tmp_path / f"{name}.out")]) == 0  # fmt: skip
        out[name] = pd.read_csv(tmp_path / f"{name}.out")
    pd.testing.assert_frame_equal(out["written"], out["plain"])


@pytest.mark.parametrize(
    ("cells", "numbers", "mark"),
    [
        (["€1,022", "-€6.29", "€ 12", "0"], [1022.0, -6.29, 12.0, 0.0], ".€"),
        (["1.022,50 EUR", "12 EUR", "3,5"], [1022.5, 12.0, 3.5], ",EUR"),
        (["$1,022", "$2,500"], [1022.0, 2500.0], ".$"),  # cents: 2 decimals, not 3
        (["US$ 5", "US$7.5"], [5.0, 7.5], ".US$"),
        (["12%", "3.5 %"], [12.0, 3.5], ".%"),  # the number as written
    ],
)
def test_amounts_with_a_currency_sign_or_percent_are_numbers(cells, numbers, mark):
    values, marks = _read(cells)
    np.testing.assert_array_equal(values, numbers)
    assert marks == {"a": mark}


def test_a_model_reads_its_columns_sign_and_refuses_another_by_line():
    assert _read(["€5", "7"], marks={"a": ".€"})[0].tolist() == [5.0, 7.0]
    with pytest.raises(
        UsageError,
        match=r"column 'a' holds numbers in €, but not in "
        r"row \[3\] \('\$5'\): correct or empty those cells",
    ):
        _read(["€5", "$5"], marks={"a": ".€"})
    with pytest.raises(
        UsageError,
        match=r"amounts in 2 currencies or units "
        r"\(\$, €\); write them in one",
    ):
        _read(["€5", "$5", "€6"])
    with pytest.raises(UsageError, match="such as '€1,022'") as raised:
        _read(["€1,022", "€2.500"])  # 1022 and 2.5, or 1.022 and 2500?
    assert "--max-categories" not in str(raised.value)


def test_a_few_cells_that_are_not_numbers_are_named_by_line_and_value():
    cells = [str(i) for i in range(100)]
    cells[3], cells[30], cells[31] = "unknown", "?", None
    cells[4], cells[5] = "1e-05", ".5"  # numbers as Python writes them
    with pytest.raises(
        UsageError,
        match=r"column 'a' holds numbers, but not in rows \[5, 32\] \('unknown', "
        r"'\?'\): correct or empty those cells \(an empty cell is a missing "
        r"value; see --missing\), or --drop a$",
    ):
        _read(cells)
    frame = pd.DataFrame({"a": pd.Series(cells, dtype=object)})
    with pytest.raises(UsageError, match=r"rows \[105, 132\] \(text\)"):
        read_written_numbers(frame, "f.csv", first_row=100, show_cells=False)
    # at a model's columns, one cell that is a number makes the others wrong
    with pytest.raises(
        UsageError,
        match=r"row \[3\] \('x'\): correct or empty those cells \(an empty "
        r"cell is a missing value\)$",
    ):
        _read(["1", "x"], marks={})
    # a cost column's cells are left for the cost reader to name
    spared, marks = read_written_numbers(frame, "f.csv", spare=["a"])
    assert spared["a"].tolist()[2:6] == [2.0, "unknown", 1e-05, 0.5] and marks == {
        "a": "."
    }
    # text with a few numbers among it is a category
    assert _read(["east", "west", "12", "north"])[1] == {}
