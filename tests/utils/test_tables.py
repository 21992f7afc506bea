"""Reading a user's table: the header checks take time linear in its width."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import costsense
from costsense.exceptions import UsageError
from costsense.utils._tables import refuse_repeated

SOURCE = str(Path(costsense.__file__).resolve().parents[1])

_MILLION = r"""
from costsense.exceptions import UsageError
from costsense.utils._tables import refuse_repeated
header = [f"c{i}" for i in range(10**6)]
refuse_repeated(header, "wide.csv")  # a million distinct names pass
header[-1] = "c17"
try:
    refuse_repeated(header, "wide.csv")
except UsageError as error:
    print(error)
"""


def test_a_million_columns_are_checked_in_seconds_not_hours():
    # the check counted each name in the whole header (quadratic): 374 s for
    # 80,000 columns, hours for a million; a hang shows as the timeout
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([SOURCE, os.environ.get(
        "PYTHONPATH", "")]))  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", _MILLION],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "wide.csv names these columns more than once: ['c17']" in done.stdout


def test_a_repeated_name_is_named_once_and_escaped():
    with pytest.raises(UsageError, match=r"more than once: \['a', 'b\\x1b'\]"):
        refuse_repeated(["a", "b\x1b", "a", "c", "b\x1b", "a"], "t.csv")
    refuse_repeated(["a", "b", "c"], "t.csv")  # distinct names pass
