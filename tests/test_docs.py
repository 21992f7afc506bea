"""Documentation that can be wrong: doctests pass, fitted attributes are documented."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest
from sklearn.datasets import make_classification

import costsense
from tests._registry import classifiers, fast_instance

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(costsense.__path__, prefix="costsense.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_public_modules_have_examples():
    # a package's examples are in its modules (a re-exported name is not tested
    # again through the package)
    tried = sum(
        doctest.testmod(importlib.import_module(name)).attempted
        for name in MODULES
        if name.split(".")[1] in ("metrics", "rescale", "costs")
    )
    assert tried >= 10


def _documented_attributes(cls: type) -> set[str]:
    section = re.search(
        r"\n\s*Attributes\n\s*-+\n(.*?)(\n\s*\n\s*[A-Z][a-z ]+\n\s*-+\n|\Z)",
        cls.__doc__ or "",
        re.S,
    )
    assert section is not None, f"{cls.__name__} has no Attributes section"
    return set(re.findall(r"^\s{4}(\w+_)\s*:", section.group(1), re.M))


@pytest.mark.parametrize("cls", classifiers(), ids=lambda c: c.__name__)
def test_every_fitted_attribute_is_documented(cls):
    X, y = make_classification(n_samples=80, n_features=4, random_state=0)
    model = fast_instance(cls).fit(X, y)
    fitted = {
        name for name in vars(model) if name.endswith("_") and not name.startswith("_")
    }
    assert fitted, "fit set no public attribute"
    missing = fitted - _documented_attributes(cls)
    assert not missing, f"{cls.__name__} does not document {sorted(missing)}"
