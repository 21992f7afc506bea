"""One way to share parameter and attribute sections between estimator docstrings."""

from __future__ import annotations

from collections.abc import Callable


def documented(parameters: str, attributes: str) -> Callable[[type], type]:
    """Fill a class docstring's ``{parameters}`` and ``{attributes}`` lines.

    Parameters
    ----------
    parameters, attributes : str
        numpydoc entries, indented by four spaces, that replace the lines
        ``    {parameters}`` and ``    {attributes}``.

    Returns
    -------
    callable
        A class decorator.
    """

    def decorate(cls: type) -> type:
        cls.__doc__ = (
            (cls.__doc__ or "")
            .replace("    {parameters}", parameters)
            .replace("    {attributes}", attributes)
        )
        return cls

    return decorate
