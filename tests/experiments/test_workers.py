"""Local workers end with their run; a dead run's leftovers are ended, nothing else."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from joblib import Parallel, delayed

from costsense.experiments import _workers
from costsense.experiments._workers import (
    end_leftover_workers,
    process_start,
    worker_processes,
)

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").is_file(), reason="process identities come from /proc"
)

#: A liveness bound: how long an orphaned process may take to end.
PATIENCE = 30.0

# a parent that starts a child watching it, prints its pid, and waits to be killed
PARENT = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid())])
print(child.pid, flush=True)
time.sleep(600)
"""
# the parent's pid is given, as the runner gives it to its workers: a child that
# starts after its parent died ends too
CHILD = """
import sys, time
from costsense.experiments._workers import watch_parent
watch_parent(int(sys.argv[1]), 0.1)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    return process_start(pid) is None  # absent, or a zombie


def _wait_gone(pids) -> list[int]:
    """Return the pids still alive after at most PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in alive if not _gone(pid)]
    return alive


def test_a_watched_process_ends_when_its_parent_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, CHILD], stdout=subprocess.PIPE, text=True
    )
    child = int(parent.stdout.readline())
    try:
        assert not _gone(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert _wait_gone([child]) == []
    finally:
        parent.stdout.close()
        if not _gone(child):
            os.kill(child, signal.SIGKILL)


def _watch_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("costsense")]


def test_the_runners_workers_are_watched_and_listed():
    context, _ = _workers.executor(2, None)
    with context:
        seen = Parallel(n_jobs=2)(delayed(_watch_threads)() for _ in range(4))
        workers = worker_processes()
    assert all(names == ["costsense-watch-parent"] for names in seen)
    assert len(workers) == 2
    assert all(
        start is not None and process_start(pid) == start for pid, start in workers
    )


def test_only_a_recorded_loky_process_is_ended(tmp_path):
    sleep = [sys.executable, "-c", "import time; time.sleep(600)"]
    # the run's workers carry its key in their environment
    keyed = {**os.environ, _workers.WORKER_KEY: _workers.process_key()}
    unkeyed = {k: v for k, v in os.environ.items() if k != _workers.WORKER_KEY}
    loky = subprocess.Popen([*sleep, "joblib.externals.loky"], env=keyed)
    other = subprocess.Popen(sleep, env=keyed)
    reused = subprocess.Popen([*sleep, "loky"], env=keyed)
    stranger = subprocess.Popen([*sleep, "loky"], env=unkeyed)  # another run's
    processes = (loky, other, reused, stranger)
    token = _workers.worker_token(tmp_path)
    try:
        starts = {p.pid: process_start(p.pid) for p in processes}
        recorded = [
            (loky.pid, starts[loky.pid]),
            (other.pid, starts[other.pid]),  # not a loky worker
            (reused.pid, starts[reused.pid] - 1),  # another process, same pid
            (loky.pid, None),  # no start recorded: never ended
            (stranger.pid, starts[stranger.pid]),  # a loky worker without the key
        ]
        # no token, or the token of another folder: nothing is proven
        assert end_leftover_workers(recorded) == 0
        assert end_leftover_workers(recorded, token=token, folder=tmp_path / "x") == 0
        assert all(p.poll() is None for p in processes)
        ended = end_leftover_workers(recorded, token=token, folder=tmp_path)
        assert ended == 1
        assert loky.wait(timeout=PATIENCE) == -signal.SIGKILL
        assert other.poll() is None and reused.poll() is None
        assert stranger.poll() is None
    finally:
        for process in processes:
            process.kill()
            process.wait()
