"""Synthetic problems of known densities a study names as datasets.

Each draws ``gaussian_samples`` rows from the study seed and knows its Bayes risk
and boundary (:attr:`~costsense.experiments._datasets.DatasetSpec.problem`). Add a
problem here by name.
"""

from costsense.datasets import make_gaussian_problem

__all__ = ["PROBLEMS"]

#: ``"gaussian"``: paper 000's two-Gaussian problem.
PROBLEMS = {"gaussian": make_gaussian_problem}
