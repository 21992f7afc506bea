"""Mathematical properties of LDM, CS-LDM and CS-SVM (paper 002).

Notation (see :mod:`costsense.margin._ldm_base`): labels ``{0, 1}`` with the positive
class ``1`` so that ``decision_function`` (positive for ``classes_[1]``) is the
positive-class score ``f``; ``s_i = +1 / -1``, margins ``m_i = s_i f(x_i)``,
``Xa = [X, 1]`` when ``fit_intercept``, hinge bounds ``U_i = C c_i``. The primal is

    P(w) = 1/2 |w|^2 + lambda1 var(m) - lambda2 mean(m) + sum_i U_i max(0, 1 - m_i)

with the pairwise variance ``var(m) = (1/n^2) sum_ij (m_i - m_j)^2``, and its dual is

    max_{0 <= beta <= U}  sum(beta) - 1/2 v' G v,   v = lambda2 s / n + s * beta,

with ``G = Xa A^-1 Xa'`` (linear, ``A = I + 4 lambda1 (n Xa'Xa - Xa's s'Xa)/n^2``)
or ``G = K (I + 4 lambda1 / n^2 (n I - s s') K)^-1`` (kernel ``K``, plus 1 for the
intercept). Every matrix and oracle below is rebuilt in the test from these
formulas; nothing is copied from the estimator's output.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import linalg, optimize
from sklearn.datasets import make_blobs, make_classification, make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import Nystroem
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from costsense.exceptions import MemoryBudgetError
from costsense.margin import CSLDMClassifier, CSSVMClassifier, LDMClassifier
from costsense.margin._ldm_base import _Factor

TIGHT = {"tol": 1e-10, "max_iter": 200_000}


# --------------------------------------------------------------------- helpers
def _data(seed: int = 0, n: int = 40, d: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Overlapping classes (label noise) so both bounds and the interior occur.

    Class 1 is the minority, so LDM's automatic positive class is 1 as well.
    """
    X, y = make_classification(
        n_samples=n,
        n_features=d,
        n_informative=3,
        n_redundant=0,
        weights=[0.6],
        flip_y=0.15,
        class_sep=1.0,
        random_state=seed,
    )
    if np.sum(y == 1) >= np.sum(y == 0):  # label noise can undo the imbalance
        y = 1 - y
    if np.sum(y == 1) == np.sum(y == 0):
        y = y.copy()
        y[np.flatnonzero(y == 1)[0]] = 0
    return StandardScaler().fit_transform(X), y


def _signs(y: np.ndarray) -> np.ndarray:
    return np.where(y == 1, 1.0, -1.0)


def _augment(X: np.ndarray, fit_intercept: bool) -> np.ndarray:
    return np.hstack([X, np.ones((X.shape[0], 1))]) if fit_intercept else X


def _linear_A_p(
    Xa: np.ndarray, s: np.ndarray, lambda1: float, lambda2: float
) -> tuple[np.ndarray, np.ndarray]:
    """``A`` and ``p`` of the docstring: ``1/2 w'Aw - p'w`` = the margin terms."""
    n = Xa.shape[0]
    Xs = Xa.T @ s
    A = np.eye(Xa.shape[1]) + 4.0 * lambda1 * (n * Xa.T @ Xa - np.outer(Xs, Xs)) / n**2
    return A, lambda2 * Xs / n


def _kernel_G(K: np.ndarray, s: np.ndarray, lambda1: float) -> np.ndarray:
    """``G = K (I + 4 lambda1 / n^2 (n I - s s') K)^-1`` (= ``S M^-1 S``)."""
    n = K.shape[0]
    centring = n * np.eye(n) - np.outer(s, s)
    M = np.eye(n) + 4.0 * lambda1 / n**2 * centring @ K
    G = linalg.solve(M.T, K.T).T  # K M^-1
    return 0.5 * (G + G.T)


def _primal(
    margins: np.ndarray,
    norm2: float,
    upper: np.ndarray,
    lambda1: float,
    lambda2: float,
) -> float:
    """The primal straight from its definition (pairwise variance, mean, hinge)."""
    n = margins.size
    variance = np.sum(np.subtract.outer(margins, margins) ** 2) / n**2
    hinge = np.maximum(0.0, 1.0 - margins)
    return float(
        0.5 * norm2 + lambda1 * variance - lambda2 * margins.mean() + upper @ hinge
    )


def _scipy_dual(
    G: np.ndarray, s: np.ndarray, upper: np.ndarray, lambda2: float
) -> tuple[float, np.ndarray]:
    """Maximise the box-constrained dual with L-BFGS-B; return (value, beta)."""
    n = s.size
    shift = lambda2 * s / n

    def negative(beta: np.ndarray) -> tuple[float, np.ndarray]:
        v = shift + s * beta
        Gv = G @ v
        return 0.5 * v @ Gv - beta.sum(), s * Gv - 1.0

    result = optimize.minimize(
        negative,
        np.zeros(n),
        jac=True,
        method="L-BFGS-B",
        bounds=list(zip(np.zeros(n), upper, strict=True)),
        options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 50_000, "maxcor": 50},
    )
    return -float(result.fun), result.x


def _margins(model, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _signs(y) * model.decision_function(X)


def _weights_and_repeats(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer weights in {1, 2, 3} and the row indices that repeat them."""
    weights = np.random.default_rng(seed).integers(1, 4, size=n)
    return weights.astype(float), np.repeat(np.arange(n), weights)


# ------------------------------------------------------------------- 1. KKT
KKT_CASES = [
    pytest.param(LDMClassifier, {}, id="LDM"),
    pytest.param(CSLDMClassifier, {"cost": (3.0, 1.0), "pos_label": 1}, id="CSLDM"),
]


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(("cls", "extra"), KKT_CASES)
@pytest.mark.parametrize("solver", ["linear", "exact"])
def test_kkt_conditions(cls, extra, solver, fit_intercept):
    X, y = _data(1)
    s = _signs(y)
    lambda1, lambda2, C, tol = 0.5, 2.0, 1.0, 1e-8
    kernel = "linear" if solver == "linear" else "rbf"
    model = cls(
        lambda1=lambda1,
        lambda2=lambda2,
        C=C,
        kernel=kernel,
        gamma=0.5,
        solver=solver,
        fit_intercept=fit_intercept,
        tol=tol,
        max_iter=200_000,
        random_state=0,
        **extra,
    ).fit(X, y)
    assert model.converged_
    assert model.solver_ == solver
    assert model.pos_label_ == 1
    C1, C2 = model.costs_
    upper = C * np.where(y == 1, C1, C2)
    beta = model.dual_coef_
    m = _margins(model, X, y)
    n = y.size

    if solver == "linear":
        Xa = _augment(X, fit_intercept)
        A, p = _linear_A_p(Xa, s, lambda1, lambda2)
        G = Xa @ linalg.solve(A, Xa.T, assume_a="pos")
        # stationarity in w: A w = p + sum_i beta_i s_i x_i
        w = np.append(model.coef_, model.intercept_) if fit_intercept else model.coef_
        rhs = p + Xa.T @ (s * beta)
        scale = np.abs(p).sum() + np.abs(Xa.T) @ beta + 1.0
        np.testing.assert_array_less(np.abs(A @ w - rhs), 1e-9 * scale)
    else:
        K = rbf_kernel(X, gamma=0.5) + (1.0 if fit_intercept else 0.0)
        G = _kernel_G(K, s, lambda1)
        # kernel stationarity: f(x_i) = (G v)_i with v = lambda2 s / n + s beta
        f_expected = G @ (lambda2 * s / n + s * beta)
        np.testing.assert_allclose(
            model.decision_function(X), f_expected, rtol=0, atol=1e-8
        )
    # Tolerance, derived: at convergence every projected gradient seen in the last
    # (full) epoch lies in a window of width < tol that contains 0 (a coordinate at
    # a bound with zero projected gradient), so |PG_j| < tol when j was visited.
    # Visiting j moves beta_j by at most |PG_j| / H_jj, and the gradient of i (which
    # is m_i - 1) then moves by |H_ij| |PG_j| / H_jj. Hence after the epoch the KKT
    # violation of i is at most tol (1 + sum_j |H_ij| / H_jj); plus round-off.
    H = s[:, None] * G * s[None, :]
    eps = tol * (1.0 + np.max(np.abs(H) @ (1.0 / np.diag(H)))) + 1e-9
    assert eps < 1e-5  # the bound is meaningful on this problem

    at_zero = beta == 0.0
    at_upper = beta == upper
    inside = ~at_zero & ~at_upper
    assert np.all((beta >= 0.0) & (beta <= upper))
    # the problem exercises all three cases
    assert at_zero.any() and at_upper.any() and inside.any()
    np.testing.assert_array_less(1.0 - eps, m[at_zero])
    np.testing.assert_array_less(np.abs(m[inside] - 1.0), eps)
    np.testing.assert_array_less(m[at_upper], 1.0 + eps)


# ------------------------------------------- 2. linear = exact = scipy oracle
OBJECTIVE_CASES = [
    (1.0, 1.0, 1.0),
    (0.0, 0.0, 1.0),
    (0.0, 2.0, 0.5),
    (0.5, 0.0, 2.0),
    (10.0, 10.0, 10.0),
    (0.1, 5.0, 0.1),
]


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(("lambda1", "lambda2", "C"), OBJECTIVE_CASES)
def test_linear_solver_matches_exact_solver_and_scipy(
    lambda1, lambda2, C, fit_intercept
):
    X, y = _data(2)
    X_new, _ = _data(3)
    s = _signs(y)
    params = {
        "lambda1": lambda1,
        "lambda2": lambda2,
        "C": C,
        "kernel": "linear",
        "fit_intercept": fit_intercept,
        "random_state": 0,
        **TIGHT,
    }
    lin = LDMClassifier(solver="linear", **params).fit(X, y)
    exact = LDMClassifier(solver="exact", **params).fit(X, y)
    assert lin.converged_ and exact.converged_
    assert lin.solver_ == "linear" and exact.solver_ == "exact"

    # objective_ is the primal at the solution: recompute it from coef_/intercept_
    upper = np.full(y.size, C)
    for model in (lin, exact):
        w2 = model.coef_ @ model.coef_ + model.intercept_**2
        recomputed = _primal(_margins(model, X, y), w2, upper, lambda1, lambda2)
        assert model.objective_ == pytest.approx(recomputed, rel=1e-10, abs=1e-12)

    assert lin.objective_ == pytest.approx(exact.objective_, rel=1e-6)
    # same dual (up to the same constant): same optimal dual value
    assert lin.dual_objective_[-1] == pytest.approx(
        exact.dual_objective_[-1], rel=1e-6, abs=1e-9
    )
    for Z in (X, X_new):
        np.testing.assert_allclose(
            lin.decision_function(Z), exact.decision_function(Z), rtol=0, atol=1e-5
        )

    # independent oracle: the dual QP by L-BFGS-B, and its primal point
    Xa = _augment(X, fit_intercept)
    A, p = _linear_A_p(Xa, s, lambda1, lambda2)
    dual_value, beta = _scipy_dual(Xa @ linalg.solve(A, Xa.T), s, upper, lambda2)
    w = linalg.solve(A, p + Xa.T @ (s * beta))
    primal_value = _primal(s * (Xa @ w), w @ w, upper, lambda1, lambda2)
    # weak duality sandwich: the oracle's own gap is tiny, and LDM's optimum lies
    # inside it (any primal value >= any dual value)
    assert primal_value - dual_value <= 1e-7 * (1.0 + abs(primal_value))
    assert lin.objective_ >= dual_value - 1e-9 * (1.0 + abs(dual_value))
    assert lin.objective_ == pytest.approx(primal_value, rel=1e-6, abs=1e-9)
    assert exact.objective_ == pytest.approx(primal_value, rel=1e-6, abs=1e-9)
    # strong duality on LDM's own numbers: P* = -(D* + 1/2 p'A^-1 p), since the
    # reported dual is 1/2 |u|^2 - sum(beta) - 1/2 |L^-1 p|^2
    offset = 0.5 * p @ linalg.solve(A, p)
    assert lin.objective_ == pytest.approx(
        -(lin.dual_objective_[-1] + offset), rel=1e-6, abs=1e-9
    )


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_exact_rbf_objective_matches_scipy(fit_intercept):
    X, y = _data(4)
    s = _signs(y)
    lambda1, lambda2, C, gamma = 2.0, 1.0, 3.0, 0.3
    model = LDMClassifier(
        lambda1=lambda1,
        lambda2=lambda2,
        C=C,
        kernel="rbf",
        gamma=gamma,
        solver="exact",
        fit_intercept=fit_intercept,
        random_state=0,
        **TIGHT,
    ).fit(X, y)
    assert model.converged_
    K = rbf_kernel(X, gamma=gamma) + (1.0 if fit_intercept else 0.0)
    upper = np.full(y.size, C)
    a = model.alpha_
    recomputed = _primal(_margins(model, X, y), a @ K @ a, upper, lambda1, lambda2)
    assert model.objective_ == pytest.approx(recomputed, rel=1e-8)
    dual_value, _ = _scipy_dual(_kernel_G(K, s, lambda1), s, upper, lambda2)
    assert model.objective_ >= dual_value - 1e-9 * (1.0 + abs(dual_value))
    assert model.objective_ == pytest.approx(dual_value, rel=1e-6)


def test_exact_solver_primal_on_a_singular_kernel():
    # Rows repeated 1-3 times: K has rank 40 < 79. Strong duality: the primal
    # optimum equals the dual optimum, which the singular K does not disturb; a
    # dual solved to tol=1e-12 must give objective_ within ~1e-12 of it (it does
    # when K is non-singular, see test_exact_rbf_objective_matches_scipy); 1e-9 is
    # lenient.
    X, y = _data(12)
    _, rows = _weights_and_repeats(y.size, 0)
    X, y = X[rows], y[rows]
    s = _signs(y)
    K = rbf_kernel(X, gamma=0.5) + 1.0
    assert np.linalg.matrix_rank(K) < y.size
    model = LDMClassifier(
        kernel="rbf", gamma=0.5, solver="exact", random_state=0, tol=1e-12
    ).fit(X, y)
    assert model.converged_
    ones = np.ones(y.size)
    dual_value, _ = _scipy_dual(_kernel_G(K, s, 1.0), s, ones, 1.0)
    a = model.alpha_
    recomputed = _primal(_margins(model, X, y), a @ K @ a, ones, 1.0, 1.0)
    assert recomputed >= dual_value - 1e-9 * abs(dual_value)  # weak duality
    assert model.objective_ == pytest.approx(dual_value, rel=1e-9)
    assert recomputed == pytest.approx(dual_value, rel=1e-9)


# ------------------------------------------------------ 3. LDM(0, 0) = SVM
@pytest.mark.parametrize("C", [0.1, 1.0, 5.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_zero_lambdas_is_linear_svm(C, fit_intercept):
    X, y = _data(5)
    X_new, _ = _data(6)
    ldm = LDMClassifier(
        lambda1=0.0,
        lambda2=0.0,
        C=C,
        fit_intercept=fit_intercept,
        random_state=0,
        **TIGHT,
    ).fit(X, y)
    svm = LinearSVC(
        loss="hinge",
        dual=True,
        C=C,
        fit_intercept=fit_intercept,
        tol=1e-8,
        max_iter=100_000,
        random_state=0,
    ).fit(X, y)
    for Z in (X, X_new):
        np.testing.assert_allclose(
            ldm.decision_function(Z), svm.decision_function(Z), rtol=0, atol=1e-4
        )


# ----------------------------------------------- 4. dual monotone per epoch
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    ("solver", "kernel"), [("linear", "linear"), ("exact", "linear"), ("exact", "rbf")]
)
def test_dual_objective_never_increases(seed, solver, kernel):
    X, y = _data(seed)
    model = LDMClassifier(
        lambda1=1.0,
        lambda2=1.0,
        C=2.0,
        kernel=kernel,
        solver=solver,
        tol=1e-9,
        max_iter=100_000,
        random_state=seed,
    ).fit(X, y)
    dual = model.dual_objective_
    assert dual.shape == (model.n_iter_,)
    assert model.n_iter_ > 3  # several epochs were actually compared
    # exact coordinate minimisation never increases the dual
    increase = np.diff(dual)
    np.testing.assert_array_less(increase, 1e-12 * (1.0 + np.abs(dual[:-1])))
    # the first epoch starts from beta = 0, whose dual value is 0 (linear: the
    # -1/2 |p|^2 constant is subtracted), and it can only go down from there
    assert dual[0] <= 1e-12


# --------------------------------------------------- 5. CS-LDM with equal costs
@pytest.mark.parametrize("solver", ["linear", "exact"])
@pytest.mark.parametrize("cost", [1, 1.0, (1, 1), (1.0, 1.0)])
def test_csldm_unit_costs_is_ldm(cost, solver):
    X, y = _data(7)
    kernel = "linear" if solver == "linear" else "rbf"
    params = {"kernel": kernel, "solver": solver, "random_state": 3}
    ldm = LDMClassifier(**params).fit(X, y)
    cs = CSLDMClassifier(cost=cost, **params).fit(X, y)
    assert cs.costs_ == (1.0, 1.0)
    np.testing.assert_array_equal(cs.dual_coef_, ldm.dual_coef_)
    np.testing.assert_array_equal(cs.decision_function(X), ldm.decision_function(X))
    assert cs.objective_ == ldm.objective_


@pytest.mark.parametrize("solver", ["linear", "exact"])
@pytest.mark.parametrize("k", [0.25, 3.0, 10.0])
def test_csldm_equal_costs_scale_C(k, solver):
    X, y = _data(8)
    kernel = "linear" if solver == "linear" else "rbf"
    params = {"kernel": kernel, "solver": solver, "random_state": 1, "C": 1.5}
    cs = CSLDMClassifier(cost=(k, k), **params).fit(X, y)
    ldm = LDMClassifier(**{**params, "C": 1.5 * k}).fit(X, y)
    np.testing.assert_allclose(cs.dual_coef_, ldm.dual_coef_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(
        cs.decision_function(X), ldm.decision_function(X), rtol=1e-12, atol=1e-14
    )


@pytest.mark.parametrize("solver", ["linear", "exact"])
def test_ldm_is_symmetric_in_the_labels(solver):
    # Flipping every s_i and w leaves all margins and so the objective unchanged:
    # the oriented decision does not depend on which class is called positive.
    X, y = _data(9)
    kernel = "linear" if solver == "linear" else "rbf"
    params = {"kernel": kernel, "solver": solver, "random_state": 0, "cost": 1}
    one = CSLDMClassifier(pos_label=1, **params).fit(X, y)
    zero = CSLDMClassifier(pos_label=0, **params).fit(X, y)
    assert (one.pos_label_, zero.pos_label_) == (1, 0)
    np.testing.assert_allclose(
        one.decision_function(X), zero.decision_function(X), rtol=1e-10, atol=1e-12
    )
    np.testing.assert_array_equal(one.predict(X), zero.predict(X))


@pytest.mark.parametrize("solver", ["linear", "exact"])
def test_sample_cost_equal_to_class_costs(solver):
    X, y = _data(10)
    kernel = "linear" if solver == "linear" else "rbf"
    params = {"kernel": kernel, "solver": solver, "random_state": 0, "pos_label": 1}
    by_class = CSLDMClassifier(cost=(4.0, 1.5), **params).fit(X, y)
    by_sample = CSLDMClassifier(**params).fit(
        X, y, sample_cost={"fn": np.full(y.size, 4.0), "fp": 1.5}
    )
    np.testing.assert_allclose(
        by_sample.decision_function(X), by_class.decision_function(X), rtol=1e-12
    )


# --------------------------------------- 6. raising C1 never adds positive slack
@pytest.mark.parametrize(("solver", "kernel"), [("linear", "linear"), ("exact", "rbf")])
def test_raising_C1_never_increases_positive_slack(solver, kernel):
    # Exchange argument. F_a(w) = R(w) + a S1(w) + S2(w) with S1 the positives' total
    # slack and w_a its (unique: R is strictly convex) minimiser. For a < b,
    #   F_a(w_a) <= F_a(w_b)  and  F_b(w_b) <= F_b(w_a);
    # adding the two, the R and S2 terms cancel and
    #   (b - a) (S1(w_b) - S1(w_a)) <= 0,  so S1(w_b) <= S1(w_a).
    # Also F_b >= F_a pointwise, so the optimal objective never decreases in C1.
    X, y = _data(11)
    positive = y == 1
    slacks, objectives = [], []
    for C1 in [1.0, 2.0, 4.0, 8.0, 16.0]:
        model = CSLDMClassifier(
            cost=(C1, 1.0),
            pos_label=1,
            kernel=kernel,
            gamma=0.5,
            solver=solver,
            tol=1e-8,
            max_iter=200_000,
            random_state=0,
        ).fit(X, y)
        assert model.converged_
        assert model.costs_ == (C1, 1.0)
        hinge = np.maximum(0.0, 1.0 - _margins(model, X, y))
        slacks.append(hinge[positive].sum())
        objectives.append(model.objective_)
    slacks = np.array(slacks)
    assert np.all(np.diff(slacks) <= 1e-6), slacks
    assert slacks[-1] < slacks[0]  # and the costs do change the solution
    assert np.all(np.diff(objectives) >= -1e-6 * np.abs(objectives[:-1]))


# ------------------------------------------------------------- 7. sample weights
SAMPLE_WEIGHT_CASES = [
    pytest.param(LDMClassifier, {"solver": "linear"}, id="LDM-linear"),
    pytest.param(
        LDMClassifier,
        {"solver": "linear", "lambda1": 3.0, "lambda2": 0.5, "C": 0.3},
        id="LDM-linear-lambdas",
    ),
    # an explicit gamma: "scale" uses the unweighted X.var() (as SVC does), which
    # repeating rows changes
    pytest.param(
        LDMClassifier,
        {"solver": "exact", "kernel": "rbf", "gamma": 0.5},
        id="LDM-exact-rbf",
    ),
    pytest.param(
        CSLDMClassifier, {"cost": (5.0, 1.0), "pos_label": 1}, id="CSLDM-linear"
    ),
]


@pytest.mark.parametrize(("cls", "extra"), SAMPLE_WEIGHT_CASES)
def test_integer_sample_weight_equals_repeated_rows(cls, extra):
    X, y = _data(12)
    X_new, _ = _data(13)
    weights, rows = _weights_and_repeats(y.size, 0)
    params = {"random_state": 0, "tol": 1e-12, "max_iter": 500_000, **extra}
    weighted = cls(**params).fit(X, y, sample_weight=weights)
    repeated = cls(**params).fit(X[rows], y[rows])
    assert weighted.converged_ and repeated.converged_
    for Z in (X, X_new):
        np.testing.assert_allclose(
            weighted.decision_function(Z),
            repeated.decision_function(Z),
            rtol=0,
            atol=1e-6,
        )
    # rel=1e-6, not tighter: see test_exact_solver_primal_on_a_singular_kernel
    assert weighted.objective_ == pytest.approx(repeated.objective_, rel=1e-6)


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param({"kernel": "linear"}, id="linear"),
        pytest.param({"kernel": "rbf", "gamma": 0.5}, id="rbf"),
    ],
)
def test_cssvm_integer_sample_weight_equals_repeated_rows(extra):
    X, y = _data(14)
    X_new, _ = _data(15)
    weights, rows = _weights_and_repeats(y.size, 1)
    # liblinear never meets tol=1e-12 on this problem (it stops at max_iter with a
    # ConvergenceWarning, its own limit); 1e-10 is reached in a few hundred epochs
    tol = 1e-10 if extra["kernel"] == "linear" else 1e-12
    params = {
        "cost": (3.0, 1.0),
        "pos_label": 1,
        "tol": tol,
        "max_iter": 1_000_000,
        "random_state": 0,
        **extra,
    }
    weighted = CSSVMClassifier(**params).fit(X, y, sample_weight=weights)
    repeated = CSSVMClassifier(**params).fit(X[rows], y[rows])
    for Z in (X, X_new):
        np.testing.assert_allclose(
            weighted.decision_function(Z),
            repeated.decision_function(Z),
            rtol=0,
            atol=1e-6,
        )


@pytest.mark.parametrize(("solver", "kernel"), [("linear", "linear"), ("exact", "rbf")])
def test_zero_sample_weight_is_dropping_the_row(solver, kernel):
    X, y = _data(16)
    params = {
        "kernel": kernel,
        "solver": solver,
        "tol": 1e-8,
        "max_iter": 2_000,
        "random_state": 0,
    }
    full = LDMClassifier(**params).fit(X, y)
    worst = int(np.argmin(_margins(full, X, y)))
    assert _margins(full, X, y)[worst] < 1.0
    weights = np.ones(y.size)
    weights[worst] = 0.0
    kept = np.arange(y.size) != worst
    dropped = LDMClassifier(**params).fit(X[kept], y[kept])
    assert dropped.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        weighted = LDMClassifier(**params).fit(X, y, sample_weight=weights)
    assert weighted.converged_
    np.testing.assert_allclose(
        weighted.decision_function(X), dropped.decision_function(X), atol=1e-6
    )


# ------------------------------------------------------------------ 8. Nystroem
def _moons(seed: int = 0):
    X, y = make_moons(n_samples=160, noise=0.25, random_state=seed)
    X = StandardScaler().fit_transform(X)
    return X[:40], y[:40], X[40:], y[40:]


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_full_rank_nystroem_is_the_exact_solver(fit_intercept):
    # With every training row a landmark, f(x) = k(x, X)'v with regulariser
    # v'Kv is the representer form of the kernel problem (K is invertible:
    # gamma = 1 keeps its smallest eigenvalue above 1e-8), so both solvers solve
    # the same convex problem: they differ only by the solver tolerance and
    # round-off.
    Xtr, ytr, Xte, _ = _moons()
    gamma = 1.0
    assert np.linalg.eigvalsh(rbf_kernel(Xtr, gamma=gamma)).min() > 1e-8
    params = {
        "kernel": "rbf",
        "gamma": gamma,
        "fit_intercept": fit_intercept,
        "random_state": 0,
        **TIGHT,
    }
    exact = LDMClassifier(solver="exact", **params).fit(Xtr, ytr)
    nys = LDMClassifier(solver="nystroem", n_components=ytr.size, **params).fit(
        Xtr, ytr
    )
    assert nys.solver_ == "nystroem" and nys.landmarks_.shape == Xtr.shape
    assert nys.objective_ == pytest.approx(exact.objective_, rel=1e-6)
    for Z in (Xtr, Xte):
        f_exact = exact.decision_function(Z)
        scale = 1.0 + np.abs(f_exact).max()
        np.testing.assert_allclose(
            nys.decision_function(Z), f_exact, rtol=0, atol=1e-5 * scale
        )
        np.testing.assert_array_equal(nys.predict(Z), exact.predict(Z))


@pytest.mark.parametrize("n_components", [5, 10])
def test_low_rank_nystroem_beats_a_constant(n_components):
    Xtr, ytr, Xte, yte = _moons(1)
    model = LDMClassifier(
        kernel="rbf", solver="nystroem", n_components=n_components, random_state=0
    ).fit(Xtr, ytr)
    assert model.coef_.shape == (n_components,)
    accuracy = np.mean(model.predict(Xte) == yte)
    constant = max(np.mean(yte), 1.0 - np.mean(yte))
    assert accuracy > constant + 0.2


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("landmarks", ["random", "kmeans"])
def test_nystroem_is_scikit_learns_map_then_the_linear_solver(fit_intercept, landmarks):
    # The solver works on the kernel columns B = K(X, landmarks) with regulariser
    # v'K_mm v; scikit-learn's map is phi = B K_mm^-1/2. With w = K_mm^1/2 v both
    # are one problem, so the linear solver on phi(X) must give the same function.
    Xtr, ytr, Xte, _ = _moons(2)
    params = {"lambda1": 2.0, "lambda2": 0.5, "C": 3.0, "fit_intercept": fit_intercept}
    ours = LDMClassifier(
        kernel="rbf",
        gamma=1.0,
        solver="nystroem",
        n_components=15,
        landmarks=landmarks,
        random_state=0,
        **params,
        **TIGHT,
    ).fit(Xtr, ytr)
    assert ours.landmarks_.shape == (15, 2) and ours.coef_.shape == (15,)
    assert np.linalg.eigvalsh(rbf_kernel(ours.landmarks_, gamma=1.0)).min() > 1e-8
    feature_map = Nystroem(gamma=1.0, n_components=15).fit(ours.landmarks_)
    reference = LDMClassifier(solver="linear", random_state=0, **params, **TIGHT)
    reference.fit(feature_map.transform(Xtr), ytr)
    assert ours.objective_ == pytest.approx(reference.objective_, rel=1e-6)
    for Z in (Xtr, Xte):
        expected = reference.decision_function(feature_map.transform(Z))
        scale = 1.0 + np.abs(expected).max()
        np.testing.assert_allclose(
            ours.decision_function(Z), expected, rtol=0, atol=1e-5 * scale
        )


@pytest.mark.parametrize("lambda1", [0.0, 2.0])
def test_nystroem_with_the_linear_kernel_is_the_linear_solver(lambda1):
    # K_mm = L L' has rank 4 < 12 landmarks, so A is singular (factored by its
    # eigenvalues); f = x'(L'v) + b with v'K_mm v = |L'v|^2 is the linear model.
    X, y = _data(21, n=60, d=4)
    params = {"lambda1": lambda1, "lambda2": 1.0, "C": 2.0, "random_state": 0, **TIGHT}
    nys = LDMClassifier(kernel="linear", solver="nystroem", n_components=12, **params)
    lin = LDMClassifier(kernel="linear", solver="linear", **params)
    nys.fit(X, y)
    lin.fit(X, y)
    assert nys.objective_ == pytest.approx(lin.objective_, rel=1e-6)
    np.testing.assert_allclose(nys.landmarks_.T @ nys.coef_, lin.coef_, atol=1e-5)
    np.testing.assert_allclose(
        nys.decision_function(X), lin.decision_function(X), rtol=0, atol=1e-5
    )


@pytest.mark.parametrize(
    "A",
    [
        np.array([[1.0, 1.0], [1.0, 1.0]]),
        np.diag([2.0, 1.0, 0.0]),
        np.array([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 3.0]]),
    ],
    ids=["ones", "diagonal", "block"],
)
def test_factor_of_a_singular_matrix_is_a_pseudo_inverse_root(A):
    with pytest.raises(linalg.LinAlgError):
        linalg.cholesky(A, lower=True)  # the case the eigen-decomposition is for
    factor = _Factor(A)
    W = factor.whitening
    rank = np.linalg.matrix_rank(A)
    assert factor.cholesky is None and W.shape == (A.shape[0], rank)
    np.testing.assert_allclose(W.T @ A @ W, np.eye(rank), atol=1e-12)
    np.testing.assert_allclose(W @ W.T, np.linalg.pinv(A), atol=1e-12)
    p = A @ np.arange(1.0, A.shape[0] + 1)  # in the range of A
    np.testing.assert_allclose(factor.back(factor.forward(p)), np.linalg.pinv(A) @ p)
    B = np.arange(2.0 * (A.shape[0] - 1)).reshape(2, -1)
    np.testing.assert_allclose(
        factor.rows(B, intercept=True), np.hstack([B, np.ones((2, 1))]) @ W
    )


def test_factor_of_a_positive_definite_matrix_is_cholesky():
    rng = np.random.default_rng(0)
    M = rng.normal(size=(5, 5))
    A = M @ M.T + np.eye(5)
    factor = _Factor(A)
    L = factor.cholesky
    np.testing.assert_allclose(L @ L.T, A, atol=1e-12)
    p = rng.normal(size=5)
    np.testing.assert_allclose(factor.back(factor.forward(p)), np.linalg.solve(A, p))
    B = rng.normal(size=(7, 4))
    Z = factor.rows(B, intercept=True)
    assert Z.flags.c_contiguous
    np.testing.assert_allclose(Z @ L.T, np.hstack([B, np.ones((7, 1))]), atol=1e-12)
    np.testing.assert_allclose(
        factor.rows(B[:, :3], intercept=True)[:, :3] @ L[:3, :3].T, B[:, :3], atol=1e-12
    )


@pytest.mark.parametrize("weighted", [False, True])
def test_kmeans_landmarks_are_weighted_cluster_means(weighted):
    # Lloyd's fixed point: every landmark is the (weighted) mean of the rows
    # nearest to it
    X, y = make_blobs(n_samples=240, centers=6, cluster_std=0.3, random_state=3)
    y = (y < 2).astype(int)
    weight = np.random.default_rng(0).integers(1, 4, size=y.size) if weighted else None
    model = LDMClassifier(
        kernel="rbf",
        solver="nystroem",
        n_components=6,
        landmarks="kmeans",
        random_state=0,
    ).fit(X, y, sample_weight=weight)
    centres = model.landmarks_
    w = np.ones(y.size) if weight is None else weight
    nearest = np.argmin(((X[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
    assert set(nearest) == set(range(6))
    for j in range(6):
        members = nearest == j
        np.testing.assert_allclose(
            centres[j], np.average(X[members], axis=0, weights=w[members]), atol=1e-8
        )


def _nystroem_error(X: np.ndarray, landmarks: np.ndarray, gamma: float) -> float:
    B = rbf_kernel(X, landmarks, gamma=gamma)
    approximation = B @ np.linalg.pinv(rbf_kernel(landmarks, gamma=gamma)) @ B.T
    return float(np.linalg.norm(rbf_kernel(X, gamma=gamma) - approximation))


def test_kmeans_landmarks_approximate_the_kernel_better_than_random_ones():
    # Zhang, Tsang & Kwok (2008): the Nystroem error is bounded by the landmarks'
    # quantisation error, which Lloyd's steps from the random landmarks (same
    # seed, same sample) never raise; on clustered data the mean Nystroem error
    # over five seeds drops by far more than the 25 % asked here (the bound is
    # not the error, so a single seed may gain little)
    X, y = make_blobs(n_samples=300, centers=8, cluster_std=0.6, random_state=0)
    y = (y < 3).astype(int)
    errors: dict[str, list[float]] = {"random": [], "kmeans": []}
    quantisation: dict[str, list[float]] = {"random": [], "kmeans": []}
    for seed in range(5):
        for landmarks in errors:
            model = LDMClassifier(
                kernel="rbf",
                gamma=0.5,
                solver="nystroem",
                n_components=12,
                landmarks=landmarks,
                random_state=seed,
            ).fit(X, y)
            errors[landmarks].append(_nystroem_error(X, model.landmarks_, 0.5))
            distances = ((X[:, None, :] - model.landmarks_[None]) ** 2).sum(axis=2)
            quantisation[landmarks].append(distances.min(axis=1).sum())
    assert np.mean(errors["kmeans"]) < 0.75 * np.mean(errors["random"])
    assert np.all(np.array(quantisation["kmeans"]) <= quantisation["random"])


def test_random_landmarks_are_distinct_training_rows():
    X, y = _data(22, n=30)
    X2, y2 = np.vstack([X, X]), np.concatenate([y, y])
    model = LDMClassifier(
        kernel="rbf", solver="nystroem", n_components=60, random_state=0
    ).fit(X2, y2)
    assert model.landmarks_.shape == (30, X.shape[1])
    np.testing.assert_array_equal(
        np.unique(model.landmarks_, axis=0), np.unique(X, axis=0)
    )
    sample = (
        LDMClassifier(kernel="rbf", solver="nystroem", n_components=10, random_state=0)
        .fit(X2, y2)
        .landmarks_
    )
    assert sample.shape == (len(np.unique(sample, axis=0)), X.shape[1])
    assert all(np.any(np.all(X == row, axis=1)) for row in sample)


def test_nystroem_with_a_callable_kernel_is_the_named_kernel():
    Xtr, ytr, Xte, _ = _moons(3)
    params = {"solver": "nystroem", "n_components": 20, "random_state": 0, **TIGHT}
    named = LDMClassifier(kernel="rbf", gamma=0.7, **params).fit(Xtr, ytr)
    custom = LDMClassifier(
        kernel=lambda A, B: rbf_kernel(A, B, gamma=0.7), **params
    ).fit(Xtr, ytr)
    np.testing.assert_allclose(custom.landmarks_, named.landmarks_)
    np.testing.assert_allclose(
        custom.decision_function(Xte), named.decision_function(Xte), atol=1e-8
    )


# -------------------------------------------------------------- 9. auto solver
def test_auto_solver_choice():
    X, y = _data(17)
    assert LDMClassifier().fit(X, y).solver_ == "linear"
    assert LDMClassifier(exact_max_samples=10).fit(X, y).solver_ == "linear"
    rbf = LDMClassifier(kernel="rbf").fit(X, y)
    assert rbf.solver_ == "exact" and rbf.alpha_.shape == (y.size,)
    boundary = LDMClassifier(kernel="rbf", exact_max_samples=y.size).fit(X, y)
    assert boundary.solver_ == "exact"
    big = LDMClassifier(
        kernel="rbf", exact_max_samples=y.size - 1, n_components=8, random_state=0
    ).fit(X, y)
    assert big.solver_ == "nystroem" and big.landmarks_.shape == (8, X.shape[1])
    assert big.coef_.shape == (8,)


# ---------------------------------------------------------------- 10. Platt
@pytest.mark.parametrize("pos_label", [0, 1])
@pytest.mark.parametrize(("solver", "kernel"), [("linear", "linear"), ("exact", "rbf")])
def test_probability_is_monotone_in_the_positive_score(pos_label, solver, kernel):
    X, y = _data(18, n=60)
    X_new, _ = _data(19, n=60)
    params = {
        "cost": (2.0, 1.0),
        "pos_label": pos_label,
        "kernel": kernel,
        "solver": solver,
        "random_state": 0,
    }
    model = CSLDMClassifier(probability=True, **params).fit(X, y)
    plain = CSLDMClassifier(**params).fit(X, y)
    # Platt's extra fits do not change the fitted model
    np.testing.assert_array_equal(
        model.decision_function(X_new), plain.decision_function(X_new)
    )
    proba = model.predict_proba(X_new)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all((proba >= 0.0) & (proba <= 1.0))
    pos = int(np.flatnonzero(model.classes_ == pos_label)[0])
    decision = model.decision_function(X_new)
    positive_score = decision if pos == 1 else -decision
    order = np.argsort(positive_score)
    assert np.all(np.diff(proba[order, pos]) >= 0.0)
    assert proba[order[-1], pos] > proba[order[0], pos]
    assert not hasattr(plain, "predict_proba")
    with pytest.raises(AttributeError):
        plain.predict_proba(X_new)


# ------------------------------------------------------------ 11. CS-SVM
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("costs", [(1.0, 1.0), (5.0, 1.0), (2.0, 0.5)])
def test_cssvm_linear_is_linearsvc_with_class_weight(costs, fit_intercept):
    X, y = _data(20)
    X_new, _ = _data(21)
    C1, C2 = costs
    cs = CSSVMClassifier(
        cost=costs,
        pos_label=1,
        C=0.7,
        fit_intercept=fit_intercept,
        tol=1e-10,
        max_iter=1_000_000,
        random_state=0,
    ).fit(X, y)
    assert cs.costs_ == costs
    svm = LinearSVC(
        loss="hinge",
        dual=True,
        C=0.7,
        class_weight={1: C1, 0: C2},
        fit_intercept=fit_intercept,
        tol=1e-10,
        max_iter=1_000_000,
        random_state=0,
    ).fit(X, y)
    for Z in (X, X_new):
        np.testing.assert_allclose(
            cs.decision_function(Z), svm.decision_function(Z), rtol=0, atol=1e-5
        )


@pytest.mark.parametrize("pos_label", [0, 1])
def test_cssvm_rbf_is_svc_with_class_weight(pos_label):
    X, y = _data(22)
    X_new, _ = _data(23)
    C1, C2 = 4.0, 1.0
    cs = CSSVMClassifier(
        cost=(C1, C2), pos_label=pos_label, kernel="rbf", gamma=0.5, C=2.0, tol=1e-10
    ).fit(X, y)
    svc = SVC(
        kernel="rbf",
        gamma=0.5,
        C=2.0,
        class_weight={pos_label: C1, 1 - pos_label: C2},
        tol=1e-10,
    ).fit(X, y)
    for Z in (X, X_new):
        np.testing.assert_allclose(
            cs.decision_function(Z), svc.decision_function(Z), rtol=0, atol=1e-6
        )


def test_cssvm_rbf_fit_emits_no_future_warning():
    X, y = _data(25)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        CSSVMClassifier(kernel="rbf", cost=(2.0, 1.0), pos_label=1).fit(X, y)


# ------------------------------------------------------- 12. non-convergence
@pytest.mark.parametrize(
    ("solver", "kernel"),
    [("linear", "linear"), ("exact", "rbf"), ("nystroem", "rbf")],
)
def test_convergence_warning_at_max_iter_1(solver, kernel):
    X, y = _data(24)
    model = LDMClassifier(
        kernel=kernel, solver=solver, max_iter=1, tol=1e-6, n_components=20
    )
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        model.fit(X, y)
    assert model.converged_ is False
    assert model.n_iter_ == 1
    assert model.dual_objective_.shape == (1,)


def test_the_linear_solver_refuses_other_kernels_and_refits_leave_no_stale_state():
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    with pytest.raises(ValueError, match="solver='linear'"):
        LDMClassifier(kernel="rbf", solver="linear").fit(X, y)
    model = LDMClassifier(kernel="rbf", solver="exact", random_state=0).fit(X, y)
    assert hasattr(model, "alpha_")
    model.set_params(kernel="linear", solver="linear").fit(X, y)
    assert not hasattr(model, "alpha_") and hasattr(model, "coef_")


# ------------------------------------------------------------ 13. wide data
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(
    ("cls", "extra"), [(LDMClassifier, {}), (CSLDMClassifier, {"cost": 5.0})]
)
def test_wide_data_take_the_kernel_route_to_the_primal_solution(
    cls, extra, fit_intercept
):
    # d = 60 > n = 20: solver="auto" takes the exact solver (20 x 20 kernel matrix)
    # instead of the linear solver's 61 x 61 A; both solve one strictly convex
    # problem, so they give one function, to the solvers' tolerance (1e-10 on the
    # dual's projected gradient: 1e-8 on the decision values). The primal
    # reference is the linear solver, and the dual of the docstring with G = Xa
    # A^-1 Xa' from A's formula, maximised by scipy.
    rng = np.random.default_rng(13)
    X = rng.standard_normal((20, 60))
    y = np.r_[np.ones(8, dtype=int), np.zeros(12, dtype=int)]
    X_new = rng.standard_normal((30, 60))
    params = {
        "lambda2": 0.1,
        "C": 0.02,
        "fit_intercept": fit_intercept,
        "random_state": 0,
        **TIGHT,
    }
    wide = cls(**params, **extra).fit(X, y)
    primal = cls(solver="linear", **params, **extra).fit(X, y)
    assert wide.solver_ == "exact" and primal.solver_ == "linear"
    assert wide.converged_ and primal.converged_
    upper = 0.02 * np.where(y == 1, extra.get("cost", 1.0), 1.0)
    beta = wide.dual_coef_
    # not a trivial solution: some duals at 0, some inside the box, some at its top
    assert np.any(beta == 0) and np.any(beta >= upper - 1e-9)
    assert np.any((beta > 1e-9) & (beta < upper - 1e-9))
    for Z in (X, X_new):
        assert_allclose(
            wide.decision_function(Z), primal.decision_function(Z), atol=1e-8
        )
    assert_allclose(wide.coef_, primal.coef_, atol=1e-8)
    assert wide.intercept_ == pytest.approx(primal.intercept_, abs=1e-8)

    s = _signs(y)
    Xa = _augment(X, fit_intercept)
    A, p = _linear_A_p(Xa, s, 1.0, 0.1)
    _, oracle = _scipy_dual(Xa @ linalg.solve(A, Xa.T), s, upper, 0.1)
    w = linalg.solve(A, p + Xa.T @ (s * oracle))
    assert_allclose(
        wide.decision_function(X_new), _augment(X_new, fit_intercept) @ w, atol=1e-5
    )


def test_a_terabyte_matrix_is_refused_before_it_is_allocated():
    # 2 rows x 1,000,000 columns (16 MB): the linear solver's A would be
    # 1,000,001^2 float64 = 7.28 TiB; solver="auto" takes the 2 x 2 kernel route
    X = np.zeros((2, 1_000_000))
    X[1, :3] = 1.0
    y = np.array([0, 1])
    with pytest.raises(MemoryBudgetError, match="solver='linear'") as refused:
        LDMClassifier(solver="linear").fit(X, y)
    message = str(refused.value)
    assert "7.28 TiB" in message and "1,000,001 x 1,000,001" in message
    assert "solver='auto' or 'exact'" in message
    assert isinstance(refused.value, MemoryError | ValueError)
    model = CSLDMClassifier(cost=5.0, random_state=0).fit(X, y)
    assert model.solver_ == "exact" and model.coef_.shape == (1_000_000,)
    assert_array_equal(model.predict(X), y)

    # and the exact solver's n x n matrix on many rows
    X_tall = np.arange(1_000_000.0)[:, None] % 7
    with pytest.raises(MemoryBudgetError, match="1,000,000 x 1,000,000") as refused:
        LDMClassifier(kernel="rbf", solver="exact").fit(X_tall, np.arange(10**6) % 2)
    assert "solver='nystroem'" in str(refused.value)
