"""Screenshots of the built documentation site in headless Chromium.

Serves ``docs/_build/html`` on a free localhost port and saves PNG screenshots of the
home page and of one gallery example (its top, and the section of its first figure)
into ``docs/_build/screenshots/``; run
``make docs`` first. Usage::

    python docs/screenshots.py [--html DIR] [--out DIR] [--example NAME]

Chromium is Debian's ``chromium`` package (``apt-get install chromium``); another
binary can be named with the ``CHROMIUM`` environment variable.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
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


def find_chromium() -> str:
    """Return the path of a Chromium binary, or exit with how to install one."""
    candidates = [os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser"]
    for name in candidates:
        path = shutil.which(name) if name else None
        if path:
            return path
    sys.exit(
        "No Chromium found: install Debian's package (apt-get install -y chromium) "
        "or set CHROMIUM to the browser's path."
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
    with tempfile.TemporaryDirectory(prefix="costsense-chromium-") as profile:
        command = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
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


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=HERE / "_build" / "html")
    parser.add_argument("--out", type=Path, default=HERE / "_build" / "screenshots")
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
