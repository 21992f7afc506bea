"""Progress lines: quiet at first, one line rewritten on a terminal, sparse in a log."""

import io
import time

from costsense.cli._progress import Progress, heartbeat


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_log_gets_nothing_at_first_then_a_line_now_and_then():
    clock, log = _Clock(), io.StringIO()
    progress = Progress("predict", stream=log, clock=clock)
    for now, rows in ((101.0, 10), (104.9, 20), (105.0, 30), (120.0, 40), (135.0, 50)):
        clock.now = now
        progress.update(f"{rows:,} rows, {rows:.0f} % of the input")
    progress.close()
    lines = log.getvalue().splitlines()
    # silent for 5 s; then a line, and the next only 30 s after it
    assert lines == ["predict: 30 rows, 30 % of the input (5 s)",
                     "predict: 50 rows, 50 % of the input (35 s)"]  # fmt: skip


def test_a_terminal_sees_one_line_rewritten_then_ended():
    clock, terminal = _Clock(), _Terminal()
    progress = Progress("predict", stream=terminal, clock=clock)
    for now, rows in ((106.0, 1_000), (107.0, 2_000)):
        clock.now = now
        progress.update(f"{rows:,} rows")
    progress.close()
    text = terminal.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and text.count("\n") == 1
    assert "2,000 rows" in text.rsplit("\r", 1)[1]


def test_a_quick_task_says_nothing_not_even_a_newline():
    terminal = _Terminal()
    progress = Progress("predict", stream=terminal)
    progress.update("10 rows")
    progress.close()
    assert terminal.getvalue() == ""


def test_a_heartbeat_speaks_while_its_task_runs_and_stops_with_it():
    log = io.StringIO()
    with heartbeat("fitting", tick_seconds=0.01, stream=log, quiet_seconds=0.0,
                   every_seconds=0.0):  # fmt: skip
        deadline = time.monotonic() + 5
        while "fitting: running" not in log.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    said = log.getvalue()
    assert "fitting: running" in said
    time.sleep(0.05)
    assert log.getvalue() == said  # nothing after the task ended
