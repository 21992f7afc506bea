"""A report page opened in headless Chromium: no console error, every figure drawn.

The checker is ``check_page`` of ``docs/screenshots.py`` (the script that also takes
the docs' screenshots of a report), loaded here from its file. It needs Debian's
``chromium``; ``.ci/run`` installs it and sets ``COSTSENSE_REQUIRE_CHROMIUM=1``, so
that in CI a missing browser fails these tests instead of skipping them.
"""

from __future__ import annotations

import base64
import importlib.util
import io
import os
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from costsense import cli  # noqa: E402
from tests.cli._data import write_csv  # noqa: E402
from tests.cli.test_reproduce import TINY_STUDY  # noqa: E402

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "screenshots.py"


def _load_screenshots():
    spec = importlib.util.spec_from_file_location("costsense_docs_screenshots", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


screenshots = _load_screenshots()

if screenshots.chromium_path() is None:
    if os.environ.get("COSTSENSE_REQUIRE_CHROMIUM") == "1":
        raise RuntimeError(
            "COSTSENSE_REQUIRE_CHROMIUM=1 but no chromium on the PATH: "
            "apt-get install -y chromium"
        )
    pytest.skip(
        "headless Chromium is not installed (apt-get install -y chromium; "
        ".ci/run installs it)",
        allow_module_level=True,
    )


def _png(width_px, height_px, draw=True):
    """A PNG of exactly ``width_px`` x ``height_px`` pixels: a line, or all white."""
    figure = plt.figure(figsize=(width_px / 100, height_px / 100), dpi=100)
    if draw:
        figure.add_subplot().plot([0, 1], [0, 1])
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    return buffer.getvalue()


def _data_uri(png):
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _page(tmp_path, body):
    page = tmp_path / "page.html"
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>t</title></head>"
        f"<body><h1>A page</h1>{body}</body></html>"
    )
    return page


def _pixels(png):
    return matplotlib.image.imread(io.BytesIO(png), format="png")


@pytest.fixture(scope="module")
def study_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    study = folder / "tiny.toml"
    study.write_text(TINY_STUDY)
    out = folder / "out"
    assert cli.main(["reproduce", str(study), "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def evaluate_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("evaluate")
    data = write_csv(folder / "data.csv", n=300, categorical=True)
    out = folder / "report"
    command = ["evaluate", "--csv", str(data), "--target", "label", "--cost", "5"]
    command += ["--model", "plain,weighting", "--folds", "3", "--segment", "city"]
    assert cli.main([*command, "--report", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(params=["study", "evaluate"])
def report(request):
    return request.getfixturevalue(f"{request.param}_report")


def test_png_size_reads_the_header_of_a_figure_of_known_size():
    png = _png(320, 180)
    assert screenshots.png_size(png) == (320, 180)
    assert _pixels(png).shape[:2] == (180, 320)
    with pytest.raises(ValueError, match="not a PNG"):
        screenshots.png_size(b"GIF89a" + bytes(30))


def test_report_passes_with_every_figure_drawn(report):
    page = report / "report.html"
    check = screenshots.check_page(page)
    assert check.console_errors == []
    assert check.problems() == []
    # every figure the report wrote is an <img> of the DOM after load, drawn at the
    # size its PNG says, and of non-trivial size
    figures = sorted((report / "figures").glob("*.png"))
    assert len(figures) >= 2
    assert len(re.findall(r"<img\b", check.dom)) == len(figures) == len(check.images)
    written = {screenshots.png_size(path.read_bytes()) for path in figures}
    for image in check.images:
        data = base64.b64decode(image["src"].split(",", 1)[1])
        pixels = _pixels(data)
        height, width = pixels.shape[:2]
        assert (image["drawn_width"], image["drawn_height"]) == (width, height)
        assert (width, height) in written
        assert width >= 200 and height >= 150
        assert np.ptp(pixels[..., :3]) > 0  # more than one colour
    # the screenshot is the window's size and not blank; its top shows the title
    shot = _pixels(check.screenshot)
    assert shot.shape[:2] == (1000, 1400)
    assert np.ptp(shot[..., :3]) > 0
    title = re.search(r"<h1>(.*?)</h1>", page.read_text()).group(1)
    assert f"<h1>{title}</h1>" in check.dom
    figure = _pixels(check.figure_screenshot)
    assert figure.shape[0] >= 150 and figure.shape[1] >= 200
    assert np.ptp(figure[..., :3]) > 0


def test_a_good_page_passes(tmp_path):
    page = _page(tmp_path, f"<figure><img alt='ok' src='{_data_uri(_png(400, 300))}'>")
    check = screenshots.check_page(page)
    assert check.problems() == []
    assert [(i["drawn_width"], i["drawn_height"]) for i in check.images] == [(400, 300)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "<script>console.error('planted failure')</script>",
            ["console error: planted failure"],
        ),
        (
            "<script>null.missing</script>",
            ["console error: TypeError: Cannot read properties of null"],
        ),
        (
            "<img alt='broken' src='data:image/png;base64,AAAA'>",
            [
                "image 2 ('broken'): the browser could not draw it",
                "image 2 ('broken'): PNG does not decode: not a PNG file",
            ],
        ),
        (
            "<style>body { visibility: hidden }</style>",
            ["the screenshot is blank (a single colour)"],
        ),
    ],
)
def test_a_hostile_page_fails_with_exactly_its_fault(tmp_path, body, expected):
    good = f"<img alt='ok' src='{_data_uri(_png(400, 300))}'>"
    problems = screenshots.check_page(_page(tmp_path, good + body)).problems()
    assert len(problems) == len(expected), problems
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith(start), problems


def test_a_page_without_figures_fails(tmp_path):
    problems = screenshots.check_page(_page(tmp_path, "<p>text</p>")).problems()
    assert problems == ["no <img> on the page"]


def test_small_blank_and_remote_figures_fail(tmp_path):
    small = _data_uri(_png(150, 100))
    blank = _data_uri(_png(400, 300, draw=False))
    body = (
        f"<img alt='small' src='{small}'><img alt='blank' src='{blank}'>"
        "<img alt='remote' src='https://example.invalid/figure.png'>"
    )
    problems = screenshots.check_page(_page(tmp_path, body)).problems()
    assert "image 1 ('small'): 150 x 100 px, under 200 x 150" in problems
    assert "image 2 ('blank'): 400 x 300 px of a single colour" in problems
    assert "image 3 ('remote'): the browser could not draw it" in problems
    assert any(
        p.startswith("image 3 ('remote'): source is not an embedded PNG")
        for p in problems
    )


def test_screenshots_script_saves_a_report_headline_and_figure(
    evaluate_report, tmp_path
):
    out = tmp_path / "static"
    assert screenshots.main(["--report", str(evaluate_report), "--out", str(out)]) == 0
    headline = (out / "report_headline.png").read_bytes()
    figure = (out / "report_figure.png").read_bytes()
    assert screenshots.png_size(headline) == (1200, 900)
    width, height = screenshots.png_size(figure)
    assert width >= 200 and height >= 150
    assert np.ptp(_pixels(figure)[..., :3]) > 0


def test_screenshots_script_refuses_a_failing_page_and_saves_nothing(tmp_path, capsys):
    report = tmp_path / "bad"
    report.mkdir()
    (report / "report.html").write_text(
        "<!doctype html><html><body>"
        "<script>console.error('boom')</script></body></html>"
    )
    out = tmp_path / "static"
    assert screenshots.main(["--report", str(report), "--out", str(out)]) == 1
    assert not out.exists()
    assert "console error: boom" in capsys.readouterr().err
