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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.cli._data import table_options
from costsense.cli._model_io import load_model
from costsense.cli._options import UsageError
from costsense.cli._output import new_output, open_partial, publish, text_cells
from costsense.cli._progress import Progress
from costsense.costs import part_costs
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
            if args.scheduler:
                from costsense.cli._dask_predict import dask_chunks

                chunks = dask_chunks(args, scorer)
            else:
                chunks = scorer.chunks(args.csv, args.chunk_rows)
            for lines in chunks:
                done = lines.attrs["done"]
                for name, (count, values) in lines.attrs["unseen"].items():
                    seen = unseen.setdefault(name, [0, []])
                    seen[:] = seen[0] + count, list(dict.fromkeys(seen[1] + values))[:3]
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
        if self.id_column is not None and (
            self.id_column
            in ("row", "prediction", "expected_cost", "unseen_categories")
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
        rows = None
        if cost["columns"]:
            values = {c: frame[c].to_numpy(np.float64) for c in cost["columns"]}
            rows = part_costs(cost["parts"], values, frame.shape[0])
        ids = self._ids(frame)
        given = frame if ids is None else frame.drop(columns=[ids.name])
        features = _check_columns(given, self.metadata, self.path)
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
        if proba is not None:
            if rows is not None:
                matrices = rows.matrices(self.classes, self.metadata["pos_label"])
                matrices = matrices[usable]
            else:
                matrix = np.asarray(self.metadata["cost"]["matrix"], dtype=np.float64)
                matrices = np.broadcast_to(matrix, (proba.shape[0], *matrix.shape))
            # the expected cost of the decision d: sum over true k of P(k|x) C[k, d]
            index = np.searchsorted(self.classes, decided)
            spent = matrices[np.arange(proba.shape[0]), :, index]
            table[usable, :-1] = proba
            table[usable, -1] = np.sum(proba * spent, axis=1)
        for k, label in enumerate(self.classes):
            lines[f"proba_{label}"] = table[:, k]
        lines["expected_cost"] = table[:, -1]
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


def _check_columns(frame: Any, metadata: dict[str, Any], path: str) -> Any:
    expected: dict[str, str] = metadata["columns"]
    allowed = {
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
