"""A run's lock on its folder: refused while held, taken over once its holder died."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from costsense.experiments import (
    RunLock,
    StoreFileError,
    StoreLockedError,
    hold_run_lock,
)
from costsense.experiments._lock import read_holder

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="the holder is killed with SIGKILL"
)

# takes the lock of argv[1] for study argv[2], says so, holds it until stdin closes
HOLDER = """
import sys
from costsense.experiments import RunLock
lock = RunLock(sys.argv[1], sys.argv[2])
lock.acquire()
print("held", flush=True)
sys.stdin.read()
lock.release()
"""


def _holder(folder, study: str) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder), study],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    return process


def test_a_held_folder_is_refused_naming_its_run_then_free_again(tmp_path):
    holder = _holder(tmp_path, "boosting")
    try:
        with pytest.raises(StoreLockedError) as refused:
            RunLock(tmp_path, "rescaling").acquire()
        text = str(refused.value)
        assert "study 'boosting'" in text and f"pid {holder.pid}" in text
        assert "since" in text and "--out" in text and "\n" not in text
        assert read_holder(tmp_path)["pid"] == holder.pid  # untouched by refusal
    finally:
        holder.communicate("")  # the holder releases and ends
    assert holder.returncode == 0 and read_holder(tmp_path) is None
    with RunLock(tmp_path, "rescaling") as lock:
        assert lock.note == ""  # a released lock is not stale
        assert read_holder(tmp_path)["study"] == "rescaling"


def test_a_killed_runs_lock_is_taken_over_with_a_note(tmp_path):
    holder = _holder(tmp_path, "boosting")
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    holder.stdin.close()
    holder.stdout.close()
    assert read_holder(tmp_path)["pid"] == holder.pid  # the record stays
    with RunLock(tmp_path, "rescaling") as lock:
        assert f"pid {holder.pid}" in lock.note and "study 'boosting'" in lock.note
        assert read_holder(tmp_path)["pid"] == os.getpid()
    assert read_holder(tmp_path) is None


def test_the_lock_is_shared_within_a_process_for_one_study(tmp_path):
    with hold_run_lock(tmp_path, "s") as outer:
        with hold_run_lock(tmp_path / "." / "", "s") as inner:
            assert inner is outer and outer.held
        assert outer.held  # the inner block does not release it
        with pytest.raises(StoreLockedError, match="study 's'"):
            with hold_run_lock(tmp_path, "other"):
                pass
    assert not outer.held and read_holder(tmp_path) is None


def test_a_lock_file_that_cannot_be_created_names_it(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StoreFileError) as raised:
        RunLock(tmp_path / "file", "s").acquire()
    assert str(tmp_path / "file" / ".lock") in str(raised.value)
    assert "another folder (--out)" in str(raised.value)
