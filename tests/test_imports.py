"""House rules that check themselves: the package's imports.

- the import graph of ``costsense`` has no circle (every import counts, also those
  inside functions);
- a module imports another family's private module never (``costsense.utils`` and
  ``costsense._base`` are the shared ground every family stands on);
- each family imports only families on lower floors (the map in the README);
- scikit-learn's and imbalanced-learn's private names come in through one module,
  ``costsense.utils._compat``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import costsense

PACKAGE = Path(costsense.__file__).parent

#: Each family's floor: a module may import its own family and lower floors only.
FLOORS = {
    "costs": 0,
    "utils": 0,
    # costsense's warning and error classes: anyone may import them, the ground
    # floor too (utils' allocation check raises MemoryBudgetError)
    "exceptions": -1,
    "_base": 1,
    # decisions over any model's probabilities: costs, numpy and scipy only
    "decision": 1,
    "metrics": 1,
    "datasets": 1,
    "sampling": 1,
    "tree": 2,
    "rescale": 2,
    "margin": 2,
    # displays of decisions (matplotlib, imported when drawn): costs, decision,
    # metrics
    "plots": 2,
    "naive_bayes": 2,
    "boosting": 3,
    # MinimumCostClassifier: scikit-learn parts and costsense's boosted trees on
    # costs and _base
    "recommend": 3,
    # the root package holds __version__ and loads MinimumCostClassifier on first
    # use (PEP 562), so it stands above recommend and below what imports it
    "__init__": 4,
    # model files: skops and the exact list of types, below what saves and loads
    "persist": 4,
    "experiments": 5,
    "cli": 6,
}
SHARED_GROUND = ("costsense.utils", "costsense._base")
COMPAT = "costsense.utils._compat"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """Every import of a module: (absolute module, imported names, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            names = [alias.name for alias in node.names]
            found.append((module, names, node.lineno))
    return found


def _costsense_targets(module: str, names: list[str]) -> list[str]:
    """The costsense modules an import loads (``from pkg import mod`` loads mod)."""
    if module != "costsense" and not module.startswith("costsense."):
        return []
    submodules = [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]
    if names and len(submodules) == len(names):
        return submodules
    return [module, *submodules]


def _graph() -> dict[str, set[str]]:
    return {
        name: {
            target
            for module, names, _ in _imports(name, path)
            for target in _costsense_targets(module, names)
            if target != name and target in MODULES
        }
        for name, path in MODULES.items()
    }


def _family(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_import_graph_has_no_circle():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                circles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_no_family_imports_another_familys_private_module():
    offences = []
    for name, targets in _graph().items():
        for target in targets:
            private = any(part.startswith("_") for part in target.split(".")[1:])
            if (
                private
                and _family(target) != _family(name)
                and not target.startswith(SHARED_GROUND)
                # a package's __init__ re-exports its own private modules
                and not (name == "costsense" and target.count(".") == 1)
            ):
                offences.append(f"{name} imports {target}")
    assert not offences, "\n".join(sorted(offences))


def test_families_import_only_lower_floors():
    offences = []
    for name, targets in _graph().items():
        floor = FLOORS[_family(name)]
        for target in targets:
            other = _family(target)
            if other != _family(name) and FLOORS[other] >= floor:
                offences.append(f"{name} (floor {floor}) imports {target}")
    assert not offences, "\n".join(sorted(offences))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_private_sklearn_names_come_through_the_compat_module(name):
    if name == COMPAT:
        return
    offences = []
    for module, names, line in _imports(name, MODULES[name]):
        if module.split(".")[0] not in ("sklearn", "imblearn", "sklearn_compat"):
            continue
        private_path = any(part.startswith("_") for part in module.split("."))
        private_names = [n for n in names if n.startswith("_")]
        if private_path or private_names or module.startswith("sklearn_compat"):
            offences.append(f"line {line}: from {module} import {', '.join(names)}")
    assert not offences, f"{name}: import these through {COMPAT}: " + "; ".join(
        offences
    )


def test_the_walker_sees_relative_and_function_local_imports(tmp_path):
    path = tmp_path / "_engine.py"
    path.write_text("import numpy\ndef f():\n    from ._rules import _X, Y\n")
    assert sorted(_imports("costsense.boosting._engine", path)) == [
        ("costsense.boosting._rules", ["_X", "Y"], 3),
        ("numpy", [], 1),
    ]
    assert _family("costsense.boosting._engine") == "boosting"
    assert set(FLOORS) >= {_family(name) for name in MODULES}
