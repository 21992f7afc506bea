"""Test-wide settings: hypothesis runs the same examples on every machine.

Derandomised hypothesis keeps CI reproducible (a failure seen once is seen again,
and a green run stays green); set ``HYPOTHESIS_PROFILE=explore`` to search new
examples while developing.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
