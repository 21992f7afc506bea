"""Solver-level properties of the dual coordinate descent (costsense.margin._dcd).

Both solvers minimise a convex quadratic over the box ``0 <= beta <= upper``:

- ``solve_linear``: ``1/2 |p + Z' Y beta|^2 - sum(beta)``, returning also
  ``u = p + Z' Y beta``;
- ``solve_dense``: ``1/2 beta' H beta + g' beta``.

The same problem in both forms is ``H = Y Z Z' Y`` and ``g = Y Z p - 1`` (the two
objectives then differ by the constant ``1/2 |p|^2``, which ``solve_linear``
subtracts). The oracle is scipy's L-BFGS-B on the same box.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from costsense.margin._dcd import solve_dense, solve_linear


def _svm_problem(seed: int, n: int = 40, d: int = 5, shift: float = 0.5):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    Z = rng.normal(size=(n, d)) + shift * y[:, None]
    p = 0.3 * rng.normal(size=d)
    upper = rng.uniform(0.2, 3.0, size=n)
    return Z, y, p, upper


def _scipy_box_qp(H: np.ndarray, g: np.ndarray, upper: np.ndarray) -> np.ndarray:
    def fun(beta: np.ndarray) -> tuple[float, np.ndarray]:
        Hb = H @ beta
        return 0.5 * beta @ Hb + g @ beta, Hb + g

    result = optimize.minimize(
        fun,
        np.zeros(g.size),
        jac=True,
        method="L-BFGS-B",
        bounds=list(zip(np.zeros(g.size), upper, strict=True)),
        options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 50_000, "maxcor": 50},
    )
    return result.x


def _dense_form(Z, y, p):
    YZ = y[:, None] * Z
    return YZ @ YZ.T, YZ @ p - 1.0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_solve_linear_matches_scipy(seed):
    Z, y, p, upper = _svm_problem(seed)
    beta, u, n_iter, converged, objective = solve_linear(
        Z, y, upper, p, tol=1e-10, max_iter=100_000, seed=seed
    )
    assert converged and objective.shape == (n_iter,)
    assert np.all((beta >= 0.0) & (beta <= upper))
    # u is the primal point p + Z' Y beta of the returned beta
    np.testing.assert_allclose(u, p + Z.T @ (y * beta), rtol=1e-10, atol=1e-12)
    # the reported value is the stated objective at the returned beta
    assert objective[-1] == pytest.approx(
        0.5 * u @ u - beta.sum() - 0.5 * p @ p, rel=1e-12, abs=1e-12
    )
    H, g = _dense_form(Z, y, p)
    reference = _scipy_box_qp(H, g, upper)
    value = 0.5 * reference @ H @ reference + g @ reference
    # DCD reaches the optimum (scipy's is an upper bound on the minimum)
    assert objective[-1] <= value + 1e-9 * (1.0 + abs(value))
    assert objective[-1] == pytest.approx(value, rel=1e-8, abs=1e-10)
    # the primal point is unique (strictly convex in u), so it must agree too
    np.testing.assert_allclose(u, p + Z.T @ (y * reference), rtol=0, atol=1e-5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_solve_dense_matches_solve_linear(seed):
    Z, y, p, upper = _svm_problem(seed + 10)
    H, g = _dense_form(Z, y, p)
    beta_l, u, _, conv_l, obj_l = solve_linear(
        Z, y, upper, p, tol=1e-10, max_iter=100_000, seed=seed
    )
    beta_d, n_iter, conv_d, obj_d = solve_dense(
        H, g, upper, tol=1e-10, max_iter=100_000, seed=seed
    )
    assert conv_l and conv_d and obj_d.shape == (n_iter,)
    assert np.all((beta_d >= 0.0) & (beta_d <= upper))
    assert obj_d[-1] == pytest.approx(
        0.5 * beta_d @ H @ beta_d + g @ beta_d, rel=1e-10, abs=1e-12
    )
    # same problem, same optimal value; same (unique) primal point
    assert obj_d[-1] == pytest.approx(obj_l[-1], rel=1e-8, abs=1e-10)
    np.testing.assert_allclose(p + Z.T @ (y * beta_d), u, rtol=0, atol=1e-5)


@pytest.mark.parametrize("rank", [3, 30])
def test_solve_dense_kkt_on_a_generic_box_qp(rank):
    # a non-SVM QP (H need not have a unit-margin structure), possibly singular
    rng = np.random.default_rng(rank)
    n, tol = 30, 1e-9
    B = rng.normal(size=(n, rank))
    H = B @ B.T + (1e-3 * np.eye(n) if rank == n else 0.0)
    g = rng.normal(size=n) * 3.0
    upper = rng.uniform(0.1, 2.0, size=n)
    beta, _, converged, objective = solve_dense(
        H, g, upper, tol=tol, max_iter=200_000, seed=0
    )
    assert converged
    grad = H @ beta + g
    # every projected gradient seen in the last epoch was < tol in absolute value
    # (their window of width tol contains 0); later updates move grad_i by at most
    # sum_j |H_ij| tol / H_jj: the derived KKT tolerance
    eps = tol * (1.0 + np.max(np.abs(H) @ (1.0 / np.diag(H)))) + 1e-10
    lower_bound, upper_bound = beta == 0.0, beta == upper
    inside = ~lower_bound & ~upper_bound
    assert np.all(grad[lower_bound] >= -eps)
    assert np.all(grad[upper_bound] <= eps)
    assert np.all(np.abs(grad[inside]) <= eps)
    assert np.all(np.diff(objective) <= 1e-12 * (1.0 + np.abs(objective[:-1])))
    reference = _scipy_box_qp(H, g, upper)
    value = 0.5 * reference @ H @ reference + g @ reference
    assert objective[-1] <= value + 1e-9 * (1.0 + abs(value))


def test_solve_linear_with_shrinking_reaches_the_optimum():
    # many points far outside the margin: liblinear's shrinking removes them from
    # the active set; the final full check still certifies the optimum
    Z, y, p, upper = _svm_problem(5, n=300, d=3, shift=2.5)
    beta, u, n_iter, converged, objective = solve_linear(
        Z, y, upper, p, tol=1e-10, max_iter=100_000, seed=0
    )
    assert converged
    assert np.mean(beta == 0.0) > 0.5  # shrinking had something to shrink
    assert np.all(np.diff(objective) <= 1e-12 * (1.0 + np.abs(objective[:-1])))
    margins = y * (Z @ u)
    eps = 1e-6
    assert np.all(margins[beta == 0.0] >= 1.0 - eps)
    assert np.all(margins[beta == upper] <= 1.0 + eps)
    inside = (beta > 0.0) & (beta < upper)
    assert np.all(np.abs(margins[inside] - 1.0) <= eps)
    H, g = _dense_form(Z, y, p)
    reference = _scipy_box_qp(H, g, upper)
    value = 0.5 * reference @ H @ reference + g @ reference
    assert objective[-1] == pytest.approx(value, rel=1e-7)


@pytest.mark.parametrize("solver", ["linear", "dense"])
def test_seeds_change_the_path_not_the_optimum(solver):
    Z, y, p, upper = _svm_problem(7)
    H, g = _dense_form(Z, y, p)
    values, betas = [], []
    for seed in (0, 0, 1, 2):
        if solver == "linear":
            beta, _, _, converged, objective = solve_linear(
                Z, y, upper, p, tol=1e-10, max_iter=100_000, seed=seed
            )
        else:
            beta, _, converged, objective = solve_dense(
                H, g, upper, tol=1e-10, max_iter=100_000, seed=seed
            )
        assert converged
        values.append(objective[-1])
        betas.append(beta)
    np.testing.assert_array_equal(betas[0], betas[1])  # same seed, same run
    np.testing.assert_allclose(values, values[0], rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("solver", ["linear", "dense"])
def test_max_iter_caps_the_epochs(solver):
    Z, y, p, upper = _svm_problem(8, n=60)
    H, g = _dense_form(Z, y, p)
    if solver == "linear":
        _, _, n_iter, converged, objective = solve_linear(
            Z, y, upper, p, tol=1e-14, max_iter=2, seed=0
        )
    else:
        _, n_iter, converged, objective = solve_dense(
            H, g, upper, tol=1e-14, max_iter=2, seed=0
        )
    assert (n_iter, converged, objective.shape) == (2, False, (2,))
