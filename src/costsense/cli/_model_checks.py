"""A model file's metadata checked alone, then against the model it describes.

:func:`check_metadata` runs before anything is constructed: every field
``costsense fit`` writes, of the kind it writes (a known model and base, columns
with their kinds, at least two distinct classes, a K x K matrix of finite
non-negative costs, cost parts that are finite costs or column names, cost columns
that are those of the parts and are features exactly when it says so, constant
parts that are the matrix's entries, ...). :func:`check_model` runs once skops has
built the pipeline from allowed types only, before it predicts anything:

- the pipeline is the one ``costsense fit`` builds from that metadata: the same
  steps, the same estimator classes and the same parameters (model, base, costs,
  positive class, seed, columns, missing-value policy), compared one by one, so
  a file whose metadata was edited (costs divided by five, another model's name)
  is refused naming the field;
- its classes and fitted columns are the metadata's;
- every fitted tree (scikit-learn's, histogram gradient boosting's, costsense's)
  has node indices that stay inside its arrays and features inside the model's
  input: compiled predictors index them without bounds checks, so an edited
  index would read outside memory instead of raising.

What cannot be checked without a key: provenance the model does not carry (the
training date, source file and row count). ``predict`` says so; a signed file
(``costsense fit --sign-key-file``) vouches for all of it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._options import MISSING, UsageError
from costsense.utils._text import printable

__all__ = ["check_metadata", "check_model", "model_cost"]

_KINDS = {"numeric", "categorical", "date-time"}
_COST_KINDS = {"ratio", "pair", "matrix", "parts"}
_PARTS = ("fp", "fn", "tp", "tn")
_LABEL_TYPES = (str, int, float, bool)
#: A version as packaging writes one (``0.1.0.dev0``, ``1.2+local.3``).
_VERSION = re.compile(r"[0-9][0-9A-Za-z.+!_-]{0,39}")


def _fail(path: str, message: str) -> UsageError:
    return UsageError(f"--model {path}: {message}; refusing it")


def check_metadata(metadata: dict[str, Any], path: str, format_: str) -> None:
    """Refuse metadata that ``costsense fit`` would not write, naming the field."""
    from costsense.experiments import BASE_NAMES, CATALOG, check_pair

    if metadata.get("format") != format_:
        raise UsageError(
            f"--model {path} has format {str(metadata.get('format'))[:40]!r}; this "
            f"costsense reads {format_!r} only (a file of an earlier version): fit "
            "the model again"
        )
    name, base = metadata.get("model"), metadata.get("base")
    if name not in CATALOG:
        raise _fail(path, f"its metadata names an unknown model {str(name)[:40]!r}")
    if base is not None and (base not in BASE_NAMES or check_pair(name, base)):
        raise _fail(path, f"its metadata names base {str(base)[:40]!r} for {name}")
    columns = metadata.get("columns")
    if (
        not isinstance(columns, dict)
        or not columns
        or not all(isinstance(c, str) and kind in _KINDS for c, kind in columns.items())
    ):
        raise _fail(path, "its metadata's columns are not a map of names to kinds")
    if metadata.get("missing") not in MISSING:
        raise _fail(path, "its metadata's missing-value policy is unknown")
    classes = metadata.get("classes")
    if (
        not isinstance(classes, list)
        or len(classes) < 2
        or not all(isinstance(c, _LABEL_TYPES) for c in classes)
        or len({repr(c) for c in classes}) != len(classes)
    ):
        raise _fail(path, "its metadata's classes are not two or more distinct labels")
    if metadata.get("pos_label") not in classes and not (
        len(classes) > 2 and metadata.get("pos_label") is None
    ):
        raise _fail(path, "its metadata's positive class is not one of its classes")
    fields = (("costsense_version", str), ("rows", int), ("seed", int),
              ("trained", str))  # fmt: skip
    for field, kind in fields:
        if not isinstance(metadata.get(field), kind):
            raise _fail(path, f"its metadata has no {field}")
    _check_provenance(metadata, path)
    if not isinstance(metadata.get("target"), str):
        raise _fail(path, "its metadata has no target")
    ignored = metadata.get("ignored", [])
    if not isinstance(ignored, list) or not all(isinstance(c, str) for c in ignored):
        raise _fail(path, "its metadata's ignored columns are not a list of names")
    if not isinstance(metadata.get("id_column"), str | None):
        raise _fail(path, "its metadata's id column is not a name")
    marks = metadata.get("number_marks", {})
    if not isinstance(marks, dict) or not all(
        columns.get(c) == "numeric" and mark in (".", ",") for c, mark in marks.items()
    ):
        raise _fail(
            path,
            "its metadata's number marks are not a map of numeric columns to '.' "
            "or ','",
        )
    _check_cost(metadata, len(classes), path)


def _check_provenance(metadata: dict[str, Any], path: str) -> None:
    """Hold the printed provenance to the forms ``costsense fit`` writes.

    ``predict`` prints the training time and the version beside whether the file
    is signed; a carriage return or an escape sequence in either could draw
    "signature verified" over "unsigned" on a terminal, so each must be what fit
    writes (a UTC time in seconds, a version number), nothing else.
    """
    from datetime import datetime

    trained = metadata["trained"]
    try:
        written = datetime.fromisoformat(trained).isoformat(timespec="seconds")
    except ValueError:
        written = None
    if written != trained:
        raise _fail(
            path,
            f"its metadata's training time {printable(trained, 60)} is not a time "
            "as costsense fit writes it",
        )
    if not _VERSION.fullmatch(metadata["costsense_version"]):
        raise _fail(
            path,
            f"its metadata's costsense version "
            f"{printable(metadata['costsense_version'], 60)} is not a version",
        )


def model_cost(cost: dict[str, Any]) -> NDArray[np.float64]:
    """Give the class-level cost a model is built with, from its metadata's ``cost``.

    ``costsense fit`` builds its model with it and :func:`check_model` rebuilds the
    reference pipeline with it, so the two cannot drift apart.

    Parameters
    ----------
    cost : dict
        The ``cost`` field of a model file's metadata.

    Returns
    -------
    ndarray of shape (K, K)
    """
    return np.asarray(cost["matrix"], dtype=np.float64)


def _is_cost(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _check_cost(metadata: dict[str, Any], n_classes: int, path: str) -> None:
    from costsense.costs import parts_matrix
    from costsense.utils._tables import part_columns

    cost = metadata.get("cost")
    if not isinstance(cost, dict):
        raise _fail(path, "its metadata has no cost")
    matrix = cost.get("matrix")
    try:
        values = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError):
        values = np.empty(0)
    if values.shape != (n_classes, n_classes) or not (
        np.all(np.isfinite(values)) and np.all(values >= 0)
    ):
        raise _fail(
            path,
            f"its metadata's cost matrix is not {n_classes} x {n_classes} finite "
            "non-negative costs",
        )
    kind, parts = cost.get("kind"), cost.get("parts")
    if kind not in _COST_KINDS or (kind == "parts") != (parts is not None):
        raise _fail(path, "its metadata's cost kind is not one fit writes")
    columns, features = cost.get("columns"), cost.get("columns_are_features")
    if not isinstance(features, bool):
        raise _fail(path, "its metadata does not say whether cost columns are features")
    if parts is None:
        if columns != []:
            raise _fail(path, "its metadata's cost columns come with no cost parts")
        return
    if (
        not isinstance(parts, dict)
        or sorted(parts) != sorted(_PARTS)
        or not all(isinstance(v, str) or _is_cost(v) for v in parts.values())
    ):
        raise _fail(
            path,
            "its metadata's cost parts are not fp, fn, tp, tn, each a finite cost "
            ">= 0 or a column name",
        )
    if n_classes != 2 or metadata.get("pos_label") is None:
        raise _fail(path, "its metadata gives cost parts for more than two classes")
    if columns != part_columns(parts):
        raise _fail(path, "its metadata's cost columns are not those of its parts")
    features_of = metadata["columns"]
    if metadata.get("target") in columns:
        raise _fail(path, "its metadata names the target as a cost column")
    if features and not all(features_of.get(c) == "numeric" for c in columns):
        raise _fail(
            path,
            "its metadata says the cost columns are features, but they are not "
            "numeric features",
        )
    if not features and any(c in features_of for c in columns):
        raise _fail(
            path,
            "its metadata says the cost columns are not features, but lists them "
            "as features",
        )
    # the matrix is the mean of the training rows' matrices: where a part is a
    # constant, its entry is that constant (a column's entry is its mean)
    classes, pos_label = np.asarray(metadata["classes"]), metadata["pos_label"]
    constants = parts_matrix(
        {k: 0.0 if isinstance(v, str) else float(v) for k, v in parts.items()},
        classes,
        pos_label,
    )
    from_columns = parts_matrix(
        {k: 1.0 if isinstance(v, str) else 0.0 for k, v in parts.items()},
        classes,
        pos_label,
    )
    fixed = from_columns == 0
    if not np.allclose(values[fixed], constants[fixed], rtol=1e-12, atol=0):
        raise _fail(
            path,
            f"its metadata's cost matrix {values.tolist()} does not hold its "
            f"constant cost parts {parts}",
        )


def check_model(model: Any, metadata: dict[str, Any], path: str) -> None:
    """Refuse a constructed pipeline that is not what its metadata describes."""
    reference = _reference(metadata)
    if type(model) is not type(reference) or _steps(model) != _steps(reference):
        raise _fail(
            path,
            f"its model is a {type(model).__name__} with steps {_steps(model)}, not "
            f"the pipeline costsense fit builds for model {metadata['model']}",
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
                f"its metadata does not match the stored model: {_field(key)} (the "
                f"model's {key} is {_show(stored.get(key))}, the metadata implies "
                f"{_show(expected.get(key))})",
            )
    classes = [c.item() if isinstance(c, np.generic) else c for c in model.classes_]
    if classes != metadata["classes"]:
        raise _fail(
            path,
            f"its metadata's classes {metadata['classes']} are not the model's "
            f"classes {classes}",
        )
    fitted = list(getattr(model.steps[0][1], "feature_names_in_", []))
    if fitted != list(metadata["columns"]):
        raise _fail(
            path,
            f"its metadata's columns {list(metadata['columns'])} are not the "
            f"columns the model was fitted on {fitted}",
        )
    # the model's input: what the scaling step (before it) takes and gives
    width = getattr(model.steps[-2][1], "n_features_in_", None)
    if not isinstance(width, (int, np.integer)) or width < 1:
        raise _fail(path, "its model has no input width")
    _check_trees(model, int(width), path)


def _reference(metadata: dict[str, Any]) -> Any:
    """Build the unfitted pipeline ``costsense fit`` builds from this metadata."""
    from costsense.experiments import default_base, make_model
    from costsense.utils._reading import make_encoder

    name = metadata["model"]
    return make_model(
        name,
        base=metadata["base"] or default_base(name),
        cost=model_cost(metadata["cost"]),
        pos_label=metadata["pos_label"],
        seed=metadata["seed"],
        prepare=make_encoder(
            metadata["columns"],
            metadata["missing"],
            metadata.get("number_marks", {}),
            metadata["cost"]["parts"],
        ),
    )


def _steps(pipeline: Any) -> list[tuple[str, str]]:
    steps = getattr(pipeline, "steps", None)
    if not isinstance(steps, list):
        return []
    return [
        (str(step[0]), f"{type(step[1]).__module__}.{type(step[1]).__qualname__}")
        if isinstance(step, tuple) and len(step) == 2
        else ("?", "?")
        for step in steps
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
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
        except TypeError:
            return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    try:
        return bool(a == b) and type(a) is type(b) or _same_number(a, b)
    except (TypeError, ValueError):
        return False


def _same_number(a: Any, b: Any) -> bool:
    numbers = (int, float, np.integer, np.floating, str, np.str_, bool, np.bool_)
    return isinstance(a, numbers) and isinstance(b, numbers) and bool(a == b)


def _field(key: str) -> str:
    """Name the metadata field a pipeline parameter comes from."""
    last = key.rsplit("__", 1)[-1]
    if last == "number_marks":
        return "number marks"
    if last == "missing":
        return "missing-value policy"
    if "cost" in last:
        return "cost"
    if key.startswith("prepare"):
        return "columns or missing-value policy"
    if last == "pos_label":
        return "positive class"
    if last == "random_state":
        return "seed"
    return "model or base"


def _show(value: Any) -> str:
    if hasattr(value, "get_params"):
        return type(value).__name__
    text = repr(value.tolist() if isinstance(value, np.ndarray) else value)
    return text if len(text) <= 120 else text[:117] + "..."


# ----------------------------------------------------------------- fitted trees
_SCALARS = (np.generic, str, bytes, int, float, bool, type(None))


def _reachable(root: Any, width: int) -> Iterator[tuple[Any, int]]:
    """Every object reachable from ``root``, with the input width it can be given.

    The walk enters attributes, lists, tuples, sets, dicts (keys and values) and
    object arrays, so nothing a model can call is out of its sight. An estimator
    validates its input against its ``n_features_in_`` (or is handed its parent's
    validated input, or a column subset of it), so an object below estimators of
    widths ``w1, w2, ...`` never sees more than the least of them and ``width``:
    that bound comes with each object. An object reached again by a narrower way
    is given again with the narrower bound.
    """
    narrowest: dict[int, int] = {}
    stack: list[tuple[Any, int]] = [(root, width)]
    while stack:
        value, bound = stack.pop()
        if isinstance(value, _SCALARS) or narrowest.get(id(value), bound + 1) <= bound:
            continue
        narrowest[id(value)] = bound
        if isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                stack.extend((item, bound) for item in value.ravel().tolist())
        elif isinstance(value, (list, tuple, set, frozenset)):
            stack.extend((item, bound) for item in value)
        elif isinstance(value, dict):
            stack.extend((item, bound) for item in value.keys())
            stack.extend((item, bound) for item in value.values())
        else:
            attributes = getattr(value, "__dict__", {})
            own = attributes.get("n_features_in_")
            if isinstance(own, (int, np.integer)) and not isinstance(own, bool):
                bound = min(bound, int(own))
            yield value, bound
            stack.extend((item, bound) for item in attributes.values())


def _check_trees(model: Any, width: int, path: str) -> None:
    """Refuse any fitted tree whose indices a compiled predictor could follow out.

    Each tree is held to the narrowest input on its way from the pipeline's input
    (:func:`_reachable`), checked once here so no prediction checks a row.
    """
    from costsense.tree import BoostedTreesClassifier, PackedForest, Tree
    from costsense.utils._compat import fitted_tree_types

    SklearnTree, TreePredictor, BinMapper, record = fitted_tree_types()  # noqa: N806

    reachable = list(_reachable(model, width))  # walked once, read twice
    for value, bound in reachable:
        if isinstance(value, SklearnTree):
            ok = _sklearn_tree_ok(value, bound)
        elif isinstance(value, TreePredictor):
            ok = _predictor_ok(value.nodes, bound, record)
        elif isinstance(value, Tree):
            ok = _costsense_tree_ok(value, bound)
        elif isinstance(value, PackedForest):
            ok = _packed_ok(value, bound)
        elif isinstance(value, BinMapper):
            # categorical features make gradient boosting fill bitsets indexed by
            # the stored category values; costsense encodes categories before it
            categorical = value.__dict__.get("is_categorical_")
            ok = categorical is None or (
                isinstance(categorical, np.ndarray) and not np.any(categorical)
            )
        else:
            continue
        if not ok:
            raise _fail(
                path,
                f"a fitted {type(value).__name__} has node or feature indices outside "
                "its arrays or the model's input",
            )
    for value, _ in reachable:
        if isinstance(value, BoostedTreesClassifier):
            n_classes = len(getattr(value, "classes_", ()))
            outputs = 1 if n_classes == 2 else n_classes
            trees = getattr(value, "trees_", None)
            if not isinstance(trees, PackedForest) or trees.values[0].shape[1] != (
                outputs
            ):
                raise _fail(path, "boosted trees' values do not match their classes")
        tree = getattr(value, "tree_", None)
        if isinstance(tree, Tree):
            classes = getattr(value, "classes_", None)
            expected = 1 if classes is None else 2 * len(classes)
            if tree.value.ndim != 2 or tree.value.shape[1] != expected:
                raise _fail(path, "a fitted tree's values do not match its classes")
        forest_classes = getattr(value, "classes_", None)
        members = getattr(value, "estimators_", None)
        if forest_classes is not None and isinstance(members, (list, np.ndarray)):
            for member in members:
                inner = getattr(member, "tree_", None)
                if isinstance(inner, Tree) and inner.value.shape[1] != 2 * len(
                    forest_classes
                ):
                    raise _fail(path, "a forest's tree values do not match its classes")


def _forward(left: Any, right: Any, inner: Any, n: int) -> bool:
    """Check that internal nodes point forward inside the arrays (walks end)."""
    index = np.flatnonzero(inner)
    return bool(
        np.all(left[index] > index)
        and np.all(right[index] > index)
        and np.all(left[index] < n)
        and np.all(right[index] < n)
    )


def _sklearn_tree_ok(tree: Any, width: int) -> bool:
    n = int(tree.node_count)
    if tree.capacity < n or tree.n_outputs != 1 or tree.n_features > width:
        return False
    left, right, feature = tree.children_left, tree.children_right, tree.feature
    inner = left != -1
    leaves_ok = np.all(right[~inner] == -1)
    features_ok = np.all((feature[inner] >= 0) & (feature[inner] < width))
    return bool(
        left.shape == (n,)
        and leaves_ok
        and features_ok
        and tree.value.shape[0] == n
        and _forward(left, right, inner, n)
    )


def _predictor_ok(nodes: Any, width: int, record: np.dtype[Any]) -> bool:
    if not isinstance(nodes, np.ndarray) or nodes.ndim != 1 or nodes.size == 0:
        return False
    if nodes.dtype != record:
        return False
    n = nodes.shape[0]
    inner = nodes["is_leaf"] == 0
    feature = nodes["feature_idx"][inner]
    return bool(
        np.all(nodes["is_categorical"] == 0)
        and np.all((feature >= 0) & (feature < width))
        and _forward(nodes["left"], nodes["right"], inner, n)
    )


def _costsense_tree_ok(tree: Any, width: int) -> bool:
    arrays = (
        tree.feature, tree.threshold, tree.children_left, tree.children_right,
        tree.impurity, tree.n_node_samples, tree.weighted_n_node_samples,
    )  # fmt: skip
    n = tree.feature.shape[0] if isinstance(tree.feature, np.ndarray) else 0
    if n == 0 or any(not isinstance(a, np.ndarray) or a.shape != (n,) for a in arrays):
        return False
    if not isinstance(tree.value, np.ndarray) or tree.value.shape[0] != n:
        return False
    left, right = tree.children_left, tree.children_right
    inner = left >= 0
    index = np.flatnonzero(inner)
    return bool(
        np.all(left[index] == index + 1)  # pre-order: the left child comes next
        and np.all(left[~inner] == -1)
        and np.all(right[~inner] == -1)
        and np.all((tree.feature[index] >= 0) & (tree.feature[index] < width))
        and _forward(left, right, inner, n)
    )


def _packed_ok(packed: Any, width: int) -> bool:
    """Check concatenated pre-order trees (a ``PackedForest``).

    Every walk of the compiled predictor must stay inside its tree: the roots
    increase from 0 to the node count, an inner node's left child (the next node)
    and right child lie after it and inside its tree, and it tests a feature of
    the input.
    """
    arrays = (packed.feature, packed.threshold, packed.right, packed.roots)
    kinds = (np.int64, np.float64, np.int64, np.int64)
    if not isinstance(packed.values, tuple) or len(packed.values) == 0:
        return False
    if any(
        not isinstance(a, np.ndarray) or a.ndim != 1 or a.dtype != kind
        for a, kind in zip(arrays, kinds, strict=True)
    ):
        return False
    n = packed.feature.shape[0]
    roots = packed.roots
    if n == 0 or packed.threshold.shape != (n,) or packed.right.shape != (n,):
        return False
    if any(
        not isinstance(v, np.ndarray) or v.ndim != 2 or v.shape[0] != n
        or v.dtype != np.float64
        for v in packed.values
    ):  # fmt: skip
        return False
    if roots.size < 2 or roots[0] != 0 or roots[-1] != n or np.any(np.diff(roots) < 1):
        return False
    index = np.flatnonzero(packed.feature >= 0)
    end = roots[np.searchsorted(roots, index, side="right")]  # each node's tree end
    right = packed.right[index]
    return bool(
        np.all(packed.feature[index] < width)
        and np.all(index + 1 < end)
        and np.all(right > index + 1)
        and np.all(right < end)
    )
