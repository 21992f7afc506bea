"""Every model `costsense fit` can write loads through the exact allowlist, unchanged.

One test fits every catalog model on every base it accepts (ensembles and iterative
learners cut to three members or iterations, minimum-cost's forest candidate to ten
trees, one thread per fit: the same types for a fraction of the work), with integer
and string labels, both missing-value policies, three classes where the model
handles them and per-row costs where it takes them (with true-positive and
true-negative costs for two of them); each file must load and predict exactly as
the fitted model did, and together the files must use every entry of the allowlist
(an unused entry is a type trusted for nothing).
"""

import json
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest
from threadpoolctl import threadpool_limits

import costsense.experiments
from costsense import cli
from costsense.cli import _fit, _model_io
from costsense.experiments import BASE_NAMES, CATALOG, check_pair, default_base
from costsense.persist._types import ALLOWED, NUMPY_SCALARS, PYTHON_SCALARS
from costsense.recommend import _candidates
from tests._covering import covering, levels, params

# members and iterations: enough for every fitted type, a fraction of the work
SMALL = ("n_estimators", "max_iter")


def _shrunk_make_model(real):
    def make_model(*args, **kwargs):
        pipeline = real(*args, **kwargs)
        sizes = {
            name: 3
            for name, value in pipeline.get_params().items()
            if name.endswith(SMALL) and isinstance(value, int)
        }
        return pipeline.set_params(**sizes)

    return make_model


def _write_data(path, n_classes, labels, seed, width=2):
    rng = np.random.default_rng(seed)
    y = rng.choice(n_classes, size=90, p=[0.6, 0.3, 0.1][:n_classes] / np.sum(
        [0.6, 0.3, 0.1][:n_classes]))  # fmt: skip
    y[:n_classes] = np.arange(n_classes)
    frame = pd.DataFrame(rng.normal(size=(90, width)) + y[:, None],
                         columns=[f"f{i}" for i in range(width)])  # fmt: skip
    frame["city"] = np.where(rng.random(90) < 0.4 + 0.2 * (y > 0), "east", "west")
    frame["amount"] = rng.uniform(1, 30, size=90)
    # a date-time column: its hour, weekday, day and month (DateTimeParts)
    frame["when"] = pd.date_range("2026-01-01", periods=90, freq="5h").strftime(
        "%Y-%m-%d %H:%M"
    )
    names = {"str": np.array(["neg", "pos", "mid"]), "int": np.arange(3),
             "bool": np.array([False, True])}[labels]  # fmt: skip
    frame["label"] = names[y]
    frame.to_csv(path, index=False)
    return frame


def _configurations():
    """(model, base, classes, labels, missing, row costs, C1, width) for the catalog."""
    for model in sorted(CATALOG):
        spec = CATALOG[model]
        bases = [b for b in BASE_NAMES if check_pair(model, b) is None]
        if not spec.uses_base:
            bases = [None]
        for i, base in enumerate(bases):
            yield (model, base, 2, ("int", "str", "bool")[i % 3],
                   ("raise", "impute")[i % 2], False, "4", 2)  # fmt: skip
        if spec.multiclass:
            yield model, None, 3, "str", "raise", False, "4", 2
        if spec.row_costs:
            yield model, None, 2, "int", "impute", True, "4", 2
    # per-row costs with a true positive's cost (a non-zero diagonal)
    yield "minimum-cost", None, 2, "str", "raise", "tp", "4", 2
    yield "weighting", "tree", 2, "int", "raise", "tp", "4", 2
    # gradient boosting's multinomial loss, held only by a 3-class model
    yield "plain", "hist-gradient-boosting", 3, "int", "impute", False, "4", 2
    # a cost so high that MetaCost relabels every row positive and keeps a constant
    yield "metacost", "logistic", 2, "int", "raise", False, "100000", 2
    # wide data: minimum-cost's quadratic candidate squares features one by one
    wide = _candidates.FULL_QUADRATIC_MAX_FEATURES + 1
    yield "minimum-cost", None, 2, "int", "raise", False, "4", wide
    # more columns than a class has rows: OBPD keeps that class's Gaussian low-rank
    yield "obpd-efsboost", None, 2, "int", "raise", False, "4", 40


def _types(path):
    with zipfile.ZipFile(path) as archive:
        schema = json.loads(archive.read("schema.json"))
    found, stack = set(), [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            if "__loader__" in value and value["__loader__"] != "CachedNode":
                found.add((value["__loader__"], f"{value['__module__']}."
                           f"{value['__class__']}"))  # fmt: skip
            stack.extend(value.values())
    return found


@pytest.fixture
def one_thread():
    """One thread per fit: on data this small, OpenMP's other threads only wait."""
    with threadpool_limits(limits=1):
        yield


CONFIGURATIONS = list(_configurations())
# the special cases _configurations yields after the catalog's loop
SPECIAL = 6
# make test: every level of every factor (model, base, classes, labels, missing
# values, row costs, C1, width) at least once, and every special case
FAST = covering(CONFIGURATIONS)
FAST += [config for config in CONFIGURATIONS[-SPECIAL:] if config not in FAST]


def _config_id(config):
    return "-".join(str(value) for value in config)


def _shrunk_fits(monkeypatch):
    """Patch ensembles to three members; return the dict fit's models land in."""
    real = costsense.experiments.make_model
    monkeypatch.setattr(costsense.experiments, "make_model", _shrunk_make_model(real))
    # minimum-cost's forest candidate: a few trees hold the types of a hundred
    monkeypatch.setattr(_candidates, "FOREST_MAX_TREES", 10)
    fitted = {}
    save = _fit.save_model

    def keep(model, path, **options):
        fitted[str(path)] = model
        save(model, path, **options)

    monkeypatch.setattr(_fit, "save_model", keep)
    return fitted


def _fit_load_and_compare(n, config, tmp_path, fitted, capsys):
    """Fit ``config`` through the CLI, load its file, compare the predictions.

    Return the (loader, type) pairs the file holds, or the CLI's error as a
    problem when fit fails.
    """
    model, base, k, labels, missing, rows, c1, width = config
    data = tmp_path / f"d{n}.csv"
    frame = _write_data(data, k, labels, seed=n, width=width)
    costs = ["--cost", c1]
    if k == 3:
        names = sorted(frame["label"].unique())
        matrix = pd.DataFrame(np.ones((3, 3)) - np.eye(3), index=names,
                              columns=names)  # fmt: skip
        matrix.iloc[0] *= 5
        matrix.to_csv(tmp_path / f"c{n}.csv")
        costs = ["--cost-matrix", str(tmp_path / f"c{n}.csv")]
    elif rows:
        costs = ["--fn-cost", "amount", "--fp-cost", "2"]
        if rows == "tp":
            costs += ["--tp-cost", "1.5", "--tn-cost", "0.25"]
    saved = tmp_path / f"m{n}.skops"
    argv = ["fit", "--csv", str(data), "--target", "label", "--model", model,
            "--missing", missing, "--out", str(saved), *costs]  # fmt: skip
    if base is not None:
        argv += ["--base", base]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = cli.main(argv)
        if status != 0:
            return None, (model, base, k, capsys.readouterr().err[-300:])
        loaded, metadata, _ = _model_io.load_model(str(saved))
        X = frame.drop(columns=["label"])  # a cost column stays a feature
        kept = fitted[str(saved)]
        np.testing.assert_array_equal(loaded.predict(X), kept.predict(X))
        if hasattr(kept, "predict_proba"):
            try:
                expected = kept.predict_proba(X)
            except (AttributeError, NotImplementedError):
                expected = None
            if expected is not None:
                np.testing.assert_array_equal(loaded.predict_proba(X), expected)
    assert metadata["model"] == model
    return _types(saved), None


ALLOWED_PAIRS = {(loader, name) for loader, names in ALLOWED.items() for name in names}


def test_the_fast_configurations_hold_every_level_of_every_factor():
    assert set().union(*map(levels, FAST)) == set().union(*map(levels, CONFIGURATIONS))
    assert {config[0] for config in FAST} == set(CATALOG)
    assert set(CONFIGURATIONS[-SPECIAL:]) <= set(FAST)
    assert len(set(CONFIGURATIONS)) == len(CONFIGURATIONS)


@pytest.mark.usefixtures("one_thread")
@pytest.mark.parametrize(
    ("n", "config"),
    params(list(enumerate(CONFIGURATIONS)),
           fast=[(n, c) for n, c in enumerate(CONFIGURATIONS) if c in FAST],
           ids=lambda nc: _config_id(nc[1])),
)  # fmt: skip
def test_a_model_fit_writes_loads_and_predicts_identically(
    n, config, tmp_path, monkeypatch, capsys
):
    """Each configuration's file loads and predicts as the fitted model did.

    ``make test`` runs the configurations of ``FAST`` (every model, base, label
    type, missing-value policy, class count, cost layout and special case at least
    once); ``make test-all`` runs every one.
    """
    fitted = _shrunk_fits(monkeypatch)
    used, problem = _fit_load_and_compare(n, config, tmp_path, fitted, capsys)
    assert problem is None, problem
    assert used <= ALLOWED_PAIRS


@pytest.mark.slow
@pytest.mark.usefixtures("one_thread")
def test_together_the_models_use_every_entry_of_the_allowlist(
    tmp_path, monkeypatch, capsys
):
    fitted = _shrunk_fits(monkeypatch)
    used, problems = set(), []
    for n, config in enumerate(CONFIGURATIONS):
        types, problem = _fit_load_and_compare(n, config, tmp_path, fitted, capsys)
        if problem is not None:
            problems.append(problem)
            continue
        used |= types
    assert not problems, problems
    assert used <= ALLOWED_PAIRS
    # every entry is needed by some model (data types may stay unused: they are
    # data, and the labels or dtypes of a user's file decide which appear)
    data_types = NUMPY_SCALARS | PYTHON_SCALARS | {"builtins.NoneType"}
    unused = {(loader, name) for loader, name in ALLOWED_PAIRS - used
              if name not in data_types}  # fmt: skip
    assert not unused, sorted(unused)


def test_the_allowlist_holds_no_module_prefix_and_no_builtin_function():
    import builtins
    import importlib

    for loader, names in ALLOWED.items():
        for name in names:
            module, _, attribute = name.rpartition(".")
            assert module and attribute, name
            if name == "builtins.NoneType":
                continue
            value = getattr(importlib.import_module(module), attribute)
            if loader == "FunctionNode" and isinstance(value, np.ufunc):
                assert module == "numpy"  # element-wise arithmetic: no I/O, no import
            elif loader == "FunctionNode":
                assert not module.startswith(("builtins", "numpy", "scipy", "os"))
                assert value.__module__ == module  # a function defined there
            else:
                assert isinstance(value, type), name  # classes only
            assert not (module == "builtins" and not isinstance(value, type))
    assert builtins.exec not in [
        getattr(builtins, n.split(".")[-1], None) for n in ALLOWED["TypeNode"]
    ]


@pytest.mark.parametrize("model", ["threshold", "pdcsrf"])
def test_default_base_round_trip_needs_no_patching(model, tmp_path):
    """Full-size defaults (no cut ensembles) load as written, parameters and all."""
    frame = _write_data(tmp_path / "d.csv", 2, "str", seed=3)
    saved = tmp_path / "m.skops"
    argv = ["fit", "--csv", str(tmp_path / "d.csv"), "--target", "label",
            "--model", model, "--cost", "3", "--out", str(saved)]  # fmt: skip
    assert cli.main(argv) == 0
    loaded, metadata, _ = _model_io.load_model(str(saved))
    assert metadata["base"] == (default_base(model) if CATALOG[model].uses_base
                                else None)  # fmt: skip
    assert list(loaded.classes_) == ["neg", "pos"]
    assert set(loaded.predict(frame.drop(columns=["label"]))) <= {"neg", "pos"}
