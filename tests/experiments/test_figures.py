"""The report's figures read as they should: checked on the returned Figures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from costsense.experiments import Boundary
from costsense.experiments._report._figures import (
    boundary_plot,
    curve_plot,
    dot_chart,
    group_label,
)
from costsense.experiments._report._tables import Summary

# 15 algorithms, as many as the boosting study compares
ALGS = [f"alg{k:02d}" for k in range(15)]
ROWS = [("gaussian", "5"), ("pima", "5"), ("pima", "10")]


def _summary(seed: int = 0) -> Summary:
    rng = np.random.default_rng(seed)
    means = rng.uniform(50.0, 150.0, size=(len(ROWS), len(ALGS)))
    means[1, 3] = np.nan  # an algorithm without a value in one group
    return Summary(
        means=means,
        stds=rng.uniform(1.0, 10.0, size=means.shape),
        decimals=2,
        blocks={},
    )


@pytest.fixture(scope="module")
def dots(tmp_path_factory) -> tuple[Summary, Figure]:
    """The dot chart of 15 algorithms in 3 groups, lower is better."""
    summary = _summary()
    path = tmp_path_factory.mktemp("dots") / "m.png"
    fig = dot_chart(summary, ROWS, ALGS, "cost_total", path, lower_is_better=True)
    assert path.read_bytes().startswith(b"\x89PNG")
    return summary, fig


def _visible(fig: Figure) -> list:
    return [ax for ax in fig.axes if ax.get_visible()]


def _curves(values: dict[str, np.ndarray]) -> pd.DataFrame:
    """Averaged curves of one setting: the same values on test and train."""
    records = [
        {
            "dataset": "yeast4",
            "cost": "1",
            "algorithm": alg,
            "split": split,
            "stage": stage + 1,
            "value": value,
        }
        for alg, series in values.items()
        for split in ("test", "train")
        for stage, value in enumerate(series)
    ]
    return pd.DataFrame.from_records(records)


# ---------------------------------------------------------------- group labels


def test_group_label_names_the_cost():
    assert group_label("gaussian", "5") == "gaussian, cost 5"
    assert group_label("pima", "5:2") == "pima, cost 5:2"


def test_dot_chart_panels_are_titled_by_dataset_and_cost(dots):
    _, fig = dots
    titles = [ax.get_title() for ax in _visible(fig)]
    assert titles == ["gaussian, cost 5", "pima, cost 5", "pima, cost 10"]
    # no tick anywhere reads "dataset\ncost" any more
    for ax in fig.axes:
        for tick in ax.get_xticklabels() + ax.get_yticklabels():
            assert "\n" not in tick.get_text()


# ------------------------------------------------------------------ dot chart


def test_dot_chart_names_every_algorithm_on_the_axis_and_needs_no_legend(dots):
    _, fig = dots
    panels = _visible(fig)
    assert len(panels) == len(ROWS)  # one panel per group
    first = panels[0]
    labels = [t.get_text() for t in first.get_yticklabels()]
    assert labels == ALGS
    # the first algorithm is on top: the y axis runs downwards
    bottom, top = first.get_ylim()
    assert top < bottom
    # no legend to cover the data, nor any colour to match
    assert not fig.legends
    assert all(ax.get_legend() is None for ax in fig.axes)


def test_dot_chart_places_each_mean_at_its_algorithm(dots):
    summary, fig = dots
    for i, ax in enumerate(_visible(fig)):
        points = {}
        for line in ax.lines:
            x, y = line.get_xdata(), line.get_ydata()
            if line.get_marker() == "o" and len(x) == 1:
                points[int(y[0])] = float(x[0])
        expected = {
            j: summary.means[i, j]
            for j in range(len(ALGS))
            if not np.isnan(summary.means[i, j])
        }
        assert points.keys() == expected.keys()
        for j, x in points.items():
            assert x == pytest.approx(expected[j])
        # each error bar spans mean - std to mean + std at its algorithm's row
        bars = {
            int(seg[0][1]): (float(seg[0][0]), float(seg[1][0]))
            for coll in ax.collections
            if isinstance(coll, LineCollection)
            for seg in coll.get_segments()
        }
        assert bars.keys() == expected.keys()
        for j, (lo, hi) in bars.items():
            std = summary.stds[i, j]
            assert (lo, hi) == pytest.approx((expected[j] - std, expected[j] + std))
    # the missing value reads n/a in its panel, at its row
    texts = [(t.get_text(), t.get_position()[1]) for t in _visible(fig)[1].texts]
    assert texts == [("n/a", 3)]


def test_dot_chart_fills_exactly_the_best_of_each_panel(dots):
    summary, fig = dots
    for i, ax in enumerate(_visible(fig)):
        filled = [
            int(line.get_ydata()[0])
            for line in ax.lines
            if line.get_marker() == "o"
            and to_rgb(line.get_markerfacecolor()) != (1, 1, 1)
        ]
        assert filled == [int(np.nanargmin(summary.means[i]))]


def test_dot_chart_panels_wrap_and_grow_with_the_algorithms(tmp_path):
    summary = _summary()
    few = dot_chart(summary, ROWS, ALGS, "m", tmp_path / "a.png")
    short = Summary(summary.means[:, :3], summary.stds[:, :3], 2, {})
    three = dot_chart(short, ROWS, ALGS[:3], "m", tmp_path / "b.png")
    assert few.get_figheight() > three.get_figheight()
    # 13 groups wrap into rows of at most 6 panels
    rows = [(f"d{k:02d}", "5") for k in range(13)]
    many = Summary(np.ones((13, 2)), np.zeros((13, 2)), 2, {})
    fig = dot_chart(many, rows, ["a", "b"], "m", tmp_path / "c.png")
    panels = _visible(fig)
    assert len(panels) == 13
    columns = {round(ax.get_position().x0, 3) for ax in panels}
    assert len(columns) == 6


def test_ratio_chart_divides_by_the_baseline_and_marks_one(tmp_path):
    summary = Summary(
        means=np.array([[2.0, 1.0, 3.0], [0.0, 5.0, 1.0]]),
        stds=np.zeros((2, 3)),
        decimals=2,
        blocks={},
    )
    rows = [("d1", "5"), ("d1", "10")]
    fig = dot_chart(
        summary, rows, ["base", "a", "b"], "m", tmp_path / "r.png", baseline="base"
    )
    first, second = _visible(fig)
    assert [t.get_text() for t in first.get_yticklabels()] == ["a", "b"]
    dots = sorted(
        (int(line.get_ydata()[0]), float(line.get_xdata()[0]))
        for line in first.lines
        if line.get_marker() == "o"
    )
    assert dots == [(0, 0.5), (1, 1.5)]
    assert any(
        list(line.get_xdata()) == [1.0, 1.0] for line in first.lines
    )  # the reference line at 1
    # the baseline's mean is 0 in the second group: no ratio, "n/a"
    assert sorted(t.get_text() for t in second.texts) == ["n/a", "n/a"]
    assert not fig.legends


# --------------------------------------------------------------------- curves


def test_a_flat_curve_is_rounding_and_one_changed_prediction_is_not(tmp_path):
    rng = np.random.default_rng(0)
    noise = 0.0343 + 1e-12 * rng.standard_normal(30)
    # one test prediction changed among 10,000 samples at cost 1
    step = np.r_[np.full(10, 0.0343), np.full(10, 0.0343 + 1e-4)]
    frame = _curves({"noise": noise, "zeros": np.zeros(5), "step": step})
    colours = ["noise", "zeros", "step"]
    fig = curve_plot(frame, "d", "5", colours, tmp_path / "c.png")
    label = fig.axes[0].get_xlabel().replace("\n", " ")
    assert "noise (constant)" in label and "zeros (constant)" in label
    assert "step" not in label


def test_flat_curve_is_named_with_its_reason(tmp_path):
    rng = np.random.default_rng(1)
    frame = _curves(
        {
            "AdaCost": 0.0343 + 1e-9 * rng.standard_normal(30),
            "AdaBoost": np.linspace(0.08, 0.04, 30),
        }
    )
    fig = curve_plot(
        frame,
        "yeast4",
        "1",
        ["AdaBoost", "AdaCost"],
        tmp_path / "c.png",
        why_constant={"AdaCost": "predicts one class in 5 of 5 fits"},
    )
    for ax in fig.axes:
        label = ax.get_xlabel().replace("\n", " ")
        assert "AdaCost (constant, predicts one class in 5 of 5 fits)" in label
        assert "AdaBoost" not in label  # a curve that moves is not named


def test_single_stage_curve_is_drawn_as_a_point_and_named(tmp_path):
    frame = _curves({"AdaCost": np.array([0.65]), "AdaC1": np.linspace(1, 0, 5)})
    fig = curve_plot(frame, "pima", "5", ["AdaC1", "AdaCost"], tmp_path / "c.png")
    test = fig.axes[0]
    point = [line for line in test.lines if line.get_label() == "AdaCost"]
    assert len(point) == 1 and point[0].get_marker() not in (None, "", "None")
    assert "AdaCost (one stage)" in test.get_xlabel().replace("\n", " ")


def test_constant_last_models_of_a_moving_curve_are_noted_under_test(tmp_path):
    frame = _curves({"CSB1": np.linspace(0.5, 0.65, 10)})
    fig = curve_plot(
        frame,
        "pima",
        "5",
        ["CSB1"],
        tmp_path / "c.png",
        why_constant={"CSB1": "predicts one class in 5 of 5 fits"},
    )
    test, train = fig.axes[:2]
    assert "at the last stage, CSB1 predicts one class in 5 of 5 fits" in (
        test.get_xlabel().replace("\n", " ")
    )
    assert train.get_xlabel() == "stage"


def test_flat_curve_gets_a_y_range_floor_and_no_offset(tmp_path):
    rng = np.random.default_rng(2)
    level = 0.0343
    frame = _curves({"AdaCost": level + 1e-9 * rng.standard_normal(30)})
    fig = curve_plot(frame, "yeast4", "1", ["AdaCost"], tmp_path / "c.png")
    ax = fig.axes[0]
    bottom, top = ax.get_ylim()
    assert top - bottom >= 0.1 * level - 1e-15  # the documented floor
    assert bottom <= level <= top
    formatter = ax.yaxis.get_major_formatter()
    assert formatter.get_useOffset() is False
    assert formatter.get_offset() == ""  # no "1e-9 + 3.43e-2" above the axis


def test_flat_curve_at_zero_stays_nonnegative(tmp_path):
    frame = _curves({"Perfect": np.zeros(8)})
    fig = curve_plot(frame, "d", "5", ["Perfect"], tmp_path / "c.png")
    bottom, top = fig.axes[0].get_ylim()
    assert bottom == 0.0
    assert top == pytest.approx(1e-3)


def test_a_wide_range_is_left_as_matplotlib_draws_it(tmp_path):
    frame = _curves({"A": np.linspace(0.2, 0.8, 10)})
    fig = curve_plot(frame, "d", "5", ["A"], tmp_path / "c.png")
    bottom, top = fig.axes[0].get_ylim()
    assert bottom < 0.2 and top > 0.8
    assert top - bottom < 1.0  # autoscaled with its margins, not widened


def test_many_algorithms_get_markers_besides_colours(tmp_path):
    names = ALGS[:12]
    frame = _curves(
        {a: np.linspace(1.0, 0.5 + k / 100, 20) for k, a in enumerate(names)}
    )
    fig = curve_plot(frame, "d", "5", names, tmp_path / "c.png")
    markers = [line.get_marker() for line in fig.axes[0].lines]
    assert len(markers) == 12 and all(m not in (None, "", "None") for m in markers)
    # two algorithms with a near colour of tab20 differ in their marker
    assert markers[0] != markers[1]


# ----------------------------------------------------------------- boundaries


def _boundary(reference: bool = True, n_algorithms: int = 7) -> Boundary:
    rng = np.random.default_rng(3)
    grid = np.linspace(-2.0, 2.0, 25)
    xx, yy = np.meshgrid(grid, grid)
    X = rng.normal(size=(60, 2))
    return Boundary(
        dataset="gaussian",
        cost="5",
        xx=xx,
        yy=yy,
        predictions={
            f"alg{k}": (xx + 0.1 * k > 0).astype(int) for k in range(n_algorithms)
        },
        reference=(xx + yy) if reference else None,
        X=X,
        y=(X[:, 0] > 0).astype(int),
    )


def test_boundary_legend_names_classes_regions_and_bayes_boundary(tmp_path):
    fig = boundary_plot(_boundary(), tmp_path / "b.png")
    assert len(fig.legends) == 1
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts == [
        "predicted negative",
        "predicted positive",
        "negative class (training point)",
        "positive class (training point)",
        "Bayes boundary",
    ]
    assert fig.get_suptitle() == "gaussian, cost 5"


def test_boundary_legend_leaves_out_an_absent_bayes_boundary(tmp_path):
    fig = boundary_plot(_boundary(reference=False), tmp_path / "b.png")
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "Bayes boundary" not in texts and len(texts) == 4


def test_boundary_axes_are_labelled_on_the_outer_panels(tmp_path):
    boundary = _boundary(n_algorithms=7)  # 5 + 2 panels: row 1 has 3 open below
    boundary.feature_names = ("x_1", "x_2")
    boundary.class_names = ("ok", "fraud")
    fig = boundary_plot(boundary, tmp_path / "b.png")
    panels = _visible(fig)
    assert [ax.get_title() for ax in panels] == [f"alg{k}" for k in range(7)]
    # left column: panels 0 and 5; a panel with none below: 2, 3, 4, 5, 6
    assert [k for k, ax in enumerate(panels) if ax.get_ylabel() == "x_2"] == [0, 5]
    assert [k for k, ax in enumerate(panels) if ax.get_xlabel() == "x_1"] == [
        2,
        3,
        4,
        5,
        6,
    ]
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "fraud class (training point)" in texts and "predicted ok" in texts
    # the two classes are drawn in the colours their legend entries show
    legend_colours = [
        h.get_color() for h in fig.legends[0].legend_handles if isinstance(h, Line2D)
    ][:2]
    scatter = [c for c in panels[0].collections if isinstance(c, PathCollection)]
    drawn = [tuple(np.round(c.get_facecolor()[0][:3], 3)) for c in scatter]
    assert drawn == [tuple(np.round(to_rgb(c), 3)) for c in legend_colours]
