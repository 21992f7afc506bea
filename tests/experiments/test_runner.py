"""The study runner and its store: resumable, identical however it runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from pandas.testing import assert_frame_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from costsense.datasets import list_keel
from costsense.experiments import (
    BASES,
    CATALOG,
    ModelSpec,
    ResultsStore,
    StoreConflictError,
    builtin_studies,
    load_study,
    make_model,
    plan,
    run_study,
    study_from_dict,
)
from costsense.experiments._runner import run_cells

# Columns that depend on the machine's speed or the clock, not on the computation.
VOLATILE = ["fit_time", "predict_time", "finished"]


def tiny(**overrides):
    data = {
        "name": "tiny",
        "seed": 3,
        "datasets": ["gaussian"],
        "gaussian_samples": 240,
        "costs": [5, [2, 1]],
        "algorithms": [
            {"name": "plain", "method": "plain"},
            {"name": "threshold", "method": "threshold"},
            {"name": "metacost", "method": "metacost", "base": "tree"},
        ],
        "protocol": {"kind": "kfold", "n_splits": 3, "n_repeats": 2},
        "reference": "threshold",
    }
    data.update(overrides)
    return study_from_dict(data)


def stable(folder):
    frame = ResultsStore(folder).results()
    return frame.drop(columns=VOLATILE).reset_index(drop=True)


def test_the_plan_has_one_cell_per_combination_and_unique_keys():
    study = tiny()
    cells = plan(study)
    assert len(cells) == study.n_cells == 1 * 2 * 3 * 2 * 3
    assert len({cell.key for cell in cells}) == len(cells)


def test_folds_partition_the_data_and_are_shared_by_all_algorithms(tmp_path):
    run_study(tiny(), tmp_path)
    results = ResultsStore(tmp_path).results()
    per_split = results.groupby(["dataset", "cost", "algorithm", "repeat"])["n_test"]
    assert (per_split.sum() == 240).all()  # the test folds cover every sample once
    sizes = results.pivot_table(
        index=["cost", "repeat", "fold"], columns="algorithm", values="n_test"
    )
    assert (sizes.nunique(axis=1) == 1).all()  # same test set for every algorithm


def test_an_interrupted_run_resumes_to_the_uninterrupted_results(tmp_path, monkeypatch):
    study = tiny()
    run_study(study, tmp_path / "whole")

    real_add = ResultsStore.add
    calls = {"n": 0}

    def add_then_interrupt(self, cell):
        real_add(self, cell)
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(ResultsStore, "add", add_then_interrupt)
    first = run_study(study, tmp_path / "resumed")
    assert first.interrupted and first.ran == 5
    assert len(ResultsStore(tmp_path / "resumed").done_keys()) == 5
    monkeypatch.setattr(ResultsStore, "add", real_add)
    second = run_study(study, tmp_path / "resumed")
    assert not second.interrupted
    assert (second.skipped, second.ran) == (5, study.n_cells - 5)
    assert_frame_equal(stable(tmp_path / "resumed"), stable(tmp_path / "whole"))
    third = run_study(study, tmp_path / "resumed")
    assert third.ran == 0  # nothing left to do


@pytest.fixture(scope="module")
def one_job(tmp_path_factory):
    """The tiny study run by one process: the reference of every other way."""
    folder = tmp_path_factory.mktemp("one")
    run_study(tiny(), folder, jobs=1)
    reference = stable(folder)
    assert len(reference) == tiny().n_cells
    return reference


def test_one_job_and_two_jobs_give_identical_results(one_job, tmp_path):
    run_study(tiny(), tmp_path / "two", jobs=2)
    assert_frame_equal(stable(tmp_path / "two"), one_job)


@pytest.mark.slow  # a two-process Dask cluster: make test-all
def _native_threads(_: int) -> dict[str, int]:
    import lightgbm  # noqa: F401 - loads its OpenMP runtime, as a cell would
    import sklearn.ensemble  # noqa: F401
    from threadpoolctl import threadpool_info

    return {"threads": max(p["num_threads"] for p in threadpool_info())}


def test_local_workers_share_the_cores_instead_of_each_taking_all(monkeypatch):
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(variable, raising=False)  # a user's own limit is kept
    # a worker's BLAS/OpenMP pools sized for the whole machine spin against the
    # other workers' (the fits slow down many times over)
    found: list[dict[str, int]] = []
    run_cells(_native_threads, [(i,) for i in range(4)], found.append, jobs=2)
    allowed = max(1, (os.cpu_count() or 1) // 2)
    assert len(found) == 4 and all(f["threads"] <= allowed for f in found)


def test_one_job_and_a_dask_cluster_give_identical_results(one_job, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        run_study(tiny(), tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert_frame_equal(stable(tmp_path / "dask"), one_job)


def small(**overrides):
    data = {
        "costs": [5],
        "algorithms": [
            {"name": "plain", "method": "plain"},
            {"name": "threshold", "method": "threshold"},
            {"name": "tree", "method": "plain", "base": "tree"},
        ],
        "protocol": {"kind": "kfold", "n_splits": 2, "n_repeats": 2},
        "reference": None,
    }
    data.update(overrides)
    return tiny(**data)


def finished(folder):
    frame = ResultsStore(folder).results()
    return dict(
        zip(
            frame["key"], frame["finished"] + frame["fit_time"].astype(str), strict=True
        )
    )


def test_report_changes_keep_the_cells_and_other_changes_are_refused(tmp_path):
    study = small()
    first = run_study(study, tmp_path / "run")
    assert (first.ran, first.skipped) == (12, 0)
    before = finished(tmp_path / "run")
    same = run_study(small(title="renamed", reference="plain"), tmp_path / "run")
    assert (same.ran, same.skipped) == (0, 12)  # report settings change nothing
    assert ResultsStore(tmp_path / "run").study()["title"] == "renamed"
    algorithms = small().to_dict()["algorithms"]
    algorithms[2]["params"] = {"max_depth": 2}  # the tree's definition changes
    changes = [small(algorithms=algorithms), small(seed=4),
               small(algorithms=algorithms[:2])]  # fmt: skip
    for changed in changes:
        with pytest.raises(StoreConflictError, match="another definition"):
            run_study(changed, tmp_path / "run")
    with pytest.raises(StoreConflictError, match="study 'tiny', not 'other'"):
        run_study(small(name="other"), tmp_path / "run")
    assert finished(tmp_path / "run") == before  # nothing run, moved or deleted


def test_restart_moves_the_store_aside_and_starts_afresh(tmp_path):
    run_study(small(), tmp_path)
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes")
    summary = run_study(small(), tmp_path, restart=True)
    assert (summary.ran, summary.skipped) == (12, 0)
    assert summary.moved_to is not None and summary.moved_to.parent == tmp_path
    assert summary.moved_to.name.startswith("previous-")
    assert mine.read_text() == "my notes"  # nothing of the user's moved or deleted
    old = ResultsStore(summary.moved_to)
    assert len(old.results()) == 12 and (summary.moved_to / "artifacts").is_dir()
    again = run_study(small(), tmp_path, restart=True)
    assert again.moved_to != summary.moved_to and again.moved_to.is_dir()
    # restarting an empty folder moves nothing
    assert run_study(small(), tmp_path / "new", restart=True).moved_to is None


def test_a_quick_run_is_refused_in_the_full_studys_folder(tmp_path):
    data = {k: v for k, v in small().to_dict().items() if k in (
        "name", "seed", "datasets", "gaussian_samples", "costs", "algorithms",
        "protocol")}  # fmt: skip
    data["quick"] = {"algorithms": data["algorithms"][:1]}
    run_study(study_from_dict(data), tmp_path)
    with pytest.raises(StoreConflictError, match="--quick version"):
        run_study(study_from_dict(data, quick=True), tmp_path)
    assert len(ResultsStore(tmp_path).results()) == 12


def test_the_store_records_version_parameters_and_seeds(tmp_path):
    from costsense import __version__

    run_study(tiny(), tmp_path)
    store = ResultsStore(tmp_path)
    rows = store.rows()
    assert all(row["version"] == __version__ for row in rows)
    assert len({row["seed"] for row in rows}) == len(rows)  # every cell its own
    assert any(row["params"]["method"] == "metacost" for row in rows)
    assert store.recorded()["version"] == __version__
    assert store.study()["seed"] == 3


def test_costs_in_the_store_match_the_rates_of_the_same_cells(tmp_path):
    run_study(tiny(), tmp_path)
    results = ResultsStore(tmp_path).results()
    for _, row in results.iterrows():
        c1, c2 = (5.0, 1.0) if row["cost"] == "5" else (2.0, 1.0)
        n_test = row["n_test"]
        n_pos = n_test / 2  # the Gaussian sample is balanced, folds stratified
        fn = (1 - row["recall"]) * n_pos
        fp = (1 - row["specificity"]) * (n_test - n_pos)
        assert row["cost_total"] == pytest.approx(c1 * fn + c2 * fp)
        assert row["mean_cost"] == pytest.approx(row["cost_total"] / n_test)


def test_holdout_with_inner_grid_search_records_the_choice(tmp_path):
    study = tiny(
        algorithms=[
            {
                "name": "tuned",
                "method": "threshold",
                "grid": {"calibration": ["sigmoid", "isotonic"]},
            }
        ],
        protocol={"kind": "holdout", "n_repeats": 3, "inner_splits": 3},
        reference=None,
        costs=[5],
    )
    run_study(study, tmp_path)
    results = ResultsStore(tmp_path).results()
    assert len(results) == 3
    assert (results["n_test"] == 80).all()  # a third of 240, stratified
    rows = ResultsStore(tmp_path).rows()
    assert all(set(row["params"]["chosen"]) == {"model__calibration"} for row in rows)


def test_staged_models_get_cost_curves_ending_at_their_test_cost(tmp_path, monkeypatch):
    def adaboost(base, cost, pos, seed):
        return AdaBoostClassifier(
            DecisionTreeClassifier(max_depth=1), n_estimators=7, random_state=seed
        )

    monkeypatch.setitem(
        CATALOG, "adaboost-test", ModelSpec("adaboost-test", "a test", build=adaboost)
    )
    study = tiny(
        algorithms=[{"name": "ada", "method": "adaboost-test"}],
        reference=None,
        protocol={"n_splits": 2},
    )
    run_study(study, tmp_path)
    store = ResultsStore(tmp_path)
    curves, results = store.curves(), store.results()
    assert set(curves["split"]) == {"train", "test"}
    assert (curves.groupby(["cost", "fold", "split"])["stage"].max() == 7).all()
    last = curves[(curves["stage"] == 7) & (curves["split"] == "test")]
    merged = last.merge(results, on=["dataset", "cost", "algorithm", "repeat", "fold"])
    assert np.allclose(merged["value"], merged["mean_cost"])


def test_study_files_are_validated_with_the_problem_named(tmp_path):
    with pytest.raises(ValueError, match="unknown method 'magic'"):
        tiny(algorithms=[{"name": "x", "method": "magic"}])
    with pytest.raises(ValueError, match="reference 'nope'"):
        tiny(reference="nope")
    with pytest.raises(ValueError, match="unknown keys"):
        tiny(colour="blue")
    with pytest.raises(ValueError, match="C1"):
        tiny(costs=[-5])
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "mine"\ndatasets = ["gaussian"]\ncosts = [3]\n'
        '[[algorithms]]\nname = "a"\nmethod = "plain"\n'
    )
    mine = load_study(path)
    assert (mine.name, mine.costs, mine.algorithms[0].method) == ("mine", (3,), "plain")
    with pytest.raises(ValueError, match="no study"):
        load_study(tmp_path / "missing.toml")


def test_the_builtin_rescaling_study_and_its_quick_version():
    assert "rescaling" in builtin_studies()
    full, quick = load_study("rescaling"), load_study("rescaling", quick=True)
    assert quick.n_cells < full.n_cells
    assert set(quick.datasets) <= set(full.datasets)
    assert {a.method for a in full.algorithms} == {
        "plain",
        "weighting",
        "rejection",
        "threshold",
        "threshold-calibrated",
        "metacost",
    }


@pytest.mark.parametrize("name", builtin_studies())
def test_every_builtin_study_names_what_exists(name):
    # a study file is data: check that everything it names can be built and found
    full, quick = load_study(name), load_study(name, quick=True)
    assert 0 < quick.n_cells < full.n_cells
    assert set(quick.datasets) <= set(full.datasets)
    known = set(list_keel()["name"]) | {"gaussian"}
    assert set(full.datasets) - set(full.derived) <= known
    # a derived set starts from a KEEL set
    assert {recipe["from"] for recipe in full.derived.values()} <= known
    names = {a.name for a in full.algorithms}
    for algorithm in full.algorithms:
        assert algorithm.base in BASES
        model = make_model(algorithm.method, base=algorithm.base, cost=5, pos_label=1)
        model.set_params(**{f"model__{k}": v for k, v in algorithm.params.items()})
    for row in full.paper.rows:
        assert row["algorithm"] in names and row["dataset"] in full.datasets
        assert row["metric"] in full.report.metrics
    for claim in full.paper.claims:
        named: set[str] = set()
        for key in ("algorithm", "algorithms", "among", "than", "baseline"):
            value = claim.get(key, [])
            named |= {value} if isinstance(value, str) else set(value)
        assert named <= names, named - names
    assert full.report.reference in names


def test_dataset_costs_replace_the_costs_of_one_dataset():
    study = tiny(
        datasets=["gaussian", "haberman"],
        costs=[5],
        dataset_costs={"gaussian": [2, 8]},
        protocol={"n_splits": 2},
    )
    cells = plan(study)
    assert {cell.cost for cell in cells if cell.dataset == "haberman"} == {5}
    assert {cell.cost for cell in cells if cell.dataset == "gaussian"} == {2, 8}
    assert len(cells) == study.n_cells == (1 + 2) * 3 * 1 * 2  # 1 repeat, 2 folds
    with pytest.raises(ValueError, match="not in datasets"):
        tiny(dataset_costs={"pima": [3]})
    # not a table, or a dataset's costs not a list: refused by name, not a crash
    with pytest.raises(ValueError, match=r"dataset_costs must be a table of \["):
        tiny(dataset_costs=["gaussian"])
    with pytest.raises(ValueError, match=r"dataset_costs.gaussian must be a list"):
        tiny(dataset_costs={"gaussian": 5})


def test_cells_record_their_fits_and_the_report_shows_degenerate_ones(tmp_path):
    from costsense.experiments import report_study

    # AdaCost keeps no round on this problem (its first alpha is <= 0), so it
    # predicts one class; AsyB boosts on
    study = tiny(
        costs=[20],
        algorithms=[
            {
                "name": "AdaCost",
                "method": "adacost",
                "base": "stump",
                "params": {"n_estimators": 5},
            },
            {
                "name": "AsyB",
                "method": "asyb",
                "base": "stump",
                "params": {"n_estimators": 5, "early_stopping": False},
            },
        ],  # fmt: skip
        reference="AsyB",
        protocol={"kind": "kfold", "n_splits": 2, "n_repeats": 1},
    )
    run_study(study, tmp_path)
    results = ResultsStore(tmp_path).results()
    for _, cell in results.iterrows():
        found = cell["diagnostics"]
        assert found["rounds_planned"] == 5 and "constant" in found
    text = report_study(tmp_path).markdown.read_text()
    assert "## How the fits ended" in text and "### Degenerate fits" in text
    constant = results[results["diagnostics"].map(lambda d: d["constant"])]
    for algorithm in constant["algorithm"].unique():
        assert f"| {algorithm} | gaussian | 20 |" in text
    assert "Partial results" not in text


def test_a_quick_or_unfinished_report_says_so_at_the_top(tmp_path):
    from costsense.experiments import report_study, run_cell
    from costsense.experiments._datasets import dataset_spec

    margin = load_study("margin", quick=True)
    assert margin.quick and not load_study("margin").quick
    # the claims speak about the full study's rows, not the quick ones
    quick_rows = {(d, str(c)) for d in margin.datasets for c in margin.costs_for(d)}
    assert len(quick_rows) < len(margin.paper.claim_rows) == 15 * 3
    data = tiny().to_dict()
    data = {k: data[k] for k in ("name", "seed", "datasets", "gaussian_samples",
                                 "costs", "algorithms", "protocol")}  # fmt: skip
    full = study_from_dict({**data, "quick": {"costs": [5]}})
    small = study_from_dict({**data, "quick": {"costs": [5]}}, quick=True)
    for study, folder in ((full, tmp_path / "full"), (small, tmp_path / "quick")):
        store = ResultsStore(folder)
        store.open(study.to_dict(), study.fingerprint())
        for cell in plan(study)[:2]:
            store.add(run_cell(study, cell, dataset_spec(study, cell.dataset)))
        head = report_study(folder).markdown.read_text().split("\n## ")[0]
        assert f"2 of {study.n_cells} cells" in head and "unfinished" in head
        assert ("--quick version" in head) == study.quick


def test_round_series_are_the_running_product_and_bound_by_hand():
    from types import SimpleNamespace

    from costsense.experiments._recorders import round_series

    def recorded(final, predictions, y):
        fit = SimpleNamespace(final=final, y=y, train=np.arange(len(y)),
                              staged=lambda split: predictions)  # fmt: skip
        row: dict = {"series": []}
        round_series(fit, row)
        return row["series"]

    booster = SimpleNamespace(
        estimator_normalisers_=np.array([0.5, 0.8]),
        estimator_edges_=np.array([0.3, 0.1]),
    )
    y = np.array(["a", "b", "b", "a"])
    predictions = [np.array(["a", "a", "b", "b"]), np.array(["a", "b", "b", "b"])]
    series = {(stage, name): value for stage, name, value in recorded(
        booster, predictions, y)}  # fmt: skip
    assert series == pytest.approx(
        {
            (1, "train_error"): 0.5,
            (2, "train_error"): 0.25,
            (1, "normaliser_product"): 0.5,
            (2, "normaliser_product"): 0.4,
            (1, "edge_bound"): np.exp(-0.18),
            (2, "edge_bound"): np.exp(-0.2),
        },
        rel=1e-15,
    )
    # a model without normalisers (or without a kept round) has none
    assert recorded(SimpleNamespace(), predictions, y) == []
    empty = SimpleNamespace(estimator_normalisers_=[], estimator_edges_=[])
    assert recorded(empty, [], y) == []


def test_boosters_save_paper_001s_series_and_the_report_checks_adaboosts(tmp_path):
    from costsense.experiments import report_study

    study = tiny(
        costs=[5],
        algorithms=[
            {"name": "ada", "method": "adaboost", "base": "stump",
             "params": {"n_estimators": 6}},
            {"name": "ada-shrunk", "method": "adaboost", "base": "stump",
             "params": {"n_estimators": 6, "learning_rate": 0.5}},
            {"name": "adac2", "method": "adac2", "base": "stump",
             "params": {"n_estimators": 6}},
            {"name": "plain", "method": "plain"},
        ],
        reference=None,
        protocol={"n_splits": 2},
        # the built-in study's section on the theorems, declared for "ada" only
        sections=[{**load_study("boosting").report.sections[0], "algorithms": ["ada"]}],
    )  # fmt: skip
    run_study(study, tmp_path)
    store = ResultsStore(tmp_path)
    series, results = store.series(), store.results()
    assert set(series["algorithm"]) == {"ada", "ada-shrunk", "adac2"}
    assert set(series["name"]) == {"train_error", "normaliser_product", "edge_bound"}
    rounds = {
        (r.algorithm, r.repeat, r.fold): r.diagnostics["rounds"]
        for r in results.itertuples()
        if r.algorithm != "plain"
    }
    per_fit = series.groupby(["algorithm", "repeat", "fold", "name"])["stage"]
    for (alg, repeat, fold, _), stages in per_fit:
        assert list(stages) == list(range(1, rounds[alg, repeat, fold] + 1))
    wide = series[series["algorithm"] == "ada"].pivot_table(
        index=["repeat", "fold", "stage"], columns="name", values="value"
    )
    assert (wide["train_error"] <= wide["normaliser_product"]).all()
    assert (wide["normaliser_product"] <= wide["edge_bound"]).all()
    text = report_study(tmp_path).markdown.read_text()
    # the theorems are checked on AdaBoost at learning rate 1 only
    assert "saved for ada (" in text
    assert f"held at every round of every fit: {len(wide)} rounds of 2 fits" in text
    assert "(figures/bounds_gaussian.png)" in text


class _WarnsThrice(ClassifierMixin, BaseEstimator):
    """A logistic regression whose fit warns three times, numbers changing."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        for epochs in (10, 20, 30):
            warnings.warn(
                f"_WarnsThrice did not converge in {epochs} epochs",
                ConvergenceWarning,
                stacklevel=1,
            )
        self.model_ = LogisticRegression().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


def test_warnings_are_collected_per_algorithm_stored_and_reported(
    tmp_path, monkeypatch, capfd
):
    from costsense.experiments import report_study

    monkeypatch.setitem(
        CATALOG,
        "warns",
        ModelSpec(
            "warns", "a test", build=lambda base, cost, pos, seed: _WarnsThrice()
        ),
    )
    study = small(
        algorithms=[
            {"name": "noisy", "method": "warns"},
            {"name": "quiet", "method": "plain"},
        ]
    )
    summary = run_study(study, tmp_path)
    assert summary.ran == 8  # 4 cells of each algorithm
    # the message as first raised (its numbers, whole)
    expected = (
        "noisy: 12 ConvergenceWarning in 4 cells: _WarnsThrice did not converge in "
        "10 epochs"
    )
    assert summary.warnings == (expected,)
    assert "ConvergenceWarning" not in capfd.readouterr().err  # nothing printed
    # read back from the store: the same tally, and again on a resumed run
    assert ResultsStore(tmp_path).warnings().lines(unit="cell") == [expected]
    assert run_study(study, tmp_path).warnings == (expected,)
    text = report_study(tmp_path).markdown.read_text()
    section = text.split("## Warnings\n")[1].split("\n## ")[0]
    assert expected in section
    # a restart moves the cells aside with their warnings
    fewer = small(algorithms=[{"name": "quiet", "method": "plain"}])
    assert run_study(fewer, tmp_path, restart=True).warnings == ()
    assert "## Warnings" not in report_study(tmp_path).markdown.read_text()


def test_worker_processes_print_no_warning_and_return_them(tmp_path):
    # the CS-LDM solver stops at max_iter = 1 with a ConvergenceWarning in each
    # of the 4 cells, run by two fresh worker processes (a new interpreter, so
    # that their stderr is the one captured here)
    study = small(
        algorithms=[{"name": "csldm", "method": "csldm", "params": {"max_iter": 1}}]
    )
    script = (
        "import json, sys\n"
        "from costsense.experiments import run_study, study_from_dict\n"
        "study = study_from_dict(json.loads(sys.argv[1]))\n"
        "summary = run_study(study, sys.argv[2], jobs=2)\n"
        "print(json.dumps([summary.ran, list(summary.warnings)]))\n"
    )
    data = {k: v for k, v in study.to_dict().items() if k in (
        "name", "seed", "datasets", "gaussian_samples", "costs", "algorithms",
        "protocol")}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(data), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Warning" not in done.stderr, done.stderr
    ran, lines = json.loads(done.stdout)
    assert ran == 4
    (line,) = [w for w in lines if "ConvergenceWarning" in w]
    assert line.startswith("csldm: ") and " ConvergenceWarning in 4 cells: " in line
    assert "raise max_iter" in line
