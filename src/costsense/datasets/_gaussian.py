"""Two-Gaussian binary problem with its exact cost-sensitive Bayes rule and risk.

The integration behind the risk is in :mod:`costsense.datasets._gaussian_risk`,
the cubature behind a classifier's cost in :mod:`costsense.datasets._gaussian_cost`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special
from sklearn.utils import check_random_state

from ..costs import as_binary_costs
from ._gaussian_cost import as_predict, grid_rate, sobol_rate
from ._gaussian_risk import prob_positive

__all__ = ["GaussianProblem", "make_gaussian_problem"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: Paper 000's positive (costly) class: mean and covariance.
_PAPER_000_MEANS = ((-1.0, 1.0), (1.0, -1.0))
_PAPER_000_COVS = (((5.2, 2.0), (2.0, 3.7)), ((3.3, 1.5), (1.5, 4.6)))
_PAPER_000_PRIORS = (0.5, 0.5)


def _numeric(value: ArrayLike, name: str) -> FloatArray:
    """Return ``value`` as a float array, or raise a TypeError naming ``name``."""
    try:
        return np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be numeric, got {value!r}.") from None


def _validate(
    means: ArrayLike, covs: ArrayLike, priors: ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Check the parameters of two Gaussians and return them as float arrays."""
    m = _numeric(means, "means")
    if m.ndim != 2 or m.shape[0] != 2 or m.shape[1] < 1:
        raise ValueError(
            "means must have shape (2, n_features): the positive class's mean first, "
            f"then the negative class's; got shape {m.shape}."
        )
    d = m.shape[1]
    s = _numeric(covs, "covs")
    if s.shape != (2, d, d):
        raise ValueError(
            f"covs must have shape (2, {d}, {d}) (one {d} x {d} covariance per class, "
            f"matching means of shape {m.shape}); got shape {s.shape}."
        )
    p = _numeric(priors, "priors")
    for name, arr in (("means", m), ("covs", s), ("priors", p)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} contains NaN or infinite values.")
    for k, label in enumerate(("positive", "negative")):
        if not np.allclose(s[k], s[k].T, rtol=1e-10, atol=1e-12):
            raise ValueError(
                f"covs[{k}] (the {label} class) is not symmetric: {s[k].tolist()}."
            )
        s[k] = 0.5 * (s[k] + s[k].T)
        if np.linalg.eigvalsh(s[k]).min() <= 0:
            raise ValueError(
                f"covs[{k}] (the {label} class) is not positive definite: "
                f"eigenvalues {np.linalg.eigvalsh(s[k]).tolist()}. A covariance "
                "matrix needs all eigenvalues > 0."
            )
    if p.shape != (2,):
        raise ValueError(
            f"priors must be a pair (pi_plus, pi_minus), got shape {p.shape}."
        )
    if np.any(p <= 0) or not np.isclose(p.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(
            f"priors must be two positive probabilities summing to 1, got {p.tolist()}."
        )
    return m, s, p / p.sum()


def make_gaussian_problem(
    means: ArrayLike | None = None,
    covs: ArrayLike | None = None,
    priors: ArrayLike | None = None,
) -> GaussianProblem:
    """Two-Gaussian binary problem; by default the synthetic problem of paper 000.

    Parameters
    ----------
    means : array-like of shape (2, n_features), default=None
        Class means, positive (label ``+1``, the costly class) first. ``None`` gives
        paper 000's ``[[-1, 1], [1, -1]]``.
    covs : array-like of shape (2, n_features, n_features), default=None
        Class covariances, symmetric positive definite, positive class first. ``None``
        gives ``[[[5.2, 2], [2, 3.7]], [[3.3, 1.5], [1.5, 4.6]]]``.
    priors : array-like of shape (2,), default=None
        Class probabilities ``(pi_plus, pi_minus)``, positive and summing to 1.
        ``None`` gives ``(0.5, 0.5)``.

    Returns
    -------
    GaussianProblem

    Notes
    -----
    Paper 000 draws 1000 points per class from
    ``p+ = N([-1, 1], [[5.2, 2], [2, 3.7]])`` and ``p- = N([1, -1], [[3.3, 1.5],
    [1.5, 4.6]])`` and compares boosting boundaries with the cost-sensitive Bayes
    boundary for ``C1/C2`` in ``{2, 5, 8, 10}`` [1]_.

    References
    ----------
    .. [1] Y. Cao, Q. Miao, J. Liu, L. Gao, "Fisher consistent cost sensitive boosting
       algorithm", Journal of Software (Ruan Jian Xue Bao) 24(11), 2584-2596, 2013
       (in Chinese).

    Examples
    --------
    >>> from costsense.datasets import make_gaussian_problem
    >>> problem = make_gaussian_problem()
    >>> X, y = problem.sample(10, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((10, 2), [-1, 1])
    >>> round(problem.bayes_risk(5), 6)
    0.33011
    """
    return GaussianProblem(
        _PAPER_000_MEANS if means is None else means,
        _PAPER_000_COVS if covs is None else covs,
        _PAPER_000_PRIORS if priors is None else priors,
    )


class GaussianProblem:
    r"""A binary problem whose classes are two known Gaussians.

    The positive class (label ``+1``, the costly one) has density
    ``p+ = N(means[0], covs[0])`` and prior ``pi+ = priors[0]``; the negative class
    (label ``-1``) has ``p- = N(means[1], covs[1])`` and ``pi- = priors[1]``. Because
    the densities are known, the cost-sensitive Bayes rule and its risk are exact.

    Parameters
    ----------
    means : array-like of shape (2, n_features)
        Class means, positive class first.
    covs : array-like of shape (2, n_features, n_features)
        Class covariances (symmetric positive definite), positive class first.
    priors : array-like of shape (2,)
        ``(pi+, pi-)``, positive, summing to 1.

    Attributes
    ----------
    means, covs, priors : ndarray
        The parameters, validated (read-only).
    n_features : int
        Dimension of the input space.

    Notes
    -----
    Costs: ``C1`` is the cost of a false negative (a positive predicted ``-1``), ``C2``
    that of a false positive; ``cost`` is a ratio ``C1/C2`` (with ``C2 = 1``) or a pair
    ``(C1, C2)``, read by :func:`costsense.costs.as_binary_costs`.

    The cost-sensitive Bayes rule [2]_ predicts ``+1`` iff
    ``C1 pi+ p+(x) > C2 pi- p-(x)``, i.e. iff the *Bayes discriminant*

    .. math:: g(x) = \log\frac{p_+(x)}{p_-(x)} - \log\frac{C_2 \pi_-}{C_1 \pi_+}

    is positive (ties predict ``-1``). :math:`g` is quadratic in :math:`x`, so the
    Bayes boundary :math:`g = 0` is a conic (a hyperplane if the covariances are
    equal). Its risk is

    .. math:: R = \int \min(C_1 \pi_+ p_+(x), C_2 \pi_- p_-(x))\,dx
              = C_1 \pi_+ P_+(g \le 0) + C_2 \pi_- P_-(g > 0).

    The two probabilities are integrated ray by ray in each class's whitened
    coordinates (:mod:`costsense.datasets._gaussian_risk`).

    References
    ----------
    .. [1] Y. Cao, Q. Miao, J. Liu, L. Gao, "Fisher consistent cost sensitive boosting
       algorithm", Journal of Software (Ruan Jian Xue Bao) 24(11), 2584-2596, 2013
       (in Chinese); section 4.1, two-Gaussian experiment.
    .. [2] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.

    Examples
    --------
    >>> from costsense.datasets import make_gaussian_problem
    >>> problem = make_gaussian_problem()
    >>> problem.bayes_decision([[-1.0, 1.0], [3.0, -3.0]], cost=5).tolist()
    [1, -1]
    """

    def __init__(self, means: ArrayLike, covs: ArrayLike, priors: ArrayLike) -> None:
        m, s, p = _validate(means, covs, priors)
        self.means = m
        self.covs = s
        self.priors = p
        self.n_features = int(m.shape[1])
        self._chol = np.linalg.cholesky(s)
        self._logdet = 2.0 * np.log(np.diagonal(self._chol, axis1=1, axis2=2)).sum(1)
        self._prec = np.linalg.inv(s)
        for arr in (self.means, self.covs, self.priors, self._chol, self._prec):
            arr.flags.writeable = False

    def __repr__(self) -> str:
        return (
            f"GaussianProblem(means={self.means.tolist()}, covs={self.covs.tolist()}, "
            f"priors={self.priors.tolist()})"
        )

    # ------------------------------------------------------------------ sampling
    def sample(
        self, n: int, random_state: int | np.random.RandomState | None = None
    ) -> tuple[FloatArray, IntArray]:
        """Draw a stratified, shuffled sample.

        Parameters
        ----------
        n : int
            Number of samples, ``>= 1``.
        random_state : int, RandomState instance or None, default=None
            Seed; an int gives the same sample on every call.

        Returns
        -------
        X : ndarray of shape (n, n_features)
        y : ndarray of shape (n,)
            Integer labels in ``{-1, +1}``.

        Notes
        -----
        The class counts are fixed: ``n_pos = floor(n * pi+ + 1/2)`` positives
        from ``p+``, the rest from ``p-``, then shuffled. Paper 000 draws 1000
        points per class (``n = 2000`` with equal priors).
        """
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}.")
        rng = check_random_state(random_state)
        n_pos = int(np.floor(n * self.priors[0] + 0.5))
        counts = (n_pos, int(n) - n_pos)
        parts = [
            self.means[k]
            + rng.standard_normal((counts[k], self.n_features)) @ self._chol[k].T
            for k in range(2)
        ]
        X = np.concatenate(parts, axis=0)
        y = np.concatenate(
            [np.ones(counts[0], dtype=np.int64), -np.ones(counts[1], dtype=np.int64)]
        )
        order = rng.permutation(int(n))
        return X[order], y[order]

    # ------------------------------------------------------------ the Bayes rule
    def _check_X(self, X: ArrayLike) -> FloatArray:
        try:
            arr = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("X must be numeric.") from None
        if arr.ndim != 2 or arr.shape[1] != self.n_features:
            raise ValueError(
                f"X must have shape (n_samples, {self.n_features}), got {arr.shape}."
            )
        if not np.all(np.isfinite(arr)):
            raise ValueError("X contains NaN or infinite values.")
        return arr

    def _log_density(self, X: FloatArray, k: int) -> FloatArray:
        diff = X - self.means[k]
        maha = np.einsum("ij,jk,ik->i", diff, self._prec[k], diff)
        return -0.5 * (maha + self._logdet[k] + self.n_features * np.log(2 * np.pi))

    def log_likelihood_ratio(self, X: ArrayLike) -> FloatArray:
        """Log-likelihood ratio ``log p+(x) - log p-(x)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        arr = self._check_X(X)
        return self._log_density(arr, 0) - self._log_density(arr, 1)

    def posterior(self, X: ArrayLike) -> FloatArray:
        """Posterior probability of the positive class, ``P(+|x)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``pi+ p+(x) / (pi+ p+(x) + pi- p-(x))``.
        """
        log_odds = self.log_likelihood_ratio(X) + np.log(
            self.priors[0] / self.priors[1]
        )
        return special.expit(log_odds)

    def _log_threshold(self, cost: Any) -> float:
        c1, c2 = as_binary_costs(cost)
        return float(np.log((c2 * self.priors[1]) / (c1 * self.priors[0])))

    def bayes_discriminant(self, X: ArrayLike, *, cost: Any) -> FloatArray:
        """Cost-sensitive Bayes discriminant ``g(x)``; the rule predicts ``+1`` iff > 0.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points.
        cost : float or pair of floats
            ``C1/C2`` or ``(C1, C2)``.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``log(p+(x)/p-(x)) - log(C2 pi- / (C1 pi+))``.
        """
        return self.log_likelihood_ratio(X) - self._log_threshold(cost)

    def bayes_decision(self, X: ArrayLike, *, cost: Any) -> IntArray:
        """Cost-sensitive Bayes decision: ``+1`` where :meth:`bayes_discriminant` > 0.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points.
        cost : float or pair of floats
            ``C1/C2`` or ``(C1, C2)``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        g = self.bayes_discriminant(X, cost=cost)
        return np.where(g > 0, 1, -1).astype(np.int64)

    def bayes_boundary_grid(
        self,
        cost: Any,
        xlim: tuple[float, float] | None = None,
        ylim: tuple[float, float] | None = None,
        resolution: int = 200,
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Grid of the Bayes discriminant, ready for ``contour(xx, yy, g, [0])``.

        Parameters
        ----------
        cost : float or pair of floats
            ``C1/C2`` or ``(C1, C2)``.
        xlim, ylim : pair of float, default=None
            Plot window; ``None`` spans both means +- 4 standard deviations.
        resolution : int, default=200
            Grid points per axis.

        Returns
        -------
        xx, yy : ndarray of shape (resolution, resolution)
            Coordinates, as from ``numpy.meshgrid``.
        g : ndarray of shape (resolution, resolution)
            :meth:`bayes_discriminant` on the grid (the boundary is its zero level).
        """
        if self.n_features != 2:
            raise ValueError(
                f"bayes_boundary_grid needs a 2-D problem; this one has "
                f"{self.n_features} features."
            )
        if isinstance(resolution, bool) or int(resolution) < 2:
            raise ValueError(f"resolution must be an integer >= 2, got {resolution!r}.")
        sd = np.sqrt(np.diagonal(self.covs, axis1=1, axis2=2))
        lo = (self.means - 4 * sd).min(axis=0)
        hi = (self.means + 4 * sd).max(axis=0)
        xlim = (lo[0], hi[0]) if xlim is None else xlim
        ylim = (lo[1], hi[1]) if ylim is None else ylim
        xs = np.linspace(float(xlim[0]), float(xlim[1]), int(resolution))
        ys = np.linspace(float(ylim[0]), float(ylim[1]), int(resolution))
        xx, yy = np.meshgrid(xs, ys)
        g = self.bayes_discriminant(np.c_[xx.ravel(), yy.ravel()], cost=cost)
        return xx, yy, g.reshape(xx.shape)

    # --------------------------------------------------------------- Bayes risk
    def _whitened_quadratic(
        self, k: int, log_threshold: float
    ) -> tuple[FloatArray, FloatArray, float]:
        """``g(mu_k + L_k z) = z'Qz + b'z + c``; returns ``(Q, b, c)``."""
        L = self._chol[k]
        d_pos = self.means[k] - self.means[0]
        d_neg = self.means[k] - self.means[1]
        A_pos, A_neg = self._prec[0], self._prec[1]
        Q = 0.5 * L.T @ (A_neg - A_pos) @ L
        b = L.T @ (A_neg @ d_neg - A_pos @ d_pos)
        c = (
            0.5 * d_neg @ A_neg @ d_neg
            - 0.5 * d_pos @ A_pos @ d_pos
            + 0.5 * (self._logdet[1] - self._logdet[0])
            - log_threshold
        )
        return 0.5 * (Q + Q.T), b, float(c)

    def _prob_positive(self, k: int, log_threshold: float) -> tuple[float, float]:
        """``P_k(g(x) > 0)`` for class ``k`` and an estimate of its absolute error."""
        return prob_positive(*self._whitened_quadratic(k, log_threshold))

    def error_rates(self, cost: Any) -> tuple[float, float]:
        """False-negative and false-positive rates of the Bayes rule.

        Parameters
        ----------
        cost : float or pair of floats
            ``C1/C2`` or ``(C1, C2)``.

        Returns
        -------
        fnr, fpr : float
            ``P+(g(x) <= 0)`` and ``P-(g(x) > 0)``.
        """
        t = self._log_threshold(cost)
        fnr = 1.0 - self._prob_positive(0, t)[0]
        fpr = self._prob_positive(1, t)[0]
        return float(fnr), float(fpr)

    def bayes_risk(
        self, cost: Any, *, return_error: bool = False
    ) -> float | tuple[float, float]:
        """Return the Bayes risk: the expected cost per sample of the Bayes rule.

        Parameters
        ----------
        cost : float or pair of floats
            ``C1/C2`` or ``(C1, C2)``.
        return_error : bool, default=False
            Also return an estimate of the absolute numerical error.

        Returns
        -------
        risk : float
            ``C1 pi+ P+(g <= 0) + C2 pi- P-(g > 0)`` (see the class Notes).
        error : float
            Only if ``return_error``: the quadrature error estimate (two
            features), 0 for one feature, the randomised-QMC standard error for
            three or more.
        """
        c1, c2 = as_binary_costs(cost)
        t = self._log_threshold(cost)
        p_pos, e_pos = self._prob_positive(0, t)
        p_neg, e_neg = self._prob_positive(1, t)
        fnr = min(max(1.0 - p_pos, 0.0), 1.0)
        fpr = min(max(p_neg, 0.0), 1.0)
        pi_pos, pi_neg = self.priors
        risk = float(c1 * pi_pos * fnr + c2 * pi_neg * fpr)
        if return_error:
            return risk, float(c1 * pi_pos * e_pos + c2 * pi_neg * e_neg)
        return risk

    # ----------------------------------------------------- any classifier's cost
    def expected_cost(
        self, classifier: Any, *, cost: Any, resolution: int = 2048
    ) -> float:
        """Return the expected cost per sample of any classifier on this problem.

        Parameters
        ----------
        classifier : estimator with ``predict``, or callable
            A fitted estimator, or a function, mapping ``X`` to labels in
            ``{-1, +1}``.
        cost : float or pair of floats
            ``C1/C2`` or ``(C1, C2)``.
        resolution : int, default=2048
            Points per axis of each class's grid (two features); for other
            dimensions ``resolution**2`` quasi-random points per class.

        Returns
        -------
        float
            ``C1 pi+ P+(h(x) = -1) + C2 pi- P-(h(x) = +1)``.

        Notes
        -----
        Each class probability is a deterministic cubature of the classifier's
        indicator (:mod:`costsense.datasets._gaussian_cost`): a polar midpoint
        grid for two features, scrambled Sobol points otherwise.
        """
        predict = as_predict(classifier)
        c1, c2 = as_binary_costs(cost)
        if (
            isinstance(resolution, bool)
            or not isinstance(resolution, int | np.integer)
            or resolution < 4
        ):
            raise ValueError(f"resolution must be an integer >= 4, got {resolution!r}.")
        n = int(resolution)
        rates = []
        for k, wrong in ((0, -1), (1, 1)):
            mean, chol = self.means[k], self._chol[k]
            if self.n_features == 2:
                rates.append(grid_rate(predict, mean, chol, wrong, n))
            else:
                rates.append(sobol_rate(predict, mean, chol, wrong, n * n, seed=k))
        pi_pos, pi_neg = self.priors
        return float(c1 * pi_pos * rates[0] + c2 * pi_neg * rates[1])
