"""The ``win_tie_loss`` kind: a paper's win/tie/loss table against our paired tests.

Change it when the paper's counts are compared with ours another way.
"""

from __future__ import annotations

from typing import Any

from costsense.experiments._claims._rows import _matched, _Rows
from costsense.experiments._stats import paired_t_test


def _win_tie_loss(
    r: _Rows, claim: dict[str, Any], lower: bool, alpha: float
) -> tuple[str, str, int]:
    name, metric = claim["algorithm"], claim["metric"]
    outcomes = []
    parts = []
    beyond = 0
    for rival, (c_win, c_tie, c_loss) in zip(
        claim["than"], claim["counts"], strict=True
    ):
        counts = [0, 0, 0]
        for row in r.means.index:
            paired = _matched(r, name, rival, row, metric)
            if len(paired) < 2:
                counts[1] += 1
                continue
            test = paired_t_test(paired.iloc[:, 0], paired.iloc[:, 1], alpha=alpha)
            counts[{1: 0, 0: 1, -1: 2}[test.outcome(lower)]] += 1
        wins, ties, losses = counts
        beyond += max(0, losses - c_loss)
        if wins >= c_win and losses <= c_loss:
            outcomes.append("reproduced")
        elif wins < c_win and losses > c_loss:
            outcomes.append("not reproduced")
        else:
            outcomes.append("partly")
        parts.append(
            f"vs {rival} {wins}/{ties}/{losses} (paper {c_win}/{c_tie}/{c_loss})"
        )
    if len(set(outcomes)) == 1:
        verdict = outcomes[0]
    else:
        verdict = "partly"
    verdict = r.incomplete() or verdict
    evidence = f"win/tie/loss, paired t-test at {alpha:g}: " + "; ".join(parts)
    return verdict, "; ".join([evidence, *r.missing_note()]), beyond
