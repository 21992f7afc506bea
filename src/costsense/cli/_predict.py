"""``costsense predict``: a saved model applied to a table, a chunk at a time.

Each chunk (read here, or a Dask partition with ``--scheduler``) is read as
``fit`` read its rows and its lines written at once to a locked ``.partial``
file, named when whole; memory stays flat.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._data import action_file, table_options
from costsense.cli._model_io import load_model
from costsense.cli._options import UsageError
from costsense.cli._output import new_output, open_partial, publish, text_cells
from costsense.cli._progress import Progress
from costsense.costs import part_costs
from costsense.decision import ActionCosts, adjust_to_prior
from costsense.decision import decide as choose
from costsense.experiments import decide
from costsense.persist import read_key
from costsense.utils._columns import column_kinds
from costsense.utils._reading import read_cells, unseen_categories
from costsense.utils._tables import read_chunks
from costsense.utils._text import numbered_rows, printable


def run_predict(args: argparse.Namespace) -> int:
    output = new_output(args.out, "--out", args.csv, args.model)
    partial, handle = open_partial(output, "--out")
    progress = Progress("predict")
    written = skipped = kept = 0  # kept: the bytes of the whole rows written
    unseen: dict[str, list[Any]] = {}  # column: [rows, a few unseen values]
    finished = False
    try:
        with handle:
            given = args.verify_key_file
            key = read_key(given, "--verify-key-file") if given else None
            model, metadata, signed = load_model(
                args.model, key, max_bytes=int(args.max_model_mb * 2**20)
            )
            scorer = Scorer(model, metadata, args)
            plan = scorer.plan
            if args.scheduler:
                from costsense.cli._dask_predict import dask_chunks

                if plan is not None and plan.whole:
                    raise UsageError(
                        "--capacity and --positive-rate auto decide over every row "
                        "at once, --scheduler scores partitions apart: drop "
                        "--scheduler (predict reads the input in chunks)"
                    )
                chunks = dask_chunks(args, scorer)
            else:
                chunks = scorer.chunks(args.csv, args.chunk_rows)
            for lines in _decided(chunks, plan, progress):
                done = lines.attrs["done"]
                _add_unseen(unseen, lines.attrs["unseen"])
                lines = lines if args.raw_cells else text_cells(lines)
                lines.to_csv(handle, header=kept == 0, index=False)
                handle.flush()  # counted once on disk, both at once: Ctrl-C keeps them
                kept, written = handle.tell(), written + lines.shape[0]
                skipped += int(lines["prediction"].isna().sum())
                progress.update(f"{written:,} rows, {100 * done:.0f} % of the input")
            progress.close()
            finished = True
            publish(handle, partial, output, "--out")
    except BaseException as error:
        progress.close()
        if finished:  # whole, and kept: publish said where
            raise
        if written == 0 or isinstance(error, UsageError):  # the input must change
            partial.unlink(missing_ok=True)
        else:
            os.truncate(partial, kept)  # a chunk cut short is not kept, nor counted
            print(
                f"stopped after {written:,} rows; they are in {partial} (rows 0 to "
                f"{written - 1:,}): to go on, predict from row {written:,} on into "
                "another --out",
                file=sys.stderr,
            )
        raise
    name = metadata["model"]
    signature = "signed, not verified" if signed else "unsigned"
    said = [
        f"{written - skipped} rows predicted with {name} (trained "
        f"{printable(metadata['trained'])} on {metadata['rows']} rows"
        + ("; signature verified)" if key else f", as the file says: {signature})")
    ]
    if skipped:
        said.append(
            f"{skipped} rows with missing values left blank (the model was trained "
            f"with --missing {metadata['missing']}; fit with --missing impute to "
            "decide such rows)"
        )
    if not scorer.gives_proba:
        said.append(f"{name} gives no probabilities, so no expected cost")
    print("; ".join(said), file=sys.stderr)
    if plan is not None:
        print(plan.summary(), file=sys.stderr)
    if unseen:
        counts = [
            f"column {printable(c)!r} in {n:,} rows"
            + (f" (such as {printable(shown)[1:-1]})" if shown else "")
            for c, (n, shown) in unseen.items()
        ]
        print(
            "categories not seen in training, read as none of the known ones: "
            f"{'; '.join(counts)}; check them for typos, or fit on rows holding them"
            + ("" if args.flag_unseen else " (--flag-unseen marks each row)"),
            file=sys.stderr,
        )
    print(f"predictions saved to {output}", file=sys.stderr)
    return 0


@dataclass
class Plan:
    """What predict decides from the probabilities beyond the model's label."""

    names: tuple[Any, ...]  # the actions (the labels, without a table)
    table: NDArray[np.float64] | None  # (K, A) given; None: the rows' own costs
    default: Any
    capacity: dict[Any, int | str] | None
    per: str | None
    prior: tuple[NDArray[np.float64], NDArray[np.float64]] | None  # train, new
    auto: bool
    pos: int
    counts: dict[Any, int] = field(default_factory=dict)

    @property
    def whole(self) -> bool:
        """Whether the decision needs every row first (capacity, an estimated prior)."""
        return self.capacity is not None or self.auto

    def decide(self, lines: Any) -> Any:
        """Add action, expected_cost and saving to ``lines`` from their held values."""
        from costsense.decision import ActionCosts, estimate_prior_shift, expected_costs

        proba, costs, per = lines.attrs.pop("held")
        ok = ~np.isnan(proba).any(axis=1)
        if self.auto and ok.any():
            assert self.prior is not None
            new, proba[ok] = estimate_prior_shift(proba[ok], self.prior[0])
            self.prior = self.prior[0], np.asarray(new, dtype=np.float64)
            for k, column in enumerate(c for c in lines if c.startswith("proba_")):
                lines[column] = proba[:, k]
        costs = ActionCosts(costs[ok] if np.ndim(costs) == 3 else costs, self.names)
        action, saving = np.full(ok.size, None, dtype=object), np.full(ok.size, np.nan)
        spent = np.full(ok.size, np.nan)
        if ok.any():
            per = None if per is None else per[ok]
            chosen, saving[ok] = choose(
                proba[ok], costs, default=self.default, capacity=self.capacity, per=per
            )
            action[ok] = chosen
            index = [self.names.index(a) for a in chosen.tolist()]
            spent[ok] = expected_costs(proba[ok], costs)[np.arange(len(index)), index]
            for name in chosen.tolist():
                self.counts[name] = self.counts.get(name, 0) + 1
        lines["action"], lines["expected_cost"], lines["saving"] = action, spent, saving
        return lines

    def summary(self) -> str:
        """Say what was decided: rows per action, the capacity, the prior used."""
        said = "rows per action: " + ", ".join(
            f"{name} {self.counts.get(name, 0):,}" for name in self.names
        )
        if self.capacity is not None:
            said += "; capacity " + ", ".join(
                f"{name} {limit}" for name, limit in self.capacity.items()
            )
            said += f" per {self.per}" if self.per else " over all rows"
        if self.prior is not None:
            train, new = (p / p.sum() for p in self.prior)
            said += (
                f"; positive rate {'estimated by EM at ' * self.auto}"
                f"{new[self.pos]:.4g} (trained at {train[self.pos]:.4g})"
            )
        return said + f"; savings against {self.default}" * (self.default is not None)


def _plan(
    metadata: dict[str, Any], args: argparse.Namespace, classes: Any, proba: bool
) -> Plan | None:
    """Read the decision options against the model; None: the model's labels only."""
    stored = metadata.get("actions")
    given = {
        option: value
        for option, value in (
            ("--action-costs", args.action_costs),
            ("--capacity", args.capacity),
            ("--positive-rate", args.positive_rate),
            ("--default-action", args.default_action),
            ("--per", args.per),
        )
        if value is not None
    }
    if stored is None and not given:
        return None
    if not proba:
        raise UsageError(
            f"model {metadata['model']} gives no probabilities, so it cannot decide "
            f"by expected cost ({', '.join(given) or 'its action table'}): fit a "
            "model that gives them (such as minimum-cost)"
        )
    if args.per is not None and args.capacity is None:
        raise UsageError("--per names the periods of --capacity: give --capacity")
    table = None
    if args.action_costs == "columns":
        raise UsageError(
            "predict --action-costs takes a FILE; each row's cost_<class>_<action> "
            "columns are read for a model fit with --action-costs columns"
        )
    if args.action_costs is not None:
        actions = action_file(args.action_costs, classes)
        names, table = actions.actions, actions.table
    elif stored is not None:
        names = tuple(stored["names"])
        table = None if stored["table"] is None else np.asarray(stored["table"])
    else:
        names = tuple(c.item() if isinstance(c, np.generic) else c for c in classes)
    pos = (
        1
        if metadata["pos_label"] is None
        else classes.tolist().index(metadata["pos_label"])
    )

    def action(text: str, option: str) -> Any:
        found = [n for n in names if str(n) == text]
        if not found:
            raise UsageError(
                f"{option}: {text!r} is not an action; the actions are "
                f"{printable([str(n) for n in names])}"
            )
        return found[0]

    labels = table is None and stored is None
    if args.default_action is not None:
        default = action(args.default_action, "--default-action")
    else:  # costsense.decision.no_action: the first action, the negative label
        default = names[1 - pos] if labels and len(names) == 2 else names[0]
        default = None if labels and len(names) > 2 else default
    capacity = None
    if args.capacity is not None:
        if None in args.capacity and not (labels and len(names) == 2):
            raise UsageError(
                f"--capacity {args.capacity[None]}: name the action it limits "
                f"(such as {names[-1]}={args.capacity[None]}); the actions are "
                f"{printable([str(n) for n in names])}"
            )
        capacity = {
            names[pos] if key is None else action(key, "--capacity"): limit
            for key, limit in args.capacity.items()
        }
    prior = None
    if args.positive_rate is not None:
        counts = metadata.get("class_counts")
        if len(classes) != 2 or counts is None:
            raise UsageError(
                "--positive-rate is for two classes, and a model file that records "
                "its training class counts"
                + (" (this one does not: fit it again)" if counts is None else "")
            )
        rate = 0.5 if args.positive_rate == "auto" else float(args.positive_rate)
        new = np.full(2, 1 - rate)
        new[pos] = rate
        prior = np.asarray(counts, dtype=np.float64), new
    return Plan(
        names,
        table,
        default,
        capacity,
        args.per,
        prior,
        args.positive_rate == "auto",
        pos,
    )


def _decided(
    chunks: Iterator[Any], plan: Plan | None, progress: Progress
) -> Iterator[Any]:
    """Decide each chunk as it comes, or all at once when the plan needs every row."""
    import pandas as pd

    if plan is None or not plan.whole:
        for lines in chunks:
            yield lines if plan is None else plan.decide(lines)
        return
    held, kept = [], []
    for lines in chunks:
        held.append(lines.attrs.pop("held"))
        kept.append(lines)
        done = lines.attrs["done"]
        progress.update(f"{sum(map(len, kept)):,} rows read, {100 * done:.0f} %")
    lines = pd.concat(kept, ignore_index=True)
    unseen: dict[str, list[Any]] = {}
    for part in kept:
        _add_unseen(unseen, part.attrs["unseen"])
    costs = [h[1] for h in held]
    lines.attrs = {
        "done": 1.0,
        "unseen": unseen,
        "held": (
            np.concatenate([h[0] for h in held]),
            np.concatenate(costs) if np.ndim(costs[0]) == 3 else costs[0],
            None if held[0][2] is None else np.concatenate([h[2] for h in held]),
        ),
    }
    yield plan.decide(lines)


def _add_unseen(total: dict[str, list[Any]], found: dict[str, Any]) -> None:
    """Add a chunk's unseen categories, ``{column: (rows, a few values)}``."""
    for name, (count, values) in found.items():
        seen = total.setdefault(name, [0, []])
        seen[:] = seen[0] + count, list(dict.fromkeys(seen[1] + values))[:3]


class Scorer:
    """Turn input rows into predictions lines; small, so a Dask cluster gets it once."""

    def __init__(
        self, model: Any, metadata: dict[str, Any], args: argparse.Namespace
    ) -> None:
        self.model = model
        self.metadata = metadata
        self.path = str(args.csv)
        self.options = table_options(args)
        self.id_column: str | None = args.id_column or metadata.get("id_column")
        self.id_given = bool(args.id_column)
        self.classes = np.asarray(model.classes_)
        self.gives_proba = hasattr(model, "predict_proba")
        self.flag_unseen = bool(args.flag_unseen)
        self.plan = _plan(metadata, args, self.classes, self.gives_proba)
        if self.id_column is not None and (
            self.id_column
            in ("row", "prediction", "expected_cost", "unseen_categories")
            + ("action", "saving")
            or str(self.id_column).startswith("proba_")
        ):
            raise UsageError(
                f"--id-column {self.id_column!r} would share its name with a column "
                "of the predictions file; rename it in --csv"
            )
        if self.id_given and self.id_column in metadata["columns"]:
            raise UsageError(
                f"--id-column {self.id_column!r} is one of the model's features"
            )

    def chunks(self, path: str, rows: int | None) -> Iterator[Any]:
        """Score the input's chunks in order, the identifier as written ("007")."""
        text = [] if self.id_column is None else [self.id_column]
        per = None if self.plan is None else self.plan.per
        text += [per] if per and per not in self.metadata["columns"] else []
        for chunk in read_chunks(path, self.options, rows, text_columns=text):
            lines = self(chunk.frame, chunk.frame.index.start)
            lines.attrs["done"] = chunk.done
            yield lines

    def __call__(self, frame: Any, first_row: int) -> Any:
        """Return the file's lines of ``frame``; a row the model cannot take: blank."""
        import pandas as pd

        frame = frame.reset_index(drop=True)
        frame.columns = [str(c) for c in frame.columns]
        cost, kinds = self.metadata["cost"], self.metadata["columns"]
        absent = [c for c in cost["columns"] if c not in frame.columns]
        if absent:
            raise UsageError(
                f"--csv {self.path} has no cost columns {absent}: the model was "
                f"trained with costs {cost['parts']}, and decides each row by its "
                "own costs"
            )
        numeric = [
            c
            for c in frame.columns
            if kinds.get(c) == "numeric" or c in cost["columns"]
        ]
        marks = self.metadata.get("number_marks", {})
        frame[numeric] = read_cells(
            frame[numeric], self.path, self.options, cost["columns"], marks, first_row
        )[0]
        rows: Any = None  # the rows' label costs (n, K, K)
        by_row = None  # their action costs (n, K, A)
        if cost["parts"] and cost["columns"]:
            values = {c: frame[c].to_numpy(np.float64) for c in cost["columns"]}
            rows = part_costs(cost["parts"], values, frame.shape[0])
            rows = rows.matrices(self.classes, self.metadata["pos_label"])
        elif cost["columns"]:  # cost_<class>_<action>, class-major
            names = self.metadata["actions"]["names"]  # cells checked by read_cells
            cells = frame[cost["columns"]].to_numpy(np.float64)
            by_row = cells.reshape(-1, self.classes.size, len(names))
            rows = ActionCosts(by_row, names).label_costs()
        per = None
        if self.plan is not None and self.plan.per is not None:
            if self.plan.per not in frame.columns:
                raise UsageError(
                    f"--per {self.plan.per!r} is not a column of --csv {self.path}; "
                    f"the columns are {printable(list(frame.columns))}"
                )
            per = frame[self.plan.per].to_numpy()
        ids = self._ids(frame)
        given = frame if ids is None else frame.drop(columns=[ids.name])
        also = [] if self.plan is None or self.plan.per is None else [self.plan.per]
        features = _check_columns(given, self.metadata, self.path, also)
        self._refuse_unread_dates(features, first_row)
        n_rows = frame.shape[0]
        usable = ~features.isna().any(axis=1).to_numpy()
        if self.metadata["missing"] in ("keep", "impute"):
            usable[:] = True
        lines = pd.DataFrame({"row": np.arange(first_row, first_row + n_rows)})
        if ids is not None:
            lines[ids.name] = ids.to_numpy()
        prediction = np.full(n_rows, None, dtype=object)
        decided: NDArray[Any] = np.empty(0, dtype=self.classes.dtype)
        proba = None
        if usable.any():
            kept = features[usable]
            decided = np.asarray(
                decide(self.model, kept, None if rows is None else rows[usable])
            )
            prediction[usable] = decided.astype(object)
            try:  # a model may turn out to have no probabilities
                if self.gives_proba:
                    proba = np.asarray(self.model.predict_proba(kept), dtype=np.float64)
            except (AttributeError, NotImplementedError):
                self.gives_proba = False
        lines["prediction"] = prediction
        if not self.gives_proba:
            return self._unseen(features, usable, lines)
        # each class's probability, and the expected cost of the decision
        table = np.full((usable.size, self.classes.size + 1), np.nan)
        matrix = np.asarray(self.metadata["cost"]["matrix"], dtype=np.float64)
        if proba is not None:
            if self.plan is not None and self.plan.prior and not self.plan.auto:
                proba = adjust_to_prior(proba, *self.plan.prior)
            if rows is not None:
                matrices = rows[usable]
            else:
                matrices = np.broadcast_to(matrix, (proba.shape[0], *matrix.shape))
            # the expected cost of the decision d: sum over true k of P(k|x) C[k, d]
            index = np.searchsorted(self.classes, decided)
            spent = matrices[np.arange(proba.shape[0]), :, index]
            table[usable, :-1] = proba
            table[usable, -1] = np.sum(proba * spent, axis=1)
        for k, label in enumerate(self.classes):
            lines[f"proba_{label}"] = table[:, k]
        lines["expected_cost"] = table[:, -1]
        if self.plan is not None:  # a table given, else the rows' own, else one
            costs = next(
                c for c in (self.plan.table, by_row, rows, matrix) if c is not None
            )
            lines.attrs["held"] = (table[:, :-1], costs, per)
        return self._unseen(features, usable, lines)

    def _unseen(self, features: Any, usable: NDArray[np.bool_], lines: Any) -> Any:
        """Count, by column, the decided rows' unseen categories (a few if shown)."""
        import pandas as pd

        found = unseen_categories(self.model.steps[0][1], features, usable)
        show = self.options.show_cells
        lines.attrs["unseen"] = {
            name: (int(rows.sum()), list(features[name][rows].unique()[:3]) * show)
            for name, rows in found.items()
        }
        if self.flag_unseen:
            flag = pd.Series("", index=lines.index)
            for name, rows in found.items():
                flag += np.where(rows, f"{name};", "")
            lines["unseen_categories"] = flag.str.rstrip(";")
        return lines

    def _refuse_unread_dates(self, features: Any, first_row: int) -> None:
        from costsense.utils._dates import read_dates

        prepare = self.model.steps[0][1]
        step = getattr(prepare, "named_transformers_", {}).get("date-time")
        if step is None:
            return
        parts = step.steps[0][1] if hasattr(step, "steps") else step
        for name, pattern in zip(parts.feature_names_in_, parts.formats_, strict=True):
            column = features[name]
            unread = (read_dates(column, pattern).isna() & column.notna()).to_numpy()
            if unread.any():
                raise UsageError(
                    f"--csv {self.path}: column {name!r} holds text that is not a "
                    f"date as the training rows wrote them "
                    f"({numbered_rows(unread, first_row)}, such as "
                    f"'{printable(column[unread].iloc[0], 40)}')"
                )

    def _ids(self, frame: Any) -> Any:
        if self.id_column is None or (
            self.id_column not in frame.columns and not self.id_given
        ):
            return None
        if self.id_column not in frame.columns:
            raise UsageError(
                f"--id-column {self.id_column!r} is not a column of --csv "
                f"{self.path}; the columns are {printable(list(frame.columns))}"
            )
        return frame[self.id_column]


def _check_columns(
    frame: Any, metadata: dict[str, Any], path: str, also: list[str]
) -> Any:
    expected: dict[str, str] = metadata["columns"]
    allowed = {
        *also,
        metadata["target"],
        *metadata["cost"]["columns"],
        *metadata.get("ignored", []),
    } - {None}
    present = {str(c) for c in frame.columns}
    missing = [c for c in expected if c not in present]
    extra = [str(c) for c in frame.columns if c not in expected and c not in allowed]
    found = column_kinds(frame[[c for c in expected if c in present]])
    retyped = [
        f"{c} ({expected[c]} when trained, {found[c]} here)"
        for c in expected
        if c in found and found[c] != expected[c] and not frame[c].isna().all()
    ]
    problems = [
        f"{what} {printable(names)}{fix}"
        for what, names, fix in (
            ("missing columns", missing, ""),
            ("extra columns", extra, " (remove them)"),
            ("retyped columns", retyped, ""),
        )
        if names
    ]
    if problems:
        raise UsageError(
            f"--csv {path} does not match the model's columns: "
            + "; ".join(problems)
            + f". The model was trained on {printable(list(expected))}"
        )
    return frame[list(expected)]
