"""Task-score labels of paper 004, ``s = 1 - rows / max(rows)``, and back.

Paper 004 (cost-sensitive random forests) describes labels as task scores
``s[i, j] in [0, 1]``, the value of choosing class ``j`` for sample ``i``. Change it
when the tree's label encoding changes.

References
----------
.. [1] O. Mac Aodha, G. Brostow, "Revisiting example dependent cost-sensitive
   learning with decision trees", ICCV 2013.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["cost_rows_from_scores", "task_scores"]

FloatArray = NDArray[np.float64]


def task_scores(rows: ArrayLike) -> FloatArray:
    """Task-score labels of paper 004 from cost rows.

    Parameters
    ----------
    rows : array-like of shape (n_samples, K)
        Cost rows.

    Returns
    -------
    ndarray of shape (n_samples, K)
        ``s[i, j] = 1 - rows[i, j] / max(rows)`` in ``[0, 1]``: 1 for a free choice,
        0 for the costliest one. One-hot labels give one-hot scores.
    """
    rows = np.asarray(rows, dtype=np.float64)
    top = rows.max()
    if not np.isfinite(top) or top <= 0:
        raise ValueError("cost rows must be finite with at least one positive cost.")
    return 1.0 - rows / top


def cost_rows_from_scores(scores: ArrayLike) -> FloatArray:
    """Cost rows ``1 - s`` from task-score labels ``s`` in ``[0, 1]`` (paper 004).

    Parameters
    ----------
    scores : array-like of shape (n_samples, K)
        Task scores, each in ``[0, 1]``.

    Returns
    -------
    ndarray of shape (n_samples, K)
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or not np.all(np.isfinite(scores)):
        raise ValueError("scores must be a finite 2-D array (n_samples, K).")
    if np.any((scores < 0) | (scores > 1)):
        raise ValueError("task scores must lie in [0, 1].")
    return 1.0 - scores
