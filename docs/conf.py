"""Sphinx configuration of the costsense documentation.

``make docs`` builds the whole site: user guide, API reference and the example
gallery (every example executed). Two environment variables narrow the build:

``COSTSENSE_DOCS_API_ONLY=1``
    Build the API reference alone (``api.rst`` as the root page, no guide, no
    gallery): what ``tests/test_docs_build.py`` runs so that a broken docstring
    fails the tests in seconds.
``COSTSENSE_DOCS_PLOT_GALLERY=0``
    Build the gallery pages without running the examples.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import costsense

HERE = Path(__file__).resolve().parent

API_ONLY = os.environ.get("COSTSENSE_DOCS_API_ONLY", "0") == "1"
PLOT_GALLERY = os.environ.get("COSTSENSE_DOCS_PLOT_GALLERY", "1") != "0"

project = "costsense"
author = "the costsense developers"
copyright = "the costsense developers"  # noqa: A001 (Sphinx's name)
release = costsense.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
]
if not API_ONLY:
    extensions.append("sphinx_gallery.gen_gallery")

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
if API_ONLY:
    root_doc = "api"
    exclude_patterns += ["index.rst", "guide", "auto_examples"]
else:
    root_doc = "index"

# -- API reference -----------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": True}
autodoc_typehints = "none"  # numpydoc's Parameters section says the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# the References of numpy-style docstrings are often not cited in their text
suppress_warnings = ["ref.citation"]
add_module_names = False

# -- HTML --------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"costsense {release}"
# the report screenshots of the guide (docs/screenshots.py --report)
html_static_path = [] if API_ONLY else ["_static"]
html_theme_options = {
    "navbar_end": ["navbar-icon-links"],
    "secondary_sidebar_items": ["page-toc"],
    "show_prev_next": False,
    "navigation_with_keys": False,
}
html_show_sourcelink = False

# -- Example gallery -----------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(HERE.parent / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "plot_gallery": PLOT_GALLERY,
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "reset_modules": ("matplotlib",),
    "show_memory": False,
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
}


def _skip_foreign_member(
    app: object, what: str, name: str, obj: object, skip: bool, options: object
) -> bool | None:
    """Leave out methods a class inherits unchanged from scikit-learn.

    ``get_params``, ``set_params``, ``score``, ``set_output``, ``get_metadata_routing``
    and the generated ``set_*_request`` methods are documented by scikit-learn; their
    docstrings point at scikit-learn's own glossary, which this site does not have.
    """
    module = getattr(obj, "__module__", None) or ""
    if (
        module.startswith("sklearn.")
        or name.startswith("set_")
        and name.endswith("_request")
    ):
        return True
    return None


# a name ending in "_" outside backquotes, followed by a space, "," ")" "]" or the
# end of the line: reST would read it as a link to a target of that name
_TRAILING_UNDERSCORE = re.compile(r"\b([A-Za-z_]\w*?[A-Za-z0-9])_(?=[\s,)\]]|$)")


def _escape_fitted_names(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Let docstrings write fitted names bare, as scikit-learn's do.

    numpy-style docstrings write shapes such as ``ndarray of shape (n_features_in_,)``
    without backquotes; reST would read ``n_features_in_`` as a link to an undefined
    target. Such names are escaped, outside backquoted spans only.
    """
    for index, line in enumerate(lines):
        parts = line.split("`")
        for part in range(0, len(parts), 2):  # even parts lie outside backquotes
            parts[part] = _TRAILING_UNDERSCORE.sub(r"\1\\_", parts[part])
        lines[index] = "`".join(parts)


def setup(app: object) -> None:
    """Register the member filter and the escaping of fitted names."""
    app.connect("autodoc-skip-member", _skip_foreign_member)  # type: ignore[attr-defined]
    app.connect(  # type: ignore[attr-defined]
        "autodoc-process-docstring", _escape_fitted_names, priority=400
    )
