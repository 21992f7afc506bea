"""Document blocks of a report, rendered as Markdown and as a self-contained HTML page.

A report is built once as a list of blocks and rendered twice: Markdown with
relative figure links, and HTML with the figures inlined as base64 data URIs and
an inline style sheet. Text is plain text with one piece of Markdown, code spans
between backticks (``<code>`` in HTML); everything else is escaped.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Block", "Cell", "Heading", "Image", "Paragraph", "Table", "plain_table"]

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
class Cell:
    """Table cell: text and whether it is bold."""

    text: str
    bold: bool = False


@dataclass
class Table:
    """Table with a header row."""

    header: list[str]
    rows: list[list[Cell]]


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


def plain_table(header: list[str], rows: list[list[str]]) -> Table:
    """Make a table of plain (not bold) cells from their texts."""
    return Table(header, [[Cell(text) for text in row] for row in rows])


#: A code span: a run of backticks, then the shortest text up to a run of exactly
#: as many (CommonMark's rule; an unmatched run stays literal text).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def _inline_html(text: str) -> str:
    """Escape plain text for HTML, each code span as ``<code>`` (CommonMark's rules).

    Line ends inside a span become spaces, and one space is stripped from each
    end of a span padded on both sides.
    """
    out: list[str] = []
    start = 0
    for match in _CODE_SPAN.finditer(text):
        code = match.group(2).replace("\n", " ")
        if code.strip() and code[0] == code[-1] == " ":
            code = code[1:-1]
        out.append(html.escape(text[start : match.start()]))
        out.append(f"<code>{html.escape(code)}</code>")
        start = match.end()
    out.append(html.escape(text[start:]))
    return "".join(out)


def _md_cell(cell: Cell) -> str:
    text = cell.text.replace("|", "\\|")
    return f"**{text}**" if cell.bold and text else text


def to_markdown(blocks: Sequence[Block], figure_dir: Path) -> str:
    """Render the blocks as Markdown, figures linked as ``<figure_dir name>/<file>``."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Table):
            lines = [
                "| " + " | ".join(h.replace("|", "\\|") for h in block.header) + " |",
                "|" + "|".join("---" for _ in block.header) + "|",
                *("| " + " | ".join(map(_md_cell, row)) + " |" for row in block.rows),
            ]
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
                "<tr>"
                + "".join(
                    f"<td><b>{text(c.text)}</b></td>"
                    if c.bold and c.text
                    else f"<td>{text(c.text)}</td>"
                    for c in row
                )
                + "</tr>"
                for row in block.rows
            ]
            body.append(
                f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
                + "\n".join(rows)
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
