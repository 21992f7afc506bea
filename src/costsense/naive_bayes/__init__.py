"""Naive Bayes over discretised features, with exact sample weights (paper 003).

Paper 003 (OBPD-EFSBoost) boosts a naive Bayes whose class-conditional
probabilities are counts (its equation 8; continuous features "can be converted to
discrete ones"): :class:`DiscreteNaiveBayesClassifier`.

The model
---------
With ``W_c`` the total sample weight of class ``c``, ``W_cb`` the weight of the rows
of class ``c`` whose feature ``m`` falls in bin ``b`` and ``B_m`` the feature's
number of bins, the smoothed probability of a bin is (Laplace / additive smoothing
of the counts of paper 003, equation 8)::

    P(x_m in b | c) = (W_cb + alpha) / (W_c + alpha * B_m)

and the class scores are the naive Bayes joint log-likelihoods::

    log P(c) + sum_m log P(x_m in bin_m(x) | c)

normalised over the classes with log-sum-exp. Every count is a sum of sample
weights, so a row of integer weight ``w`` counts as ``w`` repeated rows; rows of
weight 0 are dropped before anything is computed (bin edges and categories
included).

Binning
-------
Bins are right-closed: a feature with edges ``e_1 < ... < e_{B-1}`` has the bins
``(-inf, e_1], (e_1, e_2], ..., (e_{B-1}, +inf)``; a value equal to an edge goes to
the bin the edge closes (the lower one), as ``np.searchsorted(edges, x,
side="left")`` says. Every edge is a training value, and no bin is empty on the
training rows. Values below the smallest or above the largest training value fall
into the first or last bin.

- ``binning="quantile"``: with at most ``n_bins`` distinct training values, one bin
  per value (the edges are every distinct value but the largest). Otherwise, with
  ``F`` the weighted empirical distribution function, ``F(v) = W(x <= v) / W``, the
  edges are the lower quantiles ``e_i = min {v : F(v) >= i / n_bins}`` for
  ``i = 1, ..., n_bins - 1`` (numpy's ``method="inverted_cdf"``), repeated edges
  merged and an edge at the largest value dropped. Integer weights and repeated
  rows have the same ``F``, hence the same edges.
- ``binning="mdl"``: Fayyad & Irani (1993). A set ``S`` of rows (total weight
  ``N``) with class entropy ``Ent(S) = -sum_c p_c log2 p_c`` is split at the cut
  ``T`` into ``S1`` and ``S2`` that minimises the weighted class entropy
  ``E(T; S) = N1 / N Ent(S1) + N2 / N Ent(S2)`` among the cuts between two
  consecutive distinct values (only Fayyad and Irani's boundary points are tried:
  by their theorem 1 no other cut is ever better; the first of equal cuts wins),
  and the cut is kept if and only if (the MDL rule)::

      Gain(T; S) > log2(N - 1) / N + Delta(T; S) / N
      Gain(T; S) = Ent(S) - E(T; S)
      Delta(T; S) = log2(3^k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)]

  with ``k``, ``k1``, ``k2`` the numbers of classes of positive weight in ``S``,
  ``S1``, ``S2``. The halves are split again the same way. ``n_bins`` caps the
  number of bins: the accepted cuts are made best first, in decreasing order of
  ``N * Gain(T; S)`` (the reduction of the feature's total class entropy), until
  ``n_bins`` bins; without the cap this is Fayyad and Irani's recursion. ``N`` is a
  total weight read as a number of rows, so the rule is not scale-free: with
  weights that sum to 1 or less no cut is made (``log2(N - 1)`` is undefined), and
  little more than 1 accepts almost any cut; scale the weights to the number of
  rows they stand for (boosting: ``D * n_samples``).

Categorical features are not binned: each distinct training value is a category of
its own (``B_m`` categories). A value met at predict time that no training row had
is given the probability of one more, empty, category,
``alpha / (W_c + alpha * (B_m + 1))``: finite and the same form as a seen value's.


References
----------
.. [1] Paper 003 of this project (OBPD-EFSBoost), equation 8.
.. [2] U. M. Fayyad, K. B. Irani, "Multi-interval discretization of
   continuous-valued attributes for classification learning", Proceedings of the
   13th International Joint Conference on Artificial Intelligence (IJCAI), 1993.
"""

from __future__ import annotations

from costsense.naive_bayes._estimator import DiscreteNaiveBayesClassifier

__all__ = ["DiscreteNaiveBayesClassifier"]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__
