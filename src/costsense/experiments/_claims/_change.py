"""The ``mean_change`` kind: an average relative change and its bootstrap interval.

Change it when the interval or the verdict of a claimed change changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from costsense.experiments._claims._rows import _row_name, _Rows

__all__ = ["bootstrap_interval"]

_BOOTSTRAP_RESAMPLES = 4000


def bootstrap_interval(
    a: np.ndarray, b: np.ndarray, average: str, alpha: float, seed: int = 0
) -> tuple[float, float, float]:
    """Relative change of ``a`` over ``b`` across rows, and its bootstrap interval.

    Parameters
    ----------
    a, b : ndarray of shape (n_rows,)
        Row means of the algorithm and the baseline (``b`` nonzero for
        ``average="ratios"``).
    average : {"ratios", "totals"}
        Mean of the per-row changes, or change of the means.
    alpha : float
        One minus the interval's level.
    seed : int, default=0
        Seed of the resampling (the interval is reproducible).

    Returns
    -------
    change, low, high : float
    """

    def change(index: np.ndarray) -> np.ndarray:
        if average == "ratios":
            return np.mean(a[index] / b[index] - 1.0, axis=-1)
        return np.mean(a[index], axis=-1) / np.mean(b[index], axis=-1) - 1.0

    n = a.shape[0]
    point = float(change(np.arange(n)))
    draws = np.random.default_rng(seed).integers(0, n, (_BOOTSTRAP_RESAMPLES, n))
    low, high = np.quantile(change(draws), [alpha / 2, 1 - alpha / 2])
    return point, float(low), float(high)


def _mean_change(r: _Rows, claim: dict[str, Any], alpha: float) -> tuple[str, str, int]:
    name, base = claim["algorithm"], claim["baseline"]
    claimed = float(claim["value"])
    average = claim.get("average", "ratios")
    direction = np.sign(claimed)
    a = r.means[name].to_numpy(float)
    b = r.means[base].to_numpy(float)
    agree = int(np.sum(np.sign(a - b) == direction)) if direction else 0
    against = int(np.sum(np.sign(a - b) == -direction)) if direction else 0
    usable = b != 0 if average == "ratios" else np.ones_like(b, dtype=bool)
    zero = [
        _row_name(row) for row, ok in zip(r.means.index, usable, strict=True) if not ok
    ]
    notes = [
        f"{'better' if direction else 'changed'} in the claimed direction on "
        f"{agree} of {r.present} rows"
    ]
    if zero:
        notes.append(f"no ratio where {base} is 0: {', '.join(zero)}")
    verdict = r.incomplete()
    if int(usable.sum()) < 2:
        evidence = f"too few rows with a ratio ({int(usable.sum())})"
        return (
            verdict or "not shown",
            "; ".join([evidence, *notes, *r.missing_note()]),
            against,
        )
    if average == "totals" and np.mean(b) == 0:
        return verdict or "not shown", f"{base}'s mean is 0", against
    point, low, high = bootstrap_interval(a[usable], b[usable], average, alpha)
    what = "change of the mean" if average == "totals" else "mean change"
    evidence = (
        f"{what} {100 * point:+.1f} % [{100 * low:+.1f}, {100 * high:+.1f}] "
        f"over {int(usable.sum())} rows (claimed {100 * claimed:+.1f} %)"
    )
    if verdict is None:
        reaches = high >= claimed if claimed > 0 else low <= claimed
        shown = low > 0 if claimed > 0 else high < 0
        opposite = high < 0 if claimed > 0 else low > 0
        if reaches and shown and 2 * agree > r.present:
            verdict = "reproduced"
        elif opposite:
            verdict = "contradicted"
        else:
            verdict = "not shown"
    return verdict, "; ".join([evidence, *notes, *r.missing_note()]), against
