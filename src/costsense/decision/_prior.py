"""Probabilities moved to a new class prior: a known one, or one estimated by EM."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["adjust_to_prior", "estimate_prior_shift"]

FloatArray = NDArray[np.float64]


def adjust_to_prior(
    proba: ArrayLike, train_prior: ArrayLike, new_prior: ArrayLike
) -> FloatArray:
    """Return the probabilities a model would give had it been trained at ``new_prior``.

    When only the class frequencies change (``p(x | class)`` stays), Bayes' rule
    gives ``p'(k | x) = p(k | x) w_k / sum_j p(j | x) w_j`` with ``w_k = new_k /
    train_k`` [1]_. Change it only with that assumption.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        The model's probabilities, columns in the order of its classes.
    train_prior : array-like of shape (K,)
        Class frequencies of the training rows (counts or shares), all > 0.
    new_prior : array-like of shape (K,)
        Class frequencies of the new rows (counts or shares), all >= 0.

    Returns
    -------
    ndarray of shape (n_samples, K)
        Rows summing to 1.

    References
    ----------
    .. [1] M. Saerens, P. Latinne, C. Decaestecker, "Adjusting the outputs of a
       classifier to new a priori probabilities: a simple procedure", Neural
       Computation 14(1), 2002.

    Examples
    --------
    >>> from costsense.decision import adjust_to_prior
    >>> adjust_to_prior([[0.5, 0.5]], [0.5, 0.5], [0.9, 0.1]).round(2).tolist()
    [[0.9, 0.1]]
    """
    p = _probabilities(proba)
    train = _prior(train_prior, p.shape[1], "train_prior", positive=True)
    new = _prior(new_prior, p.shape[1], "new_prior", positive=False)
    weighted = p * (new / train)
    total = weighted.sum(axis=1, keepdims=True)
    if not np.all(total > 0):
        raise ValueError(
            "new_prior gives zero weight to every class a row may belong to; give "
            "every class the model predicts a prior above 0."
        )
    return np.asarray(weighted / total, dtype=np.float64)


def estimate_prior_shift(
    proba: ArrayLike,
    train_prior: ArrayLike,
    *,
    tol: float = 1e-8,
    max_iter: int = 1000,
) -> tuple[FloatArray, FloatArray]:
    """Estimate the class prior of unlabelled rows by EM; adjust their probabilities.

    Saerens, Latinne & Decaestecker's EM procedure [1]_: start
    from the training prior; adjust the rows' probabilities to the current prior
    (:func:`adjust_to_prior`); take the new prior as their mean; repeat until the
    prior moves less than ``tol``. It maximises the likelihood of the rows under a
    change of prior alone, and is as good as the model's calibration.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        The model's probabilities for the new rows.
    train_prior : array-like of shape (K,)
        Class frequencies of the training rows (counts or shares), all > 0.
    tol : float, default=1e-8
        Largest change of any class's prior at convergence.
    max_iter : int, default=1000
        Most EM steps; the estimate after them is returned.

    Returns
    -------
    new_prior : ndarray of shape (K,)
        The estimated class shares of the new rows.
    adjusted : ndarray of shape (n_samples, K)
        ``proba`` adjusted to ``new_prior``.

    References
    ----------
    .. [1] M. Saerens, P. Latinne, C. Decaestecker, "Adjusting the outputs of a
       classifier to new a priori probabilities: a simple procedure", Neural
       Computation 14(1), 2002.

    Examples
    --------
    >>> from costsense.decision import estimate_prior_shift
    >>> proba = [[0.9, 0.1]] * 3 + [[0.1, 0.9]]
    >>> prior, _ = estimate_prior_shift(proba, [0.5, 0.5])
    >>> prior.round(2).tolist()
    [0.81, 0.19]
    """
    p = _probabilities(proba)
    train = _prior(train_prior, p.shape[1], "train_prior", positive=True)
    if not (tol > 0 and isinstance(max_iter, int) and max_iter >= 1):
        raise ValueError("tol must be > 0 and max_iter a count >= 1.")
    if p.shape[0] == 0:
        raise ValueError("proba: give the probabilities of at least one row.")
    prior = train
    for _ in range(max_iter):
        adjusted = adjust_to_prior(p, train, prior)
        updated = adjusted.mean(axis=0)
        moved = np.abs(updated - prior).max()
        prior = updated
        if moved < tol:
            break
    return prior, adjust_to_prior(p, train, prior)


def _probabilities(proba: ArrayLike) -> FloatArray:
    try:
        p = np.array(proba, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("proba must be numeric class probabilities.") from None
    if p.ndim != 2 or p.shape[1] < 2 or not np.all(np.isfinite(p) & (p >= 0)):
        raise ValueError("proba: give (n_samples, K >= 2) probabilities >= 0.")
    if not np.allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-6):
        raise ValueError("proba: each row must sum to 1 (give predict_proba's rows).")
    return p


def _prior(values: ArrayLike, k: int, name: str, *, positive: bool) -> FloatArray:
    try:
        prior = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be {k} class frequencies.") from None
    bad = prior <= 0 if positive else prior < 0
    if prior.shape != (k,) or not np.all(np.isfinite(prior)) or bad.any():
        above = "> 0" if positive else ">= 0"
        raise ValueError(
            f"{name}: give {k} class frequencies (counts or shares) {above}, one "
            f"per column of proba; got {prior.tolist()}."
        )
    if prior.sum() <= 0:
        raise ValueError(f"{name}: give at least one class a frequency above 0.")
    return np.asarray(prior / prior.sum(), dtype=np.float64)
