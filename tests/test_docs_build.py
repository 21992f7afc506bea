"""The documentation's API reference builds without a warning.

The API pages are built with Sphinx exactly as ``make docs`` builds them (the same
``docs/conf.py``, pydata theme, numpydoc, ``-W``), but alone: no user guide and no
example gallery (``COSTSENSE_DOCS_API_ONLY=1``), into a temporary folder. A docstring
that docutils or numpydoc cannot read is a warning, hence a failed build. The two
builds are marked ``slow``: ``make test-all`` runs them, ``make test`` does not.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx", reason="the dev extra installs Sphinx")
pytest.importorskip("numpydoc", reason="the dev extra installs numpydoc")
pytest.importorskip("pydata_sphinx_theme", reason="the dev extra installs the theme")

DOCS = Path(__file__).resolve().parents[1] / "docs"

# modules whose every public name has a page, as api.rst lists them
DOCUMENTED_MODULES = [
    "costsense.costs",
    "costsense.decision",
    "costsense.plots",
    "costsense.metrics",
    "costsense.rescale",
    "costsense.boosting",
    "costsense.margin",
    "costsense.sampling",
    "costsense.tree",
    "costsense.naive_bayes",
    "costsense.datasets",
    "costsense.persist",
    "costsense.experiments",
    "costsense.utils",
    "costsense.exceptions",
]

# a few estimators and functions whose pages must show their parameters
CHECKED_PAGES = [
    "costsense.MinimumCostClassifier",
    "costsense.boosting.AsyBClassifier",
    "costsense.margin.CSLDMClassifier",
    "costsense.tree.CostSensitiveForestClassifier",
    "costsense.rescale.ThresholdMoving",
    "costsense.sampling.OBPDSampler",
    "costsense.metrics.misclassification_cost",
]


def _copy_sources(target: Path, api_text: str | None = None) -> Path:
    """Copy the API build's sources (conf.py, api.rst, templates) to ``target``."""
    target.mkdir(parents=True)
    shutil.copy(DOCS / "conf.py", target / "conf.py")
    shutil.copytree(DOCS / "_templates", target / "_templates")
    if api_text is None:
        shutil.copy(DOCS / "api.rst", target / "api.rst")
    else:
        (target / "api.rst").write_text(api_text)
    return target


def _build(source: Path, out: Path, pythonpath: Path | None = None) -> str:
    """Build ``source`` as the API reference with -W; return Sphinx's output."""
    env = dict(os.environ, COSTSENSE_DOCS_API_ONLY="1")
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(pythonpath), *filter(None, [env.get("PYTHONPATH")])]
        )
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going"]
    command += ["-q", "-d", str(out / ".doctrees"), str(source), str(out)]
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        raise AssertionError(f"sphinx-build failed ({result.returncode}):\n{output}")
    return output


def _public_names(module_name: str) -> list[str]:
    return list(importlib.import_module(module_name).__all__)


def test_api_lists_every_public_name() -> None:
    api = (DOCS / "api.rst").read_text()
    for module_name in DOCUMENTED_MODULES:
        section = api.split(f".. currentmodule:: {module_name}\n", 1)
        assert len(section) == 2, f"api.rst has no section for {module_name}"
        body = section[1].split(".. currentmodule::", 1)[0]
        listed = set(re.findall(r"^   (\w+)$", body, flags=re.MULTILINE))
        missing = set(_public_names(module_name)) - listed
        assert not missing, f"api.rst does not list {sorted(missing)} of {module_name}"
    assert re.search(r"^   MinimumCostClassifier$", api, flags=re.MULTILINE)


@pytest.mark.slow
def test_api_pages_build_and_show_parameters(tmp_path: Path) -> None:
    source = _copy_sources(tmp_path / "src")
    out = tmp_path / "html"
    _build(source, out)
    for name in CHECKED_PAGES:
        page = out / "generated" / f"{name}.html"
        assert page.is_file(), f"no API page for {name}"
        html = page.read_text()
        assert re.search(r">Parameters<", html), f"{name}: no Parameters section"
        module_name, _, attribute = name.rpartition(".")
        obj = getattr(importlib.import_module(module_name), attribute)
        parameters = [
            p for p in inspect.signature(obj).parameters.values() if p.name != "self"
        ]
        assert parameters
        for parameter in parameters:
            assert f"<strong>{parameter.name}</strong>" in html, (
                f"{name}: parameter {parameter.name!r} is not on its page"
            )
        if inspect.isclass(obj):
            # fit and predict are documented on the class's page
            assert 'id="' + f'{name}.fit"' in html, f"{name}: fit is not on its page"
    # the API index links to every checked page
    index = (out / "api.html").read_text()
    for name in CHECKED_PAGES:
        assert f"generated/{name}.html" in index


@pytest.mark.slow
def test_a_broken_docstring_fails_the_build(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "brokendoc.py").write_text(
        '"""A module with one broken docstring."""\n\n\n'
        "def scale(x):\n"
        '    """Scale x.\n\n'
        "    Parameters\n"
        "    ----------\n"
        "    x : float\n"
        "        The `value to scale.\n"
        '    """\n'
        "    return 2 * x\n"
    )
    api = (
        "API\n===\n\n.. currentmodule:: brokendoc\n\n.. autosummary::\n"
        "   :toctree: generated/\n   :template: function.rst\n\n   scale\n"
    )
    source = _copy_sources(tmp_path / "src", api_text=api)
    with pytest.raises(AssertionError, match=r"brokendoc.*(WARNING|ERROR)"):
        _build(source, tmp_path / "html", pythonpath=package)
