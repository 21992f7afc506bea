"""OBPD-Sampling: oversampling by a Gaussian-mixture model of each class (paper 003).

Paper 003 (algorithm 1) fits a Gaussian mixture to the minority class's continuous
columns, chooses its number of components (Figueiredo & Jain's method, then it
compares the fits by AIC), draws the synthetic rows' continuous columns by Gibbs
sampling from the mixture (T sweeps) and each discrete column by roulette wheel from
the class's frequencies.

Choices the paper leaves open:

- The columns are standardised within the class, so ``reg_covar`` regularises
  every column alike; draws are mapped back.
- ``"aic"``/``"bic"`` with full covariances run one EM per count, each started
  from the previous count's fit with one component split in two
  (:func:`costsense.sampling._split.split_search`). The automatic counts are
  capped at ``n_c / (D + 1)`` (below that AIC rewards degenerate components).
- Wide data (``D > n_c``): one component, its covariance kept as a factor
  (:class:`costsense.sampling._lowrank.LowRankGaussian`); a setting that needs
  ``D x D`` matrices beyond the machine's memory raises
  :class:`~costsense.exceptions.MemoryBudgetError` before it allocates.
- ``sampler="gibbs"`` runs one chain per synthetic row from a random row of the
  class; with well-separated components a chain never leaves its start's
  component, so the draws keep the start rows' proportions rather than the
  mixture weights. ``"ancestral"`` (default) draws exactly.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray
from sklearn.mixture import GaussianMixture
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from costsense.sampling._base import RedrawableOverSampler
from costsense.sampling._fj import figueiredo_jain
from costsense.sampling._gibbs import gibbs_sweep_compiled
from costsense.sampling._gmm import as_gaussian_mixture
from costsense.sampling._lowrank import (
    LowRankGaussian,
    low_rank_draws,
    low_rank_gibbs_draws,
)
from costsense.sampling._split import split_search
from costsense.utils._compat import Interval, StrOptions
from costsense.utils._docstrings import shared
from costsense.utils._memory import check_allocation

FloatArray = NDArray[np.float64]

__all__ = ["OBPDSampler"]


def component_covariances(mixture: GaussianMixture) -> FloatArray:
    """Each component's full covariance matrix, whatever ``covariance_type``."""
    L, D = mixture.means_.shape
    kind, cov = mixture.covariance_type, mixture.covariances_
    if kind == "full":
        return np.array(cov, dtype=np.float64)
    if kind == "tied":
        return np.broadcast_to(cov, (L, D, D)).copy()
    if kind == "diag":
        return np.array([np.diag(c) for c in cov])
    return np.array([c * np.eye(D) for c in cov])  # spherical


def ancestral_draws(
    mixture: GaussianMixture, n_draws: int, rng: np.random.Generator
) -> FloatArray:
    """Exact draws from a Gaussian mixture: a component by weight, then its Gaussian.

    Unlike :meth:`GaussianMixture.sample`, the rows come in random order (not grouped
    by component) and from ``rng``.
    """
    kind = mixture.covariance_type
    if kind in ("diag", "spherical"):  # the roots are diagonal: no D x D matrix
        scales = np.sqrt(np.asarray(mixture.covariances_, dtype=np.float64))
        roots = None
    else:
        roots = np.linalg.cholesky(component_covariances(mixture))
    component = rng.choice(mixture.weights_.size, size=n_draws, p=mixture.weights_)
    draws = rng.standard_normal((n_draws, mixture.means_.shape[1]))
    for k in range(mixture.weights_.size):  # one product per component
        rows = component == k
        if roots is None:
            scale = scales[k] if kind == "diag" else scales[k, None]
            draws[rows] = draws[rows] * scale + mixture.means_[k]
        else:
            draws[rows] = draws[rows] @ roots[k].T + mixture.means_[k]
    return draws


def gibbs_draws(
    mixture: GaussianMixture,
    starts: FloatArray,
    n_sweeps: int,
    rng: np.random.Generator,
) -> FloatArray:
    """Coordinate-wise Gibbs sampling of a Gaussian mixture, one chain per start row.

    Coordinate ``i`` given the others is drawn from ``sum_l w_l N(m_l, 1 / P_l,ii)``
    with ``P_l`` component ``l``'s precision, ``m_l = x_i - r_l,i / P_l,ii`` where
    ``r_l = P_l (x - mu_l)``, and ``w_l`` proportional to ``pi_l`` times component
    ``l``'s marginal density of the other coordinates, ``log N(x) - log N(x_i | x_-i)``
    in closed form. ``r_l`` and the quadratic forms ``(x - mu_l)' r_l`` are updated in
    ``O(L D)`` per coordinate and recomputed exactly at each sweep.
    """
    means = np.ascontiguousarray(mixture.means_, dtype=np.float64)
    covariances = component_covariances(mixture)
    precisions = np.ascontiguousarray(np.linalg.inv(covariances), dtype=np.float64)
    log_prior = np.log(mixture.weights_) - 0.5 * np.linalg.slogdet(covariances)[1]
    x = np.array(starts, dtype=np.float64, copy=True, order="C")
    for _ in range(n_sweeps):
        # the compiled sweep (costsense.sampling._gibbs) recomputes each chain's
        # residuals at its start
        uniforms = rng.random(x.shape)
        normals = rng.standard_normal(x.shape)
        gibbs_sweep_compiled(x, means, precisions, log_prior, uniforms, normals)
    return x


@shared
class OBPDSampler(RedrawableOverSampler):
    """Oversampling by a Gaussian-mixture model of each class (OBPD, paper 003).

    See :mod:`costsense.sampling._obpd` for what is implemented and why.

    Parameters
    ----------
    {sampling_strategy}
    n_components : {"fj", "aic", "bic"} or int, default="fj"
        Mixture components per class: Figueiredo & Jain's count of least message
        length from ``max_components`` down (paper 003's choice; full covariances
        only), the AIC or BIC minimiser over ``1 .. max_components``, or a fixed
        number (capped at the class's size). ``"aic"`` searches every count with
        one EM run each and is many times slower on large classes; choose it (or
        ``"bic"``) for diagonal, tied or spherical covariances. The automatic
        counts are capped at ``n_c / (D + 1)`` for ``n_c`` rows in ``D``
        continuous columns.
    max_components : int, default=10
        Largest number of components the automatic counts consider (for ``"fj"``,
        the components it starts with).
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        Covariance of the components (scikit-learn's GaussianMixture).
    reg_covar : float, default=1e-6
        Added to the covariances' diagonals, on standardised columns.
    sampler : {"ancestral", "gibbs"}, default="ancestral"
        Exact ancestral draws, or the paper's Gibbs sampling.
    gibbs_steps : int, default=100
        Gibbs sweeps per synthetic row (the paper's T).
    random_state : int, RandomState instance or None, default=None
        Seeds the mixtures, the draws and the roulette wheels.
    {categorical_features}

    Attributes
    ----------
    sampling_strategy_ : dict
        Class label -> number of rows synthesised.
    models_ : dict
        Class label -> fitted ``Pipeline(StandardScaler, GaussianMixture)`` of the
        class's continuous columns (a ``LowRankGaussian`` mixture step for one
        full or tied Gaussian in more columns than the class has rows).
    categorical_features_ : ndarray of int
        Indices of the categorical columns.
    {n_features_in_}
    {feature_names_in_}

    Notes
    -----
    Tables are given back as tables, with the same columns and dtypes (a
    continuous column of integer dtype rounded to the nearest integer); a
    synthetic row's category is always one its class has in the training data.

    References
    ----------
    .. [1] Paper 003 of this project (OBPD-EFSBoost), algorithm 1.
    .. [2] M. Figueiredo, A. Jain, "Unsupervised learning of finite mixture models",
       IEEE TPAMI 24(3), 2002.
    .. [3] H. Akaike, "A new look at the statistical model identification", IEEE
       Transactions on Automatic Control 19(6), 1974; G. Schwarz, "Estimating the
       dimension of a model", Annals of Statistics 6(2), 1978.

    Examples
    --------
    >>> from collections import Counter
    >>> from sklearn.datasets import make_classification
    >>> from costsense.sampling import OBPDSampler
    >>> X, y = make_classification(weights=[0.9], random_state=0)
    >>> sampler = OBPDSampler(random_state=0)
    >>> X_res, y_res = sampler.fit_resample(X, y)
    >>> sorted(Counter(y_res).values())
    [91, 91]

    New synthetic rows from the same mixtures, without refitting them:

    >>> X_new, y_new = sampler.redraw(random_state=1)
    >>> X_new.shape == X_res[len(y):].shape
    True
    """

    _parameter_constraints: ClassVar[dict[str, Any]] = {
        **RedrawableOverSampler._parameter_constraints,
        "n_components": [
            StrOptions({"aic", "bic", "fj"}),
            Interval(Integral, 1, None, closed="left"),
        ],
        "max_components": [Interval(Integral, 1, None, closed="left")],
        "covariance_type": [StrOptions({"full", "tied", "diag", "spherical"})],
        "reg_covar": [Interval(Real, 0, None, closed="neither")],
        "sampler": [StrOptions({"ancestral", "gibbs"})],
        "gibbs_steps": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        *,
        sampling_strategy: Any = "auto",
        n_components: Any = "fj",
        max_components: int = 10,
        covariance_type: str = "full",
        reg_covar: float = 1e-6,
        sampler: str = "ancestral",
        gibbs_steps: int = 100,
        random_state: Any = None,
        categorical_features: Any = None,
    ) -> None:
        super().__init__(sampling_strategy=sampling_strategy)
        self.n_components = n_components
        self.max_components = max_components
        self.covariance_type = covariance_type
        self.reg_covar = reg_covar
        self.sampler = sampler
        self.gibbs_steps = gibbs_steps
        self.random_state = random_state
        self.categorical_features = categorical_features

    def _component_cap(self, n_class: int, n_columns: int) -> int:
        """Largest automatic count: ``max_components``, at most ``n_c / (D + 1)``."""
        return max(1, min(self.max_components, n_class // (n_columns + 1)))

    def _fit_continuous(self, X_class: FloatArray, seed: int) -> Pipeline:
        if X_class.shape[0] < 2:
            raise ValueError(
                "OBPDSampler fits a Gaussian mixture to every class it grows and needs "
                "at least 2 rows of each; a class to grow has 1. Leave it out with "
                "sampling_strategy (a dict of the classes to grow), or oversample it "
                "with imbalanced-learn's RandomOverSampler."
            )
        scaler = StandardScaler().fit(X_class)
        Z = scaler.transform(X_class)
        n, D = Z.shape
        full = self.covariance_type == "full"
        if self.n_components == "fj" and not full:
            raise ValueError(
                "OBPDSampler: n_components='fj' (Figueiredo & Jain) fits "
                "full-covariance mixtures, as their paper does; got "
                f"covariance_type={self.covariance_type!r}. Use "
                "covariance_type='full', or n_components='aic' or 'bic'."
            )
        count = self._largest_count(n, D)
        if count == 1 and D > n and self.covariance_type in ("full", "tied"):
            # one Gaussian of rank < n in D > n columns: its factor, not D x D
            low_rank = LowRankGaussian(reg_covar=self.reg_covar).fit(Z)
            return Pipeline([("scale", scaler), ("mixture", low_rank)])
        if self.covariance_type in ("full", "tied"):
            check_allocation(
                (1 if self.covariance_type == "tied" else count, D, D),
                owner=type(self).__name__,
                what=f"n_components={self.n_components!r} with covariance_type="
                f"{self.covariance_type!r} (a covariance matrix per component, "
                "one row and column per continuous column)",
                fix="Use n_components='aic' (the component count is then capped at "
                "n_c / (D + 1) for n_c rows in D columns, and one Gaussian in more "
                "columns than rows is kept in low-rank form), or "
                "covariance_type='diag'.",
            )
        if self.n_components == "fj":
            found = figueiredo_jain(
                Z,
                self._component_cap(n, D),
                reg_covar=self.reg_covar,
                rng=np.random.default_rng(seed),
            )
            mixture = as_gaussian_mixture(found.fit, self.reg_covar, n)
        elif self.n_components in ("aic", "bic") and full:
            cap = self._component_cap(n, D)
            fit, _ = split_search(Z, cap, self.n_components, reg_covar=self.reg_covar)
            mixture = as_gaussian_mixture(fit, self.reg_covar, n)
        else:
            mixture = self._fit_scikit_learn(Z, seed)
        return Pipeline([("scale", scaler), ("mixture", mixture)])

    def _largest_count(self, n_class: int, n_columns: int) -> int:
        """Most components the fit can have: the automatic cap, or the fixed count."""
        if isinstance(self.n_components, str):
            return self._component_cap(n_class, n_columns)
        return min(int(self.n_components), n_class)

    def _fit_scikit_learn(self, Z: FloatArray, seed: int) -> GaussianMixture:
        """Fit a fixed count, or AIC/BIC with one scikit-learn fit per count."""
        n, D = Z.shape
        if isinstance(self.n_components, str):
            counts = range(1, self._component_cap(n, D) + 1)
        else:
            counts = range(min(self.n_components, n), min(self.n_components, n) + 1)
        best, best_score = None, np.inf
        for n_components in counts:
            mixture = GaussianMixture(
                n_components=n_components,
                covariance_type=self.covariance_type,
                reg_covar=self.reg_covar,
                random_state=seed,
            ).fit(Z)
            score = mixture.bic(Z) if self.n_components == "bic" else mixture.aic(Z)
            if best is None or score < best_score:
                best, best_score = mixture, score
        assert best is not None
        return best

    def _sample_continuous(
        self,
        model: Pipeline,
        X_class: FloatArray,
        n_new: int,
        rng: np.random.Generator,
    ) -> FloatArray:
        scaler, mixture = model["scale"], model["mixture"]
        low_rank = isinstance(mixture, LowRankGaussian)
        if self.sampler == "ancestral":
            if low_rank:
                Z = low_rank_draws(mixture, n_new, rng)
            else:
                Z = ancestral_draws(mixture, n_new, rng)
        else:
            starts = scaler.transform(
                X_class[rng.integers(X_class.shape[0], size=n_new)]
            )
            if low_rank:
                Z = low_rank_gibbs_draws(mixture, starts, self.gibbs_steps, rng)
            else:
                L, D = mixture.means_.shape
                check_allocation(
                    (L, D, D),
                    owner=type(self).__name__,
                    what="sampler='gibbs' (a precision matrix per component, one "
                    "row and column per continuous column)",
                    fix="Use sampler='ancestral': exact draws from the same "
                    "mixture, with no D x D matrix for diagonal covariances.",
                )
                Z = gibbs_draws(mixture, starts, self.gibbs_steps, rng)
        return np.asarray(scaler.inverse_transform(Z), dtype=np.float64)

    def redraw(self, random_state: Any = None) -> tuple[NDArray[Any], NDArray[Any]]:
        """Draw new synthetic rows from the mixtures fitted by ``fit_resample``.

        The mixtures are not refitted: only the draws (continuous columns from each
        class's mixture, categorical ones by roulette wheel) are made again. With
        ``random_state=s`` the rows are exactly those ``fit_resample`` would have
        appended with ``random_state=s``, had it fitted the same mixtures.

        Parameters
        ----------
        random_state : int, RandomState instance or None, default=None
            Seeds the draws; None continues the sampler's own random stream, so
            successive calls differ and the sequence is reproducible from the
            sampler's ``random_state``.

        Returns
        -------
        X_new : ndarray of shape (n_synthetic, n_features_in_)
            The synthetic rows, as many of each class as ``fit_resample`` appended
            after the original rows (``sampling_strategy_``), in the same order.
        y_new : ndarray of shape (n_synthetic,)
            Their labels.
        """
        return self._redraw(random_state)
