"""Test-wide settings: one thread per math library, the same hypothesis examples.

``make test`` runs two pytest workers on two cores, so each worker's BLAS and OpenMP
pools get one thread: more threads only wait for a core and spin while they wait
(a small grid search took four times the CPU with two threads per pool). The
limits are defaults, set before numpy loads and inherited by every subprocess a
test starts; set ``OMP_NUM_THREADS`` (or the others) to run with more. A test that
needs more threads asks for them itself (LightGBM's ``num_threads`` is explicit).

Derandomised hypothesis keeps CI reproducible (a failure seen once is seen again,
and a green run stays green); set ``HYPOTHESIS_PROFILE=explore`` to search new
examples while developing.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from hypothesis import settings  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

# a library loaded before this file (by a plugin) reads no environment again
threadpool_limits(int(os.environ["OMP_NUM_THREADS"]))

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
