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


def _limits(**given):
    from costsense.datasets import TableOptions

    return TableOptions(**given)


@pytest.mark.parametrize("where", ["header", "first row", "last row"])
def test_a_line_of_the_limit_is_read_and_one_byte_more_refused(tmp_path, where):
    from costsense.utils._tables import read_chunks, read_frame

    limit = 4096  # bytes, without the line break
    options = _limits(max_line_mb=limit / 2**20)
    rows = [f"{i},{i % 2}" for i in range(3000)]  # many reads of the file
    for size, refused in ((limit, False), (limit + 1, True)):
        lines = ["a,b", *rows]
        at = {"header": 0, "first row": 1, "last row": len(lines) - 1}[where]
        head, _, tail = lines[at].partition(",")
        lines[at] = head + "," + tail + "0" * (size - len(lines[at]))
        assert len(lines[at]) == size
        path = tmp_path / f"{size}.csv"
        path.write_text("\n".join(lines) + "\n")
        for read in (read_frame, lambda *a: list(read_chunks(*a, 500))):
            if refused:
                with pytest.raises(UsageError, match=f"line {at + 1:,} is longer"):
                    read(str(path), options)
            else:
                read(str(path), options)


def test_a_cell_of_the_limit_is_read_and_one_character_more_refused(tmp_path):
    from costsense.utils._tables import read_frame

    path = tmp_path / "t.csv"
    for size, refused in ((50, False), (51, True)):
        path.write_text("id,x\n" + "a,1\n" * 10 + "é" * size + ",2\n")
        if refused:
            with pytest.raises(UsageError, match=r"column 'id' holds a cell of 51 "
                               r"characters \(row 12,"):  # fmt: skip
                read_frame(str(path), _limits(max_cell_chars=50))
        else:
            assert read_frame(str(path), _limits(max_cell_chars=50)).shape == (11, 2)
