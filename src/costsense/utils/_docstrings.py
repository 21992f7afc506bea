"""One way to share parameter and attribute entries between estimator docstrings."""

from __future__ import annotations

import re
from collections.abc import Callable

#: Parameters and fitted attributes several estimators share, by name (numpydoc
#: entries).
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
    "platt": """\
    probability : bool, default=False
        Fit Platt scaling on out-of-fold decision values (``cv``), for
        ``predict_proba`` (one extra fit per fold).
    cv : int, cross-validation generator or iterable, default=5
        Folds of the Platt scaling: a number of shuffled stratified folds, or any
        scikit-learn splitter or list of splits (used with ``probability=True``).""",
    "cost_unit": """\
    pos_label : hashable, default=None
        The positive (costly) class; the minority class if None.
    cost_unit : {"given", "cheaper"}, default="given"
        "given": the costs as given, as in the paper: they multiply ``C``, so
        their scale matters, not only their ratio (money in cents weakens the
        regulariser a hundredfold, and the solver slows down). "cheaper": every
        cost divided by the mean error cost of the cheaper class (per-row
        costs included), the papers' unit ``C2 = 1``; the same model in any
        currency, and the paper's model whenever the cheaper error costs 1.""",
    "sampling_strategy": """\
    sampling_strategy : float, str, dict or callable, default="auto"
        Which classes to grow and to what size, as in imbalanced-learn's
        oversamplers: a float is the minority / majority size ratio after
        resampling (binary only); "auto" (= "not majority"), "minority",
        "not minority", "all" equalise the named classes with the majority; a dict
        maps classes to their sizes after resampling; a callable maps ``y`` to
        such a dict.""",
    "categorical_features": """\
    categorical_features : "auto", array-like of int, bool or str, default=None
        Categorical columns, drawn by roulette wheel from each class's own values
        (any hashable values: strings, numbers): column indices, a boolean mask
        over the columns, column names (X a DataFrame), or "auto" (the
        DataFrame's columns of pandas' ``category`` dtype), as imbalanced-learn's
        SMOTENC reads them; None: none. Every other column must hold numbers.""",
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
