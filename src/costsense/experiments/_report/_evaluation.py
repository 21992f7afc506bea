"""The money report of ``costsense evaluate --report``: saved, then drawn.

An evaluation is saved as plain data (``evaluation.json`` and ``arrays.npz``,
read back without pickle); :func:`write_evaluation_report` draws the page from
it alone, so ``costsense report DIR`` rebuilds the same page.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from costsense.experiments._report._blocks import (
    Block,
    Heading,
    Image,
    Paragraph,
    Table,
    to_html,
    to_markdown,
)

__all__ = ["load_evaluation", "save_evaluation", "write_evaluation_report"]

#: The keys ``evaluation.json`` must hold, with their types.
_SCHEMA: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "models": list,
    "classes": list,
    "actions": list,
    "default": (str, int, float, bool, type(None)),
    "pos_label": (str, int, float, bool, type(None)),
    "class_costs": bool,
    "fold_table": list,
    "summary": list,
    "run": list,
    "segments": list,
    "id_column": (str, type(None)),
    "current": (str, type(None)),
    "capacity": (str, type(None)),
    "capacity_share": (float, type(None)),
    "limits": list,
    "folds": list,
}
_FORMAT = "costsense-evaluation-1"
#: Rows listed in the table of the largest realised losses.
TOP_LOSSES = 10


def _plain(values: Any) -> NDArray[Any]:
    """Return values as a plain (number or text) array, never object dtype."""
    found = np.asarray(values)
    return found.astype(str) if found.dtype == object else found


def save_evaluation(
    folder: Path,
    meta: dict[str, Any],
    arrays: dict[str, Any],
) -> None:
    """Write ``evaluation.json`` and ``arrays.npz`` into ``folder``.

    Parameters
    ----------
    folder : Path
        An existing, empty folder.
    meta : dict
        The keys of ``_SCHEMA`` (JSON values).
    arrays : dict of str to array-like
        ``y``, ``table`` (class x action costs, or one per row), per model
        ``index/NAME`` and ``proba/NAME``, and optionally ``current``, ``ids``
        and ``segment/NAME``.
    """
    (folder / "evaluation.json").write_text(
        json.dumps({"format": _FORMAT, **meta}, indent=1, default=str) + "\n"
    )
    plain: dict[str, Any] = {k: _plain(v) for k, v in arrays.items()}
    np.savez_compressed(folder / "arrays.npz", **plain)


def load_evaluation(folder: Path) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
    """Read a saved evaluation back, checking its schema and its arrays' shapes.

    Parameters
    ----------
    folder : Path
        A folder written by ``costsense evaluate --report`` (or
        :func:`save_evaluation`).

    Returns
    -------
    meta : dict
        The contents of ``evaluation.json``.
    arrays : dict of str to ndarray
        The arrays of ``arrays.npz``, read without pickle.

    Raises
    ------
    ValueError
        A file that is not a saved evaluation, naming what is wrong.
    """
    where = folder / "evaluation.json"
    try:
        meta = json.loads(where.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{where}: not a saved evaluation ({error})") from None
    bad = (
        [k for k, t in _SCHEMA.items() if not isinstance(meta.get(k, ...), t)]
        if isinstance(meta, dict)
        else ["the top level"]
    )
    if bad or meta.get("format") != _FORMAT:
        raise ValueError(
            f"{where}: not a saved evaluation of this version ({_FORMAT}): "
            f"wrong or missing {', '.join(bad) or 'format'}"
        )
    try:
        with np.load(folder / "arrays.npz", allow_pickle=False) as found:
            arrays = {k: found[k] for k in found.files}
    except (OSError, ValueError) as error:
        raise ValueError(f"{folder / 'arrays.npz'}: refused ({error})") from None
    _check_arrays(meta, arrays, folder / "arrays.npz")
    return meta, arrays


def _check_arrays(
    meta: dict[str, Any], a: dict[str, NDArray[Any]], where: Path
) -> None:
    """Refuse arrays whose shapes disagree with each other or with ``meta``."""
    n_classes, n_actions = len(meta["classes"]), len(meta["actions"])
    problems = []
    if not all(isinstance(p, list) and len(p) == 2 for p in meta["limits"]):
        problems.append("limits are not (action, limit) pairs")
    y, table = a.get("y"), a.get("table")
    if y is None or y.ndim != 1 or table is None:
        problems.append("y (one label per row) and table are required")
    else:
        n = y.shape[0]
        if table.shape not in ((n_classes, n_actions), (n, n_classes, n_actions)):
            problems.append(f"table has shape {table.shape}")
        if table.dtype.kind != "f" or not np.isfinite(table).all():
            problems.append("table is not finite numbers")
        for model in meta["models"]:
            index, proba = a.get(f"index/{model}"), a.get(f"proba/{model}")
            if index is None or proba is None:
                continue
            if (
                index.dtype.kind not in "iu"
                or index.ndim != 1
                or (index.size and (index.min() < 0 or index.max() >= n))
                or proba.shape != (index.size, n_classes)
            ):
                problems.append(f"index/proba of {model!r} do not fit {n} rows")
        listed = [f"segment/{s}" for s in meta["segments"]]
        for key in ["current", "ids", "per", *listed]:
            if key in a and a[key].shape != (n,):
                problems.append(f"{key} has shape {a[key].shape}, not ({n},)")
    if problems:
        raise ValueError(f"{where}: refused: {'; '.join(problems)}")


def _money(value: float) -> str:
    return f"{value:,.2f}"


def _realised(meta: dict[str, Any], a: dict[str, NDArray[Any]]) -> NDArray[Any]:
    """Return ``out[r, action]``: what each action costs on each row."""
    from costsense.decision import ActionCosts, realised_costs

    table = ActionCosts(a["table"], tuple(meta["actions"]))
    return realised_costs(a["y"], table, np.asarray(meta["classes"]))


def decisions(
    meta: dict[str, Any], a: dict[str, NDArray[Any]]
) -> dict[str, tuple[NDArray[np.intp], NDArray[np.intp]]]:
    """Return per model its test rows and the index of the action decided on each.

    The least expected cost over the out-of-fold probabilities, within the
    stated capacity per period if any (:func:`costsense.decision.decide`), as
    :func:`~costsense.decision.decision_report` re-makes them.
    """
    from costsense.decision import ActionCosts, decide

    names = tuple(meta["actions"])
    found = {}
    for model in meta["models"]:
        if f"index/{model}" not in a:
            continue
        index = a[f"index/{model}"]
        table = a["table"][index] if a["table"].ndim == 3 else a["table"]
        limits = dict(meta["limits"]) or None
        when = a["per"][index] if "per" in a else None
        action, _ = decide(
            a[f"proba/{model}"], ActionCosts(table, names), capacity=limits, per=when
        )
        chosen = np.array([names.index(x) for x in np.asarray(action).tolist()])
        found[model] = (index, chosen.astype(np.intp))
    return found


def headline(
    meta: dict[str, Any], a: dict[str, NDArray[Any]]
) -> tuple[list[list[str]], str]:
    """Return the money table (policy, rows, total cost, saving, interval), its note.

    Every policy is priced on the rows the first model was tested on: each
    model's decisions, every single action (for two classes: acting on nobody,
    on everybody), the current decisions if given.
    """
    from costsense.decision import savings_interval

    realised = _realised(meta, a)
    made = decisions(meta, a)
    names = list(meta["actions"])
    rows = next(iter(made.values()))[0] if made else np.arange(len(a["y"]))
    default = _default(meta, realised[rows])
    base_total = float(realised[rows, default].sum())
    table = [["policy", "rows", "total cost", "saving", "95% interval", "in the folds"]]
    own = _fold_totals(meta)
    for model, (index, chosen) in made.items():
        total = float(realised[index, chosen].sum())
        found = savings_interval(
            a["y"][index],
            np.asarray(names, dtype=object)[chosen],
            _table_rows(meta, a, index),
            default=names[default],
            classes=np.asarray(meta["classes"]),
        )
        saving = float(realised[index, default].sum()) - total
        table.append(
            [model, str(index.size), _money(total), _money(saving)]
            + [f"{_money(found.low)} to {_money(found.high)}"]
            + [_money(own[model]) if model in own else ""]
        )
    two = meta["pos_label"] is not None and len(names) == 2
    for j, name in enumerate(names):
        said = (
            ("acting on nobody" if j == default else "acting on everybody")
            if two
            else f"{name!s} for every row"
        )
        total = float(realised[rows, j].sum())
        table.append(
            [said, str(rows.size), _money(total), _money(base_total - total), "", ""]
        )
    if "current" in a:
        chosen = np.array([names.index(v) for v in a["current"][rows].tolist()])
        total = float(realised[rows, chosen].sum())
        table.append(
            [f"current decision ({meta['current']})", str(rows.size)]
            + [_money(total), _money(base_total - total), "", ""]
        )
    baseline = (
        "acting on nobody" if two else f"deciding {names[default]!s} for every row"
    )
    note = (
        f"Saving = the total cost of {baseline} minus the policy's, on the same "
        "test rows; a model's decision is the least expected cost over its "
        "out-of-fold probabilities"
        + f", within the capacity {meta['capacity']}"
        * bool(meta["limits"])
        + "; the interval is a bootstrap over the test "
        "rows, stratified by class. In the folds: the total cost of the model's "
        "own decisions, summed over its test folds (the fold-by-fold table)."
    )
    return table, note


def _fold_totals(meta: dict[str, Any]) -> dict[str, float]:
    """Return each model's ``cost_total`` summed over the folds that ran."""
    header, *rows = meta["folds"] or [[]]
    if "cost_total" not in header:
        return {}
    at = header.index("cost_total")
    totals: dict[str, float] = {}
    for row in rows:
        if isinstance(row[at], int | float):
            totals[str(row[0])] = totals.get(str(row[0]), 0.0) + float(row[at])
    return totals


def _default(meta: dict[str, Any], realised: NDArray[Any]) -> int:
    """Return the index of the baseline action: the default, else the cheapest."""
    names = list(meta["actions"])
    if meta["default"] in names:
        return names.index(meta["default"])
    return int(np.argmin(realised.sum(axis=0)))


def _table_rows(meta: dict[str, Any], a: dict[str, NDArray[Any]], index: Any) -> Any:
    from costsense.decision import ActionCosts

    table = a["table"][index] if a["table"].ndim == 3 else a["table"]
    return ActionCosts(table, tuple(meta["actions"]))


def segments(
    meta: dict[str, Any], a: dict[str, NDArray[Any]], column: str, model: str
) -> list[list[str]]:
    """Return the saving of ``model`` over the baseline per value of a column.

    A column of more than 8 distinct numbers is cut into 4 quantile bands.
    """
    realised = _realised(meta, a)
    index, chosen = decisions(meta, a)[model]
    default = _default(meta, realised[index])
    values = a[f"segment/{column}"][index]
    if values.dtype.kind in "iuf" and np.unique(values).size > 8:
        edges = np.unique(np.quantile(values, [0, 0.25, 0.5, 0.75, 1]))
        band = np.clip(
            np.searchsorted(edges, values, side="right") - 1, 0, edges.size - 2
        )
        labels = [f"{edges[i]:g} to {edges[i + 1]:g}" for i in range(edges.size - 1)]
        values = np.asarray(labels)[band]
    else:
        labels = np.unique(values).tolist()
    table = [[column, "rows", "cost", "saving"]]
    for value in labels:
        part = values == value
        cost = realised[index[part], chosen[part]].sum()
        base = realised[index[part], default].sum()
        table.append(
            [str(value), str(int(part.sum())), _money(cost), _money(base - cost)]
        )
    return table


def top_losses(
    meta: dict[str, Any], a: dict[str, NDArray[Any]], model: str
) -> list[list[str]]:
    """Return the rows of ``model``'s largest realised cost, largest first."""
    realised = _realised(meta, a)
    index, chosen = decisions(meta, a)[model]
    cost = realised[index, chosen]
    order = np.argsort(-cost, kind="stable")[:TOP_LOSSES]
    ids = a["ids"] if "ids" in a else np.arange(len(a["y"]))
    names = list(meta["actions"])
    table = [[meta["id_column"] or "row", "true class", "decided", "cost"]]
    for k in order:
        r = index[k]
        table.append(
            [str(ids[r]), str(a["y"][r]), str(names[chosen[k]]), _money(cost[k])]
        )
    return table


def _figures(
    meta: dict[str, Any], a: dict[str, NDArray[Any]], figure_dir: Path
) -> list[Block]:
    """Draw the page's figures into ``figure_dir``; return their blocks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from costsense.decision import calibration_check
    from costsense.plots import (
        CostBreakdownDisplay,
        CostCurveDisplay,
        SavingsCurveDisplay,
    )

    blocks: list[Block] = []
    made = decisions(meta, a)
    pos = meta["pos_label"]
    binary = pos is not None and len(meta["actions"]) == 2
    classes = np.asarray(meta["classes"])

    def save(fig: Any, name: str, caption: str) -> None:
        path = figure_dir / f"{name}.png"
        fig.savefig(path, dpi=80, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        blocks.append(Image(path, caption))

    if binary:
        for kind in ("threshold", "share"):
            fig, ax = plt.subplots(figsize=(7, 4))
            for model, (index, _) in made.items():
                costs = a["table"][index] if a["table"].ndim == 3 else a["table"]
                SavingsCurveDisplay.from_predictions(
                    a["y"][index],
                    a[f"proba/{model}"],
                    costs=costs,
                    pos_label=pos,
                    kind=kind,
                    name=model,
                    ax=ax,
                )
            if kind == "share" and meta["capacity_share"] is not None:
                ax.axvline(meta["capacity_share"], color="black", linestyle="--")
                ax.set_title(f"dashed: the stated capacity {meta['capacity']}")
            ax.legend(fontsize=8)
            save(
                fig,
                f"savings-{kind}",
                (
                    "Savings against the share of rows acted on, those of largest "
                    "expected saving first"
                    if kind == "share"
                    else "Savings against the threshold on P(positive)"
                )
                + "; marked: the Bayes decision; measured against the cheaper "
                "constant action, named on the axis",
            )
        fig, ax = plt.subplots(figsize=(7, 1 + 0.5 * len(made)))
        CostBreakdownDisplay.from_predictions(
            a["y"],
            {
                m: _fill(a["y"], i, np.asarray(meta["actions"])[c], meta["default"])
                for m, (i, c) in made.items()
            },
            costs=a["table"],
            pos_label=pos,
            ax=ax,
        )
        save(fig, "breakdown", "The money by outcome per model")
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], ":", color="grey")
    for model, (index, _) in made.items():
        check = calibration_check(
            a[f"proba/{model}"],
            a["y"][index],
            _table_rows(meta, a, index),
            classes=classes,
            n_resamples=200,
        )
        ax.plot(
            [b["mean_predicted"] for b in check.bins],
            [b["observed"] for b in check.bins],
            "o-",
            label=model,
        )
    ax.set(xlabel="mean predicted probability", ylabel="observed frequency")
    ax.legend(fontsize=8)
    save(fig, "reliability", "Reliability diagram (calibration_check's bins)")
    if meta["class_costs"] and binary:
        fig, ax = plt.subplots(figsize=(7, 4))
        drawn = [
            CostCurveDisplay.from_predictions(
                a["y"][index], a[f"proba/{model}"], pos_label=pos, name=model, ax=ax
            )
            for model, (index, _) in made.items()
        ]
        lowest = np.min([d.norm_cost for d in drawn], axis=0)
        ax.plot(drawn[0].pc, lowest, color="black", lw=2.5, alpha=0.4, label="envelope")
        ax.legend(fontsize=8)
        save(
            fig,
            "cost-curves",
            "Drummond-Holte cost curves of each model; grey: the lower envelope of "
            "all, the least normalised expected cost at each PC(+)",
        )
        fig, ax = plt.subplots(figsize=(5, 5))
        for model, (index, chosen) in made.items():
            _iso_cost_roc(
                ax, model, a["y"][index], a[f"proba/{model}"], chosen, meta, a
            )
        ax.set(xlabel="false positive rate", ylabel="true positive rate", xlim=(0, 1))
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8)
        save(
            fig,
            "iso-cost-roc",
            "ROC curves; dashed: the iso-cost line through each model's decision, "
            "slope p(-) C(+|-) / (p(+) C(-|+))",
        )
    return blocks


def iso_cost_slope(meta: dict[str, Any], table: NDArray[Any], y: Any) -> float:
    """Return ``p(-) C(+|-) / (p(+) C(-|+))``, the slope of the ROC's iso-cost lines.

    ``C(+|-)`` is the extra cost of acting on a negative, ``C(-|+)`` that of
    leaving a positive (Provost & Fawcett, "Robust classification for imprecise
    environments", Machine Learning 42, 2001).
    """
    classes = list(meta["classes"])
    pos = classes.index(meta["pos_label"])
    neg = 1 - pos
    false_alarm = table[neg, pos] - table[neg, neg]
    miss = table[pos, neg] - table[pos, pos]
    share = float(np.mean(np.asarray(y) == meta["pos_label"]))
    return float((1 - share) * false_alarm / (share * miss))


def _iso_cost_roc(
    ax: Any,
    model: str,
    y: Any,
    proba: Any,
    chosen: Any,
    meta: dict[str, Any],
    a: dict[str, NDArray[Any]],
) -> None:
    """Draw a model's ROC curve and the iso-cost line through its decision."""
    from sklearn.metrics import roc_curve

    classes = list(meta["classes"])
    pos = classes.index(meta["pos_label"])
    truth = np.asarray(y) == meta["pos_label"]
    fpr, tpr, _ = roc_curve(truth, proba[:, pos])
    (line,) = ax.plot(fpr, tpr, label=model)
    acted = np.asarray(chosen) == pos
    at = (acted[~truth].mean(), acted[truth].mean())
    slope = iso_cost_slope(meta, a["table"], a["y"])
    grid = np.linspace(0, 1, 101)
    clipped = np.clip(at[1] + slope * (grid - at[0]), 0, 1)
    ax.plot(grid, clipped, "--", color=line.get_color())
    ax.plot(*at, "o", color=line.get_color())


def _fill(y: Any, index: Any, action: Any, default: Any) -> Any:
    """Return one decision per row of ``y`` (rows not tested: the default)."""
    out = np.full(len(y), default, dtype=np.asarray(action).dtype)
    out[index] = action
    return out


def evaluation_blocks(
    meta: dict[str, Any], a: dict[str, NDArray[Any]], figure_dir: Path
) -> list[Block]:
    """Return the page's blocks, drawing its figures into ``figure_dir``."""
    money, note = headline(meta, a)
    blocks: list[Block] = [
        Heading("What each policy costs", 1),
        Table(money[0], money[1:]),
        Paragraph(note),
        *_figures(meta, a, figure_dir),
    ]
    made = decisions(meta, a)
    best = min(
        made, key=lambda m: float(money[1 + list(made).index(m)][2].replace(",", ""))
    )
    for column in meta["segments"]:
        found = segments(meta, a, column, best)
        blocks += [
            Heading(f"Savings of {best} by {column}", 2),
            Table(found[0], found[1:]),
        ]
    if made:
        found = top_losses(meta, a, best)
        blocks += [
            Heading(f"The rows of {best}'s largest realised cost", 2),
            Table(found[0], found[1:]),
        ]
    fold = meta["fold_table"]
    blocks += [Heading("Mean (std) over the folds", 2), Table(fold[0], fold[1:])]
    if meta["folds"]:
        header, *rows = meta["folds"]
        shown = [
            [_money(v) if isinstance(v, float) else str(v) for v in r] for r in rows
        ]
        blocks += [Heading("Fold by fold", 2), Table(header, shown)]
    blocks += [Heading("Data and costs", 2), *map(Paragraph, meta["summary"])]
    blocks += [Heading("What was run", 2), *map(Paragraph, meta["run"])]
    blocks.append(
        Paragraph(
            "Statistics: totals are sums of realised costs over the pooled test "
            "rows; intervals are percentile bootstraps (2,000 resamples) over "
            "the rows, stratified by class."
        )
    )
    return blocks


def write_evaluation_report(folder: Path) -> Path:
    """Rebuild ``report.html``, ``report.md`` and ``figures/`` of a saved evaluation.

    Written in a temporary folder inside, then moved in: whole or not at all.

    Parameters
    ----------
    folder : Path
        A folder holding a saved evaluation (:func:`load_evaluation`).

    Returns
    -------
    Path
        The path of ``report.html``.
    """
    meta, arrays = load_evaluation(folder)
    work = Path(tempfile.mkdtemp(prefix=".report-", dir=folder))
    try:
        figure_dir = work / "figures"
        figure_dir.mkdir()
        blocks = evaluation_blocks(meta, arrays, figure_dir)
        (work / "report.md").write_text(to_markdown(blocks, figure_dir))
        (work / "report.html").write_text(to_html(blocks, "costsense evaluate"))
        if (folder / "figures").exists():
            shutil.rmtree(folder / "figures")
        for name in ("figures", "report.md", "report.html"):
            (work / name).replace(folder / name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder / "report.html"
