"""``--action-costs``: a true class x action table, from a file or per-row columns.

The reader is as strict as ``--cost-matrix``'s (each class once, numbers, named
actions); the models train on the label costs (each label its cheapest action);
``predict`` decides the actions from the model's probabilities.
"""

import numpy as np
import pandas as pd
import pytest

from costsense.cli import UsageError, build_parser, main
from costsense.cli._data import read_action_costs, read_data, resolve_costs

TABLE = "class,allow,review,block\n0,0,1,5\n1,20,4,0\n"


def _frame(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    amount = rng.uniform(10, 100, size=n).round(2)
    return pd.DataFrame(
        {
            "f1": rng.normal(size=n) + 2 * y,
            "f2": rng.normal(size=n),
            "label": y,
            "cost_0_allow": 0.0,
            "cost_0_block": 5.0,
            "cost_1_allow": amount,
            "cost_1_block": 0.0,
        }
    )


def _read(tmp_path, given, frame=None, command="fit"):
    frame = _frame() if frame is None else frame
    if given != "columns":
        frame = frame.drop(columns=[c for c in frame if c.startswith("cost_")])
    frame.to_csv(tmp_path / "d.csv", index=False)
    options = ["--out", str(tmp_path / "m.skops")] if command == "fit" else []
    args = build_parser().parse_args(
        [
            command,
            "--csv",
            str(tmp_path / "d.csv"),
            "--target",
            "label",
            "--action-costs",
            given,
            *options,
        ]
    )
    data = read_data(args)
    return data, read_action_costs(args, data), resolve_costs(args, data)


def test_a_file_gives_the_table_over_the_sorted_classes_and_its_label_costs(tmp_path):
    (tmp_path / "a.csv").write_text("class,allow,review,block\n1,20,4,0\n0,0,1,5\n")
    data, table, given = _read(tmp_path, str(tmp_path / "a.csv"), command="evaluate")
    assert table.actions == ("allow", "review", "block")
    np.testing.assert_array_equal(table.table, [[0, 1, 5], [20, 4, 0]])
    # label 0 stands for allow (cheapest when the truth is 0), label 1 for block
    np.testing.assert_array_equal(given.costs.matrix, [[0, 5], [20, 0]])
    assert given.kind == "actions" and given.actions.actions == table.actions
    assert given.describe.startswith("actions allow, review, block")


def test_columns_give_each_rows_table_and_are_never_features(tmp_path):
    frame = _frame()
    data, table, given = _read(tmp_path, "columns", frame)
    assert table.actions == ("allow", "block")
    assert table.table.shape == (len(frame), 2, 2)
    np.testing.assert_array_equal(table.table[:, 1, 0], frame["cost_1_allow"])
    np.testing.assert_array_equal(table.table[:, 0, 1], 5.0)
    assert list(data.kinds) == ["f1", "f2"]  # the cost columns are no features
    assert given.costs.example_dependent
    np.testing.assert_array_equal(given.costs.per_row, table.label_costs())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("class,allow,block\n0,0,5\n", "missing classes ['1']"),
        ("class,allow,block\n0,0,5\n1,20,0\n2,1,1\n", "unknown classes ['2']"),
        ("class,allow,block\n0,0,5\n1,x,0\n", "every cost must be a number"),
        ("class,allow,block\n0,0,5\n1,inf,0\n", "costs must be finite and >= 0"),
        ("class,allow,allow\n0,0,5\n1,20,0\n", "name each action once"),
        ("class,,block\n0,0,5\n1,20,0\n", "name every action in the header"),
    ],
)
def test_a_bad_table_file_is_one_line_naming_the_option(tmp_path, text, expected):
    (tmp_path / "a.csv").write_text(text)
    with pytest.raises(UsageError, match="--action-costs") as error:
        _read(tmp_path, str(tmp_path / "a.csv"))
    assert expected in str(error.value) and "\n" not in str(error.value)


def test_a_missing_class_action_column_is_named(tmp_path):
    frame = _frame().drop(columns=["cost_0_block"])
    with pytest.raises(UsageError, match=r"missing \['cost_0_block'\]"):
        _read(tmp_path, "columns", frame)


def test_a_column_of_no_class_is_named_with_the_fix(tmp_path):
    frame = _frame().assign(cost_7_allow=1.0)
    with pytest.raises(UsageError, match="'cost_7_allow' is not cost_<class>_<action>"):
        _read(tmp_path, "columns", frame)


def test_action_costs_with_another_cost_option_is_refused(tmp_path, capsys):
    _frame().to_csv(tmp_path / "d.csv", index=False)
    status = main(
        [
            "evaluate",
            "--csv",
            str(tmp_path / "d.csv"),
            "--target",
            "label",
            "--action-costs",
            "columns",
            "--cost",
            "5",
        ]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "--cost and --action-costs are two ways of giving the costs" in err


def test_a_best_action_shared_by_both_classes_is_refused_as_free_errors(tmp_path):
    (tmp_path / "a.csv").write_text("class,allow,block\n0,0,5\n1,3,4\n")
    with pytest.raises(UsageError, match="--action-costs .* as labels"):
        _read(tmp_path, str(tmp_path / "a.csv"))
