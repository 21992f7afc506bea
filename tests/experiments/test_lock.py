"""A run's lock on its folder: refused while held, free once its holder ends."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from costsense.experiments import StoreFileError, StoreLockedError, hold_run_lock

# holds the lock of argv[1] for study argv[2], says so, holds it until stdin closes
HOLDER = """
import sys
from costsense.experiments import hold_run_lock
with hold_run_lock(sys.argv[1], sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
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


def _free(folder) -> bool:
    try:
        with hold_run_lock(folder, "probe"):
            return True
    except StoreLockedError:
        return False


def test_a_held_folder_is_refused_naming_its_run_then_free_again(tmp_path):
    holder = _holder(tmp_path, "boosting")
    try:
        with pytest.raises(StoreLockedError) as refused:
            with hold_run_lock(tmp_path, "rescaling"):
                pass
        text = str(refused.value)
        assert "study 'boosting'" in text and f"pid {holder.pid}" in text
        assert "since" in text and "--out" in text and "\n" not in text
    finally:
        holder.communicate("")  # the holder releases and ends
    assert holder.returncode == 0 and _free(tmp_path)
    assert (tmp_path / ".lock").read_text() == ""  # a released lock names no one


def test_a_killed_runs_lock_is_free_at_once(tmp_path):
    holder = _holder(tmp_path, "boosting")
    assert not _free(tmp_path)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    holder.stdin.close()
    holder.stdout.close()
    assert "boosting" in (tmp_path / ".lock").read_text()  # its record stays
    assert _free(tmp_path)  # the kernel released its lock


def test_the_lock_is_shared_within_a_process_for_one_study(tmp_path):
    with hold_run_lock(tmp_path, "s"):
        with hold_run_lock(tmp_path / "." / "", "s"):
            pass
        held = subprocess.run(  # the inner block did not release it
            [sys.executable, "-c", HOLDER, str(tmp_path), "t"],
            input="", capture_output=True, text=True,
        )  # fmt: skip
        assert "StoreLockedError" in held.stderr and "study 's'" in held.stderr
        with pytest.raises(StoreLockedError, match="study 's'"):
            with hold_run_lock(tmp_path, "other"):
                pass
    assert _free(tmp_path)


def test_a_lock_file_that_cannot_be_created_names_it(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StoreFileError) as raised:
        with hold_run_lock(tmp_path / "file", "s"):
            pass
    assert str(tmp_path / "file") in str(raised.value)
    assert "another folder (--out)" in str(raised.value)


def test_a_link_planted_at_the_lock_is_refused(tmp_path):
    (tmp_path / "target").write_text("keep")
    (tmp_path / ".lock").symlink_to(tmp_path / "target")
    with pytest.raises(StoreFileError, match="symbolic link"):
        with hold_run_lock(tmp_path, "s"):
            pass
    assert (tmp_path / "target").read_text() == "keep"
