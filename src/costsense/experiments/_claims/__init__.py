"""A paper's claims, stated as data and checked against our results.

A study lists claims (TOML ``[[claims]]``). Each names the paper's words
(``text``), where they stand (``source``: a sentence, table or figure), a
``kind``, a ``metric``, and optionally the rows it speaks about (``datasets``,
``costs``; by default every row of the full study). A row is a (dataset, cost)
setting; values are means over repeats and folds unless the kind says otherwise.

Kinds and what "reproduced" means:

``best`` (``algorithm``, ``among``)
    On a row, ``algorithm`` is better than every other of ``among``: its win is
    a row where the two-sided paired t-test at level ``alpha`` over the splits
    (matched by repeat and fold) finds it better than each of them; a row where
    one of them is significantly better is a loss; any other row is a tie (a
    lead of the means inside the noise is not a win). ``algorithm`` may be a
    list ("AsyB or AsyBL has the lowest cost"): its member of best mean is
    tested against the algorithms outside the list.
``better`` (``algorithm``, ``than``)
    On a row, ``algorithm`` is better than each of ``than``: one paired t-test
    per row and rival, as for ``best``; a win when it finds ``algorithm``
    better, a loss when it finds it worse, a tie otherwise.
``close`` (``algorithm``, ``than``, ``value``)
    On a row, ``algorithm``'s mean is within ``value`` of each of ``than`` (in
    the metric's unit): it holds when the ``1 - alpha`` t confidence interval of
    the mean paired difference lies inside ``[-value, value]`` (closeness is
    shown, an equivalence test), fails when it lies wholly outside (a
    difference beyond ``value`` is shown), and is undecided (a tie) otherwise.
``at_least`` / ``at_most`` (``algorithms``, ``value``)
    On a row, each of ``algorithms`` has a mean >= / <= ``value``.
``mean_change`` (``algorithm``, ``baseline``, ``value``)
    The average relative change of ``algorithm`` over ``baseline``, claimed to be
    ``value`` (``-0.24``: 24 % lower). ``average = "ratios"`` (default) averages
    the per-row changes ``mean(a) / mean(b) - 1``; ``average = "totals"`` is the
    change of the averages, ``mean_rows(a) / mean_rows(b) - 1``. The interval is
    a percentile bootstrap over rows (level ``1 - alpha``). "reproduced" when the
    interval lies on the claimed side of zero (the change is shown), contains
    ``value`` or lies beyond it in its direction, *and* more than half of the
    rows change in that direction; "contradicted" when the
    interval lies on the other side of zero; otherwise "not shown". A row whose
    baseline is 0 has no ratio: it is reported, and counts in the direction tally.
``win_tie_loss`` (``algorithm``, ``than``, ``counts``)
    Per row, the two-sided paired t-test at level ``alpha`` over the splits
    (matched by repeat and fold) scores ``algorithm`` against each rival as a
    win, tie or loss; ``counts`` holds the paper's ``[wins, ties, losses]`` per
    rival. "reproduced" when we have at least the claimed wins and at most the
    claimed losses against every rival, "not reproduced" when fewer wins and
    more losses against every rival, "partly" otherwise.

The row kinds (``best``, ``better``, ``close``, ``at_least``, ``at_most``) count
rows (or row x rival comparisons) where the statement holds, ties, and fails.
``best``, ``better`` and ``close`` compare the splits as above; with
``paired=False`` (:func:`check_claims`) they compare the means instead, for
results without splits such as a paper's printed means: ``best`` and
``better`` count a strictly better mean as a win and equal means as a tie,
``close`` holds when the means differ by at most ``value``. With
``holds_on = "every"`` (default) the claim is "reproduced" when it holds on
every one, with ``holds_on = "most"`` (the paper says "often", "generally") on
more than half; "not reproduced" when it holds on none; otherwise "partly".

Whatever the kind, every claimed row must be present: a row without a cell of
each named algorithm makes the verdict "incomplete (k of n rows)", and the
evidence names the missing cells. "not run" means no claimed row has results.

``inconsistency`` (optional) states that the paper's own numbers do not support
the claim (shown beside the verdict); the claims' test runs every claim on its
study's ``[[paper]]`` rows and requires this note exactly when a paper row
contradicts the claim.

The parts, one job each:

- ``_schema``: the kinds, their keys and :func:`validate_claims`;
- ``_rows``: the rows a claim speaks about, their means and matched splits;
- ``_row_kinds``: the row kinds (``best``, ``better``, ``close``, ``at_least``,
  ``at_most``) and their tally;
- ``_change``: ``mean_change`` and its bootstrap interval;
- ``_win_tie_loss``: the ``win_tie_loss`` kind;
- ``_check``: :class:`ClaimCheck` and :func:`check_claims`, which send each claim
  to its kind and flag the degenerate fits it rests on.

Change a kind in its module; a new kind needs its keys in ``_schema`` and its
branch in ``_check``.
"""

from __future__ import annotations

# bootstrap_interval and the schema tables stay importable from here (the tests)
from costsense.experiments._claims._change import (
    bootstrap_interval as bootstrap_interval,
)
from costsense.experiments._claims._check import ClaimCheck, check_claims
from costsense.experiments._claims._schema import _COMMON as _COMMON
from costsense.experiments._claims._schema import _KIND_OPTIONAL as _KIND_OPTIONAL
from costsense.experiments._claims._schema import _KINDS as _KINDS
from costsense.experiments._claims._schema import _OPTIONAL as _OPTIONAL
from costsense.experiments._claims._schema import validate_claims

__all__ = ["ClaimCheck", "check_claims", "validate_claims"]
