"""Full-covariance Gaussian mixtures in numpy, for OBPD's component searches.

What :class:`~costsense.sampling.OBPDSampler` needs beyond scikit-learn's
:class:`~sklearn.mixture.GaussianMixture`: EM runs that can be started from given
parameters and stopped early, evaluated for many component counts on the same rows
(the AIC/BIC search of :func:`split_search`) or one component at a time (Figueiredo
& Jain's CEM^2, :mod:`costsense.sampling._fj`).

Every density and moment goes through one *quadratic design* of the rows,
``F = [z_a z_b (a <= b), z, 1]`` (:class:`QuadraticFeatures`): a Gaussian's log
density is linear in ``F`` (:func:`density_coefficients`), and so are the weighted
sums an M-step needs (``R' F`` holds each component's weight, first and second
moments; :func:`moments`). An E-step over all components is then one matrix
product ``F C`` and an M-step one product ``R' F``, instead of scikit-learn's two
products per component; on 20,877 x 20 rows and 10 components an EM iteration takes
about half of scikit-learn's time (20 ms against 40 ms, one BLAS thread). The second
moments come out as ``E_r[z z'] - mu mu'``: on standardised columns the
cancellation costs a few digits far below ``reg_covar``, and a covariance that is
still not positive definite is recomputed from centred rows (:func:`moments`).

:func:`split_search` is the cheap AIC/BIC search over ``1 .. max_count``
components: one EM run per count, each started from the previous count's solution
with one component split in two (no random start: the search is a function of the
rows). The component split is the one whose rows gain the most log-likelihood from
a two-component fit of their own (the split step of greedy mixture learning,
Verbeek, Vlassis & Krose 2003, and of Ueda et al.'s SMEM, 2000):

- the rows a component holds (those it is the most likely for) get two short EM
  runs, from the Gaussian cut across its principal axis and from 2-means started
  at that cut's half-means; the better counts, provided each half keeps at least
  ``2 (d + 1)`` rows (a half on fewer rows can fold onto a few nearly collinear
  ones and buy likelihood without bound, which AIC would reward);
- a component the last split left alone keeps its candidate from before (the EM
  that follows moves it little): each count fits the candidates of the two new
  components only, not of all ``k``.

Splitting the heaviest component instead fails when a heavy single Gaussian sits
beside two small merged clusters: the merged pair would never be split. Each
count's EM stops like scikit-learn's, when the mean log-likelihood per row changes
by less than ``tol`` (1e-3), after at most ``max_iter`` (100) iterations; after a
good split it often stops within a few iterations. The fits are local optima like
scikit-learn's, not always the same ones: at some counts either is the better, and
``benchmarks/sampling.py`` prints the AIC each search chooses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sklearn.mixture import GaussianMixture

FloatArray = NDArray[np.float64]

__all__: list[str] = []

#: Largest cached quadratic design, in bytes; beyond it the design is rebuilt in
#: blocks of rows at each product (the same arithmetic, more time).
DESIGN_BYTES = 1 << 27
LOG_2PI = float(np.log(2.0 * np.pi))


# ------------------------------------------------------------------ the design
class QuadraticFeatures:
    """The quadratic design ``F = [z_a z_b for a <= b, z, 1]`` of a set of rows.

    A Gaussian log density is ``F c`` for the ``c`` of
    :func:`density_coefficients`; the weighted sums an M-step needs are ``r' F``.
    The design is kept when it takes at most :data:`DESIGN_BYTES`; otherwise each
    product rebuilds it block by block.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        The rows.
    """

    def __init__(self, Z: FloatArray, design: FloatArray | None = None) -> None:
        self.Z = np.ascontiguousarray(Z, dtype=np.float64)
        n, d = self.Z.shape
        self.upper = np.triu_indices(d)
        self.n_quadratic = self.upper[0].size
        self.n_columns = self.n_quadratic + d + 1
        self.block = max(1, DESIGN_BYTES // (8 * self.n_columns))
        if design is None and n <= self.block:
            design = self._design(0, n)
        self._cached = design

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.Z.shape[0])

    def _design(self, start: int, stop: int) -> FloatArray:
        z = self.Z[start:stop]
        design = np.empty((z.shape[0], self.n_columns))
        np.multiply(
            z[:, self.upper[0]], z[:, self.upper[1]], out=design[:, : self.n_quadratic]
        )
        design[:, self.n_quadratic : -1] = z
        design[:, -1] = 1.0
        return design

    def _blocks(self) -> list[tuple[int, int]]:
        n = self.n_samples
        return [(i, min(i + self.block, n)) for i in range(0, n, self.block)]

    def dot(self, coefficients: FloatArray) -> FloatArray:
        """``F @ coefficients``: shape (n_samples,) or (n_samples, k)."""
        if self._cached is not None:
            return np.asarray(self._cached @ coefficients)
        return np.concatenate(
            [self._design(a, b) @ coefficients for a, b in self._blocks()]
        )

    def weighted_sums(self, weights: FloatArray) -> FloatArray:
        """``weights' @ F``: shape (n_columns,) or (k, n_columns).

        ``weights`` has shape (n_samples,) or (n_samples, k).
        """
        if self._cached is not None:
            return np.asarray(weights.T @ self._cached)
        total = np.zeros((*weights.shape[1:], self.n_columns))
        for a, b in self._blocks():
            total += weights[a:b].T @ self._design(a, b)
        return total

    def subset(self, rows: NDArray[np.intp]) -> QuadraticFeatures:
        """Return the design of some of the rows."""
        design = None if self._cached is None else self._cached[rows]
        return QuadraticFeatures(self.Z[rows], design)


# ----------------------------------------------------- densities and moments
def density_coefficients(means: FloatArray, covariances: FloatArray) -> FloatArray:
    """Coefficients ``C`` with ``(F C)[i, k] = log N(z_i | mu_k, Sigma_k)``.

    ``log N(z) = -1/2 z' P z + z' P mu - 1/2 mu' P mu - 1/2 log det Sigma -
    d/2 log 2 pi`` with ``P = Sigma^-1``: the quadratic part weighs ``z_a z_b`` by
    ``-P_ab`` off the diagonal (both ``ab`` and ``ba``) and ``-P_aa / 2`` on it.

    Parameters
    ----------
    means : ndarray of shape (k, d)
    covariances : ndarray of shape (k, d, d)
        Positive definite.

    Returns
    -------
    ndarray of shape (n_columns, k)
        For :meth:`QuadraticFeatures.dot`.

    Raises
    ------
    numpy.linalg.LinAlgError
        When a covariance is not positive definite.
    """
    k, d = means.shape
    chol = np.linalg.cholesky(covariances)
    inverse_chol = np.linalg.inv(chol)
    precisions = np.einsum("kba,kbc->kac", inverse_chol, inverse_chol)
    log_det = 2.0 * np.log(np.einsum("kaa->ka", chol)).sum(axis=1)
    upper = np.triu_indices(d)
    off_diagonal = np.where(upper[0] == upper[1], 0.5, 1.0)
    quadratic = -precisions[:, upper[0], upper[1]] * off_diagonal
    linear = np.einsum("kab,kb->ka", precisions, means)
    constant = -0.5 * (np.einsum("ka,ka->k", means, linear) + log_det + d * LOG_2PI)
    return np.concatenate([quadratic, linear, constant[:, None]], axis=1).T


def moments(
    sums: FloatArray,
    features: QuadraticFeatures,
    reg_covar: float,
    responsibilities: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Run a weighted M-step: each component's weight total, mean and covariance.

    With ``r`` a component's responsibilities, ``n_k = sum_i r_i``, ``mu = sum_i
    r_i z_i / n_k`` and ``Sigma = sum_i r_i z_i z_i' / n_k - mu mu' + reg I`` (the
    maximum-likelihood step of EM, Dempster, Laird & Rubin 1977; ``reg`` as
    scikit-learn's ``reg_covar``).

    Parameters
    ----------
    sums : ndarray of shape (k, n_columns)
        ``r' F`` (:meth:`QuadraticFeatures.weighted_sums`).
    features : QuadraticFeatures
        The design the sums came from.
    reg_covar : float
        Added to every covariance's diagonal.
    responsibilities : ndarray of shape (n_samples, k), default=None
        ``r`` itself: when a covariance from ``sums`` is not positive definite
        (cancellation), it is recomputed from centred rows.

    Returns
    -------
    totals : ndarray of shape (k,)
    means : ndarray of shape (k, d)
    covariances : ndarray of shape (k, d, d)
    """
    q, d = features.n_quadratic, features.Z.shape[1]
    totals = sums[:, -1] + 10 * np.finfo(np.float64).eps
    means = sums[:, q:-1] / totals[:, None]
    second = np.empty((sums.shape[0], d, d))
    upper = features.upper
    second[:, upper[0], upper[1]] = sums[:, :q]
    second[:, upper[1], upper[0]] = sums[:, :q]
    covariances = second / totals[:, None, None] - np.einsum("ka,kb->kab", means, means)
    covariances[:, np.arange(d), np.arange(d)] += reg_covar
    if responsibilities is not None:
        for k in range(sums.shape[0]):
            try:
                np.linalg.cholesky(covariances[k])
            except np.linalg.LinAlgError:
                centred = features.Z - means[k]
                r = responsibilities[:, k]
                covariances[k] = (r[:, None] * centred).T @ centred / totals[k]
                covariances[k] += reg_covar * np.eye(d)
    return totals, means, covariances


def log_normalise(log_joint: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Row-wise ``log sum exp`` and the responsibilities ``exp(log_joint - it)``."""
    top = log_joint.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    shifted = np.exp(log_joint - top)
    total = shifted.sum(axis=1, keepdims=True)
    return np.log(total[:, 0]) + top[:, 0], shifted / total


# ------------------------------------------------------------------ EM
@dataclass(frozen=True)
class MixtureFit:
    """A fitted full-covariance Gaussian mixture.

    Attributes
    ----------
    weights : ndarray of shape (k,)
    means : ndarray of shape (k, d)
    covariances : ndarray of shape (k, d, d)
    log_likelihood : float
        ``sum_i log sum_k pi_k N(z_i | mu_k, Sigma_k)`` on the rows it was fitted to.
    n_iter : int
        EM iterations run (for the last count of a search).
    converged : bool
        Whether the last EM run met its tolerance.
    """

    weights: FloatArray
    means: FloatArray
    covariances: FloatArray
    log_likelihood: float
    n_iter: int = 0
    converged: bool = True

    @property
    def n_components(self) -> int:
        """Number of components."""
        return int(self.weights.size)


def n_parameters(n_components: int, n_features: int) -> int:
    """Free parameters of a full-covariance mixture: ``k - 1 + k (d + d(d+1)/2)``."""
    d = n_features
    return n_components - 1 + n_components * (d + d * (d + 1) // 2)


def criterion(fit: MixtureFit, n_samples: int, n_features: int, kind: str) -> float:
    """Return AIC, ``-2 log L + 2 p`` (Akaike 1974), or BIC, ``-2 log L + p log n``.

    BIC is Schwarz's (1978).

    ``p`` is :func:`n_parameters`; the same values as scikit-learn's
    :meth:`~sklearn.mixture.GaussianMixture.aic` and ``bic``.
    """
    p = n_parameters(fit.n_components, n_features)
    penalty = 2.0 * p if kind == "aic" else p * np.log(n_samples)
    return float(-2.0 * fit.log_likelihood + penalty)


def expectation_maximisation(
    features: QuadraticFeatures,
    weights: FloatArray,
    means: FloatArray,
    covariances: FloatArray,
    *,
    reg_covar: float,
    tol: float = 1e-3,
    max_iter: int = 100,
) -> MixtureFit:
    """EM for a full-covariance Gaussian mixture from given parameters.

    Each iteration is an E-step, ``r_ik = pi_k N(z_i | theta_k) / sum_j pi_j
    N(z_i | theta_j)``, and the M-step of :func:`moments` with ``pi_k = n_k / n``
    (Dempster, Laird & Rubin 1977). It stops, as scikit-learn's does, when the mean
    log-likelihood per row changes by less than ``tol``, or after ``max_iter``
    M-steps; the parameters returned are those whose log-likelihood is returned.

    Parameters
    ----------
    features : QuadraticFeatures
        The rows' design.
    weights, means, covariances : ndarray
        The starting mixture, shapes (k,), (k, d), (k, d, d).
    reg_covar : float
        Added to the covariances' diagonals at each M-step.
    tol : float, default=1e-3
        Tolerance on the change of the mean log-likelihood per row.
    max_iter : int, default=100
        Largest number of M-steps.

    Returns
    -------
    MixtureFit
    """
    n = features.n_samples
    previous = -np.inf
    n_iter, converged = 0, False
    while True:
        log_joint = features.dot(density_coefficients(means, covariances))
        log_norm, responsibilities = log_normalise(log_joint + np.log(weights))
        log_likelihood = float(log_norm.sum())
        if abs(log_likelihood - previous) < tol * n:
            converged = True
            break
        if n_iter == max_iter:
            break
        previous = log_likelihood
        sums = features.weighted_sums(responsibilities)
        totals, means, covariances = moments(
            sums, features, reg_covar, responsibilities
        )
        weights = totals / totals.sum()
        n_iter += 1
    return MixtureFit(weights, means, covariances, log_likelihood, n_iter, converged)


def one_gaussian(features: QuadraticFeatures, reg_covar: float) -> MixtureFit:
    """Fit the maximum-likelihood single Gaussian (covariance ``ddof=0``, + reg)."""
    Z = features.Z
    n, d = Z.shape
    mean = Z.mean(axis=0)
    centred = Z - mean
    covariance = centred.T @ centred / n + reg_covar * np.eye(d)
    log_density = features.dot(density_coefficients(mean[None], covariance[None]))
    return MixtureFit(
        np.ones(1), mean[None], covariance[None], float(log_density.sum()), 0, True
    )


# ------------------------------------------------------------------ splits
def principal_split(
    mean: FloatArray, covariance: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Two halves of a Gaussian cut across its principal axis.

    With ``lambda, v`` the covariance's largest eigenpair, a Gaussian cut at its mean
    across ``v`` has halves of means ``mu +- sqrt(2 lambda / pi) v`` and covariance
    ``Sigma - (2 / pi) lambda v v'`` (the moments of a half-normal): a start for EM
    with the same first two moments as the component it replaces.

    Returns
    -------
    weights : ndarray of shape (2,)
    means : ndarray of shape (2, d)
    covariances : ndarray of shape (2, d, d)
    """
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    lam, v = max(float(eigenvalues[-1]), 0.0), eigenvectors[:, -1]
    shift = np.sqrt(2.0 * lam / np.pi) * v
    halved = covariance - (2.0 / np.pi) * lam * np.outer(v, v)
    return (
        np.full(2, 0.5),
        np.stack([mean + shift, mean - shift]),
        np.stack([halved, halved]),
    )


@dataclass(frozen=True)
class Split:
    """A component's candidate split: the two-component fit of the rows it holds.

    Attributes
    ----------
    gain : float
        Log-likelihood of the rows under ``halves`` minus under the component alone.
    halves : MixtureFit
        The two local components (weights summing to 1).
    """

    gain: float
    halves: MixtureFit


def two_means_split(
    features: QuadraticFeatures,
    centres: FloatArray,
    reg_covar: float,
    n_lloyd: int = 10,
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """Return a two-cluster start: 2-means on the rows from the given centres.

    At most ``n_lloyd`` Lloyd iterations (k-means, Lloyd 1982) from ``centres``
    (the half-means of :func:`principal_split`); each cluster's weight, mean and
    covariance (+ ``reg_covar``) start EM. Where the principal split cuts through
    the middle of a cluster (three clusters in a triangle have a nearly round
    covariance, so its principal axis is arbitrary), hard assignments move the cut
    to a gap between clusters, where EM from the soft halves stalls. None when a
    cluster ends up empty.
    """
    Z = features.Z
    owner = np.zeros(Z.shape[0], dtype=np.intp)
    for _ in range(n_lloyd):
        distances = (
            (Z**2).sum(axis=1)[:, None] - 2.0 * Z @ centres.T + (centres**2).sum(1)
        )
        new_owner = np.argmin(distances, axis=1)
        counts = np.bincount(new_owner, minlength=2)
        if np.any(counts == 0):
            return None
        centres = np.stack([Z[new_owner == j].mean(axis=0) for j in range(2)])
        if np.array_equal(new_owner, owner):
            break
        owner = new_owner
    responsibilities = np.zeros((Z.shape[0], 2))
    responsibilities[np.arange(Z.shape[0]), owner] = 1.0
    totals, means, covariances = moments(
        features.weighted_sums(responsibilities),
        features,
        reg_covar,
        responsibilities,
    )
    return totals / totals.sum(), means, covariances


def candidate_split(
    fit: MixtureFit,
    k: int,
    features: QuadraticFeatures,
    rows: NDArray[np.intp],
    reg_covar: float,
    *,
    local_iter: int,
    tol: float,
) -> Split | None:
    """Split component ``k`` of ``fit`` by a two-component EM on its own rows.

    Two EM runs of at most ``local_iter`` iterations, one from
    :func:`principal_split` and one from :func:`two_means_split`; the one of
    higher log-likelihood whose halves each hold at least ``2 (d + 1)`` rows
    (their weights times the rows) is the candidate. A half on fewer rows can fold
    onto a few nearly collinear ones and buy log-likelihood without bound; the
    floor is twice the ``D + 1`` rows per component of OBPD's cap. None when no
    run qualifies (or the component holds fewer than ``4 (d + 1)`` rows).
    """
    minimum = 2 * (features.Z.shape[1] + 1)
    if rows.size < 2 * minimum:
        return None
    local = features.subset(rows)
    one = density_coefficients(fit.means[k : k + 1], fit.covariances[k : k + 1])
    alone = float(local.dot(one).sum())
    starts = [principal_split(fit.means[k], fit.covariances[k])]
    clusters = two_means_split(local, starts[0][1], reg_covar)
    if clusters is not None:
        starts.append(clusters)
    best: MixtureFit | None = None
    for start in starts:
        halves = expectation_maximisation(
            local, *start, reg_covar=reg_covar, tol=tol, max_iter=local_iter
        )
        if halves.weights.min() * rows.size < minimum:
            continue
        if best is None or halves.log_likelihood > best.log_likelihood:
            best = halves
    return None if best is None else Split(best.log_likelihood - alone, best)


def best_split(
    fit: MixtureFit,
    features: QuadraticFeatures,
    reg_covar: float,
    candidates: list[Split | None] | None = None,
    *,
    local_iter: int = 20,
    tol: float = 1e-3,
) -> tuple[tuple[FloatArray, FloatArray, FloatArray], list[Split | None]] | None:
    """Find the ``k + 1``-component start that splits the most promising component.

    Each component's rows (those it is the most likely for) get a two-component EM
    of their own (:func:`candidate_split`); the component whose rows gain the most
    log-likelihood over its single Gaussian is replaced by the two local
    components, their weights scaled to its own, and put last.

    Parameters
    ----------
    fit : MixtureFit
        The current mixture.
    features : QuadraticFeatures
        The rows' design.
    reg_covar : float
        Added to the covariances' diagonals.
    candidates : list, default=None
        Candidate splits already computed, by component (None: to compute). In a
        search, the components a split left alone keep theirs: EM moves them
        little, and re-fitting every component at every count would cost as much
        as the search itself.
    local_iter : int, default=20
        EM iterations of a candidate split.
    tol : float, default=1e-3
        Their tolerance.

    Returns
    -------
    start : (weights, means, covariances) or None
        None when no component holds enough rows to be split.
    candidates : list
        The candidate splits of ``start``'s components (None for the two new ones).
    """
    if candidates is None:
        candidates = [None] * fit.n_components
    log_joint = features.dot(density_coefficients(fit.means, fit.covariances))
    owner = np.argmax(log_joint + np.log(fit.weights), axis=1)
    candidates = list(candidates)
    for k in range(fit.n_components):
        if candidates[k] is None:
            rows = np.flatnonzero(owner == k)
            candidates[k] = candidate_split(
                fit, k, features, rows, reg_covar, local_iter=local_iter, tol=tol
            )
    gains = [-np.inf if c is None else c.gain for c in candidates]
    if not np.isfinite(max(gains)):
        return None
    k = int(np.argmax(gains))
    halves = candidates[k].halves  # type: ignore[union-attr]
    keep = np.arange(fit.n_components) != k
    start = (
        np.concatenate([fit.weights[keep], fit.weights[k] * halves.weights]),
        np.concatenate([fit.means[keep], halves.means]),
        np.concatenate([fit.covariances[keep], halves.covariances]),
    )
    return start, [c for i, c in enumerate(candidates) if i != k] + [None, None]


def split_search(
    Z: FloatArray,
    max_count: int,
    kind: str,
    *,
    reg_covar: float,
    tol: float = 1e-3,
    max_iter: int = 100,
) -> tuple[MixtureFit, dict[int, float]]:
    """Find the AIC or BIC minimiser over ``1 .. max_count`` components.

    One EM run per count.

    Count 1 is the maximum-likelihood Gaussian; count ``k + 1`` starts from count
    ``k``'s fit with one component split (:func:`best_split`) and runs
    :func:`expectation_maximisation`. No random start: the search is a function of
    the rows. It ends early when no component holds enough rows to split.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        The (standardised) rows.
    max_count : int
        Largest number of components.
    kind : {"aic", "bic"}
        The criterion (:func:`criterion`).
    reg_covar : float
        Added to the covariances' diagonals.
    tol : float, default=1e-3
        EM tolerance on the mean log-likelihood per row.
    max_iter : int, default=100
        EM iterations per count.

    Returns
    -------
    best : MixtureFit
        The fit of least criterion (the fewer components on a tie).
    scores : dict
        Count -> criterion of the fit with that many components.
    """
    features = QuadraticFeatures(Z)
    n, d = Z.shape
    fit = one_gaussian(features, reg_covar)
    best, scores = fit, {1: criterion(fit, n, d, kind)}
    candidates: list[Split | None] | None = None
    for count in range(2, max_count + 1):
        split = best_split(fit, features, reg_covar, candidates, tol=tol)
        if split is None:
            break
        start, candidates = split
        fit = expectation_maximisation(
            features, *start, reg_covar=reg_covar, tol=tol, max_iter=max_iter
        )
        scores[count] = criterion(fit, n, d, kind)
        if scores[count] < scores[best.n_components]:
            best = fit
    return best, scores


# ----------------------------------------------------- scikit-learn's object
def as_gaussian_mixture(
    fit: MixtureFit, reg_covar: float, n_samples: int
) -> GaussianMixture:
    """Return ``fit`` as a fitted :class:`~sklearn.mixture.GaussianMixture`.

    ``covariance_type="full"``; its ``predict``, ``score_samples``, ``sample``,
    ``aic`` and ``bic`` work as after its own ``fit``. ``n_samples`` (the rows fitted)
    turns the log-likelihood into scikit-learn's per-row ``lower_bound_``.
    """
    mixture = GaussianMixture(
        n_components=fit.n_components, covariance_type="full", reg_covar=reg_covar
    )
    mixture.weights_ = np.array(fit.weights, dtype=np.float64)
    mixture.means_ = np.array(fit.means, dtype=np.float64)
    mixture.covariances_ = np.array(fit.covariances, dtype=np.float64)
    chol = np.linalg.cholesky(mixture.covariances_)
    precisions_cholesky = np.transpose(np.linalg.inv(chol), (0, 2, 1))
    mixture.precisions_cholesky_ = precisions_cholesky
    mixture.precisions_ = np.einsum(
        "kab,kcb->kac", precisions_cholesky, precisions_cholesky
    )
    mixture.converged_ = fit.converged
    mixture.n_iter_ = fit.n_iter
    mixture.lower_bound_ = fit.log_likelihood / n_samples
    mixture.n_features_in_ = fit.means.shape[1]
    return mixture
