"""One way to share parameter and attribute sections between estimator docstrings."""

from __future__ import annotations

import re
from collections.abc import Callable

#: Fitted attributes many estimators share, by name (numpydoc entries).
ATTRIBUTES = {
    "classes_": """\
    classes_ : ndarray of shape (n_classes,)
        Class labels, sorted.""",
    "pos_label_": """\
    pos_label_ : label
        The positive (costly) class.""",
    "cost_matrix_": """\
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        Cost matrix in ``classes_`` order.""",
    "degenerate_": """\
    degenerate_ : str or None
        None for a healthy fit; else why the model is constant (it kept no
        round, or predicts one class on its own training data), as the
        :class:`~costsense.exceptions.DegenerateModelWarning` of ``fit`` said.""",
    "n_features_in_": """\
    n_features_in_ : int
        Number of features seen in ``fit``.""",
    "feature_names_in_": """\
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names, when ``X`` had string column names.""",
}

#: The entries every fitted classifier shares, after its own.
ATTRIBUTES["fitted"] = "\n".join(
    ATTRIBUTES[name] for name in ("degenerate_", "n_features_in_", "feature_names_in_")
)

_SECTION = re.compile(r"^    (Notes|See Also|References|Examples)\n    -+\n", re.M)


def shared_attributes(*names: str) -> str:
    """Return the shared entries of :data:`ATTRIBUTES` named ``names``, in order."""
    return "\n".join(ATTRIBUTES[name] for name in names)


def shared(cls: type) -> type:
    """Replace each line ``    {name}`` of a class docstring by ``ATTRIBUTES[name]``.

    ``{fitted}`` stands for ``degenerate_``, ``n_features_in_`` and
    ``feature_names_in_``.
    """
    doc = cls.__doc__ or ""
    for name, entry in ATTRIBUTES.items():
        doc = doc.replace(f"    {{{name}}}", entry)
    cls.__doc__ = doc
    return cls


def documented(parameters: str, attributes: str) -> Callable[[type], type]:
    """Add ``Parameters`` and ``Attributes`` sections to a class docstring.

    The lines ``    {parameters}`` and ``    {attributes}`` are replaced where
    the docstring has them; a docstring without a ``Parameters`` section gets
    both sections before its first Notes, See Also, References or Examples
    section (or at its end). Shared entries are then filled (:func:`shared`).

    Parameters
    ----------
    parameters, attributes : str
        numpydoc entries, indented by four spaces.

    Returns
    -------
    callable
        A class decorator.
    """

    def decorate(cls: type) -> type:
        doc = cls.__doc__ or ""
        if "\n    Parameters\n" not in doc:
            sections = (
                "Parameters\n    ----------\n    {parameters}\n\n"
                "    Attributes\n    ----------\n    {attributes}\n\n    "
            )
            found = _SECTION.search(doc)
            if found is None:
                doc = doc.rstrip() + "\n\n    " + sections.rstrip() + "\n    "
            else:
                start = found.start() + 4
                doc = doc[:start] + sections + doc[start:]
        cls.__doc__ = doc.replace("    {parameters}", parameters).replace(
            "    {attributes}", attributes
        )
        return shared(cls)

    return decorate
