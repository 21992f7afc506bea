"""The results checked against a :class:`ReportSpec`, summarised once for all sections.

Change it when the report's input columns or the summaries the sections share change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from costsense.experiments._labels import sort_rows
from costsense.experiments._report._spec import ReportSpec
from costsense.experiments._report._tables import Summary, summarise

_KEYS = ("dataset", "cost", "algorithm", "repeat", "fold")
_PAPER_COLUMNS = ("dataset", "cost", "algorithm", "metric", "value")


@dataclass(frozen=True)
class _Tabulated:
    """The results as the report's tables see them.

    Attributes
    ----------
    data : DataFrame
        The results, with ``dataset``, ``cost`` and ``algorithm`` as strings.
    algorithms : list of str
        Table columns, in order of first appearance.
    rows : list of (str, str)
        Table rows (dataset, cost), in :func:`sort_rows` order.
    summary_of : dict of str to Summary
        Summaries of the tabulated metrics and of the paper's (when measured).
    """

    data: pd.DataFrame
    algorithms: list[str]
    rows: list[tuple[str, str]]
    summary_of: dict[str, Summary]


def _check_columns(frame: pd.DataFrame, required: Iterable[str], name: str) -> None:
    """Raise if a frame lacks columns.

    Parameters
    ----------
    frame : DataFrame
        The frame.
    required : iterable of str
        Column names it must have.
    name : str
        The frame's name, for the message.
    """
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing the columns {missing}.")


def _tabulate(results: pd.DataFrame, spec: ReportSpec) -> _Tabulated:
    """Check the results against the spec and summarise every needed metric."""
    _check_columns(results, [*_KEYS, *spec.metrics], "results")
    if results.empty:
        raise ValueError("results has no rows.")
    data = results.assign(
        dataset=results["dataset"].astype(str),
        cost=results["cost"].astype(str),
        algorithm=results["algorithm"].astype(str),
    )
    duplicated = data.duplicated(list(_KEYS))
    if duplicated.any():
        first = data.loc[duplicated, list(_KEYS)].iloc[0].tolist()
        raise ValueError(
            f"results has {int(duplicated.sum())} duplicated cells "
            f"(dataset, cost, algorithm, repeat, fold), e.g. {first}."
        )
    algorithms = [str(a) for a in pd.unique(data["algorithm"])]
    if spec.reference is not None and spec.reference not in algorithms:
        raise ValueError(
            f"reference {spec.reference!r} is not among the algorithms {algorithms}."
        )
    if spec.ratio_to is not None and spec.ratio_to not in algorithms:
        raise ValueError(f"ratio_to={spec.ratio_to!r} is not one of {algorithms}.")
    missing = [c for c in _PAPER_COLUMNS if any(c not in row for row in spec.paper)]
    if missing:
        raise ValueError(f"paper is missing the columns {missing}.")
    rows = sort_rows(
        {(str(d), str(c)) for d, c in data[["dataset", "cost"]].itertuples(False)}
    )
    paper_metrics = dict.fromkeys(str(row["metric"]) for row in spec.paper)
    measured = [m for m in paper_metrics if m not in spec.metrics and m in data.columns]
    summary_of = {
        m: summarise(data, m, rows, algorithms) for m in [*spec.metrics, *measured]
    }
    return _Tabulated(data, algorithms, rows, summary_of)
