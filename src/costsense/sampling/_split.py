"""The AIC/BIC search over component counts, by splitting one component at a time.

:func:`split_search` runs one EM per count ``1 .. max_count``, each started from the
previous count's solution with one component split in two (no random start). The
component split is the one whose rows gain the most log-likelihood from a
two-component fit of their own (the split step of Verbeek, Vlassis & Krose 2003,
and of Ueda et al.'s SMEM, 2000): two short EM runs on its rows, from the cut
across its principal axis and from 2-means started at the cut's half-means, each
half keeping at least ``2 (d + 1)`` rows (fewer can fold onto nearly collinear rows
and buy likelihood without bound). A component the last split left alone keeps its
candidate. Each count's EM stops as scikit-learn's (``tol``, ``max_iter``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from costsense.sampling._gmm import (
    MixtureFit,
    criterion,
    expectation_maximisation,
    one_gaussian,
)
from costsense.sampling._quadratic import (
    QuadraticFeatures,
    density_coefficients,
    moments,
)

FloatArray = NDArray[np.float64]

__all__: list[str] = []


# ------------------------------------------------------------------ splits
def principal_split(
    mean: FloatArray, covariance: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Two halves of a Gaussian cut across its principal axis.

    With ``lambda, v`` the covariance's largest eigenpair, a Gaussian cut at its mean
    across ``v`` has halves of means ``mu +- sqrt(2 lambda / pi) v`` and covariance
    ``Sigma - (2 / pi) lambda v v'`` (the moments of a half-normal): a start for EM
    with the same first two moments as the component it replaces.
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
