"""A study as data: what it compares, on what, at what costs, how, and for whom.

A :class:`Study` is the experiment (datasets, costs, algorithms, protocol, seed:
what determines the results, :meth:`Study.fingerprint`), the
:class:`ReportOptions` of its report (title, metrics, reference algorithm,
notes), and the :class:`PaperReference` it reproduces (the paper's numbers,
claims and the rows they speak about). :meth:`Study.to_dict` is the plain record
a results store keeps (one flat table, as earlier stores have it);
:func:`study_from_record` reads it back. Study files are read by
:mod:`costsense.experiments._study_file`.

Change it when a study gains a field: put it in the part it belongs to, in
:meth:`Study.to_dict`, and (if it changes results) in the fingerprint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from costsense.experiments._scores import ALL_METRICS

__all__ = [
    "Algorithm",
    "PaperReference",
    "Protocol",
    "ReportOptions",
    "Study",
    "count_cells",
    "study_from_record",
]


@dataclass(frozen=True)
class Protocol:
    """How each (dataset, cost) pair is split into training and test sets.

    Attributes
    ----------
    kind : {"kfold", "holdout"}
        Repeated stratified k-fold, or repeated stratified random holdout.
    n_splits : int
        Folds per repeat (k-fold only).
    n_repeats : int
        Repeats; every repeat reshuffles.
    test_size : float
        Test share of a holdout split.
    inner_splits : int
        Folds of the inner grid search of algorithms with a ``grid``.
    scale : {"standard", "minmax", "none"}
        Feature scaling, fitted on each training set only.
    categorical : {"onehot", "ordinal"}
        How a KEEL set's categorical columns reach the models: one-hot indicator
        columns (read as numbers), or one column of codes per categorical column,
        declared to the models that take ``categorical_features`` and left
        unscaled.
    """

    kind: str = "kfold"
    n_splits: int = 5
    n_repeats: int = 1
    test_size: float = 1 / 3
    inner_splits: int = 5
    scale: str = "standard"
    categorical: str = "onehot"

    @property
    def folds_per_repeat(self) -> int:
        """Test sets per repeat: ``n_splits`` for k-fold, 1 for holdout."""
        return self.n_splits if self.kind == "kfold" else 1


@dataclass(frozen=True)
class Algorithm:
    """One compared algorithm: a named method around a named base learner.

    Attributes
    ----------
    name : str
        Its name in tables and in the results store.
    method : str
        A name of :data:`costsense.experiments.CATALOG`.
    base : str
        A name of :data:`costsense.experiments.BASES`.
    params : dict
        Parameters set on the method (``set_params``); a loaded study names a
        parameter of the base learner ``estimator__<name>`` (the file may write it
        as it is).
    grid : dict
        Parameter grid of an inner cross-validated search minimising the cost;
        empty for none; names as in ``params``.
    """

    name: str
    method: str
    base: str = "logistic"
    params: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list[Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportOptions:
    """How a study's report shows its results (nothing here changes a number).

    Attributes
    ----------
    title : str
        Report title.
    metrics : tuple of str
        Reported metrics, the first being the main one.
    reference : str or None
        The algorithm the statistical tests compare against.
    ratio_to : str or None
        An algorithm the report divides the main metric by (a ratio chart).
    notes : str
        Text for the report.
    """

    title: str = ""
    metrics: tuple[str, ...] = ALL_METRICS
    reference: str | None = None
    ratio_to: str | None = None
    notes: str = ""


@dataclass(frozen=True)
class PaperReference:
    """What a study reproduces: the paper's numbers and claims, shown beside ours.

    Attributes
    ----------
    rows : tuple of dict
        The paper's published numbers, each ``{dataset, cost, algorithm, metric,
        value}``.
    notes : str
        Text shown beside the paper's numbers (under "Paper vs ours"): what a
        reader must know to compare a published row with ours.
    claims : tuple of dict
        The paper's claims, checked against our results in the report (see
        :mod:`costsense.experiments._claims`).
    claim_rows : tuple of (str, str)
        The (dataset, cost label) rows of the full study, without its ``[quick]``
        overrides: the rows its claims speak about, so that a claim checked on a
        quick or partial run is reported incomplete, not reproduced.
    features : dict of str to list of int
        The paper's features left after feature selection, per dataset
        (1-based).
    datasets : tuple of str
        The datasets the paper itself reports (others stand in for sets we
        cannot get): their rows are the like-for-like ones, marked in the
        report's tables and tallied apart in its claims.
    """

    rows: tuple[dict[str, Any], ...] = ()
    notes: str = ""
    claims: tuple[dict[str, Any], ...] = ()
    claim_rows: tuple[tuple[str, str], ...] = ()
    features: dict[str, list[int]] = field(default_factory=dict)
    datasets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Study:
    """A declared comparison: the experiment, its report and the paper it follows.

    The fields up to ``quick`` are the experiment (see
    :mod:`costsense.experiments._study_file` for the file format); ``report``
    and ``paper`` change no number.

    Attributes
    ----------
    name : str
        Short name (the built-in studies are reproduced by name).
    seed : int
        Every split and model seed derives from it.
    datasets : tuple of str
        KEEL set names, or ``"gaussian"``.
    costs : tuple
        C1/C2 ratios or (C1, C2) pairs.
    algorithms : tuple of Algorithm
        The compared algorithms.
    protocol : Protocol
        Splitting and preprocessing.
    gaussian_samples : int
        Sample size of the ``"gaussian"`` dataset.
    dataset_costs : dict of str to tuple
        Costs for particular datasets, replacing ``costs`` there (paper 000 runs
        its Gaussian problem at four costs, its UCI sets at one).
    derived : dict of str to dict
        Datasets derived from KEEL sets, or read from files, by name (their
        ``[derived.<name>]`` and ``[files.<name>]`` tables).
    quick : bool
        Whether this is the small version (the ``[quick]`` overrides applied).
    report : ReportOptions
        How the report shows the results.
    paper : PaperReference
        The paper's numbers and claims.
    """

    name: str
    seed: int
    datasets: tuple[str, ...]
    costs: tuple[Any, ...]
    algorithms: tuple[Algorithm, ...]
    protocol: Protocol
    gaussian_samples: int = 2000
    dataset_costs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    derived: dict[str, dict[str, Any]] = field(default_factory=dict)
    quick: bool = False
    report: ReportOptions = field(default_factory=ReportOptions)
    paper: PaperReference = field(default_factory=PaperReference)

    def to_dict(self) -> dict[str, Any]:
        """Return the plain-data form (what the results store records)."""
        return {
            "name": self.name,
            "title": self.report.title or self.name,
            "seed": self.seed,
            "datasets": list(self.datasets),
            "costs": [list(c) if isinstance(c, tuple) else c for c in self.costs],
            "algorithms": [
                {
                    "name": a.name,
                    "method": a.method,
                    "base": a.base,
                    "params": a.params,
                    "grid": a.grid,
                }
                for a in self.algorithms
            ],
            "protocol": vars(self.protocol).copy(),
            "metrics": list(self.report.metrics),
            "reference": self.report.reference,
            "gaussian_samples": self.gaussian_samples,
            "notes": self.report.notes,
            "paper_notes": self.paper.notes,
            "paper": [dict(p) for p in self.paper.rows],
            "claims": [dict(c) for c in self.paper.claims],
            "ratio_to": self.report.ratio_to,
            "quick": self.quick,
            "claim_rows": [list(row) for row in self.paper.claim_rows],
            "derived": {name: dict(recipe) for name, recipe in self.derived.items()},
            "paper_features": {d: list(f) for d, f in self.paper.features.items()},
            "paper_datasets": list(self.paper.datasets),
            "dataset_costs": {
                d: [list(c) if isinstance(c, tuple) else c for c in costs]
                for d, costs in self.dataset_costs.items()
            },
        }

    def fingerprint(self) -> str:
        """Return a canonical JSON text of everything that determines the results."""
        data = self.to_dict()
        report_only: tuple[str, ...] = ("title", "notes", "paper_notes", "metrics")
        report_only += ("reference", "paper", "claims", "paper_features")
        report_only += ("paper_datasets",)
        for key in (*report_only, "ratio_to", "quick", "claim_rows"):
            data.pop(key)
        if data["derived"]:
            data["derived"] = {  # a note is text only
                name: {k: v for k, v in recipe.items() if k != "note"}
                for name, recipe in data["derived"].items()
            }
        else:
            del data["derived"]  # studies without derived sets keep their stores
        return json.dumps(data, sort_keys=True)

    def recipe_for(self, dataset: str) -> str:
        """Return ``dataset``'s derivation as canonical JSON ("" for a plain set)."""
        recipe = self.derived.get(dataset)
        return "" if recipe is None else json.dumps(recipe, sort_keys=True)

    def costs_for(self, dataset: str) -> tuple[Any, ...]:
        """Return the costs run on ``dataset`` (``dataset_costs``, else ``costs``)."""
        return self.dataset_costs.get(dataset, self.costs)

    @property
    def n_cells(self) -> int:
        """Number of (dataset, cost, algorithm, repeat, fold) cells."""
        return count_cells(self.to_dict())


def study_from_record(data: dict[str, Any]) -> Study:
    """Rebuild a :class:`Study` from the plain data a results store recorded.

    Unlike :func:`study_from_dict` it does not validate or resolve anything: the
    record is :meth:`Study.to_dict` output, already checked when it was run.
    Keys a record of an older costsense lacks take their defaults.

    Parameters
    ----------
    data : dict
        :meth:`Study.to_dict` output.

    Returns
    -------
    Study
    """

    def cost(value: Any) -> Any:
        return tuple(value) if isinstance(value, list) else value

    fields = Protocol.__dataclass_fields__
    protocol = {k: v for k, v in data.get("protocol", {}).items() if k in fields}
    return Study(
        name=str(data["name"]),
        seed=int(data.get("seed", 0)),
        datasets=tuple(data["datasets"]),
        costs=tuple(cost(c) for c in data["costs"]),
        algorithms=tuple(
            Algorithm(
                name=a["name"],
                method=a["method"],
                base=a.get("base", "logistic"),
                params=dict(a.get("params", {})),
                grid=dict(a.get("grid", {})),
            )
            for a in data["algorithms"]
        ),
        protocol=Protocol(**protocol),
        gaussian_samples=int(data.get("gaussian_samples", 2000)),
        quick=bool(data.get("quick", False)),
        derived={n: dict(r) for n, r in data.get("derived", {}).items()},
        dataset_costs={
            d: tuple(cost(c) for c in costs)
            for d, costs in data.get("dataset_costs", {}).items()
        },
        report=ReportOptions(title=str(data.get("title", data["name"]))),
    )


def count_cells(study: dict[str, Any]) -> int:
    """Count the cells of a study given as plain data (what a store records).

    Parameters
    ----------
    study : dict
        :meth:`Study.to_dict` output.

    Returns
    -------
    int
    """
    protocol = Protocol(**study["protocol"])
    special = study.get("dataset_costs", {})
    rows = sum(len(special.get(d, study["costs"])) for d in study["datasets"])
    return (
        rows * len(study["algorithms"]) * protocol.n_repeats * protocol.folds_per_repeat
    )
