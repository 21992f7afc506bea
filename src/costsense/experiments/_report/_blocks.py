"""A report's blocks, rendered as Markdown and as one self-contained HTML page.

Text is plain text but for code spans between backticks (``<code>`` in HTML).
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Block", "Heading", "Image", "Paragraph", "Table"]

_CSS = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; }
code { font-family: monospace; font-size: 0.95em; background: #f3f3f3;
       padding: 0 0.2em; border-radius: 3px; }
figure { margin: 1.5em 0; }
figcaption { font-size: 0.9em; color: #555; }
"""


@dataclass
class Table:
    """Table with a header row; the cells at ``bold`` (row, column) are bold."""

    header: list[str]
    rows: list[list[str]]
    bold: set[tuple[int, int]] = field(default_factory=set)

    def cells(self) -> list[list[tuple[str, bool]]]:
        """Return each row's cells as (text, bold), empty cells never bold."""
        return [
            [(text, bool(text) and (i, j) in self.bold) for j, text in enumerate(row)]
            for i, row in enumerate(self.rows)
        ]


@dataclass
class Heading:
    """Section heading (level 1 to 3)."""

    text: str
    level: int


@dataclass
class Paragraph:
    """Paragraph of plain text."""

    text: str


@dataclass
class Image:
    """Figure stored as a PNG file."""

    path: Path
    caption: str


Block = Heading | Paragraph | Table | Image

#: A code span: a run of backticks, then the shortest text up to a run of exactly
#: as many (CommonMark's rule; an unmatched run stays literal text).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def _inline_html(text: str) -> str:
    """Escape text for HTML, code spans as ``<code>`` (CommonMark's padding rule)."""

    def code(match: re.Match[str]) -> str:
        span = match.group(2).replace("\n", " ")
        padded = span.strip() and span[0] == span[-1] == " "
        return f"<code>{span[1:-1] if padded else span}</code>"

    # escaping leaves every backtick and space where it was: spans are found after
    return _CODE_SPAN.sub(code, html.escape(text))


def to_markdown(blocks: Sequence[Block], figure_dir: Path) -> str:
    """Render the blocks as Markdown, figures linked as ``<figure_dir name>/<file>``."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Table):
            rows = [[f"**{t}**" if b else t for t, b in row] for row in block.cells()]
            lines = [
                "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
                for row in [block.header, *rows]
            ]
            lines.insert(1, "|" + "|".join("---" for _ in block.header) + "|")
            out.append("\n".join(lines))
        else:
            alt = block.caption.replace("[", "(").replace("]", ")")
            link = f"{figure_dir.name}/{block.path.name}"
            out.append(f"![{alt}]({link})\n\n*{block.caption}*")
    return "\n\n".join(out) + "\n"


def to_html(blocks: Sequence[Block], title: str) -> str:
    """Render the blocks as one HTML page: inline CSS, figures as ``data:`` URIs."""
    text = _inline_html
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{text(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{text(block.text)}</p>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{text(h)}</th>" for h in block.header)
            rows = [
                "".join(
                    f"<td><b>{text(t)}</b></td>" if b else f"<td>{text(t)}</td>"
                    for t, b in row
                )
                for row in block.cells()
            ]
            body.append(
                f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
                + "\n".join(f"<tr>{row}</tr>" for row in rows)
                + "\n</tbody>\n</table>"
            )
        else:
            data = base64.b64encode(block.path.read_bytes()).decode("ascii")
            body.append(
                f'<figure><img alt="{html.escape(block.caption)}" '
                f'src="data:image/png;base64,{data}">'
                f"<figcaption>{text(block.caption)}</figcaption></figure>"
            )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
