from __future__ import annotations

import base64
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from costsense.experiments import (
    Boundary,
    ReportFiles,
    ReportSpec,
    check_claims,
    win_tie_loss,
    write_report,
)
from costsense.experiments._report._blocks import (
    Heading,
    Image,
    Paragraph,
    Table,
    to_html,
    to_markdown,
)
from costsense.experiments._report._figures import curve_plot
from costsense.experiments._report._sections import constant_fits
from costsense.experiments._report._tables import diagnostics

# First appearance order; alphabetical order would be adac2, boost, ref.
ALGS = ["ref", "boost", "adac2"]
# Numeric order of the rows; the string order of the costs would put "10" first.
ROWS = [("d1", "5"), ("d1", "10"), ("d2", "5"), ("d2", "10")]
METRICS = ["cost_total", "mean_cost", "recall", "g_mean", "auc"]
LOWER = {"cost_total", "mean_cost"}
# Decimals by the documented rule: 3 for rates within [0, 1], else 2.
DECIMALS = {"cost_total": 2, "mean_cost": 2, "recall": 3, "g_mean": 3, "auc": 3}
# Designed cost_total difference ref - boost per row: 2 wins, 1 tie, 1 loss.
SHIFT = {("d1", "5"): -10.0, ("d1", "10"): -10.0, ("d2", "5"): 0.0, ("d2", "10"): 10.0}
SYMMETRIC = np.array([1.0, -1.0, 2.0, -2.0, 0.5, -0.5])  # mean 0: t = 0, a tie


def _results(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    records = []
    for dataset, cost in [("d1", "10"), ("d1", "5"), ("d2", "10"), ("d2", "5")]:
        boost_cost = rng.uniform(20.0, 80.0, size=6)
        boost_gmean = rng.uniform(0.1, 0.8, size=6)
        shared_recall = rng.uniform(0.5, 1.0, size=6)
        noise = rng.normal(0.0, 1.0, size=6)
        for alg in ALGS:
            if alg == "boost":
                cost_total, g_mean = boost_cost, boost_gmean
            elif alg == "ref":
                shift = SHIFT[(dataset, cost)]
                cost_total = boost_cost + (SYMMETRIC if shift == 0 else shift + noise)
                g_mean = boost_gmean + 0.1 + rng.uniform(-0.01, 0.01, size=6)
            else:
                cost_total = rng.uniform(20.0, 80.0, size=6)
                g_mean = rng.uniform(0.0, 1.0, size=6)
            if (dataset, cost) == ("d1", "5"):
                # boost and adac2 tie for the best recall in this row
                recall = rng.uniform(0.0, 0.3, 6) if alg == "ref" else shared_recall
            else:
                recall = rng.uniform(0.0, 1.0, size=6)
            auc = rng.uniform(0.0, 1.0, size=6)
            for k in range(6):
                records.append(
                    {
                        "dataset": dataset,
                        "cost": cost,
                        "algorithm": alg,
                        "repeat": k // 3,
                        "fold": k % 3,
                        "cost_total": cost_total[k],
                        "mean_cost": cost_total[k] / 50.0,
                        "recall": recall[k],
                        "precision": rng.uniform(),
                        "g_mean": g_mean[k],
                        "auc": auc[k],
                        "fit_time": rng.uniform(0.0, 3.0),
                    }
                )
    frame = pd.DataFrame.from_records(records)
    # Shuffle the cells (pairing must go by repeat and fold, not by position),
    # keeping one cell of each algorithm first so the column order stays ALGS.
    firsts = [int(frame.index[frame["algorithm"] == a][0]) for a in ALGS]
    rest = rng.permutation(frame.index.difference(firsts))
    return frame.loc[firsts + list(rest)].reset_index(drop=True)


def _curves(settings: list[tuple[str, str]], seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    records = [
        {
            "dataset": dataset,
            "cost": cost,
            "algorithm": alg,
            "repeat": repeat,
            "fold": fold,
            "stage": stage,
            "split": split,
            "value": rng.uniform(),
        }
        for dataset, cost in settings
        for alg in ("ref", "boost")
        for repeat in range(2)
        for fold in range(3)
        for stage in range(1, 6)
        for split in ("train", "test")
    ]
    return pd.DataFrame.from_records(records)


def _boundary(dataset: str = "d1", cost: str = "5") -> Boundary:
    rng = np.random.default_rng(2)
    grid = np.linspace(-2.0, 2.0, 30)
    xx, yy = np.meshgrid(grid, grid)
    X = rng.normal(size=(40, 2))
    y = (X.sum(axis=1) > 0).astype(int)
    return Boundary(
        dataset=dataset,
        cost=cost,
        xx=xx,
        yy=yy,
        predictions={"ref": (xx > 0).astype(int), "boost": (yy > 0.5).astype(int)},
        reference=xx + yy,
        X=X,
        y=y,
    )


def _expected(results: pd.DataFrame) -> dict:
    """(metric, dataset, cost, algorithm) -> (mean, std) by numpy."""
    out = {}
    for metric in METRICS:
        for dataset, cost in ROWS:
            for alg in ALGS:
                values = results.loc[
                    (results["dataset"] == dataset)
                    & (results["cost"] == cost)
                    & (results["algorithm"] == alg),
                    metric,
                ].to_numpy()
                assert values.size == 6
                # fsum: the mean of the same values does not depend on their order
                mean = math.fsum(values) / 6
                out[metric, dataset, cost, alg] = (mean, values.std(ddof=1))
    return out


def _cell(metric: str, mean: float, std: float) -> str:
    d = DECIMALS[metric]
    return f"{mean:.{d}f} ({std:.{d}f})"


def _md_table(text: str, heading: str) -> list[list[str]]:
    """Cells of the first Markdown table after a heading line, header included."""
    lines = text.splitlines()
    start = lines.index(heading)
    table = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            table.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif table:
            break
        elif line.startswith("#"):
            raise AssertionError(f"no table under {heading!r}")
    return [table[0], *table[2:]]  # drop the |---| rule


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> tuple[pd.DataFrame, ReportFiles, str, str, Path]:
    results = _results()
    paper = pd.DataFrame(
        {
            "dataset": ["d1", "d2", "d1"],
            "cost": [5, "10", 5.0],
            "algorithm": ["ref", "boost", "unknown"],
            "metric": ["cost_total", "recall", "auc"],
            "value": [42.0, 0.5, 0.9],
        }
    )
    out = tmp_path_factory.mktemp("report") / "out"
    spec = ReportSpec(
        title="Study <1> & co",
        metrics=METRICS,
        reference="ref",
        paper=paper.to_dict("records"),
        notes="First note with a < b.\n\nSecond paragraph.",
        paper_notes="Read the ref row with care.",
    )
    files = write_report(
        results,
        out,
        spec,
        curves=_curves([("d2", "10"), ("d1", "5")]),
        boundaries=[_boundary(), _boundary("two moons/v2", "10")],
    )
    md = files.markdown.read_text(encoding="utf-8")
    page = files.html.read_text(encoding="utf-8")
    return results, files, md, page, out


def test_files_are_written_into_out_dir(full):
    _, files, _, _, out = full
    assert files.markdown == out / "report.md"
    assert files.html == out / "report.html"
    assert all(p.parent == out / "figures" for p in files.figures)


def test_header_counts_and_escaped_text(full):
    _, _, md, page, _ = full
    assert "72 cells, 2 datasets, 2 costs, 3 algorithms." in md
    assert "72 cells, 2 datasets, 2 costs, 3 algorithms." in page
    assert md.startswith("# Study <1> & co\n")
    assert "<title>Study &lt;1&gt; &amp; co</title>" in page
    assert "<p>First note with a &lt; b.</p>" in page
    assert "<p>Second paragraph.</p>" in page
    assert "First note with a < b.\n\nSecond paragraph." in md


def test_every_cell_is_mean_and_std_in_both_formats(full):
    results, _, md, page, _ = full
    assert (results["mean_cost"] > 1).any()  # mean_cost is not a rate
    for metric in ("recall", "g_mean", "auc"):
        assert results[metric].between(0, 1).all()
    expected = _expected(results)
    for metric in METRICS:
        table = _md_table(md, f"### {metric}")
        assert table[0] == ["dataset", "cost", *ALGS]
        assert [tuple(r[:2]) for r in table[1:-1]] == ROWS
        for row, (dataset, cost) in zip(table[1:-1], ROWS, strict=True):
            for alg, text in zip(ALGS, row[2:], strict=True):
                cell = _cell(metric, *expected[metric, dataset, cost, alg])
                assert text.strip("*") == cell
                assert f"<td>{cell}</td>" in page or f"<td><b>{cell}</b></td>" in page


def test_bold_cells_are_the_best_means(full):
    results, _, md, page, _ = full
    expected = _expected(results)
    n_bold = 0
    for metric in METRICS:
        table = _md_table(md, f"### {metric}")
        for row, (dataset, cost) in zip(table[1:-1], ROWS, strict=True):
            means = np.array([expected[metric, dataset, cost, a][0] for a in ALGS])
            best = means.min() if metric in LOWER else means.max()
            for alg, text, mean in zip(ALGS, row[2:], means, strict=True):
                cell = _cell(metric, *expected[metric, dataset, cost, alg])
                is_best = bool(np.isclose(mean, best, rtol=1e-9, atol=0))
                assert text.startswith("**") == is_best, (metric, dataset, alg)
                html_cell = f"<td><b>{cell}</b></td>" if is_best else f"<td>{cell}</td>"
                assert html_cell in page
                n_bold += is_best
    assert n_bold >= len(METRICS) * len(ROWS)
    # designed ties are marked together: equal recall of boost and adac2 in
    # d1/5 (the best there), equal mean cost of ref and boost in d2/5
    recall = _md_table(md, "### recall")
    assert recall[1][3].startswith("**") and recall[1][4].startswith("**")
    for metric in LOWER:
        d2_5 = _md_table(md, f"### {metric}")[3]
        assert d2_5[:2] == ["d2", "5"]
        assert d2_5[2].split(" (")[0] == d2_5[3].split(" (")[0]


def test_mean_rank_row_by_hand(full):
    results, _, md, _, _ = full
    expected = _expected(results)
    for metric in METRICS:
        means = np.array(
            [[expected[metric, d, c, a][0] for a in ALGS] for d, c in ROWS]
        )
        keyed = means if metric in LOWER else -means
        ranks = np.mean([stats.rankdata(row) for row in keyed], axis=0)
        last = _md_table(md, f"### {metric}")[-1]
        assert last[0] == "mean rank"
        assert [float(x) for x in last[2:]] == pytest.approx(ranks, abs=0.005)


def _pairs(results: pd.DataFrame, metric: str, other: str) -> list:
    pairs = []
    for dataset, cost in ROWS:
        row = results[(results["dataset"] == dataset) & (results["cost"] == cost)]
        a = row[row["algorithm"] == "ref"][["repeat", "fold", metric]]
        b = row[row["algorithm"] == other][["repeat", "fold", metric]]
        merged = a.merge(b, on=["repeat", "fold"], suffixes=("_a", "_b"))
        pairs.append((merged[f"{metric}_a"], merged[f"{metric}_b"]))
    return pairs


def test_win_tie_loss_equals_the_stats_function(full):
    results, _, md, page, _ = full
    table = _md_table(md, "## Statistical comparison")
    header = table[0]
    printed = {(r[0], r[1]): dict(zip(header, r, strict=True)) for r in table[1:]}
    assert set(printed) == {(m, a) for m in METRICS for a in ("boost", "adac2")}
    for (metric, other), row in printed.items():
        expected = win_tie_loss(
            _pairs(results, metric, other),
            alpha=0.05,
            lower_is_better=metric in LOWER,
        )
        got = (int(row["wins"]), int(row["ties"]), int(row["losses"]))
        assert got == expected, (metric, other)
        assert row["rows"] == "4"
        html_row = "".join(f"<td>{c}</td>" for c in row.values())
        assert f"<tr>{html_row}</tr>" in page
    # The designed rows: the answer is known without any test code.
    assert printed["cost_total", "boost"]["wins"] == "2"
    assert printed["cost_total", "boost"]["ties"] == "1"
    assert printed["cost_total", "boost"]["losses"] == "1"
    assert printed["g_mean", "boost"]["wins"] == "4"  # higher g_mean is better


def test_wilcoxon_across_row_means_equals_scipy(full):
    results, _, md, _, _ = full
    expected = _expected(results)
    table = _md_table(md, "## Statistical comparison")
    for row in table[1:]:
        metric, other, statistic, pvalue = row[0], row[1], row[6], row[7]
        a = [expected[metric, d, c, "ref"][0] for d, c in ROWS]
        b = [expected[metric, d, c, other][0] for d, c in ROWS]
        scipy_result = stats.wilcoxon(a, b)
        assert float(statistic) == pytest.approx(scipy_result.statistic)
        assert float(pvalue) == pytest.approx(scipy_result.pvalue, rel=5e-3)


def test_paper_table_shows_paper_value_ours_and_difference(full):
    results, _, md, page, _ = full
    section = md.split("## Paper vs ours")[1].split("\n## ")[0]
    assert "Read the ref row with care." in section  # the notes beside the rows
    expected = _expected(results)
    table = _md_table(md, "## Paper vs ours")
    assert table[0] == [
        "dataset",
        "cost",
        "algorithm",
        "metric",
        "paper",
        "ours",
        "difference",
    ]
    ours = expected["cost_total", "d1", "5", "ref"][0]
    assert table[1] == [
        "d1",
        "5",
        "ref",
        "cost_total",
        "42.00",
        f"{ours:.2f}",
        f"{ours - 42.0:+.2f}",
    ]
    ours = expected["recall", "d2", "10", "boost"][0]
    assert table[2] == [
        "d2",
        "10",
        "boost",
        "recall",
        "0.500",
        f"{ours:.3f}",
        f"{ours - 0.5:+.3f}",
    ]
    # cost 5.0 matches our "5"; an algorithm we did not run has no value
    assert table[3] == ["d1", "5.0", "unknown", "auc", "0.900", "n/a", "n/a"]
    assert f"<td>{ours:.3f}</td><td>{ours - 0.5:+.3f}</td>" in page


def test_figures_are_pngs_referenced_and_inlined(full):
    _, files, md, page, out = full
    names = [p.name for p in files.figures]
    assert names == [
        "means_cost_total.png",
        "curve_d1_5.png",
        "curve_d2_10.png",
        "boundary_d1_5.png",
        "boundary_two_moons_v2_10.png",
    ]
    assert {p.name for p in (out / "figures").iterdir()} == set(names)
    for path in files.figures:
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert re.search(rf"!\[[^\]]*\]\(figures/{re.escape(path.name)}\)", md)
        assert base64.b64encode(data).decode("ascii") in page
    assert page.count('src="data:image/png;base64,') == len(names)
    assert 'src="figures/' not in page
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page


def test_curve_averages_over_repeats_and_folds(tmp_path):
    curves = _curves([("d1", "5")])
    figure = curve_plot(curves, "d1", "5", ["ref", "boost"], tmp_path / "c.png")
    for ax, split in zip(figure.axes[:2], ("test", "train"), strict=True):
        assert [line.get_label() for line in ax.lines] == ["ref", "boost"]
        for line in ax.lines:
            assert list(line.get_xdata()) == [1, 2, 3, 4, 5]
            for stage, got in zip(line.get_xdata(), line.get_ydata(), strict=True):
                raw = curves[
                    (curves["algorithm"] == line.get_label())
                    & (curves["split"] == split)
                    & (curves["stage"] == stage)
                ]["value"].to_numpy()
                assert raw.size == 6
                assert got == pytest.approx(raw.sum() / 6)


def test_optional_sections_and_figures_only_when_given(tmp_path):
    files = write_report(
        _results(seed=3),
        tmp_path,
        ReportSpec(title="Plain", metrics=["recall", "cost_total"]),
        curves=pd.DataFrame(columns=["dataset", "cost", "value"]),
    )
    md = files.markdown.read_text(encoding="utf-8")
    assert [p.name for p in files.figures] == ["means_recall.png"]
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == [
        "means_recall.png"
    ]
    for absent in ("Statistical comparison", "Paper vs ours", "curve_", "boundary_"):
        assert absent not in md
        assert absent not in files.html.read_text(encoding="utf-8")


def test_wilcoxon_is_na_with_one_row(tmp_path):
    results = _results()
    one = results[(results["dataset"] == "d1") & (results["cost"] == "5")]
    files = write_report(
        one, tmp_path, ReportSpec(title="One", metrics=["cost_total"], reference="ref")
    )
    table = _md_table(
        files.markdown.read_text(encoding="utf-8"), "## Statistical comparison"
    )
    rows = {r[1]: r for r in table[1:]}
    assert rows["boost"][2:] == ["1", "1", "0", "0", "n/a", "n/a"]  # SHIFT -10: a win
    assert rows["adac2"][6:] == ["n/a", "n/a"]


def test_invalid_input_raises(tmp_path):
    results = _results()
    auc = ReportSpec(title="x", metrics=["auc"])
    with pytest.raises(ValueError, match="reference 'nope'"):
        write_report(
            results, tmp_path, ReportSpec(title="x", metrics=["auc"], reference="nope")
        )
    with pytest.raises(ValueError, match="missing the columns \\['kappa'\\]"):
        write_report(results, tmp_path, ReportSpec(title="x", metrics=["auc", "kappa"]))
    with pytest.raises(ValueError, match="duplicated cells"):
        write_report(pd.concat([results, results.iloc[:1]]), tmp_path, auc)
    with pytest.raises(ValueError, match="at least one metric"):
        write_report(results, tmp_path, ReportSpec(title="x", metrics=[]))


def _selection_results():
    import pandas as pd

    # four fits on a 5-feature set whose last column is appended noise
    fits = [
        {"features_kept": [0, 2], "drop_round": [-1, 2, -1, 3, 1]},
        {"features_kept": [0, 3], "drop_round": [-1, 4, 5, -1, 2]},
        {"features_kept": [0], "drop_round": [-1, 1, 1, 2, 5]},
        {"features_kept": [0, 2, 3], "drop_round": [-1, 3, -1, -1, -1]},
    ]
    for d in fits:
        d["feature_update"] = "literal"
    rows = [
        {"algorithm": "EFS", "dataset": "iono2", "cost": "1", "diagnostics": d}
        for d in fits
    ]
    rows.append(
        {"algorithm": "Ada", "dataset": "iono2", "cost": "1", "diagnostics": {}}
    )
    return pd.DataFrame(rows)


def feature_blocks(results, order, paper, noise):
    """The built-in oversampling study's declared feature sections on ``results``."""
    from types import SimpleNamespace

    from costsense.experiments import load_study
    from costsense.experiments._report._sections import declared

    sections = load_study("oversampling").report.sections
    spec = SimpleNamespace(
        sections=[s for s in sections if s["kind"] != "bounds"],
        paper_features=paper,
        noise_columns=noise,
    )
    return declared(SimpleNamespace(data=results, algorithms=order, spec=spec))


def test_features_kept_table_counts_the_fits_and_shows_the_paper():
    blocks = feature_blocks(
        _selection_results(), ["Ada", "EFS"], {"iono2": [5, 7]}, {"iono2": 1}
    )
    kept, noise = [b for b in blocks if hasattr(b, "rows")]
    (row,) = kept.rows  # only the algorithm that records its features
    text = row
    assert text[:3] == ["EFS", "iono2", "5"]
    assert text[3] == "2.0 (1-3)"  # 2, 2, 1, 3 features kept
    # feature 0 kept 4 times, 2 and 3 twice each (half the fits): 1-based
    assert text[4] == "1, 3, 4"
    assert text[5] == "2: 5, 7"
    # counts 2, 2, 1, 3: mean 2, half-width t(0.975, 3) * 0.816 / 2 = 1.30
    assert text[6] == "as the paper (2 of 4 fits keep 2)"
    assert kept.header[-1] == "verdict"
    (noise_row,) = noise.rows
    text = noise_row
    assert text[2] == "5"  # the last column
    assert text[3] == "2 (1-5)"  # dropped by rounds 1, 2, 5; kept once
    assert text[4] == "2 of 4"  # rounds 1 and 2 are before round 4
    assert text[5] == "1 of 4"
    assert text[6] == "printed (unweighted)"  # the update that dropped it
    # the paper: dropped before round 4; held in 2 fits, lost in 2 (one kept)
    assert text[7] == "partly (held in 2, lost in 2 of 4 fits)"


def test_a_count_far_from_the_papers_is_fewer_or_more_kept():
    from costsense.experiments._report._sections import count_verdict

    counts = np.array([2.0, 2.0, 3.0, 2.0, 3.0])
    assert count_verdict(counts, 9).startswith("fewer kept (0 of 5")
    assert count_verdict(counts, 1).startswith("more kept")
    # equal counts on every fit: within half a feature only
    assert count_verdict(np.full(4, 3.0), 3) == "as the paper (4 of 4 fits keep 3)"
    assert count_verdict(np.full(4, 3.0), 4).startswith("fewer kept")


def test_the_noise_table_names_each_update_and_older_stores_say_not_recorded():
    results = _selection_results()
    results.loc[0, "diagnostics"]["feature_update"] = "weighted"
    del results.loc[1, "diagnostics"]["feature_update"]
    blocks = feature_blocks(results, ["EFS"], {}, {"iono2": 1})
    (noise_row,) = [b for b in blocks if hasattr(b, "rows")][1].rows
    assert noise_row[6] == (
        "not recorded, printed (unweighted), weighted (our deviation)"
    )


def test_no_feature_section_without_feature_selection():
    import pandas as pd

    results = pd.DataFrame(
        [{"algorithm": "Ada", "dataset": "d", "cost": "1", "diagnostics": {"x": 1}}]
    )
    assert feature_blocks(results, ["Ada"], {}, {}) == []


def _series(seed: int = 4) -> pd.DataFrame:
    """Paper 001's three series of 8-round fits, in the order its theorems state."""
    rng = np.random.default_rng(seed)
    records = []
    for dataset in ("d1", "d2"):
        for alg in ("boost", "ref"):
            for repeat in range(2):
                for fold in range(3):
                    gamma = rng.uniform(0.05, 0.3, size=8)
                    e = 0.5 - gamma
                    values = {
                        "normaliser_product": np.cumprod(2 * np.sqrt(e * (1 - e))),
                        "edge_bound": np.exp(-2 * np.cumsum(gamma**2)),
                    }
                    error = values["normaliser_product"] * rng.uniform(0, 1, 8)
                    values["train_error"] = np.where(error < 0.05, 0.0, error)
                    records.extend(
                        {
                            "dataset": dataset,
                            "cost": "5",
                            "algorithm": alg,
                            "repeat": repeat,
                            "fold": fold,
                            "stage": stage + 1,
                            "name": name,
                            "value": float(v),
                        }
                        for name, series in values.items()
                        for stage, v in enumerate(series)
                    )
    return pd.DataFrame.from_records(records)


def _theorem_report(tmp_path, series, algorithms=None):
    from costsense.experiments import load_study

    (bounds,) = load_study("boosting").report.sections
    sections = [] if algorithms is None else [{**bounds, "algorithms": algorithms}]
    spec = {"sections": sections}
    files = write_report(
        _results(seed=5),
        tmp_path,
        ReportSpec(title="Theorems", metrics=["cost_total"], **spec),
        series=series,
    )
    return files, files.markdown.read_text(encoding="utf-8")


def test_theorem_section_checks_every_round_of_the_adaboost_rows(tmp_path):
    files, md = _theorem_report(tmp_path, _series(), algorithms=["boost"])
    section = md.split("## Paper 001's theorems: AdaBoost's training error")[1]
    section = section.split("\n## ")[0]
    for theorem in ("Theorem 1", "Theorem 2", "Theorem 3"):
        assert theorem in section
    # 2 datasets x 2 repeats x 3 folds of "boost" only, 8 rounds each
    assert "saved for boost (" in section
    assert "held at every round of every fit: 96 rounds of 12 fits" in section
    names = [p.name for p in files.figures]
    assert names == ["bounds_d1.png", "bounds_d2.png", "means_cost_total.png"]
    for name in names[:2]:
        assert f"(figures/{name})" in section
        assert (tmp_path / "figures" / name).read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("name", "factor"), [("train_error", 2.0), ("normaliser_product", 1.5)]
)
def test_theorem_section_names_the_rounds_where_a_bound_fails(tmp_path, name, factor):
    series = _series()
    # break the order at one round of one fit: the error above prod Z, or prod Z
    # above the edge bound
    fit = (
        (series["dataset"] == "d2")
        & (series["algorithm"] == "boost")
        & (series["repeat"] == 1)
        & (series["fold"] == 2)
        & (series["stage"] == 3)
    )
    bigger = "edge_bound" if name == "normaliser_product" else "normaliser_product"
    series.loc[fit & (series["name"] == name), "value"] = factor * float(
        series.loc[fit & (series["name"] == bigger), "value"].iloc[0]
    )
    _, md = _theorem_report(tmp_path, series, algorithms=["boost"])
    assert (
        "FAILED at 1 of 96 rounds of 12 fits: d2, cost 5, boost, repeat 1, fold 2, "
        "round 3." in md
    )
    assert "held at every round" not in md


def test_no_theorem_section_without_adaboost_rows_or_series(tmp_path):
    for folder, series, spec in [
        ("no-rows", _series(), {}),
        ("other-rows", _series(), {"algorithms": ["adac2"]}),
        ("no-series", None, {"algorithms": ["boost"]}),
    ]:
        files, md = _theorem_report(tmp_path / folder, series, **spec)
        assert "Paper 001" not in md
        assert [p.name for p in files.figures] == ["means_cost_total.png"]
    with pytest.raises(ValueError, match="series is missing the columns"):
        _theorem_report(tmp_path / "bad", _series().drop(columns=["name"]))


# ------------------------------------------------ inline code in the HTML page


def _html_body(blocks: list) -> str:
    page = to_html(blocks, "t")
    return page[page.index("<body>") + len("<body>") : page.index("</body>")].strip()


def test_inline_code_renders_as_code_in_paragraphs_headings_and_captions(tmp_path):
    png = tmp_path / "f.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n")
    body = _html_body(
        [
            Heading("The `cost_total` metric", 2),
            Paragraph("`cost_total` is the cost of a fold; see `mean_cost`."),
            Image(png, "by `stage`"),
        ]
    )
    assert "<h2>The <code>cost_total</code> metric</h2>" in body
    assert (
        "<p><code>cost_total</code> is the cost of a fold; see "
        "<code>mean_cost</code>.</p>"
    ) in body
    assert "<figcaption>by <code>stage</code></figcaption>" in body
    assert 'alt="by `stage`"' in body  # alt text is plain text
    assert "`cost_total`" not in body.replace('alt="by `stage`"', "")


def test_inline_code_in_table_cells_and_headers_bold_or_not():
    body = _html_body(
        [Table(["`alg`", "value"], [["`AdaC2`", "a `x | y` b"]], {(0, 0)})]
    )
    assert "<th><code>alg</code></th>" in body
    assert "<td><b><code>AdaC2</code></b></td>" in body
    assert "<td>a <code>x | y</code> b</td>" in body
    # the Markdown keeps the backticks, with the pipe escaped for the table
    md = to_markdown([Table(["h"], [["a `x | y` b"]])], Path("figures"))
    assert "| a `x \\| y` b |" in md


def test_inline_code_escapes_html_and_keeps_entities_as_written():
    body = _html_body(
        [
            Paragraph("`<b>not bold</b>` and <i>plain</i>"),
            Paragraph("`a &lt; b` and a &amp; b"),
        ]
    )
    assert (
        "<p><code>&lt;b&gt;not bold&lt;/b&gt;</code> and &lt;i&gt;plain&lt;/i&gt;</p>"
    ) in body
    # text is plain text: an entity in it shows as written, inside code or not
    assert "<p><code>a &amp;lt; b</code> and a &amp;amp; b</p>" in body
    assert "<b>" not in body and "<i>" not in body


def test_code_spans_follow_markdown_backtick_runs():
    body = _html_body(
        [
            Paragraph("it`s an unmatched backtick"),
            Paragraph("``a ` b`` and `c`"),
            Paragraph("`` `x` ``"),
            Paragraph("see [`fit`](https://example.org/fit) here"),
        ]
    )
    assert "<p>it`s an unmatched backtick</p>" in body
    assert "<p><code>a ` b</code> and <code>c</code></p>" in body
    assert "<p><code>`x`</code></p>" in body  # one padding space stripped
    # a code span inside a link's text is still a code span; the link is text
    assert "<p>see [<code>fit</code>](https://example.org/fit) here</p>" in body


def test_report_notes_render_inline_code(tmp_path):
    files = write_report(
        _results(),
        tmp_path,
        ReportSpec(title="T", metrics=["cost_total"], notes="`cost_total` is a sum."),
    )
    page = files.html.read_text(encoding="utf-8")
    assert "<p><code>cost_total</code> is a sum.</p>" in page
    md = files.markdown.read_text(encoding="utf-8")
    assert "`cost_total` is a sum." in md


def test_constant_fits_counts_the_one_class_models_per_algorithm():
    results = _results()
    one = results[(results["dataset"] == "d1") & (results["cost"] == "5")].copy()
    # boost predicts one class in its fits of repeat 0 (3 of 6), ref never,
    # adac2 has no diagnostics recorded
    one["diagnostics"] = [
        {"constant": alg == "boost" and rep == 0} if alg != "adac2" else None
        for alg, rep in zip(one["algorithm"], one["repeat"], strict=True)
    ]
    other = results[results["dataset"] == "d2"].assign(
        diagnostics=[{"constant": True}] * int((results["dataset"] == "d2").sum())
    )
    data = pd.concat([one, other]).astype({"cost": str})
    assert constant_fits(diagnostics(data), "d1", "5") == {
        "boost": "predicts one class in 3 of 6 fits"
    }
    every = "predicts one class in 6 of 6 fits"
    assert constant_fits(diagnostics(data), "d2", "10") == dict.fromkeys(ALGS, every)
    assert constant_fits(diagnostics(results), "d1", "5") == {}  # no diagnostics


def test_the_papers_own_sets_are_marked_and_tallied_apart(tmp_path):
    # ref's cost is boost's - 10 (+ noise) on d1 (a win on both rows), the same
    # up to a symmetric difference on d2 at 5 (a tie), + 10 on d2 at 10 (a loss)
    results = _results()
    claim = {"text": "ref costs less than boost", "source": "s", "kind": "better",
             "metric": "cost_total", "algorithm": "ref", "than": ["boost"]}  # fmt: skip
    (checked,) = check_claims(results, [claim], like_for_like=["d1"])
    assert checked.tally == "held 2, tied 1, lost 1 of 4 rows"
    assert checked.like_for_like == (
        "d1 at 5, d1 at 10: reproduced (held 2, tied 0, lost 0 of 2 rows)"
    )
    spec = ReportSpec(
        title="Marked",
        metrics=["cost_total", "recall"],
        claims=[checked],
        paper_datasets=["d1"],
    )
    md = write_report(results, tmp_path, spec).markdown.read_text(encoding="utf-8")
    for metric in ("cost_total", "recall"):
        rows = _md_table(md, f"### {metric}")[1:-1]  # without the mean rank row
        assert sorted(r[0] for r in rows) == sorted(
            ["d1 (paper's set)"] * 2 + ["d2"] * 2
        )
    claims = _md_table(md, "## The paper's claims")
    assert claims[0][2:6] == ["verdict", "tally", "evidence", "like for like"]
    assert claims[1][2:4] == ["**partly**", checked.tally]
    assert claims[1][5] == checked.like_for_like
    assert "like-for-like" in md
    # without paper_datasets: no mark, no column
    plain = write_report(
        results, tmp_path / "plain", ReportSpec(title="P", metrics=["cost_total"])
    ).markdown.read_text(encoding="utf-8")
    assert "paper's set" not in plain


def test_a_section_of_an_unknown_kind_is_refused(tmp_path):
    spec = ReportSpec(title="x", metrics=["auc"], sections=[{"kind": "chart"}])
    with pytest.raises(ValueError, match="kind must be one of"):
        write_report(_results(), tmp_path, spec)


def test_the_comparison_uses_the_corrected_test_and_counts_wins_over_one_class_apart(
    tmp_path,
):
    results = _results()
    # boost predicts one class on d1 (both costs): ref's two wins are there
    results["diagnostics"] = [
        {"constant": alg == "boost" and ds == "d1"}
        for alg, ds in zip(results["algorithm"], results["dataset"], strict=True)
    ]
    spec = ReportSpec(
        title="C", metrics=["cost_total"], reference="ref", test_train_ratio=0.25
    )
    md = write_report(results, tmp_path, spec).markdown.read_text(encoding="utf-8")
    table = _md_table(md, "## Statistical comparison")
    row = dict(zip(table[0], table[1], strict=False))
    expected = win_tie_loss(
        _pairs(results, "cost_total", "boost"),
        alpha=0.05,
        lower_is_better=True,
        test_train_ratio=0.25,
    )
    assert row["algorithm"] == "boost"
    assert row["wins"] == f"{expected[0]} ({expected[0]} vs one class)"
    assert (int(row["ties"]), int(row["losses"])) == expected[1:]
    assert "corrected resampled t-test" in md and "1/J + n_test/n_train = 0.25" in md
