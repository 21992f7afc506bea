"""The estimator costsense recommends: the decision of least out-of-fold cost.

:class:`MinimumCostClassifier` answers "what should I use?" with one procedure,
built from well-understood parts and checked by its own out-of-fold cost:

1. **Probability models** (the *candidates*). By default gradient-boosted trees
   with early stopping (:class:`costsense.tree.BoostedTreesClassifier`), a random
   forest read through its out-of-bag probabilities (Breiman 2001), a
   regularised logistic regression on standardised features, and a logistic
   regression on their degree-2 expansion (the logistic counterpart of quadratic
   discriminant analysis: two Gaussian classes have quadratic log-odds). Any list
   of scikit-learn classifiers with ``predict_proba`` can replace them.
2. **Out-of-fold probabilities** of every candidate: out-of-bag where the candidate
   is a bagged forest (free), inner stratified cross-validation otherwise, whose
   fold models are kept as the candidate's final model (their average; no
   refit). A candidate that raises is recorded and skipped.
3. **Options**: every candidate alone, their average, and their *stack* (a
   logistic regression on the candidates' out-of-fold log-odds; Wolpert 1992,
   Breiman 1996, which also calibrates them, as Platt scaling does one model);
   each decided by the cost-sensitive Bayes rule (Elkan 2001) and, for two
   classes with enough rows in each, by the threshold of least out-of-fold cost.
4. **The choice**, by cost, not accuracy: each option is a procedure (fit the
   combination, tune the threshold) run on the out-of-fold probabilities, so its
   cost is estimated by cross-fitting (run on ``k - 1`` parts, scored on the
   ``k``-th). The stack with the Bayes rule is the default; another option
   replaces it only when its cost is lower by more than ``z`` standard errors of
   the paired difference: the one-standard-error rule of Breiman et al. (1984),
   whose one-sided level ``P(Z > 1) = 0.159`` is split among the ``m``
   alternatives (Bonferroni), ``z = Phi^-1(1 - 0.159 / m)``, about 2.2 for the
   eleven alternatives of two classes and the four default candidates.
5. **The model**: the chosen option: its combination (stacker, threshold)
   refitted on all out-of-fold rows, applied to the candidates' final models.

Costs come in costsense's one way (:mod:`costsense.costs`); example-dependent costs
go to ``fit(..., sample_cost=...)`` and, for the rows being decided, to
``predict(X, sample_cost=...)``.

References
----------
.. [1] C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001.
.. [2] L. Breiman, "Random forests", Machine Learning 45, 2001.
.. [3] D. Wolpert, "Stacked generalization", Neural Networks 5, 1992.
.. [4] L. Breiman, "Stacked regressions", Machine Learning 24, 1996.
.. [5] L. Breiman, J. Friedman, R. Olshen, C. Stone, "Classification and
   Regression Trees", 1984, section 3.4.3 (the one-standard-error rule).
"""

from __future__ import annotations

from costsense.recommend._estimator import MinimumCostClassifier
from costsense.recommend._selection import choice_text

__all__ = ["MinimumCostClassifier", "choice_text"]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__
