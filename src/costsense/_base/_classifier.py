"""ClassifierBase: the fit start-up and predict-time checks every classifier shares.

Data, weights, the costs resolved once (``sample_cost`` used or refused), the
end-of-fit degeneracy check and the per-row decision. Change it when every
classifier's fit or predict changes alike.
"""

from __future__ import annotations

import inspect
import reprlib
import warnings
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

from costsense.costs import Costs
from costsense.costs import _plain as _plain_value
from costsense.exceptions import CostWarning, DegenerateModelWarning
from costsense.utils._compat import _check_sample_weight, validate_data
from costsense.utils._stack import caller_level

from ._degenerate import _INNER_FIT

__all__ = [
    "ClassifierBase",
    "FitStart",
    "learns_row_costs",
    "refuse_fit_params",
]

FloatArray = NDArray[np.float64]

#: Fitted models that have issued their CostWarning (each warns once per fit).
_COST_WARNED: weakref.WeakSet[Any] = weakref.WeakSet()


def refuse_fit_params(
    estimator: Any, fit_params: Mapping[str, Any], counterpart: str
) -> None:
    """Refuse ``fit`` arguments of a cost-blind estimator (TypeError).

    ``sample_cost`` is refused naming ``counterpart`` (what takes per-row costs).
    """
    name = type(estimator).__name__
    if "sample_cost" in fit_params:
        raise TypeError(
            f"{name}.fit does not take sample_cost: {name} is cost-blind (no cost "
            f"enters its training). For per-row costs use {counterpart}."
        )
    if fit_params:
        unknown = ", ".join(repr(key) for key in sorted(fit_params))
        raise TypeError(f"{name}.fit got unexpected keyword arguments: {unknown}.")


@dataclass(frozen=True)
class FitStart:
    """The validated training data of one fit (``cost`` None without costs)."""

    X: FloatArray
    y: NDArray[Any]
    y_index: NDArray[np.intp]
    sample_weight: FloatArray | None
    cost: Costs | None


def learns_row_costs(estimator: Any) -> bool:
    """Whether ``estimator.fit`` uses per-row costs rather than refusing them."""
    takes = "sample_cost" in inspect.signature(estimator.fit).parameters
    return takes and getattr(estimator, "_row_costs", None) in ("rows", "matrices")


def members_summary(self: Any) -> dict[str, Any]:
    """Say what an ensemble's fit did: members kept and asked for (``rounds``)."""
    return {"rounds": len(self.estimators_), "rounds_planned": int(self.n_estimators)}


class ClassifierBase(ClassifierMixin, BaseEstimator):
    """The fit start-up and the predict-time validation every classifier shares."""

    #: What to try when the fitted model is constant (each family says its own).
    _degenerate_advice: ClassVar[str] = (
        "try a smaller cost, or a model with more capacity"
    )
    #: What ``fit`` does with ``sample_cost`` (:mod:`costsense.costs`): "rows"
    #: uses every layout per row, "matrices" only the layouts that price every
    #: outcome of a row; any other text is why ``fit`` refuses per-row costs.
    _row_costs: ClassVar[str] = "rows"

    def fit_summary(self) -> dict[str, Any]:
        """Say what the fit did, in plain values (what reports read of a model).

        Returns
        -------
        dict
            The keys this model has, of: ``stop_reason`` (a booster's
            ``stop_reason_``), ``rounds`` and ``rounds_planned`` (members kept
            and asked for), ``nonpositive_alpha`` (rounds kept with
            ``alpha <= 0``), ``n_iter`` and ``converged`` (a solver's),
            ``n_features_kept``, ``features_kept``, ``drop_round`` and
            ``feature_update`` (EFSBoost's feature selection). Empty here; each
            family says what its fit has.
        """
        return {}

    def _check_degenerate(
        self,
        y_pred: Any,
        *,
        n_kept: int | None = None,
        reason: str | None = None,
        advice: str | None = None,
    ) -> None:
        """Set ``degenerate_``; warn once if the fitted model is constant.

        Called at the end of every ``fit``: degenerate when it kept no round
        (``n_kept == 0``) or ``y_pred`` (its training rows' predictions) holds
        one class. ``degenerate_`` then says what and why (``reason``, else
        ``stop_reason_``); the warning (not inside :func:`inner_fits`) adds
        ``advice`` (else ``_degenerate_advice``).
        """
        found = []
        if n_kept == 0:
            found.append("kept no round")
        predicted = np.unique(np.asarray(y_pred))
        if predicted.size == 1 and self.classes_.size > 1:
            label = _plain_value(predicted[0])
            found.append(
                f"predicts only class {label!r} (one of its {self.classes_.size} "
                "classes) for every row of its own training data"
            )
        if not found:
            self.degenerate_: str | None = None
            return
        why = reason if reason is not None else getattr(self, "stop_reason_", None)
        finding = " and ".join(found)
        if why:
            finding += f" (why: {why})"
        self.degenerate_ = finding
        if not _INNER_FIT.get():
            warnings.warn(
                f"{type(self).__name__} {finding}. Its predictions are constant; "
                f"{advice or self._degenerate_advice}.",
                DegenerateModelWarning,
                stacklevel=caller_level(),
            )

    def _start_fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
        *,
        binary: bool = False,
        costs: bool = True,
        **check_params: Any,
    ) -> FitStart:
        """Validate the training data; set ``classes_`` and, with costs, the costs.

        ``sample_cost`` is used or refused as ``_row_costs`` says; ``binary``
        refuses more than two classes (in the wording scikit-learn's checks look
        for); ``costs`` resolves ``cost`` (C1 = C2 = 1 without one) and
        ``pos_label`` into ``cost_matrix_`` and ``pos_label_``;
        ``check_params`` go to ``validate_data``.
        """
        X, y = validate_data(self, X, y, **check_params)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(
                f"y has only one class ({_plain_value(self.classes_[0])!r}); a "
                "classifier needs at least two classes to learn from."
            )
        if binary and self.classes_.size > 2:
            raise ValueError(
                "Only binary classification is supported. The type of the target "
                f"is {type_of_target(y)}."
            )
        weight = None
        if sample_weight is not None:
            # scikit-learn refuses negative weights and all-zero weights
            weight = _check_sample_weight(
                sample_weight, X, dtype=np.float64, ensure_non_negative=True
            )
        name = type(self).__name__
        if sample_cost is not None and self._row_costs not in ("rows", "matrices"):
            raise TypeError(
                f"{name}.fit does not take sample_cost: {self._row_costs}. Give "
                "class-level costs as cost=..., and each row's own costs to "
                "predict(X, sample_cost=...)."
            )
        resolved = None
        if costs:
            resolved = self._resolve_costs(y, sample_cost, weight)
            if self._row_costs == "matrices" and resolved.kind == "per-row":
                if resolved.per_row is None:  # never the class means instead
                    raise ValueError(
                        f"{name} prices every class for each training row; "
                        "sample_cost of shape (n_samples,) or (n_samples, K) does "
                        "not. Give (n_samples, K, K) matrices, or for two classes "
                        "(n_samples, 4) rows or example_costs(...)."
                    )
        return FitStart(
            X=cast(FloatArray, X),
            y=cast(NDArray[Any], y),
            y_index=np.searchsorted(self.classes_, y),
            sample_weight=weight,
            cost=resolved,
        )

    def _resolve_costs(
        self, y: ArrayLike, sample_cost: Any, sample_weight: Any = None
    ) -> Costs:
        """Resolve ``cost``, or ``sample_cost`` instead, against the labels ``y``.

        Sets ``cost_matrix_``, ``pos_label_`` and whether the fit learnt per-row
        costs (:meth:`_decision_costs` reads it). ``cost`` other than None (or
        the class's default) together with ``sample_cost`` is refused: the rows'
        costs would replace it unseen. A class without ``cost`` is cost-blind
        (C1 = C2 = 1).
        """
        cost = getattr(self, "cost", 1.0)
        own = inspect.signature(type(self)).parameters.get("cost")
        default = None if own is None else own.default
        if sample_cost is not None and own is not None and cost is not None:
            if not (isinstance(cost, str) and cost == default):
                name = type(self).__name__
                raise ValueError(
                    f"{name}(cost={reprlib.repr(cost)}).fit got sample_cost too, "
                    "whose per-row costs would replace cost: build it with "
                    "cost=None to fit on the rows' costs, or drop sample_cost to "
                    "use cost."
                )
        resolved = Costs.resolve(
            cost,
            y,
            classes=self.classes_,
            pos_label=getattr(self, "pos_label", None),
            sample_cost=sample_cost,
            sample_weight=sample_weight,
        )
        self.cost_matrix_ = resolved.matrix
        self.pos_label_ = resolved.pos_label
        self._fitted_row_costs = resolved.example_dependent
        _COST_WARNED.discard(self)
        return resolved

    def _decision_costs(self, sample_cost: Any) -> Any:
        """Return the costs ``predict`` decides by: ``sample_cost``, None for means.

        ``sample_cost="mean"`` decides at the class-level ``cost_matrix_`` on
        purpose. None does too, with a :class:`~costsense.exceptions.CostWarning`
        when the fit learnt per-row costs (once per fitted model, in
        ``_COST_WARNED``; none inside an enclosing estimator's fit).
        """
        if isinstance(sample_cost, str) and sample_cost == "mean":
            return None
        name = type(self).__name__
        if sample_cost is None and getattr(self, "_fitted_row_costs", False):
            if not _INNER_FIT.get() and self not in _COST_WARNED:
                _COST_WARNED.add(self)
                warnings.warn(
                    f"{name} was fitted with per-row costs (sample_cost) and now "
                    "decides at its mean class costs (cost_matrix_): pass the "
                    "rows' own costs, predict(X, sample_cost=...), or "
                    'sample_cost="mean" to decide at the mean costs on purpose.',
                    CostWarning,
                    stacklevel=caller_level(),
                )
        return sample_cost

    def _validated(self, X: ArrayLike, **check_params: Any) -> FloatArray:
        """Check that the model is fitted, then validate ``X`` against the fit."""
        check_is_fitted(self)
        return validate_data(self, X, reset=False, **check_params)

    def _decide_rows(self, proba: FloatArray, sample_cost: Any) -> NDArray[Any]:
        """Labels of least expected cost, each row under its own costs.

        Every ``predict(X, sample_cost=...)``: the Bayes rule ``argmin_j sum_i
        P(i|x) M[i, j]`` (Zadrozny & Elkan 2001) on ``proba`` (``P(y|x)`` with
        the training costs taken out), ``M`` each row's matrix
        (:func:`costsense.costs.row_cost_matrices` reads ``sample_cost``).
        """
        costs = Costs(self.classes_, self.pos_label_, self.cost_matrix_)
        return self.classes_[costs.decide(proba, sample_cost)]

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
