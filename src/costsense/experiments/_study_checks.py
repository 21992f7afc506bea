"""What a study may be: names that stay in their folder, sizes that stay bounded.

A study file comes from anyone. Its ``name`` becomes the default output folder
(``results/<name>``) and its dataset names become file names under it (the
boundary grids, ``artifacts/boundary_<dataset>_<cost>.npz``), so both must be
identifiers (:data:`IDENTIFIER`): never ``..``, a slash or an absolute path.
Its sizes multiply: ``n_repeats = 10**8`` plans 10^8 x folds cells, and
``n_estimators = 10**9`` fits for ever; they are checked when the study loads,
against :class:`StudyLimits`, which a user raises when a study really is that
large (``costsense reproduce --max-cells``, ``--max-estimators``,
``--max-rows``).

Change it when a study gains a field that names a file or multiplies the work.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, NoReturn


def printable(text: object, limit: int = 200) -> str:
    """Return ``text`` escaped and cut (:func:`costsense.utils._text.printable`).

    Imported when needed: the command line's ``--help`` reads this module's
    limits and must not load numpy (``costsense.utils`` does).
    """
    from costsense.utils._text import printable as escape

    return escape(text, limit)


__all__ = [
    "IDENTIFIER",
    "StudyLimits",
    "check_identifier",
    "check_metrics",
    "check_protocol_types",
    "check_record",
    "check_sizes",
]

#: What a study name and a dataset name may be: they name files and folders.
IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

#: The protocol's whole-number fields and their least values.
_PROTOCOL_INTS = {"n_splits": 2, "n_repeats": 1, "inner_splits": 2}


@dataclass(frozen=True)
class StudyLimits:
    """The largest study that loads without being asked for explicitly.

    Attributes
    ----------
    max_cells : int
        Cells planned (datasets x costs x algorithms x repeats x folds);
        raise it with ``costsense reproduce --max-cells``.
    max_estimators : int
        ``n_estimators`` of any algorithm (in ``params`` or a ``grid``); raise
        it with ``--max-estimators``.
    max_rows : int
        Rows drawn for the ``"gaussian"`` dataset (``gaussian_samples``); raise
        it with ``--max-rows``.
    max_grid : int
        Parameter combinations of one algorithm's ``grid`` (each fitted
        ``inner_splits`` times in every cell).
    """

    max_cells: int = 100_000
    max_estimators: int = 10_000
    max_rows: int = 1_000_000
    max_grid: int = 1_000


def _fail(source: str, message: str) -> NoReturn:
    raise ValueError(f"study {source}: {message}")


def check_identifier(value: Any, field: str, source: str) -> str:
    """Return ``value`` if it is an identifier, else refuse naming ``field``.

    Parameters
    ----------
    value : object
        The name as the study gives it.
    field : str
        Where it is (``name``, ``datasets[2]``), for the message.
    source : str
        The study file, for the message.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        Not a string of 1 to 64 letters, digits, ``.``, ``_`` and ``-``
        starting with a letter or digit (so never ``..``, a path or empty).
    """
    if not isinstance(value, str) or IDENTIFIER.fullmatch(value) is None:
        shown = printable(value, 80) if isinstance(value, str) else repr(value)
        _fail(
            source,
            f"{field} {shown!r} is not an identifier: it names files in the output "
            "folder, so give 1 to 64 letters, digits, '.', '_' or '-', starting "
            "with a letter or digit (no '/', no '..')",
        )
    return value


def check_metrics(metrics: Any, known: tuple[str, ...], source: str) -> tuple[str, ...]:
    """Return the study's metrics, refusing none, a non-list or an unknown name.

    Parameters
    ----------
    metrics : object
        The study's ``metrics``.
    known : tuple of str
        The metrics a cell records.
    source : str
        The study file, for the message.

    Returns
    -------
    tuple of str
    """
    if (
        not isinstance(metrics, list | tuple)
        or not metrics
        or not all(isinstance(m, str) for m in metrics)
    ):
        _fail(
            source,
            "metrics must be a non-empty list of metric names (the first is the "
            f'main one), such as metrics = ["cost_total", "recall"]; choose '
            f"from {list(known)}",
        )
    unknown = sorted({printable(m, 40) for m in metrics} - set(known))
    if unknown:
        _fail(source, f"unknown metrics {unknown}; choose from {list(known)}")
    return tuple(metrics)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_protocol_types(protocol: dict[str, Any], source: str) -> None:
    """Refuse a ``[protocol]`` value of the wrong type or below its least value.

    Parameters
    ----------
    protocol : dict
        The study's ``[protocol]`` table (its keys already checked).
    source : str
        The study file, for the message.
    """
    for key, least in _PROTOCOL_INTS.items():
        if key in protocol and (not _whole(protocol[key]) or protocol[key] < least):
            _fail(
                source,
                f"protocol.{key} must be a whole number >= {least}, got "
                f"{printable(protocol[key], 40)}",
            )
    size = protocol.get("test_size", 0.5)
    if not isinstance(size, int | float) or isinstance(size, bool) or not 0 < size < 1:
        _fail(
            source, f"protocol.test_size must be in (0, 1), got {printable(size, 40)}"
        )
    for key in ("kind", "scale", "categorical"):
        if key in protocol and not isinstance(protocol[key], str):
            _fail(source, f"protocol.{key} must be a string")


def _over(source: str, field: str, value: int, limit: int, option: str) -> NoReturn:
    _fail(
        source,
        f"{field} is {value:,}, over the limit of {limit:,}; make the study "
        f"smaller, or raise the limit ({option} {value})",
    )


def _estimators(params: dict[str, Any]) -> list[tuple[str, Any]]:
    """Return the ``n_estimators`` values among parameters (nested names too)."""
    return [
        (name, value)
        for name, value in params.items()
        if name.rsplit("__", 1)[-1] == "n_estimators"
    ]


def check_sizes(
    *,
    cells: int,
    algorithms: Any,
    gaussian_samples: Any,
    limits: StudyLimits,
    source: str,
) -> None:
    """Refuse a study whose planned work is over ``limits``, naming the field.

    Parameters
    ----------
    cells : int
        Cells planned.
    algorithms : iterable of Algorithm
        The study's algorithms (their ``params`` and ``grid`` resolved).
    gaussian_samples : object
        The study's ``gaussian_samples``.
    limits : StudyLimits
        The limits.
    source : str
        The study file, for the message.
    """
    if cells > limits.max_cells:
        _over(source, "cells planned", cells, limits.max_cells, "--max-cells")
    if not _whole(gaussian_samples) or gaussian_samples < 2:
        _fail(source, "gaussian_samples must be a whole number >= 2")
    if gaussian_samples > limits.max_rows:
        _over(source, "gaussian_samples", gaussian_samples, limits.max_rows,
              "--max-rows")  # fmt: skip
    for algorithm in algorithms:
        where = f"algorithm {printable(algorithm.name, 64)!r}"
        values = [(f"params {n}", v) for n, v in _estimators(algorithm.params)]
        values += [
            (f"grid {n}", v)
            for n, grid in _estimators(algorithm.grid)
            for v in (grid if isinstance(grid, list) else [grid])
        ]
        for field, value in values:
            if _whole(value) and value > limits.max_estimators:
                _over(source, f"{where}: {field}", value, limits.max_estimators,
                      "--max-estimators")  # fmt: skip
        combinations = math.prod(
            len(v) if isinstance(v, list) else 1 for v in algorithm.grid.values()
        )
        if combinations > limits.max_grid:
            _fail(
                source,
                f"{where}: grid has {combinations:,} combinations of parameters, "
                f"over the limit of {limits.max_grid:,}; search fewer values",
            )


def check_record(study: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    """Refuse a results store's recorded study that could not have been loaded.

    ``costsense report`` reads the study a store records (which anyone who can
    write the folder can change): its name and dataset names must be
    identifiers and its metrics known, before anything is drawn.

    Parameters
    ----------
    study : dict
        The recorded study (:meth:`Study.to_dict`).
    known : tuple of str
        The metrics a cell records.
    where : str
        The store, for the message.
    """
    check_identifier(study.get("name"), "name", where)
    datasets = study.get("datasets")
    if not isinstance(datasets, list) or not datasets:
        _fail(where, "datasets must be a non-empty list of names")
    for i, dataset in enumerate(datasets):
        check_identifier(dataset, f"datasets[{i}]", where)
    check_metrics(study.get("metrics"), known, where)
