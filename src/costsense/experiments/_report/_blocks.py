"""Document blocks of a report, and their two renderings: Markdown and HTML.

A report is built once as a list of blocks (headings, paragraphs, tables, figures)
and rendered twice: Markdown with relative figure links, and a single HTML page with
the figures inlined as base64 data URIs and its style sheet inline, so the page is
one self-contained file.

Text is plain text in both renderings, with one piece of Markdown: code spans
(text between backticks, as Markdown writes them) render as ``<code>`` in HTML,
in paragraphs, headings, table cells and captions alike; everything else is
escaped, so ``<b>`` or ``&lt;`` in a text shows as written.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Block",
    "Cell",
    "Heading",
    "Image",
    "Paragraph",
    "Table",
    "to_html",
    "to_markdown",
]

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

#: A code span: a run of backticks, then the shortest text up to a run of exactly
#: as many (CommonMark's rule; an unmatched run stays literal text).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def _inline_html(text: str) -> str:
    """Render plain text with Markdown code spans as HTML.

    Parameters
    ----------
    text : str
        Plain text; text between backticks is a code span (between runs of
        two or more backticks, the code may contain a single backtick).

    Returns
    -------
    str
        The text HTML-escaped, each code span as ``<code>`` with its content
        escaped too; line ends inside a span become spaces, and one space is
        stripped from each end of a span padded on both sides (CommonMark).
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
    """Render one table cell as Markdown.

    Parameters
    ----------
    cell : Cell
        The cell.

    Returns
    -------
    str
        Text with ``|`` escaped, wrapped in ``**`` when bold.
    """
    text = cell.text.replace("|", "\\|")
    return f"**{text}**" if cell.bold and text else text


def to_markdown(blocks: Sequence[Block], figure_dir: Path) -> str:
    """Render the blocks as Markdown.

    Parameters
    ----------
    blocks : sequence of blocks
        The report content.
    figure_dir : Path
        Directory of the figures; links are ``figures/<name>``.

    Returns
    -------
    str
        The Markdown document.
    """
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
            ]
            lines += [
                "| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows
            ]
            out.append("\n".join(lines))
        else:
            rel = f"{figure_dir.name}/{block.path.name}"
            alt = block.caption.replace("[", "(").replace("]", ")")
            out.append(f"![{alt}]({rel})\n\n*{block.caption}*")
    return "\n\n".join(out) + "\n"


def to_html(blocks: Sequence[Block], title: str) -> str:
    """Render the blocks as one self-contained HTML page.

    Parameters
    ----------
    blocks : sequence of blocks
        The report content.
    title : str
        Page title.

    Returns
    -------
    str
        HTML with inline CSS and the figures as base64 ``data:`` URIs; text
        escaped, code spans as ``<code>`` (the image's alt text stays plain).
    """
    esc = html.escape
    text = _inline_html
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{text(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{text(block.text)}</p>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{text(h)}</th>" for h in block.header)
            rows = []
            for row in block.rows:
                cells = "".join(
                    f"<td><b>{text(c.text)}</b></td>"
                    if c.bold and c.text
                    else f"<td>{text(c.text)}</td>"
                    for c in row
                )
                rows.append(f"<tr>{cells}</tr>")
            body.append(
                f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
                + "\n".join(rows)
                + "\n</tbody>\n</table>"
            )
        else:
            data = base64.b64encode(block.path.read_bytes()).decode("ascii")
            body.append(
                f'<figure><img alt="{esc(block.caption)}" '
                f'src="data:image/png;base64,{data}">'
                f"<figcaption>{text(block.caption)}</figcaption></figure>"
            )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
