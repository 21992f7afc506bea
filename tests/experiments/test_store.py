"""The results store: series saved exactly, one study per store, errors explained."""

from __future__ import annotations

import os
import sqlite3

import numpy as np
import pytest

from costsense.experiments import (
    ResultsStore,
    StoreConflictError,
    StoreFileError,
    report_study,
    run_study,
    study_from_dict,
)


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


def test_warning_texts_are_kept_whole_two_per_message(tmp_path):
    store = ResultsStore(tmp_path)
    store.initialise({"name": "s"}, "fingerprint")
    long = "stopped after 12 epochs " + "x" * 400
    texts = [long, "stopped after 30 epochs"]
    kind = ("W", "stopped after N epochs")
    store.add({**_cell("k0", []), "warnings": [(*kind, 2, texts)]})
    store.add({**_cell("k1", []), "warnings": [(*kind, 1, ["stopped after 7 epochs"])]})
    tally = ResultsStore(tmp_path).warnings()
    assert tally.examples[("ada", "W", "stopped after N epochs")] == texts
    (line,) = tally.lines(unit="cell")
    assert line == f"ada: 3 W in 2 cells: {long} (its numbers vary)"
    with sqlite3.connect(tmp_path / "results.sqlite") as db:  # an older layout
        db.execute("DROP TABLE warning_texts")
    (line,) = ResultsStore(tmp_path).warnings().lines(unit="cell")
    assert line == "ada: 3 W in 2 cells: stopped after N epochs"


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


def test_a_cell_is_written_only_into_a_store_of_its_own_study(tmp_path):
    mine = ResultsStore(tmp_path)
    mine.initialise({"name": "mine"}, "one")
    mine.add(_cell("k0", []))
    # another run takes the store over (its definition, its cells) meanwhile
    other = ResultsStore(tmp_path)
    other.initialise({"name": "other"}, "two", drop=["k0"])
    with pytest.raises(StoreConflictError, match=r"records study 'other'.*'mine'"):
        mine.add(_cell("k1", []))
    assert ResultsStore(tmp_path).done_keys() == set()  # nothing of it written
    other.add(_cell("k2", []))
    assert ResultsStore(tmp_path).done_keys() == {"k2"}
    # a store moved aside under a run: its replacement records no study
    assert other.move_aside() is not None
    with pytest.raises(StoreConflictError, match="no study"):
        other.add(_cell("k3", []))
    assert ResultsStore(tmp_path).done_keys() == set()
    with pytest.raises(ValueError, match="initialise"):
        ResultsStore(tmp_path).add(_cell("k4", []))


@pytest.mark.parametrize(
    "content",
    [b"", np.random.default_rng(0).bytes(4096)],
    ids=["empty", "random-bytes"],
)
def test_a_broken_store_names_its_file_and_restart(tmp_path, content):
    path = tmp_path / "results.sqlite"
    path.write_bytes(content)
    store = ResultsStore(tmp_path)
    calls = [
        store.recorded_study,
        store.done_keys,
        store.results,
        lambda: store.initialise({"name": "s"}, "one"),
    ]
    for call in calls:
        with pytest.raises(StoreFileError) as raised:
            call()
        text = str(raised.value)
        assert str(path) in text and "--restart" in text and "\n" not in text
    assert path.read_bytes() == content  # not taken for a new store
    moved = store.move_aside()
    assert moved is not None and (moved / "results.sqlite").read_bytes() == content
    store.initialise({"name": "s"}, "one")
    store.add(_cell("k0", []))
    assert store.done_keys() == {"k0"}


@pytest.mark.parametrize(
    ("message", "cause", "fix"),
    [
        ("database or disk is full", "the disk is full", "free disk space"),
        ("disk I/O error", "reading or writing the disk failed", "free disk space"),
        ("attempt to write a readonly database", "may not write", "permissions"),
    ],
)
def test_a_failing_write_names_the_file_the_cause_and_the_fix(
    tmp_path, monkeypatch, message, cause, fix
):
    store = ResultsStore(tmp_path)
    store.initialise({"name": "s"}, "one")
    store.add(_cell("k0", []))

    class Failing(sqlite3.Connection):
        def execute(self, sql, *args):
            if sql.lstrip().startswith("INSERT"):
                raise sqlite3.OperationalError(message)
            return super().execute(sql, *args)

    connect = sqlite3.connect
    monkeypatch.setattr(
        sqlite3, "connect", lambda *a, **k: connect(*a, factory=Failing, **k)
    )
    with pytest.raises(StoreFileError) as raised:
        store.add(_cell("k1", [(1, "train_error", 0.5)]))
    text = str(raised.value)
    assert str(store.path) in text and cause in text and fix in text
    assert message in text and "\n" not in text
    monkeypatch.undo()
    assert store.done_keys() == {"k0"} and store.series().empty  # rolled back


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="root writes whatever the permissions say",
)
def test_a_read_only_folder_names_the_file_and_the_fix(tmp_path):
    folder = tmp_path / "out"
    store = ResultsStore(folder)
    store.initialise({"name": "s"}, "one")
    store.add(_cell("k0", []))
    store.path.chmod(0o444)
    folder.chmod(0o555)
    try:
        with pytest.raises(StoreFileError) as raised:
            store.add(_cell("k1", []))
        with pytest.raises(StoreFileError) as unwritable:
            ResultsStore(folder / "new").initialise({"name": "s"}, "one")
    finally:
        folder.chmod(0o755)
        store.path.chmod(0o644)
    assert str(store.path) in str(raised.value)
    assert "permissions" in str(raised.value)
    assert "permissions" in str(unwritable.value)
    assert store.done_keys() == {"k0"}
