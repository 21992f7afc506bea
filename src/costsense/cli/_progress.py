"""Progress on standard error: ``predict``'s rows, ``fit``'s heartbeat, study bars.

Nothing is said for the first few seconds (a quick command stays quiet); then a
terminal sees one line rewritten in place, a log a line now and then.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

#: Seconds before the first word of progress.
QUIET_SECONDS = 5.0
#: Seconds between two lines of progress in a log (not a terminal).
LOG_EVERY_SECONDS = 30.0


class Progress:
    """Say how much of a task (``what``, e.g. "predict") is done, on ``stream``.

    ``clock`` gives monotonic seconds (a fake clock in tests).
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

    def update(self, text: str) -> None:
        """Show ``text`` (what is done so far) if it is time to."""
        now = self._clock()
        stream = self._stream or sys.stderr
        try:
            terminal = bool(stream.isatty())
        except (AttributeError, ValueError):  # no file, or a closed one
            terminal = False
        if now - self._start < self._quiet or (
            not terminal and self._last is not None and now - self._last < self._every
        ):
            return
        self._last = now
        line = f"{self.what}: {text} ({now - self._start:.0f} s)"
        stream.write(f"\r{line}\x1b[K" if terminal else line + "\n")
        self._on_line = terminal
        stream.flush()

    def close(self) -> None:
        """End the line a terminal was shown."""
        if self._on_line:
            stream = self._stream or sys.stderr
            stream.write("\n")
            stream.flush()
            self._on_line = False


@contextmanager
def heartbeat(
    what: str, *, tick_seconds: float = 1.0, **progress: Any
) -> Iterator[None]:
    """Show, every ``tick_seconds``, that a task without steps (a ``fit``) goes on."""
    shown = Progress(what, **progress)
    done = threading.Event()

    def beat() -> None:
        while not done.wait(tick_seconds):
            shown.update("running")

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        shown.close()


def bar_of(desc: str, unit: str, *, quiet: bool) -> Callable[[int, int], Any]:
    """Return the ``progress(total, done)`` of a study or evaluation: a tqdm bar."""
    from tqdm.auto import tqdm

    def bar(total: int, done: int) -> Any:
        return tqdm(
            total=total,
            initial=done,
            desc=desc,
            unit=unit,
            file=sys.stderr,
            disable=quiet,
            smoothing=0.1,
        )

    return bar


def say(*lines: str) -> None:
    """Print each line on standard error (the one of call time: tests swap it)."""
    for line in lines:
        print(line, file=sys.stderr)


def print_warnings(lines: Iterable[str], header: str) -> None:
    """Print a warning tally's lines (if any) under ``header`` on standard error."""
    indented = [f"  {line}" for line in lines]
    say(*([f"warnings ({header}):"] if indented else []), *indented)
