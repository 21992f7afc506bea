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
