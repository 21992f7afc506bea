"""The lazy export table of costsense.experiments names only what its modules hold."""

import subprocess
import sys

import costsense.experiments as experiments


def test_every_exported_name_is_found_in_its_module():
    for name in experiments.__all__:
        assert getattr(experiments, name) is not None, name
    assert set(experiments.__all__) <= set(dir(experiments))


def test_reading_the_limits_and_the_catalog_imports_nothing_heavy():
    code = (
        "import sys\n"
        "from costsense.experiments import BASE_NAMES, CATALOG, StudyLimits\n"
        "from costsense.experiments import builtin_studies\n"
        "assert CATALOG and BASE_NAMES and StudyLimits().max_cells\n"
        "assert 'rescaling' in builtin_studies()\n"
        "print(sorted(m for m in ('numpy', 'sklearn', 'pandas') if m in sys.modules))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "[]"
