import csv
import warnings

import numpy as np
import pandas as pd
import pytest

from costsense import cli
from costsense.experiments import (
    BASE_NAMES,
    CATALOG,
    _cell,
    _evaluate,
    check_pair,
    make_model,
)
from tests._covering import covering, params
from tests.cli._data import write_csv


def _evaluate_csv(path, *extra):
    return ["evaluate", "--csv", str(path), "--target", "label", *extra]


def _table(printed, models):
    """The summary table's line of each model, then its notes' line below the table."""
    found: dict[str, str] = {}
    lines = printed.splitlines()
    for i, line in enumerate(lines):
        if line.split() and line.split()[0] in models:
            found.setdefault(line.split()[0], line)
        name = line.split(": ", 1)[0]
        if name in found and line.startswith(f"{name}: "):  # wrapped: indented
            found[name] += "  " + line[len(name) + 2 :]
            j = i + 1
            while j < len(lines) and lines[j].startswith("  "):
                found[name] += " " + lines[j].strip()
                j += 1
    return found


def test_evaluate_csv_prints_one_row_per_model_and_saves_every_fold(tmp_path, capsys):
    data = write_csv(tmp_path / "data.csv")
    out = tmp_path / "folds.csv"
    status = cli.main(
        _evaluate_csv(data, "--cost", "5", "--model", "plain,threshold", "--folds",
                      "3", "--output", str(out), "--quiet")
    )  # fmt: skip
    assert status == 0
    printed = capsys.readouterr().out
    assert len(_table(printed, ("plain", "threshold"))) == 2
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert sorted((r["model"], r["fold"]) for r in rows) == sorted(
        (m, str(f)) for m in ("plain", "threshold") for f in range(3)
    )
    assert "positive class 1" in printed  # the minority label


def test_evaluate_never_overwrites_a_file(tmp_path, capsys):
    data = write_csv(tmp_path / "data.csv")
    before = data.read_bytes()
    existing = tmp_path / "taken.csv"
    existing.write_text("keep me")
    base = _evaluate_csv(data, "--cost", "5")
    assert cli.main([*base, "--output", str(existing)]) == 2
    assert "exists" in capsys.readouterr().err
    assert cli.main([*base, "--output", str(data)]) == 2
    assert "input" in capsys.readouterr().err
    assert existing.read_text() == "keep me"
    assert data.read_bytes() == before


def test_interrupted_evaluation_keeps_finished_folds(tmp_path, monkeypatch, capsys):
    data = write_csv(tmp_path / "data.csv")
    out = tmp_path / "folds.csv"
    real = _cell.fold_metrics
    calls = {"n": 0}

    def interrupt_on_third_fold(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(_cell, "fold_metrics", interrupt_on_third_fold)
    status = cli.main(
        _evaluate_csv(data, "--cost", "5", "--model", "plain", "--folds", "5",
                      "--output", str(out), "--quiet")
    )  # fmt: skip
    assert status == 130
    with out.open() as handle:
        assert len(list(csv.DictReader(handle))) == 2
    captured = capsys.readouterr()
    assert "interrupted" in captured.err
    assert "2 of 5 fits" in captured.err


def test_usage_errors_name_the_option(tmp_path, capsys):
    data = write_csv(tmp_path / "data.csv")
    assert cli.main(["evaluate", "--csv", str(data), "--cost", "5"]) == 2
    assert "--target" in capsys.readouterr().err
    assert cli.main(_evaluate_csv(data, "--cost", "5", "--pos-label", "7")) == 2
    assert "--pos-label '7'" in capsys.readouterr().err
    status = cli.main(
        ["evaluate", "--csv", str(data), "--target", "nope", "--cost", "5"]
    )
    assert status == 2
    assert "'nope' is not a column" in capsys.readouterr().err


def test_target_with_a_keel_set_is_refused(capsys):
    status = cli.main(
        ["evaluate", "--dataset", "pima", "--target", "class", "--cost", "5"]
    )
    assert status == 2
    assert "--target is for --csv" in capsys.readouterr().err


def test_a_numeric_target_of_many_values_is_refused_before_the_header(tmp_path, capsys):
    rng = np.random.default_rng(0)
    path = tmp_path / "amounts.csv"
    path.write_text(
        "f,amount\n" + "".join(f"{a},{a * 3.1:.6f}\n" for a in rng.random(300))
    )
    assert cli.main(["evaluate", "--csv", str(path), "--target", "amount",
                     "--cost", "5"]) == 2  # fmt: skip
    captured = capsys.readouterr()
    assert "holds 300 distinct numbers" in captured.err
    assert captured.out == ""  # no header listing 300 classes


def test_too_few_positives_for_the_folds_says_so(tmp_path, capsys):
    path = tmp_path / "few.csv"
    rows = [f"{i},ok\n" for i in range(40)] + ["1,fraud\n", "2,fraud\n"]
    path.write_text("f,label\n" + "".join(rows))
    assert cli.main(_evaluate_csv(path, "--cost", "5")) == 2
    err = capsys.readouterr().err
    assert "class fraud has 2 rows" in err and "--folds 2" in err


@pytest.mark.parametrize("folds", ["1", "0"])
def test_fewer_than_two_folds_is_a_usage_error_naming_the_option(
    tmp_path, capsys, folds
):
    data = write_csv(tmp_path / "data.csv")
    assert cli.main(_evaluate_csv(data, "--cost", "5", "--folds", folds)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(
        f"--folds {folds}: cross-validation needs 2 folds or more; use --folds 5"
    )


def test_missing_values_policies(tmp_path, capsys):
    data = write_csv(tmp_path / "data.csv", missing=7)
    assert cli.main(_evaluate_csv(data, "--cost", "5", "--quiet")) == 2
    err = capsys.readouterr().err
    assert "7 rows have missing values" in err and "--missing drop" in err
    assert cli.main(
        _evaluate_csv(data, "--cost", "5", "--quiet", "--missing", "drop",
                      "--model", "threshold")
    ) == 0  # fmt: skip
    assert "143 samples (7 rows with missing values dropped)" in capsys.readouterr().out
    assert cli.main(
        _evaluate_csv(data, "--cost", "5", "--quiet", "--missing", "impute",
                      "--model", "threshold")
    ) == 0  # fmt: skip
    assert "150 samples," in capsys.readouterr().out


def test_a_failing_model_gets_its_own_row_and_the_others_run(
    tmp_path, capsys, monkeypatch
):
    from sklearn.linear_model import LogisticRegression

    def planted(self, X, y, sample_weight=None):
        raise ValueError("planted failure of the logistic regression " + "x" * 300)

    # the logistic regression under "plain" fails in every fold; the forest runs
    monkeypatch.setattr(LogisticRegression, "fit", planted)
    data = write_csv(tmp_path / "data.csv")
    status = cli.main(
        _evaluate_csv(data, "--cost", "5", "--quiet", "--model",
                      "plain,random-forest", "--folds", "3")
    )  # fmt: skip
    captured = capsys.readouterr()
    rows = _table(captured.out, ("plain", "random-forest"))
    assert "FAILED in 3 fold(s): ValueError: planted failure" in rows["plain"]
    # one line, its notes cut to 160 characters of the error after their prefix
    failed = rows["plain"][rows["plain"].index("FAILED in") :].strip()
    assert "\n" not in rows["plain"]
    assert len(failed) <= len("FAILED in 3 fold(s): ") + 160
    assert failed.endswith("...")
    assert "0/3" in rows["plain"]
    assert "3/3" in rows["random-forest"]
    assert "FAILED" not in rows["random-forest"]
    assert status == 1  # something failed while running


def test_best_mark_only_when_models_are_compared(tmp_path, capsys):
    data = write_csv(tmp_path / "data.csv")
    cli.main(_evaluate_csv(data, "--cost", "5", "--quiet", "--model", "threshold"))
    captured = capsys.readouterr()
    assert "*" not in captured.out
    assert captured.out.endswith("\n") and captured.err.endswith("\n")
    cli.main(
        _evaluate_csv(data, "--cost", "5", "--quiet", "--model", "threshold,plain")
    )
    assert "*" in capsys.readouterr().out


def test_constant_models_are_marked(tmp_path, capsys):
    # a feature of pure noise and a cost so large that calling every row positive
    # is the cheapest decision the logistic regression's probabilities allow
    rng = np.random.default_rng(1)
    data = tmp_path / "noise.csv"
    data.write_text(
        "f,label\n"
        + "".join(f"{v},{int(i < 30)}\n" for i, v in enumerate(rng.normal(size=120)))
    )
    cli.main(
        _evaluate_csv(data, "--cost", "1000", "--quiet", "--folds", "3", "--model",
                      "threshold,plain")
    )  # fmt: skip
    rows = _table(capsys.readouterr().out, ("threshold", "plain"))
    assert "CONSTANT: predicts one class in 3 fold(s)" in rows["threshold"]
    assert "CONSTANT: predicts one class in 3 fold(s)" in rows["plain"]  # majority
    signal = write_csv(tmp_path / "signal.csv")
    cli.main(_evaluate_csv(signal, "--cost", "5", "--quiet", "--folds", "3",
                           "--model", "threshold,plain"))  # fmt: skip
    assert "CONSTANT" not in capsys.readouterr().out


def test_ignored_options_are_said_per_model(capsys):
    status = cli.main(
        ["evaluate", "--dataset", "pima", "--cost", "5", "--quiet", "--folds", "2",
         "--model", "threshold,svm,random-forest", "--base", "tree"]
    )  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "base learner tree" in out.splitlines()[0]
    rows = _table(out, ("threshold", "svm", "random-forest"))
    assert "ignores --base" in rows["svm"] and "ignores --base" in rows["random-forest"]
    assert "ignores --base" not in rows["threshold"]
    assert "cost-blind" in rows["svm"] and "cost-blind" not in rows["threshold"]
    assert all(len(line) <= 100 for line in out.splitlines()[2:])


def test_warnings_are_summarised_once_per_model_and_kind(capsys):
    status = cli.main(
        ["evaluate", "--dataset", "pima", "--cost", "5", "--folds", "3",
         "--model", "csldm", "--seed", "0"]
    )  # fmt: skip
    assert status == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "ConvergenceWarning" in line]
    assert len(lines) <= 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing escapes the tally
        cli.main(["evaluate", "--dataset", "pima", "--cost", "5", "--folds", "2",
                  "--model", "csldm", "--quiet"])  # fmt: skip
    assert "warnings" not in capsys.readouterr().err  # --quiet is quiet


@pytest.fixture
def fits(monkeypatch):
    """The models evaluate fits, recorded in place of fitting them.

    Each stand-in fit raises, which evaluate turns into the fold's error row.
    """
    fitted: list[str] = []

    def no_fit(model, *args, **kwargs):
        fitted.append(type(model).__name__)
        raise AssertionError("a model was fitted")

    monkeypatch.setattr(_cell, "fit_and_score", no_fit)
    return fitted


def _small_binary():
    return np.random.RandomState(0).normal(size=(30, 2)), np.arange(30) % 2


def test_the_no_fit_guard_sees_every_fit(fits):
    # the guard below stands for "no fit ran" only if it is where evaluate fits
    rows = _evaluate.evaluate(*_small_binary(), ["plain"], cost=5, n_splits=3)
    assert len(fits) == 3
    assert all("a model was fitted" in row["error"] for row in rows)


def test_an_invalid_model_and_base_pair_is_refused_before_any_fit(capsys, fits):
    status = cli.main(["evaluate", "--dataset", "pima", "--cost", "5", "--model",
                       "threshold,asybl", "--base", "perceptron"])  # fmt: skip
    assert status == 2
    err = capsys.readouterr().err
    assert "'threshold' does not run on base 'perceptron'" in err
    assert (
        "'asybl' does not run on base 'perceptron'; its bases are regression-tree"
        in err
    )
    assert fits == []


def test_a_model_named_twice_is_refused_before_any_fit(capsys, fits):
    status = cli.main(["evaluate", "--dataset", "bupa", "--cost", "5", "--model",
                       "plain,threshold,plain", "--folds", "3"])  # fmt: skip
    assert status == 2
    err = capsys.readouterr().err
    assert "--model: ['plain'] named more than once" in err and err.count("\n") == 1
    with pytest.raises(ValueError, match=r"\['plain'\] named more than once"):
        _evaluate.evaluate(*_small_binary(), ["plain", "plain"], cost=5, n_splits=3)
    assert fits == []


def _shrunk(pipeline):
    """The same model with at most 3 members or rounds per ensemble (a fast fit)."""
    sizes = {
        name: 3
        for name, value in pipeline.get_params().items()
        if name.endswith(("n_estimators", "estimator__max_iter"))
        and isinstance(value, int)
    }
    return pipeline.set_params(**sizes)


def _pairs():
    """(model, base, fits) for every model and base; a model that uses no base once."""
    for model in sorted(CATALOG):
        for base in BASE_NAMES:
            fits = check_pair(model, base) is None
            if fits and not CATALOG[model].uses_base and base != BASE_NAMES[0]:
                continue  # the base is not used: one fit says it all
            yield model, base, fits


PAIRS = list(_pairs())
# make test: each model fitted once and refused once (where it refuses a base),
# every base at least once
FAST_PAIRS = [
    (model, base, fits)
    for (model, fits), base in covering([((m, f), b) for m, b, f in PAIRS])
]


def test_the_fast_pairs_hold_every_model_outcome_and_every_base():
    def held(pairs):
        return {(m, f) for m, _, f in pairs} | {b for _, b, _ in pairs}

    assert held(FAST_PAIRS) == held(PAIRS)


@pytest.mark.parametrize(
    ("model", "base", "fits"),
    params(PAIRS, FAST_PAIRS, ids=lambda pair: f"{pair[0]}-{pair[1]}"),
)
def test_every_model_and_base_pair_runs_or_is_refused(model, base, fits, capsys):
    """Each pair fits a small problem, or the CLI refuses it naming the valid bases.

    Ensembles are cut to three members so that the 40 x 10 pairs fit in seconds;
    their defaults run in ``test_every_model_runs_with_its_defaults_on_keel``.
    ``make test`` runs the pairs of ``FAST_PAIRS``, ``make test-all`` every pair.
    """
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], [45, 15])
    X = rng.normal(size=(60, 3)) + y[:, None]
    spec = CATALOG[model]
    if fits:
        pipeline = _shrunk(make_model(model, base=base, cost=5, pos_label=1))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            predicted = pipeline.fit(X, y).predict(X)
        assert set(np.unique(predicted)) <= {0, 1}
        return
    status = cli.main(["evaluate", "--dataset", "pima", "--cost", "5", "--model",
                       model, "--base", base])  # fmt: skip
    assert status == 2
    assert f"its bases are {', '.join(spec.bases)}" in capsys.readouterr().err


@pytest.mark.slow
def test_every_model_runs_with_its_defaults_on_keel(capsys):
    # every model with its defaults, end to end, on one small KEEL set
    models = ",".join(CATALOG)
    status = cli.main(["evaluate", "--dataset", "glass1", "--cost", "5", "--folds",
                       "2", "--quiet", "--model", models])  # fmt: skip
    out = capsys.readouterr().out
    assert "FAILED" not in out
    assert status == 0
    assert len(_table(out, tuple(CATALOG))) == len(CATALOG)


def test_jobs_give_the_same_fold_results_and_the_csv_says_what_ran(tmp_path, capsys):
    path = write_csv(tmp_path / "d.csv", n=120)
    common = ["evaluate", "--csv", str(path), "--target", "label", "--cost", "5",
              "--model", "threshold,weighting", "--folds", "3", "--seed", "4",
              "--quiet"]  # fmt: skip
    written = {}
    for jobs in (1, 2):
        out = tmp_path / f"folds-{jobs}.csv"
        assert cli.main([*common, "--jobs", str(jobs), "--output", str(out)]) == 0
        found = pd.read_csv(out)  # in the order the folds finished
        written[jobs] = found.sort_values(["fold", "model"], ignore_index=True)
    table = capsys.readouterr().out  # the terminal's narrow table: no times
    assert "fit_time" not in table and "cost_total" in table
    one, two = written[1], written[2]
    assert {"base", "seed", "costs", "fit_time", "predict_time"} <= set(one.columns)
    assert (one["seed"] == 4).all() and one["costs"].str.contains("5").all()
    assert (one["fit_time"] > 0).all() and (one["predict_time"] >= 0).all()
    timeless = [c for c in one.columns if c not in ("fit_time", "predict_time")]
    pd.testing.assert_frame_equal(one[timeless], two[timeless])
    with pytest.raises(SystemExit) as refused:
        cli.main([*common, "--jobs", "0"])
    assert refused.value.code == 2
    assert "--jobs: 0 is not a count >= 1" in capsys.readouterr().err


def test_evaluate_splits_the_folds_a_study_of_the_same_file_splits(tmp_path, capsys):
    # the dataset is named by the file's stem, as [files.<stem>] names it in a study
    from costsense.experiments import ResultsStore, run_study, study_from_dict

    data = write_csv(tmp_path / "loans.csv", n=120, seed=3)
    out = tmp_path / "folds.csv"
    status = cli.main(
        _evaluate_csv(data, "--cost", "5", "--model", "plain,threshold", "--folds",
                      "3", "--seed", "7", "--output", str(out), "--quiet")
    )  # fmt: skip
    assert status == 0
    capsys.readouterr()
    study = study_from_dict(
        {"name": "same", "seed": 7, "datasets": ["loans"], "costs": [5],
         "algorithms": [{"name": m, "method": m} for m in ("plain", "threshold")],
         "protocol": {"kind": "kfold", "n_splits": 3, "n_repeats": 1},
         "reference": None,
         "files": {"loans": {"path": str(data), "target": "label"}}},
        source=str(tmp_path / "study.toml"),
    )  # fmt: skip
    run_study(study, tmp_path / "study")
    studied = ResultsStore(tmp_path / "study").results()
    evaluated = pd.read_csv(out)
    assert len(studied) == len(evaluated) == 6
    for _, row in evaluated.iterrows():
        (match,) = studied[
            (studied["algorithm"] == row["model"]) & (studied["fold"] == row["fold"])
        ].index
        for metric in ("cost_total", "recall", "precision", "auc"):
            assert studied.loc[match, metric] == pytest.approx(row[metric]), metric
