"""Screenshots of the built documentation site and of a report, in headless Chromium.

Site mode serves ``docs/_build/html`` on a free localhost port and saves PNG
screenshots of the home page and of one gallery example (its top, and the section of
its first figure) into ``docs/_build/screenshots/``; run ``make docs`` first.

Report mode (``--report DIR``) opens ``DIR/report.html`` (written by ``costsense
evaluate --report DIR`` or ``costsense reproduce``), checks it with
:func:`check_page` (no console error, no uncaught exception, every ``<img>`` a
decodable PNG of at least 200 x 150 pixels that is not one colour and that the browser
drew) and saves two screenshots into ``docs/_static/``: the page's top (its headline)
and its first figure. Usage::

    python docs/screenshots.py [--html DIR] [--out DIR] [--example NAME]
    python docs/screenshots.py --report DIR [--out docs/_static] [--prefix report]

The browser is driven through the Chrome DevTools protocol over
``--remote-debugging-pipe`` (file descriptors 3 and 4, messages JSON ended by a NUL
byte; https://chromedevtools.github.io/devtools-protocol/), so that console messages
arrive with their level, which Chromium's ``--enable-logging`` lines do not give.

Chromium is Debian's ``chromium`` package (``apt-get install chromium``); another
binary can be named with the ``CHROMIUM`` environment variable.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import io
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_EXAMPLE = "plot_boosting_gaussian"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def first_figure_anchor(html: str) -> str | None:
    """Return the id of the section holding a gallery page's first figure."""
    figure = re.search(r'<img[^>]*class\s*=\s*"sphx-glr-(single|multi)-img', html)
    if figure is None:
        return None
    sections = re.findall(r'<section id="([^"]+)"', html[: figure.start()])
    return sections[-1] if sections else None


def chromium_path() -> str | None:
    """Return the path of a Chromium binary (``CHROMIUM`` first), or None."""
    candidates = [os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser"]
    for name in candidates:
        path = shutil.which(name) if name else None
        if path:
            return path
    return None


def find_chromium() -> str:
    """Return the path of a Chromium binary, or exit with how to install one."""
    path = chromium_path()
    if path is None:
        sys.exit(
            "No Chromium found: install Debian's package (apt-get install -y chromium) "
            "or set CHROMIUM to the browser's path."
        )
    return path


# flags that keep headless Chromium off the network and out of the user's profile
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]
MIN_WIDTH, MIN_HEIGHT = 200, 150


def png_size(data: bytes) -> tuple[int, int]:
    """Return a PNG's width and height, read from its IHDR chunk.

    Raises ``ValueError`` if ``data`` is not a PNG (signature, then the IHDR chunk
    at byte 8: length, type, then width and height as big-endian 32-bit integers;
    PNG specification, 3rd ed., sections 5.2 and 11.2.2).
    """
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def png_is_one_colour(data: bytes) -> bool:
    """Return whether every pixel of a PNG has one value (decoded by matplotlib)."""
    import matplotlib.image
    import numpy as np

    pixels = matplotlib.image.imread(io.BytesIO(data), format="png")
    flat = pixels.reshape(-1, pixels.shape[-1]) if pixels.ndim == 3 else pixels.ravel()
    return bool(np.all(flat == flat[0]))


def image_problem(src: str) -> str | None:
    """Return what is wrong with an ``<img>`` source, or None if it is a fit figure.

    A fit figure is a ``data:image/png;base64`` URI (a report is self-contained)
    whose PNG decodes, is at least ``MIN_WIDTH`` x ``MIN_HEIGHT`` pixels and is not a
    single colour.
    """
    prefix = "data:image/png;base64,"
    if not src.startswith(prefix):
        return f"source is not an embedded PNG: {src[:60]!r}"
    try:
        data = base64.b64decode(src[len(prefix) :], validate=True)
        width, height = png_size(data)
        one_colour = png_is_one_colour(data)
    except (ValueError, OSError, SyntaxError) as error:
        return f"PNG does not decode: {error}"
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        return f"{width} x {height} px, under {MIN_WIDTH} x {MIN_HEIGHT}"
    if one_colour:
        return f"{width} x {height} px of a single colour"
    return None


@dataclass
class PageCheck:
    """What headless Chromium saw of one page (returned by :func:`check_page`).

    Attributes
    ----------
    console_errors : list of str
        Console messages of level error, uncaught exceptions and the browser's own
        error log entries (a resource that failed to load, for example).
    dom : str
        The document's HTML after the load event.
    images : list of dict
        One per ``<img>``: ``alt``, ``src``, and ``drawn_width`` and
        ``drawn_height``, the size the browser decoded (0 for a broken image).
    screenshot : bytes
        A PNG of the viewport after load.
    figure_screenshot : bytes or None
        A PNG of the first ``<figure>`` element's contents (image and caption), or
        None if the page has none.
    """

    console_errors: list[str] = field(default_factory=list)
    dom: str = ""
    images: list[dict[str, object]] = field(default_factory=list)
    screenshot: bytes = b""
    figure_screenshot: bytes | None = None

    def problems(self) -> list[str]:
        """Return every reason the page fails the check (empty if it passes)."""
        found = [f"console error: {message}" for message in self.console_errors]
        if not self.images:
            found.append("no <img> on the page")
        for index, image in enumerate(self.images):
            name = f"image {index + 1} ({image['alt']!r})"
            if not image["drawn_width"] or not image["drawn_height"]:
                found.append(f"{name}: the browser could not draw it")
            problem = image_problem(str(image["src"]))
            if problem is not None:
                found.append(f"{name}: {problem}")
        if png_is_one_colour(self.screenshot):
            found.append("the screenshot is blank (a single colour)")
        return found


class _DevTools:
    """A Chromium process driven over ``--remote-debugging-pipe``."""

    def __init__(self, chromium: str, profile: str, width: int, height: int) -> None:
        to_browser_read, self._write = os.pipe()
        self._read, from_browser_write = os.pipe()
        os.set_inheritable(to_browser_read, True)
        os.set_inheritable(from_browser_write, True)

        def child_fds() -> None:  # the protocol expects fds 3 (in) and 4 (out)
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [
                chromium,
                *CHROMIUM_FLAGS,
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=child_fds,  # noqa: PLW1509 (no threads start in between)
            close_fds=False,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, object]] = []

    def close(self) -> None:
        """End the browser process and close the pipes."""
        for fd in (self._write, self._read):
            os.close(fd)
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def _message(self, deadline: float) -> dict[str, object]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        parsed: dict[str, object] = json.loads(message)
        return parsed

    def call(
        self,
        method: str,
        session: str | None = None,
        timeout: float = 60,
        **params: object,
    ) -> dict[str, object]:
        """Send one command and return its result; events met meanwhile are kept."""
        self._next_id += 1
        request: dict[str, object] = {"id": self._next_id, "method": method}
        request["params"] = params
        if session is not None:
            request["sessionId"] = session
        os.write(self._write, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            message = self._message(deadline)
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, object] = message.get("result", {})  # type: ignore[assignment]
                return result
            self.events.append(message)

    def wait_for(self, method: str, timeout: float = 60) -> None:
        """Wait until an event named ``method`` arrives (kept with the others)."""
        if any(event.get("method") == method for event in self.events):
            return
        deadline = time.monotonic() + timeout
        while True:
            message = self._message(deadline)
            self.events.append(message)
            if message.get("method") == method:
                return


_PAGE_SCRIPT = """JSON.stringify({
  dom: document.documentElement.outerHTML,
  images: Array.from(document.images).map(i => ({
    alt: i.alt, src: i.getAttribute('src') || '',
    drawn_width: i.complete ? i.naturalWidth : 0,
    drawn_height: i.complete ? i.naturalHeight : 0})),
  figure: (() => { const f = document.querySelector('figure');
    if (!f) return null; f.scrollIntoView();
    // the image and the caption's text, not the figure's full-width box
    const boxes = Array.from(f.querySelectorAll('img'))
      .map(e => e.getBoundingClientRect());
    for (const c of f.querySelectorAll('figcaption')) {
      const range = document.createRange(); range.selectNodeContents(c);
      boxes.push(...range.getClientRects()); }
    const x = Math.min(...boxes.map(b => b.left));
    const y = Math.min(...boxes.map(b => b.top));
    return {x: x + scrollX, y: y + scrollY,
            width: Math.max(...boxes.map(b => b.right)) - x,
            height: Math.max(...boxes.map(b => b.bottom)) - y}; })()
})"""


def _error_messages(events: list[dict[str, object]]) -> list[str]:
    """Return the error-level console, exception and log messages among ``events``."""
    errors = []
    for event in events:
        method, params = event.get("method"), event.get("params") or {}
        assert isinstance(params, dict)
        if method == "Runtime.consoleAPICalled" and params.get("type") in {
            "error",
            "assert",
        }:
            errors.append(
                " ".join(
                    str(arg.get("value", arg.get("description", "")))
                    for arg in params.get("args", [])
                )
            )
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            exception = details.get("exception", {})
            errors.append(str(exception.get("description", details.get("text", ""))))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            errors.append(str(params["entry"].get("text", "")))
    return errors


def check_page(
    html: Path, chromium: str | None = None, width: int = 1400, height: int = 1000
) -> PageCheck:
    """Open a local HTML file in headless Chromium and report what it saw.

    Parameters
    ----------
    html : Path
        The page, opened as a ``file://`` address.
    chromium : str, optional
        The browser binary; by default ``CHROMIUM`` or ``chromium`` on the PATH.
    width, height : int
        The window size of the screenshot, in CSS pixels.

    Returns
    -------
    PageCheck
        Console errors, the DOM after load, the ``<img>`` elements as the browser
        drew them, and screenshots; :meth:`PageCheck.problems` judges them.
    """
    browser = chromium or find_chromium()
    with tempfile.TemporaryDirectory(
        prefix="costsense-chromium-", ignore_cleanup_errors=True
    ) as profile:  # its helper processes may still write as it exits
        tools = _DevTools(browser, profile, width, height)
        try:
            targets = tools.call("Target.getTargets")["targetInfos"]
            assert isinstance(targets, list)
            page = next(t["targetId"] for t in targets if t["type"] == "page")
            session = str(
                tools.call("Target.attachToTarget", targetId=page, flatten=True)[
                    "sessionId"
                ]
            )
            for domain in ("Runtime", "Log", "Page"):
                tools.call(f"{domain}.enable", session)
            tools.call(
                "Emulation.setDeviceMetricsOverride",
                session,
                width=width,
                height=height,
                deviceScaleFactor=1,
                mobile=False,
            )
            tools.events.clear()  # events of about:blank
            tools.call("Page.navigate", session, url=html.resolve().as_uri())
            tools.wait_for("Page.loadEventFired")
            shot = tools.call("Page.captureScreenshot", session, format="png")
            seen = tools.call(
                "Runtime.evaluate", session, expression=_PAGE_SCRIPT, returnByValue=True
            )["result"]
            assert isinstance(seen, dict)
            state = json.loads(seen["value"])
            figure_shot = None
            if state["figure"] is not None:
                figure_shot = tools.call(
                    "Page.captureScreenshot",
                    session,
                    format="png",
                    captureBeyondViewport=True,
                    clip={**state["figure"], "scale": 1},
                )
            tools.call("Runtime.evaluate", session, expression="0")  # flush events
        finally:
            tools.close()
    return PageCheck(
        console_errors=_error_messages(tools.events),
        dom=state["dom"],
        images=state["images"],
        screenshot=base64.b64decode(str(shot["data"])),
        figure_screenshot=(
            None if figure_shot is None else base64.b64decode(str(figure_shot["data"]))
        ),
    )


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serve files without logging every request."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        """Log nothing."""


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``root`` on a free localhost port; return the server and its address."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}"


def screenshot(chromium: str, url: str, png: Path, height: int = 1000) -> None:
    """Save a 1400-pixel wide screenshot of ``url`` (``height`` tall) to ``png``."""
    with tempfile.TemporaryDirectory(
        prefix="costsense-chromium-", ignore_cleanup_errors=True
    ) as profile:  # its helper processes may still write as it exits
        command = [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size=1400,{height}",
            "--virtual-time-budget=5000",
            f"--screenshot={png}",
            url,
        ]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0 or not png.exists():
        raise RuntimeError(
            f"Chromium failed on {url} (exit {result.returncode}):\n{result.stderr}"
        )
    if png.read_bytes()[:8] != PNG_SIGNATURE:
        raise RuntimeError(f"{png} is not a PNG file.")


def report_screenshots(report: Path, out: Path, prefix: str) -> int:
    """Check ``report/report.html`` and save its headline and first figure.

    Returns 1 (and saves nothing) if :meth:`PageCheck.problems` finds any; else
    writes ``<prefix>_headline.png`` and ``<prefix>_figure.png`` into ``out`` and
    returns 0.
    """
    page = report / "report.html"
    if not page.is_file():
        sys.exit(f"{page} does not exist: pass --report the folder of a report.")
    check = check_page(page, find_chromium(), width=1200, height=900)
    problems = check.problems()
    if check.figure_screenshot is None:
        problems.append("the page has no <figure>")
    if problems:
        print(f"{page} fails the browser check:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    assert check.figure_screenshot is not None
    out.mkdir(parents=True, exist_ok=True)
    shots = {"headline": check.screenshot, "figure": check.figure_screenshot}
    for name, data in shots.items():
        png = out / f"{prefix}_{name}.png"
        png.write_bytes(data)
        width, height = png_size(data)
        print(f"{png}  <-  {page} ({width} x {height} px)")
    print(f"{len(check.images)} figures checked, no console error")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=HERE / "_build" / "html")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder of the screenshots (docs/_build/screenshots; with --report, "
        "docs/_static)",
    )
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        help="check the report.html of this folder and capture its headline and "
        "first figure instead of the site",
    )
    parser.add_argument(
        "--prefix", default="report", help="file name prefix of the report screenshots"
    )
    parser.add_argument(
        "--example", default=DEFAULT_EXAMPLE, help="gallery example page to capture"
    )
    parser.add_argument(
        "--figure-height",
        type=int,
        default=3400,
        help="window height of the screenshot that reaches the example's figure",
    )
    args = parser.parse_args(argv)
    if args.report is not None:
        return report_screenshots(
            args.report, args.out or HERE / "_static", args.prefix
        )
    args.out = args.out or HERE / "_build" / "screenshots"
    pages = {
        "home.png": "index.html",
        f"example_{args.example}.png": f"auto_examples/{args.example}.html",
    }
    for page in pages.values():
        if not (args.html / page).is_file():
            sys.exit(f"{args.html / page} does not exist: run `make docs` first.")
    # the example once more, tall enough to reach its first figure (headless
    # Chromium paints a blank page when asked to scroll to an anchor)
    example_page = pages[f"example_{args.example}.png"]
    if first_figure_anchor((args.html / example_page).read_text()) is None:
        sys.exit(f"{example_page} shows no figure: was the gallery executed?")
    pages[f"example_{args.example}_figure.png"] = example_page
    chromium = find_chromium()
    args.out.mkdir(parents=True, exist_ok=True)
    server, address = serve(args.html)
    try:
        for name, page in pages.items():
            png = args.out / name
            png.unlink(missing_ok=True)
            height = args.figure_height if name.endswith("_figure.png") else 1000
            screenshot(chromium, f"{address}/{page}", png, height)
            print(f"{png}  <-  {page}")
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
