"""What every report figure shares: resolution, text escaping, colours, group labels.

Change it to change all figures at once (the PNG resolution, the palette).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import matplotlib.colors
from matplotlib.figure import Figure

from costsense.experiments._outputs import write_atomically

__all__ = ["assign_colours", "group_label"]

_DPI = 100


def _plain(text: str) -> str:
    """Escape ``$`` so matplotlib does not parse text as mathtext.

    Parameters
    ----------
    text : str
        Label text.

    Returns
    -------
    str
        The text with ``$`` escaped.
    """
    return text.replace("$", r"\$")


def _save(fig: Figure, path: Path) -> Path:
    """Write a figure as PNG, under a temporary name renamed to ``path``.

    A symbolic link at ``path`` is replaced, never written through.

    Parameters
    ----------
    fig : Figure
        The figure.
    path : Path
        Destination.

    Returns
    -------
    Path
        ``path``.
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=_DPI)
    write_atomically(path, buffer.getvalue(), root=path.parent)
    return path


def assign_colours(names: Sequence[str]) -> dict[str, str]:
    """Assign matplotlib's cycle colours to algorithms, in order.

    Parameters
    ----------
    names : sequence of str
        Algorithms.

    Returns
    -------
    dict of str to str
        Colour of each algorithm: matplotlib's ten cycle colours, or the twenty
        of ``tab20`` when there are more than ten algorithms.
    """
    if len(names) <= 10:
        return {name: f"C{k}" for k, name in enumerate(names)}
    palette = matplotlib.colormaps["tab20"]  # a listed map: palette(k) is colour k
    return {
        name: matplotlib.colors.to_hex(palette(k % palette.N))
        for k, name in enumerate(names)
    }


def group_label(dataset: str, cost: str) -> str:
    """Return the label of a (dataset, cost) group in the figures.

    Parameters
    ----------
    dataset : str
        Dataset name.
    cost : str
        Cost label, as in the results' ``cost`` column.

    Returns
    -------
    str
        ``"pima, cost 5"``: the cost is named, so a bare number is never left
        to be guessed.
    """
    return f"{dataset}, cost {cost}"
