"""The one cost value, :class:`Costs`, resolved once and passed down whole.

:func:`row_cost_matrices` reads the rows being decided. Change it when a layer needs
a new derived form of the costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._decision import bayes_decision
from ._labels import _class_indices, _label_index, _minority_label, _plain
from ._layouts import class_means, cost_reduction, read_layout, task_scores
from ._matrix import FreeErrors, _cost_kind, _pair, as_cost_matrix

__all__ = ["Costs", "row_cost_matrices"]

FloatArray = NDArray[np.float64]


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
        A layout of :mod:`costsense.costs` that prices every outcome of a row
        (costs given the true class are refused).
    classes : array-like of shape (K,)
        The labels; matrices follow their order.
    pos_label : hashable, default=None
        The positive class (for the binary layouts).
    n_samples : int, default=None
        Expected number of rows (the rows of ``X``), checked if given.

    Returns
    -------
    ndarray of shape (n_samples, K, K)
        ``out[r, i, j]``: for row ``r``, the cost of predicting ``classes[j]`` when
        the truth is ``classes[i]``. Any finite values.
    """
    classes = np.asarray(classes)
    if isinstance(sample_cost, Costs):
        sample_cost = sample_cost._layout(classes)
    if n_samples is None:
        n_samples = np.shape(sample_cost)[0] if np.ndim(sample_cost) else 0
    _, matrices = read_layout(sample_cost, classes, pos_label, n_samples)
    assert matrices is not None  # read_layout refuses the others without y
    return matrices


@dataclass(frozen=True, eq=False)
class Costs:
    """The one cost value: resolved once, passed down whole, every form derived.

    Any ``cost`` or ``sample_cost`` of :mod:`costsense.costs` is resolved once by
    :meth:`resolve` against its labels; every layer asks the value for the form
    it needs (``matrix``, ``pair``, ``rows``, :meth:`reduction`,
    :meth:`task_scores`, :meth:`decide`).

    Attributes
    ----------
    classes : ndarray of shape (K,)
        The labels, in the order of the matrices' rows and columns (sorted).
    pos_label : label or None
        The positive (costly) class of a binary problem, None for more classes.
    matrix : ndarray of shape (K, K)
        Class-level cost matrix, diagonal included; for per-row costs, the mean
        cost row of each true class (a summary, see :mod:`costsense.costs`).
    kind : str
        How the cost was given: "balanced" (``None`` or ``"balanced"``), "unit",
        "ratio", "pair", "matrix" or "per-row" (``sample_cost``).
    rows : ndarray of shape (n_samples, K) or None
        ``rows[i, j]``: cost of predicting ``classes[j]`` for row ``i`` of known
        class (None for costs not resolved against labels).
    y_index : ndarray of shape (n_samples,) or None
        Index of each row's true class in ``classes`` (None without labels).
    per_row : ndarray of shape (n_samples, K, K) or None
        One true cost matrix per row, diagonal included, for the layouts that
        price every outcome of a row; None otherwise.
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
        """Resolve a cost against its labels: every reader of ``sample_cost`` calls it.

        Every layout of :mod:`costsense.costs` is accepted, any other refused
        naming ``sample_cost`` and the layouts.

        Parameters
        ----------
        cost : None, "balanced", "unit", float, pair, array-like of shape (K, K), \
DataFrame or dict
            Class-level cost (:mod:`costsense.costs`), unless ``sample_cost``.
        y : array-like of shape (n_samples,)
            Labels.
        classes : array-like of shape (K,), default=None
            Sorted labels; ``np.unique(y)`` if None.
        pos_label : hashable, default=None
            Positive class of a binary problem; the minority class if None.
        sample_cost : Costs, ExampleCosts or array-like, default=None
            Per-row costs in one of the layouts of :mod:`costsense.costs`
            (``(n, K)``, ``(n, K, K)``, for two classes named parts, ``(n, 4)``
            or :class:`ExampleCosts`), or a :class:`Costs` of per-row costs already
            resolved for the same classes (as a command passes them to a fit).
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the rows in the class frequencies (balanced costs, the
            minority class).

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
            sample_cost = sample_cost._layout(classes)
        if sample_cost is None:
            matrix = as_cost_matrix(
                cost, classes, resolved_pos, y=y, sample_weight=sample_weight
            )
            kind = _cost_kind(cost)
            return cls(classes, resolved_pos, matrix, kind, matrix[index], index)
        rows, per_row = read_layout(
            sample_cost, classes, resolved_pos, y.shape[0], index
        )
        assert rows is not None  # read against y
        matrix = class_means(rows, index, classes.size)
        return cls(classes, resolved_pos, matrix, "per-row", rows, index, per_row)

    @classmethod
    def unchecked(cls, matrix: ArrayLike, y: ArrayLike) -> Costs:
        """Take a ``(K, K)`` matrix over the sorted labels of ``y``, unvalidated.

        For a command that leaves each model to accept or refuse the matrix (a
        multiclass cross-validation reports a refusal per fold). No positive class.

        Parameters
        ----------
        matrix : array-like of shape (K, K)
            ``matrix[i, j]``: cost of predicting class ``j`` for a class-``i`` row.
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
        """Mean of ``per_row`` over all rows, else ``matrix`` (what commands record)."""
        if self.per_row is None:
            return self.matrix
        return np.asarray(self.per_row.mean(axis=0), dtype=np.float64)

    def _resolved_for(
        self, classes: NDArray[Any], pos_label: Any, y_index: NDArray[np.intp]
    ) -> bool:
        """Whether these per-row costs are resolved for exactly these rows."""
        return bool(
            self.example_dependent
            and self.y_index is not None
            and np.array_equal(self.classes, classes)
            and _plain(self.pos_label) == _plain(pos_label)
            and np.array_equal(self.y_index, y_index)
        )

    def _layout(self, classes: ArrayLike) -> FloatArray:
        """Return the per-row costs as a layout (matrices, else rows)."""
        classes = np.asarray(classes)
        if not np.array_equal(classes, self.classes):
            raise ValueError(
                f"sample_cost was resolved for the classes {self.classes.tolist()[:10]}"
                f", but the classes here are {classes.tolist()[:10]}."
            )
        if not self.example_dependent or self.rows is None:
            raise ValueError(
                "sample_cost is a class-level Costs; pass it as cost, or give "
                "per-row costs."
            )
        return self.rows if self.per_row is None else self.per_row

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

        ``C1 = matrix[pos, neg] - matrix[pos, pos]``, ``C2 = matrix[neg, pos] -
        matrix[neg, neg]`` (each row's diagonal subtracted, which changes no
        decision); binary problems only.
        """
        if self.pos_label is None:
            raise ValueError(
                f"a pair (C1, C2) needs a binary problem; there are "
                f"{self.classes.size} classes."
            )
        try:
            return _pair(self.matrix, self.classes, self.pos_label)
        except FreeErrors as error:  # per-row costs: their class means
            if self.kind != "per-row":
                raise
            label = _plain(self.classes[error.index])
            raise FreeErrors(
                f"sample_cost: on average over the rows of class {label!r}, its "
                "error costs no more than being right (the class means are "
                f"{np.round(self.matrix, 6).tolist()}), and this model learns from "
                "the mean costs (C1, C2): give rows whose errors cost more than being "
                "right on average, or a model that learns each row's costs "
                "(MinimumCostClassifier, CostWeighting).",
                error.index,
            ) from None

    def _labelled_rows(self) -> tuple[FloatArray, NDArray[np.intp]]:
        if self.rows is None or self.y_index is None:
            raise ValueError(
                "these costs were not resolved against labels; use Costs.resolve "
                "with the rows' labels y."
            )
        return self.rows, self.y_index

    def reduction(self) -> tuple[NDArray[np.intp], FloatArray]:
        """Class index and weight of each row for weight-based learners.

        :func:`cost_reduction` of ``rows``: each row's cheapest class and what
        another class costs more.

        Returns
        -------
        index : ndarray of shape (n_samples,)
        weight : ndarray of shape (n_samples,)
        """
        return cost_reduction(*self._labelled_rows())

    def task_scores(self) -> FloatArray:
        """Task-score labels of the rows (:func:`task_scores`, paper 004).

        Benefits (negative costs) are first shifted by one constant.

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
            default :attr:`decision_matrices`.

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
        if self.y_index is None:
            raise TypeError("class-level costs have no rows.")
        return int(self.y_index.shape[0])

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
            Per-row costs as resolved for the kept rows; class-level costs keep
            their ``matrix``.
        """
        index = np.asarray(indices)

        def pick(values: Any) -> Any:
            return None if values is None else values[index]

        rows, y_index = pick(self.rows), pick(self.y_index)
        matrix = self.matrix
        if self.example_dependent and rows is not None and y_index is not None:
            matrix = class_means(rows, y_index, self.classes.size)
        per_row = pick(self.per_row)
        return Costs(
            self.classes, self.pos_label, matrix, self.kind, rows, y_index, per_row
        )

    def __getitem__(self, key: Any) -> Costs:
        """Rows of the costs (``costs[train]``), as :meth:`take`."""
        if isinstance(key, tuple):  # scikit-learn's ``array[key, ...]``
            key = key[0]
        return self.take(key)

    def __repr__(self) -> str:
        rows = "" if self.rows is None else f", n_samples={len(self)}"
        return (
            f"Costs(kind={self.kind!r}, classes={self.classes.tolist()[:10]}, "
            f"pos_label={_plain(self.pos_label)!r}{rows})"
        )
