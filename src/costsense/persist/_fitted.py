"""A constructed model's fitted arrays, checked before it predicts anything.

Compiled predictors (scikit-learn's and costsense's trees, gradient boosting's
predictors) index their arrays without bounds checks, so an edited index would
read outside memory. :func:`check_fitted` holds each fitted tree reachable from
the model to its arrays and to the narrowest input on its way: costsense's types
check themselves (``_check_loaded(width)`` says what is wrong, or None);
scikit-learn's are checked here, since we cannot add methods to them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from costsense.persist._archive import fail

_SCALARS = (np.generic, str, bytes, int, float, bool, type(None))
#: The widest input a model without ``n_features_in_`` is held to.
UNBOUNDED = 2**62


def reachable(root: Any, width: int) -> Iterator[tuple[Any, int]]:
    """Every object reachable from ``root``, with the input width it can be given.

    The walk enters attributes, lists, tuples, sets, dicts and object arrays, so
    nothing a model can call is out of its sight. An estimator validates its input
    against its ``n_features_in_`` (or gets a subset of its parent's), so an object
    below estimators of widths ``w1, w2, ...`` sees at most the least of them and
    ``width``; an object reached again by a narrower way is given again.
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
        elif isinstance(value, list | tuple | set | frozenset):
            stack.extend((item, bound) for item in value)
        elif isinstance(value, dict):
            stack.extend((item, bound) for item in [*value.keys(), *value.values()])
        else:
            attributes = getattr(value, "__dict__", {})
            own = attributes.get("n_features_in_")
            if isinstance(own, int | np.integer) and not isinstance(own, bool):
                bound = min(bound, int(own))
            yield value, bound
            stack.extend((item, bound) for item in attributes.values())


def check_fitted(model: Any, width: int, path: str) -> None:
    """Refuse any fitted tree whose indices a compiled predictor could follow out.

    Parameters
    ----------
    model : object
        The constructed model.
    width : int
        The widest input the model can be given (:data:`UNBOUNDED`: only its
        estimators' own ``n_features_in_`` bound it).
    path : str
        The file, for the message.
    """
    from costsense.utils._compat import fitted_tree_types

    SklearnTree, TreePredictor, BinMapper, record = fitted_tree_types()  # noqa: N806
    indices = "node or feature indices outside its arrays or the model's input"
    for value, bound in reachable(model, width):
        own = getattr(type(value), "_check_loaded", None)
        if own is not None:
            try:
                problem = own(value, bound)
            except Exception as error:  # an attribute of another kind or shape
                problem = f"malformed ({type(error).__name__})"
        elif isinstance(value, SklearnTree):
            problem = None if _sklearn_tree_ok(value, bound) else indices
        elif isinstance(value, TreePredictor):
            problem = None if _predictor_ok(value.nodes, bound, record) else indices
        elif isinstance(value, BinMapper):
            # categorical features make gradient boosting fill bitsets indexed by
            # the stored category values; costsense encodes categories before it
            categorical = value.__dict__.get("is_categorical_")
            ok = categorical is None or (
                isinstance(categorical, np.ndarray) and not np.any(categorical)
            )
            problem = None if ok else "categorical features (costsense encodes them)"
        else:
            continue
        if problem is not None:
            raise fail(path, f"a fitted {type(value).__name__} has {problem}")


def forward(left: Any, right: Any, inner: Any, n: int) -> bool:
    """Whether internal nodes point forward inside the arrays (walks end)."""
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
    return bool(
        left.shape == (n,)
        and np.all(right[~inner] == -1)
        and np.all((feature[inner] >= 0) & (feature[inner] < width))
        and tree.value.shape[0] == n
        and forward(left, right, inner, n)
    )


def _predictor_ok(nodes: Any, width: int, record: np.dtype[Any]) -> bool:
    if not isinstance(nodes, np.ndarray) or nodes.dtype != record or nodes.ndim != 1:
        return False
    inner = nodes["is_leaf"] == 0
    feature = nodes["feature_idx"][inner]
    return bool(
        nodes.size > 0
        and np.all(nodes["is_categorical"] == 0)
        and np.all((feature >= 0) & (feature < width))
        and forward(nodes["left"], nodes["right"], inner, nodes.shape[0])
    )
