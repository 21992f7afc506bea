"""``costsense evaluate --report DIR`` and ``costsense report DIR``: the money page."""

import json
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from costsense import cli

VOID = {"meta", "img", "br", "hr", "link", "input"}


def _bank(path, n=300, seed=0):
    """Rows with a per-row missed-positive cost (lost), FP = TP = 1."""
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    y = (x1 + rng.normal(size=n) > 1.2).astype(int)
    frame = pd.DataFrame(
        {
            "x1": x1,
            "x2": x2,
            "band": rng.choice(["a", "b"], size=n),
            "y": y,
            "lost": rng.uniform(2, 20, size=n).round(2),
            "rule": (x2 > 1).astype(int),
            "client": [f"c{i:04d}" for i in range(n)],
        }
    )
    frame.to_csv(path, index=False)
    return frame


def _run(tmp_path, *extra):
    data = tmp_path / "bank.csv"
    frame = _bank(data)
    out = tmp_path / "page"
    argv = ["evaluate", "--csv", str(data), "--target", "y", "--fn-cost", "lost"]
    argv += ["--fp-cost", "1", "--tp-cost", "1", "--model", "threshold,weighting"]
    argv += ["--folds", "3", "--quiet", "--id-column", "client", "--segment", "band"]
    argv += ["--current-decision", "rule", "--report", str(out), *extra]
    return cli.main(argv), frame, out


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("page")
    status, frame, out = _run(tmp)
    assert status == 0
    return frame, out


def _hand(frame, out):
    """Per model: its test rows and whether it acted, re-decided by hand."""
    arrays = np.load(out / "arrays.npz", allow_pickle=False)
    y = frame["y"].to_numpy()
    act = np.where(y == 1, 1.0, 1.0)  # TP = FP = 1
    leave = np.where(y == 1, frame["lost"].to_numpy(), 0.0)
    made = {}
    for model in ("threshold", "weighting"):
        index, proba = arrays[f"index/{model}"], arrays[f"proba/{model}"]
        p = proba[:, 1]
        lost = frame["lost"].to_numpy()[index]
        acted = p * 1 + (1 - p) * 1 < p * lost  # expected cost of acting < leaving
        made[model] = (index, acted)
    return y, act, leave, made


def _cell(md, first):
    """The cells of the Markdown table row starting with ``first``."""
    line = next(x for x in md.splitlines() if x.startswith(f"| {first} |"))
    return [c.strip() for c in line.strip("|").split(" | ")]


def test_headline_totals_and_savings_are_recomputed_from_the_arrays(page):
    frame, out = page
    md = (out / "report.md").read_text()
    y, act, leave, made = _hand(frame, out)
    for model, (index, acted) in made.items():
        total = np.where(acted, act[index], leave[index]).sum()
        cells = _cell(md, model)
        assert cells[1] == str(index.size)
        assert cells[2] == f"{total:,.2f}"
        assert cells[3] == f"{leave[index].sum() - total:,.2f}"
        low, high = (float(v.replace(",", "")) for v in cells[4].split(" to "))
        assert low <= leave[index].sum() - total <= high
    assert _cell(md, "acting on nobody")[2] == f"{leave.sum():,.2f}"
    assert _cell(md, "acting on everybody")[2] == f"{act.sum():,.2f}"
    rule = frame["rule"].to_numpy() == 1
    today = np.where(rule, act, leave).sum()
    assert _cell(md, "current decision (rule)")[2] == f"{today:,.2f}"


def test_segments_and_top_losses_are_recomputed(page):
    frame, out = page
    md = (out / "report.md").read_text()
    y, act, leave, made = _hand(frame, out)
    best = re.search(r"## Savings of (\S+) by band", md).group(1)
    index, acted = made[best]
    cost = np.where(acted, act[index], leave[index])
    band = frame["band"].to_numpy()[index]
    for value in ("a", "b"):
        part = band == value
        cells = _cell(md, value)
        assert cells[1] == str(part.sum())
        assert cells[3] == f"{leave[index][part].sum() - cost[part].sum():,.2f}"
    order = np.argsort(-cost, kind="stable")[:10]
    section = md.split("largest realised cost")[1].split("##")[0]
    ids = [line.split(" | ")[0].strip("| ") for line in section.splitlines()[4:]]
    assert ids[:10] == frame["client"].to_numpy()[index[order]].tolist()


def test_report_rebuilds_the_same_markdown_byte_for_byte(page, tmp_path):
    frame, out = page
    before = (out / "report.md").read_bytes()
    assert cli.main(["report", str(out)]) == 0
    assert (out / "report.md").read_bytes() == before


def test_the_html_page_is_self_contained_and_well_formed(page):
    _, out = page
    text = (out / "report.html").read_text()
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"""(src|href)=["']//""", text)
    sources = re.findall(r'<img [^>]*src="([^"]*)"', text)
    assert len(sources) >= 4 and all(
        s.startswith("data:image/png;base64,") for s in sources
    )

    class Balance(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack, self.errors = [], []

        def handle_starttag(self, tag, attrs):
            if tag not in VOID:
                self.stack.append(tag)

        def handle_endtag(self, tag):
            if not self.stack or self.stack.pop() != tag:
                self.errors.append(tag)

    checker = Balance()
    checker.feed(text)
    assert checker.errors == [] and checker.stack == []


def test_an_existing_report_folder_is_refused(tmp_path, capsys):
    (tmp_path / "page").mkdir()
    status, _, _ = _run(tmp_path)
    assert status == 2
    err = capsys.readouterr().err
    assert f"--report {tmp_path / 'page'}: exists; name a new folder" in err


def _copy(out, tmp_path):
    import shutil

    target = tmp_path / "copy"
    shutil.copytree(out, target)
    return target


def test_a_pickle_in_the_arrays_is_refused(page, tmp_path, capsys):
    _, out = page
    target = _copy(out, tmp_path)
    with np.load(target / "arrays.npz", allow_pickle=False) as found:
        arrays = dict(found)
    arrays["y"] = np.array([object()] * arrays["y"].size, dtype=object)
    np.savez(target / "arrays.npz", **arrays)
    assert cli.main(["report", str(target)]) == 2
    assert "arrays.npz: refused" in capsys.readouterr().err


def test_wrong_shapes_are_refused_by_name(page, tmp_path, capsys):
    _, out = page
    target = _copy(out, tmp_path)
    with np.load(target / "arrays.npz", allow_pickle=False) as found:
        arrays = dict(found)
    arrays["proba/threshold"] = arrays["proba/threshold"][:5]
    np.savez(target / "arrays.npz", **arrays)
    assert cli.main(["report", str(target)]) == 2
    assert "index/proba of 'threshold' do not fit" in capsys.readouterr().err


def test_a_json_of_another_schema_is_refused(page, tmp_path, capsys):
    _, out = page
    target = _copy(out, tmp_path)
    meta = json.loads((target / "evaluation.json").read_text())
    meta["models"] = "threshold"
    (target / "evaluation.json").write_text(json.dumps(meta))
    assert cli.main(["report", str(target)]) == 2
    assert "wrong or missing models" in capsys.readouterr().err


def test_the_table_fits_and_names_the_cheapest_model_from_the_fold_rows(
    tmp_path, capsys
):
    folds = tmp_path / "folds.csv"
    status, _, out = _run(tmp_path, "--output", str(folds))
    assert status == 0
    printed = capsys.readouterr().out
    table = printed[printed.index("model ") : printed.index("decisions re-made")]
    assert all(len(line) <= 100 for line in table.splitlines())
    means = pd.read_csv(folds).groupby("model")["cost_total"].mean()
    best = means.drop("current decision").idxmin()
    gain = means["current decision"] - means[best]
    said = "less" if gain >= 0 else "more"
    assert (
        f"{best} costs {means[best]:,.0f} per fold, {abs(gain):,.0f} {said} than "
        "the current decision (rule)"
    ) in printed


def test_class_costs_draw_cost_curves_and_the_iso_cost_roc(tmp_path):
    data = tmp_path / "bank.csv"
    _bank(data)
    out = tmp_path / "page"
    argv = ["evaluate", "--csv", str(data), "--target", "y", "--cost", "5"]
    argv += ["--model", "threshold", "--folds", "3", "--quiet", "--drop"]
    argv += ["client,lost,rule", "--capacity", "10%", "--report", str(out)]
    assert cli.main(argv) == 0
    names = sorted(p.name for p in (out / "figures").iterdir())
    assert names == [
        "breakdown.png",
        "cost-curves.png",
        "iso-cost-roc.png",
        "reliability.png",
        "savings-share.png",
        "savings-threshold.png",
    ]
    assert "dashed: the iso-cost line" in (out / "report.md").read_text()


def test_the_headline_sums_each_models_own_fold_costs(tmp_path):
    folds = tmp_path / "folds.csv"
    status, _, out = _run(tmp_path, "--output", str(folds))
    assert status == 0
    md = (out / "report.md").read_text()
    sums = pd.read_csv(folds).groupby("model")["cost_total"].sum()
    for model in ("threshold", "weighting"):
        assert _cell(md, model)[5] == f"{sums[model]:,.2f}"
    fold_rows = md.split("## Fold by fold")[1]
    assert fold_rows.count("| threshold |") == 3
