"""Waiting on a subprocess of the command line, for the tests that start one."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

#: Longest a test waits for a command it started to reach a point (seconds).
PATIENCE = 120.0


def until(condition: Callable[[], object], process: subprocess.Popen) -> None:
    """Wait until ``condition()`` holds while ``process`` runs."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert process.poll() is None, process.communicate()[1]
        assert time.monotonic() < deadline, "the run never got there"
        time.sleep(0.05)
