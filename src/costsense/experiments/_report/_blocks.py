"""Document blocks of a report, and their two renderings: Markdown and HTML.

A report is built once as a list of blocks (headings, paragraphs, tables, figures)
and rendered twice: Markdown with relative figure links, and a single HTML page with
the figures inlined as base64 data URIs and its style sheet inline, so the page is
one self-contained file.
"""

from __future__ import annotations

import base64
import html
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
        HTML with inline CSS and the figures as base64 ``data:`` URIs.
    """
    esc = html.escape
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{esc(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{esc(block.text)}</p>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{esc(h)}</th>" for h in block.header)
            rows = []
            for row in block.rows:
                cells = "".join(
                    f"<td><b>{esc(c.text)}</b></td>"
                    if c.bold and c.text
                    else f"<td>{esc(c.text)}</td>"
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
                f"<figcaption>{esc(block.caption)}</figcaption></figure>"
            )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
