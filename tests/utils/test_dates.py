"""Date-time columns become hour, weekday, day and month; ambiguous ones are refused."""

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.utils._dates import AmbiguousDates, DateTimeParts, date_format
from tests.cli._data import write_csv


def test_the_four_parts_of_a_date_by_hand():
    aware = pd.DataFrame({"ts": ["2026-01-31T14:30:00Z",  # a Saturday
                                 "2026-01-31T14:30:00+02:00",  # 12:30 UTC
                                 None]})  # fmt: skip
    naive = pd.DataFrame({"ts": ["2026-03-02 00:15:00", "2026-03-08 23:45"]})
    for cells, expected in (
        (aware, [[14.5, 5, 31, 1], [12.5, 5, 31, 1], [np.nan] * 4]),
        (naive, [[0.25, 0, 2, 3], [23.75, 6, 8, 3]]),  # as written
    ):
        parts = DateTimeParts().fit(cells)
        np.testing.assert_allclose(parts.transform(cells), expected)
    assert list(parts.get_feature_names_out()) == [
        "ts_hour", "ts_weekday", "ts_day", "ts_month"
    ]  # fmt: skip


def test_day_first_and_month_first_are_learned_and_ambiguity_refused():
    day_first = pd.Series(["31/01/2026", "13/02/2026", "01/03/2026"])
    month_first = pd.Series(["01/31/2026", "02/13/2026", "03/01/2026"])
    cells = pd.DataFrame({"d": ["01/03/2026"]})  # the 1st of March, day first
    for column, month in ((day_first, 3), (month_first, 1)):
        parts = DateTimeParts().fit(column.to_frame("d"))
        assert parts.transform(cells)[0, 3] == month
    with pytest.raises(AmbiguousDates):
        date_format(pd.Series(["03/04/2026", "05/06/2026"]))
    # the same date either way is not ambiguous
    assert date_format(pd.Series(["05/05/2026", "07/07/2026"]))
    with pytest.raises(ValueError, match="not all dates of one format"):
        date_format(pd.Series(["2026-01-31", "31/01/2026 10:00"]))


def _night_fraud(n, seed):
    """Labels that depend on the hour alone: fraud at night."""
    rng = np.random.default_rng(seed)
    stamps = pd.Timestamp("2026-01-01") + pd.to_timedelta(
        rng.integers(0, 60 * 24 * 90, n), unit="min"
    )
    night = stamps.hour < 5
    label = (night & (rng.random(n) < 0.8)) | (~night & (rng.random(n) < 0.03))
    return pd.DataFrame({
        "ts": stamps.strftime("%Y-%m-%d %H:%M"),
        "noise": rng.normal(size=n),
        "label": label.astype(int),
    })  # fmt: skip


def test_a_date_column_is_a_feature_a_model_can_use(tmp_path, capsys):
    _night_fraud(1_200, 0).to_csv(tmp_path / "t.csv", index=False)
    costs = {}
    for name, extra in (("with", []), ("without", ["--drop", "ts"])):
        out = tmp_path / f"{name}.csv"
        assert cli.main(["evaluate", "--csv", str(tmp_path / "t.csv"), "--target",
                         "label", "--cost", "5", "--model", "minimum-cost",
                         "--folds", "3", "--output", str(out), "--quiet",
                         *extra]) == 0  # fmt: skip
        costs[name] = pd.read_csv(out)["cost_total"].mean()
    said = capsys.readouterr()
    assert "ts (date-time: hour, weekday, day, month)" in said.out
    # the hour decides the label: without it the model can only guess
    assert costs["with"] < 0.5 * costs["without"], costs


def test_fit_and_predict_read_dates_and_refuse_an_unread_one(tmp_path, capsys):
    _night_fraud(600, 1).to_csv(tmp_path / "t.csv", index=False)
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(tmp_path / "t.csv"), "--target", "label",
                     "--cost", "5", "--model", "minimum-cost", "--out",
                     str(model)]) == 0  # fmt: skip
    new = _night_fraud(300, 2)
    new.to_csv(tmp_path / "new.csv", index=False)
    assert (
        cli.main(
            [
                "predict",
                "--model",
                str(model),
                "--csv",
                str(tmp_path / "new.csv"),
                "--out",
                str(tmp_path / "p.csv"),
            ]
        )
        == 0
    )
    decided = pd.read_csv(tmp_path / "p.csv")["prediction"].to_numpy()
    night = pd.to_datetime(new["ts"]).dt.hour < 5
    assert decided[night].mean() > 0.9 and decided[~night].mean() < 0.1
    new.loc[200, "ts"] = "yesterday"
    new.to_csv(tmp_path / "bad.csv", index=False)
    capsys.readouterr()
    assert cli.main(["predict", "--model", str(model), "--csv",
                     str(tmp_path / "bad.csv"), "--out", str(tmp_path / "q.csv"),
                     "--chunk-rows", "100"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "column 'ts' holds text that is not a date" in err and "row [202]" in err


def test_ambiguous_dates_are_refused_by_name(tmp_path, capsys):
    path = write_csv(tmp_path / "d.csv", n=60)
    frame = pd.read_csv(path)
    frame["day"] = [f"{1 + i % 12:02d}/{1 + (i * 5) % 12:02d}/2026" for i in range(60)]
    frame.to_csv(path, index=False)
    status = cli.main(["evaluate", "--csv", str(path), "--target", "label",
                       "--cost", "5", "--model", "threshold", "--quiet"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and "column 'day' holds dates, but" in err
    assert "day first and month first" in err and "YYYY-MM-DD" in err
