"""Progress of the long commands on standard error: ``fit`` and ``predict``.

Nothing is said for the first few seconds (a quick command stays quiet). After
that, a terminal sees one line rewritten in place; a log file (standard error
redirected) gets a line now and then, so that a run in a batch job shows it is
alive without filling its log.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Heartbeat", "Progress"]

#: Seconds before the first word of progress.
QUIET_SECONDS = 5.0
#: Seconds between two lines of progress in a log (not a terminal).
LOG_EVERY_SECONDS = 30.0


class Progress:
    """Say how much of a task (``what``, e.g. "predict") is done.

    Written to ``stream`` (standard error, looked up when writing) after
    ``quiet_seconds``, then every ``every_seconds`` to a stream that is not a
    terminal; ``clock`` gives monotonic seconds (a fake clock in tests).
    """

    def __init__(
        self,
        what: str,
        *,
        stream: TextIO | None = None,
        quiet_seconds: float = QUIET_SECONDS,
        every_seconds: float = LOG_EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self._stream = stream
        self._quiet = quiet_seconds
        self._every = every_seconds
        self._clock = clock
        self._start = clock()
        self._last: float | None = None
        self._on_line = False

    @property
    def stream(self) -> TextIO:
        """The stream written to."""
        return sys.stderr if self._stream is None else self._stream

    def elapsed(self) -> float:
        """Seconds since the task started."""
        return self._clock() - self._start

    def update(self, text: str) -> None:
        """Show ``text`` (what is done so far) if it is time to."""
        now = self._clock()
        if now - self._start < self._quiet:
            return
        terminal = _is_terminal(self.stream)
        if not terminal and self._last is not None and now - self._last < self._every:
            return
        self._last = now
        line = f"{self.what}: {text} ({now - self._start:.0f} s)"
        if terminal:
            self.stream.write(f"\r{line}\x1b[K")
            self._on_line = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def rows(self, done_rows: int, share: float) -> None:
        """Show rows done and the share of the input read."""
        self.update(f"{done_rows:,} rows, {100 * share:.0f} % of the input")

    def close(self) -> None:
        """End the line a terminal was shown."""
        if self._on_line:
            self.stream.write("\n")
            self.stream.flush()
            self._on_line = False


class Heartbeat:
    """Show that a task without steps of its own (a model's ``fit``) goes on.

    A context manager around the task: a background thread shows the seconds
    elapsed through a :class:`Progress` (``what`` and ``**progress`` its
    arguments), looking at the clock every ``tick_seconds``, until the task ends.
    """

    def __init__(self, what: str, *, tick_seconds: float = 1.0, **progress: Any):
        self.progress = Progress(what, **progress)
        self._tick = tick_seconds
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._done.wait(self._tick):
            self.progress.update("running")

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._done.set()
        self._thread.join()
        self.progress.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
