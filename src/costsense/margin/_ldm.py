"""The large margin distribution machine (LDM) and its cost-sensitive version.

LDM is cost-blind; CS-LDM weighs each sample's hinge loss by its cost. The
objective and the solvers are in :mod:`costsense.margin._ldm_base`.

References
----------
.. [1] T. Zhang, Z.-H. Zhou, "Large margin distribution machine", KDD 2014.
.. [2] Paper 002 of this project (cost-sensitive LDM).
"""

from __future__ import annotations

from typing import Any, ClassVar

from numpy.typing import ArrayLike

from costsense._base import refuse_fit_params
from costsense.margin._ldm_base import _BaseLDM
from costsense.utils._compat import StrOptions, _fit_context
from costsense.utils._docstrings import documented

__all__ = ["CSLDMClassifier", "LDMClassifier"]


_SHARED_PARAMETERS = """\
    lambda1 : float, default=1.0
        Weight of the margin variance (the LDM paper's pairwise definition).
    lambda2 : float, default=1.0
        Weight of the margin mean (it is subtracted: larger means push margins up).
    C : float, default=1.0
        Weight of the (cost-weighted) hinge losses.
    kernel : {"linear", "rbf", "poly", "sigmoid"} or callable, default="linear"
        Kernel; a callable takes two arrays and returns their kernel matrix.
    gamma : "scale" or float, default="scale"
        Kernel coefficient of rbf, poly and sigmoid; "scale" is
        ``1 / (n_features * X.var())`` as in scikit-learn's SVC.
    degree : int, default=3
        Degree of the poly kernel.
    coef0 : float, default=0.0
        Constant of the poly and sigmoid kernels.
    solver : {"auto", "linear", "exact", "nystroem"}, default="auto"
        "linear": dual coordinate descent in the input space (linear kernel);
        "exact": the kernel dual with dense ``n x n`` matrices; "nystroem": the
        Nystroem approximation on ``n_components`` landmarks, solved by the linear
        solver. "auto": for the linear kernel "linear" while ``d + 1 <= n``, else
        "exact" (the same solution through ``n x n`` matrices); for other kernels
        "exact" up to ``exact_max_samples``, "nystroem" beyond. A named solver
        that needs more memory than the machine has raises
        :class:`~costsense.exceptions.MemoryBudgetError` before it allocates.
    n_components : int, default=300
        Nystroem landmarks (fewer if the sample repeats a row). Raise it when the
        held-out cost is above an exact kernel machine's; memory and time grow as
        ``n m`` and ``n m^2``.
    landmarks : {"random", "kmeans"}, default="random"
        Nystroem landmarks: a uniform sample of the training rows (as
        scikit-learn's Nystroem), or the centres of k-means started from that
        sample (Zhang, Tsang & Kwok 2008), which approximate stationary kernels
        such as rbf better at the same rank for the price of a k-means run.
    exact_max_samples : int, default=3000
        Largest training set the "auto" solver gives the exact kernel solver.
    fit_intercept : bool, default=True
        Learn an intercept (a constant feature, regularised as in liblinear).
    tol : float, default=1e-3
        Stop when the spread of the dual's projected gradient is below it.
    max_iter : int, default=100_000
        Maximum number of epochs; a ConvergenceWarning says when it is reached.
        Overlapping classes need thousands of epochs: lower it only to bound the
        time of a fit.
    {platt}
    random_state : int, RandomState instance or None, default=None
        Seeds the coordinate orders, the Nystroem sample and the Platt folds."""

_SHARED_ATTRIBUTES = """\
    {classes_}
    {pos_label_}
    cost_matrix_ : ndarray of shape (2, 2)
        Cost matrix in ``classes_`` order (all ones off the diagonal for LDM).
    costs_ : tuple of float
        ``(C1, C2)``.
    solver_ : str
        The solver used.
    coef_ : ndarray of shape (n_features,) or (n_landmarks,)
        ``w`` (linear solver, and the exact solver with the linear kernel); the
        coefficients ``v`` of ``K(x, landmarks_)`` (Nystroem solver).
    intercept_ : float
        The intercept (linear and Nystroem solvers, exact linear kernel).
    alpha_ : ndarray of shape (n_samples,)
        Representer coefficients ``a`` (exact solver only).
    X_fit_ : ndarray of shape (n_samples, n_features)
        Training samples (exact solver only).
    gamma_ : float
        The kernel coefficient used (exact and Nystroem solvers; not set for
        the linear kernel, which has none).
    landmarks_ : ndarray of shape (n_landmarks, n_features)
        The Nystroem solver's landmarks.
    dual_coef_ : ndarray of shape (n_samples,)
        The dual solution ``beta``.
    dual_objective_ : ndarray of shape (n_iter_,)
        Dual objective after each epoch (never increases).
    objective_ : float
        Primal objective at the solution.
    n_iter_ : int
        Epochs run.
    converged_ : bool
        Whether the stopping rule was met.
    platt_ : tuple of float
        ``(a, b)`` of ``P(+|x) = sigmoid(a f(x) + b)`` (``probability=True``).
    {fitted}"""


_documented = documented(_SHARED_PARAMETERS, _SHARED_ATTRIBUTES)


@_documented
class LDMClassifier(_BaseLDM):
    """Large margin distribution machine (Zhang & Zhou 2014).

    Maximises the margin mean and minimises the margin variance besides the
    hinge loss; see :mod:`costsense.margin._ldm_base` for the objective and
    the solvers.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.margin import LDMClassifier
    >>> X, y = make_classification(random_state=0)
    >>> model = LDMClassifier(random_state=0).fit(X, y)
    >>> bool(model.converged_)
    True
    """

    def __init__(
        self,
        *,
        lambda1: float = 1.0,
        lambda2: float = 1.0,
        C: float = 1.0,
        kernel: Any = "linear",
        gamma: Any = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        solver: str = "auto",
        n_components: int = 300,
        landmarks: str = "random",
        exact_max_samples: int = 3000,
        fit_intercept: bool = True,
        tol: float = 1e-3,
        max_iter: int = 100_000,
        probability: bool = False,
        cv: Any = 5,
        random_state: Any = None,
    ) -> None:
        self.lambda1 = lambda1
        self.lambda2 = lambda2
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.n_components = n_components
        self.landmarks = landmarks
        self.exact_max_samples = exact_max_samples
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.probability = probability
        self.cv = cv
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        **fit_params: Any,
    ) -> LDMClassifier:
        """Fit the LDM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies each sample's hinge loss.
        **fit_params : dict
            None is accepted. LDM is cost-blind: ``sample_cost`` is refused with
            a TypeError that names :class:`CSLDMClassifier`, which takes it.

        Returns
        -------
        self
            The fitted estimator.
        """
        refuse_fit_params(
            self,
            fit_params,
            "costsense.margin.CSLDMClassifier (the cost-sensitive LDM: each "
            "row's hinge loss weighs its own cost)",
        )
        return self._fit_all(X, y, sample_weight, None)


@_documented
class CSLDMClassifier(_BaseLDM):
    """Cost-sensitive LDM (paper 002): the hinge loss of sample ``i`` weighs ``c_i``.

    With equal costs it is :class:`LDMClassifier`.

    Parameters
    ----------
    {parameters}
    cost : None, "balanced", "unit", float, pair of floats or array-like of \
shape (2, 2), default=None
        What errors cost (:mod:`costsense.costs`); the positive (costly) class's
        slacks weigh ``C1``, the others' ``C2``, times ``C`` (see ``cost_unit``).
        None or "balanced": balanced costs; "unit": every error costs 1.
    {cost_unit}

    Attributes
    ----------
    {attributes}

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from costsense.margin import CSLDMClassifier
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> model = CSLDMClassifier(cost=10, random_state=0).fit(X, y)
    >>> model.costs_
    (10.0, 1.0)
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **_BaseLDM._parameter_constraints,
        "cost": "no_validation",
        "pos_label": "no_validation",
        "cost_unit": [StrOptions({"given", "cheaper"})],
    }

    def __init__(
        self,
        *,
        lambda1: float = 1.0,
        lambda2: float = 1.0,
        C: float = 1.0,
        kernel: Any = "linear",
        gamma: Any = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        solver: str = "auto",
        n_components: int = 300,
        landmarks: str = "random",
        exact_max_samples: int = 3000,
        fit_intercept: bool = True,
        tol: float = 1e-3,
        max_iter: int = 100_000,
        probability: bool = False,
        cv: Any = 5,
        cost: Any = None,
        pos_label: Any = None,
        cost_unit: str = "given",
        random_state: Any = None,
    ) -> None:
        self.lambda1 = lambda1
        self.lambda2 = lambda2
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.n_components = n_components
        self.landmarks = landmarks
        self.exact_max_samples = exact_max_samples
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.probability = probability
        self.cv = cv
        self.cost = cost
        self.pos_label = pos_label
        self.cost_unit = cost_unit
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        sample_cost: ArrayLike | None = None,
    ) -> CSLDMClassifier:
        """Fit the cost-sensitive LDM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training samples.
        y : array-like of shape (n_samples,)
            Binary labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies each sample's hinge loss.
        sample_cost : array-like or ExampleCosts, default=None
            Per-row costs in any layout of :mod:`costsense.costs`, used per row
            (each row's reduction bounds its dual variable); replace ``cost``.

        Returns
        -------
        self
            The fitted estimator.
        """
        return self._fit_all(X, y, sample_weight, sample_cost)
