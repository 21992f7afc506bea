"""The claim kinds and the keys each takes: a study's ``[[claims]]`` checked on load.

Change it when a kind or a key is added (and add the kind's check beside the others).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["validate_claims"]

_COMMON = {"text", "source", "kind", "metric"}
_KINDS = {
    "best": {"algorithm", "among"},
    "better": {"algorithm", "than"},
    "close": {"algorithm", "than", "value"},
    "at_least": {"algorithms", "value"},
    "at_most": {"algorithms", "value"},
    "mean_change": {"algorithm", "baseline", "value"},
    "win_tie_loss": {"algorithm", "than", "counts"},
}
_OPTIONAL = {"datasets", "costs", "inconsistency"}
_KIND_OPTIONAL = {
    "best": {"holds_on"},
    "better": {"holds_on"},
    "close": {"holds_on"},
    "at_least": {"holds_on"},
    "at_most": {"holds_on"},
    "mean_change": {"average"},
    "win_tie_loss": set(),
}


def validate_claims(
    claims: Sequence[dict[str, Any]],
    source: str,
    datasets: Sequence[str] | None = None,
) -> None:
    """Check that every claim has a known kind and exactly its keys.

    Parameters
    ----------
    claims : sequence of dict
        The study's ``[[claims]]``.
    source : str
        Where they came from, for error messages.
    datasets : sequence of str, default=None
        The study's datasets; a claim naming another is refused.
    """
    for claim in claims:
        kind = claim.get("kind")
        if kind not in _KINDS:
            raise ValueError(
                f"study {source}: claim kind must be one of {sorted(_KINDS)}: {claim}"
            )
        needed = _COMMON | _KINDS[kind]
        allowed = needed | _OPTIONAL | _KIND_OPTIONAL[kind]
        keys = set(claim)
        if not needed <= keys or not keys <= allowed:
            raise ValueError(
                f"study {source}: a {kind!r} claim needs the keys {sorted(needed)} "
                f"(optional {sorted(allowed - needed)}), got {sorted(keys)}: "
                f"{claim.get('text', '')!r}"
            )
        if claim.get("holds_on", "every") not in ("every", "most"):
            raise ValueError(
                f"study {source}: holds_on must be 'every' or 'most', got "
                f"{claim['holds_on']!r}"
            )
        if claim.get("average", "ratios") not in ("ratios", "totals"):
            raise ValueError(
                f"study {source}: average must be 'ratios' or 'totals', got "
                f"{claim['average']!r}"
            )
        if kind == "win_tie_loss":
            counts = claim["counts"]
            if len(counts) != len(claim["than"]) or any(len(c) != 3 for c in counts):
                raise ValueError(
                    f"study {source}: a win_tie_loss claim needs one [wins, ties, "
                    f"losses] in counts per algorithm of than: {claim['text']!r}"
                )
        stray = sorted(set(claim.get("datasets", [])) - set(datasets or []))
        if datasets is not None and stray:
            raise ValueError(
                f"study {source}: claim {claim['text']!r} names datasets {stray} "
                "the study does not run; list only the study's datasets."
            )
