"""The results store: cells saved exactly, one study per folder, errors explained."""

from __future__ import annotations

import errno
import os

import pytest

from costsense.experiments import (
    ResultsStore,
    StoreConflictError,
    StoreFileError,
    report_study,
    run_study,
    study_from_dict,
)


def _cell(key: str, series: list[tuple[int, str, float]], **more: object) -> dict:
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
        "curves": [],
        "series": series,
        "diagnostics": {"constant": False},
        "warnings": [],
        **more,
    }


def test_cells_are_saved_exactly_and_joined_with_their_identifiers(tmp_path):
    store = ResultsStore(tmp_path)
    store.open({"name": "s"}, "fingerprint")
    third = 1 / 3  # no exact decimal form: read back bit for bit
    store.add(_cell("k1", [], metrics={"cost_total": float("nan"), "auc": third}))
    store.add(_cell("k0", [(2, "train_error", 0.1), (1, "normaliser_product", third)]))
    frame = store.series()
    assert list(frame.columns) == [
        "dataset", "cost", "algorithm", "repeat", "fold", "stage", "name", "value"
    ]  # fmt: skip
    assert frame[["fold", "stage", "name"]].values.tolist() == [
        [0, 1, "normaliser_product"],
        [0, 2, "train_error"],
    ]
    assert frame["value"].tolist() == [third, 0.1]
    results = ResultsStore(tmp_path).results()
    assert results["key"].tolist() == ["k0", "k1"]  # sorted by key
    assert results["auc"].iloc[1] == third and results["cost_total"].isna().iloc[1]
    assert results["diagnostics"].iloc[0] == {"constant": False}
    assert store.done_keys() == {"k0", "k1"} and store.curves().empty


def test_a_study_without_series_reports_without_them(tmp_path):
    study = study_from_dict(
        {
            "name": "tiny",
            "datasets": ["gaussian"],
            "gaussian_samples": 120,
            "costs": [5],
            "algorithms": [{"name": "t", "method": "threshold"}],
            "protocol": {"n_splits": 2},
        }
    )
    run_study(study, tmp_path)
    store = ResultsStore(tmp_path)
    assert store.series().empty and len(store.done_keys()) == 2
    text = report_study(tmp_path).markdown.read_text()
    assert "Paper 001" not in text and "bounds_" not in text


def test_warnings_are_saved_with_their_cell_and_tallied_per_algorithm(tmp_path):
    store = ResultsStore(tmp_path)
    store.open({"name": "s"}, "fingerprint")
    long = "stopped after 12 epochs " + "x" * 400
    texts = [long, "stopped after 30 epochs"]
    kind = ("W", "stopped after N epochs")
    store.add(_cell("k0", [], warnings=[(*kind, 2, texts)]))
    store.add(_cell("k1", [], warnings=[(*kind, 1, ["stopped after 7 epochs"])]))
    store.add(_cell("k2", [], algorithm="other"))  # no warnings
    tally = ResultsStore(tmp_path).warnings()
    (line,) = tally.lines(unit="cell")
    assert line == f"ada: 3 W in 2 cells: {long}"


def test_another_study_or_definition_is_refused_and_its_cells_kept(tmp_path):
    store = ResultsStore(tmp_path)
    store.open({"name": "s", "title": "one"}, "one")
    store.add(_cell("k0", []))
    store.open({"name": "s", "title": "two"}, "one")  # report fields may change
    assert store.study()["title"] == "two" and store.done_keys() == {"k0"}
    with pytest.raises(StoreConflictError, match=r"study 's', not 'other'.*--out"):
        store.open({"name": "other"}, "two")
    with pytest.raises(StoreConflictError, match="another definition.*--restart"):
        store.open({"name": "s"}, "two")
    assert ResultsStore(tmp_path).done_keys() == {"k0"}
    assert ResultsStore(tmp_path).study()["title"] == "two"


def test_moving_aside_keeps_every_file(tmp_path):
    store = ResultsStore(tmp_path)
    assert store.move_aside() is None  # nothing to move
    store.open({"name": "s"}, "one")
    store.add(_cell("k0", []))
    (tmp_path / "artifacts").mkdir()
    (tmp_path / "artifacts" / "grid.npz").write_bytes(b"x")
    (tmp_path / "report.md").write_text("mine")
    moved = store.move_aside()
    assert moved is not None and moved.parent == tmp_path
    names = sorted(p.name for p in moved.iterdir())
    assert names[0] == "artifacts" and names[1].startswith("cells-")
    assert names[2:] == ["study.json"] and ResultsStore(moved).done_keys() == {"k0"}
    assert not store.exists() and (tmp_path / "report.md").read_text() == "mine"
    store.open({"name": "other"}, "two")  # a fresh folder takes any study
    assert store.done_keys() == set()
    second = store.move_aside()
    assert second is not None and second != moved and moved.is_dir()


def test_a_damaged_file_names_itself_and_the_fix(tmp_path):
    store = ResultsStore(tmp_path)
    store.open({"name": "s"}, "one")
    store.add(_cell("k0", []))
    (cell,) = tmp_path.glob("cells-*/*.json")
    cell.write_text('{"key": "k0", "cut')  # damaged by hand
    with pytest.raises(StoreFileError) as raised:
        store.results()
    assert str(cell) in str(raised.value) and "delete it" in str(raised.value)
    cell.unlink()
    assert store.done_keys() == set()  # that cell runs again
    store.path.write_bytes(b"")
    for call in (store.done_keys, store.study, store.results):
        with pytest.raises(StoreFileError) as raised:
            call()
        text = str(raised.value)
        assert str(store.path) in text and "--restart" in text and "\n" not in text


@pytest.mark.parametrize(
    ("number", "cause", "fix"),
    [
        (errno.ENOSPC, "the disk is full", "free disk space"),
        (errno.EROFS, "read-only", "permissions"),
        (errno.EACCES, "may not write", "permissions"),
    ],
)
def test_a_failing_write_names_the_file_the_cause_and_the_fix(
    tmp_path, monkeypatch, number, cause, fix
):
    store = ResultsStore(tmp_path)
    store.open({"name": "s"}, "one")
    store.add(_cell("k0", []))

    def failing(*args, **kwargs):
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(StoreFileError) as raised:
        store.add(_cell("k1", []))
    text = str(raised.value)
    assert "k1.json" in text and cause in text and fix in text and "\n" not in text
    monkeypatch.undo()
    assert store.done_keys() == {"k0"}  # no partial file
    assert [p.name for p in tmp_path.glob("cells-*/*")] == ["k0.json"]


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="root writes whatever the permissions say",
)
def test_a_read_only_folder_names_the_file_and_the_fix(tmp_path):
    folder = tmp_path / "out"
    store = ResultsStore(folder)
    store.open({"name": "s"}, "one")
    folder.chmod(0o555)
    try:
        with pytest.raises(StoreFileError) as raised:
            store.add(_cell("k1", []))
    finally:
        folder.chmod(0o755)
    assert str(folder) in str(raised.value) and "permissions" in str(raised.value)
