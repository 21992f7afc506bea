"""Checks before any fit: NaN kept for a model that rejects it; tables too big."""

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.cli import UsageError
from costsense.cli._preflight import WORKING_COPIES, encoded_width, refuse_oversized
from costsense.datasets import Table
from tests.cli._data import write_csv


def _evaluate(path, *extra):
    return cli.main(["evaluate", "--csv", str(path), "--target", "label", "--cost",
                     "5", "--folds", "2", "--quiet", *extra])  # fmt: skip


def test_missing_values_kept_for_a_model_that_rejects_them_fail_once(tmp_path, capsys):
    path = write_csv(tmp_path / "m.csv", n=200, missing=10)
    status = _evaluate(path, "--missing", "keep", "--model", "threshold,random-forest")
    err = capsys.readouterr().err
    assert status == 2
    assert "--missing keep: threshold cannot take missing values" in err
    assert "['f1']" in err and "random-forest" not in err.split("cannot")[0]
    assert "fits done" not in err  # refused before any fold ran
    assert _evaluate(path, "--missing", "keep", "--model", "random-forest") == 0


def _data(rows, categories):
    frame = pd.DataFrame({
        "x": np.arange(rows, dtype=float),
        "shop": [f"s{i % categories}" for i in range(rows)],
        "ts": ["2026-01-01 10:00"] * rows,
    })  # fmt: skip
    kinds = {"x": "numeric", "shop": "categorical", "ts": "date-time"}
    return Table(frame, np.zeros(rows), kinds)


def test_the_estimate_counts_encoded_columns_and_names_the_widest():
    data = _data(1_000, 300)
    assert encoded_width(data) == {"x": 1, "shop": 300, "ts": 4}
    need = 1_000 * 305 * 8 * WORKING_COPIES
    refuse_oversized(data, available=need)  # just enough
    with pytest.raises(UsageError) as caught:
        refuse_oversized(data, available=need - 1)
    assert "'shop' (300 columns)" in str(caught.value)
    assert "1,000 x 305 x 4 array" in str(caught.value)
    with pytest.raises(UsageError, match="1,000 x 305 x 8 array"):
        refuse_oversized(data, jobs=2, available=need)


def test_a_table_too_wide_for_memory_is_refused_before_fitting(tmp_path, capsys):
    rows = 30_000
    frame = pd.DataFrame({
        f"c{k}": [f"v{k}-{i}" for i in range(rows)] for k in range(3)
    })  # fmt: skip
    frame["label"] = np.arange(rows) % 2
    frame.to_csv(tmp_path / "wide.csv", index=False)
    # 30,000 rows x 90,000 indicator columns x 8 bytes: far beyond any machine
    status = _evaluate(tmp_path / "wide.csv", "--max-categories", "100000",
                       "--model", "threshold")  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and "the encoded table" in err and "would allocate" in err
    assert "'c0' (30000 columns)" in err and "--drop them" in err
