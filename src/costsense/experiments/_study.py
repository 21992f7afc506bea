"""A study as data: the experiment, its report options and the paper it follows.

No numpy here (``--help`` reads :class:`StudyLimits`). A field that changes
results goes in :meth:`Study._experiment` (the fingerprint), any other only in
:meth:`Study.to_dict`.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

#: What a study name and a dataset name may be: they name files and folders.
IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass(frozen=True)
class StudyLimits:
    """The largest study that loads (a study file comes from anyone).

    Attributes
    ----------
    max_cells, max_estimators, max_rows, max_grid : int
        Cells planned, ``n_estimators`` in any ``params`` or ``grid``, rows of the
        ``"gaussian"`` dataset (``costsense reproduce --max-cells`` ...), and
        parameter combinations of one algorithm's ``grid``.
    """

    max_cells: int = 100_000
    max_estimators: int = 10_000
    max_rows: int = 1_000_000
    max_grid: int = 1_000


@dataclass(frozen=True)
class Protocol:
    """How each (dataset, cost) pair is split into training and test sets.

    Attributes
    ----------
    kind : {"kfold", "holdout", "time"}
        Repeated stratified k-fold, repeated stratified random holdout, or
        forward chaining over the dataset's periods (:func:`forward_chaining`).
    n_splits, n_repeats : int
        Folds per repeat (k-fold and time); repeats, each reshuffled.
    test_size, inner_splits : float, int
        Test share of a holdout split; folds of the inner search of a ``grid``.
    scale : {"standard", "minmax", "none"}
        Feature scaling, fitted on each training set only.
    categorical : {"onehot", "ordinal"}
        Categorical columns as one-hot indicators, or as unscaled codes.
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
        """Test sets per repeat: ``n_splits`` for k-fold and time, 1 for holdout."""
        return 1 if self.kind == "holdout" else self.n_splits

    @property
    def test_train_ratio(self) -> float:
        """``n_test / n_train`` of a split, for the corrected resampled t-test.

        Every kind reuses training rows across splits, which the plain paired
        t-test ignores (Nadeau and Bengio 2003). k-fold: ``1 / (k - 1)``;
        holdout: ``test_size / (1 - test_size)``; forward chaining trains on
        ``f + 1`` blocks and tests on one, so the mean over its folds,
        ``H_k / k`` (``H_k`` the k-th harmonic number).
        """
        if self.kind == "holdout":
            return self.test_size / (1.0 - self.test_size)
        if self.kind == "time":
            return sum(1.0 / (f + 1) for f in range(self.n_splits)) / self.n_splits
        return 1.0 / (self.n_splits - 1)


@dataclass(frozen=True)
class Algorithm:
    """One compared algorithm: a named method around a named base learner.

    Attributes
    ----------
    name : str
        Its name in tables and in the results store.
    method, base : str
        Names of :data:`~costsense.experiments.CATALOG` and
        :data:`~costsense.experiments.BASES`.
    params, grid : dict
        Parameters set on the method (``set_params``), and the grid of an inner
        search minimising the cost.
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
    title, notes : str
        Report title and text.
    metrics : tuple of str
        Reported metrics, the first being the main one.
    reference, ratio_to : str or None
        The algorithm the statistical tests compare against, and the one the
        main metric is divided by (a ratio chart).
    sections : tuple of dict
        Declared sections (``[[sections]]``): kind, title, text, what to read.
    fold_test, fold_test_source : str
        How two algorithms' splits are compared: ``"corrected"``, the
        corrected resampled t-test for overlapping training sets, or
        ``"plain"``, the paired t-test, only where the paper used it (then
        ``fold_test_source`` quotes where it says so).
    """

    title: str = ""
    metrics: tuple[str, ...] = ()
    reference: str | None = None
    ratio_to: str | None = None
    notes: str = ""
    sections: tuple[dict[str, Any], ...] = ()
    fold_test: str = "corrected"
    fold_test_source: str = ""


@dataclass(frozen=True)
class PaperReference:
    """What a study reproduces: the paper's numbers and claims, shown beside ours.

    Attributes
    ----------
    rows, claims : tuple of dict
        The paper's numbers (``{dataset, cost, algorithm, metric, value}``) and
        claims (:mod:`costsense.experiments._claims`).
    notes : str
        What a reader must know to compare a published row with ours.
    claim_rows : tuple of (str, str)
        The full study's (dataset, cost label) rows: a claim checked on fewer (a
        quick run) is reported incomplete.
    features : dict of str to list of int
        The paper's features left after feature selection, per dataset (from 1).
    datasets : tuple of str
        The datasets the paper itself reports (the like-for-like rows).
    """

    rows: tuple[dict[str, Any], ...] = ()
    notes: str = ""
    claims: tuple[dict[str, Any], ...] = ()
    claim_rows: tuple[tuple[str, str], ...] = ()
    features: dict[str, list[int]] = field(default_factory=dict)
    datasets: tuple[str, ...] = ()


#: The record's keys of what determines the results (the fingerprint).
_EXPERIMENT = (
    *"name seed datasets costs algorithms protocol gaussian_samples derived".split(),
    "dataset_costs",
)
#: The record's names of :class:`PaperReference` fields.
_PAPER_KEYS = {
    "rows": "paper",
    "notes": "paper_notes",
    "features": "paper_features",
    "datasets": "paper_datasets",
}


@dataclass(frozen=True)
class Study:
    """A declared comparison (see :mod:`costsense.experiments._study_file`).

    Attributes
    ----------
    name, seed : str, int
        Short name; the seed every split and model seed derives from.
    datasets : tuple of str
        KEEL set names, ``"gaussian"``, or names of ``derived``.
    costs : tuple
        C1/C2 ratios or (C1, C2) pairs; ``dataset_costs`` replace them on some.
    algorithms, protocol : tuple of Algorithm, Protocol
        The compared algorithms; how the data are split and preprocessed.
    gaussian_samples : int
        Sample size of the ``"gaussian"`` dataset.
    derived : dict of str to dict
        The checked ``[derived.<name>]`` and ``[files.<name>]`` tables.
    quick : bool
        Whether the ``[quick]`` overrides were applied.
    report, paper : ReportOptions, PaperReference
        What changes no number: how the report shows results, the paper's.
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

    def _experiment(self) -> dict[str, Any]:
        """Return what determines the results, as plain data."""
        data = self.to_dict()
        return {key: data[key] for key in _EXPERIMENT}

    def to_dict(self) -> dict[str, Any]:
        """Return the plain-data form (what the results store records)."""
        data = json.loads(json.dumps(asdict(self)))  # tuples as lists
        report, paper = data.pop("report"), data.pop("paper")
        paper = {_PAPER_KEYS.get(key, key): value for key, value in paper.items()}
        return {**data, **report, "title": report["title"] or self.name, **paper}

    def fingerprint(self) -> str:
        """Return a canonical JSON text of everything that determines the results."""
        data = self._experiment()
        derived = data.pop("derived")  # none: absent, as stores before it have it
        if derived:  # a note is text only
            data["derived"] = {
                n: {k: v for k, v in r.items() if k != "note"}
                for n, r in derived.items()
            }
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
        return count_cells(self._experiment())


def count_cells(study: dict[str, Any]) -> int:
    """Count the cells of a study's record (:meth:`Study.to_dict`)."""
    protocol = Protocol(**study["protocol"])
    special = study.get("dataset_costs", {})
    rows = sum(len(special.get(d, study["costs"])) for d in study["datasets"])
    return (
        rows * len(study["algorithms"]) * protocol.n_repeats * protocol.folds_per_repeat
    )


def builtin_studies() -> dict[str, Path]:
    """Return the studies shipped with costsense: name -> TOML file."""
    folder = resources.files("costsense.experiments") / "studies"
    paths = [Path(str(entry)) for entry in folder.iterdir()]
    return {path.stem: path for path in paths if path.suffix == ".toml"}
