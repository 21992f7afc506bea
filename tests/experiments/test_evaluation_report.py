"""The money page's pieces: the iso-cost slope, the baseline of many classes."""

import numpy as np
import pandas as pd

from costsense import cli
from costsense.experiments._report._evaluation import iso_cost_slope, load_evaluation


def test_the_iso_cost_slope_is_the_hand_computed_one():
    meta = {"classes": [0, 1], "pos_label": 1}
    table = np.array([[0.0, 1.0], [5.0, 0.0]])  # an alarm 1, a miss 5
    y = np.array([0, 0, 0, 1])
    assert iso_cost_slope(meta, table, y) == 0.75 * 1 / (0.25 * 5)
    handled = np.array([[0.0, 2.0], [7.0, 2.0]])  # net: alarm 2, miss 5
    assert iso_cost_slope(meta, handled, y) == 0.75 * 2 / (0.25 * 5)


def test_many_classes_are_measured_against_the_cheapest_single_label(tmp_path):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(240, 2))
    y = np.where(x[:, 0] > 0.8, "c", np.where(x[:, 1] > 0.5, "b", "a"))
    pd.DataFrame({"x1": x[:, 0], "x2": x[:, 1], "y": y}).to_csv(
        tmp_path / "m.csv", index=False
    )
    (tmp_path / "c.csv").write_text(",a,b,c\na,0,1,2\nb,3,0,1\nc,5,2,0\n")
    out = tmp_path / "page"
    argv = ["evaluate", "--csv", str(tmp_path / "m.csv"), "--target", "y"]
    argv += ["--cost-matrix", str(tmp_path / "c.csv"), "--model", "plain"]
    argv += ["--folds", "3", "--quiet", "--report", str(out)]
    assert cli.main(argv) == 0
    meta, arrays = load_evaluation(out)
    matrix = np.array([[0, 1, 2], [3, 0, 1], [5, 2, 0]], float)
    truth = np.searchsorted(["a", "b", "c"], y)
    totals = matrix[truth].sum(axis=0)  # every row given each label
    cheapest = "abc"[int(np.argmin(totals))]
    md = (out / "report.md").read_text()
    assert f"the total cost of deciding {cheapest} for every row" in md
    assert f"| {cheapest} for every row | 240 | {totals.min():,.2f} | 0.00 |" in md
