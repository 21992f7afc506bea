"""The results store's per-round series: saved exactly, absent from older stores."""

from __future__ import annotations

import sqlite3

import pytest

from costsense.experiments import ResultsStore, report_study, run_study, study_from_dict


def _cell(key: str, series: list[tuple[int, str, float]]) -> dict:
    return {
        "key": key,
        "dataset": "d",
        "cost": "5",
        "algorithm": "ada",
        "repeat": 0,
        "fold": int(key[-1]),
        "seed": 1,
        "params": {},
        "n_train": 10,
        "n_test": 5,
        "fit_time": 0.0,
        "predict_time": 0.0,
        "metrics": {"cost_total": 1.0},
        "series": series,
    }


def test_series_are_saved_exactly_and_joined_with_their_cells(tmp_path):
    store = ResultsStore(tmp_path)
    store.initialise({"name": "s"}, "fingerprint")
    third = 1 / 3  # no exact decimal form: read back bit for bit
    store.add(_cell("k0", [(1, "normaliser_product", third), (2, "train_error", 0.1)]))
    store.add(_cell("k1", []))
    frame = store.series()
    assert list(frame.columns) == [
        "dataset", "cost", "algorithm", "repeat", "fold", "stage", "name", "value"
    ]  # fmt: skip
    assert frame[["fold", "stage", "name"]].values.tolist() == [
        [0, 1, "normaliser_product"],
        [0, 2, "train_error"],
    ]
    assert frame["value"].tolist() == [third, 0.1]
    # a second save of a finished cell changes nothing
    store.add(_cell("k0", [(1, "normaliser_product", 0.5)]))
    assert store.series()["value"].tolist() == [third, 0.1]


def test_a_store_written_before_series_opens_and_reports_without_them(tmp_path):
    study = study_from_dict(
        {
            "name": "old",
            "seed": 0,
            "datasets": ["gaussian"],
            "gaussian_samples": 120,
            "costs": [5],
            "algorithms": [
                {
                    "name": "ada",
                    "method": "adaboost",
                    "base": "stump",
                    "params": {"n_estimators": 3},
                }
            ],
            "protocol": {"kind": "kfold", "n_splits": 2, "n_repeats": 1},
        }
    )
    run_study(study, tmp_path)
    assert not ResultsStore(tmp_path).series().empty
    with sqlite3.connect(tmp_path / "results.sqlite") as db:  # an older layout
        db.execute("DROP TABLE series")
    store = ResultsStore(tmp_path)
    assert len(store.results()) == 2 and store.series().empty
    text = report_study(tmp_path).markdown.read_text()
    assert "Paper 001" not in text and "bounds_" not in text


def test_warnings_are_saved_with_their_cell_and_tallied_per_algorithm(tmp_path):
    store = ResultsStore(tmp_path)
    store.initialise({"name": "s"}, "fingerprint")
    warned = [("ConvergenceWarning", "stopped after N epochs", 3)]
    store.add({**_cell("k0", []), "warnings": warned})
    store.add({**_cell("k1", []), "warnings": warned})
    store.add({**_cell("k2", []), "algorithm": "other"})  # no warnings
    (row,) = ResultsStore(tmp_path).warnings().to_rows()
    assert row == {
        "algorithm": "ada",
        "category": "ConvergenceWarning",
        "message": "stopped after N epochs",
        "count": 6,
        "fits": 2,
        "kind_fits": 2,
    }


def test_a_store_written_before_warnings_opens_with_none(tmp_path):
    store = ResultsStore(tmp_path)
    store.initialise({"name": "s"}, "fingerprint")
    store.add({**_cell("k0", []), "warnings": [("UserWarning", "w", 1)]})
    with sqlite3.connect(tmp_path / "results.sqlite") as db:  # an older layout
        db.execute("DROP TABLE warnings")
    reopened = ResultsStore(tmp_path)
    assert not reopened.warnings() and reopened.warnings().lines() == []
    assert reopened.done_keys() == {"k0"}


def test_dropping_cells_takes_their_rows_and_records_the_new_definition(tmp_path):
    store = ResultsStore(tmp_path)
    store.initialise({"name": "s"}, "one")
    for key in ("k0", "k1"):
        store.add(
            {**_cell(key, [(1, "train_error", 0.5)]), "warnings": [("W", "m", 1)]}
        )
    with pytest.raises(ValueError, match="different study definition"):
        store.initialise({"name": "s2"}, "two")
    store.initialise({"name": "s2"}, "two", drop=["k1"])
    assert store.done_keys() == {"k0"} and store.study() == {"name": "s2"}
    assert set(store.series()["fold"]) == {0}
    assert store.warnings().to_rows()[0]["fits"] == 1
    with sqlite3.connect(tmp_path / "results.sqlite") as db:
        query = "SELECT value FROM meta WHERE key = 'fingerprint'"
        assert db.execute(query).fetchone() == ("two",)


def test_moving_aside_keeps_every_file(tmp_path):
    store = ResultsStore(tmp_path)
    assert store.move_aside() is None  # nothing to move
    store.initialise({"name": "s"}, "one")
    store.add(_cell("k0", []))
    (tmp_path / "artifacts").mkdir()
    (tmp_path / "artifacts" / "grid.npz").write_bytes(b"x")
    (tmp_path / "report.md").write_text("mine")
    moved = store.move_aside()
    assert moved is not None and moved.parent == tmp_path
    assert sorted(p.name for p in moved.iterdir()) == ["artifacts", "results.sqlite"]
    assert ResultsStore(moved).done_keys() == {"k0"}
    assert not store.exists() and (tmp_path / "report.md").read_text() == "mine"
    store.initialise({"name": "s"}, "one")
    second = store.move_aside()
    assert second is not None and second != moved and moved.is_dir()
