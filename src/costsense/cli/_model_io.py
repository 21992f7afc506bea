"""Model files of ``costsense fit``, read back by ``costsense predict``, checked.

The file is read with :mod:`costsense.persist` (nothing runs), its metadata
checked alone, then the built pipeline against the one ``fit`` builds from that
metadata, so an edited field is refused by name. Provenance the model does not
carry (date, source, rows) only a signature vouches for.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any

import numpy as np

from costsense import __version__
from costsense._base import learns_row_costs
from costsense.cli._options import ACTION_PREFIX, MISSING, UsageError
from costsense.experiments import BASE_NAMES, CATALOG, check_pair
from costsense.persist import DEFAULT_MAX_BYTES, check_fitted, read_model
from costsense.utils._numbers import is_mark
from costsense.utils._reading import make_encoder
from costsense.utils._tables import part_columns
from costsense.utils._text import printable

#: The metadata format written and read (no other is read: a file of an earlier
#: development version is refused, naming the fix, fit it again).
FORMAT = "costsense-model/2"
_KINDS = {"numeric", "categorical", "date-time"}
_COST_KINDS = {"ratio", "pair", "matrix", "parts", "actions"}
_PARTS = ["fn", "fp", "tn", "tp"]
#: A version as packaging writes one (``0.1.0.dev0``, ``1.2+local.3``).
_VERSION = re.compile(r"[0-9][0-9A-Za-z.+!_-]{0,39}")


def load_model(
    path: str, key: bytes | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Any, dict[str, Any], bool]:
    """Load a model file of ``costsense fit``: pipeline, metadata, whether signed."""
    stored = read_model(path, key=key, max_bytes=max_bytes)
    check_metadata(stored.metadata, path)
    try:
        model = stored.construct()
        check_model(model, stored.metadata, path)
    except UsageError as error:
        written = stored.metadata["costsense_version"]
        if written == __version__:
            raise
        # another version's classes or defaults differ: say so, and the fix
        raise UsageError(
            f"{error} (the file was written by costsense {written[:40]}, this is "
            f"{__version__}: fit the model again with this version)"
        ) from None
    return model, stored.metadata, stored.signed


def _fail(path: str, message: str) -> UsageError:
    return UsageError(f"model file {path}: {message}; refusing it")


def check_metadata(metadata: dict[str, Any], path: str) -> None:
    """Refuse metadata that ``costsense fit`` would not write, naming the field.

    The training time and version are printed beside "unsigned": each must be
    plain (an escape sequence could draw "signature verified" over it).
    """

    def require(holds: Any, problem: str) -> None:
        if not holds:
            raise _fail(path, f"its metadata{problem}")

    m: Any = metadata  # of any shape until each field is checked
    if m.get("format") != FORMAT:
        raise UsageError(
            f"model file {path} has format {str(m.get('format'))[:40]!r}; this "
            f"costsense reads {FORMAT!r} only (a file of an earlier version): fit "
            "the model again"
        )
    name, base, columns = m.get("model"), m.get("base"), m.get("columns")
    require(name in CATALOG, f" names an unknown model {str(name)[:40]!r}")
    require(
        base is None or base in BASE_NAMES and not check_pair(name, base),
        f" names base {str(base)[:40]!r} for {name}",
    )
    require(
        isinstance(columns, dict)
        and columns
        and all(isinstance(c, str) and kind in _KINDS for c, kind in columns.items()),
        "'s columns are not a map of names to kinds",
    )
    require(m.get("missing") in MISSING, "'s missing-value policy is unknown")
    classes = m.get("classes")
    require(
        isinstance(classes, list)
        and len(classes) >= 2
        and all(isinstance(c, str | int | float | bool) for c in classes)
        and len({repr(c) for c in classes}) == len(classes),
        "'s classes are not two or more distinct labels",
    )
    pos_label = m.get("pos_label")
    require(
        pos_label in classes or len(classes) > 2 and pos_label is None,
        "'s positive class is not one of its classes",
    )
    for field, kind in (
        ("costsense_version", str),
        ("rows", int),
        ("seed", int),
        ("trained", str),
        ("target", str),
    ):
        require(isinstance(m.get(field), kind), f" has no {field}")
    try:
        written = datetime.fromisoformat(m["trained"]).isoformat(timespec="seconds")
    except ValueError:
        written = None
    require(
        written == m["trained"],
        f"'s training time {printable(m['trained'], 60)} is not a time as "
        "costsense fit writes it",
    )
    require(
        _VERSION.fullmatch(m["costsense_version"]),
        f"'s costsense version {printable(m['costsense_version'], 60)} is not a "
        "version",
    )
    ignored = m.get("ignored", [])
    require(
        isinstance(ignored, list) and all(isinstance(c, str) for c in ignored),
        "'s ignored columns are not a list of names",
    )
    require(isinstance(m.get("id_column"), str | None), "'s id column is not a name")
    _check_cost(m, require)
    counts = m.get("class_counts")  # absent from files of earlier versions
    require(
        counts is None
        or isinstance(counts, list)
        and len(counts) == len(classes)
        and all(type(c) is int and c > 0 for c in counts)
        and sum(counts) == m["rows"],
        "'s class counts are not one count > 0 per class summing to its rows",
    )
    marks, costly = m.get("number_marks", {}), m["cost"]["columns"]
    require(
        isinstance(marks, dict)
        and all(
            (columns.get(c) == "numeric" or c in costly) and is_mark(k)
            for c, k in marks.items()
        ),
        "'s number marks are not a map of numeric or cost columns to '.' or ',' "
        "and a sign",
    )


def _check_cost(m: Any, require: Any) -> None:
    cost = m.get("cost")
    require(isinstance(cost, dict), " has no cost")
    try:
        matrix = np.asarray(cost.get("matrix"), dtype=np.float64)
    except (TypeError, ValueError):
        matrix = np.empty(0)
    n, pos_label, columns = len(m["classes"]), m["pos_label"], m["columns"]
    require(
        matrix.shape == (n, n) and np.all(np.isfinite(matrix)) and np.all(matrix >= 0),
        f"'s cost matrix is not {n} x {n} finite non-negative costs",
    )
    kind, parts = cost.get("kind"), cost.get("parts")
    require(
        kind in _COST_KINDS and (kind == "parts") == (parts is not None),
        "'s cost kind is not one fit writes",
    )
    features, used = cost.get("columns_are_features"), cost.get("columns")
    require(
        isinstance(features, bool), " does not say whether cost columns are features"
    )
    _check_actions(m, require)  # the table first: its columns are read below
    if parts is None:
        require(
            used == action_columns(m.get("actions")),
            "'s cost columns are not those of its cost parts or action table",
        )
        require(
            not used or not features and m["target"] not in used,
            " says action cost columns are features or the target",
        )
        require(all(c not in columns for c in used), " lists cost columns as features")
        return
    require(
        isinstance(parts, dict)
        and sorted(parts) == _PARTS
        and all(
            isinstance(v, str)
            or type(v) in (int, float)
            and math.isfinite(v)
            and v >= 0
            for v in parts.values()
        ),
        "'s cost parts are not fp, fn, tp, tn, each a finite cost >= 0 or a column "
        "name",
    )
    require(
        n == 2 and pos_label is not None, " gives cost parts for more than two classes"
    )
    require(used == part_columns(parts), "'s cost columns are not those of its parts")
    require(m["target"] not in used, " names the target as a cost column")
    require(
        all(
            columns.get(c) == "numeric" if features else c not in columns for c in used
        ),
        " says the cost columns are features, but they are not numeric features"
        if features
        else " says the cost columns are not features, but lists them as features",
    )


def action_metadata(actions: Any, classes: list[Any]) -> dict[str, Any] | None:
    """Describe an action table for the model file: the numbers, or its columns."""
    if actions is None:
        return None
    names = [str(a) for a in actions.actions]
    if actions.table.ndim == 2:
        return {"names": names, "table": actions.table.tolist(), "columns": None}
    grid = [[f"{ACTION_PREFIX}{c}_{a}" for a in names] for c in classes]
    return {"names": names, "table": None, "columns": grid}


def action_columns(actions: dict[str, Any] | None) -> list[str]:
    """List the per-row action cost columns of :func:`action_metadata` (class-major)."""
    grid = (actions or {}).get("columns") or []
    return [name for row in grid for name in row]


def _check_actions(m: Any, require: Any) -> None:
    """Refuse an action table fit would not write, or one its label costs belie."""
    from costsense.decision import ActionCosts

    actions, classes = m.get("actions"), m["classes"]
    if m["cost"]["kind"] != "actions":
        require(actions is None, " has an action table but costs of another kind")
        return
    require(
        isinstance(actions, dict) and sorted(actions) == ["columns", "names", "table"],
        "'s action table is not names with a table or columns",
    )
    names, table = actions["names"], actions["table"]
    require(
        isinstance(names, list)
        and len(names) >= 2
        and all(isinstance(a, str) and printable(a) == a for a in names)
        and len(set(names)) == len(names),
        "'s actions are not two or more distinct names",
    )
    grid = [[f"{ACTION_PREFIX}{c}_{a}" for a in names] for c in classes]
    if table is None:
        require(
            actions["columns"] == grid,
            "'s action columns are not cost_<class>_<action>",
        )
        return
    try:
        values = np.asarray(table, dtype=np.float64)
    except (TypeError, ValueError):
        values = np.empty(0)
    require(
        actions["columns"] is None
        and values.shape == (len(classes), len(names))
        and np.all(np.isfinite(values))
        and np.all(values >= 0),
        f"'s action table is not {len(classes)} x {len(names)} finite costs >= 0",
    )
    labels = ActionCosts(values, names).label_costs()
    require(
        np.array_equal(labels, np.asarray(m["cost"]["matrix"], dtype=np.float64)),
        "'s cost matrix is not the label costs of its action table",
    )


def check_model(model: Any, metadata: dict[str, Any], path: str) -> None:
    """Refuse a constructed pipeline that is not what its metadata describes."""
    from costsense.experiments import default_base, make_model  # tests swap it

    name, cost = metadata["model"], metadata["cost"]
    prepare = make_encoder(
        metadata["columns"],
        metadata["missing"],
        metadata.get("number_marks", {}),
        cost["parts"],
    )
    reference = make_model(
        name,
        base=metadata["base"] or default_base(name),
        cost=np.asarray(cost["matrix"], dtype=np.float64),
        pos_label=metadata["pos_label"],
        seed=metadata["seed"],
        prepare=prepare,
    )
    if cost["columns"] and learns_row_costs(reference[-1]):
        reference.set_params(model__cost=None)  # fitted on the rows' own costs
    if type(model) is not type(reference) or _steps(model) != _steps(reference):
        raise _fail(
            path,
            f"its model is a {type(model).__name__} with steps "
            f"{_steps(model)}, not the pipeline costsense fit builds for "
            f"model {name}",
        )
    stored, expected = model.get_params(deep=True), reference.get_params(deep=True)
    for key in sorted(set(stored) | set(expected)):
        if (
            key not in stored
            or key not in expected
            or not _same(stored[key], expected[key])
        ):
            raise _fail(
                path,
                f"its metadata does not match the stored model: "
                f"{_field(key)} (the model's {key} is "
                f"{_show(stored.get(key))}, the metadata implies "
                f"{_show(expected.get(key))})",
            )
    classes = [c.item() if isinstance(c, np.generic) else c for c in model.classes_]
    if classes != metadata["classes"]:
        raise _fail(
            path,
            f"its metadata's classes {metadata['classes']} are not "
            f"the model's classes {classes}",
        )
    fitted = list(getattr(model.steps[0][1], "feature_names_in_", []))
    if fitted != list(metadata["columns"]):
        raise _fail(
            path,
            f"its metadata's columns {list(metadata['columns'])} are "
            f"not the columns the model was fitted on {fitted}",
        )
    # the model's input: what the scaling step before it takes and gives
    width = getattr(model.steps[-2][1], "n_features_in_", None)
    if not isinstance(width, int | np.integer) or width < 1:
        raise _fail(path, "its model has no input width")
    check_fitted(model, int(width), path)


def _steps(pipeline: Any) -> list[tuple[str, str]]:
    steps = getattr(pipeline, "steps", None)
    return [
        (str(s[0]), f"{type(s[1]).__module__}.{type(s[1]).__qualname__}")
        if isinstance(s, tuple) and len(s) == 2
        else ("?", "?")
        for s in (steps if isinstance(steps, list) else [])
    ]


def _same(a: Any, b: Any) -> bool:
    """Parameter equality: estimators by class (their parameters are compared too)."""
    if hasattr(a, "get_params") or hasattr(b, "get_params"):
        return type(a) is type(b)
    if hasattr(a, "_score_func") or hasattr(b, "_score_func"):
        # a scikit-learn scorer (make_scorer) has no get_params and no __eq__
        return type(a) is type(b) and all(
            _same(getattr(a, name, None), getattr(b, name, None))
            for name in ("_score_func", "_sign", "_response_method", "_kwargs")
        )
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
        except TypeError:
            return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    numbers = (int, float, np.integer, np.floating, str, np.str_, bool, np.bool_)
    try:
        return bool(a == b) and (
            type(a) is type(b) or isinstance(a, numbers) and isinstance(b, numbers)
        )
    except (TypeError, ValueError):
        return False


def _field(key: str) -> str:
    last = key.rsplit("__", 1)[-1]
    for word, field in (
        ("number_marks", "number marks"),
        ("missing", "missing-value policy"),
        ("cost", "cost"),
    ):
        if word in last:
            return field
    if key.startswith("prepare"):
        return "columns or missing-value policy"
    return {"pos_label": "positive class", "random_state": "seed"}.get(
        last, "model or base"
    )


def _show(value: Any) -> str:
    if hasattr(value, "get_params"):
        return type(value).__name__
    text = repr(value.tolist() if isinstance(value, np.ndarray) else value)
    return text if len(text) <= 120 else text[:117] + "..."
